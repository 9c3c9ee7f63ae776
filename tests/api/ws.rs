//! The WebSocket channels with a real client against the gateway on port 0 and fake providers.

use std::sync::atomic::Ordering;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

use crate::common::{ADMIN_KEY, As, Gateway, TestApp, eventually};
use crate::fakes::{CHAT, Fake, Recorded, Reply, held, tokens};

pub(crate) const STT: &str = "/v1/audio/transcriptions";

/// One frame from the server.
#[derive(Debug, Clone)]
pub(crate) enum Frame {
    Event(Value),
    Audio(Vec<u8>),
}

impl Frame {
    pub(crate) fn kind(&self) -> String {
        match self {
            Frame::Event(v) => v["type"].as_str().unwrap_or("?").to_string(),
            Frame::Audio(_) => "binary".into(),
        }
    }

    pub(crate) fn json(&self) -> &Value {
        match self {
            Frame::Event(v) => v,
            Frame::Audio(_) => panic!("binary frame where an event was expected"),
        }
    }
}

type Stream = WebSocketStream<MaybeTlsStream<TcpStream>>;
type Sink = std::sync::Arc<tokio::sync::Mutex<futures_util::stream::SplitSink<Stream, Message>>>;
type Incoming = tokio::sync::mpsc::UnboundedReceiver<Result<Message, tokio_tungstenite::tungstenite::Error>>;

/// A page's socket, read all the time as a page reads it: a pushed reminder or check-in question with a
/// `receipt` is answered `shown` at once (as the page in sight does), unless the page is one that never
/// shows anything ([`Client::silent`]: a dead tab, a locked phone).
pub(crate) struct Client {
    sink: Sink,
    incoming: Incoming,
    _reader: crate::common::Aborting,
}

impl Client {
    /// A page that shows what it is pushed.
    pub(crate) fn new(ws: Stream) -> Self {
        Self::reading(ws, true)
    }

    /// A page that takes what it is pushed and never shows it.
    pub(crate) fn silent(ws: Stream) -> Self {
        Self::reading(ws, false)
    }

    fn reading(ws: Stream, shows: bool) -> Self {
        let (sink, mut stream) = ws.split();
        let sink: Sink = std::sync::Arc::new(tokio::sync::Mutex::new(sink));
        let (tx, incoming) = tokio::sync::mpsc::unbounded_channel();
        let answers = sink.clone();
        let reader = tokio::spawn(async move {
            while let Some(message) = stream.next().await {
                if shows && let Ok(Message::Text(t)) = &message {
                    let event: Value = serde_json::from_str(t).unwrap_or_default();
                    if let Some(receipt) = event["receipt"].as_str() {
                        let shown = json!({"type": "shown", "receipt": receipt}).to_string();
                        let _ = answers.lock().await.send(Message::Text(shown.into())).await;
                    }
                }
                if tx.send(message).is_err() {
                    return;
                }
            }
        });
        Self {
            sink,
            incoming,
            _reader: crate::common::Aborting(reader),
        }
    }

    /// Sends a frame as it is.
    pub(crate) async fn raw_send(&mut self, message: Message) -> Result<(), tokio_tungstenite::tungstenite::Error> {
        self.sink.lock().await.send(message).await
    }

    /// The next message as it came (pings and closes too); `None` once the connection ended.
    pub(crate) async fn raw_next(&mut self) -> Option<Result<Message, tokio_tungstenite::tungstenite::Error>> {
        self.incoming.recv().await
    }

    pub(crate) async fn send(&mut self, value: Value) {
        self.raw_send(Message::Text(value.to_string().into())).await.unwrap();
    }

    pub(crate) async fn send_audio(&mut self, pcm: &[i16]) {
        let bytes: Vec<u8> = pcm.iter().flat_map(|s| s.to_le_bytes()).collect();
        self.raw_send(Message::Binary(bytes.into())).await.unwrap();
    }

    /// Sends audio as a microphone does, in 20 ms frames.
    pub(crate) async fn speak(&mut self, pcm: Vec<i16>) {
        for frame in pcm.chunks(320) {
            self.send_audio(frame).await;
        }
    }

    /// The next event or audio frame (pings and pongs skipped); panics after 10 s.
    pub(crate) async fn next(&mut self) -> Frame {
        loop {
            let message = tokio::time::timeout(Duration::from_secs(10), self.raw_next())
                .await
                .expect("a frame within 10 s")
                .expect("connection open")
                .expect("frame");
            match message {
                Message::Text(t) => return Frame::Event(serde_json::from_str(&t).unwrap()),
                Message::Binary(b) => return Frame::Audio(b.to_vec()),
                Message::Close(_) => panic!("connection closed"),
                _ => {}
            }
        }
    }

    /// The next event of `kind`, other frames skipped.
    pub(crate) async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let frame = self.next().await;
            if frame.kind() == kind {
                return frame.json().clone();
            }
        }
    }

    /// Frames up to and including `done` (a failed turn too ends with `done`, after its `error`).
    pub(crate) async fn turn(&mut self) -> Vec<Frame> {
        let mut frames = Vec::new();
        loop {
            let frame = self.next().await;
            let end = frame.kind() == "done";
            frames.push(frame);
            if end {
                return frames;
            }
        }
    }

    /// A failed turn: its error event, which must be followed by `done`.
    async fn failed_turn(&mut self) -> Frame {
        let frames = self.turn().await;
        assert_eq!(kinds(&frames[frames.len() - 2..]), ["error", "done"], "{frames:?}");
        frames[frames.len() - 2].clone()
    }

    /// Whether anything arrives within `ms`.
    pub(crate) async fn quiet_for(&mut self, ms: u64) -> bool {
        tokio::time::timeout(Duration::from_millis(ms), self.raw_next())
            .await
            .is_err()
    }
}

pub(crate) fn kinds(frames: &[Frame]) -> Vec<String> {
    frames.iter().map(Frame::kind).collect()
}

pub(crate) async fn connect(app: &TestApp, path: &str, token: &str) -> Client {
    let url = format!(
        "ws://{}{path}{}token={token}",
        app.addr,
        if path.contains('?') { "&" } else { "?" }
    );
    let (ws, _) = connect_async(url).await.expect("handshake");
    Client::new(ws)
}

/// As [`connect`], a page that never shows what it is pushed.
pub(crate) async fn connect_silent(app: &TestApp, path: &str, token: &str) -> Client {
    let url = format!("ws://{}{path}?token={token}", app.addr);
    let (ws, _) = connect_async(url).await.expect("handshake");
    Client::silent(ws)
}

/// A gateway for the channels: `llm` answers, and no filler interrupts the events a test expects.
fn gateway(llm: &Fake) -> Gateway {
    TestApp::with().llm(llm).env(&[("FILLER_AFTER_MS", "0")])
}

#[tokio::test]
async fn a_streamed_chat_turn_sends_ack_tokens_semantic_audio_done_in_order() {
    let llm = Fake::start().await;
    llm.then(CHAT, tokens(&["Hello", " there.", " Bye."]));
    let (app, token, _) = gateway(&llm).user("anna").await;
    let mut ws = connect(&app, "/ws/chat", &token).await;

    ws.send(json!({"text": "Hi", "stream": true, "audio_stream": false}))
        .await;
    let frames = ws.turn().await;

    assert_eq!(
        kinds(&frames),
        ["ack", "token", "token", "token", "semantic", "audio", "binary", "done"]
    );
    let texts: Vec<&str> = frames[1..4]
        .iter()
        .map(|f| f.json()["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["Hello", " there.", " Bye."]);
    assert_eq!(frames[4].json()["text"], "Hello there. Bye.");
    assert_eq!(frames[4].json()["sentences"], json!(["Hello there.", "Bye."]));
    assert_eq!(frames[5].json()["seq"], 0);
    let Frame::Audio(wav) = &frames[6] else { panic!() };
    assert_eq!(&wav[..4], b"RIFF");
}

#[tokio::test]
async fn without_stream_there_are_no_tokens_and_text_only_has_no_audio() {
    let llm = Fake::answering(&["Fine", " thanks."]).await;
    let (app, token, _) = gateway(&llm).user("anna").await;
    let mut ws = connect(&app, "/ws/chat", &token).await;

    ws.send(json!({"text": "How are you?", "audio_stream": false})).await;
    assert_eq!(kinds(&ws.turn().await), ["ack", "semantic", "audio", "binary", "done"]);
    ws.send(json!({"text": "Again", "text_only": true, "stream": true}))
        .await;
    assert_eq!(kinds(&ws.turn().await), ["ack", "token", "token", "semantic", "done"]);
}

#[tokio::test]
async fn sentence_audio_leaves_while_the_llm_is_still_writing() {
    let llm = Fake::start().await;
    // A sentence is known to be complete when the next token shows what follows its period.
    let (reply, gate, _) = held(&["The first", " sentence is here.", " And"], &[" a second", " one."]);
    llm.then(CHAT, reply);
    let (app, token, _) = gateway(&llm).user("anna").await;
    let mut ws = connect(&app, "/ws/chat", &token).await;

    ws.send(json!({"text": "Tell me", "stream": true, "audio_stream": true}))
        .await;
    let mut before = Vec::new();
    while before.iter().filter(|f: &&Frame| f.kind() == "binary").count() < 1 {
        before.push(ws.next().await);
    }
    // The LLM is held after the first sentence: its audio is out already.
    assert_eq!(kinds(&before), ["ack", "token", "token", "token", "audio", "binary"]);
    assert_eq!(before[4].json()["seq"], 0);
    assert_eq!(before[4].json()["text"], "The first sentence is here.");
    gate.add_permits(1);
    let rest = ws.turn().await;

    let audio: Vec<&Value> = rest.iter().filter(|f| f.kind() == "audio").map(Frame::json).collect();
    assert_eq!(audio.len(), 1);
    assert_eq!(audio[0]["seq"], 1);
    assert_eq!(audio[0]["text"], "And a second one.");
    assert_eq!(rest.last().unwrap().kind(), "done");
    let audio_at = rest.iter().position(|f| f.kind() == "audio").unwrap();
    assert_eq!(
        rest[audio_at + 1].kind(),
        "binary",
        "each audio event is followed by its bytes"
    );
}

#[tokio::test]
async fn an_interrupt_cancels_the_turn_at_once_and_closes_the_llm_request() {
    let llm = Fake::start().await;
    let (reply, _gate, closed) = held(&["Once upon"], &[" a time."]);
    llm.then(CHAT, reply);
    llm.then(CHAT, tokens(&["Next."]));
    let (app, token, _) = gateway(&llm).user("anna").await;
    let session = app.new_session(&token).await;
    let mut ws = connect(&app, &format!("/ws/chat?session_id={session}"), &token).await;

    ws.send(json!({"text": "Tell a story", "stream": true})).await;
    assert_eq!(ws.next().await.kind(), "ack");
    assert_eq!(ws.next().await.kind(), "token");
    ws.send(json!({"type": "interrupt"})).await;

    assert_eq!(ws.next().await.kind(), "interrupted");
    assert!(ws.quiet_for(300).await, "nothing of the interrupted turn follows");
    eventually("the LLM request closing", 5, || async { closed.load(Ordering::SeqCst) }).await;
    let stored = app.get(&format!("/api/sessions/{session}"), As::Bearer(&token)).await;
    assert_eq!(stored.body["messages"], json!([]), "an interrupted turn is not stored");

    ws.send(json!({"text": "Something else", "stream": true, "text_only": true}))
        .await;
    assert_eq!(kinds(&ws.turn().await), ["ack", "token", "semantic", "done"]);
}

#[tokio::test]
async fn new_input_interrupts_the_running_turn() {
    let llm = Fake::start().await;
    let (reply, _gate, closed) = held(&["Slow"], &[" answer."]);
    llm.then(CHAT, reply);
    llm.then(CHAT, tokens(&["Quick answer."]));
    let (app, token, _) = gateway(&llm).user("anna").await;
    let mut ws = connect(&app, "/ws/chat", &token).await;

    ws.send(json!({"text": "First", "stream": true, "text_only": true}))
        .await;
    assert_eq!(ws.next().await.kind(), "ack");
    assert_eq!(ws.next().await.kind(), "token");
    ws.send(json!({"text": "Second", "text_only": true})).await;
    let frames = ws.turn().await;

    assert_eq!(kinds(&frames), ["interrupted", "ack", "semantic", "done"]);
    assert_eq!(frames[2].json()["text"], "Quick answer.");
    eventually("the first turn's LLM request closing", 5, || async {
        closed.load(Ordering::SeqCst)
    })
    .await;
}

#[tokio::test]
async fn a_slow_first_token_gets_a_filler_that_is_not_part_of_the_answer() {
    let llm = Fake::start().await;
    let (reply, gate, _) = held(&[], &["Here it is."]);
    llm.then(CHAT, reply);
    let (app, token, _) = gateway(&llm).env(&[("FILLER_AFTER_MS", "100")]).user("anna").await;
    let mut ws = connect(&app, "/ws/chat", &token).await;

    ws.send(json!({"text": "Hard question", "language": "de", "stream": true, "audio_stream": true}))
        .await;
    assert_eq!(ws.next().await.kind(), "ack");
    let filler = ws.next().await;
    assert_eq!(filler.kind(), "filler");
    assert_eq!(filler.json()["text"], "Einen Moment, bitte.");
    let spoken = ws.next().await;
    assert_eq!(spoken.kind(), "audio");
    assert_eq!(
        (spoken.json()["seq"].clone(), spoken.json()["filler"].clone()),
        (json!(0), json!(true))
    );
    assert_eq!(ws.next().await.kind(), "binary");
    gate.add_permits(1);
    let rest = ws.turn().await;
    let semantic = rest.iter().find(|f| f.kind() == "semantic").unwrap();
    assert_eq!(semantic.json()["text"], "Here it is.");
    let audio = rest.iter().find(|f| f.kind() == "audio").unwrap();
    assert_eq!(
        (audio.json()["seq"].clone(), audio.json()["filler"].clone()),
        (json!(1), json!(false))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_asked_right_after_done_is_not_reported_as_an_interruption() {
    let llm = Fake::answering(&["Fine."]).await;
    let (app, token, _) = gateway(&llm).user("anna").await;
    let mut ws = connect(&app, "/ws/chat", &token).await;

    // `done` ends a turn: a frame sent the moment it arrives starts a new turn, it interrupts nothing.
    for n in 0..200 {
        ws.send(json!({"text": format!("question {n}"), "text_only": true}))
            .await;
        let frames = ws.turn().await;
        assert_eq!(kinds(&frames), ["ack", "semantic", "done"], "turn {n}");
    }
}

#[tokio::test]
async fn without_audio_stream_the_filler_is_still_spoken_as_sentence_zero() {
    let llm = Fake::start().await;
    let (reply, gate, _) = held(&[], &["Here it is."]);
    llm.then(CHAT, reply);
    let (app, token, _) = gateway(&llm).env(&[("FILLER_AFTER_MS", "100")]).user("anna").await;
    let mut ws = connect(&app, "/ws/chat", &token).await;

    ws.send(json!({"text": "Hard question", "language": "de", "audio_stream": false}))
        .await;
    assert_eq!(ws.next().await.kind(), "ack");
    assert_eq!(ws.next().await.kind(), "filler");
    let spoken = ws.next().await;
    assert_eq!(spoken.kind(), "audio");
    assert_eq!(
        (spoken.json()["seq"].clone(), spoken.json()["filler"].clone()),
        (json!(0), json!(true))
    );
    assert_eq!(ws.next().await.kind(), "binary");
    gate.add_permits(1);
    let rest = ws.turn().await;
    assert_eq!(kinds(&rest), ["semantic", "audio", "binary", "done"]);
    assert_eq!(rest[1].json()["seq"], 1, "the whole answer follows as sentence one");
}

/// 16-bit PCM at 16 kHz.
pub(crate) fn silence(ms: u32) -> Vec<i16> {
    vec![0; (16 * ms) as usize]
}

pub(crate) fn tone(ms: u32) -> Vec<i16> {
    (0..16 * ms)
        .map(|i| ((f64::from(i) / 16_000.0 * 440.0 * std::f64::consts::TAU).sin() * 8000.0) as i16)
        .collect()
}

fn voice_gateway(stt: &Fake, llm: &Fake) -> Gateway {
    gateway(llm).stt(stt)
}

/// Seconds of audio in the WAV of a multipart upload.
pub(crate) fn uploaded_seconds(request: &Recorded) -> f64 {
    let at = request.body.windows(4).position(|w| w == b"RIFF").unwrap();
    let data = u32::from_le_bytes(request.body[at + 40..at + 44].try_into().unwrap());
    f64::from(data) / 2.0 / 16_000.0
}

#[tokio::test]
async fn vad_ends_an_utterance_of_silence_tone_silence_by_itself() {
    let stt = Fake::start().await;
    stt.always(STT, Reply::Json(json!({"text": "Hallo", "language": "de"})));
    let llm = Fake::answering(&["Hallo zurück."]).await;
    let (app, token, _) = voice_gateway(&stt, &llm).user("anna").await;
    let mut ws = connect(&app, "/ws/voice", &token).await;

    ws.send(json!({"type": "start", "vad": true, "language": "de", "text_only": true}))
        .await;
    let audio = [silence(500), tone(1000), silence(1000)].concat();
    for piece in audio.chunks(1600) {
        ws.send_audio(piece).await;
    }
    let frames = ws.turn().await;

    assert_eq!(kinds(&frames), ["transcript", "ack", "semantic", "done"]);
    assert_eq!(frames[0].json()["text"], "Hallo");
    let sent = stt.requests(STT);
    assert_eq!(sent.len(), 1);
    let seconds = uploaded_seconds(&sent[0]);
    assert!((1.4..=2.2).contains(&seconds), "utterance of {seconds} s");
}

#[tokio::test]
async fn two_utterances_on_one_connection_with_end_frames_and_end_options_winning() {
    let stt = Fake::start().await;
    stt.then(STT, Reply::Json(json!({"text": "eins"})));
    stt.then(STT, Reply::Json(json!({"text": "two"})));
    let llm = Fake::answering(&["Ok."]).await;
    let (app, token, _) = voice_gateway(&stt, &llm).user("anna").await;
    let mut ws = connect(&app, "/ws/voice", &token).await;

    ws.send(json!({"type": "start", "language": "de", "text_only": true}))
        .await;
    ws.send_audio(&tone(300)).await;
    ws.send(json!({"type": "end"})).await;
    let first = ws.turn().await;
    ws.send_audio(&tone(200)).await;
    ws.send(json!({"type": "end", "language": "en"})).await;
    let second = ws.turn().await;

    assert_eq!(kinds(&first), ["transcript", "ack", "semantic", "done"]);
    assert_eq!(first[0].json()["text"], "eins");
    assert_eq!(second[0].json()["text"], "two");
    assert_eq!(second[2].json()["language"], "en");
    let sent = stt.requests(STT);
    let body = |r: &Recorded| String::from_utf8_lossy(&r.body).to_string();
    assert!(body(&sent[0]).contains("name=\"language\"\r\n\r\nde"));
    assert!(body(&sent[1]).contains("name=\"language\"\r\n\r\nen"));
    assert!(
        (uploaded_seconds(&sent[1]) - 0.2).abs() < 0.01,
        "the second utterance holds only its own audio"
    );
}

#[tokio::test]
async fn an_empty_buffer_and_an_empty_transcript_are_error_events_and_the_connection_stays() {
    let stt = Fake::start().await;
    stt.then(STT, Reply::Json(json!({"text": "  "})));
    stt.then(STT, Reply::Json(json!({"text": "Das war gut"})));
    let llm = Fake::answering(&["Gut."]).await;
    let (app, token, _) = voice_gateway(&stt, &llm).user("anna").await;
    let mut ws = connect(&app, "/ws/voice", &token).await;

    ws.send(json!({"type": "start", "language": "de", "text_only": true}))
        .await;
    ws.send(json!({"type": "end"})).await;
    let empty = ws.next().await;
    assert_eq!(
        (empty.kind(), empty.json()["status"].clone()),
        ("error".into(), json!(422))
    );
    assert_eq!(empty.json()["code"], "empty_audio");

    ws.send_audio(&silence(300)).await;
    ws.send(json!({"type": "end"})).await;
    let nothing = ws.failed_turn().await;
    assert_eq!(nothing.json()["error"], "no speech recognized");
    assert_eq!(
        nothing.json()["message"],
        "Ich habe nichts verstanden. Bitte sprich noch einmal."
    );

    ws.send_audio(&tone(300)).await;
    ws.send(json!({"type": "end"})).await;
    assert_eq!(kinds(&ws.turn().await), ["transcript", "ack", "semantic", "done"]);
    assert_eq!(llm.requests(CHAT).len(), 1);
}

#[tokio::test]
async fn with_detection_instead_of_a_fixed_language_the_transcript_is_translated() {
    let stt = Fake::start().await;
    stt.always(
        STT,
        Reply::Json(json!({"text": "Bonjour, ça va ?", "language": "french"})),
    );
    let llm = Fake::answering(&["Gut, danke."]).await;
    llm.when(
        |r| {
            r.json()["messages"][0]["content"]
                .as_str()
                .is_some_and(|s| s.starts_with("Translate"))
        },
        tokens(&["Hallo, wie geht's?"]),
    );
    let (app, token, _) = voice_gateway(&stt, &llm)
        .env(&[("STT_FORCE_LANGUAGE", "false")])
        .user("anna")
        .await;
    let mut ws = connect(&app, "/ws/voice", &token).await;

    ws.send(json!({"type": "start", "language": "de", "text_only": true}))
        .await;
    ws.send_audio(&tone(300)).await;
    ws.send(json!({"type": "end"})).await;
    let frames = ws.turn().await;

    let transcript = frames[0].json();
    assert_eq!(transcript["text"], "Hallo, wie geht's?");
    assert_eq!(transcript["original"], "Bonjour, ça va ?");
    assert_eq!(transcript["language"], "fr");
    let sent = String::from_utf8_lossy(&stt.requests(STT)[0].body).to_string();
    assert!(
        !sent.contains("name=\"language\""),
        "the language is detected, not fixed"
    );
    let asked = llm.requests(CHAT);
    let translation = asked[0].json();
    assert!(
        translation["messages"][0]["content"]
            .as_str()
            .unwrap()
            .contains("from French into German")
    );
    let turn = asked[1].json();
    assert_eq!(
        turn["messages"].as_array().unwrap().last().unwrap()["content"],
        "Hallo, wie geht's?"
    );
}

#[tokio::test]
async fn when_nobody_chose_the_language_speech_is_heard_in_the_gateways_default_language() {
    let stt = Fake::start().await;
    stt.always(STT, Reply::Json(json!({"text": "Wie spät ist es?", "language": "de"})));
    let llm = Fake::answering(&["Es ist zehn Uhr."]).await;
    // A German household: DEFAULT_LANGUAGE=de (or a machine whose locale is German); Anna chose nothing.
    let (app, token, id) = voice_gateway(&stt, &llm)
        .env(&[("DEFAULT_LANGUAGE", "de")])
        .user("anna")
        .await;
    let mut ws = connect(&app, "/ws/voice", &token).await;

    ws.send(json!({"type": "start", "text_only": true})).await;
    ws.send_audio(&tone(300)).await;
    ws.send(json!({"type": "end"})).await;
    let frames = ws.turn().await;
    assert_eq!(frames[0].json()["language"], "de", "{}", frames[0].json());
    // The specification: the STT language is the fixed target language; the recogniser never detects it
    // while stt_force_language is on (and so hears the clip on its short window).
    let sent = String::from_utf8_lossy(&stt.requests(STT)[0].body).to_string();
    assert!(sent.contains("name=\"language\"\r\n\r\nde\r\n"), "{sent}");
    let system = llm.requests(CHAT)[0].json()["messages"][0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(system.contains("Answer in German"), "{system}");

    // Anna may use English and French only: German is clamped to the first of hers, and she is heard in it.
    let allowed = json!({"allowed_languages": ["en", "fr"]});
    let prefs = format!("/api/admin/users/{id}/prefs");
    let r = app
        .call(reqwest::Method::PUT, &prefs, As::AdminKey, Some(allowed))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    ws.send(json!({"type": "start", "text_only": true})).await;
    ws.send_audio(&tone(300)).await;
    ws.send(json!({"type": "end"})).await;
    let frames = ws.turn().await;
    assert_eq!(frames[0].json()["language"], "en", "the turn's language");
    let sent = String::from_utf8_lossy(&stt.requests(STT).last().unwrap().body).to_string();
    assert!(sent.contains("name=\"language\"\r\n\r\nen\r\n"), "{sent}");
}

#[tokio::test]
async fn with_a_forced_language_the_transcript_is_in_the_turns_language() {
    let stt = Fake::start().await;
    stt.always(STT, Reply::Json(json!({"text": "Hallo", "language": "french"})));
    let llm = Fake::answering(&["Gut."]).await;
    let (app, token, _) = voice_gateway(&stt, &llm).user("anna").await;
    let mut ws = connect(&app, "/ws/voice", &token).await;

    ws.send(json!({"type": "start", "language": "de", "text_only": true}))
        .await;
    ws.send_audio(&tone(300)).await;
    ws.send(json!({"type": "end"})).await;
    let frames = ws.turn().await;

    let transcript = frames[0].json();
    assert_eq!(transcript["type"], "transcript");
    assert_eq!(transcript["language"], "de", "{transcript}");
    assert!(transcript.get("original").is_none(), "nothing is translated");
    assert_eq!(llm.requests(CHAT).len(), 1);
}

#[tokio::test]
async fn a_foreign_origin_is_refused_and_the_own_origin_is_welcome() {
    let llm = Fake::start().await;
    let (app, token, _) = gateway(&llm)
        .env(&[("WS_ALLOWED_ORIGINS", "https://app.example")])
        .user("anna")
        .await;
    let url = format!("ws://{}/ws/chat?token={token}", app.addr);

    let mut foreign = url.clone().into_client_request().unwrap();
    foreign
        .headers_mut()
        .insert("Origin", "https://evil.example".parse().unwrap());
    let refused = connect_async(foreign).await.unwrap_err();
    let tokio_tungstenite::tungstenite::Error::Http(response) = refused else {
        panic!("expected an HTTP refusal, got {refused:?}");
    };
    assert_eq!(response.status(), 403);

    for origin in [format!("http://{}", app.addr), "https://app.example".to_string()] {
        let mut own = url.clone().into_client_request().unwrap();
        own.headers_mut().insert("Origin", origin.parse().unwrap());
        assert!(connect_async(own).await.is_ok(), "{origin}");
    }
    let anonymous = connect_async(format!("ws://{}/ws/chat", app.addr)).await.unwrap_err();
    assert!(matches!(anonymous, tokio_tungstenite::tungstenite::Error::Http(r) if r.status() == 401));
}

#[tokio::test]
async fn quota_foreign_sessions_and_bad_frames_are_error_events_on_a_usable_connection() {
    let llm = Fake::answering(&["Ok."]).await;
    let (app, token, _) = gateway(&llm).env(&[("DAILY_REQUEST_LIMIT", "1")]).user("anna").await;
    let (_, other) = app.create_user("bert").await;
    let foreign = app.new_session(&other).await;
    let mut ws = connect(&app, "/ws/chat", &token).await;

    ws.send(json!({"text": "x", "session_id": foreign})).await;
    let refused = ws.failed_turn().await;
    assert_eq!(
        (refused.kind(), refused.json()["status"].clone()),
        ("error".into(), json!(404))
    );
    ws.send(json!({"text": "x".repeat(70_000)})).await;
    assert_eq!(ws.next().await.json()["status"], 422);
    ws.send(json!({"text": "x", "provider": "gpt"})).await;
    assert_eq!(ws.failed_turn().await.json()["status"], 422);
    ws.send(json!({"text": "   "})).await;
    let empty = ws.failed_turn().await;
    assert_eq!(
        (empty.json()["status"].clone(), empty.json()["code"].clone()),
        (json!(422), json!("empty_text"))
    );
    ws.raw_send(Message::Text("{not json".into())).await.unwrap();
    assert_eq!(ws.next().await.json()["status"], 422);
    ws.send(json!({"type": "start"})).await;
    assert_eq!(ws.next().await.json()["status"], 422, "start belongs to /ws/voice");
    ws.send(json!({"type": "played", "seq": "first"})).await;
    assert_eq!(
        ws.next().await.json()["status"],
        422,
        "a played frame names its piece by number"
    );

    ws.send(json!({"text": "first", "text_only": true})).await;
    assert_eq!(ws.turn().await.last().unwrap().kind(), "done");
    ws.send(json!({"text": "second", "text_only": true})).await;
    let over = ws.failed_turn().await;
    assert_eq!(
        (over.kind(), over.json()["status"].clone()),
        ("error".into(), json!(429))
    );
    assert_eq!(llm.requests(CHAT).len(), 1);
}

#[tokio::test]
async fn oversized_audio_is_an_error_event_and_the_utterance_limit_holds() {
    let stt = Fake::start().await;
    stt.always(STT, Reply::Json(json!({"text": "short"})));
    let llm = Fake::answering(&["Ok."]).await;
    let (app, token, _) = voice_gateway(&stt, &llm)
        .env(&[("MAX_UTTERANCE_SECONDS", "1")])
        .user("anna")
        .await;
    let mut ws = connect(&app, "/ws/voice", &token).await;

    ws.send(json!({"type": "start", "text_only": true})).await;
    ws.raw_send(Message::Binary(vec![0u8; 2 * 1024 * 1024].into()))
        .await
        .unwrap();
    assert_eq!(ws.next().await.json()["status"], 422);
    ws.raw_send(Message::Binary(vec![0u8, 1, 2].into())).await.unwrap();
    assert_eq!(
        ws.next().await.json()["status"],
        422,
        "odd byte count is not 16-bit PCM"
    );
    ws.send_audio(&tone(800)).await;
    ws.send_audio(&tone(800)).await;
    let too_long = ws.next().await;
    assert!(too_long.json()["message"].as_str().unwrap().contains("longer than 1 s"));
    assert_eq!(too_long.json()["code"], "utterance_too_long", "{:?}", too_long.json());
    ws.send_audio(&tone(500)).await;
    ws.send(json!({"type": "end"})).await;
    assert_eq!(kinds(&ws.turn().await), ["transcript", "ack", "semantic", "done"]);
}

#[tokio::test]
async fn an_idle_connection_is_closed_after_the_timeout() {
    let llm = Fake::start().await;
    let (app, token, _) = gateway(&llm)
        .env(&[("WS_IDLE_TIMEOUT_SECONDS", "1")])
        .user("anna")
        .await;
    let mut ws = connect(&app, "/ws/chat", &token).await;
    let closed = tokio::time::timeout(Duration::from_secs(5), ws.raw_next())
        .await
        .expect("closed within 5 s");
    assert!(matches!(closed, Some(Ok(Message::Close(_))) | None), "{closed:?}");
}

#[tokio::test]
async fn admins_watch_the_live_log_and_others_may_not() {
    let llm = Fake::start().await;
    let (app, token, _) = gateway(&llm).env(&[("INSTANCE_ID", "gw7")]).user("anna").await;
    let url = format!("ws://{}/api/admin/log", app.addr);
    let mut request = url.clone().into_client_request().unwrap();
    request.headers_mut().insert("X-Admin-Key", ADMIN_KEY.parse().unwrap());
    let (mut log, _) = connect_async(request).await.expect("admin connects");
    // The first line says which instance's log this is (each instance has its own); it comes once the
    // connection listens, so what follows is seen.
    let Some(Ok(Message::Text(hello))) = log.next().await else {
        panic!("a first line");
    };
    assert!(hello.starts_with("live log of instance gw7"), "{hello}");

    let (id, _) = app.create_user("logwatch").await;

    let mut seen = false;
    while !seen {
        let message = tokio::time::timeout(Duration::from_secs(5), log.next())
            .await
            .expect("log lines arrive")
            .unwrap()
            .unwrap();
        if let Message::Text(line) = message {
            seen = line.contains("user.create") && line.contains(&id);
        }
    }
    let refused = connect_async(format!("{url}?token={token}")).await.unwrap_err();
    assert!(matches!(refused, tokio_tungstenite::tungstenite::Error::Http(r) if r.status() == 403));
}

/// Reads the error event and the close frame that end a refused or overloaded voice connection.
async fn closed_with(ws: &mut Client) -> (Value, u16) {
    let error = ws.next().await.json().clone();
    assert_eq!(error["type"], "error", "{error}");
    let close = tokio::time::timeout(Duration::from_secs(5), ws.raw_next())
        .await
        .expect("closed within 5 s");
    let Some(Ok(Message::Close(Some(frame)))) = close else {
        panic!("no close frame: {close:?}");
    };
    (error, u16::from(frame.code))
}

#[tokio::test]
async fn voice_connections_are_capped_per_user_and_a_closed_one_frees_its_place() {
    let (stt, llm) = (Fake::start().await, Fake::start().await);
    let (app, token, _) = voice_gateway(&stt, &llm)
        .env(&[("VOICE_CONNECTIONS_PER_USER", "2")])
        .user("anna")
        .await;
    let first = connect(&app, "/ws/voice", &token).await;
    let _second = connect(&app, "/ws/voice", &token).await;

    let mut third = connect(&app, "/ws/voice", &token).await;
    let (error, code) = closed_with(&mut third).await;
    assert_eq!((error["status"].clone(), code), (json!(429), 1008), "{error}");

    drop(first);
    // The place is free once the server has noticed the close: a refused connection hears so at once, an
    // accepted one stays quiet.
    eventually("a free place again", 5, || async {
        let mut again = connect(&app, "/ws/voice", &token).await;
        again.send(json!({"type": "start"})).await;
        again.send_audio(&silence(100)).await;
        again.quiet_for(300).await
    })
    .await;
}

#[tokio::test]
async fn audio_beyond_everybodys_budget_closes_that_connection_not_the_process() {
    let (stt, llm) = (Fake::start().await, Fake::start().await);
    let (app, token, _) = voice_gateway(&stt, &llm)
        .env(&[("AUDIO_BUFFER_BUDGET_BYTES", "200000")])
        .user("anna")
        .await;
    let mut one = connect(&app, "/ws/voice", &token).await;
    one.send(json!({"type": "start"})).await;
    one.send_audio(&tone(3750)).await; // 60,000 samples: 120 kB
    assert!(one.quiet_for(300).await);

    let mut two = connect(&app, "/ws/voice", &token).await;
    two.send(json!({"type": "start"})).await;
    two.send_audio(&tone(3750)).await;
    let (error, code) = closed_with(&mut two).await;
    assert_eq!((error["status"].clone(), code), (json!(503), 1008), "{error}");

    // The first connection keeps its audio and is answered.
    stt.always(STT, Reply::Json(json!({"text": "hallo", "language": "de"})));
    llm.always(CHAT, tokens(&["Ja."]));
    one.send(json!({"type": "end"})).await;
    assert_eq!(one.next().await.json()["text"], "hallo");
}

/// The code of the close frame that comes next.
async fn close_code(ws: &mut Client) -> u16 {
    match tokio::time::timeout(Duration::from_secs(10), ws.raw_next())
        .await
        .expect("an answer")
    {
        Some(Ok(Message::Close(Some(frame)))) => u16::from(frame.code),
        other => panic!("no close frame: {other:?}"),
    }
}

#[tokio::test]
async fn a_close_frame_is_answered_and_refused_frames_get_their_close_code() {
    use tokio_tungstenite::tungstenite::protocol::CloseFrame;
    use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
    let llm = Fake::start().await;
    let (app, token, _) = gateway(&llm).user("anna").await;

    let mut ws = connect(&app, "/ws/chat", &token).await;
    let bye = CloseFrame {
        code: CloseCode::Normal,
        reason: "bye".into(),
    };
    ws.raw_send(Message::Close(Some(bye))).await.unwrap();
    assert_eq!(close_code(&mut ws).await, 1000, "the close is answered");

    // Frames written by hand after a real handshake: a binary frame announcing 17 MiB, and a frame with a
    // reserved opcode.
    let mut big = raw_websocket(&app, &token).await;
    let mut header = vec![0x82, 0xFF];
    header.extend_from_slice(&(17u64 * 1024 * 1024).to_be_bytes());
    header.extend_from_slice(&[1, 2, 3, 4]);
    big.write_all(&header).await.unwrap();
    assert_eq!(raw_close_code(&mut big).await, 1009, "a message above 16 MiB");

    let mut odd = raw_websocket(&app, &token).await;
    odd.write_all(&[0x83, 0x80, 1, 2, 3, 4]).await.unwrap();
    assert_eq!(raw_close_code(&mut odd).await, 1002, "protocol error");
}

/// A `/ws/chat` connection after a real handshake, as a bare TCP stream.
async fn raw_websocket(app: &TestApp, token: &str) -> TcpStream {
    let mut tcp = TcpStream::connect(app.addr).await.unwrap();
    let handshake = format!(
        "GET /ws/chat?token={token} HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        app.addr
    );
    tcp.write_all(handshake.as_bytes()).await.unwrap();
    let mut head = [0u8; 1024];
    let n = tcp.read(&mut head).await.unwrap();
    assert!(
        head[..n].starts_with(b"HTTP/1.1 101"),
        "{}",
        String::from_utf8_lossy(&head[..n])
    );
    tcp
}

/// The code of the close frame the server sends on a bare stream.
async fn raw_close_code(tcp: &mut TcpStream) -> u16 {
    let mut frame = [0u8; 64];
    let n = tokio::time::timeout(Duration::from_secs(5), tcp.read(&mut frame))
        .await
        .unwrap()
        .unwrap();
    assert!(n >= 4 && frame[0] == 0x88, "a close frame: {:?}", &frame[..n]);
    u16::from_be_bytes([frame[2], frame[3]])
}

#[tokio::test]
async fn speech_over_an_answer_interrupts_it_and_a_cough_does_not() {
    let stt = Fake::start().await;
    stt.then(STT, Reply::Json(json!({"text": "Erzähl eine Geschichte"})));
    stt.then(STT, Reply::Json(json!({"text": "Halt, lieber einen Witz"})));
    let llm = Fake::start().await;
    let (reply, _gate, closed) = held(&["Es war"], &[" einmal."]);
    llm.then(CHAT, reply);
    llm.then(CHAT, tokens(&["Sonnig."]));
    let (app, token, _) = voice_gateway(&stt, &llm)
        .env(&[("BARGE_IN_MIN_SPEECH_MS", "400")])
        .user("anna")
        .await;
    let mut ws = connect(&app, "/ws/voice", &token).await;
    ws.send(json!({"type": "start", "vad": true, "stream": true, "text_only": true}))
        .await;
    ws.speak([silence(300), tone(800), silence(900)].concat()).await;
    assert_eq!(ws.next().await.kind(), "transcript");
    assert_eq!(ws.next().await.kind(), "ack");
    assert_eq!(ws.next().await.kind(), "token", "the answer is being given");

    // A cough of 300 ms: long enough to be a sound, too short to interrupt.
    ws.speak([tone(300), silence(900)].concat()).await;
    assert!(ws.quiet_for(500).await, "nothing happens");
    assert_eq!(stt.requests(STT).len(), 1, "and nothing is transcribed");

    // Speaking over the answer stops it while the person is still speaking.
    ws.speak(tone(600)).await;
    assert_eq!(ws.next().await.kind(), "interrupted");
    eventually("the language model's request closing", 5, || async {
        closed.load(Ordering::SeqCst)
    })
    .await;
    ws.speak(silence(900)).await;
    let next = ws.turn().await;
    assert_eq!(kinds(&next), ["transcript", "ack", "token", "semantic", "done"]);
    assert_eq!(next[0].json()["text"], "Halt, lieber einen Witz");
}

#[tokio::test]
async fn transcription_starts_when_the_silence_begins_and_is_done_again_when_speech_goes_on() {
    let stt = Fake::start().await;
    stt.then(STT, Reply::Json(json!({"text": "erste Frage"})));
    stt.then(STT, Reply::Json(json!({"text": "zweite Frage,"})));
    stt.then(STT, Reply::Json(json!({"text": "zweite Frage, mit Pause"})));
    let llm = Fake::answering(&["Ok."]).await;
    let (app, token, _) = voice_gateway(&stt, &llm)
        .env(&[("STT_EARLY_MS", "200"), ("VAD_SILENCE_MS", "700")])
        .user("anna")
        .await;
    let mut ws = connect(&app, "/ws/voice", &token).await;
    ws.send(json!({"type": "start", "vad": true, "text_only": true})).await;
    let stt = &stt;
    let transcribed = |n: usize| {
        eventually(
            "a transcription",
            2,
            move || async move { stt.requests(STT).len() >= n },
        )
    };

    // 300 ms into the silence the turn is not over (it takes 700), but its transcription has started.
    ws.speak([silence(300), tone(800), silence(300)].concat()).await;
    // Transcription started at the pause.
    transcribed(1).await;
    assert!(ws.quiet_for(200).await, "the turn has not ended yet");
    ws.speak(silence(500)).await;
    let first = ws.turn().await;
    assert_eq!(first[0].json()["text"], "erste Frage");
    assert_eq!(
        stt.requests(STT).len(),
        1,
        "the early transcription was used, not repeated"
    );

    // Some seconds later (sooner would continue the first question), a pause of 300 ms inside a sentence: it is
    // transcribed there, and the whole utterance again once speech went on and ended.
    ws.speak([silence(2500), tone(600), silence(300)].concat()).await;
    transcribed(2).await;
    ws.speak([tone(600), silence(800)].concat()).await;
    let second = ws.turn().await;
    assert_eq!(second[0].json()["text"], "zweite Frage, mit Pause");
    let sent = stt.requests(STT);
    assert_eq!(sent.len(), 3);
    let (at_pause, whole) = (uploaded_seconds(&sent[1]), uploaded_seconds(&sent[2]));
    assert!(
        at_pause < 1.2,
        "the pause's pass heard the speech up to it: {at_pause} s"
    );
    assert!(
        (1.4..2.2).contains(&whole),
        "the last pass heard the whole utterance and little of the silence after it: {whole} s"
    );
}

/// The question of the last message a model request carried.
pub(crate) fn question_of(request: &Recorded) -> String {
    let messages = request.json()["messages"].as_array().unwrap().clone();
    messages.last().unwrap()["content"].as_str().unwrap().to_string()
}

/// Anna's requests today, as the operator sees them.
async fn requests_today(app: &TestApp) -> Value {
    let stats = app.get("/api/admin/stats", As::AdminKey).await;
    let users = stats.body["users"].as_array().unwrap().clone();
    users.into_iter().find(|u| u["name"] == "anna").unwrap()["requests_today"].clone()
}

/// Anna's voice socket in a session, with a turn that ends after 1500 ms of silence: a question is said and
/// 500 ms into the pause after it the model has been asked, before the turn ended.
async fn asked_during_a_pause(stt: &Fake, llm: &Fake) -> (TestApp, String, String, Client) {
    let (app, token, _) = voice_gateway(stt, llm)
        .env(&[("STT_EARLY_MS", "200"), ("VAD_SILENCE_MS", "1500")])
        .user("anna")
        .await;
    let session = app.new_session(&token).await;
    let mut ws = connect(&app, &format!("/ws/voice?session_id={session}"), &token).await;
    ws.send(json!({"type": "start", "vad": true, "language": "de", "stream": true, "text_only": true}))
        .await;
    ws.speak([silence(300), tone(800), silence(500)].concat()).await;
    eventually("the model asked during the pause", 3, || async {
        llm.requests(CHAT).len() == 1
    })
    .await;
    (app, token, session, ws)
}

/// The answer's text, from its tokens.
fn said(frames: &[Frame]) -> String {
    frames
        .iter()
        .filter(|f| f.kind() == "token")
        .map(|f| f.json()["text"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn the_answer_starts_during_the_pause_and_is_the_turns_when_the_pause_ends_it() {
    let stt = Fake::start().await;
    stt.then(STT, Reply::Json(json!({"text": "Wie spät ist es?"})));
    let llm = Fake::start().await;
    llm.then(CHAT, tokens(&["Es ist", " zwölf."]));
    let (app, token, session, mut ws) = asked_during_a_pause(&stt, &llm).await;
    assert_eq!(question_of(&llm.requests(CHAT)[0]), "Wie spät ist es?");
    assert!(ws.quiet_for(200).await, "nothing is said before the turn ends");

    ws.speak(silence(1200)).await;
    let frames = ws.turn().await;
    assert_eq!(
        kinds(&frames),
        ["transcript", "ack", "token", "token", "semantic", "done"]
    );
    assert_eq!(said(&frames), "Es ist zwölf.");
    assert_eq!(llm.requests(CHAT).len(), 1, "the early request was the turn's");
    assert_eq!(app.shown_texts(&session, &token, 2).await.len(), 2);
    assert_eq!(requests_today(&app).await, 1);
    let metrics = app.get("/api/metrics", As::AdminKey).await;
    let counters = &metrics.body["counters"];
    assert_eq!(counters[r#"llm_preemptive_total{outcome="started"}"#], 1, "{counters}");
    assert_eq!(
        counters[r#"llm_preemptive_total{outcome="used"}"#], 1,
        "the early answer is counted as used"
    );
}

#[tokio::test]
async fn speech_after_the_pause_stops_the_answer_started_on_it_and_the_whole_question_is_answered_once() {
    let stt = Fake::start().await;
    stt.then(STT, Reply::Json(json!({"text": "Wie heißt die Hauptstadt von"})));
    stt.then(
        STT,
        Reply::Json(json!({"text": "Wie heißt die Hauptstadt von Italien?"})),
    );
    let llm = Fake::start().await;
    let (early, _gate, closed) = held(&["Meinst du"], &[" Frankreich?"]);
    llm.then(CHAT, early);
    llm.then(CHAT, tokens(&["Rom."]));
    let (app, token, session, mut ws) = asked_during_a_pause(&stt, &llm).await;
    assert!(ws.quiet_for(200).await, "the early answer is held back");
    // The person goes on: the early answer's request is closed, and the whole question is answered.
    ws.speak([tone(600), silence(1700)].concat()).await;
    let frames = ws.turn().await;
    eventually("the early request closing", 5, || async {
        closed.load(Ordering::SeqCst)
    })
    .await;
    assert_eq!(frames[0].json()["text"], "Wie heißt die Hauptstadt von Italien?");
    assert_eq!(said(&frames), "Rom.", "nothing of the early answer reaches the person");
    let asked = llm.requests(CHAT);
    assert_eq!(asked.len(), 2);
    assert_eq!(question_of(&asked[0]), "Wie heißt die Hauptstadt von");
    assert_eq!(question_of(&asked[1]), "Wie heißt die Hauptstadt von Italien?");
    assert_eq!(
        app.shown_texts(&session, &token, 2).await,
        ["Wie heißt die Hauptstadt von Italien?", "Rom."],
        "the turn is stored once"
    );
    assert_eq!(requests_today(&app).await, 1, "and counted once");
}

/// Anna, who speaks German, with her contacts, a mail relay and Twilio (see `emergency::setup`), and the
/// fake recogniser and model of a voice turn; the help question waits `confirm_seconds` for its answer.
pub(crate) async fn help_setup(stt: &Fake, llm: &Fake, confirm_seconds: &str) -> crate::emergency::Setup {
    help_setup_with(stt, llm, confirm_seconds, Some(crate::smtp::Mode::Accept), &[]).await
}

/// As [`help_setup`], with the mail relay `smtp` (none: no relay) and `extra` settings.
pub(crate) async fn help_setup_with(
    stt: &Fake,
    llm: &Fake,
    confirm_seconds: &str,
    smtp: Option<crate::smtp::Mode>,
    extra: &[(&str, &str)],
) -> crate::emergency::Setup {
    let (stt_url, llm_url) = (stt.v1(), llm.v1());
    let mut env = vec![
        ("OPENAI_STT_URL", stt_url.as_str()),
        ("DEFAULT_STT_PROVIDER", "openai"),
        ("LOCAL_LLM_URL", llm_url.as_str()),
        ("DEFAULT_LLM_PROVIDER", "local"),
        ("DEFAULT_TTS_PROVIDER", "espeak"),
        ("MEMORY_EXTRACTION_ENABLED", "false"),
        ("WEB_SEARCH_ENABLED", "false"),
        ("FILLER_AFTER_MS", "0"),
        ("HELP_CONFIRM_SECONDS", confirm_seconds),
    ];
    env.extend_from_slice(extra);
    crate::emergency::setup(smtp, &env, crate::emergency::profile()).await
}

/// One utterance on `/ws/voice` and the frames of its turn.
pub(crate) async fn say(ws: &mut Client) -> Vec<Frame> {
    ws.send_audio(&tone(300)).await;
    ws.send(json!({"type": "end"})).await;
    ws.turn().await
}

#[tokio::test]
async fn a_call_for_help_by_voice_asks_first_and_a_yes_alerts_the_contacts() {
    let stt = Fake::start().await;
    stt.then(STT, Reply::Json(json!({"text": "Hilfe! Hilfe!"})));
    stt.then(STT, Reply::Json(json!({"text": "Ja, bitte."})));
    let llm = Fake::answering(&["Gern."]).await;
    let s = help_setup(&stt, &llm, "20").await;
    let mut ws = connect(&s.app, "/ws/voice", &s.token).await;
    ws.send(json!({"type": "start", "language": "de"})).await;

    let asked = say(&mut ws).await;
    assert_eq!(kinds(&asked), ["transcript", "help_asked", "audio", "binary", "done"]);
    assert_eq!(
        asked[1].json()["text"],
        "Soll ich Ihre Kontaktpersonen alarmieren? Sagen Sie bitte ja oder nein."
    );
    assert_eq!(asked[1].json()["seconds"], 20);
    assert!(
        s.smtp.as_ref().unwrap().mails().is_empty(),
        "nobody is alerted before the answer"
    );

    let answered = say(&mut ws).await;
    assert_eq!(kinds(&answered), ["transcript", "help", "audio", "binary", "done"]);
    assert_eq!(answered[1].json()["status"], "alerted");
    assert_eq!(
        answered[1].json()["message"],
        "Hilfe ist unterwegs: Ihre Kontaktpersonen wurden benachrichtigt."
    );
    let mails = s.smtp.as_ref().unwrap().mails();
    crate::emergency::mail_to(&mails, "tochter@family.example");
    assert!(
        !s.twilio.requests(crate::emergency::SMS).is_empty(),
        "the SMS went out too"
    );
    assert!(llm.requests(CHAT).is_empty(), "a call for help never reaches the model");
}

#[tokio::test]
async fn a_call_for_help_misheard_by_the_recogniser_still_asks_and_a_guessed_word_counts() {
    let stt = Fake::start().await;
    // As the engines' Whisper wrote a frightened "Hilfe, ich bin gestürzt".
    stt.then(
        STT,
        Reply::Json(json!({"text": "Hilfe, ich bin bestützt.", "language": "de"})),
    );
    stt.then(STT, Reply::Json(json!({"text": "Nein."})));
    // A lone word the recogniser guessed (speaches' and faster-whisper's word probabilities).
    stt.then(
        STT,
        Reply::Json(json!({"text": "Helether", "words": [{"word": "Helether", "probability": 0.21}]})),
    );
    stt.then(STT, Reply::Json(json!({"text": "Nein."})));
    stt.then(
        STT,
        Reply::Json(json!({"text": "Der Film hat mir gut gefallen.", "words": [{"word": "Der", "probability": 0.9}]})),
    );
    let llm = Fake::answering(&["Schön."]).await;
    let s = help_setup(&stt, &llm, "20").await;
    let mut ws = connect(&s.app, "/ws/voice", &s.token).await;
    ws.send(json!({"type": "start", "language": "de"})).await;

    let asked = say(&mut ws).await;
    assert_eq!(kinds(&asked), ["transcript", "help_asked", "audio", "binary", "done"]);
    assert_eq!(say(&mut ws).await[1].json()["status"], "declined");
    let guessed = say(&mut ws).await;
    assert_eq!(guessed[1].json()["type"], "help_asked", "{guessed:?}");
    assert_eq!(say(&mut ws).await[1].json()["status"], "declined");
    // The same words in a harmless sense go to the model.
    let harmless = say(&mut ws).await;
    assert!(kinds(&harmless).contains(&"semantic".to_string()), "{harmless:?}");
    assert_eq!(llm.requests(CHAT).len(), 1);
    // The recogniser was asked for its words.
    let form = String::from_utf8_lossy(&stt.requests(STT)[0].body).to_string();
    assert!(
        form.contains("timestamp_granularities[]") && form.contains("word"),
        "{form}"
    );
}

/// A recogniser's answer with each word's probability, as speaches and the engines' Whisper give them.
fn heard_with(text: &str, words: &[(&str, f64)]) -> Reply {
    let words: Vec<Value> = words
        .iter()
        .map(|(w, p)| json!({"word": w, "probability": p}))
        .collect();
    Reply::Json(json!({"text": text, "words": words}))
}

#[tokio::test]
async fn an_unclear_utterance_is_heard_again_for_a_call_for_help_and_a_written_over_one_goes_to_the_model() {
    let stt = Fake::start().await;
    // A frightened "Hilfe!" on the telephone, as the engines' Whisper wrote it, unsure; heard again with the
    // help prompt, it is "Hilfe!", scored about as likely. The second hearing answers once the answer to the
    // first has started (it runs meanwhile).
    stt.then(STT, heard_with("Sieh also.", &[("Sieh", 0.31), ("also.", 0.2)]));
    let second = std::sync::Arc::new(tokio::sync::Semaphore::new(0));
    stt.then(
        STT,
        Reply::Gated(second.clone(), Box::new(heard_with("Hilfe!", &[("Hilfe!", 0.38)]))),
    );
    stt.then(STT, Reply::Json(json!({"text": "Nein."})));
    // "Wie spät ist es?", unsure; the prompt makes the recogniser write its own words over it, which it then
    // finds unlikely: the question goes to the model.
    stt.then(
        STT,
        heard_with("Mischfehl ist es.", &[("Mischfehl", 0.27), ("ist", 0.5), ("es.", 0.5)]),
    );
    stt.then(
        STT,
        heard_with(
            "Ich bekomme keine Luft.",
            &[("Ich", 0.05), ("bekomme", 0.01), ("keine", 0.02), ("Luft.", 0.01)],
        ),
    );
    // A clear utterance is not heard again.
    stt.then(
        STT,
        heard_with(
            "Wie spät ist es?",
            &[("Wie", 0.95), ("spät", 0.9), ("ist", 0.97), ("es?", 0.96)],
        ),
    );
    let llm = Fake::answering(&["Es ist acht Uhr."]).await;
    let s = help_setup(&stt, &llm, "20").await;
    let mut ws = connect(&s.app, "/ws/voice", &s.token).await;
    ws.send(json!({"type": "start", "language": "de"})).await;

    ws.send_audio(&tone(300)).await;
    ws.send(json!({"type": "end"})).await;
    eventually("the answer started during the second hearing", 10, || async {
        llm.requests(CHAT).len() == 1
    })
    .await;
    second.add_permits(1);
    // It found a call for help: the answer is taken back unseen, the question is asked.
    let asked = ws.turn().await;
    assert_eq!(
        kinds(&asked),
        ["transcript", "help_asked", "audio", "binary", "done"],
        "{asked:?}"
    );
    assert_eq!(say(&mut ws).await[1].json()["status"], "declined");
    let unclear = say(&mut ws).await;
    assert!(kinds(&unclear).contains(&"semantic".to_string()), "{unclear:?}");
    let clear = say(&mut ws).await;
    assert!(kinds(&clear).contains(&"semantic".to_string()), "{clear:?}");

    let forms: Vec<String> = stt
        .requests(STT)
        .iter()
        .map(|r| String::from_utf8_lossy(&r.body).to_string())
        .collect();
    assert_eq!(
        forms.len(),
        6,
        "two second hearings, none for the answer or the clear question"
    );
    let prompted: Vec<bool> = forms.iter().map(|f| f.contains("name=\"prompt\"")).collect();
    assert_eq!(prompted, [false, true, false, false, true, false]);
    assert!(
        forms[1].contains("Hilfe! Ich bin gestürzt und komme nicht mehr hoch."),
        "{}",
        forms[1]
    );
    let asked = llm.requests(CHAT);
    let last = |i: usize| asked[i].json()["messages"].as_array().unwrap().last().unwrap()["content"].clone();
    // The answer started for "Sieh also." and taken back; the one started for "Mischfehl ist es." during its
    // second hearing is the turn's (asked once).
    assert_eq!(asked.len(), 3);
    assert_eq!(last(0), "Sieh also.");
    assert_eq!(
        last(1),
        "Mischfehl ist es.",
        "the first hearing's words, not the prompt's"
    );
    assert_eq!(last(2), "Wie spät ist es?");
}

#[tokio::test]
async fn a_call_for_help_that_would_reach_nobody_is_told_so_at_once_with_112() {
    let stt = Fake::start().await;
    stt.then(STT, Reply::Json(json!({"text": "Hilfe! Ich komme nicht mehr hoch."})));
    let llm = Fake::answering(&["Gern."]).await;
    // No mail relay and no Twilio: nobody can be reached, whatever the profile says.
    let s = help_setup_with(&stt, &llm, "20", None, &[("TWILIO_ACCOUNT_SID", "")]).await;
    let mut ws = connect(&s.app, "/ws/voice", &s.token).await;
    ws.send(json!({"type": "start", "language": "de"})).await;

    let told = say(&mut ws).await;
    // No question that promises help: the answer at once.
    assert_eq!(kinds(&told), ["transcript", "help", "audio", "binary", "done"]);
    assert_eq!(told[1].json()["status"], "no_recipients");
    let message = told[1].json()["message"].as_str().unwrap().to_string();
    assert!(
        message.starts_with("Ihre Hilfe erreicht noch niemanden") && message.contains("112"),
        "{message}"
    );
    assert!(llm.requests(CHAT).is_empty());
    assert!(
        crate::emergency::events(&s.app, &s.id).await.is_empty(),
        "a call for help nobody confirmed is no press: nothing recorded, no window"
    );
}

#[tokio::test]
async fn a_call_for_help_left_unanswered_alerts_the_contacts_after_the_set_seconds() {
    let stt = Fake::start().await;
    stt.then(
        STT,
        Reply::Json(json!({"text": "Ich bin gestürzt und komme nicht hoch."})),
    );
    let llm = Fake::answering(&["Gern."]).await;
    let s = help_setup(&stt, &llm, "1").await;
    let mut ws = connect(&s.app, "/ws/voice", &s.token).await;
    ws.send(json!({"type": "start", "language": "de"})).await;

    let asked = say(&mut ws).await;
    assert_eq!(asked[1].json()["type"], "help_asked");
    // Nothing more is said: after a second the alarm goes out by itself.
    let alarm = ws.turn().await;
    assert_eq!(kinds(&alarm), ["help", "audio", "binary", "done"]);
    assert_eq!(alarm[0].json()["status"], "alerted");
    // The person who cried for help and fell silent: her daughter reads what she said.
    let mail = crate::emergency::mail_to(&s.smtp.as_ref().unwrap().mails(), "tochter@family.example");
    let body = mail.body();
    assert!(
        body.contains("sagte: „Ich bin gestürzt und komme nicht hoch.“"),
        "{body}"
    );
}

/// The question's time stands still while the yes is raising the alarm: a contact's telephone that rings on
/// (Twilio's call request held open) holds the yes past the second the question waits, and still the person
/// hears "help is on the way" once, not a second alarm's "the alarm is being sent".
#[tokio::test]
async fn a_yes_still_raising_the_alarm_is_not_overtaken_by_the_questions_timer() {
    let stt = Fake::start().await;
    stt.then(STT, Reply::Json(json!({"text": "Ich bin gestürzt."})));
    stt.then(STT, Reply::Json(json!({"text": "Ja, bitte."})));
    let llm = Fake::answering(&["Gern."]).await;
    let s = help_setup(&stt, &llm, "1").await;
    let gate = std::sync::Arc::new(tokio::sync::Semaphore::new(0));
    let queued = Reply::Json(json!({"sid": "CA1", "status": "queued"}));
    s.twilio
        .then(crate::emergency::CALL, Reply::Gated(gate.clone(), Box::new(queued)));
    let mut ws = connect(&s.app, "/ws/voice", &s.token).await;
    ws.send(json!({"type": "start", "language": "de"})).await;

    assert_eq!(say(&mut ws).await[1].json()["type"], "help_asked");
    let yes = say(&mut ws).await;

    assert_eq!(kinds(&yes), ["transcript", "help", "audio", "binary", "done"]);
    assert_eq!(yes[1].json()["status"], "alerted");
    let told = yes[1].json()["message"].as_str().unwrap().to_string();
    assert!(told.starts_with("Hilfe ist unterwegs"), "{told}");
    assert!(ws.quiet_for(1500).await, "a second alarm was said");
    gate.add_permits(1);
    assert_eq!(s.twilio.requests(crate::emergency::SMS).len(), 1);
}

#[tokio::test]
async fn a_no_ends_the_call_for_help_and_a_request_for_help_goes_to_the_model() {
    let stt = Fake::start().await;
    stt.then(STT, Reply::Json(json!({"text": "Ich brauche Hilfe."})));
    stt.then(STT, Reply::Json(json!({"text": "Nein, alles gut."})));
    stt.then(
        STT,
        Reply::Json(json!({"text": "Kannst du mir helfen, ein Rezept zu finden?"})),
    );
    let llm = Fake::answering(&["Gern, welches Rezept?"]).await;
    let s = help_setup(&stt, &llm, "1").await;
    let mut ws = connect(&s.app, "/ws/voice", &s.token).await;
    ws.send(json!({"type": "start", "language": "de"})).await;

    assert_eq!(say(&mut ws).await[1].json()["type"], "help_asked");
    let declined = say(&mut ws).await;
    assert_eq!(kinds(&declined), ["transcript", "help", "audio", "binary", "done"]);
    assert_eq!(declined[1].json()["status"], "declined");
    assert_eq!(declined[1].json()["message"], "In Ordnung, ich alarmiere niemanden.");
    // The question's second has passed: a declined call stays declined.
    assert!(ws.quiet_for(1500).await, "no alarm after a no");
    assert!(s.smtp.as_ref().unwrap().mails().is_empty());

    let question = say(&mut ws).await;
    assert!(kinds(&question).contains(&"semantic".to_string()), "{question:?}");
    let asked = llm.requests(CHAT);
    assert_eq!(asked.len(), 1);
    let messages = asked[0].json()["messages"].as_array().unwrap().clone();
    assert_eq!(
        messages.last().unwrap()["content"],
        "Kannst du mir helfen, ein Rezept zu finden?"
    );
}

#[tokio::test]
async fn a_heard_frame_cuts_the_stored_answer_to_the_sentences_played() {
    let llm = Fake::start().await;
    llm.then(CHAT, tokens(&["It is sunny today. ", "Later it will rain."]));
    llm.then(CHAT, tokens(&["Tomorrow too."]));
    let (app, token, _) = gateway(&llm).user("anna").await;
    let session = app.new_session(&token).await;
    let mut ws = connect(&app, &format!("/ws/chat?session_id={session}"), &token).await;

    ws.send(json!({"text": "How is the weather?", "audio_stream": true}))
        .await;
    let answer = ws.turn().await;
    let audio: Vec<&Value> = answer.iter().filter(|f| f.kind() == "audio").map(Frame::json).collect();
    assert_eq!((audio[0]["seq"].clone(), audio.len()), (json!(0), 2));
    // The person stopped the playback during the second sentence.
    ws.send(json!({"type": "heard", "seq": 0})).await;
    let path = format!("/api/sessions/{session}");
    let stored = eventually("the answer cut to what was heard", 10, || async {
        let messages = app.get(&path, As::Bearer(&token)).await.body["messages"].clone();
        Some(messages).filter(|m| m[1]["text"] != "It is sunny today. Later it will rain.")
    })
    .await;
    assert_eq!(stored[1]["text"], "It is sunny today.");

    ws.send(json!({"text": "And tomorrow?"})).await;
    ws.turn().await;
    let asked = llm.requests(CHAT)[1].json();
    let history: Vec<&str> = asked["messages"].as_array().unwrap()[1..]
        .iter()
        .map(|m| m["content"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(history, ["How is the weather?", "It is sunny today.", "And tomorrow?"]);
}

/// Raw Opus packets of 20 ms, as WebCodecs' `AudioEncoder` gives them from a microphone at 16 kHz.
fn opus_packets(pcm: &[i16]) -> Vec<Vec<u8>> {
    use ropus::{Application, Channels, Encoder};
    let mut encoder = Encoder::builder(16_000, Channels::Mono, Application::Voip)
        .build()
        .unwrap();
    let mut out = [0u8; 1_500];
    pcm.chunks_exact(320)
        .map(|frame| {
            let len = encoder.encode(frame, &mut out).unwrap();
            out[..len].to_vec()
        })
        .collect()
}

/// The answer's audio events and the bytes after each.
fn answer_audio(frames: &[Frame]) -> Vec<(Value, Vec<u8>)> {
    frames
        .windows(2)
        .filter_map(|pair| match pair {
            [Frame::Event(event), Frame::Audio(bytes)] if event["type"] == "audio" => {
                Some((event.clone(), bytes.clone()))
            }
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_voice_conversation_in_opus_both_ways_takes_a_tenth_of_the_bytes() {
    use voice_gateway::providers::decode::{Container, decode};
    let stt = Fake::start().await;
    stt.always(STT, Reply::Json(json!({"text": "What is on today?"})));
    let llm = Fake::start().await;
    for _ in 0..2 {
        llm.then(CHAT, tokens(&["The market opens at nine.", " Bring a warm coat."]));
    }
    let (app, token, _) = voice_gateway(&stt, &llm).user("anna").await;
    let mut ws = connect(&app, "/ws/voice", &token).await;

    // Opus from the microphone, the end found by the detector; Opus answers, sentence by sentence.
    ws.send(
        json!({"type": "start", "vad": true, "input_format": "opus", "audio_format": "opus", "audio_stream": true}),
    )
    .await;
    for packet in opus_packets(&[silence(500), tone(1000), silence(1000)].concat()) {
        ws.raw_send(Message::Binary(packet.into())).await.unwrap();
    }
    let opus = answer_audio(&ws.turn().await);
    // The recogniser heard the decoded speech, of its length.
    let seconds = uploaded_seconds(&stt.requests(STT)[0]);
    assert!((1.0..=2.2).contains(&seconds), "utterance of {seconds} s");

    // The same answer as WAV, the default.
    ws.send(json!({"type": "start"})).await;
    ws.send_audio(&tone(300)).await;
    ws.send(json!({"type": "end"})).await;
    let wav = answer_audio(&ws.turn().await);

    assert_eq!(opus.len(), 2, "one audio unit a sentence");
    assert_eq!(wav.len(), 2);
    let (mut opus_bytes, mut wav_bytes) = (0, 0);
    for ((opus_event, ogg), (wav_event, riff)) in opus.iter().zip(&wav) {
        assert_eq!(opus_event["format"], "opus");
        assert_eq!(wav_event["format"], "wav");
        assert_eq!(opus_event["text"], wav_event["text"]);
        assert_eq!(Container::sniff(ogg), Some(Container::Ogg));
        let heard = decode(ogg, Some("audio/ogg"), 60).unwrap().duration_secs();
        let spoken = decode(riff, Some("audio/wav"), 60).unwrap().duration_secs();
        assert!(
            (heard - spoken).abs() < 0.03,
            "{heard} s of Opus for {spoken} s of speech"
        );
        opus_bytes += ogg.len();
        wav_bytes += riff.len();
    }
    assert!(
        opus_bytes * 10 <= wav_bytes,
        "{opus_bytes} bytes of Opus for {wav_bytes} of WAV"
    );
}

#[tokio::test]
async fn opus_input_at_a_rate_opus_lacks_and_a_broken_packet_are_error_events() {
    let stt = Fake::start().await;
    stt.always(STT, Reply::Json(json!({"text": "hello"})));
    let llm = Fake::answering(&["Hi."]).await;
    let (app, token, _) = voice_gateway(&stt, &llm).user("anna").await;
    let mut ws = connect(&app, "/ws/voice", &token).await;

    ws.send(json!({"type": "start", "input_format": "opus", "sample_rate": 44100}))
        .await;
    let refused = ws.next().await;
    assert_eq!(refused.json()["status"], 422);
    assert!(
        refused.json()["message"].as_str().unwrap().contains("sample_rate"),
        "{refused:?}"
    );
    ws.send(json!({"type": "start", "input_format": "flac"})).await;
    assert_eq!(ws.next().await.json()["status"], 422);

    ws.send(json!({"type": "start", "input_format": "opus", "text_only": true}))
        .await;
    // A TOC byte that claims more frames than the packet holds.
    ws.raw_send(Message::Binary(vec![0xFF, 0xFF, 0xFF].into()))
        .await
        .unwrap();
    let broken = ws.next().await;
    assert_eq!(broken.json()["status"], 422, "{broken:?}");
    assert!(
        broken.json()["message"].as_str().unwrap().contains("Opus"),
        "{broken:?}"
    );
    // The connection goes on: good packets after it are heard.
    for packet in opus_packets(&tone(400)) {
        ws.raw_send(Message::Binary(packet.into())).await.unwrap();
    }
    ws.send(json!({"type": "end"})).await;
    let frames = ws.turn().await;
    assert_eq!(kinds(&frames), ["transcript", "ack", "semantic", "done"]);
    assert!((uploaded_seconds(&stt.requests(STT)[0]) - 0.4).abs() < 0.02);
}

#[tokio::test]
async fn every_stage_of_a_voice_turn_is_measured_for_the_metrics_and_the_admin_panel() {
    let stt = Fake::start().await;
    stt.always(STT, Reply::Json(json!({"text": "Wie spät ist es?"})));
    let llm = Fake::answering(&["Es ist jetzt genau Mittag, ", "sagt die Uhr. ", "Gern."]).await;
    let (app, token, _) = voice_gateway(&stt, &llm)
        .env(&[("STT_EARLY_MS", "200"), ("VAD_SILENCE_MS", "700")])
        .user("anna")
        .await;
    let latency = app.get("/api/admin/latency", As::AdminKey).await;
    assert_eq!(latency.status, 200);
    assert_eq!(latency.body["turns"], 0);
    assert_eq!(latency.body["slowest_stage"], Value::Null);

    let mut ws = connect(&app, "/ws/voice", &token).await;
    ws.send(json!({"type": "start", "vad": true, "language": "de", "audio_stream": true}))
        .await;
    ws.speak([silence(300), tone(800), silence(900)].concat()).await;
    let frames = ws.turn().await;
    // The first sentence is spoken up to its first clause (FIRST_CLAUSE_WORDS, 4 by default), the rest whole.
    let spoken: Vec<Value> = frames
        .iter()
        .filter(|f| f.kind() == "audio")
        .map(|f| f.json()["text"].clone())
        .collect();
    assert_eq!(spoken, ["Es ist jetzt genau Mittag,", "sagt die Uhr.", "Gern."]);

    // Each stage once, labelled with the channel and, where one did the work, the provider.
    let metrics = app.get("/api/metrics", As::AdminKey).await;
    let histograms = metrics.body["histograms"].as_object().unwrap().clone();
    let stage = |name: &str| {
        let found: Vec<(&String, &Value)> = histograms
            .iter()
            .filter(|(k, _)| k.starts_with("voice_stage_seconds{") && k.contains(&format!("stage=\"{name}\"")))
            .collect();
        assert_eq!(found.len(), 1, "{name}: {found:?}");
        assert_eq!(found[0].1["count"], 1, "{name}");
        assert!(found[0].0.contains("channel=\"voice\""), "{}", found[0].0);
        (found[0].0.clone(), found[0].1["sum"].as_f64().unwrap())
    };
    let (series, end_of_turn) = stage("end_of_turn");
    assert!(
        end_of_turn >= 0.6,
        "the turn ended after the fixed silence of 700 ms: {end_of_turn} s, {series}"
    );
    assert!(stage("transcription").0.contains("provider=\"openai\""));
    assert!(stage("first_token").0.contains("provider=\"local\""));
    assert!(stage("first_audio").0.contains("provider=\"espeak\""));
    let parts: f64 = [
        "end_of_turn",
        "transcription",
        "first_token",
        "first_sentence",
        "first_audio",
    ]
    .iter()
    .map(|s| stage(s).1)
    .sum();
    let total = stage("total").1;
    assert!(
        (parts - total).abs() < 0.005,
        "the stages add up to the wait: {parts} against {total}"
    );

    // The admin panel's day: this turn, in the last hour, and the stage that took longest.
    let day = app.get("/api/admin/latency", As::AdminKey).await.body;
    assert_eq!(day["turns"], 1);
    assert_eq!(day["hours"].as_array().unwrap().len(), 24);
    assert_eq!(day["hours"][23]["turns"], 1);
    assert_eq!(day["slowest_stage"], "end_of_turn");
    let median = day["stages"]["total"]["median_ms"].as_f64().unwrap();
    assert!((median - total * 1000.0).abs() <= 1.0, "{median} ms against {total} s");
    let status = app.get("/api/admin/status", As::AdminKey).await;
    assert_eq!(status.body["slowest_stage"], "end_of_turn");
    let user = app.get("/api/admin/latency", As::Bearer(&token)).await;
    assert_eq!(user.status, 403, "only for the admin");
}

#[tokio::test]
async fn a_notice_is_told_once_a_connection_and_again_when_what_it_says_changes() {
    let llm = Fake::start().await;
    llm.always(CHAT, tokens(&["Kudos for you."]));
    // Llama 3.2, as its preset knows it, speaks neither Dutch nor Polish.
    let (app, token, _) = gateway(&llm)
        .env(&[("LOCAL_LLM_MODEL", "llama3.2:3b")])
        .user("anna")
        .await;
    let notices = |frames: Vec<Frame>| -> Vec<String> {
        frames
            .iter()
            .filter(|f| f.kind() == "notice")
            .map(|f| f.json()["text"].as_str().unwrap().to_string())
            .collect()
    };
    let ask = |language: &str| json!({"text": "Wat is een tulp?", "language": language, "text_only": true});
    let mut ws = connect(&app, "/ws/chat", &token).await;
    ws.send(ask("nl")).await;
    let first = notices(ws.turn().await);
    assert_eq!(first.len(), 1, "{first:?}");
    assert!(first[0].starts_with("Het taalmodel Llama 3.2"), "{first:?}");
    ws.send(ask("nl")).await;
    assert_eq!(notices(ws.turn().await), Vec::<String>::new(), "told once");
    // In Polish the notice says something else: told.
    ws.send(ask("pl")).await;
    let polish = notices(ws.turn().await);
    assert_eq!(polish.len(), 1, "{polish:?}");
    assert_ne!(polish[0], first[0]);
    // Another connection (the page opened again) is told again.
    let mut again = connect(&app, "/ws/chat", &token).await;
    again.send(ask("nl")).await;
    assert_eq!(notices(again.turn().await), first);
}
