//! `/api/speak` with the real espeak-ng, and `/api/transcribe` against a fake OpenAI-compatible STT server.

use futures_util::StreamExt;
use reqwest::Method;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::common::{ADMIN_KEY, As, TestApp};
use crate::fakes::{Fake, Reply, wav, wav_info};

const STT: &str = "/v1/audio/transcriptions";

/// 16-bit mono PCM of a 440 Hz tone.
fn tone(seconds: f64, rate: u32) -> Vec<u8> {
    let n = (seconds * f64::from(rate)) as usize;
    (0..n)
        .flat_map(|i| {
            let t = i as f64 / f64::from(rate);
            (((t * 440.0 * std::f64::consts::TAU).sin() * 8000.0) as i16).to_le_bytes()
        })
        .collect()
}

fn wav_of(pcm: &[u8], rate: u32) -> Vec<u8> {
    let mut out = wav(0);
    out[24..28].copy_from_slice(&rate.to_le_bytes());
    out[28..32].copy_from_slice(&(rate * 2).to_le_bytes());
    out[4..8].copy_from_slice(&(36 + pcm.len() as u32).to_le_bytes());
    out[40..44].copy_from_slice(&(pcm.len() as u32).to_le_bytes());
    out.extend_from_slice(pcm);
    out
}

async fn upload(app: &TestApp, token: &str, path: &str, content_type: &str, body: Vec<u8>) -> crate::common::Reply {
    let req = app
        .request(Method::POST, path, As::Bearer(token))
        .header("content-type", content_type)
        .body(body);
    app.send(req).await
}

#[tokio::test]
async fn speak_returns_a_valid_wav_from_the_real_espeak_ng() {
    let (app, token, _) = TestApp::with().user("anna").await;
    let short = app
        .request(Method::POST, "/api/speak", As::Bearer(&token))
        .json(&json!({"text": "Hallo.", "language": "de"}));
    let long = app
        .request(Method::POST, "/api/speak", As::Bearer(&token))
        .json(&json!({
            "text": "Am 3. Mai kostet es 12,50 €. Danach fahren wir 120 km/h nach Hamburg und trinken Tee.",
            "language": "de"
        }));
    let short = short.send().await.unwrap();
    let long = long.send().await.unwrap();

    assert_eq!(long.status(), 200);
    assert_eq!(long.headers()["content-type"], "audio/wav");
    assert_eq!(long.headers()["x-tts-provider"], "espeak");
    let (rate, channels, bits, long_secs) = wav_info(&long.bytes().await.unwrap());
    let (_, _, _, short_secs) = wav_info(&short.bytes().await.unwrap());
    assert_eq!((rate, channels, bits), (22_050, 1, 16));
    assert!((0.2..3.0).contains(&short_secs), "one word: {short_secs} s");
    assert!((4.0..30.0).contains(&long_secs), "two spoken sentences: {long_secs} s");
}

#[tokio::test]
async fn speak_answers_in_the_format_the_body_or_the_accept_header_asks_for() {
    use voice_gateway::providers::decode::{Container, decode};
    let (app, token, _) = TestApp::with().user("anna").await;
    let speak = |body: serde_json::Value, accept: Option<&'static str>| {
        let mut req = app.request(Method::POST, "/api/speak", As::Bearer(&token)).json(&body);
        if let Some(accept) = accept {
            req = req.header("accept", accept);
        }
        async move { req.send().await.unwrap() }
    };
    let text = "The kettle is on.";
    let wav = speak(json!({ "text": text }), None).await;
    assert_eq!(wav.headers()["content-type"], "audio/wav");
    let (_, _, _, seconds) = wav_info(&wav.bytes().await.unwrap());

    for (body, accept, container, media_type) in [
        (
            json!({"text": text, "format": "mp3"}),
            None,
            Container::Mp3,
            "audio/mpeg",
        ),
        (
            json!({"text": text, "format": "opus"}),
            None,
            Container::Ogg,
            "audio/ogg",
        ),
        (
            json!({"text": text, "format": "flac"}),
            None,
            Container::Flac,
            "audio/flac",
        ),
        (json!({ "text": text }), Some("audio/ogg"), Container::Ogg, "audio/ogg"),
        (
            json!({ "text": text }),
            Some("audio/aac, audio/mpeg;q=0.8"),
            Container::Mp3,
            "audio/mpeg",
        ),
        (
            json!({"text": text, "format": "wav"}),
            Some("audio/ogg"),
            Container::Wav,
            "audio/wav",
        ),
    ] {
        let r = speak(body.clone(), accept).await;
        assert_eq!(r.status(), 200, "{body} {accept:?}");
        assert_eq!(r.headers()["content-type"], media_type, "{body} {accept:?}");
        let bytes = r.bytes().await.unwrap();
        assert_eq!(Container::sniff(&bytes), Some(container), "{body} {accept:?}");
        let got = decode(&bytes, Some(media_type), 60).unwrap().duration_secs();
        assert!(
            (got - seconds).abs() < 0.1,
            "{body} {accept:?}: {got} s for {seconds} s"
        );
    }

    let r = app
        .send(
            app.request(Method::POST, "/api/speak", As::Bearer(&token))
                .json(&json!({"text": text, "format": "aac"})),
        )
        .await;
    assert_eq!(r.error(400), "unsupported_format");
    assert!(
        r.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("wav, mp3, opus, flac")
    );
    let r = app
        .send(
            app.request(Method::POST, "/api/speak", As::Bearer(&token))
                .header("accept", "audio/aac")
                .json(&json!({ "text": text })),
        )
        .await;
    assert_eq!(r.error(406), "not_acceptable");
}

#[tokio::test]
async fn speak_refuses_bad_input_clearly() {
    let (app, token, _) = TestApp::with().user("anna").await;
    let call = |body| app.call(Method::POST, "/api/speak", As::Bearer(&token), Some(body));
    assert_eq!(call(json!({"text": ""})).await.error(400), "empty_text");
    assert_eq!(
        call(json!({"text": "x".repeat(5000)})).await.error(413),
        "payload_too_large"
    );
    assert_eq!(call(json!({"text": "```\ncode\n```"})).await.error(400), "empty_text");
    assert_eq!(
        call(json!({"text": "Hi", "voice": "en;rm -rf"})).await.error(422),
        "invalid_request"
    );
    assert_eq!(
        call(json!({"text": "Hi", "provider": "sonic"})).await.error(422),
        "invalid_request"
    );
}

#[tokio::test]
async fn transcribe_uploads_a_wav_with_the_fixed_language_and_reads_the_transcript() {
    let stt = Fake::start().await;
    stt.always(
        STT,
        Reply::Json(json!({"text": " Hallo Welt. ", "language": "german", "duration": 1.0})),
    );
    let url = stt.v1();
    let (app, token, _) = TestApp::with()
        .env(&[
            ("OPENAI_STT_URL", &url),
            ("OPENAI_STT_API_KEY", "stt-key"),
            ("OPENAI_STT_MODEL", "whisper-large-v3"),
            ("DEFAULT_STT_PROVIDER", "openai"),
        ])
        .user("anna")
        .await;
    let pcm = tone(1.0, 16_000);

    let r = upload(
        &app,
        &token,
        "/api/transcribe?language=de",
        "audio/wav",
        wav_of(&pcm, 16_000),
    )
    .await;

    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["text"], "Hallo Welt.");
    assert_eq!(r.body["language"], "de");
    let sent = &stt.requests(STT)[0];
    assert_eq!(sent.header("authorization").as_deref(), Some("Bearer stt-key"));
    assert!(sent.header("content-type").unwrap().starts_with("multipart/form-data"));
    let body = String::from_utf8_lossy(&sent.body);
    assert!(body.contains("name=\"model\"\r\n\r\nwhisper-large-v3"), "{body:.300}");
    assert!(body.contains("name=\"language\"\r\n\r\nde"));
    assert!(body.contains("name=\"response_format\"\r\n\r\nverbose_json"));
    assert!(body.contains("filename=\"audio.wav\""));
    let riff = sent
        .body
        .windows(4)
        .position(|w| w == b"RIFF")
        .expect("a WAV file is uploaded");
    let (rate, channels, bits, seconds) = wav_info(&sent.body[riff..riff + 44 + pcm.len()]);
    assert_eq!((rate, channels, bits), (16_000, 1, 16));
    assert!((seconds - 1.0).abs() < 1e-6);

    let raw = upload(&app, &token, "/api/transcribe", "audio/L16; rate=8000", tone(0.5, 8000)).await;
    assert_eq!(raw.status, 200, "{}", raw.body);
    let sent = &stt.requests(STT)[1];
    let riff = sent.body.windows(4).position(|w| w == b"RIFF").unwrap();
    assert_eq!(
        u32::from_le_bytes(sent.body[riff + 24..riff + 28].try_into().unwrap()),
        8000
    );
}

#[tokio::test]
async fn transcribe_falls_back_from_whisper_when_the_gateway_does_not_run_it() {
    let stt = Fake::start().await;
    stt.always(STT, Reply::Json(json!({"text": "hello"})));
    let (app, token, _) = TestApp::with()
        .stt(&stt)
        .env(&[("DEFAULT_STT_PROVIDER", "whisper"), ("STT_FALLBACK", "openai")])
        .user("anna")
        .await;
    let r = upload(
        &app,
        &token,
        "/api/transcribe?language=en",
        "audio/wav",
        wav_of(&tone(0.2, 16_000), 16_000),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["text"], "hello");
    assert_eq!(r.body["language"], "en");
    assert_eq!(r.body["provider_fallbacks"], json!(["stt:whisper"]));
}

#[tokio::test]
async fn transcribe_refuses_audio_it_cannot_take() {
    let stt = Fake::start().await;
    stt.always(STT, Reply::Json(json!({"text": "never"})));
    let url = stt.v1();
    let (app, token, _) = TestApp::with()
        .env(&[("OPENAI_STT_URL", &url), ("AUDIO_LIMIT_BYTES", "20000")])
        .user("anna")
        .await;
    let mut huge_rate = wav_of(&tone(0.1, 16_000), 16_000);
    huge_rate[24..28].copy_from_slice(&(1u32 << 31).to_le_bytes());
    let r = upload(&app, &token, "/api/transcribe", "audio/wav", huge_rate).await;
    assert_eq!(r.error(400), "unsupported_audio");
    // Recognised, but broken: the message names what was found.
    let r = upload(
        &app,
        &token,
        "/api/transcribe",
        "audio/mpeg",
        b"ID3\x03fake mp3".to_vec(),
    )
    .await;
    assert_eq!(r.error(400), "invalid_audio");
    assert!(
        r.body["error"]["message"].as_str().unwrap().contains("MP3"),
        "{}",
        r.body
    );
    // The bytes decide: a WAV declared as MP3 is refused, naming both.
    let r = upload(
        &app,
        &token,
        "/api/transcribe",
        "audio/mpeg",
        wav_of(&tone(0.1, 16_000), 16_000),
    )
    .await;
    assert_eq!(r.error(400), "unsupported_audio");
    let message = r.body["error"]["message"].as_str().unwrap();
    assert!(message.contains("audio/mpeg") && message.contains("WAV"), "{message}");
    let r = upload(&app, &token, "/api/transcribe", "text/plain", b"hello".to_vec()).await;
    assert_eq!(r.error(400), "unsupported_media_type");
    assert_eq!(
        upload(&app, &token, "/api/transcribe", "audio/wav", Vec::new())
            .await
            .error(400),
        "empty_audio"
    );
    let r = upload(
        &app,
        &token,
        "/api/transcribe",
        "audio/wav",
        b"RIFF\0\0\0\0WAVEjunk".to_vec(),
    )
    .await;
    assert_eq!(r.error(400), "invalid_audio");
    let r = upload(
        &app,
        &token,
        "/api/transcribe",
        "application/octet-stream",
        vec![1, 2, 3],
    )
    .await;
    assert_eq!(r.error(422), "invalid_request");
    let big = wav_of(&tone(1.0, 16_000), 16_000);
    assert_eq!(
        upload(&app, &token, "/api/transcribe", "audio/wav", big)
            .await
            .error(413),
        "payload_too_large"
    );
    assert!(stt.requests(STT).is_empty());
}

/// The fixture of one spoken sentence in every upload format, with the media type a client sends for it.
pub(crate) const FORMATS: [(&str, &str); 9] = [
    ("sentence.wav", "audio/wav"),
    ("sentence.mp3", "audio/mpeg"),
    ("sentence.m4a", "audio/mp4"),
    ("sentence.flac", "audio/flac"),
    ("sentence.ogg", "audio/ogg"),
    ("sentence-f32.wav", "audio/wav"),
    ("sentence-s24-stereo.wav", "application/octet-stream"),
    ("sentence.opus", "audio/ogg"),
    ("sentence.webm", "audio/webm"),
];

pub(crate) fn format_fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/fixtures/formats/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[tokio::test]
async fn every_upload_format_reaches_the_recogniser_as_the_same_speech() {
    let stt = Fake::start().await;
    stt.always(STT, Reply::Json(json!({"text": "How is the weather today?"})));
    let url = stt.v1();
    let (app, token, _) = TestApp::with().env(&[("OPENAI_STT_URL", &url)]).user("anna").await;

    for (name, media_type) in FORMATS {
        let r = upload(
            &app,
            &token,
            "/api/transcribe?language=en",
            media_type,
            format_fixture(name),
        )
        .await;
        assert_eq!(r.status, 200, "{name}: {}", r.body);
        assert_eq!(r.body["text"], "How is the weather today?");
        // The sentence lasts 1.48 s; encoders pad a frame or two.
        let seconds = r.body["duration_seconds"].as_f64().unwrap();
        assert!((1.4..1.65).contains(&seconds), "{name}: {seconds} s");
        let (_, channels, bits, sent) = stt.requests(STT).last().unwrap().uploaded_wav();
        assert_eq!((channels, bits), (1, 16), "{name}: the recogniser gets 16-bit mono");
        assert!((sent - seconds).abs() < 0.01, "{name}: {sent} s sent for {seconds} s");
    }
    // A file whose bytes are not what its type says is refused, naming both.
    let r = upload(
        &app,
        &token,
        "/api/transcribe",
        "audio/mpeg",
        format_fixture("sentence.opus"),
    )
    .await;
    assert_eq!(r.error(400), "unsupported_audio");
    let message = r.body["error"]["message"].as_str().unwrap();
    assert!(message.contains("audio/mpeg") && message.contains("Ogg"), "{message}");
    assert_eq!(stt.requests(STT).len(), FORMATS.len());
}

#[tokio::test]
async fn an_stt_server_error_is_a_502_naming_the_provider() {
    let stt = Fake::start().await;
    stt.always(STT, Reply::Status(500, "model not loaded".into()));
    let url = stt.v1();
    let (app, token, _) = TestApp::with().env(&[("OPENAI_STT_URL", &url)]).user("anna").await;
    let r = upload(
        &app,
        &token,
        "/api/transcribe",
        "audio/wav",
        wav_of(&tone(0.2, 16_000), 16_000),
    )
    .await;
    assert_eq!(r.error(502), "provider_failed");
    assert!(
        r.body["error"]["message"].as_str().unwrap().contains("openai"),
        "{}",
        r.body
    );
}

#[tokio::test]
async fn the_log_names_the_voice_that_speaks_a_language_piper_has_no_voice_for() {
    let piper = Fake::start().await;
    piper.always("/v1/audio/speech", Reply::Bytes("audio/wav", wav(2205)));
    let voices = tempfile::tempdir().unwrap();
    for file in ["en_US-joe-medium.onnx", "en_US-joe-medium.onnx.json"] {
        std::fs::write(voices.path().join(file), b"{}").unwrap();
    }
    let (url, dir) = (piper.v1(), voices.path().to_str().unwrap().to_string());
    let (app, token, _) = TestApp::with()
        .env(&[
            ("DEFAULT_TTS_PROVIDER", "piper"),
            ("PIPER_URL", &url),
            ("PIPER_VOICE_DIR", &dir),
        ])
        .user("anna")
        .await;
    let mut log = admin_log(&app).await;

    let spoken = app
        .request(Method::POST, "/api/speak", As::Bearer(&token))
        .json(&json!({"text": "Buongiorno.", "language": "it"}))
        .send()
        .await
        .unwrap();

    assert_eq!(spoken.headers()["x-tts-provider"], "espeak");
    // The log is the whole process's (tests run side by side): this test's line is the Italian one.
    let line = loop {
        let message = tokio::time::timeout(std::time::Duration::from_secs(5), log.next())
            .await
            .expect("the line within 5 s")
            .unwrap()
            .unwrap();
        if let Message::Text(line) = message
            && line.contains("another voice spoke it")
            && line.contains("language=\"it\"")
        {
            break line.to_string();
        }
    };
    assert!(
        line.contains("instead_of=\"piper\"") && line.contains("provider=\"espeak\""),
        "{line}"
    );
}

/// The admin's live log, past its first line (from then on it sees every line).
async fn admin_log(app: &TestApp) -> WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>> {
    let mut request = format!("ws://{}/api/admin/log", app.addr)
        .into_client_request()
        .unwrap();
    request.headers_mut().insert("X-Admin-Key", ADMIN_KEY.parse().unwrap());
    let (mut log, _) = tokio_tungstenite::connect_async(request).await.expect("admin connects");
    assert!(matches!(log.next().await, Some(Ok(Message::Text(_)))), "the first line");
    log
}
