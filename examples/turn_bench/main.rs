//! Turn-taking benchmark with the real zero-setup engines (llama.cpp's server, faster-whisper, espeak-ng and
//! Piper): the spoken questions of `examples/questions.tsv` (espeak-ng and, in English, the engines' Piper
//! voice; German and English, several voices and speeds, short and long, some with a thinking pause) are streamed over `/ws/voice` with `vad: true` in real
//! time, 20 ms frames followed by silence as a microphone sends them. For each: the time from the last speech
//! sample to the transcript, the first token and the first audio; the gateway's own stages of the turn (its
//! `voice_stage_seconds` in `/api/metrics`); whether the question was cut in two; the words the recogniser got
//! wrong; and the CPU the gateway and its engines used while it was asked and answered (in cores).
//!
//! Run: `cargo build --release && cargo run --release --example turn_bench -- [--bin target/release/voice-gateway]
//! [--engines target/engines] [--only de|en] [--env KEY=VALUE ...] [--patience MS] [--no-language]` (the engines
//! folder of the end-to-end test;
//! the first start installs them; `--no-language`: the questions' `start` names no language, as a phone guest's
//! or a person's without a language pref: the gateway's `DEFAULT_LANGUAGE` is theirs). `--env` sets the gateway's settings, to measure what each step buys (for
//! example `--env TURN_ENGINE=silence --env WHISPER_WINDOW_SECONDS=30`). `--line twilio` asks each question
//! as a phone call through the Twilio line instead, in µ-law at 8 kHz ([`phone`]); `--line sip-g722` and
//! `--line sip-pcma` as a call to the SIP telephone in G.722 (16 kHz) or A-law (8 kHz) ([`sip`]); `--line
//! audiosocket` as a call through Asterisk's AudioSocket, 8 kHz signed linear ([`audiosocket`]).
//!
//! `--suite pauses [--sets real,en,de,complete,interrupt] [--data target/turn_bench]` measures instead what issue
//! 40 is about: people who pause mid-sentence (recordings and generated questions), whether they are answered
//! after half a sentence or their words are joined (`continued`), and whether real interruptions stay
//! interruptions ([`pauses`]; the recordings are fetched into `--data` at the first run). With a `--line`, each
//! paused question is one call on that line instead ([`paused_calls`]), to compare the lines with
//! `/ws/voice` (issue 51: "a slow speaker is heard the same on every line").

#[path = "../common/args.rs"]
mod args;
mod audiosocket;
mod paused_calls;
mod pauses;
mod phone;
#[path = "../common/port.rs"]
mod port;
mod sip;

use std::collections::BTreeMap;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
// The gateway's stages of a voice turn, as `voice_stage_seconds` labels them.
use voice_gateway::latency::STAGES;

use args::arg;
use port::free_port;

/// The admin key the benchmark's gateway gets, for its metrics.
const ADMIN_KEY: &str = "turn-bench-admin-key-0123456789";

/// One line of `examples/questions.tsv`: language, espeak-ng voice, words per minute, the pause (ms) at each
/// `|` of the text.
struct Question {
    lang: String,
    voice: String,
    wpm: u32,
    pause: u32,
    text: String,
}

fn questions() -> Vec<Question> {
    include_str!("../questions.tsv")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            Question {
                lang: f[0].into(),
                voice: f[1].into(),
                wpm: f[2].parse().expect("words per minute"),
                pause: f[3].parse().expect("pause"),
                text: f[4].into(),
            }
        })
        .collect()
}

/// One measured question.
struct Measure {
    transcript_ms: Option<f64>,
    token_ms: Option<f64>,
    audio_ms: Option<f64>,
    transcripts: usize,
    /// The final transcript's text.
    heard: String,
    /// The gateway's stages of the question's (last) turn, in ms.
    stages: BTreeMap<String, f64>,
    /// CPU seconds of the gateway and its engines per second of the question's conversation.
    cores: f64,
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bin = std::fs::canonicalize(arg(&args, "--bin", "target/release/voice-gateway")).expect("the binary");
    let engines = std::fs::canonicalize(arg(&args, "--engines", "target/engines")).expect("the engines folder");
    let only = arg(&args, "--only", "");
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let line = arg(&args, "--line", "ws");
    let twilio = line == "twilio";
    let sip_codec = sip::codec(&line);
    let sip_addr: std::net::SocketAddr = std::net::UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let asterisk = line == "audiosocket";
    let audiosocket_addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    assert!(
        matches!(line.as_str(), "ws" | "twilio" | "audiosocket") || sip_codec.is_some(),
        "--line: ws, twilio, audiosocket, sip-g722 or sip-pcma"
    );
    let mut settings: Vec<(String, String)> = match (twilio, sip_codec) {
        (true, _) => phone::settings(port),
        (_, Some(_)) => sip::settings(sip_addr),
        _ if asterisk => audiosocket::settings(audiosocket_addr),
        _ => Vec::new(),
    };
    settings.extend(
        args.windows(2)
            .filter(|w| w[0] == "--env")
            .filter_map(|w| w[1].split_once('=').map(|(k, v)| (k.to_string(), v.to_string()))),
    );
    let gateway = Gateway(start(&bin, &engines, dir.path(), port, &settings).await);
    let pid = gateway.0.id();
    let patience = arg(&args, "--patience", "");
    let no_language = args.iter().any(|a| a == "--no-language");
    if !patience.is_empty() {
        // The speaker's patience (the pref `turn_patience`), as a slow speaker's would be learned or set.
        let prefs = json!({"turn_patience": patience.parse::<u32>().expect("--patience in ms")});
        let set = reqwest::Client::new()
            .put(format!("http://127.0.0.1:{port}/api/me/prefs"))
            .json(&prefs)
            .send()
            .await
            .expect("the prefs");
        assert!(set.status().is_success(), "setting the patience: {}", set.status());
    }

    let ask = |lang: String, pcm: Vec<i16>, call: usize| async move {
        match (twilio, sip_codec) {
            (true, _) => phone::ask(port, pid, &lang, &pcm, call).await,
            (_, Some(codec)) => sip::ask(port, sip_addr, pid, &lang, &pcm, codec, call).await,
            _ if asterisk => audiosocket::ask(port, audiosocket_addr, pid, &lang, &pcm, call).await,
            _ => ask(port, pid, (!no_language).then_some(lang.as_str()), &pcm).await,
        }
    };
    // A first turn warms the engines up (model load, caches); it is not counted.
    let _ = ask("en".into(), speech(&engines, "en", "en", 175, "Hello.", 0), 0).await;
    if arg(&args, "--suite", "latency") == "pauses" {
        let sets: Vec<String> = arg(&args, "--sets", "")
            .split(',')
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        let data = std::path::PathBuf::from(arg(&args, "--data", "target/turn_bench"));
        std::fs::create_dir_all(&data).expect("the bench's data folder");
        let items = pauses::items(&engines, &data, &sets);
        if line == "ws" {
            pauses::run(port, items).await;
        } else {
            paused_calls::run(port, items, ask).await;
        }
        return;
    }
    let questions: Vec<Question> = questions()
        .into_iter()
        .filter(|q| only.is_empty() || q.lang == only)
        .collect();
    let mut rows = Vec::new();
    println!(
        "| question | transcript | first token | first audio | stages (gateway, ms) | cut | wrong words | cores |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (call, q) in questions.iter().enumerate() {
        let pcm = speech(&engines, &q.lang, &q.voice, q.wpm, &q.text, q.pause);
        let m = ask(q.lang.clone(), pcm.clone(), call + 1).await;
        let show = |v: Option<f64>| v.map_or("–".into(), |v| format!("{v:.0}"));
        let stages: Vec<String> = STAGES[..5]
            .iter()
            .map(|s| m.stages.get(*s).map_or("–".into(), |v| format!("{v:.0}")))
            .collect();
        let (wrong, words) = errors(&q.text.replace('|', " "), &m.heard);
        println!(
            "| {} ({}, {} wpm, {:.1} s) | {} | {} | {} | {} | {} | {wrong}/{words} | {:.2} |",
            q.text,
            q.voice,
            q.wpm,
            pcm.len() as f64 / 16_000.0,
            show(m.transcript_ms),
            show(m.token_ms),
            show(m.audio_ms),
            stages.join(" + "),
            if m.transcripts > 1 { "cut" } else { "whole" },
            m.cores,
        );
        if wrong > 0 {
            println!("|   heard: {} | | | | | | | |", m.heard.trim());
        }
        rows.push(m);
    }
    drop(gateway);
    report(&questions, &rows);
}

/// The running gateway, stopped as an operator stops it (SIGTERM, so that it stops its engines too) when the
/// benchmark ends or fails.
struct Gateway(Child);

impl Drop for Gateway {
    fn drop(&mut self) {
        let _ = Command::new("kill").arg(self.0.id().to_string()).status();
        let _ = self.0.wait();
    }
}

/// Median and p90 of each stage, per language and over all, the cut pauses, the word error rate and the CPU.
fn report(questions: &[Question], rows: &[Measure]) {
    let spread = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let at = |p: f64| {
            v.get(((v.len().max(1) - 1) as f64 * p).round() as usize)
                .copied()
                .unwrap_or(f64::NAN)
        };
        format!("{:.0} / {:.0}", at(0.5), at(0.9))
    };
    let groups = [("de", "de"), ("en", "en"), ("all", "")];
    println!("\n| median / p90 ms | de | en | all |\n|---|---|---|---|");
    let line = |name: &str, f: &dyn Fn(&Measure) -> Option<f64>| {
        let cells: Vec<String> = groups
            .iter()
            .map(|(_, lang)| {
                let mut v: Vec<f64> = rows
                    .iter()
                    .zip(questions)
                    .filter(|(_, q)| lang.is_empty() || q.lang == *lang)
                    .filter_map(|(m, _)| f(m))
                    .collect();
                spread(&mut v)
            })
            .collect();
        println!("| {name} | {} |", cells.join(" | "));
    };
    for stage in STAGES {
        line(&format!("gateway: {stage}"), &|m| m.stages.get(stage).copied());
    }
    line("client: last speech → transcript", &|m| m.transcript_ms);
    line("client: last speech → first token", &|m| m.token_ms);
    line("client: last speech → first audio", &|m| m.audio_ms);
    for (name, lang) in groups {
        let of_lang = |q: &&Question| lang.is_empty() || q.lang == lang;
        let (mut wrong, mut words) = (0, 0);
        let mut cores = Vec::new();
        for (m, q) in rows.iter().zip(questions).filter(|(_, q)| of_lang(q)) {
            let (w, n) = errors(&q.text.replace('|', " "), &m.heard);
            wrong += w;
            words += n;
            cores.push(m.cores);
        }
        let (mut whole_wrong, mut whole_words) = (0, 0);
        for (m, q) in rows.iter().zip(questions).filter(|(_, q)| of_lang(q) && q.pause == 0) {
            let (w, n) = errors(&q.text, &m.heard);
            whole_wrong += w;
            whole_words += n;
        }
        let pauses = questions.iter().filter(of_lang).filter(|q| q.pause > 0).count();
        let cuts = rows
            .iter()
            .zip(questions)
            .filter(|(m, q)| of_lang(q) && q.pause > 0 && m.transcripts > 1)
            .count();
        let mean_cores = cores.iter().sum::<f64>() / cores.len().max(1) as f64;
        println!(
            "| {name}: word error rate {:.1} % ({wrong} of {words}; without a pause {:.1} %), pauses cut {cuts} of {pauses}, cores per conversation {mean_cores:.2} |",
            100.0 * wrong as f64 / words.max(1) as f64,
            100.0 * whole_wrong as f64 / whole_words.max(1) as f64
        );
    }
}

/// Wrong words (edit distance over lower-case words without punctuation) and the reference's words.
fn errors(reference: &str, heard: &str) -> (usize, usize) {
    let words = |t: &str| -> Vec<String> {
        t.to_lowercase()
            .split(|c: char| !c.is_alphanumeric() && c != '\'')
            .filter(|w| !w.is_empty())
            .map(String::from)
            .collect()
    };
    let (r, h) = (words(reference), words(heard));
    let mut d: Vec<usize> = (0..=h.len()).collect();
    for (i, rw) in r.iter().enumerate() {
        let mut prev = d[0];
        d[0] = i + 1;
        for (j, hw) in h.iter().enumerate() {
            let cur = (d[j + 1] + 1).min(d[j] + 1).min(prev + usize::from(rw != hw));
            prev = d[j + 1];
            d[j + 1] = cur;
        }
    }
    (d[h.len()], r.len())
}

/// The gateway's `/api/metrics` in Prometheus' text format.
async fn prometheus(port: u16) -> String {
    reqwest::Client::new()
        .get(format!("http://127.0.0.1:{port}/api/metrics?format=prometheus"))
        .header("X-Admin-Key", ADMIN_KEY)
        .send()
        .await
        .and_then(|r| r.error_for_status())
        .expect("the metrics")
        .text()
        .await
        .unwrap_or_default()
}

/// The sum and count of each stage in the gateway's `voice_stage_seconds`, over channels and providers.
async fn stage_sums(port: u16) -> BTreeMap<String, (f64, f64)> {
    let text = prometheus(port).await;
    let mut sums = BTreeMap::new();
    for line in text.lines() {
        let (kind, rest) = if let Some(rest) = line.strip_prefix("voice_stage_seconds_sum{") {
            (0, rest)
        } else if let Some(rest) = line.strip_prefix("voice_stage_seconds_count{") {
            (1, rest)
        } else {
            continue;
        };
        let Some(stage) = rest.split("stage=\"").nth(1).and_then(|s| s.split('"').next()) else {
            continue;
        };
        let value: f64 = rest.rsplit(' ').next().and_then(|v| v.parse().ok()).unwrap_or(0.0);
        let entry: &mut (f64, f64) = sums.entry(stage.to_string()).or_default();
        if kind == 0 {
            entry.0 += value;
        } else {
            entry.1 += value;
        }
    }
    sums
}

/// The mean of each stage (ms) in the turns since `before`. Each turn adds one observation per stage; a question
/// cut in two adds two (its last turn is measured by the client, the gateway's figures are their mean).
async fn stage_means(port: u16, before: &BTreeMap<String, (f64, f64)>) -> BTreeMap<String, f64> {
    stage_sums(port)
        .await
        .into_iter()
        .filter_map(|(stage, (sum, count))| {
            let (s0, c0) = before.get(&stage).copied().unwrap_or_default();
            (count > c0).then(|| (stage, (sum - s0) / (count - c0) * 1000.0))
        })
        .collect()
}

/// CPU seconds used so far by the gateway and its child processes (the engines).
fn cpu_seconds(pid: u32) -> f64 {
    let ticks = 100.0; // USER_HZ on Linux
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0.0;
    };
    let mut total = 0.0;
    for entry in entries.flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid ... utime(14) stime(15) — comm may hold spaces, so split after its ')'.
        let Some((head, rest)) = stat.rsplit_once(") ") else {
            continue;
        };
        let own: u32 = head.split(' ').next().and_then(|p| p.parse().ok()).unwrap_or(0);
        let fields: Vec<&str> = rest.split(' ').collect();
        let ppid: u32 = fields.get(1).and_then(|p| p.parse().ok()).unwrap_or(0);
        if own == pid || ppid == pid {
            let used: f64 = fields[11].parse::<f64>().unwrap_or(0.0) + fields[12].parse::<f64>().unwrap_or(0.0);
            total += used / ticks;
        }
    }
    total
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
        .env("ADMIN_API_KEY", ADMIN_KEY)
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
fn speech(engines: &std::path::Path, lang: &str, voice: &str, speed: u32, text: &str, pause: u32) -> Vec<i16> {
    let mut out = Vec::new();
    for (i, part) in text.split('|').enumerate() {
        if i > 0 {
            out.extend(std::iter::repeat_n(0i16, (16 * pause) as usize));
        }
        let file = tempfile::NamedTempFile::new().unwrap();
        let ok = match voice.strip_prefix("piper:") {
            // A Piper voice of the engines folder, through the engines' own Python.
            Some(name) => Command::new(engines.join("venv/bin/python"))
                .args(["-c", PIPER])
                .arg(engines.join("voices").join(format!("{name}.onnx")))
                .arg(file.path())
                .arg(part.trim())
                .arg(format!("{:.3}", 170.0 / f64::from(speed)))
                .status()
                .expect("the engines' Python with Piper"),
            None => Command::new("espeak-ng")
                .args(["-v", voice, "-s", &speed.to_string(), "-w"])
                .arg(file.path())
                .arg(part.trim())
                .status()
                .expect("espeak-ng"),
        };
        assert!(ok.success(), "{lang} {voice} {part}");
        let pcm = voice_gateway::providers::audio::parse_wav(&std::fs::read(file.path()).unwrap()).unwrap();
        out.extend(voiced(&resample(&pcm.samples, pcm.sample_rate, 16_000)));
    }
    out
}

/// Piper speaks a text into a WAV file: voice, file, text, length scale (below 1 is faster).
const PIPER: &str = "import sys, wave
from piper import PiperVoice, SynthesisConfig
voice = PiperVoice.load(sys.argv[1])
with wave.open(sys.argv[2], 'wb') as w:
    voice.synthesize_wav(sys.argv[3], w, syn_config=SynthesisConfig(length_scale=float(sys.argv[4])))
";

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
async fn ask(port: u16, pid: u32, lang: Option<&str>, pcm: &[i16]) -> Measure {
    let (sums_before, cpu_before, began) = (stage_sums(port).await, cpu_seconds(pid), Instant::now());
    let url = format!("ws://127.0.0.1:{port}/ws/voice");
    let (ws, _) = tokio_tungstenite::connect_async(url).await.expect("handshake");
    let (mut tx, mut rx) = ws.split();
    let mut start = json!({"type": "start", "vad": true, "sample_rate": 16000, "stream": true,
        "audio_stream": true});
    if let Some(lang) = lang {
        start["language"] = json!(lang);
    }
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
    let mut heard = String::new();
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
        if kind == "transcript" {
            // A question cut in two was heard as two transcripts: its words are all of them.
            heard = format!("{heard} {}", event["text"].as_str().unwrap_or_default());
        }
        let finished = kind == "done" && last.is_some_and(|l| now.duration_since(l) > Duration::from_millis(1500));
        events.push((now, kind));
        if finished {
            break;
        }
    }
    sender.abort();
    let cores = (cpu_seconds(pid) - cpu_before) / began.elapsed().as_secs_f64();
    let stages = stage_means(port, &sums_before).await;
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
        heard,
        stages,
        cores,
    }
}
