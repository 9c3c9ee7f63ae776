//! Many people talking at once (issue 66): N clients stream real speech in real time over `/ws/voice` (20 ms
//! frames, espeak-ng's voice, then silence as a microphone sends it) to the release binary running the real
//! Silero VAD and Smart Turn; a fake engine server of this benchmark answers at once (the OpenAI-compatible
//! transcription, chat completions as server-sent events, speech as WAV), so what is measured is the gateway.
//!
//! For each N: first audio after the last speech sample (p50 / p90 over every question of every talker), the
//! gateway's CPU per second of speech sent, its resident memory per talker (peak while they talk, over its
//! resident memory before they connected; one question is asked first, and what the models took for it is
//! shown apart as "once") and Smart Turn's runs per question (from `/api/metrics`). Then idle sessions: the
//! memory of `--idle` open sessions that said nothing, and what is left when they have closed.
//!
//! Run: `cargo build --release && cargo run --release --example density_bench -- [--bin
//! target/release/voice-gateway] [--engines target/engines] [--talkers 1,10,25,50,100] [--questions 3]
//! [--idle 300] [--room-noise 20] [--env KEY=VALUE ...]` (the engines folder of the end-to-end test has the models and ONNX
//! Runtime; `--env` sets the gateway's settings, to measure what each part costs, such as `--env
//! TURN_ENGINE=silence`). The room is never digitally silent: noise of `--room-noise` RMS (20, about -64
//! dBFS: a quiet room through a browser's noise suppression) lies under the speech and the pauses.

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;
use voice_gateway::providers::audio::parse_wav;
use voice_gateway::providers::resample::resample;

const QUESTIONS: [&str; 3] = [
    "What is the capital of France?",
    "How far away is the moon?",
    "Can you tell me a short joke?",
];

/// The admin key the benchmark's gateway gets, for its metrics.
const ADMIN_KEY: &str = "density-bench-admin-key-0123456789";

#[path = "common/args.rs"]
mod args;
#[path = "common/memory.rs"]
mod memory;
#[path = "common/port.rs"]
mod port;
use args::arg;
use memory::rss_mib_of;
use port::free_port;

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bin = arg(&args, "--bin", "target/release/voice-gateway");
    let engines = std::fs::canonicalize(arg(&args, "--engines", "target/engines")).expect("the engines folder");
    let talkers: Vec<usize> = arg(&args, "--talkers", "1,10,25,50,100")
        .split(',')
        .map(|n| n.parse().unwrap())
        .collect();
    let questions: usize = arg(&args, "--questions", "3").parse().unwrap();
    let idle: usize = arg(&args, "--idle", "300").parse().unwrap();
    let noise: f64 = arg(&args, "--room-noise", "20").parse().unwrap();
    let clips: Vec<(Vec<i16>, u32)> = QUESTIONS.iter().map(|q| speak(q)).collect();
    let (room, clips) = in_a_room(clips, noise);
    let extra: Vec<(String, String)> = args
        .windows(2)
        .filter(|w| w[0] == "--env")
        .filter_map(|w| w[1].split_once('=').map(|(k, v)| (k.to_string(), v.to_string())))
        .collect();
    let fakes = start_fakes().await;
    println!(
        "| talkers | first audio p50 / p90 ms | gateway CPU ms per s of speech | MB per talker | Smart Turn runs \
         per question | errors |"
    );
    println!("|---|---|---|---|---|---|");
    for &n in &talkers {
        let gateway = Gateway::start(&bin, &engines, &fakes, &extra).await;
        // One question first, so that what the models take once (their sessions' working memory, grown on
        // their first run) is not counted as the talkers'.
        let started = gateway.rss_mb();
        talk(&gateway, (&clips, &room), 1, 1).await;
        let once = gateway.rss_mb() - started;
        let checks = gateway.turn_checks().await;
        let row = talk(&gateway, (&clips, &room), n, questions).await;
        let runs = (gateway.turn_checks().await - checks) as f64 / (n * questions) as f64;
        println!(
            "| {n} | {:.0} / {:.0} | {:.0} | {:.2} (+{once:.0} once) | {runs:.2} | {} |",
            row.p50, row.p90, row.cpu_ms_per_speech_s, row.mb_per_talker, row.errors
        );
    }
    let gateway = Gateway::start(&bin, &engines, &fakes, &extra).await;
    let (per_session, left) = idle_sessions(&gateway, idle).await;
    println!("\nidle /ws/voice sessions ({idle}): {per_session:.1} KiB each; {left:.1} MB left after they closed");
}

/// espeak-ng's voice of `text` at 16 kHz: samples and rate.
fn speak(text: &str) -> (Vec<i16>, u32) {
    let out = Command::new("espeak-ng")
        .args(["-v", "en", "--stdout", text])
        .output()
        .expect("espeak-ng");
    let pcm = parse_wav(&out.stdout).expect("espeak-ng's WAV");
    // At 16 kHz, the rate Silero and Smart Turn hear (a microphone's, as the page sends it).
    let mut samples = resample(&pcm.samples, pcm.sample_rate, 16_000);
    // Its own silence after the last word is not speech: the wait is timed from the last word.
    let last = samples.iter().rposition(|s| s.unsigned_abs() > 300).unwrap_or(0);
    samples.truncate(last + 1);
    (samples, 16_000)
}

/// The room's noise (`rms`, uniform, ten seconds of it to loop) and the clips spoken in it.
fn in_a_room(clips: Vec<(Vec<i16>, u32)>, rms: f64) -> (Vec<i16>, Vec<(Vec<i16>, u32)>) {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let room: Vec<i16> = (0..160_000)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let uniform = (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0;
            (uniform * rms * 3f64.sqrt()) as i16
        })
        .collect();
    let spoken = clips
        .into_iter()
        .map(|(samples, rate)| {
            let mixed = samples
                .iter()
                .zip(room.iter().cycle())
                .map(|(s, n)| s.saturating_add(*n))
                .collect();
            (mixed, rate)
        })
        .collect();
    (room, spoken)
}

/// The fake engines: transcription, chat completions (streamed) and speech, all answering at once.
async fn start_fakes() -> String {
    let app = axum::Router::new()
        .route("/v1/chat/completions", post(fake_llm))
        .route("/v1/audio/speech", post(fake_tts))
        .route("/v1/audio/transcriptions", post(fake_stt));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/v1", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    base
}

/// Each fake reads the whole request before it answers, as a real server does.
async fn fake_llm(_request: Bytes) -> Response {
    let chunk = |text: &str| json!({"choices": [{"index": 0, "delta": {"content": text}}]});
    let end = json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]});
    let body: String = [chunk("Paris is the capital."), chunk(" That is all."), end]
        .iter()
        .map(|e| format!("data: {e}\n\n"))
        .chain(std::iter::once("data: [DONE]\n\n".to_string()))
        .collect();
    ([("content-type", "text/event-stream")], Body::from(body)).into_response()
}

async fn fake_stt(_audio: Bytes) -> Response {
    axum::Json(json!({"text": "What is the capital of France?", "language": "en"})).into_response()
}

/// Half a second of silence at 24 kHz.
async fn fake_tts(_request: Bytes) -> Response {
    let data = 24_000u32;
    let mut wav = Vec::with_capacity(44 + data as usize);
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + data).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    for (value, width) in [(16u32, 4), (1, 2), (1, 2), (24_000, 4), (48_000, 4), (2, 2), (16, 2)] {
        wav.extend_from_slice(&value.to_le_bytes()[..width]);
    }
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&data.to_le_bytes());
    wav.resize(44 + data as usize, 0);
    ([("content-type", "audio/wav")], Bytes::from(wav)).into_response()
}

/// The gateway binary on a free loopback port, with the neural detectors and the fake engines.
struct Gateway {
    child: Child,
    addr: String,
    _dir: tempfile::TempDir,
}

impl Drop for Gateway {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
    }
}

impl Gateway {
    async fn start(bin: &str, engines: &std::path::Path, fakes: &str, extra: &[(String, String)]) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        let addr = format!("127.0.0.1:{port}");
        let child = Command::new(bin)
            .current_dir(dir.path())
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .envs([
                ("LISTEN_ADDR", addr.as_str()),
                ("ENGINES", "off"),
                ("ENGINES_DIR", engines.to_str().unwrap()),
                ("VAD_ENGINE", "silero"),
                ("TURN_ENGINE", "smart-turn"),
                ("AUTH_ENABLED", "false"),
                ("DAILY_REQUEST_LIMIT", "0"),
                ("MEMORY_EXTRACTION_ENABLED", "false"),
                ("WEB_SEARCH_ENABLED", "false"),
                ("FILLER_AFTER_MS", "0"),
                ("VOICE_CONNECTIONS_PER_USER", "1000"),
                ("MAX_VOICE_CONNECTIONS", "1000"),
                ("MAX_CONNECTIONS", "4000"),
                ("LOCAL_LLM_URL", fakes),
                ("DEFAULT_LLM_PROVIDER", "local"),
                ("OPENAI_STT_URL", fakes),
                ("DEFAULT_STT_PROVIDER", "openai"),
                ("OPENAI_TTS_URL", fakes),
                ("DEFAULT_TTS_PROVIDER", "openai"),
                ("RUST_LOG", "warn"),
                ("ADMIN_API_KEY", ADMIN_KEY),
            ])
            .envs(extra.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the gateway binary (cargo build --release first)");
        let gateway = Self { child, addr, _dir: dir };
        let health = format!("http://{}/health", gateway.addr);
        for _ in 0..300 {
            if reqwest::get(&health).await.is_ok_and(|r| r.status() == 200) {
                return gateway;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("the gateway did not start");
    }

    /// CPU seconds the gateway used so far (user and system).
    fn cpu_seconds(&self) -> f64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap_or_default();
        let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
        let ticks: f64 = fields
            .get(11..13)
            .map_or(0.0, |f| f.iter().filter_map(|v| v.parse::<f64>().ok()).sum());
        ticks / 100.0
    }

    /// Smart Turn's checks started so far (`turn_checks_total{outcome="started"}`).
    async fn turn_checks(&self) -> u64 {
        let metrics: serde_json::Value = reqwest::Client::new()
            .get(format!("http://{}/api/metrics", self.addr))
            .header("X-Admin-Key", ADMIN_KEY)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        metrics["counters"]
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(name, _)| name.starts_with("turn_checks_total") && name.contains("started"))
            .filter_map(|(_, v)| v.as_u64())
            .sum()
    }

    /// The gateway's resident memory in MB.
    fn rss_mb(&self) -> f64 {
        rss_mib_of(&self.child.id().to_string())
    }
}

struct Row {
    p50: f64,
    p90: f64,
    cpu_ms_per_speech_s: f64,
    mb_per_talker: f64,
    errors: usize,
}

/// `n` talkers each asking `questions` questions; the row of the table.
async fn talk(gateway: &Gateway, (clips, room): (&[(Vec<i16>, u32)], &[i16]), n: usize, questions: usize) -> Row {
    let base = gateway.rss_mb();
    let cpu = gateway.cpu_seconds();
    let peak = Arc::new(std::sync::Mutex::new(base));
    let sampling = {
        let (peak, pid) = (peak.clone(), gateway.child.id());
        tokio::spawn(async move {
            loop {
                let mb = rss_mib_of(&pid.to_string());
                {
                    let mut p = peak.lock().unwrap();
                    *p = p.max(mb);
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
    };
    let tasks: Vec<_> = (0..n)
        .map(|i| {
            let (addr, clips, room) = (gateway.addr.clone(), clips.to_vec(), room.to_vec());
            tokio::spawn(async move { talker(addr, clips, room, i, questions).await })
        })
        .collect();
    let (mut waits, mut errors, mut speech) = (Vec::new(), 0, 0.0);
    for task in tasks {
        let (w, e, s) = task.await.unwrap();
        waits.extend(w);
        errors += e;
        speech += s;
    }
    sampling.abort();
    let used = gateway.cpu_seconds() - cpu;
    waits.sort_by(f64::total_cmp);
    let at = |p: f64| {
        waits
            .get(((waits.len() as f64 - 1.0) * p).round() as usize)
            .copied()
            .unwrap_or(f64::NAN)
    };
    let peak = *peak.lock().unwrap();
    Row {
        p50: at(0.5),
        p90: at(0.9),
        cpu_ms_per_speech_s: used * 1000.0 / speech.max(0.001),
        mb_per_talker: (peak - base) / n as f64,
        errors,
    }
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// One person: connects, waits a moment of their own, asks `questions` questions in real time. Milliseconds
/// from the last speech sample to the first audio of each answer, errors, seconds of speech sent.
async fn talker(
    addr: String,
    clips: Vec<(Vec<i16>, u32)>,
    room: Vec<i16>,
    index: usize,
    questions: usize,
) -> (Vec<f64>, usize, f64) {
    let (mut waits, mut errors, mut speech) = (Vec::new(), 0, 0.0);
    let Ok((mut ws, _)) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/voice")).await else {
        return (waits, 1, 0.0);
    };
    let rate = clips[0].1;
    let start = json!({"type": "start", "vad": true, "sample_rate": rate, "language": "en", "stream": true,
        "audio_stream": true});
    ws.send(Message::Text(start.to_string().into())).await.unwrap();
    // Not all at the same moment: each starts within two seconds.
    tokio::time::sleep(Duration::from_millis((index as u64 * 7919) % 2000)).await;
    for q in 0..questions {
        let (samples, _) = &clips[(index + q) % clips.len()];
        speech += samples.len() as f64 / f64::from(rate);
        match ask(&mut ws, samples, &room, rate).await {
            Some(ms) if std::env::var_os("DENSITY_VERBOSE").is_some() => {
                eprintln!("talker {index}, {:?}: {ms:.0} ms", QUESTIONS[(index + q) % clips.len()]);
                waits.push(ms);
            }
            Some(ms) => waits.push(ms),
            None => errors += 1,
        }
    }
    let _ = ws.close(None).await;
    (waits, errors, speech)
}

/// Sends one question in 20 ms frames in real time, then silence until the answer is done; the time from the
/// last speech frame to the first audio frame.
async fn ask(ws: &mut Socket, samples: &[i16], room: &[i16], rate: u32) -> Option<f64> {
    let frame = rate as usize / 50;
    let mut quiet = room.chunks_exact(frame).cycle();
    let mut tick = tokio::time::interval(Duration::from_millis(20));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let (mut spoken_at, mut first_audio, mut sent) = (None, None, 0usize);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        tokio::select! {
            _ = tick.tick() => {
                if Instant::now() > deadline {
                    eprintln!("no answer within 30 s");
                    return None;
                }
                let piece = if sent < samples.len() {
                    let end = (sent + frame).min(samples.len());
                    let piece = &samples[sent..end];
                    sent = end;
                    if sent == samples.len() {
                        spoken_at = Some(Instant::now());
                    }
                    piece
                } else {
                    quiet.next().unwrap_or_default()
                };
                let bytes: Vec<u8> = piece.iter().flat_map(|s| s.to_le_bytes()).collect();
                ws.send(Message::Binary(bytes.into())).await.ok()?;
            }
            message = ws.next() => match message? .ok()? {
                Message::Binary(_) if first_audio.is_none() => first_audio = Some(Instant::now()),
                Message::Text(t) if t.contains("\"type\":\"done\"") && first_audio.is_some() => break,
                Message::Text(t) if t.contains("\"type\":\"error\"") => {
                    eprintln!("error event: {t}");
                    return None;
                }
                _ => {}
            },
        }
    }
    // Two seconds of a quiet room before the next question, sent as a microphone sends them.
    for _ in 0..100 {
        tick.tick().await;
        let bytes: Vec<u8> = quiet
            .next()
            .unwrap_or_default()
            .iter()
            .flat_map(|s| s.to_le_bytes())
            .collect();
        ws.send(Message::Binary(bytes.into())).await.ok()?;
    }
    Some(first_audio?.duration_since(spoken_at?).as_secs_f64() * 1000.0)
}

/// `count` sessions that connect, start and say nothing: KiB each, and MB still held when they have closed.
async fn idle_sessions(gateway: &Gateway, count: usize) -> (f64, f64) {
    let base = gateway.rss_mb();
    let mut open = Vec::with_capacity(count);
    for _ in 0..count {
        let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws/voice", gateway.addr))
            .await
            .expect("an idle session");
        let start = json!({"type": "start", "vad": true, "sample_rate": 16000, "language": "en"});
        ws.send(Message::Text(start.to_string().into())).await.unwrap();
        open.push(ws);
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let held = gateway.rss_mb();
    for mut ws in open {
        let _ = ws.close(None).await;
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    ((held - base) * 1024.0 / count as f64, gateway.rss_mb() - base)
}
