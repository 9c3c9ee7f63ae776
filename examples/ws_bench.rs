//! Latency and concurrency benchmark of the streaming channels, with fake providers on loopback whose delays
//! the benchmark sets.
//!
//! (a) Added latency: over `--turns` sequential `/ws/chat` turns with sentence-wise audio, the time from the
//!     moment the fake LLM has emitted the token that closes the first sentence (" there.", followed 5 ms
//!     later by the next token, as a model writes) to the moment the client holds that sentence's audio frame,
//!     minus the fake TTS delay. A gateway that waits for the next token to know the sentence is complete
//!     pays the token interval here.
//! (b) Concurrency: `--sessions` `/ws/voice` connections each running turns (1 s of PCM, STT, LLM, sentence
//!     TTS) for `--seconds`: turns per second, errors, resident memory per open connection.
//!
//! (c) End of speech to first audio: over `--voice-turns` sequential turns of 1 s of PCM, the time from the
//!     client's end of the utterance to the first audio of the answer: `end` to the first binary frame on
//!     `/ws/voice`, and `input_audio_buffer.commit` + `response.create` to the first
//!     `response.output_audio.delta` on `/v1/realtime` (the same fakes; Realtime adds base64 and 24 kHz).
//!
//! Run: `cargo run --release --example ws_bench -- [--turns 1000] [--sessions 200] [--seconds 60]
//! [--voice-turns 200] [--tts-delay-ms 20] [--stt-delay-ms 50]`

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::serve::ListenerExt;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::connect_async_with_config;
use tokio_tungstenite::tungstenite::Message;
use voice_gateway::config::Settings;
use voice_gateway::store::Store;
use voice_gateway::{App, serve};

/// Delays of the fake providers, and when the LLM last finished a first sentence.
struct Fakes {
    tts_delay: Duration,
    stt_delay: Duration,
    sentence_end: Mutex<Option<Instant>>,
}

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    args.windows(2)
        .find(|w| w[0] == name)
        .and_then(|w| w[1].parse().ok())
        .unwrap_or(default)
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let turns = arg(&args, "--turns", 1000) as usize;
    let sessions = arg(&args, "--sessions", 200) as usize;
    let seconds = arg(&args, "--seconds", 60);
    let fakes = Arc::new(Fakes {
        tts_delay: Duration::from_millis(arg(&args, "--tts-delay-ms", 20)),
        stt_delay: Duration::from_millis(arg(&args, "--stt-delay-ms", 50)),
        sentence_end: Mutex::new(None),
    });
    let providers = start_fakes(fakes.clone()).await;
    let (addr, _dir) = start_gateway(&providers).await;

    let latency = added_latency(addr, &fakes, turns).await;
    println!("\n(a) added latency, first sentence end -> its audio frame at the client, minus TTS delay");
    println!("| turns | median | p99 | max | fake TTS delay |");
    println!("|---|---|---|---|---|");
    println!(
        "| {} | {:.2} ms | {:.2} ms | {:.2} ms | {} ms |",
        latency.len(),
        percentile(&latency, 0.5),
        percentile(&latency, 0.99),
        latency.last().copied().unwrap_or(0.0),
        fakes.tts_delay.as_millis()
    );

    let voice_turns = arg(&args, "--voice-turns", 200) as usize;
    let (voice, realtime) = end_to_first_audio(addr, voice_turns).await;
    println!(
        "\n(c) end of speech -> first audio of the answer (fake STT {} ms, fake TTS {} ms)",
        fakes.stt_delay.as_millis(),
        fakes.tts_delay.as_millis()
    );
    println!("| channel | turns | median | p99 | max |");
    println!("|---|---|---|---|---|");
    for (name, samples) in [("/ws/voice (end)", &voice), ("/v1/realtime (commit)", &realtime)] {
        println!(
            "| {name} | {} | {:.2} ms | {:.2} ms | {:.2} ms |",
            samples.len(),
            percentile(samples, 0.5),
            percentile(samples, 0.99),
            samples.last().copied().unwrap_or(0.0)
        );
    }

    let load = concurrency(addr, sessions, Duration::from_secs(seconds)).await;
    println!("\n(b) {sessions} concurrent /ws/voice sessions for {seconds} s");
    println!("| turns | turns/s | errors | RSS before | RSS with connections | per connection |");
    println!("|---|---|---|---|---|---|");
    println!(
        "| {} | {:.1} | {} | {:.1} MiB | {:.1} MiB | {:.1} KiB |",
        load.turns,
        load.turns as f64 / seconds as f64,
        load.errors,
        load.rss_before as f64 / 1024.0,
        load.rss_open as f64 / 1024.0,
        (load.rss_open.saturating_sub(load.rss_before)) as f64 / sessions.max(1) as f64
    );
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Resident memory of this process in KiB.
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

async fn start_fakes(fakes: Arc<Fakes>) -> String {
    let app = axum::Router::new()
        .route("/v1/chat/completions", post(fake_llm))
        .route("/v1/audio/speech", post(fake_tts))
        .route("/v1/audio/transcriptions", post(fake_stt))
        .with_state(fakes);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/v1", listener.local_addr().unwrap());
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    tokio::spawn(async move { axum::serve(listener, app).await });
    base
}

fn chunk(text: &str) -> Bytes {
    let event = json!({"choices": [{"index": 0, "delta": {"content": text}}]});
    Bytes::from(format!("data: {event}\n\n"))
}

/// Streams "Hello there." (recording the moment its period leaves), " And" 5 ms later, then the rest after a
/// pause, as a model still writing would.
async fn fake_llm(State(fakes): State<Arc<Fakes>>, body: Bytes) -> Response {
    let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let latency_turn = request.to_string().contains("bench-latency");
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(8);
    tokio::spawn(async move {
        let _ = tx.send(Ok(chunk("Hello"))).await;
        if tx.send(Ok(chunk(" there."))).await.is_ok() && latency_turn {
            *fakes.sentence_end.lock().unwrap() = Some(Instant::now());
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let _ = tx.send(Ok(chunk(" And"))).await;
        tokio::time::sleep(Duration::from_millis(if latency_turn { 60 } else { 10 })).await;
        let _ = tx.send(Ok(chunk(" that is all."))).await;
        let end = json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]});
        let _ = tx
            .send(Ok(Bytes::from(format!("data: {end}\n\ndata: [DONE]\n\n"))))
            .await;
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|i| (i, rx)) });
    ([("content-type", "text/event-stream")], Body::from_stream(stream)).into_response()
}

/// Half a second of silence as WAV, after the configured delay.
async fn fake_tts(State(fakes): State<Arc<Fakes>>) -> Response {
    tokio::time::sleep(fakes.tts_delay).await;
    let data = 24_000u32; // 0.5 s at 24 kHz, 16-bit mono
    let mut wav = Vec::with_capacity(44 + data as usize);
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + data).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16u32.to_le_bytes());
    wav.extend_from_slice(&1u16.to_le_bytes());
    wav.extend_from_slice(&1u16.to_le_bytes());
    wav.extend_from_slice(&24_000u32.to_le_bytes());
    wav.extend_from_slice(&48_000u32.to_le_bytes());
    wav.extend_from_slice(&2u16.to_le_bytes());
    wav.extend_from_slice(&16u16.to_le_bytes());
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&data.to_le_bytes());
    wav.resize(44 + data as usize, 0);
    ([("content-type", "audio/wav")], wav).into_response()
}

async fn fake_stt(State(fakes): State<Arc<Fakes>>) -> Response {
    tokio::time::sleep(fakes.stt_delay).await;
    axum::Json(json!({"text": "What time is it", "language": "en"})).into_response()
}

async fn start_gateway(providers: &str) -> (std::net::SocketAddr, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let env: HashMap<&str, String> = HashMap::from([
        ("DB_PATH", dir.path().join("bench.db").display().to_string()),
        ("AUTH_ENABLED", "false".into()),
        ("DAILY_REQUEST_LIMIT", "0".into()),
        ("MEMORY_EXTRACTION_ENABLED", "false".into()),
        ("WEB_SEARCH_ENABLED", "false".into()),
        ("FILLER_AFTER_MS", "0".into()),
        // Every connection is the anonymous user's: the per-user cap would refuse all but four.
        ("VOICE_CONNECTIONS_PER_USER", "1000".into()),
        ("LOCAL_LLM_URL", providers.into()),
        ("DEFAULT_LLM_PROVIDER", "local".into()),
        ("OPENAI_STT_URL", providers.into()),
        ("DEFAULT_STT_PROVIDER", "openai".into()),
        ("OPENAI_TTS_URL", providers.into()),
        ("DEFAULT_TTS_PROVIDER", "openai".into()),
    ]);
    let settings = Settings::from_lookup(&|k| env.get(k).cloned()).unwrap();
    let store = Store::open(&settings.store.db_path).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = App::new(settings, store);
    tokio::spawn(serve(listener, app, std::future::pending()));
    (addr, dir)
}

/// Sequential turns; milliseconds of added latency per turn, sorted.
async fn added_latency(addr: std::net::SocketAddr, fakes: &Fakes, turns: usize) -> Vec<f64> {
    let (mut ws, _) = connect_async_with_config(format!("ws://{addr}/ws/chat"), None, true)
        .await
        .unwrap();
    let mut samples = Vec::with_capacity(turns);
    for _ in 0..turns {
        *fakes.sentence_end.lock().unwrap() = None;
        let frame = json!({"text": "bench-latency", "stream": true, "audio_stream": true});
        ws.send(Message::Text(frame.to_string().into())).await.unwrap();
        let mut first_audio = None;
        loop {
            match ws.next().await {
                Some(Ok(Message::Binary(_))) if first_audio.is_none() => first_audio = Some(Instant::now()),
                Some(Ok(Message::Text(t))) if t.contains("\"type\":\"done\"") => break,
                Some(Ok(Message::Text(t))) if t.contains("\"type\":\"error\"") => panic!("error event: {t}"),
                Some(Ok(_)) => {}
                other => panic!("connection ended: {other:?}"),
            }
        }
        let (Some(audio), Some(end)) = (first_audio, *fakes.sentence_end.lock().unwrap()) else {
            continue;
        };
        let gap = audio.saturating_duration_since(end).saturating_sub(fakes.tts_delay);
        samples.push(gap.as_secs_f64() * 1000.0);
    }
    samples.sort_by(f64::total_cmp);
    samples
}

/// One second of PCM16 at `rate`.
fn second_of_pcm(rate: i32) -> Vec<u8> {
    (0..rate)
        .flat_map(|i| (((i % 40) - 20) as i16 * 300).to_le_bytes())
        .collect()
}

/// Sequential voice turns on both channels; milliseconds from the end of speech to the first audio, sorted.
async fn end_to_first_audio(addr: std::net::SocketAddr, turns: usize) -> (Vec<f64>, Vec<f64>) {
    use base64::Engine;
    let (mut voice, _) = connect_async_with_config(format!("ws://{addr}/ws/voice"), None, true)
        .await
        .unwrap();
    let start = json!({"type": "start", "audio_stream": true, "stream": true});
    voice.send(Message::Text(start.to_string().into())).await.unwrap();
    let pcm = second_of_pcm(16_000);
    let mut voice_ms = Vec::with_capacity(turns);
    for _ in 0..turns {
        for piece in pcm.chunks(3200) {
            voice.send(Message::Binary(piece.to_vec().into())).await.unwrap();
        }
        let ended = Instant::now();
        voice
            .send(Message::Text(json!({"type": "end"}).to_string().into()))
            .await
            .unwrap();
        let mut first = None;
        loop {
            match voice.next().await {
                Some(Ok(Message::Binary(_))) if first.is_none() => first = Some(ended.elapsed()),
                Some(Ok(Message::Text(t))) if t.contains("\"type\":\"done\"") => break,
                Some(Ok(Message::Text(t))) if t.contains("\"type\":\"error\"") => panic!("error event: {t}"),
                Some(Ok(_)) => {}
                other => panic!("connection ended: {other:?}"),
            }
        }
        voice_ms.extend(first.map(|d| d.as_secs_f64() * 1000.0));
    }
    let (mut realtime, _) = connect_async_with_config(format!("ws://{addr}/v1/realtime"), None, true)
        .await
        .unwrap();
    let manual = json!({"type": "session.update", "session": {"audio": {"input": {"turn_detection": null}}}});
    realtime.send(Message::Text(manual.to_string().into())).await.unwrap();
    let audio = base64::engine::general_purpose::STANDARD.encode(second_of_pcm(24_000));
    let append = json!({"type": "input_audio_buffer.append", "audio": audio}).to_string();
    let mut realtime_ms = Vec::with_capacity(turns);
    for _ in 0..turns {
        realtime.send(Message::Text(append.clone().into())).await.unwrap();
        let ended = Instant::now();
        for event in ["input_audio_buffer.commit", "response.create"] {
            let event = json!({"type": event}).to_string();
            realtime.send(Message::Text(event.into())).await.unwrap();
        }
        let mut first = None;
        loop {
            match realtime.next().await {
                Some(Ok(Message::Text(t))) if first.is_none() && t.contains("response.output_audio.delta") => {
                    first = Some(ended.elapsed());
                }
                Some(Ok(Message::Text(t))) if t.contains("\"type\":\"response.done\"") => break,
                Some(Ok(Message::Text(t))) if t.contains("\"type\":\"error\"") => panic!("error event: {t}"),
                Some(Ok(_)) => {}
                other => panic!("connection ended: {other:?}"),
            }
        }
        realtime_ms.extend(first.map(|d| d.as_secs_f64() * 1000.0));
    }
    voice_ms.sort_by(f64::total_cmp);
    realtime_ms.sort_by(f64::total_cmp);
    (voice_ms, realtime_ms)
}

struct Load {
    turns: u64,
    errors: u64,
    rss_before: u64,
    rss_open: u64,
}

async fn concurrency(addr: std::net::SocketAddr, sessions: usize, length: Duration) -> Load {
    let rss_before = rss_kib();
    let mut sockets = Vec::with_capacity(sessions);
    for _ in 0..sessions {
        let (ws, _) = connect_async_with_config(format!("ws://{addr}/ws/voice"), None, true)
            .await
            .unwrap();
        sockets.push(ws);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_open = rss_kib();
    let turns = Arc::new(AtomicU64::new(0));
    let errors = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + length;
    let pcm = second_of_pcm(16_000);
    let mut tasks = Vec::new();
    for mut ws in sockets {
        let (turns, errors, pcm) = (turns.clone(), errors.clone(), pcm.clone());
        tasks.push(tokio::spawn(async move {
            let start = json!({"type": "start", "audio_stream": true, "stream": true});
            if ws.send(Message::Text(start.to_string().into())).await.is_err() {
                errors.fetch_add(1, Ordering::Relaxed);
                return;
            }
            while Instant::now() < deadline {
                for piece in pcm.chunks(3200) {
                    if ws.send(Message::Binary(piece.to_vec().into())).await.is_err() {
                        errors.fetch_add(1, Ordering::Relaxed);
                        return;
                    }
                }
                let end = json!({"type": "end"});
                if ws.send(Message::Text(end.to_string().into())).await.is_err() {
                    errors.fetch_add(1, Ordering::Relaxed);
                    return;
                }
                loop {
                    match ws.next().await {
                        Some(Ok(Message::Text(t))) if t.contains("\"type\":\"done\"") => {
                            turns.fetch_add(1, Ordering::Relaxed);
                            break;
                        }
                        Some(Ok(Message::Text(t))) if t.contains("\"type\":\"error\"") => {
                            errors.fetch_add(1, Ordering::Relaxed);
                            break;
                        }
                        Some(Ok(_)) => {}
                        _ => {
                            errors.fetch_add(1, Ordering::Relaxed);
                            return;
                        }
                    }
                }
            }
        }));
    }
    for task in tasks {
        let _ = task.await;
    }
    Load {
        turns: turns.load(Ordering::Relaxed),
        errors: errors.load(Ordering::Relaxed),
        rss_before,
        rss_open,
    }
}
