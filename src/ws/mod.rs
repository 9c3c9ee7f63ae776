//! The WebSocket channels: `/ws/chat` (text turns), `/ws/voice` (speech turns with optional voice activity
//! detection) and `/api/admin/log` (the live service log for admins).
//!
//! A handshake is authenticated like any request (bearer header, cookie, `?token=`, trusted proxy header) and a
//! browser's `Origin` must be the gateway's own or listed in `WS_ALLOWED_ORIGINS`, so another site cannot open
//! a channel with the user's cookie. Each connection runs one loop ([`conn`]) that reads frames and writes the
//! events of at most one running turn ([`turn`]).

mod admin_log;
mod conn;
pub mod protocol;

use axum::extract::State;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::CurrentUser;
use crate::auth::access::USER;
use crate::error::{AppQuery, Result};
use crate::socket::check_origin;

/// Largest message the WebSocket layer accepts at all; frames above the channel's own limits (see
/// [`protocol`]) but below this get an error event and the connection stays open.
const PROTOCOL_MESSAGE_LIMIT: usize = 16 * 1024 * 1024;

/// The channel routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(chat))
        .routes(routes!(voice))
        .routes(routes!(admin_log::handler))
}

/// Handshake query.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct HandshakeQuery {
    /// Continues this session (a frame's `session_id` wins).
    session_id: Option<String>,
    /// The user's token, for clients that cannot set a header (read by the auth layer).
    #[serde(default)]
    #[allow(dead_code)]
    token: Option<String>,
}

/// Streaming text chat over WebSocket: frames `{"text", options}` and `{"type":"interrupt"}` (`ClientFrame`);
/// the server's events are `ServerEvent`.
#[utoipa::path(get, path = "/ws/chat", tag = USER, params(HandshakeQuery), responses(
    (status = 101, description = "switching to the WebSocket protocol; frames: components/schemas/ClientFrame, \
        events: components/schemas/ServerEvent"),
    (status = 400, description = "not a WebSocket handshake"), (status = 403, description = "a foreign Origin")))]
async fn chat(
    State(app): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    AppQuery(query): AppQuery<HandshakeQuery>,
    upgrade: std::result::Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response> {
    accept(&app, caller, &headers, query, upgrade?, conn::Channel::Chat)
}

/// Speech turns over WebSocket: `start` (vad, sample_rate, chat options), binary 16-bit PCM frames, `end`,
/// `interrupt` (`ClientFrame`); the server's events are `ServerEvent`.
#[utoipa::path(get, path = "/ws/voice", tag = USER, params(HandshakeQuery), responses(
    (status = 101, description = "switching to the WebSocket protocol; frames: components/schemas/ClientFrame, \
        events: components/schemas/ServerEvent"),
    (status = 400, description = "not a WebSocket handshake"), (status = 403, description = "a foreign Origin")))]
async fn voice(
    State(app): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    AppQuery(query): AppQuery<HandshakeQuery>,
    upgrade: std::result::Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response> {
    accept(&app, caller, &headers, query, upgrade?, conn::Channel::Voice)
}

fn accept(
    app: &AppState,
    caller: CurrentUser,
    headers: &HeaderMap,
    query: HandshakeQuery,
    upgrade: WebSocketUpgrade,
    channel: conn::Channel,
) -> Result<Response> {
    check_origin(headers, &app.settings.voice.allowed_origins)?;
    let app = app.0.clone();
    Ok(upgrade
        .read_buffer_size(crate::socket::READ_BUFFER)
        .max_message_size(PROTOCOL_MESSAGE_LIMIT)
        .max_frame_size(PROTOCOL_MESSAGE_LIMIT)
        .on_upgrade(move |socket| conn::serve(socket, app, caller.user, channel, query.session_id)))
}
