//! The Wyoming server with the reference `wyoming` Python client (1.10.2), as Home Assistant's integration uses
//! it: `tests/wyoming/client.py` runs a scenario against the gateway's `WYOMING_ADDR` and prints what it saw;
//! speech-to-text and the language model are fakes speaking their real protocols, espeak-ng speaks.
//!
//! Ignored by a plain `cargo test`: it needs the client, which `scripts/test.sh` installs into
//! `target/wyoming-venv`.

use serde_json::{Value, json};
use tokio::io::BufReader;
use tokio::net::TcpStream;
use voice_gateway::wyoming::codec::{Event, Limits, read_event, write_event};

use crate::common::{TestApp, eventually, free_port};
use crate::fakes::{CHAT, Fake, Reply};

const PYTHON: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/wyoming-venv/bin/python");
const CLIENT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/wyoming/client.py");
const TRANSCRIPTIONS: &str = "/v1/audio/transcriptions";

/// A gateway whose Wyoming server listens on a free port, with `env` on top; the app and that port.
async fn gateway(llm: &Fake, stt: &Fake, env: &[(&str, &str)]) -> (TestApp, u16) {
    let port = free_port();
    let addr = format!("127.0.0.1:{port}");
    let app = TestApp::with()
        .llm(llm)
        .stt(stt)
        .env(&[("WYOMING_ADDR", &addr)])
        .env(env)
        .start()
        .await;
    eventually("the Wyoming server listens", 10, || async {
        tokio::net::TcpStream::connect(&addr).await.is_ok()
    })
    .await;
    (app, port)
}

/// Runs a scenario of the Wyoming client; its JSON report.
async fn client(port: u16, scenario: &str) -> Value {
    let mut run = tokio::process::Command::new(PYTHON);
    run.args([CLIENT, scenario]).env("WYOMING_PORT", port.to_string());
    crate::common::client_report(&mut run, "target/wyoming-venv").await
}

#[tokio::test]
#[ignore = "needs the wyoming client in target/wyoming-venv; scripts/test.sh installs it and runs this"]
async fn home_assistant_sees_the_programs_it_parses_strictly_and_a_pong() {
    let (llm, stt) = (Fake::answering(&["Hi."]).await, Fake::start().await);
    let (_app, port) = gateway(&llm, &stt, &[]).await;

    let seen = client(port, "describe").await;

    let asr = &seen["asr"];
    assert_eq!(asr["name"], "voice-gateway");
    assert_eq!(asr["installed"], true);
    assert_eq!(
        asr["languages"],
        json!(["de", "en", "es", "fr", "it", "nl", "pl", "pt"])
    );
    // The gateway's own detector and Smart Turn end the utterance.
    assert_eq!(asr["requires_external_vad"], false);
    assert_eq!(asr["supports_transcript_streaming"], false);
    let tts = &seen["tts"];
    assert_eq!(
        (tts["installed"].as_bool(), tts["streaming"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(tts["voices"]["espeak/de"], json!(["de"]));
    assert_eq!(tts["voices"]["espeak/en"], json!(["en"]));
    assert_eq!(tts["voices_installed"], true);
    assert_eq!(seen["handle"]["languages"].as_array().map(Vec::len), Some(8));
    assert_eq!(seen["handle"]["streaming"], false);
    assert_eq!(seen["pong"], "hello");
}

#[tokio::test]
#[ignore = "needs the wyoming client in target/wyoming-venv; scripts/test.sh installs it and runs this"]
async fn audio_at_any_rate_in_stereo_is_transcribed_as_16_khz_mono() {
    let (llm, stt) = (Fake::answering(&["Hi."]).await, Fake::start().await);
    stt.always(TRANSCRIPTIONS, Reply::Json(json!({"text": "turn on the light"})));
    let (_app, port) = gateway(&llm, &stt, &[]).await;

    let seen = client(port, "transcribe").await;

    assert_eq!(seen, json!({"text": "turn on the light", "language": "en"}));
    let (rate, channels, bits, seconds) = stt.requests(TRANSCRIPTIONS)[0].uploaded_wav();
    assert_eq!((rate, channels, bits), (16_000, 1, 16));
    assert!((1.95..=2.05).contains(&seconds), "{seconds} s of the 2 s sent");
}

#[tokio::test]
#[ignore = "needs the wyoming client, ONNX Runtime, Silero and Smart Turn; scripts/test.sh installs and fetches them"]
async fn the_gateways_detector_ends_a_satellites_question_before_audio_stop() {
    let (llm, stt) = (Fake::answering(&["Hi."]).await, Fake::start().await);
    stt.always(TRANSCRIPTIONS, Reply::Json(json!({"text": "how is the weather"})));
    let turn_taking = crate::common::turn_taking_env();
    let env: Vec<(&str, &str)> = turn_taking.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (_app, port) = gateway(&llm, &stt, &env).await;

    let mut run = tokio::process::Command::new(PYTHON);
    let clip = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/turn_complete_en_16k.pcm");
    run.args([CLIENT, "early"])
        .env("WYOMING_PORT", port.to_string())
        .env("COMPLETE_PCM", clip);
    let seen = crate::common::client_report(&mut run, "target/wyoming-venv").await;

    assert_eq!(seen["text"], "how is the weather");
    let (before, all) = (
        seen["chunks_before"].as_u64().unwrap(),
        seen["chunks_in_all"].as_u64().unwrap(),
    );
    assert!(
        before < all,
        "the transcript came while the quiet still streamed: {seen}"
    );
    assert_eq!(seen["after_stop"], Value::Null, "audio-stop adds no second transcript");
    // What was transcribed is the question, not the quiet after it.
    let (_, _, _, seconds) = stt.requests(TRANSCRIPTIONS).last().unwrap().uploaded_wav();
    let clip_seconds = std::fs::metadata(clip).unwrap().len() as f64 / 32_000.0;
    assert!(
        seconds < clip_seconds + 2.0,
        "{seconds} s for a clip of {clip_seconds} s"
    );
}

/// Anna with her contacts, a mail relay and Twilio (see `emergency::setup`) as the Wyoming user; the help
/// question waits `confirm_seconds`. The setup, the Wyoming port and the fake model.
async fn help_gateway(confirm_seconds: &str) -> (crate::emergency::Setup, u16, Fake) {
    help_gateway_of(confirm_seconds, &[], crate::emergency::profile()).await
}

/// As [`help_gateway`], with `extra` settings and the user's `prefs`.
async fn help_gateway_of(
    confirm_seconds: &str,
    extra: &[(&str, &str)],
    prefs: Value,
) -> (crate::emergency::Setup, u16, Fake) {
    let llm = Fake::answering(&["Gern."]).await;
    let port = free_port();
    let addr = format!("127.0.0.1:{port}");
    let llm_url = llm.v1();
    let mut env = vec![
        ("WYOMING_ADDR", addr.as_str()),
        ("WYOMING_USER", "anna"),
        ("LOCAL_LLM_URL", &llm_url),
        ("DEFAULT_LLM_PROVIDER", "local"),
        ("MEMORY_EXTRACTION_ENABLED", "false"),
        ("WEB_SEARCH_ENABLED", "false"),
        ("HELP_CONFIRM_SECONDS", confirm_seconds),
    ];
    env.extend_from_slice(extra);
    let s = crate::emergency::setup(Some(crate::smtp::Mode::Accept), &env, prefs).await;
    eventually("the Wyoming server listens", 10, || async {
        tokio::net::TcpStream::connect(&addr).await.is_ok()
    })
    .await;
    (s, port, llm)
}

/// Runs the `help` scenario with these texts in one conversation.
async fn help_client(port: u16, texts: &str) -> Value {
    let mut run = tokio::process::Command::new(PYTHON);
    run.args([CLIENT, "help"])
        .env("WYOMING_PORT", port.to_string())
        .env("HELP_TEXTS", texts);
    crate::common::client_report(&mut run, "target/wyoming-venv").await
}

const QUESTION: &str = "Soll ich Ihre Kontaktpersonen alarmieren? Sagen Sie bitte ja oder nein.";

#[tokio::test]
#[ignore = "needs the wyoming client in target/wyoming-venv; scripts/test.sh installs it and runs this"]
async fn a_call_for_help_from_a_satellite_is_asked_back_and_a_yes_alerts_the_contacts() {
    let (s, port, llm) = help_gateway("20").await;

    let seen = help_client(port, r#"["Hilfe! Hilfe!", "Ja, bitte."]"#).await;

    assert_eq!(
        seen["answers"],
        json!([
            {"type": "handled", "text": QUESTION},
            {"type": "handled", "text": "Hilfe ist unterwegs: Ihre Kontaktpersonen wurden benachrichtigt."},
        ])
    );
    crate::emergency::mail_to(&s.smtp.as_ref().unwrap().mails(), "tochter@family.example");
    assert!(
        !s.twilio.requests(crate::emergency::SMS).is_empty(),
        "the SMS went out too"
    );
    assert!(llm.requests(CHAT).is_empty(), "a call for help never reaches the model");
}

#[tokio::test]
#[ignore = "needs the wyoming client in target/wyoming-venv; scripts/test.sh installs it and runs this"]
async fn a_call_for_help_from_a_satellite_left_unanswered_alerts_after_the_set_seconds() {
    let (s, port, _llm) = help_gateway("2").await;

    let seen = help_client(port, r#"["Ich bin gestürzt und komme nicht hoch."]"#).await;

    assert_eq!(seen["answers"][0]["text"], QUESTION);
    assert!(
        s.smtp.as_ref().unwrap().mails().is_empty(),
        "nobody is alerted before the time is up"
    );
    // Home Assistant's connection is long closed: the gateway raises the alarm by itself.
    eventually("the unanswered call raises the alarm", 10, || async {
        !s.smtp.as_ref().unwrap().mails().is_empty()
    })
    .await;
    crate::emergency::mail_to(&s.smtp.as_ref().unwrap().mails(), "tochter@family.example");
}

#[tokio::test]
#[ignore = "needs the wyoming client in target/wyoming-venv; scripts/test.sh installs it and runs this"]
async fn a_satellites_call_for_help_reaching_nobody_is_told_112_and_once_a_carer_is_named_asked_first() {
    let alone = crate::help_reach::alone();
    let (s, port, _llm) = help_gateway_of("20", &alone, crate::help_reach::erika()).await;

    let seen = help_client(port, r#"["Hilfe! Hilfe!"]"#).await;
    let told = seen["answers"][0]["text"].as_str().unwrap();
    assert!(
        told.starts_with("Ihre Hilfe erreicht noch niemanden") && told.contains("112"),
        "{told}"
    );
    assert!(
        crate::emergency::events(&s.app, &s.id).await.is_empty(),
        "nothing recorded"
    );

    crate::help_reach::name_carer(&s.app, &s.id).await;
    let seen = help_client(port, r#"["Hilfe! Hilfe!", "Ja, bitte."]"#).await;
    assert_eq!(seen["answers"][0]["text"], QUESTION, "{seen}");
    assert_eq!(
        seen["answers"][1]["text"],
        "Hilfe ist unterwegs: Ihre Kontaktpersonen wurden benachrichtigt."
    );
    crate::emergency::mail_to(&s.smtp.as_ref().unwrap().mails(), "anna@heim.example");
}

#[tokio::test]
#[ignore = "needs the wyoming client in target/wyoming-venv; scripts/test.sh installs it and runs this"]
async fn text_is_spoken_whole_and_streamed_sentence_by_sentence_in_one_format() {
    let (llm, stt) = (Fake::answering(&["Hi."]).await, Fake::start().await);
    let (_app, port) = gateway(&llm, &stt, &[]).await;

    let seen = client(port, "synthesize").await;

    // espeak-ng's 22.05 kHz, 16-bit mono: one audio-start, chunks, one audio-stop.
    let whole = &seen["whole"];
    let types: Vec<&str> = whole["types"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(types.first(), Some(&"audio-start"));
    assert_eq!(types.last(), Some(&"audio-stop"));
    assert!(
        types[1..types.len() - 1].iter().all(|t| *t == "audio-chunk") && types.len() > 2,
        "{types:?}"
    );
    assert_eq!(whole["formats"], json!([[22050, 2, 1]]));
    // The first sentence was heard before the text was complete; then one audio stream, then
    // synthesize-stopped.
    let streamed = &seen["streamed"];
    assert_eq!(seen["first_before_stop"], "audio-start");
    let types: Vec<&str> = streamed["types"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(types.iter().filter(|t| **t == "audio-start").count(), 1, "{types:?}");
    assert_eq!(types.iter().filter(|t| **t == "audio-stop").count(), 1, "{types:?}");
    assert_eq!(&types[types.len() - 2..], ["audio-stop", "synthesize-stopped"]);
    assert_eq!(streamed["formats"], json!([[22050, 2, 1]]));
    // The repeated whole text was not spoken again: about as much audio as the whole text gave.
    let (whole_bytes, streamed_bytes) = (whole["bytes"].as_f64().unwrap(), streamed["bytes"].as_f64().unwrap());
    assert!(
        streamed_bytes < 1.4 * whole_bytes && streamed_bytes > 0.6 * whole_bytes,
        "{streamed_bytes} bytes streamed, {whole_bytes} whole"
    );
}

#[tokio::test]
#[ignore = "needs the wyoming client in target/wyoming-venv; scripts/test.sh installs it and runs this"]
async fn a_conversation_of_home_assistant_is_a_session_of_the_wyoming_user() {
    let (llm, stt) = (Fake::answering(&["Your name ", "is Anna."]).await, Fake::start().await);
    let (app, port) = gateway(&llm, &stt, &[("WYOMING_USER", "anna")]).await;
    app.create_user("anna").await;

    let seen = client(port, "handle").await;

    let context = json!({"conversation_id": "ha-conv-1"});
    assert_eq!(
        seen["answers"],
        json!([
            {"type": "handled", "text": "Your name is Anna.", "context": context},
            {"type": "handled", "text": "Your name is Anna.", "context": context},
        ])
    );
    let asked = llm.requests(CHAT);
    assert_eq!(asked.len(), 2);
    let first = asked[0].json();
    assert!(
        first["messages"][0]["content"]
            .as_str()
            .unwrap()
            .contains("name is anna"),
        "{first}"
    );
    // The second turn carries the first: both opened their own connection, the session kept it.
    let messages = asked[1].json()["messages"].as_array().unwrap().clone();
    let rest: Vec<(&str, &str)> = messages[1..]
        .iter()
        .map(|m| (m["role"].as_str().unwrap(), m["content"].as_str().unwrap()))
        .collect();
    assert_eq!(
        rest,
        [
            ("user", "What is my name?"),
            ("assistant", "Your name is Anna."),
            ("user", "And again?")
        ]
    );
}

#[tokio::test]
#[ignore = "needs the wyoming client in target/wyoming-venv; scripts/test.sh installs it and runs this"]
async fn a_conversation_in_a_language_the_model_does_not_speak_is_told_so_in_its_first_response() {
    let (llm, stt) = (Fake::answering(&["A tulip is a flower."]).await, Fake::start().await);
    // Llama 3.2, as its preset knows it: no Dutch.
    let env = [("WYOMING_USER", "anna"), ("LOCAL_LLM_MODEL", "llama3.2:3b")];
    let (app, port) = gateway(&llm, &stt, &env).await;
    app.create_user("anna").await;

    let mut run = tokio::process::Command::new(PYTHON);
    run.args([CLIENT, "handle"])
        .env("WYOMING_PORT", port.to_string())
        .env("HANDLE_LANGUAGE", "nl");
    let seen = crate::common::client_report(&mut run, "target/wyoming-venv").await;

    let notice = "Het taalmodel Llama 3.2 3B (local) spreekt geen Nederlands: het antwoord komt waarschijnlijk in \
                  het Engels of slaat nergens op. Wie de assistent beheert, kan een model installeren dat Nederlands \
                  spreekt.";
    let answers = seen["answers"].as_array().unwrap();
    assert_eq!(answers[0]["text"], format!("{notice} A tulip is a flower."), "{seen}");
    assert_eq!(
        answers[1]["text"], "A tulip is a flower.",
        "told once in the conversation"
    );
}

#[tokio::test]
#[ignore = "needs the wyoming client in target/wyoming-venv; scripts/test.sh installs it and runs this"]
async fn a_broken_frame_closes_only_its_connection_and_a_failing_model_is_not_handled() {
    let (llm, stt) = (Fake::start().await, Fake::start().await);
    llm.always(CHAT, Reply::Status(500, "boom".into()));
    let (_app, port) = gateway(&llm, &stt, &[]).await;

    let seen = client(port, "malformed").await;

    assert_eq!(
        seen,
        json!({"before": "before", "bad_closed": true, "after": "after", "huge_closed": true, "served": true})
    );
    let seen = client(port, "handle").await;
    let answer = &seen["answers"][0];
    assert_eq!(answer["type"], "not-handled");
    assert!(answer["text"].as_str().is_some_and(|t| !t.is_empty()), "{answer}");
}

/// A raw connection to the Wyoming server.
async fn connect(port: u16) -> BufReader<TcpStream> {
    BufReader::new(
        TcpStream::connect(("127.0.0.1", port))
            .await
            .expect("the Wyoming server"),
    )
}

/// Pings on a connection: the pong's text, or `None` when the server closed it.
async fn ping(conn: &mut BufReader<TcpStream>, text: &str) -> Option<String> {
    write_event(conn, &Event::with("ping", json!({"text": text})))
        .await
        .ok()?;
    let answer = tokio::time::timeout(std::time::Duration::from_secs(10), read_event(conn, Limits::default()))
        .await
        .expect("an answer or the end of the connection in time")
        .ok()??;
    assert_eq!(answer.kind, "pong");
    answer.text("text").map(String::from)
}

/// A connection that was served a ping, once one is.
async fn served(port: u16, text: &str) -> BufReader<TcpStream> {
    eventually("a Wyoming connection is served", 10, || async {
        let mut conn = connect(port).await;
        (ping(&mut conn, text).await.as_deref() == Some(text)).then_some(conn)
    })
    .await
}

#[tokio::test]
async fn connections_beyond_the_limit_are_closed_and_the_server_stops_with_the_gateway() {
    let (llm, stt) = (Fake::answering(&["Hi."]).await, Fake::start().await);
    let (app, port) = gateway(&llm, &stt, &[("MAX_VOICE_CONNECTIONS", "1")]).await;
    // Once the probe that saw the server listen has let go of its place.
    let first = served(port, "one").await;

    let mut second = connect(port).await;
    assert_eq!(ping(&mut second, "two").await, None, "one connection is the limit");
    drop(first);
    let mut third = served(port, "three").await;

    // The gateway stops: the idle connection is closed, and nothing listens any more.
    drop(app);
    eventually("the Wyoming port is closed", 10, || async {
        TcpStream::connect(("127.0.0.1", port)).await.is_err()
    })
    .await;
    let end = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        read_event(&mut third, Limits::default()),
    )
    .await
    .expect("the idle connection closed in time");
    assert!(matches!(end, Ok(None) | Err(_)), "{end:?}");
}

#[tokio::test]
async fn a_stranger_holding_idle_sockets_leaves_home_assistant_its_place() {
    let (llm, stt) = (Fake::answering(&["Hi."]).await, Fake::start().await);
    let (_app, port) = gateway(&llm, &stt, &[("MAX_VOICE_CONNECTIONS", "8")]).await;
    drop(served(port, "probe").await);
    // Another machine (127.0.0.2) opens as many idle sockets as it can: it gets a quarter of the 8 places.
    let mut stranger = Vec::new();
    for n in 0..8 {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind("127.0.0.2:0".parse().unwrap()).unwrap();
        let mut conn = BufReader::new(socket.connect(([127, 0, 0, 1], port).into()).await.unwrap());
        let answer = ping(&mut conn, "idle").await;
        assert_eq!(answer.is_some(), n < 2, "the stranger's socket {n}");
        stranger.push(conn);
    }
    // Home Assistant, at its own address, is served.
    let mut home_assistant = served(port, "home assistant").await;
    assert_eq!(ping(&mut home_assistant, "again").await.as_deref(), Some("again"));
}

/// Sends `events` on a new connection: what came back before the server closed it.
async fn refused(port: u16, events: &[Event]) -> Vec<Event> {
    let mut conn = connect(port).await;
    for event in events {
        // The server may already have closed the connection after an earlier event.
        if write_event(&mut conn, event).await.is_err() {
            break;
        }
    }
    let mut answers = Vec::new();
    loop {
        let next = tokio::time::timeout(
            std::time::Duration::from_secs(10),
            read_event(&mut conn, Limits::default()),
        )
        .await
        .expect("the connection closed in time");
        match next {
            Ok(Some(event)) => answers.push(event),
            Ok(None) | Err(_) => return answers,
        }
    }
}

#[tokio::test]
async fn a_refused_speech_request_gets_an_error_and_the_end_of_its_connection() {
    // Home Assistant's speech clients read until `transcript` or `audio-stop` and pass over `error`: only the end
    // of the connection ends their wait.
    let (llm, stt) = (Fake::answering(&["Hi."]).await, Fake::start().await);
    let (_app, port) = gateway(&llm, &stt, &[]).await;

    let nothing_to_say = refused(port, &[Event::with("synthesize", json!({"text": "  "}))]).await;
    let wide_audio = refused(
        port,
        &[
            Event::new("transcribe"),
            Event::with("audio-start", json!({"rate": 16000, "width": 4, "channels": 1})),
        ],
    )
    .await;

    for (answers, code) in [(nothing_to_say, "empty_text"), (wide_audio, "invalid_request")] {
        assert_eq!(answers.len(), 1, "{answers:?}");
        assert_eq!(
            (answers[0].kind.as_str(), answers[0].text("code")),
            ("error", Some(code))
        );
        assert!(answers[0].text("text").is_some_and(|t| !t.is_empty()));
    }
}

#[tokio::test]
async fn a_flood_of_tiny_chunks_past_the_utterance_limit_writes_two_log_lines_not_one_each() {
    let (llm, stt) = (Fake::answering(&["Hi."]).await, Fake::start().await);
    stt.always(TRANSCRIPTIONS, Reply::Json(json!({"text": "hello"})));
    let (_app, port) = gateway(&llm, &stt, &[("MAX_UTTERANCE_SECONDS", "1")]).await;
    let mut log = voice_gateway::logging::subscribe();
    let mut conn = connect(port).await;
    let format = json!({"rate": 16000, "width": 2, "channels": 1});
    write_event(&mut conn, &Event::new("transcribe")).await.unwrap();
    write_event(&mut conn, &Event::with("audio-start", format.clone()))
        .await
        .unwrap();
    // A second of silence fills the utterance; then 3,000 chunks of one sample each, as the attack sent them.
    let mut full = Event::with("audio-chunk", format.clone());
    full.payload = vec![0; 32_000];
    write_event(&mut conn, &full).await.unwrap();
    let mut tiny = Event::with("audio-chunk", format.clone());
    tiny.payload = vec![0; 2];
    for _ in 0..3_000 {
        write_event(&mut conn, &tiny).await.unwrap();
    }
    write_event(&mut conn, &Event::with("audio-stop", json!({})))
        .await
        .unwrap();
    let transcript = tokio::time::timeout(std::time::Duration::from_secs(20), async {
        loop {
            match read_event(&mut conn, Limits::default()).await {
                Ok(Some(event)) if event.kind == "transcript" => return event,
                Ok(Some(_)) => {}
                other => panic!("the connection ended without a transcript: {other:?}"),
            }
        }
    })
    .await
    .expect("the transcript in time");
    assert_eq!(transcript.text("text"), Some("hello"));
    drop(conn);

    // The request's end writes the summary: the lines about it are the first and that one.
    let mut lines = 0;
    eventually("the summary line", 10, || {
        loop {
            match log.try_recv() {
                Ok(line) if line.contains("MAX_UTTERANCE_SECONDS") => lines += 1,
                Ok(_) => {}
                Err(tokio::sync::broadcast::error::TryRecvError::Lagged(missed)) => lines += missed as usize,
                Err(_) => break,
            }
        }
        let done = lines >= 2;
        async move { done }
    })
    .await;
    assert_eq!(lines, 2, "one warning and one summary for 3,000 chunks");
}

#[tokio::test]
async fn streamed_synthesis_over_the_text_limit_is_refused_and_its_connection_closed() {
    let (llm, stt) = (Fake::answering(&["Hi."]).await, Fake::start().await);
    let (_app, port) = gateway(&llm, &stt, &[]).await;
    // 100 characters a chunk, 41 chunks: past the 4,000 that /api/speak and `synthesize` take.
    let chunk = Event::with("synthesize-chunk", json!({"text": "la ".repeat(33) + "x"}));
    let mut events = vec![Event::with("synthesize-start", json!({"voice": {"language": "en"}}))];
    events.extend(std::iter::repeat_n(chunk, 41));
    events.push(Event::new("synthesize-stop"));

    let answers = refused(port, &events).await;

    let last = answers.last().expect("an answer");
    assert_eq!(
        (last.kind.as_str(), last.text("code")),
        ("error", Some("payload_too_large")),
        "{answers:?}"
    );
    assert!(
        !answers.iter().any(|a| a.kind == "synthesize-stopped"),
        "the text past the limit was not spoken to its end"
    );
}

#[tokio::test]
async fn a_client_that_stops_reading_is_dropped_after_the_write_timeout_and_its_place_freed() {
    let (llm, stt) = (Fake::answering(&["Hi."]).await, Fake::start().await);
    let env = [("MAX_VOICE_CONNECTIONS", "1"), ("WRITE_TIMEOUT_SECONDS", "1")];
    let (_app, port) = gateway(&llm, &stt, &env).await;
    // Let go of the probe's place, then take the only one with a client whose buffer holds 4 KB and that
    // asks for minutes of speech and reads none of it.
    drop(served(port, "probe").await);
    let mut deaf = eventually("the deaf client is served", 10, || async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(4096).unwrap();
        let mut conn = BufReader::new(socket.connect(([127, 0, 0, 1], port).into()).await.unwrap());
        (ping(&mut conn, "deaf").await.as_deref() == Some("deaf")).then_some(conn)
    })
    .await;
    let long = "This sentence is spoken again and again for a deaf client. ".repeat(60);
    write_event(&mut deaf, &Event::with("synthesize", json!({"text": long.trim()})))
        .await
        .unwrap();
    let first = read_event(&mut deaf, Limits::default()).await.unwrap().unwrap();
    assert_eq!(first.kind, "audio-start", "{first:?}");

    // Once the gateway gave up on it, the place is free again.
    let mut next = eventually("the deaf client's place is free", 30, || async {
        let mut conn = connect(port).await;
        (ping(&mut conn, "next").await.as_deref() == Some("next")).then_some(conn)
    })
    .await;
    assert_eq!(ping(&mut next, "again").await.as_deref(), Some("again"));
    drop(deaf);
}
