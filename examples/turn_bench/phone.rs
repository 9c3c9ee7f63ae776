//! `--line twilio`: each question is a phone call through the Twilio line, as Twilio makes it: the incoming
//! call's webhook (signed), then the media stream, with the question in µ-law at 8 kHz (the gateway's own
//! resampler and G.711 coder, as the telephone network would have it) in real time. The client measures from
//! the last voiced sample to the first answer audio after it; what was heard is read from the call's session
//! (the admin's conversations), so that the word error rate of 8 kHz µ-law compares with `/ws/voice`'s 16 kHz.
//! Callers are the phone's guest, in the question's language.

use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use voice_gateway::emergency::ack::twilio_signature;
use voice_gateway::providers::g711;
use voice_gateway::providers::resample::Resampler;

use super::{ADMIN_KEY, Measure, cpu_seconds, stage_means, stage_sums};

/// The auth token the benchmark's gateway and its "Twilio" share.
pub const AUTH_TOKEN: &str = "turn-bench-twilio-token";

/// The settings of the Twilio line (the gateway's own address is its public one here).
pub fn settings(port: u16) -> Vec<(String, String)> {
    [
        ("TWILIO_AUTH_TOKEN", AUTH_TOKEN.to_string()),
        ("PUBLIC_URL", format!("http://127.0.0.1:{port}")),
        ("PHONE_UNKNOWN_CALLERS", "guest".into()),
        ("PHONE_GUEST_DAILY_REQUESTS", "0".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

fn admin(request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
    request.header("X-Admin-Key", ADMIN_KEY)
}

/// Twilio's incoming-call webhook, signed as Twilio signs it (the gateway's own signer: this measures, it
/// does not test): the TwiML's stream
/// address and parameters.
async fn ring(port: u16, call_sid: &str) -> (String, serde_json::Map<String, Value>) {
    let url = format!("http://127.0.0.1:{port}/api/phone/twilio");
    let fields = [("CallSid", call_sid), ("From", "+15005550006"), ("To", "+4940999999")];
    let owned: Vec<(String, String)> = fields.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let twiml = reqwest::Client::new()
        .post(&url)
        .header("X-Twilio-Signature", twilio_signature(AUTH_TOKEN, &url, &owned))
        .form(&fields)
        .send()
        .await
        .and_then(|r| r.error_for_status())
        .expect("the webhook")
        .text()
        .await
        .unwrap();
    let attribute = |s: &str, name: &str| -> String {
        let value = s.split(&format!("{name}=\"")).nth(1).and_then(|v| v.split('"').next());
        value.expect("TwiML attribute").replace("&amp;", "&")
    };
    let stream = twiml.split("<Stream ").nth(1).expect("a <Stream> in the TwiML");
    let params = stream
        .split("<Parameter ")
        .skip(1)
        .map(|p| (attribute(p, "name"), json!(attribute(p, "value"))))
        .collect();
    (attribute(stream, "url"), params)
}

/// The phone's guest user's id.
pub async fn guest(port: u16) -> String {
    guest_if_any(port).await.expect("the phone's guest")
}

/// The phone's guest user's id, once an unknown caller made it.
pub async fn guest_if_any(port: u16) -> Option<String> {
    let users: Value = admin(reqwest::Client::new().get(format!("http://127.0.0.1:{port}/api/admin/users")))
        .send()
        .await
        .expect("the users")
        .json()
        .await
        .unwrap();
    let guest = users.as_array().unwrap().iter().find(|u| u["name"] == "phone-guest")?;
    Some(guest["id"].as_str()?.to_string())
}

/// The texts of the newest call's session: (the caller's, the assistant's).
pub async fn call_texts(port: u16, user: &str) -> (Vec<String>, Vec<String>) {
    let http = reqwest::Client::new();
    let base = format!("http://127.0.0.1:{port}/api/admin/conversations/{user}");
    let sessions: Value = admin(http.get(&base)).send().await.unwrap().json().await.unwrap();
    let Some(newest) = sessions["sessions"]
        .as_array()
        .and_then(|s| s.iter().max_by_key(|s| s["created_at"].as_i64()))
    else {
        return Default::default();
    };
    let url = format!("{base}/{}", newest["id"].as_str().unwrap());
    let session: Value = admin(http.get(url)).send().await.unwrap().json().await.unwrap();
    let (mut caller, mut assistant) = (Vec::new(), Vec::new());
    for m in session["messages"].as_array().into_iter().flatten() {
        let text = m["text"].as_str().unwrap_or_default().to_string();
        if m["role"] == "user" {
            caller.push(text)
        } else {
            assistant.push(text)
        }
    }
    (caller, assistant)
}

/// Whether the guest's newest call has an answer to each of its questions stored (what the caller said is
/// shown once its continuation window passed).
pub async fn answered(port: u16) -> bool {
    let Some(user) = guest_if_any(port).await else {
        return false;
    };
    let (caller, assistant) = call_texts(port, &user).await;
    !caller.is_empty() && assistant.len() >= caller.len()
}

/// What every line's call measures from its start: the gateway's stage sums and CPU time, and when.
pub struct Metered {
    sums: std::collections::BTreeMap<String, (f64, f64)>,
    cpu: f64,
    began: Instant,
}

impl Metered {
    pub async fn start(port: u16, pid: u32) -> Self {
        Self {
            sums: stage_sums(port).await,
            cpu: cpu_seconds(pid),
            began: Instant::now(),
        }
    }

    /// The ended call's measure: the first answer audio after the last speech sample, what the guest's
    /// newest call stored, the stages and the CPU since the start.
    pub async fn measure(self, port: u16, pid: u32, last: Option<Instant>, first_audio: Option<Instant>) -> Measure {
        let cores = (cpu_seconds(pid) - self.cpu) / self.began.elapsed().as_secs_f64();
        let stages = stage_means(port, &self.sums).await;
        let user = guest_if_any(port).await.unwrap_or_default();
        let (caller, _) = call_texts(port, &user).await;
        let since = |at: Option<Instant>| Some(at?.saturating_duration_since(last?).as_secs_f64() * 1000.0);
        Measure {
            transcript_ms: None,
            token_ms: None,
            audio_ms: since(first_audio),
            transcripts: caller.len(),
            heard: caller.join(" "),
            stages,
            cores,
        }
    }
}

/// Sets the guest's language to the question's.
pub async fn set_language(port: u16, user: &str, lang: &str) {
    admin(reqwest::Client::new().put(format!("http://127.0.0.1:{port}/api/admin/users/{user}/prefs")))
        .json(&json!({"language": lang}))
        .send()
        .await
        .and_then(|r| r.error_for_status())
        .expect("the guest's language");
}

/// Calls, asks `pcm` (16 kHz) in `lang`, and measures.
pub async fn ask(port: u16, pid: u32, lang: &str, pcm: &[i16], call: usize) -> Measure {
    let call_sid = format!("CA{call:032}");
    let (url, params) = ring(port, &call_sid).await;
    let user = guest(port).await;
    set_language(port, &user, lang).await;
    let metered = Metered::start(port, pid).await;
    let (ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("the stream's handshake");
    let (mut sink, mut source) = ws.split();
    let start = json!({"event": "start", "sequenceNumber": "1", "streamSid": "MZ1", "start": {
        "streamSid": "MZ1", "callSid": call_sid, "accountSid": "AC1", "tracks": ["inbound"],
        "mediaFormat": {"encoding": "audio/x-mulaw", "sampleRate": 8000, "channels": 1},
        "customParameters": params}});
    for message in [
        json!({"event": "connected", "protocol": "Call", "version": "1.0.0"}),
        start,
    ] {
        sink.send(Message::Text(message.to_string().into())).await.unwrap();
    }
    // The question as the telephone carries it, then silence; marks go back as soon as they come.
    let mut narrow = Resampler::new(16_000, 8_000);
    let mut ulaw: Vec<u8> = narrow
        .push(pcm)
        .into_iter()
        .chain(narrow.finish())
        .map(g711::ulaw_from)
        .collect();
    let speech_frames = ulaw.len().div_ceil(160);
    ulaw.resize(speech_frames * 160 + 8_000 * 8, 0xff);
    let (echo, mut echoes) = mpsc::unbounded_channel::<String>();
    let (last_tx, mut last_rx) = tokio::sync::oneshot::channel::<Instant>();
    let sender = tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_millis(20));
        let mut last_tx = Some(last_tx);
        let mut frames = ulaw.chunks(160).enumerate();
        let mut sequence = 1;
        loop {
            let message = tokio::select! {
                _ = tick.tick() => {
                    let Some((i, frame)) = frames.next() else { return };
                    if i + 1 == speech_frames && let Some(t) = last_tx.take() {
                        let _ = t.send(Instant::now());
                    }
                    sequence += 1;
                    json!({"event": "media", "sequenceNumber": sequence.to_string(), "streamSid": "MZ1",
                        "media": {"track": "inbound", "payload": STANDARD.encode(frame)}})
                }
                Some(name) = echoes.recv() => {
                    sequence += 1;
                    json!({"event": "mark", "sequenceNumber": sequence.to_string(), "streamSid": "MZ1",
                        "mark": {"name": name}})
                }
            };
            if sink.send(Message::Text(message.to_string().into())).await.is_err() {
                return;
            }
        }
    });
    let mut last: Option<Instant> = None;
    let mut first_audio: Option<Instant> = None;
    let deadline = Instant::now() + Duration::from_secs(pcm.len() as u64 / 16_000 + 30);
    let mut answered = false;
    while Instant::now() < deadline && !answered {
        if last.is_none() {
            last = last_rx.try_recv().ok();
        }
        let Ok(Some(Ok(Message::Text(text)))) = tokio::time::timeout(Duration::from_millis(100), source.next()).await
        else {
            if first_audio.is_some() && last.is_some_and(|l| l.elapsed() > Duration::from_millis(1500)) {
                // The answer is sent: it is stored once its turn ends (a question cut at its pause is two).
                answered = self::answered(port).await;
            }
            continue;
        };
        let event: Value = serde_json::from_str(&text).unwrap_or_default();
        match event["event"].as_str() {
            Some("media") if first_audio.is_none() && last.is_some() => first_audio = Some(Instant::now()),
            Some("mark") => {
                let _ = echo.send(event["mark"]["name"].as_str().unwrap_or_default().to_string());
            }
            _ => {}
        }
    }
    sender.abort();
    metered.measure(port, pid, last, first_audio).await
}
