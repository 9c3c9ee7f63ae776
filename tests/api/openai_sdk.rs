//! `/v1` with the official `openai` Python SDK, as the client applications that speak OpenAI's protocol use it:
//! `tests/openai_sdk/client.py` runs a scenario against the gateway and prints what it saw; the providers are
//! fakes speaking their real protocols (espeak-ng speaks for the user's own voice).
//!
//! Ignored by a plain `cargo test`: it needs the SDK, which `scripts/test.sh` installs into `target/openai-venv`.

use reqwest::Method;
use serde_json::{Value, json};

use voice_gateway::providers::decode::{Container, decode};

use crate::common::{As, TestApp};
use crate::fakes::{CHAT, Fake, Reply, tokens, wav, wav_info};

const PYTHON: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/openai-venv/bin/python");
const CLIENT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/openai_sdk/client.py");

/// Runs a scenario of the SDK client as the user with `token`; its JSON report.
async fn sdk(app: &TestApp, token: &str, scenario: &str, envs: &[(&str, &str)]) -> Value {
    let mut run = tokio::process::Command::new(PYTHON);
    run.args([CLIENT, scenario])
        .env("GATEWAY_URL", format!("http://{}", app.addr))
        .env("USER_TOKEN", token)
        .envs(envs.iter().copied());
    crate::common::client_report(&mut run, "target/openai-venv").await
}

#[tokio::test]
#[ignore = "needs the openai SDK in target/openai-venv; scripts/test.sh installs it and runs this"]
async fn the_openai_sdk_chats_speaks_and_transcribes_as_the_user() {
    let llm = Fake::answering(&["I am ", "fine."]).await;
    let stt = Fake::start().await;
    stt.always("/v1/audio/transcriptions", Reply::Json(json!({"text": "hello"})));
    let tts = Fake::start().await;
    tts.always("/v1/audio/speech", Reply::Bytes("audio/wav", wav(2400)));
    let tts_url = tts.v1();
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .stt(&stt)
        .env(&[("OPENAI_TTS_URL", &tts_url), ("MEMORY_EXTRACTION_ENABLED", "false")])
        .user("anna")
        .await;
    let r = app
        .call(
            Method::POST,
            "/api/me/memories",
            As::Bearer(&token),
            Some(json!({"text": "Anna drinks her tea without sugar"})),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let question = tempfile::NamedTempFile::new().unwrap();
    let mut one_second = wav(0);
    one_second.truncate(44);
    let pcm: Vec<u8> = (0..24_000)
        .flat_map(|i| (((i % 50) as i16 - 25) * 400).to_le_bytes())
        .collect();
    one_second[4..8].copy_from_slice(&(36 + pcm.len() as u32).to_le_bytes());
    one_second[40..44].copy_from_slice(&(pcm.len() as u32).to_le_bytes());
    one_second.extend_from_slice(&pcm);
    std::fs::write(question.path(), &one_second).unwrap();

    let seen = sdk(
        &app,
        &token,
        "chat",
        &[("QUESTION_WAV", question.path().to_str().unwrap())],
    )
    .await;

    let models: Vec<&str> = seen["models"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for id in ["default", "local", "local/smollm2"] {
        assert!(models.contains(&id), "{id} in {models:?}");
    }
    // Without its key the cloud model cannot answer, so it is not offered.
    for id in ["cloud", "cloud/openai/gpt-4o-mini"] {
        assert!(!models.contains(&id), "{id} not in {models:?}");
    }

    // The whole answer is what the model said; the model got the user's name and memory in the gateway's
    // system message, the client's system text after it, and the client's conversation in order.
    let whole = &seen["whole"];
    assert_eq!(whole["object"], "chat.completion");
    assert_eq!(whole["text"], "I am fine.");
    assert_eq!(
        (whole["role"].as_str(), whole["finish"].as_str()),
        (Some("assistant"), Some("stop"))
    );
    assert_eq!(whole["model"], "default");
    assert_eq!(whole["usage"]["prompt_tokens"], 12);
    assert_eq!(whole["usage"]["completion_tokens"], 2);
    assert_eq!(whole["usage"]["total_tokens"], 14);
    let asked = llm.requests(CHAT)[0].json();
    let messages = asked["messages"].as_array().unwrap();
    let system = messages[0]["content"].as_str().unwrap();
    assert_eq!(messages[0]["role"], "system");
    assert!(system.contains("name is anna"), "{system}");
    assert!(system.contains("Anna drinks her tea without sugar"), "{system}");
    assert!(system.ends_with("Mention the weather."), "{system}");
    let rest: Vec<(&str, &str)> = messages[1..]
        .iter()
        .map(|m| (m["role"].as_str().unwrap(), m["content"].as_str().unwrap()))
        .collect();
    assert_eq!(
        rest,
        [("user", "Hi there"), ("assistant", "Hello!"), ("user", "How are you?")]
    );

    // Streamed: chunks of one id, the role first, the same text, `stop`, then the usage in a chunk of its own.
    let stream = &seen["stream"];
    assert_eq!(stream["objects"], json!(["chat.completion.chunk"]));
    assert_eq!(stream["ids"], 1);
    assert_eq!(stream["first_role"], "assistant");
    assert_eq!(stream["text"], "I am fine.");
    assert_eq!(stream["finish"], "stop");
    assert_eq!(stream["last_choices"], json!([]));
    assert_eq!(stream["usage"]["total_tokens"], 14);
    assert_eq!(llm.requests(CHAT).len(), 2, "one provider request per answer");

    // Speech: the OpenAI-compatible TTS got the text after the text pipeline, with its voice; the user's own
    // voice (espeak, which has no "alloy") spoke the PCM at 24 kHz.
    let speech = &seen["speech"];
    let wav_bytes = base64_decode(speech["wav"].as_str().unwrap());
    assert_eq!(wav_info(&wav_bytes).0, 24_000);
    let said = tts.requests("/v1/audio/speech")[0].json();
    assert_eq!(said["voice"], "alloy");
    let input = said["input"].as_str().unwrap();
    assert!(input.contains("three degrees"), "{input}");
    let pcm = base64_decode(speech["pcm"].as_str().unwrap());
    assert_eq!(pcm.len() % 2, 0);
    let samples: Vec<i16> = pcm.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
    let seconds = samples.len() as f64 / 24_000.0;
    assert!((1.0..6.0).contains(&seconds), "{seconds} s of speech at 24 kHz");
    // espeak speaks at 22.05 kHz: converted to 24 kHz, the speech lasts exactly as long as its own WAV.
    let (native_rate, _, _, native_seconds) = wav_info(&base64_decode(speech["native"].as_str().unwrap()));
    assert_ne!(
        native_rate, 24_000,
        "the voice's own rate differs, so the conversion is tested"
    );
    assert!(
        (seconds - native_seconds).abs() < 0.005,
        "{seconds} s at 24 kHz, {native_seconds} s as spoken"
    );
    assert!(
        samples.iter().any(|s| s.unsigned_abs() > 2000),
        "the PCM is speech, not silence"
    );
    // Each format is what a decoder (symphonia, here) takes for it, as long as the speech; none is mp3.
    for (name, container, media_type) in [
        ("mp3", Container::Mp3, "audio/mpeg"),
        ("opus", Container::Ogg, "audio/ogg"),
        ("default", Container::Mp3, "audio/mpeg"),
        ("flac", Container::Flac, "audio/flac"),
        ("wav", Container::Wav, "audio/wav"),
    ] {
        let said = &seen["formats"][name];
        assert_eq!(said["type"], media_type, "{name}");
        let bytes = base64_decode(said["audio"].as_str().unwrap());
        assert_eq!(Container::sniff(&bytes), Some(container), "{name}");
        let decoded = decode(&bytes, None, 60).unwrap_or_else(|e| panic!("{name}: {e}"));
        let length = decoded.duration_secs();
        // MP3 frames pad the end by up to a frame and the encoder's delay.
        assert!(
            (length - native_seconds).abs() < 0.12,
            "{name}: {length} s for {native_seconds} s"
        );
    }

    // Transcription: the fake's text, and with verbose_json the language and the upload's length.
    let heard = &seen["transcription"];
    assert_eq!(heard["text"], "hello");
    assert_eq!(heard["verbose"]["text"], "hello");
    assert_eq!(heard["verbose"]["language"], "english");
    assert!((heard["verbose"]["duration"].as_f64().unwrap() - 1.0).abs() < 0.01);
    assert_eq!(stt.requests("/v1/audio/transcriptions").len(), 2);

    // Errors in OpenAI's shape, raised as the SDK's classes.
    let errors = &seen["errors"];
    assert_eq!(
        raised(&errors["wrong_token"]),
        ("AuthenticationError", 401, "invalid_request_error", "invalid_api_key")
    );
    assert_eq!(
        raised(&errors["unknown_model"]),
        ("NotFoundError", 404, "invalid_request_error", "model_not_found")
    );
    assert_eq!(errors["unknown_model"]["body"]["param"], "model");
    // Asked for anyway, it is a 404 naming the missing setting, which the SDK does not retry: the gateway saw
    // the two 404s of the two calls, no more.
    assert_eq!(
        raised(&errors["unconfigured_model"]),
        ("NotFoundError", 404, "invalid_request_error", "model_not_found")
    );
    let message = errors["unconfigured_model"]["body"]["message"].as_str().unwrap();
    assert!(message.contains("CLOUD_LLM_API_KEY"), "{message}");
    let metrics = app.get("/api/metrics", As::AdminKey).await;
    let not_found =
        &metrics.body["counters"][r#"http_requests_total{method="POST",route="/v1/chat/completions",status="404"}"#];
    assert_eq!(not_found, 2, "{}", metrics.body);
    assert_eq!(
        raised(&errors["aac"]),
        (
            "BadRequestError",
            400,
            "invalid_request_error",
            "unsupported_response_format"
        )
    );
    assert_eq!(errors["aac"]["body"]["param"], "response_format");
    assert!(
        errors["aac"]["body"]["message"]
            .as_str()
            .unwrap()
            .contains("mp3, opus, flac, wav, pcm")
    );
    assert_eq!(llm.requests(CHAT).len(), 2, "refused requests reach no provider");
}

#[tokio::test]
#[ignore = "needs the openai SDK in target/openai-venv; scripts/test.sh installs it and runs this"]
async fn the_openai_sdk_sees_the_daily_quota_as_a_rate_limit() {
    let llm = Fake::answering(&["Fine."]).await;
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .env(&[("DAILY_REQUEST_LIMIT", "2"), ("MEMORY_EXTRACTION_ENABLED", "false")])
        .user("ben")
        .await;
    let seen = sdk(&app, &token, "quota", &[]).await;
    let answers = seen["answers"].as_array().unwrap();
    assert_eq!(answers[..2], [json!("answered"), json!("answered")]);
    assert_eq!(
        raised(&answers[2]),
        ("RateLimitError", 429, "insufficient_quota", "insufficient_quota")
    );
    assert_eq!(llm.requests(CHAT).len(), 2);
}

/// An error the SDK raised: its class, the status, and the body's type and code.
fn raised(error: &Value) -> (&str, u64, &str, &str) {
    (
        error["class"].as_str().unwrap_or_default(),
        error["status"].as_u64().unwrap_or_default(),
        error["body"]["type"].as_str().unwrap_or_default(),
        error["body"]["code"].as_str().unwrap_or_default(),
    )
}

fn base64_decode(text: &str) -> Vec<u8> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.decode(text).unwrap()
}

#[tokio::test]
#[ignore = "needs the openai SDK in target/openai-venv; scripts/test.sh installs it and runs this"]
async fn the_openai_sdk_talks_over_realtime_by_commit_by_server_vad_and_cancels() {
    let llm = Fake::start().await;
    llm.then(CHAT, tokens(&["Hello Anna. ", "Nice to hear you."]));
    llm.then(CHAT, tokens(&["Yes, I heard you."]));
    let (story, _gate, closed) =
        crate::fakes::held(&["Once upon a time there was a fox. ", "It lived "], &["in a wood."]);
    llm.then(CHAT, story);
    let stt = Fake::start().await;
    stt.always("/v1/audio/transcriptions", Reply::Json(json!({"text": "hello there"})));
    let (app, token, user_id) = TestApp::with()
        .llm(&llm)
        .stt(&stt)
        .env(&[("MEMORY_EXTRACTION_ENABLED", "false"), ("FILLER_AFTER_MS", "0")])
        .user("anna")
        .await;

    let seen = sdk(&app, &token, "realtime", &[]).await;

    assert_eq!(seen["created"]["audio"]["output"]["format"]["rate"], 24_000);
    assert_eq!(seen["updated"]["audio"]["input"]["turn_detection"], Value::Null);

    // By commit: the transcript of the user's audio, the answer's transcript and its audio as 24 kHz PCM16.
    let manual = &seen["manual"];
    let types: Vec<&str> = manual["types"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let first = |kind: &str| {
        types
            .iter()
            .position(|t| *t == kind)
            .unwrap_or_else(|| panic!("{kind} in {types:?}"))
    };
    assert!(first("input_audio_buffer.committed") < first("conversation.item.added"));
    assert!(first("response.created") < first("conversation.item.input_audio_transcription.completed"));
    assert!(first("conversation.item.input_audio_transcription.completed") < first("response.output_audio.delta"));
    assert!(first("response.output_audio.delta") < first("response.output_audio.done"));
    assert!(first("response.output_audio.done") < first("response.done"));
    assert_eq!(types.last(), Some(&"response.done"));
    assert_eq!(manual["heard"], json!(["hello there"]));
    assert_eq!(manual["transcript"], "Hello Anna. Nice to hear you.");
    assert_eq!(manual["done"], json!(["completed"]));
    // espeak speaks the two sentences in well over a second: at 24 kHz that is over 48000 bytes.
    let bytes = manual["audio_bytes"].as_u64().unwrap();
    assert!(
        bytes % 2 == 0 && bytes > 48_000 && bytes < 24_000 * 2 * 10,
        "{bytes} bytes"
    );
    assert!(
        manual["audio_peak"].as_u64().unwrap() > 2000,
        "the audio is speech, not silence"
    );

    // Server VAD ends the turn by itself.
    let vad = &seen["vad"];
    let types = strings(&vad["types"]);
    let order: Vec<&str> = types
        .iter()
        .copied()
        .filter(|t| {
            [
                "input_audio_buffer.speech_started",
                "input_audio_buffer.speech_stopped",
                "input_audio_buffer.committed",
                "response.created",
                "response.done",
            ]
            .contains(t)
        })
        .collect();
    assert_eq!(
        order,
        [
            "input_audio_buffer.speech_started",
            "input_audio_buffer.speech_stopped",
            "input_audio_buffer.committed",
            "response.created",
            "response.done"
        ]
    );
    assert_eq!(vad["transcript"], "Yes, I heard you.");
    assert_eq!(vad["done"], json!(["completed"]));

    // The cancel stops the answer: its first sentence was spoken, nothing came after `response.done`, and the
    // model's request was dropped.
    let cancel = &seen["cancel"];
    assert_eq!(cancel["done"], json!(["cancelled"]));
    let types: Vec<&str> = cancel["types"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(types.contains(&"response.output_audio.delta"), "{types:?}");
    assert!(!types.contains(&"response.output_audio.done"), "{types:?}");
    assert_eq!(seen["after_cancel"], json!([]));
    crate::common::eventually("the model's request is dropped", 5, || {
        let closed = closed.clone();
        async move { closed.load(std::sync::atomic::Ordering::SeqCst) }
    })
    .await;

    // The conversation is kept as one of the user's sessions: the spoken turns and the typed one.
    let sessions = app.get("/api/sessions", As::Bearer(&token)).await;
    assert_eq!(sessions.body.as_array().map(Vec::len), Some(1), "{}", sessions.body);
    assert_eq!(app.rows_of("messages", &user_id).await, 4);
}

#[tokio::test]
#[ignore = "needs the openai SDK in target/openai-venv; scripts/test.sh installs it and runs this"]
async fn an_answer_truncated_by_the_sdk_keeps_only_what_was_heard_for_the_next_turn() {
    let llm = Fake::start().await;
    llm.then(CHAT, tokens(&["It is sunny. ", "Later it will rain."]));
    llm.then(CHAT, tokens(&["Tomorrow too."]));
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .env(&[("MEMORY_EXTRACTION_ENABLED", "false"), ("FILLER_AFTER_MS", "0")])
        .user("anna")
        .await;

    let seen = sdk(&app, &token, "truncate", &[]).await;

    // Both sentences were sent; the client stopped playing 50 ms into the second.
    assert_eq!(seen["answer"]["transcript"], "It is sunny. Later it will rain.");
    assert!(seen["first_ms"].as_u64().unwrap() > 300, "{}", seen["first_ms"]);
    let truncated = &seen["truncated"];
    assert_eq!(truncated["type"], "conversation.item.truncated");
    assert_eq!(truncated["content_index"], 0);
    assert_eq!(truncated["audio_end_ms"], seen["first_ms"].as_u64().unwrap() + 50);
    assert_eq!(seen["unknown"]["code"], "invalid_item_id");
    assert_eq!(seen["next"]["transcript"], "Tomorrow too.");

    // The next turn's model request carries only what was heard of the answer.
    let asked = llm.requests(CHAT)[1].json();
    let history: Vec<(&str, &str)> = asked["messages"]
        .as_array()
        .unwrap()
        .iter()
        .skip(1)
        .map(|m| (m["role"].as_str().unwrap(), m["content"].as_str().unwrap_or_default()))
        .collect();
    assert_eq!(
        history,
        [
            ("user", "How is the weather?"),
            ("assistant", "It is sunny."),
            ("user", "And tomorrow?")
        ]
    );
}

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

#[tokio::test]
#[ignore = "needs the openai SDK, ONNX Runtime, Silero and Smart Turn; scripts/test.sh installs and fetches them"]
async fn semantic_vad_ends_complete_turns_by_smart_turn_and_speech_over_the_answer_cancels_it() {
    let llm = Fake::start().await;
    let (reply, _gate, closed) = crate::fakes::held(&["It is sunny today. ", "And "], &["warm."]);
    llm.then(CHAT, reply);
    llm.then(CHAT, tokens(&["Take your time."]));
    let stt = Fake::start().await;
    stt.always(
        "/v1/audio/transcriptions",
        Reply::Json(json!({"text": "how is the weather"})),
    );
    let turn_taking = crate::common::turn_taking_env();
    let mut env: Vec<(&str, &str)> = turn_taking.iter().map(|(k, v)| (*k, v.as_str())).collect();
    env.extend([("MEMORY_EXTRACTION_ENABLED", "false"), ("FILLER_AFTER_MS", "0")]);
    let (app, token, _) = TestApp::with().llm(&llm).stt(&stt).env(&env).user("anna").await;
    let clips = [
        ("COMPLETE_PCM", format!("{FIXTURES}/turn_complete_en_16k.pcm")),
        ("INCOMPLETE_PCM", format!("{FIXTURES}/turn_incomplete_en_16k.pcm")),
    ];
    let envs: Vec<(&str, &str)> = clips.iter().map(|(k, v)| (*k, v.as_str())).collect();

    let seen = sdk(&app, &token, "semantic", &envs).await;

    // The session says which detector runs.
    let detection = &seen["updated"]["audio"]["input"]["turn_detection"];
    assert_eq!(detection["type"], "semantic_vad", "{detection}");
    assert_eq!(detection["eagerness"], "high", "{detection}");
    // The complete question ended at a short pause and was answered; speech over the answer cancelled it.
    let first = &seen["first"];
    let types = strings(&first["types"]);
    let of_interest: Vec<&str> = types
        .iter()
        .copied()
        .filter(|t| t.starts_with("input_audio_buffer.") || *t == "response.created" || *t == "response.done")
        .collect();
    assert_eq!(
        of_interest,
        [
            "input_audio_buffer.speech_started",
            "input_audio_buffer.speech_stopped",
            "input_audio_buffer.committed",
            "response.created",
            "input_audio_buffer.speech_started",
            "response.done"
        ],
        "{types:?}"
    );
    assert_eq!(first["done"], json!(["cancelled"]));
    assert_eq!(first["heard"], json!(["how is the weather"]));
    assert_eq!(
        first["transcript"], "It is sunny today. And ",
        "the answer up to the held token"
    );
    crate::common::eventually("the model's request is dropped", 5, || {
        let closed = closed.clone();
        async move { closed.load(std::sync::atomic::Ordering::SeqCst) }
    })
    .await;
    // The sentence broken off waited through its pause and became the next question.
    let second = &seen["second"];
    assert_eq!(second["done"], json!(["completed"]), "{second}");
    assert_eq!(second["transcript"], "Take your time.");
    assert_eq!(llm.requests(CHAT).len(), 2);
}

#[tokio::test]
#[ignore = "needs the openai SDK in target/openai-venv; scripts/test.sh installs it and runs this"]
async fn a_call_for_help_over_realtime_is_asked_back_and_a_yes_alerts_the_contacts() {
    let stt = Fake::start().await;
    stt.then(
        "/v1/audio/transcriptions",
        Reply::Json(json!({"text": "Hilfe! Hilfe!"})),
    );
    stt.then("/v1/audio/transcriptions", Reply::Json(json!({"text": "Ja, bitte."})));
    let llm = Fake::answering(&["Gern."]).await;
    let s = crate::ws::help_setup(&stt, &llm, "20").await;

    let seen = sdk(&s.app, &s.token, "help", &[]).await;

    assert_eq!(seen[0]["heard"], json!(["Hilfe! Hilfe!"]));
    assert_eq!(
        seen[0]["transcript"],
        "Soll ich Ihre Kontaktpersonen alarmieren? Sagen Sie bitte ja oder nein."
    );
    assert!(seen[0]["audio_bytes"].as_u64().unwrap() > 0, "the question is spoken");
    assert_eq!(seen[1]["heard"], json!(["Ja, bitte."]));
    assert_eq!(
        seen[1]["transcript"],
        "Hilfe ist unterwegs: Ihre Kontaktpersonen wurden benachrichtigt."
    );
    assert_eq!(seen[1]["done"], json!(["completed"]));
    crate::emergency::mail_to(&s.smtp.as_ref().unwrap().mails(), "tochter@family.example");
    assert!(llm.requests(CHAT).is_empty(), "a call for help never reaches the model");
}

#[tokio::test]
#[ignore = "needs the openai SDK in target/openai-venv; scripts/test.sh installs it and runs this"]
async fn a_call_for_help_typed_through_the_sdk_is_asked_back_and_its_ja_alerts() {
    let stt = Fake::start().await;
    let llm = Fake::answering(&["Gern, ", "gerne."]).await;
    let s = crate::ws::help_setup(&stt, &llm, "20").await;

    let seen = sdk(&s.app, &s.token, "help_typed", &[]).await;

    assert_eq!(
        seen["asked"],
        "Soll ich Ihre Kontaktpersonen alarmieren? Sagen Sie bitte ja oder nein."
    );
    assert_eq!(
        seen["answered"],
        "Hilfe ist unterwegs: Ihre Kontaktpersonen wurden benachrichtigt."
    );
    crate::emergency::mail_to(&s.smtp.as_ref().unwrap().mails(), "tochter@family.example");
    assert_eq!(seen["harmless"], "Gern, gerne.");
    assert_eq!(
        llm.requests(CHAT).len(),
        1,
        "only the harmless question reached the model"
    );
}

/// The strings of a JSON list.
fn strings(list: &Value) -> Vec<&str> {
    list.as_array()
        .map(|l| l.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

#[tokio::test]
#[ignore = "needs the openai SDK in target/openai-venv; scripts/test.sh installs it and runs this"]
async fn the_openai_sdk_uploads_every_format_an_application_has() {
    let stt = Fake::start().await;
    stt.always(
        "/v1/audio/transcriptions",
        Reply::Json(json!({"text": "How is the weather today?"})),
    );
    let (app, token, _) = TestApp::with().stt(&stt).user("anna").await;
    let dir = format!("{FIXTURES}/formats");

    let seen = sdk(&app, &token, "formats", &[("FORMATS_DIR", dir.as_str())]).await;

    let heard = seen["heard"].as_object().unwrap();
    assert_eq!(heard.len(), crate::speech::FORMATS.len(), "{seen}");
    assert!(heard.values().all(|text| text == "How is the weather today?"), "{seen}");
    // Each reached the recogniser as 16-bit mono WAV of the sentence's length.
    for upload in stt.requests("/v1/audio/transcriptions") {
        let (_, channels, bits, seconds) = upload.uploaded_wav();
        assert_eq!((channels, bits), (1, 16));
        assert!((1.4..1.65).contains(&seconds), "{seconds} s");
    }
    // A file that is no audio is refused in OpenAI's error shape, naming what is taken, and reaches no one.
    assert_eq!(seen["note"]["status"], 400, "{seen}");
    assert_eq!(seen["note"]["body"]["code"], "unsupported_audio", "{seen}");
    assert_eq!(seen["note"]["body"]["param"], "file", "{seen}");
    assert!(
        seen["note"]["body"]["message"]
            .as_str()
            .unwrap()
            .contains("Opus in Ogg or WebM"),
        "{seen}"
    );
    assert_eq!(stt.requests("/v1/audio/transcriptions").len(), heard.len());
}

#[tokio::test]
#[ignore = "needs the openai SDK in target/openai-venv; scripts/test.sh installs it and runs this"]
async fn a_telephone_talks_over_realtime_in_g711_both_ways() {
    let llm = Fake::answering(&["Hello from the gateway."]).await;
    let stt = Fake::start().await;
    stt.always("/v1/audio/transcriptions", Reply::Json(json!({"text": "hello"})));
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .stt(&stt)
        .env(&[("MEMORY_EXTRACTION_ENABLED", "false"), ("FILLER_AFTER_MS", "0")])
        .user("anna")
        .await;

    let seen = sdk(&app, &token, "g711", &[]).await;

    assert_eq!(seen["formats"]["input"], json!({"type": "audio/pcmu"}), "{seen}");
    assert_eq!(seen["formats"]["output"], json!({"type": "audio/pcma"}), "{seen}");
    let answer = &seen["answer"];
    assert_eq!(answer["heard"], json!(["hello"]), "{seen}");
    assert_eq!(answer["transcript"], "Hello from the gateway.");
    assert_eq!(answer["done"], json!(["completed"]));
    // The half second of µ-law at 8 kHz reached the recogniser as 16 kHz PCM of that length.
    let (rate, channels, bits, seconds) = stt.requests("/v1/audio/transcriptions")[0].uploaded_wav();
    assert_eq!((rate, channels, bits), (16_000, 1, 16));
    assert!((0.45..0.55).contains(&seconds), "{seconds} s");
    // The answer is A-law at 8 kHz: one byte a sample, over a second of speech, and speech, not silence.
    let bytes = seen["alaw_bytes"].as_u64().unwrap();
    assert!((8_000..8_000 * 10).contains(&bytes), "{bytes} bytes");
    assert!(seen["decoded_peak"].as_u64().unwrap() > 2000, "{seen}");
}
