//! `/api/admin/log`: the live service log for admins, one text frame per line. A reader that falls behind
//! gets a note of how many lines it missed instead of slowing anything down.

use std::time::Duration;

use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::response::Response;
use tokio::sync::broadcast::error::RecvError;

use crate::app::AppState;
use crate::auth::Admin;
use crate::error::Result;

/// A reader that does not take a line within this time is disconnected.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// The live service log over WebSocket, one text frame per line.
#[utoipa::path(get, path = "/api/admin/log", tag = crate::auth::access::ADMIN, responses(
    (status = 101, description = "switching to the WebSocket protocol; one text frame per log line"),
    (status = 400, description = "not a WebSocket handshake"), (status = 403, description = "a foreign Origin")))]
pub async fn handler(
    State(app): State<AppState>,
    admin: Admin,
    headers: HeaderMap,
    upgrade: std::result::Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response> {
    let upgrade = upgrade?;
    crate::socket::check_origin(&headers, &app.settings.voice.allowed_origins)?;
    tracing::info!(target: "audit", actor = %admin.actor, "admin opened the live log");
    let (instance, stop) = (app.instance.clone(), app.stop.hold());
    Ok(upgrade
        .read_buffer_size(crate::socket::READ_BUFFER)
        .on_upgrade(move |socket| stream(socket, instance, stop)))
}

/// The log of this instance only: the first line says which one it is.
async fn stream(mut socket: WebSocket, instance: String, mut stop: tokio::sync::watch::Receiver<bool>) {
    let mut lines = crate::logging::subscribe();
    let hello = format!("live log of instance {instance} (each instance of the gateway has its own)");
    if socket.send(Message::Text(hello.into())).await.is_err() {
        return;
    }
    loop {
        let text = tokio::select! {
            line = lines.recv() => match line {
                Ok(line) => line,
                Err(RecvError::Lagged(missed)) => format!("… {missed} log lines dropped (reader too slow)"),
                Err(RecvError::Closed) => return,
            },
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => continue,
            },
            () = crate::task::stopped(&mut stop) => {
                let _ = crate::socket::close(&mut socket, 1001, "the gateway stops").await;
                return;
            }
        };
        match tokio::time::timeout(SEND_TIMEOUT, socket.send(Message::Text(text.into()))).await {
            Ok(Ok(())) => {}
            _ => return,
        }
    }
}
