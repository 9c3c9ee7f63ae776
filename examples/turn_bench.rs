//! Turn-taking benchmark with the real zero-setup engines (llama.cpp's server, faster-whisper, espeak-ng): spoken
//! questions (espeak-ng, German and English, several voices and speeds, some with a pause in the middle) are
//! streamed over `/ws/voice` with `vad: true` in real time, 20 ms frames followed by silence as a microphone
//! sends them. For each: the time from the last speech sample to the transcript, the first token and the first
//! audio, and whether the question was cut in two.
//!
//! Run: `cargo build --release && cargo run --release --example turn_bench -- [--bin target/release/voice-gateway]
//! [--engines target/engines] [--env KEY=VALUE ...]` (the engines folder of the end-to-end test; the first start
//! installs them). `--env` sets the gateway's settings, to measure what each step buys (for example
//! `--env TURN_ENGINE=silence --env WHISPER_WINDOW_SECONDS=30`).

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// Language, espeak-ng voice, words per minute, the question (a `|` is a pause of `pause` ms).
const QUESTIONS: &[(&str, &str, u32, &str, u32)] = &[
    ("en", "en", 175, "What is the capital of France?", 0),
    ("en", "en+f3", 150, "How far away is the moon?", 0),
    ("en", "en+m3", 190, "Name a large animal.", 0),
    ("de", "de", 175, "Wie spät ist es in Berlin?", 0),
    ("de", "de+f2", 150, "Was ist die Hauptstadt von Italien?", 0),
    ("de", "de+m3", 190, "Nenne eine Farbe.", 0),
    ("en", "en", 160, "I would like to know | the capital of Spain.", 600),
    ("en", "en+f3", 160, "Tell me | something about dogs.", 900),
    ("de", "de", 160, "Ich möchte wissen | wie warm es heute ist.", 1200),
];

fn arg(args: &[String], name: &str, default: &str) -> String {
    args.windows(2)
        .find(|w| w[0] == name)
        .map_or_else(|| default.to_string(), |w| w[1].clone())
}

/// One measured question.
struct Measure {
    transcript_ms: Option<f64>,
    token_ms: Option<f64>,
    audio_ms: Option<f64>,
    transcripts: usize,
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bin = std::fs::canonicalize(arg(&args, "--bin", "target/release/voice-gateway")).expect("the binary");
    let engines = std::fs::canonicalize(arg(&args, "--engines", "target/engines")).expect("the engines folder");
    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let settings: Vec<(String, String)> = args
        .windows(2)
        .filter(|w| w[0] == "--env")
        .filter_map(|w| w[1].split_once('=').map(|(k, v)| (k.to_string(), v.to_string())))
        .collect();
    let mut gateway = start(&bin, &engines, dir.path(), port, &settings).await;

    // A first turn warms the engines up (model load, caches); it is not counted.
    let _ = ask(port, "en", &speech("en", "en", 175, "Hello.", 0)).await;
    let mut rows = Vec::new();
    for (lang, voice, speed, text, pause) in QUESTIONS {
        let pcm = speech(lang, voice, *speed, text, *pause);
        let m = ask(port, lang, &pcm).await;
        let show = |v: Option<f64>| v.map_or("–".into(), |v| format!("{v:.0}"));
        println!(
            "| {text} ({voice}, {speed} wpm) | {} | {} | {} | {} |",
            show(m.transcript_ms),
            show(m.token_ms),
            show(m.audio_ms),
            if m.transcripts > 1 { "cut" } else { "whole" }
        );
        rows.push(m);
    }
    let _ = gateway.kill();
    let _ = gateway.wait();

    let stat = |f: &dyn Fn(&Measure) -> Option<f64>| {
        let mut v: Vec<f64> = rows.iter().filter_map(f).collect();
        v.sort_by(f64::total_cmp);
        let at = |p: f64| {
            v.get(((v.len().max(1) - 1) as f64 * p).round() as usize)
                .copied()
                .unwrap_or(f64::NAN)
        };
        format!("{:.0} / {:.0}", at(0.5), at(0.9))
    };
    println!("\n| from the last speech sample to | median / p90 ms |\n|---|---|");
    println!("| transcript | {} |", stat(&|m| m.transcript_ms));
    println!("| first token | {} |", stat(&|m| m.token_ms));
    println!("| first audio | {} |", stat(&|m| m.audio_ms));
    let pauses = QUESTIONS.iter().filter(|q| q.4 > 0).count();
    let cuts = rows
        .iter()
        .zip(QUESTIONS)
        .filter(|(m, q)| q.4 > 0 && m.transcripts > 1)
        .count();
    println!("| questions with a pause cut in two | {cuts} of {pauses} |");
}

async fn start(
    bin: &std::path::Path,
    engines: &std::path::Path,
    dir: &std::path::Path,
    port: u16,
    settings: &[(String, String)],
) -> Child {
    let child = Command::new(bin)
        .current_dir(dir)
        .env("LISTEN_ADDR", format!("127.0.0.1:{port}"))
        .env("ENGINES_DIR", engines)
        .env("MEMORY_EXTRACTION_ENABLED", "false")
        .env("WEB_SEARCH_ENABLED", "false")
        .env("FILLER_AFTER_MS", "0")
        .env("LLM_TEMPERATURE", "0")
        .env("LLM_MAX_TOKENS", "60")
        .envs(settings.iter().map(|(k, v)| (k, v)))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let http = reqwest::Client::new();
    let started = Instant::now();
    while !http
        .get(format!("http://127.0.0.1:{port}/health"))
        .send()
        .await
        .is_ok_and(|r| r.status() == 200)
    {
        assert!(
            started.elapsed() < Duration::from_secs(900),
            "the gateway did not start"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    child
}

/// espeak-ng's voice of `text` at 16 kHz; each `|` becomes `pause` ms of silence.
fn speech(lang: &str, voice: &str, speed: u32, text: &str, pause: u32) -> Vec<i16> {
    let mut out = Vec::new();
    for (i, part) in text.split('|').enumerate() {
        if i > 0 {
            out.extend(std::iter::repeat_n(0i16, (16 * pause) as usize));
        }
        let file = tempfile::NamedTempFile::new().unwrap();
        let ok = Command::new("espeak-ng")
            .args(["-v", voice, "-s", &speed.to_string(), "-w"])
            .arg(file.path())
            .arg(part.trim())
            .status()
            .expect("espeak-ng");
        assert!(ok.success(), "{lang} {part}");
        let pcm = voice_gateway::providers::audio::parse_wav(&std::fs::read(file.path()).unwrap()).unwrap();
        out.extend(voiced(&resample(&pcm.samples, pcm.sample_rate, 16_000)));
    }
    out
}

/// The part from the first to the last voiced sample: espeak-ng surrounds its speech with silence (about
/// 0.4 s at the end), which would otherwise count as speech in the latency and lengthen the pauses.
fn voiced(samples: &[i16]) -> &[i16] {
    let loud = |s: &i16| s.unsigned_abs() > 328;
    let first = samples.iter().position(loud).unwrap_or(0);
    let last = samples.iter().rposition(loud).map_or(first, |i| i + 1);
    &samples[first..last]
}

/// Linear resampling (enough for a detector and a recognizer).
fn resample(samples: &[i16], from: u32, to: u32) -> Vec<i16> {
    let n = (samples.len() as u64 * u64::from(to) / u64::from(from)) as usize;
    (0..n)
        .map(|i| {
            let x = i as f64 * f64::from(from) / f64::from(to);
            let (j, frac) = (x.floor() as usize, x.fract());
            let a = f64::from(samples[j.min(samples.len() - 1)]);
            let b = f64::from(samples[(j + 1).min(samples.len() - 1)]);
            (a + (b - a) * frac) as i16
        })
        .collect()
}

/// Streams one question in real time and measures from its last voiced sample.
async fn ask(port: u16, lang: &str, pcm: &[i16]) -> Measure {
    let url = format!("ws://127.0.0.1:{port}/ws/voice");
    let (ws, _) = tokio_tungstenite::connect_async(url).await.expect("handshake");
    let (mut tx, mut rx) = ws.split();
    let start = json!({"type": "start", "vad": true, "sample_rate": 16000, "language": lang,
        "stream": true, "audio_stream": true});
    tx.send(Message::Text(start.to_string().into())).await.unwrap();
    // The speech, then up to 8 s of silence, one 20 ms frame every 20 ms.
    let silence = vec![0i16; 16 * 8000];
    let frames: Vec<Vec<u8>> = pcm
        .chunks(320)
        .chain(silence.chunks(320))
        .map(|f| f.iter().flat_map(|s| s.to_le_bytes()).collect())
        .collect();
    let speech_frames = pcm.len().div_ceil(320);
    let (last_tx, last_rx) = tokio::sync::oneshot::channel::<Instant>();
    let sender = tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_millis(20));
        let mut last_tx = Some(last_tx);
        for (i, frame) in frames.into_iter().enumerate() {
            tick.tick().await;
            if tx.send(Message::Binary(frame.into())).await.is_err() {
                return;
            }
            if i + 1 == speech_frames
                && let Some(t) = last_tx.take()
            {
                let _ = t.send(Instant::now());
            }
        }
    });
    // Every event with the time it came; the question's last transcript and what followed it are measured.
    let mut events: Vec<(Instant, String)> = Vec::new();
    let mut last_rx = last_rx;
    let mut last: Option<Instant> = None;
    let deadline = Instant::now() + Duration::from_secs(pcm.len() as u64 / 16_000 + 30);
    while Instant::now() < deadline {
        if last.is_none() {
            last = last_rx.try_recv().ok();
        }
        let Ok(Some(Ok(message))) = tokio::time::timeout(Duration::from_millis(100), rx.next()).await else {
            continue;
        };
        let Message::Text(text) = message else { continue };
        let now = Instant::now();
        let event: Value = serde_json::from_str(&text).unwrap_or_default();
        let kind = event["type"].as_str().unwrap_or("").to_string();
        let finished = kind == "done" && last.is_some_and(|l| now.duration_since(l) > Duration::from_millis(1500));
        events.push((now, kind));
        if finished {
            break;
        }
    }
    sender.abort();
    let last = last.unwrap_or_else(Instant::now);
    let transcripts = events.iter().filter(|(_, k)| k == "transcript").count();
    let final_transcript = events.iter().rposition(|(_, k)| k == "transcript").unwrap_or(0);
    let after = &events[final_transcript..];
    let since = |kind: &str| {
        after
            .iter()
            .find(|(_, k)| k == kind)
            .map(|(t, _)| t.saturating_duration_since(last).as_secs_f64() * 1000.0)
    };
    Measure {
        transcript_ms: since("transcript"),
        token_ms: since("token"),
        audio_ms: since("audio"),
        transcripts,
    }
}
