//! What the WebSocket channels (`/ws/*`, `/v1/realtime`) share on the socket: sending with a deadline, close
//! codes for frames the WebSocket layer refused, and the `Origin` check of a browser's handshake.

use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use axum::http::HeaderMap;
use axum::http::header::{HOST, ORIGIN};

use crate::error::{ApiError, Result};

/// A client that does not take a frame within this time is disconnected.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(30);

/// The read buffer of a WebSocket connection. tungstenite allocates it per connection at the upgrade and fills
/// all of it with zeros before each read, so all of it is resident: its default of 128 KiB, then 16, was most
/// of an idle voice session's memory. The frames of every channel here are a few KiB (20 ms of audio is 640
/// bytes, an event less); a longer message grows the buffer to its length and is read 4 KiB at a time.
pub const READ_BUFFER: usize = 4 * 1024;

/// Sends a frame; false when the client is gone or too slow.
pub async fn send(socket: &mut WebSocket, message: Message) -> bool {
    matches!(
        tokio::time::timeout(SEND_TIMEOUT, socket.send(message)).await,
        Ok(Ok(()))
    )
}

/// Sends a close frame with a code and reason.
pub async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) -> bool {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    send(socket, Message::Close(Some(frame))).await
}

/// The close code for a frame the WebSocket layer refused: 1009 for one above the channel's message limit,
/// 1002 for a protocol error, 1007 for text that is not UTF-8; none when the connection is simply gone.
pub fn close_code(err: axum::Error) -> Option<(u16, &'static str)> {
    use tungstenite::Error;
    let inner = err.into_inner();
    match inner.downcast_ref::<Error>()? {
        Error::Capacity(_) => Some((1009, "message too big")),
        Error::Protocol(_) => Some((1002, "protocol error")),
        Error::Utf8(_) => Some((1007, "text is not UTF-8")),
        _ => None,
    }
}

/// Refuses a browser handshake from a foreign origin (cross-site WebSocket hijacking). Clients that are not
/// browsers send no `Origin` and are let through; their credentials decide.
pub fn check_origin(headers: &HeaderMap, allowed: &[String]) -> Result<()> {
    let Some(origin) = headers.get(ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or("").trim_end_matches('/');
    let host = headers.get(HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    let own = origin
        .split_once("://")
        .is_some_and(|(scheme, authority)| matches!(scheme, "http" | "https") && authority.eq_ignore_ascii_case(host));
    if own
        || allowed
            .iter()
            .any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin))
    {
        Ok(())
    } else {
        tracing::warn!(%origin, "WebSocket handshake from a foreign origin refused");
        Err(ApiError::Forbidden(format!(
            "origin {origin} may not open this channel (see WS_ALLOWED_ORIGINS)"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(HOST, HeaderValue::from_str(host).unwrap());
        if let Some(o) = origin {
            h.insert(ORIGIN, HeaderValue::from_str(o).unwrap());
        }
        h
    }

    #[test]
    fn only_the_own_and_listed_origins_pass() {
        let allowed = vec!["https://app.example".to_string()];
        assert!(check_origin(&headers(None, "gw:8080"), &allowed).is_ok());
        assert!(check_origin(&headers(Some("http://gw:8080"), "gw:8080"), &allowed).is_ok());
        assert!(check_origin(&headers(Some("https://app.example/"), "gw:8080"), &allowed).is_ok());
        assert!(check_origin(&headers(Some("https://evil.example"), "gw:8080"), &allowed).is_err());
        assert!(check_origin(&headers(Some("http://gw:8081"), "gw:8080"), &allowed).is_err());
        assert!(check_origin(&headers(Some("null"), "gw:8080"), &allowed).is_err());
    }
}
