//! Every door bounded: attacks that once took gigabytes, each against the gateway's own process, whose peak
//! memory `/proc` tells.

use std::process::{Child, Command, Stdio};

use crate::common::{eventually, free_port};

const BIN: &str = env!("CARGO_BIN_EXE_voice-gateway");

/// The gateway binary on a free loopback port (engines off), killed when dropped.
struct Gateway {
    child: Child,
    port: u16,
    _dir: tempfile::TempDir,
}

impl Gateway {
    async fn start() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        let child = Command::new(BIN)
            .current_dir(dir.path())
            .env("ENGINES", "off")
            .env("LISTEN_ADDR", format!("127.0.0.1:{port}"))
            .env("WYOMING_ZEROCONF", "false")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        eventually("the gateway accepts connections", 20, || async {
            std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
        })
        .await;
        Self { child, port, _dir: dir }
    }

    /// The most memory the process has held so far (`VmHWM`), in MiB.
    fn peak_mib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let kib: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmHWM");
        kib / 1024
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }
}

impl Drop for Gateway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test]
async fn a_few_kilobytes_of_384_khz_multichannel_flac_are_refused_before_they_are_decoded() {
    let gateway = Gateway::start().await;
    let before = gateway.peak_mib();
    // 49 KB claiming 100 s at 384 kHz in 7.1: 614 MB of samples once decoded.
    let bomb = include_bytes!("../fixtures/attacks/silence-384k-7.1.flac").to_vec();
    let client = reqwest::Client::new();

    for path in ["/api/transcribe", "/v1/audio/transcriptions"] {
        let request = if path.starts_with("/v1") {
            let part = reqwest::multipart::Part::bytes(bomb.clone()).file_name("bomb.flac");
            let form = reqwest::multipart::Form::new()
                .text("model", "whisper-1")
                .part("file", part);
            client.post(gateway.url(path)).multipart(form)
        } else {
            client
                .post(gateway.url(path))
                .header("content-type", "audio/flac")
                .body(bomb.clone())
        };
        let started = std::time::Instant::now();
        let answer = request.send().await.unwrap();
        let status = answer.status().as_u16();
        let body = answer.text().await.unwrap();
        assert_eq!(status, 400, "{path}: {body}");
        assert!(
            body.contains("384000 Hz") && body.contains("at most 96 kHz"),
            "{path}: {body}"
        );
        // Refused from the header: no decoding at all (it took 14 s and 1.2 GB before).
        assert!(started.elapsed().as_secs() < 5, "{path}: {:?}", started.elapsed());
    }
    let grown = gateway.peak_mib().saturating_sub(before);
    assert!(grown < 64, "the peak memory grew by {grown} MiB");
}
