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
mod input;
pub mod session;
pub mod session_object;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use self::answer::Answer;
use self::client::ClientEvent;
use self::conversation::{ContentPart, Item, ItemStatus, Role};
use self::events::{ErrorType, ServerEvent, id};
use self::session::Config;
use self::session_object::SessionObject;
use super::errors::V1Error;
use super::models::{DEFAULT_MODEL, layer_for};
use crate::app::{App, AppState};
use crate::auth::CurrentUser;
use crate::auth::access::OPENAI;
use crate::error::{ApiError, AppQuery};
use crate::listen::budget::Seat;
use crate::listen::end_of_turn::Verdict;
use crate::openai::audio::voice_for;
use crate::providers::resample::Resampler;
use crate::socket::{close, close_code, send};
use crate::store::users::User;
use crate::turn::{TurnOptions, speech};
use crate::voice::{Conversation, Listener, Next, Options, Utterance};

/// The protocol's audio rate, both ways.
pub const RATE: u32 = 24_000;
/// The rate the detectors and STT hear.
const HEARING_RATE: u32 = 16_000;
/// Largest event accepted (an append of about 5 minutes of audio); OpenAI's limit is 15 MiB.
const MESSAGE_LIMIT: usize = 16 * 1024 * 1024;

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
    crate::socket::check_origin(&headers, &app.settings.voice.allowed_origins)?;
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
        .read_buffer_size(crate::socket::READ_BUFFER)
        .max_message_size(MESSAGE_LIMIT)
        .max_frame_size(MESSAGE_LIMIT)
        .on_upgrade(move |socket| serve(socket, app, caller.user, Config::new(model), turn, beta)))
}

/// What the user said and the gateway has not answered yet, or the alarm of an unanswered call for help.
enum Input {
    Audio { item: String, utterance: Utterance },
    Text(String),
    Alarm,
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
    /// The input at 16 kHz: detector, end of turn, early transcription.
    listener: Listener,
    /// The running answer's turn, and the help question.
    conversation: Conversation,
    /// The item of the speech the detector is following.
    speech_item: Option<String>,
    pending: Option<Input>,
    last_item: Option<String>,
    /// The notices told in this session, each once.
    told: crate::voice::phrases::Told,
    answer: Option<Answer>,
    /// The items of the last spoken question and its finished answer, while the person may go on with it.
    answered: Vec<String>,
    /// What was played of the last answers, for `conversation.item.truncate`.
    heard: heard::Heard,
    _seat: Seat,
}

/// What woke the loop.
enum Step {
    Incoming(Option<Result<Message, axum::Error>>),
    Next(Next),
    Verdict(Verdict),
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
    let options = Options {
        session_id: Some(session_id.clone()),
        ..Options::default()
    };
    let mut conn = Conn {
        listener: Listener::new(app.clone(), user.clone(), options, HEARING_RATE, None),
        conversation: Conversation::new(app.clone(), user.clone(), "realtime", true),
        hearing: Resampler::new(RATE, HEARING_RATE),
        app: app.clone(),
        beta,
        user,
        config,
        turn,
        voice: None,
        session_id,
        realtime_id: id("sess_"),
        speech_item: None,
        pending: None,
        last_item: None,
        told: Default::default(),
        answer: None,
        answered: Vec::new(),
        heard: heard::Heard::default(),
        _seat: seat,
    };
    conn.listener.detect(conn.config.detection());
    conn.listener.ready().await;
    let created = ServerEvent::SessionCreated {
        session: conn.session(),
    };
    // A connection that fails (a panic: a bug) says so and is counted; no other connection notices.
    if conn.send(&mut socket, created).await
        && let Err(reason) = crate::task::caught(conn.run(&mut socket)).await
    {
        app.lines.task_failed(&app.metrics, "realtime", &reason);
        let event = ServerEvent::error(ErrorType::ServerError, "internal", "internal error");
        let _ = send_event(&mut socket, &event, beta).await;
    }
    drop(conn);
    app.metrics.gauge_add(crate::metrics::WS_CONNECTIONS, &label, -1);
}

impl Conn {
    async fn run(&mut self, socket: &mut WebSocket) {
        let idle = Duration::from_secs(self.app.settings.voice.idle_timeout_secs);
        loop {
            let step = tokio::select! {
                incoming = socket.recv() => Step::Incoming(incoming),
                next = self.conversation.next() => Step::Next(next),
                verdict = self.listener.verdict() => Step::Verdict(verdict),
                () = tokio::time::sleep(idle), if !self.conversation.answering() => Step::Idle,
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
                Step::Next(Next::Out(out)) => self.on_frame(socket, out).await,
                Step::Next(Next::Ended) => self.finish(socket).await,
                Step::Next(Next::HelpUnanswered) => self.respond(socket, Input::Alarm).await,
                Step::Verdict(verdict) => {
                    let answering = self.conversation.answering();
                    match self.listener.decide(verdict, answering) {
                        Some(heard) => self.on_heard(socket, heard).await,
                        None => true,
                    }
                }
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
        self.config
            .session(&self.realtime_id, self.beta, self.listener.smart_turn_runs())
    }

    /// The session's voice for the engine the user's route chooses; a name that is not a voice's is passed on, and
    /// the turn says what is wrong with it.
    async fn chosen_voice(&self) -> Option<String> {
        let asked = self.config.voice.clone()?;
        let Ok(layer) = self.turn.layer() else {
            return Some(asked);
        };
        match speech::route_alone(&self.app, &self.user, layer).await {
            Ok((_, _, route)) => voice_for(&self.app, &route, Some(&asked)).unwrap_or(Some(asked)),
            Err(_) => Some(asked),
        }
    }

    async fn on_event(&mut self, socket: &mut WebSocket, event: ClientEvent) -> bool {
        let input_before = self.config.input;
        match event {
            ClientEvent::SessionUpdate { session } => match self.config.update(&session.unwrap_or_default()) {
                Ok(()) => {
                    if self.config.input != input_before {
                        // Another input encoding: what was heard so far in the old one is dropped.
                        self.drop_input();
                    }
                    self.listener.detect(self.config.detection());
                    self.listener.ready().await;
                    self.voice = self.chosen_voice().await;
                    let updated = ServerEvent::SessionUpdated {
                        session: self.session(),
                    };
                    self.send(socket, updated).await
                }
                Err(problem) => self.fail(socket, "invalid_session", &problem).await,
            },
            ClientEvent::Append { audio } => self.append(socket, &audio).await,
            ClientEvent::Commit => match self.take_input() {
                Some(utterance) => self.commit(socket, utterance).await,
                None => {
                    self.fail(
                        socket,
                        "input_audio_buffer_commit_empty",
                        "the input audio buffer is empty",
                    )
                    .await
                }
            },
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
                if !self.conversation.answering() {
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
