//! Which voice speaks a turn's answer: Piper and espeak-ng by language, the hand-over from a cloud voice, answers
//! in other audio formats, and the TTS chain.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{As, Stage, TestApp};
use crate::fakes::{Fake, Reply, wav, wav_info};
use crate::turns::{audio_of, chat};

/// A gateway whose voice is Piper (a fake speech server) with these voice `files`, for Anna.
async fn with_piper(llm: &Fake, files: &[&str]) -> (TestApp, String, Fake, tempfile::TempDir) {
    let piper = Fake::start().await;
    piper.always("/v1/audio/speech", Reply::Bytes("audio/wav", wav(2205)));
    let voices = tempfile::tempdir().unwrap();
    for file in files {
        std::fs::write(voices.path().join(file), b"{}").unwrap();
    }
    let (piper_url, dir) = (piper.v1(), voices.path().to_str().unwrap().to_string());
    let (app, token, _) = TestApp::with()
        .llm(llm)
        .env(&[
            ("DEFAULT_TTS_PROVIDER", "piper"),
            ("PIPER_URL", &piper_url),
            ("PIPER_VOICE_DIR", &dir),
        ])
        .user("anna")
        .await;
    (app, token, piper, voices)
}

#[tokio::test]
async fn piper_speaks_the_languages_it_has_voices_for_and_espeak_the_others() {
    let llm = Fake::answering(&["Good day."]).await;
    let files = [
        "en_US-joe-medium.onnx",
        "en_US-joe-medium.onnx.json",
        "fr_FR-siwis-low.onnx",
    ];
    let (app, token, piper, _voices) = with_piper(&llm, &files).await;

    let english = chat(&app, &token, json!({"text": "Hello", "language": "en"})).await;
    assert_eq!(english.status, 200, "{}", english.body);
    assert_eq!(english.body["semantic"]["tts"]["provider"], "piper");
    assert_eq!(english.body["semantic"]["tts_fallback"], false);
    let sent = piper.requests("/v1/audio/speech")[0].json();
    assert_eq!(
        sent,
        json!({"model": "piper", "input": "Good day.", "voice": "en_US-joe-medium", "response_format": "wav"})
    );
    assert_eq!(wav_info(&audio_of(&english.body)).0, 24_000);

    // No German voice (and a French one without its .json is no voice): espeak-ng speaks, and says so.
    let german = chat(&app, &token, json!({"text": "Hallo", "language": "de"})).await;
    assert_eq!(german.body["semantic"]["tts"]["provider"], "espeak");
    assert_eq!(german.body["semantic"]["tts_fallback"], true);
    assert_eq!(piper.requests("/v1/audio/speech").len(), 1);

    // The voice menu lists the voices that exist.
    let config = app.get("/api/config", As::Bearer(&token)).await;
    let piper_voices: Vec<&Value> = config.body["tts_menu"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["provider"] == "piper")
        .collect();
    assert_eq!(piper_voices.len(), 1, "{}", config.body["tts_menu"]);
    assert_eq!(piper_voices[0]["voice"], "en_US-joe-medium");
    assert_eq!(piper_voices[0]["languages"], json!(["en"]));

    // The page's automatic choice names the voice that really speaks each language.
    let me = app.get("/api/me", As::Bearer(&token)).await;
    assert_eq!(
        me.body["voices"]["en"],
        json!({"provider": "piper", "voice": "en_US-joe-medium"})
    );
    assert_eq!(me.body["voices"]["de"], json!({"provider": "espeak", "voice": "de"}));
    // A voice the person chose in their prefs is the automatic one.
    let r = app
        .call(
            Method::PUT,
            "/api/me/prefs",
            As::Bearer(&token),
            Some(json!({"tts_provider": "espeak", "voice": "en-us"})),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let me = app.get("/api/me", As::Bearer(&token)).await;
    assert_eq!(me.body["voices"]["en"], json!({"provider": "espeak", "voice": "en-us"}));
}

#[tokio::test]
async fn a_cloud_voice_that_cannot_speak_the_language_hands_over_to_the_local_voice() {
    let llm = Fake::answering(&["Guten Tag."]).await;
    let tts = Fake::start().await;
    tts.always("/v1/audio/speech", Reply::Bytes("audio/wav", wav(2400)));
    let (app, token, id) = TestApp::with()
        .llm(&llm)
        .first(Stage::Tts, &tts, "")
        .env(&[
            ("OPENAI_TTS_VOICE", "af_heart"),
            ("OPENAI_TTS_MODEL", "kokoro"),
            ("OPENAI_TTS_UNSUPPORTED_LANGUAGES", "de,pl"),
        ])
        .user("anna")
        .await;

    let german = chat(&app, &token, json!({"text": "Hallo", "language": "de"})).await;
    assert_eq!(german.status, 200, "{}", german.body);
    assert_eq!(german.body["semantic"]["tts_fallback"], true);
    assert_eq!(german.body["semantic"]["tts"]["provider"], "espeak");
    assert!(tts.requests("/v1/audio/speech").is_empty());
    assert!(wav_info(&audio_of(&german.body)).3 > 0.3);

    // Nobody chose the voice (the service's default): the notice says the service has none for German.
    assert_eq!(
        german.body["semantic"]["notice"],
        "OpenAI TTS hat hier keine deutsche Stimme, darum spricht espeak-ng. Wer den Assistenten betreibt, kann \
         eine einrichten."
    );
    // Anna chose one: the notice names it.
    app.set_prefs(&id, json!({"voice": "af_bella"})).await;
    let chosen = chat(&app, &token, json!({"text": "Hallo", "language": "de"})).await;
    assert_eq!(chosen.status, 200, "{}", chosen.body);
    assert_eq!(
        chosen.body["semantic"]["notice"],
        "Die gewählte Stimme af_bella spricht kein Deutsch, darum spricht espeak-ng."
    );
    app.set_prefs(&id, json!({"voice": ""})).await;

    let english = chat(&app, &token, json!({"text": "Hello", "language": "en"})).await;
    assert_eq!(english.body["semantic"]["tts_fallback"], false);
    assert!(english.body["semantic"]["notice"].is_null(), "{}", english.body);
    assert_eq!(english.body["semantic"]["tts"]["provider"], "openai");
    let sent = tts.requests("/v1/audio/speech")[0].json();
    assert_eq!(
        sent,
        json!({"model": "kokoro", "input": "Guten Tag.", "voice": "af_heart", "response_format": "wav"})
    );
    assert_eq!(wav_info(&audio_of(&english.body)).0, 24_000);
}

#[tokio::test]
async fn a_speech_server_that_answers_mp3_or_opus_instead_of_wav_is_still_heard() {
    let llm = Fake::answering(&["Good day."]).await;
    let tts = Fake::start().await;
    let fixture = |name: &str| crate::speech::format_fixture(name);
    tts.then("/v1/audio/speech", Reply::Bytes("audio/mpeg", fixture("sentence.mp3")));
    tts.then("/v1/audio/speech", Reply::Bytes("audio/ogg", fixture("sentence.opus")));
    tts.then(
        "/v1/audio/speech",
        Reply::Bytes("audio/mpeg", b"not audio at all".to_vec()),
    );
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .first(Stage::Tts, &tts, "espeak")
        .user("anna")
        .await;

    for _ in 0..2 {
        let r = chat(&app, &token, json!({"text": "Hello", "language": "en"})).await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.body["semantic"]["tts"]["provider"], "openai");
        let (_, channels, bits, seconds) = wav_info(&audio_of(&r.body));
        assert_eq!((channels, bits), (1, 16));
        assert!((1.4..1.65).contains(&seconds), "{seconds} s of the server's sentence");
    }
    // Bytes that are no audio: the next voice of the chain speaks instead.
    let r = chat(&app, &token, json!({"text": "Hello", "language": "en"})).await;
    assert_eq!(r.body["semantic"]["tts"]["provider"], "espeak", "{}", r.body);
    assert_eq!(r.body["semantic"]["fallbacks"], json!(["tts:openai"]));
}

#[tokio::test]
async fn a_failing_tts_falls_back_along_the_chain() {
    let llm = Fake::answering(&["Hello."]).await;
    let tts = Fake::start().await;
    tts.always("/v1/audio/speech", Reply::Status(500, "gpu gone".into()));
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .first(Stage::Tts, &tts, "espeak")
        .user("anna")
        .await;
    let r = chat(&app, &token, json!({"text": "Hi"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["semantic"]["tts"]["provider"], "espeak");
    assert_eq!(r.body["semantic"]["fallbacks"], json!(["tts:openai"]));
    assert_eq!(tts.requests("/v1/audio/speech").len(), 1);
}

#[tokio::test]
async fn the_voice_notice_says_which_voice_speaks_and_why_once_a_connection() {
    let llm = Fake::answering(&["Guten Tag."]).await;
    let (app, token, piper, _voices) = with_piper(&llm, &["en_US-joe-medium.onnx", "en_US-joe-medium.onnx.json"]).await;
    let notices = |frames: Vec<crate::ws::Frame>| -> Vec<String> {
        frames
            .iter()
            .filter(|f| f.kind() == "notice")
            .map(|f| f.json()["text"].as_str().unwrap().to_string())
            .collect()
    };
    let ask = json!({"text": "Was ist eine Tulpe?", "language": "de"});
    // Nobody chose a voice: Piper has no German one, espeak-ng speaks; said once on the connection.
    let missing = "Piper hat hier keine deutsche Stimme, darum spricht espeak-ng. Wer den Assistenten betreibt, \
                   kann eine einrichten.";
    let mut ws = crate::ws::connect(&app, "/ws/chat", &token).await;
    ws.send(ask.clone()).await;
    assert_eq!(notices(ws.turn().await), [missing]);
    ws.send(ask.clone()).await;
    assert_eq!(notices(ws.turn().await), Vec::<String>::new(), "told once");
    // Nothing to say in English, nor for an answer that is not spoken.
    ws.send(json!({"text": "What is a tulip?", "language": "en"})).await;
    assert_eq!(notices(ws.turn().await), Vec::<String>::new());
    let mut quiet = crate::ws::connect(&app, "/ws/chat", &token).await;
    quiet
        .send(json!({"text": "Was ist eine Tulpe?", "language": "de", "text_only": true}))
        .await;
    assert_eq!(notices(quiet.turn().await), Vec::<String>::new(), "nothing spoken");

    assert_eq!(
        piper.requests("/v1/audio/speech").len(),
        1,
        "Piper spoke the English answer only"
    );
}
