//! A fake of Twilio's side of a phone call, written from Twilio's documentation (Voice webhooks and their
//! signature, TwiML `<Connect><Stream>`, Media Streams' WebSocket messages): it posts the incoming-call webhook
//! signed with the account's auth token, reads the TwiML, opens the bidirectional stream it names, and then does
//! what Twilio does for the length of the call: sends `connected` and `start`, the caller's audio as base64
//! µ-law in 20 ms `media` messages in real time (silence when the caller says nothing), and plays what the
//! gateway sends at the same pace, echoing each `mark` once the audio before it was played. A `clear` empties
//! what is buffered, and the marks in it are sent back at once, as Twilio does.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use futures_util::{SinkExt, StreamExt};
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};
use tokio_tungstenite::tungstenite::Message;

use crate::common::TestApp;

/// The auth token of the account the tests' gateway is set up with.
pub(crate) const AUTH_TOKEN: &str = "twilio-secret";
/// The address the gateway is reached at from the internet (`PUBLIC_URL`); the fake resolves it to the test's
/// gateway, as DNS and a TLS proxy would.
pub(crate) const PUBLIC_URL: &str = "https://voice.example.org";
/// The number the people call.
pub(crate) const TWILIO_NUMBER: &str = "+4940999999";
/// µ-law's silence.
const QUIET: u8 = 0xff;
/// 20 ms at 8 kHz.
const FRAME: usize = 160;

/// The settings of a gateway Twilio calls.
pub(crate) fn phone_env() -> Vec<(&'static str, &'static str)> {
    vec![("TWILIO_AUTH_TOKEN", AUTH_TOKEN), ("PUBLIC_URL", PUBLIC_URL)]
}

/// Twilio's request signature: the URL, then each parameter's name and value sorted by name, HMAC-SHA1 with the
/// auth token, in base64 (Twilio's "Webhooks security" page).
pub(crate) fn signature(token: &str, url: &str, params: &[(&str, &str)]) -> String {
    let mut sorted = params.to_vec();
    sorted.sort();
    let mut mac = Hmac::<sha1::Sha1>::new_from_slice(token.as_bytes()).unwrap();
    mac.update(url.as_bytes());
    for (name, value) in sorted {
        mac.update(name.as_bytes());
        mac.update(value.as_bytes());
    }
    STANDARD.encode(mac.finalize().into_bytes())
}

/// The fields of an incoming call to the Twilio number, as Twilio posts them.
pub(crate) fn call_fields<'a>(call_sid: &'a str, from: &'a str) -> Vec<(&'static str, &'a str)> {
    vec![
        ("AccountSid", "AC123"),
        ("ApiVersion", "2010-04-01"),
        ("CallSid", call_sid),
        ("CallStatus", "ringing"),
        ("Called", TWILIO_NUMBER),
        ("Caller", from),
        ("Direction", "inbound"),
        ("From", from),
        ("To", TWILIO_NUMBER),
    ]
}

/// Posts the incoming-call webhook with these fields and signature: its status, content type and body.
pub(crate) async fn post_webhook(
    app: &TestApp,
    fields: &[(&str, &str)],
    signature: Option<&str>,
) -> (u16, String, String) {
    let mut request = app
        .client
        .post(app.url("/api/phone/twilio"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(serde_urlencoded::to_string(fields).unwrap());
    if let Some(signature) = signature {
        request = request.header("X-Twilio-Signature", signature);
    }
    let response = request.send().await.expect("the webhook answers");
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, content_type, response.text().await.unwrap())
}

/// A call from `from`, signed as Twilio signs it: the webhook's TwiML.
pub(crate) async fn ring(app: &TestApp, call_sid: &str, from: &str) -> String {
    let fields = call_fields(call_sid, from);
    let url = format!("{PUBLIC_URL}/api/phone/twilio");
    let signed = signature(AUTH_TOKEN, &url, &fields);
    let (status, content_type, twiml) = post_webhook(app, &fields, Some(&signed)).await;
    assert_eq!(status, 200, "{twiml}");
    assert!(content_type.starts_with("text/xml"), "{content_type}");
    twiml
}

/// The `<Stream>` of TwiML: its URL and its parameters, unescaped as an XML parser does.
pub(crate) fn stream_of(twiml: &str) -> Option<(String, Vec<(String, String)>)> {
    let stream = twiml.split("<Connect><Stream ").nth(1)?;
    let url = attribute(stream, "url")?;
    let params = stream
        .split("<Parameter ")
        .skip(1)
        .map(|p| (attribute(p, "name").unwrap(), attribute(p, "value").unwrap()))
        .collect();
    Some((url, params))
}

fn attribute(element: &str, name: &str) -> Option<String> {
    let value = element.split(&format!("{name}=\"")).nth(1)?.split('"').next()?;
    Some(
        value
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&apos;", "'")
            .replace("&amp;", "&"),
    )
}

/// What happened on the call, in order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Seen {
    /// The gateway sent audio (µ-law bytes).
    Media(Vec<u8>),
    /// The gateway sent a mark.
    Mark(String),
    /// The gateway cleared the buffered audio.
    Clear,
    /// Twilio sent a mark back: the audio before it was played (or cleared).
    Played(String),
    /// The gateway closed the stream: the call ends.
    Closed,
}

enum Command {
    /// The caller says this (µ-law); answered once it was sent.
    Say(Vec<u8>, oneshot::Sender<()>),
    /// A message as it is, out of the call's order.
    Raw(String),
    /// The caller hangs up: `stop`, then the stream closes.
    HangUp,
    /// The line breaks: the stream closes without `stop`.
    Drop,
}

/// One call's media stream, running.
pub(crate) struct TwilioCall {
    commands: mpsc::UnboundedSender<Command>,
    seen: Arc<Mutex<Vec<Seen>>>,
    pub stream_sid: String,
    _task: tokio::task::JoinHandle<()>,
}

impl TwilioCall {
    /// Connects the stream the TwiML names and starts it with its parameters, as Twilio does.
    pub(crate) async fn connect(app: &TestApp, twiml: &str, call_sid: &str) -> Self {
        let (url, params) = stream_of(twiml).unwrap_or_else(|| panic!("no <Connect><Stream> in {twiml}"));
        let parameters: serde_json::Map<String, Value> = params.into_iter().map(|(k, v)| (k, json!(v))).collect();
        Self::open(app, &url, call_sid, json!(parameters), "audio/x-mulaw").await
    }

    /// Opens the stream at `url` and starts it with these parameters and encoding.
    pub(crate) async fn open(app: &TestApp, url: &str, call_sid: &str, parameters: Value, encoding: &str) -> Self {
        let public = PUBLIC_URL.replace("https://", "wss://");
        let path = url
            .strip_prefix(&public)
            .unwrap_or_else(|| panic!("the stream is at {url}, not on {public}"));
        let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{}{path}", app.addr))
            .await
            .expect("the stream's handshake");
        let stream_sid = format!("MZ{}", &call_sid[2..]);
        let connected = json!({"event": "connected", "protocol": "Call", "version": "1.0.0"});
        let start = json!({
            "event": "start",
            "sequenceNumber": "1",
            "start": {
                "accountSid": "AC123",
                "streamSid": stream_sid,
                "callSid": call_sid,
                "tracks": ["inbound"],
                "mediaFormat": {"encoding": encoding, "sampleRate": 8000, "channels": 1},
                "customParameters": parameters,
            },
            "streamSid": stream_sid,
        });
        for message in [connected, start] {
            ws.send(Message::Text(message.to_string().into())).await.unwrap();
        }
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (commands, rx) = mpsc::unbounded_channel();
        let task = tokio::spawn(run(ws, rx, seen.clone(), stream_sid.clone(), call_sid.to_string()));
        Self {
            commands,
            seen,
            stream_sid,
            _task: task,
        }
    }

    /// The caller says `ulaw` in real time; returns once the last frame was sent.
    pub(crate) async fn say(&self, ulaw: &[u8]) {
        let (done, sent) = oneshot::channel();
        let _ = self.commands.send(Command::Say(ulaw.to_vec(), done));
        let _ = sent.await;
    }

    /// Sends `message` as it is.
    pub(crate) fn send_raw(&self, message: Value) {
        let _ = self.commands.send(Command::Raw(message.to_string()));
    }

    /// The caller presses `key`: Twilio's `dtmf` message of a bidirectional stream.
    pub(crate) fn press(&self, key: char) {
        self.send_raw(json!({
            "event": "dtmf",
            "streamSid": self.stream_sid,
            "sequenceNumber": "0",
            "dtmf": {"track": "inbound_track", "digit": key.to_string()},
        }));
    }

    pub(crate) fn hang_up(&self) {
        let _ = self.commands.send(Command::HangUp);
    }

    pub(crate) fn drop_line(&self) {
        let _ = self.commands.send(Command::Drop);
    }

    pub(crate) fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    /// Waits up to `seconds` until what was seen satisfies `check`.
    pub(crate) async fn until(&self, what: &str, seconds: u64, check: impl Fn(&[Seen]) -> bool) -> Vec<Seen> {
        crate::common::eventually(what, seconds, || async {
            let seen = self.seen();
            check(&seen).then_some(seen)
        })
        .await
    }

    /// The marks played so far.
    pub(crate) fn played(&self) -> Vec<String> {
        self.seen()
            .into_iter()
            .filter_map(|s| match s {
                Seen::Played(mark) => Some(mark),
                _ => None,
            })
            .collect()
    }
}

/// Bytes of audio the gateway sent, per mark: each mark's audio, in order.
pub(crate) fn pieces(seen: &[Seen]) -> Vec<Vec<u8>> {
    let mut pieces = Vec::new();
    let mut current = Vec::new();
    for s in seen {
        match s {
            Seen::Media(bytes) => current.extend_from_slice(bytes),
            Seen::Mark(_) => pieces.push(std::mem::take(&mut current)),
            _ => {}
        }
    }
    pieces
}

/// What Twilio holds to play: audio, and marks between it.
enum Buffered {
    Audio,
    Mark(String),
}

async fn run(
    ws: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    mut commands: mpsc::UnboundedReceiver<Command>,
    seen: Arc<Mutex<Vec<Seen>>>,
    stream_sid: String,
    call_sid: String,
) {
    let (mut sink, mut source) = ws.split();
    let mut speech: VecDeque<u8> = VecDeque::new();
    let mut said: Option<oneshot::Sender<()>> = None;
    let mut buffer: VecDeque<Buffered> = VecDeque::new();
    let mut sequence = 1u64;
    let mut chunk = 0u64;
    let mut tick = tokio::time::interval(Duration::from_millis(20));
    let note = |s: Seen| seen.lock().unwrap().push(s);
    loop {
        let mut out: Vec<Value> = Vec::new();
        tokio::select! {
            _ = tick.tick() => {
                // The caller's next 20 ms.
                let frame: Vec<u8> = (0..FRAME).map(|_| speech.pop_front().unwrap_or(QUIET)).collect();
                if speech.is_empty() && let Some(done) = said.take() {
                    let _ = done.send(());
                }
                sequence += 1;
                chunk += 1;
                out.push(json!({
                    "event": "media",
                    "sequenceNumber": sequence.to_string(),
                    "media": {"track": "inbound", "chunk": chunk.to_string(), "timestamp": (chunk * 20).to_string(),
                              "payload": STANDARD.encode(&frame)},
                    "streamSid": stream_sid,
                }));
                // 20 ms of what the gateway sent are played; the marks they reach go back.
                let mut played = 0;
                while let Some(front) = buffer.front() {
                    match front {
                        Buffered::Audio if played == FRAME => break,
                        Buffered::Audio => played += 1,
                        Buffered::Mark(name) => {
                            sequence += 1;
                            out.push(mark_back(&stream_sid, name, sequence));
                            note(Seen::Played(name.clone()));
                        }
                    }
                    buffer.pop_front();
                }
            }
            command = commands.recv() => match command {
                Some(Command::Say(ulaw, done)) => {
                    speech.extend(ulaw);
                    said = Some(done);
                }
                Some(Command::Raw(text)) => {
                    let _ = sink.send(Message::Text(text.into())).await;
                }
                Some(Command::HangUp) | None => {
                    sequence += 1;
                    let stop = json!({"event": "stop", "sequenceNumber": sequence.to_string(), "streamSid": stream_sid,
                                      "stop": {"accountSid": "AC123", "callSid": call_sid}});
                    let _ = sink.send(Message::Text(stop.to_string().into())).await;
                    let _ = sink.close().await;
                    return;
                }
                Some(Command::Drop) => return,
            },
            message = source.next() => match message {
                Some(Ok(Message::Text(text))) => {
                    let message: Value = serde_json::from_str(&text).expect("the gateway sends JSON");
                    assert_eq!(message["streamSid"], stream_sid, "every message names the stream: {message}");
                    match message["event"].as_str() {
                        Some("media") => {
                            let bytes = STANDARD.decode(message["media"]["payload"].as_str().unwrap()).unwrap();
                            buffer.extend(bytes.iter().map(|_| Buffered::Audio));
                            note(Seen::Media(bytes));
                        }
                        Some("mark") => {
                            let name = message["mark"]["name"].as_str().unwrap().to_string();
                            buffer.push_back(Buffered::Mark(name.clone()));
                            note(Seen::Mark(name));
                        }
                        Some("clear") => {
                            note(Seen::Clear);
                            for buffered in std::mem::take(&mut buffer) {
                                if let Buffered::Mark(name) = buffered {
                                    sequence += 1;
                                    out.push(mark_back(&stream_sid, &name, sequence));
                                    note(Seen::Played(name));
                                }
                            }
                        }
                        other => panic!("Twilio takes no {other:?} message: {message}"),
                    }
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => {
                    note(Seen::Closed);
                    if let Some(done) = said.take() {
                        let _ = done.send(());
                    }
                    return;
                }
                Some(Ok(_)) => {}
            },
        }
        for message in out {
            if sink.send(Message::Text(message.to_string().into())).await.is_err() {
                note(Seen::Closed);
                return;
            }
        }
    }
}

fn mark_back(stream_sid: &str, name: &str, sequence: u64) -> Value {
    json!({"event": "mark", "sequenceNumber": sequence.to_string(), "streamSid": stream_sid, "mark": {"name": name}})
}

/// The spoken question ("How is the weather today?", 1.5 s) as the telephone network carries it: µ-law, 8 kHz
/// (made by ffmpeg; `tests/fixtures/formats/README.md`).
pub(crate) fn question_ulaw() -> Vec<u8> {
    include_bytes!("../fixtures/formats/sentence-8k.ulaw").to_vec()
}

/// A WAV of a tone, `seconds` long at 24 kHz, as a speech server answers: what the caller hears is measurable.
pub(crate) fn tone_wav(seconds: f64) -> Vec<u8> {
    let samples: Vec<i16> = (0..(24_000.0 * seconds) as usize)
        .map(|i| ((i as f64 / 24_000.0 * 440.0 * std::f64::consts::TAU).sin() * 8_000.0) as i16)
        .collect();
    crate::fakes::wav_of(&samples)
}

#[test]
fn the_fake_signs_as_twilios_documentation_shows() {
    // The example of Twilio's signature-validation snippets (api-snippets, security/signature_validation).
    let params = [
        ("CallSid", "CA1234567890ABCDE"),
        ("Caller", "+14158675310"),
        ("Digits", "1234"),
        ("From", "+14158675310"),
        ("To", "+18005551212"),
    ];
    assert_eq!(
        signature("12345", "https://mycompany.com/myapp.php?foo=1&bar=2", &params),
        "GvWf1cFY/Q7PnoempGyD5oXAezc="
    );
}
