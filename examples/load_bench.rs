//! Abuse and load against the real binary (run by hand, not in CI): slow clients, a connection flood, voice
//! connections buffering long utterances, and a sustained write load; prints one table.
//!
//! Run: `cargo build --release && cargo run --release --example load_bench -- [--bin target/release/voice-gateway]
//! [--slow 2000] [--flood 15000] [--voice 300] [--write-seconds 600]`
//!
//! `/health` is asked from another loopback address (127.0.0.2) every 200 ms during each load; the table
//! gives how often it failed and its slowest answer. Memory is the gateway's resident set (VmRSS).

use std::net::{IpAddr, SocketAddr};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;

const ADMIN_KEY: &str = "load-admin-key-0123456789";

#[path = "common/args.rs"]
mod args;
#[path = "common/port.rs"]
mod port;
use args::arg;
use port::free_port;

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bin = std::fs::canonicalize(arg(&args, "--bin", "target/release/voice-gateway"))
        .expect("the binary exists (cargo build --release first)")
        .display()
        .to_string();
    let slow: usize = arg(&args, "--slow", "2000").parse().unwrap();
    let flood: usize = arg(&args, "--flood", "15000").parse().unwrap();
    let voice: usize = arg(&args, "--voice", "300").parse().unwrap();
    let write_seconds: u64 = arg(&args, "--write-seconds", "600").parse().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let gateway = Gateway::start(&bin, dir.path(), port).await;
    let mut rows: Vec<(String, String, String)> = Vec::new();
    let mut row = |load: &str, what: &str, value: String| rows.push((load.into(), what.into(), value));

    row("start", "RSS", format!("{} MB", gateway.rss_mb()));
    let (health, held) = under_health(&gateway, slow_clients(&gateway, slow)).await;
    row("slow clients", "held after 15 s", format!("{held} of {slow}"));
    row("slow clients", "/health failed, slowest", health);

    let (health, (opened, answered_503)) = under_health(&gateway, flood_connections(&gateway, flood)).await;
    row("flood", "connections opened", format!("{opened} of {flood}"));
    row("flood", "refused with 503 at once", answered_503.to_string());
    row("flood", "/health failed, slowest", health);

    let (health, (peak, refused)) = under_health(&gateway, voice_memory(&gateway, voice)).await;
    row("voice", "RSS at the peak", format!("{peak} MB"));
    row(
        "voice",
        "connections refused or closed",
        format!("{refused} of {voice}"),
    );
    row("voice", "/health failed, slowest", health);
    tokio::time::sleep(Duration::from_secs(10)).await;
    row("voice", "RSS 10 s after", format!("{} MB", gateway.rss_mb()));

    let (health, (per_10s, wal_max)) = under_health(&gateway, write_load(&gateway, write_seconds)).await;
    row("writes", "writes per 10 s, first → last", per_10s);
    row("writes", "largest WAL", format!("{wal_max} MB"));
    row("writes", "/health failed, slowest", health);
    tokio::time::sleep(Duration::from_secs(15)).await;
    row("writes", "WAL 15 s after", format!("{} MB", gateway.wal_mb()));
    row("end", "RSS", format!("{} MB", gateway.rss_mb()));

    println!("| load | measure | value |\n|---|---|---|");
    for (load, what, value) in rows {
        println!("| {load} | {what} | {value} |");
    }
}

/// The binary under test.
struct Gateway {
    child: Child,
    addr: SocketAddr,
    db: std::path::PathBuf,
}

impl Gateway {
    async fn start(bin: &str, dir: &std::path::Path, port: u16) -> Self {
        let db = dir.join("load.db");
        let child = Command::new(bin)
            .current_dir(dir)
            .env("ENGINES", "off")
            .env("AUTH_ENABLED", "true")
            .env("ADMIN_API_KEY", ADMIN_KEY)
            .env("DB_PATH", &db)
            .env("LISTEN_ADDR", format!("127.0.0.1:{port}"))
            .env("DAILY_REQUEST_LIMIT", "0")
            .env("MEMORY_EXTRACTION_ENABLED", "false")
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts (cargo build --release first)");
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let started = Instant::now();
        while TcpStream::connect(addr).await.is_err() {
            assert!(started.elapsed() < Duration::from_secs(30), "gateway did not start");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Self { child, addr, db }
    }

    fn rss_mb(&self) -> u64 {
        std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("VmRSS:"))
                    .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
            })
            .unwrap_or(0)
            / 1024
    }

    fn wal_mb(&self) -> u64 {
        std::fs::metadata(format!("{}-wal", self.db.display())).map_or(0, |m| m.len()) / (1024 * 1024)
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    async fn user(&self, http: &reqwest::Client, name: &str) -> String {
        let created: Value = http
            .post(self.url("/api/admin/users"))
            .header("X-Admin-Key", ADMIN_KEY)
            .json(&json!({"name": name}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        created["token"].as_str().unwrap_or_default().to_string()
    }
}

impl Drop for Gateway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `load` while asking `/health` from 127.0.0.2 every 200 ms; "failures of asks, slowest ms".
async fn under_health<T>(gateway: &Gateway, load: impl std::future::Future<Output = T>) -> (String, T) {
    let done = Arc::new(AtomicBool::new(false));
    let (failed, asked, slowest) = (
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicU64::new(0)),
    );
    let prober = {
        let (done, failed, asked, slowest) = (done.clone(), failed.clone(), asked.clone(), slowest.clone());
        let url = gateway.url("/health");
        tokio::spawn(async move {
            let http = reqwest::Client::builder()
                .local_address("127.0.0.2".parse::<IpAddr>().unwrap())
                .timeout(Duration::from_secs(5))
                .pool_max_idle_per_host(0)
                .build()
                .unwrap();
            while !done.load(Ordering::Relaxed) {
                let started = Instant::now();
                let ok = http.get(&url).send().await.is_ok_and(|r| r.status() == 200);
                asked.fetch_add(1, Ordering::Relaxed);
                if !ok {
                    failed.fetch_add(1, Ordering::Relaxed);
                }
                slowest.fetch_max(started.elapsed().as_millis() as u64, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        })
    };
    let out = load.await;
    done.store(true, Ordering::Relaxed);
    let _ = prober.await;
    let summary = format!(
        "{} of {} failed, slowest {} ms",
        failed.load(Ordering::Relaxed),
        asked.load(Ordering::Relaxed),
        slowest.load(Ordering::Relaxed)
    );
    (summary, out)
}

async fn connect_from(addr: SocketAddr, from: IpAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(from, 0))?;
    socket.connect(addr).await
}

/// Slow clients from 127.0.0.1: a request line, then one header byte every 2 s; how many are still open
/// after 15 s.
async fn slow_clients(gateway: &Gateway, n: usize) -> usize {
    let held = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for _ in 0..n {
        let (addr, held) = (gateway.addr, held.clone());
        tasks.push(tokio::spawn(async move {
            let Ok(mut tcp) = connect_from(addr, "127.0.0.1".parse().unwrap()).await else {
                return;
            };
            if tcp
                .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                .await
                .is_err()
            {
                return;
            }
            let started = Instant::now();
            while started.elapsed() < Duration::from_secs(15) {
                tokio::time::sleep(Duration::from_secs(2)).await;
                if tcp.write_all(b"a").await.is_err() {
                    return;
                }
            }
            // Still writable after 15 s: check it is really open (a read would show the close).
            let mut probe = [0u8; 1];
            if let Ok(Ok(0)) = tokio::time::timeout(Duration::from_millis(200), tcp.peek(&mut probe)).await {
                return;
            }
            held.fetch_add(1, Ordering::Relaxed);
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    held.load(Ordering::Relaxed) as usize
}

/// Opens `n` idle connections as fast as possible from 127.0.0.1, holds them 5 s; (opened, refused at once
/// with 503).
async fn flood_connections(gateway: &Gateway, n: usize) -> (usize, usize) {
    let mut open = Vec::new();
    for _ in 0..n {
        match connect_from(gateway.addr, "127.0.0.1".parse().unwrap()).await {
            Ok(tcp) => open.push(tcp),
            Err(_) => break,
        }
    }
    tokio::time::sleep(Duration::from_secs(5)).await;
    let mut refused = 0;
    for tcp in &open {
        let mut buf = [0u8; 12];
        if let Ok(n) = tcp.try_read(&mut buf)
            && buf[..n].starts_with(b"HTTP/1.1 503")
        {
            refused += 1;
        }
    }
    (open.len(), refused)
}

/// `n` voice connections (users of four each) sending 60 s of 48 kHz audio without ending it; (peak RSS MB,
/// connections refused or closed by the gateway).
async fn voice_memory(gateway: &Gateway, n: usize) -> (u64, usize) {
    let http = reqwest::Client::new();
    let mut tokens = Vec::new();
    for u in 0..n.div_ceil(4) {
        tokens.push(gateway.user(&http, &format!("voice{u}")).await);
    }
    let refused = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for i in 0..n {
        let url = format!("ws://{}/ws/voice?token={}", gateway.addr, tokens[i / 4]);
        let refused = refused.clone();
        tasks.push(tokio::spawn(async move {
            let Ok((mut ws, _)) = tokio_tungstenite::connect_async(url).await else {
                refused.fetch_add(1, Ordering::Relaxed);
                return None;
            };
            let start = json!({"type": "start", "sample_rate": 48000}).to_string();
            if ws.send(Message::Text(start.into())).await.is_err() {
                refused.fetch_add(1, Ordering::Relaxed);
                return None;
            }
            // 59 s of audio in one-second frames of 96 kB.
            let second: Vec<u8> = (0..48_000)
                .flat_map(|i: i32| ((i % 200) as i16 * 100).to_le_bytes())
                .collect();
            for _ in 0..59 {
                if ws.send(Message::Binary(second.clone().into())).await.is_err() {
                    refused.fetch_add(1, Ordering::Relaxed);
                    return None;
                }
            }
            // An error event or a close means the gateway ended this connection.
            if let Ok(Some(Ok(Message::Text(_) | Message::Close(_)))) =
                tokio::time::timeout(Duration::from_millis(500), ws.next()).await
            {
                refused.fetch_add(1, Ordering::Relaxed);
                return None;
            }
            Some(ws)
        }));
    }
    let mut open = Vec::new();
    for t in tasks {
        if let Ok(Some(ws)) = t.await {
            open.push(ws);
        }
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let peak = gateway.rss_mb();
    for mut ws in open {
        let _ = ws.close(None).await;
    }
    (peak, refused.load(Ordering::Relaxed) as usize)
}

/// 16 writers (prefs merges and new sessions) for `seconds`; ("first → last" writes per 10 s, largest WAL MB).
async fn write_load(gateway: &Gateway, seconds: u64) -> (String, u64) {
    let http = reqwest::Client::new();
    let mut tokens = Vec::new();
    for u in 0..16 {
        tokens.push(gateway.user(&http, &format!("writer{u}")).await);
    }
    let writes = Arc::new(AtomicU64::new(0));
    let stop = Instant::now() + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    for (i, token) in tokens.into_iter().enumerate() {
        let (http, writes, base) = (http.clone(), writes.clone(), gateway.url(""));
        tasks.push(tokio::spawn(async move {
            let mut n = 0u64;
            while Instant::now() < stop {
                n += 1;
                let ok = if n.is_multiple_of(2) {
                    let body = json!({"full_name": format!("Writer {i} {n}"), "medical_notes": "x".repeat(500)});
                    http.put(format!("{base}/api/me/prefs"))
                        .bearer_auth(&token)
                        .json(&body)
                        .send()
                        .await
                } else {
                    http.post(format!("{base}/api/sessions"))
                        .bearer_auth(&token)
                        .json(&json!({}))
                        .send()
                        .await
                };
                if ok.is_ok_and(|r| r.status().is_success()) {
                    writes.fetch_add(1, Ordering::Relaxed);
                }
            }
        }));
    }
    let mut windows = Vec::new();
    let mut wal_max = 0;
    let mut last = 0;
    while Instant::now() < stop {
        tokio::time::sleep(Duration::from_secs(10)).await;
        let now = writes.load(Ordering::Relaxed);
        windows.push(now - last);
        last = now;
        wal_max = wal_max.max(gateway.wal_mb());
    }
    for t in tasks {
        let _ = t.await;
    }
    let summary = format!(
        "{} → {} ({} in all)",
        windows.first().copied().unwrap_or(0),
        windows.last().copied().unwrap_or(0),
        writes.load(Ordering::Relaxed)
    );
    (summary, wal_max)
}
