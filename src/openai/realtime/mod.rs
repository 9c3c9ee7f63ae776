//! `GET /v1/realtime`: OpenAI's Realtime protocol over WebSocket, mapped onto the gateway's voice turn, so that
//! Realtime clients (the SDKs' `realtime.connect`, Pipecat's and LiveKit's OpenAI services) talk to the user's
//! own route, memories and quota.
//!
//! Audio is PCM16 at 24 kHz both ways, base64 in the events. The input is converted to 16 kHz as it arrives
//! (the rate the detectors and STT hear); each spoken sentence of the answer is converted to 24 kHz and sent as
//! `response.output_audio.delta` as soon as it exists. With `server_vad` (the default) the gateway's voice
//! detector ends a turn and answers by itself; with `turn_detection: null` the client commits and asks with
//! `response.create`. Speech during an answer (longer than `BARGE_IN_MIN_SPEECH_MS`), `response.cancel` or a
//! new response stops the answer. A connection keeps its conversation as one of the user's sessions.
//!
//! Which events and fields are taken and which are ignored is listed in the README.

mod answer;
pub mod client;
pub mod conversation;
pub mod events;
mod heard;
pub mod session;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::response::Response;
use base64::Engine;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use self::answer::Answer;
use self::client::ClientEvent;
use self::conversation::{ContentPart, Item, ItemStatus, Role};
use self::events::{ErrorType, ServerEvent, id};
use self::session::{Config, SessionObject};
use super::errors::V1Error;
use super::models::{DEFAULT_MODEL, layer_for};
use crate::app::{App, AppState};
use crate::auth::CurrentUser;
use crate::auth::access::OPENAI;
use crate::error::{ApiError, AppQuery};
use crate::listen::budget::{AudioBuffer, Seat};
use crate::listen::vad::{Vad, VadConfig, VadEvent};
use crate::openai::audio::voice_for;
use crate::providers::audio::Pcm;
use crate::providers::resample::Resampler;
use crate::store::users::User;
use crate::turn::{TurnOptions, speech};
use crate::ws::conn::{close, close_code, send};
use crate::ws::turn::Out;

/// The protocol's audio rate, both ways.
pub const RATE: u32 = 24_000;
/// The rate the detectors and STT hear.
const HEARING_RATE: u32 = 16_000;
/// Largest event accepted (an append of about 5 minutes of audio); OpenAI's limit is 15 MiB.
const MESSAGE_LIMIT: usize = 16 * 1024 * 1024;
/// Frames a response may have queued before it waits for this connection.
const QUEUE: usize = 32;

/// The route.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(realtime))
}

/// Handshake query.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct RealtimeQuery {
    /// A model of `/v1/models` (default: the user's route).
    model: Option<String>,
}

/// OpenAI's Realtime protocol: speech in, speech and text out, as the user. Authenticated by `Authorization:
/// Bearer <token>` or, from a browser, the subprotocol `openai-insecure-api-key.<token>`.
#[utoipa::path(get, path = "/v1/realtime", tag = OPENAI, params(RealtimeQuery), responses(
    (status = 101, description = "switching to the WebSocket protocol: OpenAI Realtime events \
        (components/schemas/RealtimeClientEvent, RealtimeServerEvent)"),
    (status = 400, description = "not a WebSocket handshake"), (status = 403, description = "a foreign Origin"),
    (status = 404, description = "no such model")))]
async fn realtime(
    State(app): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    AppQuery(query): AppQuery<RealtimeQuery>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, V1Error> {
    let upgrade = upgrade.map_err(ApiError::from)?;
    crate::ws::check_origin(&headers, &app.settings.voice.allowed_origins)?;
    let model = query.model.unwrap_or_else(|| DEFAULT_MODEL.to_string());
    let eff = app.runtime.effective().await.map_err(ApiError::from)?;
    let layer = layer_for(&app, &eff, &model)?;
    let turn = TurnOptions {
        provider: layer.llm_provider.map(|id| id.to_string()),
        model: layer.llm_model,
        ..TurnOptions::default()
    };
    // Clients of the beta protocol say so in a header, or from a browser in a subprotocol.
    let beta = headers
        .get_all("openai-beta")
        .iter()
        .chain(headers.get_all(axum::http::header::SEC_WEBSOCKET_PROTOCOL))
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.contains("realtime=v1") || v.contains("openai-beta.realtime-v1"));
    let app = app.0.clone();
    // A browser offers the subprotocols `realtime` and the key; the answer must name one it offered.
    Ok(upgrade
        .protocols(["realtime"])
        .max_message_size(MESSAGE_LIMIT)
        .max_frame_size(MESSAGE_LIMIT)
        .on_upgrade(move |socket| serve(socket, app, caller.user, Config::new(model), turn, beta)))
}

/// What the user said and the gateway has not answered yet.
enum Input {
    Audio { item: String, pcm: Pcm },
    Text(String),
}

struct Conn {
    app: Arc<App>,
    /// The client speaks the beta protocol (`OpenAI-Beta: realtime=v1`): beta event names and session shape.
    beta: bool,
    user: User,
    config: Config,
    /// Provider and model of the handshake's `model`.
    turn: TurnOptions,
    /// The session's voice for the user's engine, decided when the session changes (see [`voice_for`]).
    voice: Option<String>,
    /// The user's session this conversation is kept in.
    session_id: String,
    realtime_id: String,
    hearing: Resampler,
    /// The input at 16 kHz, within the voice budget.
    samples: AudioBuffer,
    /// Samples heard since the connection began, for `audio_start_ms`.
    heard_total: usize,
    vad: Option<Vad>,
    /// The item of the speech the detector is following.
    speech_item: Option<String>,
    pending: Option<Input>,
    last_item: Option<String>,
    answer: Option<Answer>,
    /// What was played of the last answers, for `conversation.item.truncate`.
    heard: heard::Heard,
    _seat: Seat,
}

/// What woke the loop.
enum Step {
    Incoming(Option<Result<Message, axum::Error>>),
    Frame(Option<Out>),
    Idle,
}

async fn serve(mut socket: WebSocket, app: Arc<App>, user: User, config: Config, turn: TurnOptions, beta: bool) {
    let seat = match app.voice_budget.seat(&user.id) {
        Ok(seat) => seat,
        Err(_) => {
            let event = ServerEvent::error(
                ErrorType::InvalidRequestError,
                "too_many_connections",
                "too many voice connections are open",
            );
            if send_event(&mut socket, &event, beta).await {
                let _ = close(&mut socket, 1008, "too many voice connections").await;
            }
            return;
        }
    };
    let session_id = match app
        .store
        .create_session(&user.id, "Realtime", &Default::default())
        .await
    {
        Ok(id) => id,
        Err(err) => {
            tracing::error!(%err, "no session for a realtime connection");
            let event = ServerEvent::error(ErrorType::ServerError, "internal", "internal error");
            let _ = send_event(&mut socket, &event, beta).await;
            return;
        }
    };
    let label = [("channel", "realtime")];
    app.metrics.gauge_add(crate::metrics::WS_CONNECTIONS, &label, 1);
    let mut conn = Conn {
        samples: AudioBuffer::new(app.voice_budget.clone()),
        hearing: Resampler::new(RATE, HEARING_RATE),
        app: app.clone(),
        beta,
        user,
        config,
        turn,
        voice: None,
        session_id,
        realtime_id: id("sess_"),
        heard_total: 0,
        vad: None,
        speech_item: None,
        pending: None,
        last_item: None,
        answer: None,
        heard: heard::Heard::default(),
        _seat: seat,
    };
    conn.vad = conn.detector();
    let created = ServerEvent::SessionCreated {
        session: conn.session(),
    };
    if conn.send(&mut socket, created).await {
        conn.run(&mut socket).await;
    }
    if let Some(answer) = conn.answer.take() {
        answer.task.abort();
    }
    app.metrics.gauge_add(crate::metrics::WS_CONNECTIONS, &label, -1);
}

async fn next_frame(answer: &mut Option<Answer>) -> Option<Out> {
    match answer {
        Some(a) => a.frames.recv().await,
        None => std::future::pending().await,
    }
}

impl Conn {
    async fn run(&mut self, socket: &mut WebSocket) {
        let idle = Duration::from_secs(self.app.settings.voice.idle_timeout_secs);
        loop {
            let step = tokio::select! {
                incoming = socket.recv() => Step::Incoming(incoming),
                frame = next_frame(&mut self.answer) => Step::Frame(frame),
                () = tokio::time::sleep(idle), if self.answer.is_none() => Step::Idle,
            };
            let keep_going = match step {
                Step::Incoming(Some(Ok(Message::Text(text)))) => match serde_json::from_str::<ClientEvent>(&text) {
                    Ok(event) => self.on_event(socket, event).await,
                    Err(err) => {
                        self.fail(
                            socket,
                            "invalid_event",
                            &format!("not an event the gateway takes: {err}"),
                        )
                        .await
                    }
                },
                Step::Incoming(Some(Ok(Message::Binary(_)))) => {
                    self.fail(
                        socket,
                        "invalid_event",
                        "send audio as input_audio_buffer.append events",
                    )
                    .await
                }
                Step::Incoming(Some(Ok(Message::Close(_))) | None) => false,
                Step::Incoming(Some(Ok(_))) => true,
                Step::Incoming(Some(Err(err))) => {
                    if let Some((code, reason)) = close_code(err) {
                        let _ = close(socket, code, reason).await;
                    }
                    false
                }
                Step::Frame(Some(out)) => self.on_frame(socket, out).await,
                Step::Frame(None) => self.finish(socket).await,
                Step::Idle => {
                    let _ = close(socket, 1000, "idle timeout").await;
                    false
                }
            };
            if !keep_going {
                return;
            }
        }
    }

    /// Sends an event, under its beta name to a client of the beta protocol.
    async fn send(&self, socket: &mut WebSocket, event: ServerEvent) -> bool {
        send_event(socket, &event, self.beta).await
    }

    /// The session object of `session.created` and `session.updated`, in the client's protocol.
    fn session(&self) -> SessionObject {
        self.config.session(&self.realtime_id, self.beta)
    }

    /// The session's voice for the engine the user's route chooses; a name that is not a voice's is passed on, and
    /// the turn says what is wrong with it.
    async fn chosen_voice(&self) -> Option<String> {
        let asked = self.config.voice.clone()?;
        let Ok(layer) = self.turn.layer() else {
            return Some(asked);
        };
        match speech::route_alone(&self.app, &self.user, layer).await {
            Ok((_, _, route)) => voice_for(&route, Some(&asked)).unwrap_or(Some(asked)),
            Err(_) => Some(asked),
        }
    }

    /// The voice detector of server VAD, at the hearing rate.
    fn detector(&self) -> Option<Vad> {
        let vad = self.config.server_vad?;
        let mut config: VadConfig = (&self.app.settings.voice).into();
        if let Some(ms) = vad.silence_ms {
            config.silence_ms = ms;
        }
        Some(match &self.app.silero {
            Ok(model) => Vad::neural(config, HEARING_RATE, model),
            Err(_) => Vad::new(config, HEARING_RATE),
        })
    }

    async fn on_event(&mut self, socket: &mut WebSocket, event: ClientEvent) -> bool {
        match event {
            ClientEvent::SessionUpdate { session } => match self.config.update(&session.unwrap_or_default()) {
                Ok(()) => {
                    self.vad = self.detector();
                    self.voice = self.chosen_voice().await;
                    let updated = ServerEvent::SessionUpdated {
                        session: self.session(),
                    };
                    self.send(socket, updated).await
                }
                Err(problem) => self.fail(socket, "invalid_session", &problem).await,
            },
            ClientEvent::Append { audio } => self.append(socket, &audio).await,
            ClientEvent::Commit => {
                let samples = self.take_input();
                if samples.is_empty() {
                    return self
                        .fail(
                            socket,
                            "input_audio_buffer_commit_empty",
                            "the input audio buffer is empty",
                        )
                        .await;
                }
                self.commit(socket, samples).await
            }
            ClientEvent::Clear => {
                self.drop_input();
                self.send(socket, ServerEvent::InputCleared).await
            }
            ClientEvent::ItemCreate { item } => match item.unwrap_or_default().user_text() {
                Ok(text) => {
                    let content = vec![ContentPart::InputText { text: text.clone() }];
                    self.pending = Some(Input::Text(text));
                    let item = Item::message(&id("item_"), Role::User, ItemStatus::Completed, content);
                    self.added(socket, item).await
                }
                Err(problem) => self.fail(socket, "invalid_item", &problem).await,
            },
            ClientEvent::ResponseCreate => match self.pending.take() {
                Some(input) => self.respond(socket, input).await,
                None => {
                    self.fail(
                        socket,
                        "no_input",
                        "nothing to answer: commit audio or add a user message first",
                    )
                    .await
                }
            },
            ClientEvent::ResponseCancel => {
                if self.answer.is_none() {
                    return self
                        .fail(socket, "response_cancel_not_active", "no response is running")
                        .await;
                }
                self.cancel(socket).await
            }
            ClientEvent::Truncate {
                item_id,
                content_index,
                audio_end_ms,
            } => self.truncate(socket, item_id, content_index, audio_end_ms).await,
        }
    }

    /// Takes PCM16 at 24 kHz; with server VAD, a finished utterance is committed and answered.
    async fn append(&mut self, socket: &mut WebSocket, audio: &str) -> bool {
        let bytes = match base64::engine::general_purpose::STANDARD.decode(audio.trim()) {
            Ok(bytes) => bytes,
            Err(_) => return self.fail(socket, "invalid_audio", "audio is not base64").await,
        };
        let pcm = match Pcm::from_le_bytes(&bytes, RATE) {
            Ok(pcm) => pcm,
            Err(err) => return self.fail(socket, "invalid_audio", &err.to_string()).await,
        };
        let heard = self.hearing.push(&pcm.samples);
        let limit = self.app.settings.voice.max_utterance_secs as usize * HEARING_RATE as usize;
        if self.samples.samples().len() + heard.len() > limit {
            self.drop_input();
            let message = format!("audio longer than {} s was dropped", limit / HEARING_RATE as usize);
            return self.fail(socket, "input_audio_too_long", &message).await;
        }
        if !self.samples.extend(&heard) {
            tracing::warn!("audio buffer budget reached; a realtime connection is closed");
            let _ = self
                .fail(socket, "overloaded", "the gateway holds too much audio right now")
                .await;
            let _ = close(socket, 1008, "audio budget reached").await;
            return false;
        }
        self.heard_total += heard.len();
        let Some(vad) = &mut self.vad else {
            return true;
        };
        let event = vad.update(self.samples.samples());
        let (speech_ms, unheard) = (
            vad.speech_ms(),
            self.samples.samples().len().saturating_sub(vad.analysed()),
        );
        match event {
            VadEvent::Listening => {
                if speech_ms > 0 && self.speech_item.is_none() {
                    let item = id("item_");
                    // The speech began `speech_ms` before the last sample the detector judged.
                    let start_ms = self.ms_at(unheard).saturating_sub(speech_ms.into());
                    self.speech_item = Some(item.clone());
                    let started = ServerEvent::SpeechStarted {
                        audio_start_ms: start_ms,
                        item_id: item,
                    };
                    if !self.send(socket, started).await {
                        return false;
                    }
                }
                let barge_in_ms = self.app.settings.voice.barge_in_min_speech_ms;
                let interrupts = self.config.server_vad.is_some_and(|v| v.interrupt_response);
                if self.answer.is_some() && interrupts && barge_in_ms > 0 && speech_ms >= barge_in_ms {
                    return self.cancel(socket).await;
                }
                true
            }
            VadEvent::DropSilence(n) => {
                self.samples.drop_front(n);
                true
            }
            VadEvent::Utterance(n) => {
                let utterance = self.samples.take_front(n);
                let item = self.speech_item.clone().unwrap_or_else(|| id("item_"));
                let stopped = ServerEvent::SpeechStopped {
                    audio_end_ms: self.ms_at(self.samples.samples().len()),
                    item_id: item,
                };
                if !self.send(socket, stopped).await || !self.commit(socket, utterance).await {
                    return false;
                }
                match self.pending.take() {
                    Some(input) if self.config.server_vad.is_some_and(|v| v.create_response) => {
                        self.respond(socket, input).await
                    }
                    other => {
                        self.pending = other;
                        true
                    }
                }
            }
        }
    }

    /// Everything heard so far, the converter's held samples too; the input starts afresh.
    fn take_input(&mut self) -> Vec<i16> {
        let mut samples = self.samples.take_all();
        samples.extend(self.hearing.finish());
        self.hearing = Resampler::new(RATE, HEARING_RATE);
        if let Some(vad) = &mut self.vad {
            vad.reset();
        }
        samples
    }

    /// Forgets the input heard so far (a clear, or audio over the length limit).
    fn drop_input(&mut self) {
        self.take_input();
        self.speech_item = None;
    }

    /// The time in the input, in ms, where `behind` samples before the newest one are.
    fn ms_at(&self, behind: usize) -> u64 {
        (self.heard_total.saturating_sub(behind) as u64) * 1000 / u64::from(HEARING_RATE)
    }

    /// The samples become the user's next spoken item.
    async fn commit(&mut self, socket: &mut WebSocket, samples: Vec<i16>) -> bool {
        let item = self.speech_item.take().unwrap_or_else(|| id("item_"));
        let committed = ServerEvent::Committed {
            item_id: item.clone(),
            previous_item_id: self.last_item.clone(),
        };
        if !self.send(socket, committed).await {
            return false;
        }
        let pcm = Pcm {
            sample_rate: HEARING_RATE,
            samples,
            channels: 1,
        };
        self.pending = Some(Input::Audio {
            item: item.clone(),
            pcm,
        });
        let content = vec![ContentPart::InputAudio { transcript: None }];
        self.added(socket, Item::message(&item, Role::User, ItemStatus::Completed, content))
            .await
    }

    /// `conversation.item.added`, and `conversation.item.created`, the beta protocol's name, which OpenAI
    /// sends to every client.
    async fn added(&mut self, socket: &mut WebSocket, item: Item) -> bool {
        let previous_item_id = self.last_item.replace(item.id.clone());
        let added = ServerEvent::ItemAdded {
            item: item.clone(),
            previous_item_id: previous_item_id.clone(),
        };
        let created = ServerEvent::ItemCreated { item, previous_item_id };
        self.send(socket, added).await && self.send(socket, created).await
    }

    /// An `error` event for a bad client event; the connection stays open.
    async fn fail(&mut self, socket: &mut WebSocket, code: &'static str, message: &str) -> bool {
        let event = ServerEvent::error(ErrorType::InvalidRequestError, code, message);
        self.send(socket, event).await
    }
}

/// Sends a server event as a text frame; false when the connection is gone.
async fn send_event(socket: &mut WebSocket, event: &ServerEvent, beta: bool) -> bool {
    match event.to_frame(beta) {
        Ok(text) => send(socket, Message::Text(text.into())).await,
        // Not expected: the events are plain data. The event is left out rather than the connection closed.
        Err(err) => {
            tracing::error!(%err, "a realtime event could not be written");
            true
        }
    }
}
