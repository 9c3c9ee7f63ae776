//! Calls through Twilio: the number's incoming-call webhook (`POST /api/phone/twilio`, signed with the
//! account's auth token over `PUBLIC_URL`'s address of it) answers TwiML that connects the call to a
//! bidirectional Media Stream on the gateway (`/api/phone/twilio/stream`), and the stream speaks Twilio's
//! messages: `connected`, `start`, `media` (base64 µ-law, 8 kHz, 20 ms), `mark` and `stop` from Twilio;
//! `media`, `mark` and `clear` to it. Closing the stream ends the call (the TwiML has nothing after it).
//!
//! The stream's WebSocket itself carries no credentials: the webhook passes the call's user, the caller's
//! number and when it answered as the stream's custom parameters, with an HMAC of them and the call's id under
//! the auth token. A `start` without a valid one (an unknown call, or one answered over two minutes ago) ends
//! the stream, and so does a proof used once already (the store keeps used ones for their two minutes, so any
//! instance may take the webhook or the stream, and a copied proof opens nothing).

// Numbers from the wire are read here: no arithmetic may overflow or panic, whatever they are.
#![deny(clippy::arithmetic_side_effects)]

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{OriginalUri, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};

use sha2::Sha256;
use tokio::sync::mpsc;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::call::{Inbound, Line, RATE};
use super::callers::{self, Caller};
use crate::app::{App, AppState};
use crate::auth::access::PUBLIC;
use crate::auth::token::secrets_equal;
use crate::emergency::ack::TwilioPost;
use crate::emergency::dossier::xml_escape;
use crate::error::{ApiError, Result};
use crate::logging::Repeated;
use crate::phrasebook::phrase;
use crate::providers::g711;
use crate::socket::SEND_TIMEOUT;
use crate::task::AbortOnDrop;

/// The webhook's path, as Twilio signs it after `PUBLIC_URL`.
const WEBHOOK: &str = "/api/phone/twilio";
/// The stream's path.
const STREAM: &str = "/api/phone/twilio/stream";
/// How long after the webhook the stream may start.
const START_WITHIN: Duration = Duration::from_secs(120);
/// How long the stream may take to send `start`.
const START_TIMEOUT: Duration = Duration::from_secs(10);
/// Samples in one `media` message to Twilio (20 ms, as Twilio sends them).
const FRAME: usize = 160;
/// A Twilio message is a few hundred bytes; anything far larger is not one.
const MAX_MESSAGE: usize = 64 * 1024;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(incoming)).routes(routes!(stream))
}

/// The auth token and `PUBLIC_URL`, or a 404 naming them.
fn configured(app: &App) -> Result<(&str, &str)> {
    let token = app.settings.emergency.twilio_auth_token.as_ref();
    match (token, app.settings.emergency.public_url.as_deref()) {
        (Some(token), Some(public)) => Ok((secrecy::ExposeSecret::expose_secret(token), public)),
        _ => Err(ApiError::NotFound(
            "the phone line (set TWILIO_AUTH_TOKEN and PUBLIC_URL)",
        )),
    }
}

/// Twilio's incoming-call webhook (form fields, `X-Twilio-Signature` required): answers TwiML that connects the
/// call to the gateway's media stream, or says that the number is not known and hangs up.
#[utoipa::path(post, path = "/api/phone/twilio", tag = PUBLIC,
    request_body(content_type = "application/x-www-form-urlencoded", content = Object),
    responses((status = 200, description = "TwiML", content_type = "text/xml"),
        (status = 403, description = "no valid X-Twilio-Signature"),
        (status = 404, description = "TWILIO_AUTH_TOKEN or PUBLIC_URL is not set")))]
async fn incoming(
    State(app): State<AppState>,
    OriginalUri(uri): OriginalUri,
    headers: HeaderMap,
    body: std::result::Result<Bytes, BytesRejection>,
) -> Result<impl IntoResponse> {
    let (auth_token, public) = configured(&app)?;
    let post = TwilioPost::read(&headers, &body?)?;
    let url = match uri.query() {
        Some(query) => format!("{public}{WEBHOOK}?{query}"),
        None => format!("{public}{WEBHOOK}"),
    };
    post.signed(auth_token, &url, "an incoming call")?;
    let field = |name: &str| post.form.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    let call_sid = field("CallSid")
        .filter(|sid| !sid.is_empty())
        .ok_or_else(|| ApiError::invalid("CallSid", "missing"))?;
    let caller = callers::by_number(&app, field("From")).await?;
    tracing::info!(caller = caller.kind(), "an incoming Twilio call");
    // A call beyond the voice connections' limits is rejected as busy: never answered. (Its stream takes its
    // own place; this one is only the question whether there is one.)
    if let Caller::Known(user) | Caller::Guest(user) = &caller
        && let Err(refused) = super::seat(&app, user, "twilio")
    {
        app.lines.call_outcome(&app.metrics, "twilio", refused);
        let document = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Response><Reject reason=\"busy\"/></Response>";
        return Ok((
            [(header::CONTENT_TYPE, "text/xml; charset=utf-8")],
            document.to_string(),
        ));
    }
    let twiml = match &caller {
        Caller::Refused => {
            app.lines
                .call_outcome(&app.metrics, "twilio", crate::lines::Outcome::Refused("unknown_caller"));
            let language = &app.settings.turn.default_language;
            format!(
                "<Response><Say language=\"{}\">{}</Say><Hangup/></Response>",
                phrase(language, "language-twilio-voice"),
                xml_escape(&phrase(language, "phone-refusal"))
            )
        }
        Caller::Known(user) | Caller::Guest(user) => {
            let number = field("From").and_then(crate::prefs::e164).unwrap_or_default();
            let issued = crate::store::now_ms().to_string();
            let proof = stream_token(auth_token, call_sid, &user.id, &number, &issued);
            let stream_url = format!("{}{STREAM}", websocket_base(public));
            let parameter =
                |name: &str, value: &str| format!("<Parameter name=\"{name}\" value=\"{}\"/>", xml_escape(value));
            format!(
                "<Response><Connect><Stream url=\"{}\">{}{}{}{}{}</Stream></Connect></Response>",
                xml_escape(&stream_url),
                parameter("call", call_sid),
                parameter("user", &user.id),
                parameter("caller", &number),
                parameter("issued", &issued),
                parameter("token", &proof),
            )
        }
    };
    let document = format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>{twiml}");
    Ok(([(header::CONTENT_TYPE, "text/xml; charset=utf-8")], document))
}

/// `https://host/path` → `wss://host/path`.
fn websocket_base(public: &str) -> String {
    match public.split_once("://") {
        Some(("https", rest)) => format!("wss://{rest}"),
        Some((_, rest)) => format!("ws://{rest}"),
        None => public.to_string(),
    }
}

/// The proof that the webhook answered this call for this user.
fn stream_token(auth_token: &str, call_sid: &str, user_id: &str, caller: &str, issued: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(auth_token.as_bytes()).expect("HMAC takes keys of any length");
    for part in ["voice-gateway phone stream", call_sid, user_id, caller, issued] {
        mac.update(part.as_bytes());
        mac.update(b"\n");
    }
    URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
}

/// The media stream of a call the webhook connected.
#[utoipa::path(get, path = "/api/phone/twilio/stream", tag = PUBLIC,
    responses((status = 101, description = "Twilio's Media Streams protocol"),
        (status = 400, description = "not a WebSocket handshake"),
        (status = 404, description = "TWILIO_AUTH_TOKEN or PUBLIC_URL is not set")))]
async fn stream(
    State(app): State<AppState>,
    upgrade: std::result::Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response> {
    let auth_token = configured(&app)?.0.to_string();
    let app = app.0.clone();
    Ok(upgrade?
        .read_buffer_size(crate::socket::READ_BUFFER)
        .max_message_size(MAX_MESSAGE)
        .on_upgrade(move |socket| async move {
            // A failed call's stream closes as it unwinds: to Twilio, a hang-up.
            if let Err(reason) = crate::task::caught(serve(socket, app.clone(), auth_token)).await {
                app.lines.task_failed(&app.metrics, "twilio", &reason);
                app.lines
                    .call_outcome(&app.metrics, "twilio", crate::lines::Outcome::Failed);
            }
        }))
}

/// A message from Twilio.
#[derive(Debug, Deserialize)]
#[serde(tag = "event", rename_all = "lowercase")]
enum FromTwilio {
    Connected,
    Start {
        #[serde(rename = "sequenceNumber", default)]
        sequence: Option<String>,
        start: Start,
    },
    Media {
        #[serde(rename = "sequenceNumber", default)]
        sequence: Option<String>,
        media: Media,
    },
    Mark {
        mark: MarkName,
    },
    /// A key the caller pressed (a bidirectional stream's `dtmf` message).
    Dtmf {
        dtmf: Dtmf,
    },
    Stop,
}

/// A `dtmf` message's key.
#[derive(Debug, Deserialize)]
struct Dtmf {
    digit: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Start {
    stream_sid: String,
    call_sid: String,
    #[serde(default)]
    custom_parameters: std::collections::HashMap<String, String>,
    media_format: MediaFormat,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct MediaFormat {
    encoding: String,
    sample_rate: u32,
    channels: u32,
}

#[derive(Debug, Deserialize)]
struct Media {
    payload: String,
}

#[derive(Debug, Deserialize)]
struct MarkName {
    name: String,
}

/// A stream's call: whose it is, and Twilio's id of the stream.
struct Started {
    stream_sid: String,
    call_sid: String,
    user_id: String,
    /// The calling number, as the webhook passed it (signed with the rest).
    caller: String,
    sequence: u64,
}

/// Serves one media stream until the call ends.
async fn serve(socket: WebSocket, app: Arc<App>, auth_token: String) {
    let (sink, mut source) = socket.split();
    let started = match tokio::time::timeout(START_TIMEOUT, wait_for_start(&auth_token, &mut source)).await {
        Ok(Ok(started)) => started,
        Ok(Err(why)) => {
            static REFUSED: Repeated = Repeated::new();
            if let Some(left_out) = REFUSED.next() {
                tracing::warn!(why, left_out, "a Twilio media stream was refused");
            }
            return;
        }
        Err(_) => {
            static SILENT: Repeated = Repeated::new();
            if let Some(left_out) = SILENT.next() {
                tracing::warn!(left_out, "a Twilio media stream sent no start; closed");
            }
            return;
        }
    };
    match app
        .store
        .use_stream_proof(&started.call_sid, START_WITHIN.as_millis() as i64)
        .await
    {
        Ok(true) => {}
        Ok(false) => return tracing::warn!("a Twilio stream proof was used once already; the stream is closed"),
        Err(err) => return tracing::error!(%err, "a Twilio stream proof could not be checked"),
    }
    let user = match app.store.user_by_id(&started.user_id).await {
        Ok(Some(user)) => user,
        Ok(None) => return tracing::warn!("the user of a Twilio call is gone; the stream is closed"),
        Err(err) => return tracing::error!(%err, "the user of a Twilio call could not be read"),
    };
    let seat = match super::seat(&app, &user, "twilio") {
        Ok(seat) => seat,
        Err(refused) => return app.lines.call_outcome(&app.metrics, "twilio", refused),
    };
    let mut line = TwilioLine {
        sink,
        stream_sid: started.stream_sid.clone(),
    };
    let (tx, mut inbound) = mpsc::channel(64);
    let _reader = AbortOnDrop(tokio::spawn(read(source, tx, started.sequence)));
    let outcome = super::answer(
        app.clone(),
        (user, seat, started.caller.clone()),
        "twilio",
        &mut inbound,
        &mut line,
    )
    .await;
    line.hang_up().await;
    app.lines.call_outcome(&app.metrics, "twilio", outcome);
}

/// Reads messages until `start` and checks it: a media stream the webhook answered, in µ-law at 8 kHz.
async fn wait_for_start(
    auth_token: &str,
    source: &mut SplitStream<WebSocket>,
) -> std::result::Result<Started, &'static str> {
    while let Some(Ok(message)) = source.next().await {
        let Message::Text(text) = message else {
            continue;
        };
        match serde_json::from_str::<FromTwilio>(&text) {
            Ok(FromTwilio::Connected) => {}
            Ok(FromTwilio::Start { sequence, start }) => {
                let param = |name: &str| start.custom_parameters.get(name).map_or("", String::as_str);
                let (user_id, caller, issued) = (param("user"), param("caller"), param("issued"));
                let expected = stream_token(auth_token, &start.call_sid, user_id, caller, issued);
                if param("call") != start.call_sid || !secrets_equal(param("token"), &expected) {
                    return Err("its start names a call the webhook did not answer");
                }
                let age = crate::store::now_ms().saturating_sub(issued.parse::<i64>().unwrap_or(0));
                if !(0..START_WITHIN.as_millis() as i64).contains(&age) {
                    return Err("its call was answered too long ago");
                }
                let format = &start.media_format;
                if format.encoding != "audio/x-mulaw" || format.sample_rate != RATE || format.channels != 1 {
                    return Err("its audio is not µ-law at 8 kHz, mono");
                }
                return Ok(Started {
                    stream_sid: start.stream_sid,
                    call_sid: start.call_sid,
                    user_id: user_id.to_string(),
                    caller: caller.to_string(),
                    sequence: sequence.and_then(|s| s.parse().ok()).unwrap_or(0),
                });
            }
            Ok(FromTwilio::Stop) => return Err("it stopped before it started"),
            Ok(_) => return Err("it sent media before start"),
            Err(_) => return Err("it sent a message that is not Twilio's"),
        }
    }
    Err("it closed before start")
}

/// What one text message means to a stream whose audio has reached sequence number `sequence`.
#[derive(Debug, PartialEq, Eq)]
pub enum Received {
    /// The caller's audio (8 kHz, from µ-law), and the sequence number the stream has reached with it.
    Audio(Vec<i16>, u64),
    /// The audio up to this mark was played.
    Played(u64),
    /// The caller pressed a key.
    Key(char),
    /// The stream stopped.
    Stop,
    /// Nothing for the call (`connected`, a mark that is not the gateway's).
    Ignored,
    /// Media numbered at or before `sequence`.
    OutOfOrder,
    /// Not a message of a stream in progress, or media that is not base64 µ-law.
    Malformed,
}

/// Reads one text message of a stream in progress (see [`Received`]).
pub fn parse_message(text: &str, sequence: u64) -> Received {
    match serde_json::from_str::<FromTwilio>(text) {
        Ok(FromTwilio::Media { sequence: at, media }) => {
            let at = at.and_then(|s| s.parse::<u64>().ok());
            if at.is_some_and(|at| at <= sequence) {
                return Received::OutOfOrder;
            }
            match STANDARD.decode(media.payload.trim()) {
                // Only audio moves the order on: a broken message's number is not believed either.
                Ok(bytes) if !bytes.is_empty() => Received::Audio(
                    bytes.iter().map(|&b| g711::ulaw_to(b)).collect(),
                    // A stream that already said the largest number stays there rather than overflow.
                    at.unwrap_or(sequence.saturating_add(1)),
                ),
                _ => Received::Malformed,
            }
        }
        Ok(FromTwilio::Mark { mark }) => match mark.name.parse() {
            Ok(mark) => Received::Played(mark),
            Err(_) => Received::Ignored,
        },
        Ok(FromTwilio::Stop) => Received::Stop,
        Ok(FromTwilio::Dtmf { dtmf }) => match dtmf.digit.as_bytes() {
            [key] if key.is_ascii_digit() || matches!(key, b'*' | b'#') => Received::Key(char::from(*key)),
            _ => Received::Malformed,
        },
        Ok(FromTwilio::Connected) => Received::Ignored,
        Ok(FromTwilio::Start { .. }) | Err(_) => Received::Malformed,
    }
}

/// Turns Twilio's messages into the call's input until the stream stops; media out of order, or that is
/// not base64 µ-law, is dropped and counted in the log.
async fn read(mut source: SplitStream<WebSocket>, tx: mpsc::Sender<Inbound>, mut sequence: u64) {
    let (mut malformed, mut out_of_order) = (0u64, 0u64);
    let inbound = loop {
        let Some(Ok(message)) = source.next().await else {
            break Inbound::Hangup;
        };
        let text = match message {
            Message::Text(text) => text,
            Message::Close(_) => break Inbound::Hangup,
            _ => continue,
        };
        let inbound = match parse_message(&text, sequence) {
            Received::Audio(samples, at) => {
                sequence = at;
                Inbound::Audio(samples)
            }
            Received::Played(mark) => Inbound::Played(mark),
            Received::Key(key) => Inbound::Key(key),
            Received::Stop => break Inbound::Hangup,
            Received::Ignored => continue,
            Received::OutOfOrder => {
                out_of_order = out_of_order.saturating_add(1);
                continue;
            }
            Received::Malformed => {
                malformed = malformed.saturating_add(1);
                continue;
            }
        };
        if tx.send(inbound).await.is_err() {
            break Inbound::Hangup;
        }
    };
    if malformed > 0 || out_of_order > 0 {
        tracing::warn!(
            malformed,
            out_of_order,
            "a Twilio media stream sent messages that were dropped"
        );
    }
    let _ = tx.send(inbound).await;
}

/// The sending half of a Twilio media stream.
struct TwilioLine {
    sink: SplitSink<WebSocket, Message>,
    stream_sid: String,
}

impl TwilioLine {
    async fn send(sink: &mut SplitSink<WebSocket, Message>, message: Outgoing<'_>) -> std::io::Result<()> {
        let text = serde_json::to_string(&message).map_err(std::io::Error::other)?;
        let sent = tokio::time::timeout(SEND_TIMEOUT, sink.send(Message::Text(text.into()))).await;
        match sent {
            Ok(Ok(())) => Ok(()),
            Ok(Err(err)) => Err(std::io::Error::other(err)),
            Err(_) => Err(std::io::Error::other("Twilio did not take the audio in time")),
        }
    }
}

/// What the gateway sends on a Media Stream (Twilio's "Media Streams: WebSocket messages to Twilio").
#[derive(Debug, Serialize)]
#[serde(tag = "event", rename_all = "lowercase")]
enum Outgoing<'a> {
    /// µ-law audio at 8 kHz, base64.
    Media {
        #[serde(rename = "streamSid")]
        stream_sid: &'a str,
        media: Payload,
    },
    /// Twilio reports the name back once the audio before it was played.
    Mark {
        #[serde(rename = "streamSid")]
        stream_sid: &'a str,
        mark: Name,
    },
    /// Drops the audio not yet played.
    Clear {
        #[serde(rename = "streamSid")]
        stream_sid: &'a str,
    },
}

#[derive(Debug, Serialize)]
struct Payload {
    payload: String,
}

#[derive(Debug, Serialize)]
struct Name {
    name: String,
}

impl Line for TwilioLine {
    async fn play(&mut self, samples: &[i16], mark: u64) -> std::io::Result<()> {
        let stream_sid = &self.stream_sid;
        for frame in samples.chunks(FRAME) {
            let bytes: Vec<u8> = frame.iter().map(|&s| g711::ulaw_from(s)).collect();
            let media = Outgoing::Media {
                stream_sid,
                media: Payload {
                    payload: STANDARD.encode(bytes),
                },
            };
            Self::send(&mut self.sink, media).await?;
        }
        let mark = Outgoing::Mark {
            stream_sid,
            mark: Name { name: mark.to_string() },
        };
        Self::send(&mut self.sink, mark).await
    }

    async fn clear(&mut self) -> std::io::Result<()> {
        let clear = Outgoing::Clear {
            stream_sid: &self.stream_sid,
        };
        Self::send(&mut self.sink, clear).await
    }

    async fn hang_up(&mut self) {
        let _ = tokio::time::timeout(SEND_TIMEOUT, self.sink.close()).await;
    }
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_token_binds_the_call_the_user_and_the_time() {
        let token = stream_token("secret", "CA1", "u1", "+4930123456", "1000");
        assert_eq!(token, stream_token("secret", "CA1", "u1", "+4930123456", "1000"));
        for other in [
            stream_token("other", "CA1", "u1", "+4930123456", "1000"),
            stream_token("secret", "CA2", "u1", "+4930123456", "1000"),
            stream_token("secret", "CA1", "u2", "+4930123456", "1000"),
            stream_token("secret", "CA1", "u1", "+4930123457", "1000"),
            stream_token("secret", "CA1", "u1", "+4930123456", "1001"),
        ] {
            assert_ne!(token, other);
        }
        assert_eq!(websocket_base("https://home.example:8443"), "wss://home.example:8443");
        assert_eq!(websocket_base("http://192.168.1.5:8080"), "ws://192.168.1.5:8080");
    }
}
