//! SIP over TCP (RFC 3261 §18.3) on `SIP_ADDR`. Peers open connections and send messages framed by their
//! `Content-Length`. Responses, and the gateway's requests in a call that came this way, go back on the same
//! connection.
//!
//! Each connection counts in the connection budget of every door. Some connections are closed:
//! - one that sends nothing for [`IDLE`] (a telephone sends a keep-alive every half minute or so);
//! - one whose message cannot be framed (no `Content-Length`, longer than [`MAX_MESSAGE`]);
//! - one whose peer takes nothing of what is written for `WRITE_TIMEOUT_SECONDS`.
//!
//! A stranger (neither the registrar nor `SIP_ALLOWED_FROM`) takes no place in the budget: at most
//! [`STRANGERS`] strangers' connections are open at once, each for one request, answered 403, and for
//! [`STRANGER`] at most; others are closed at once. However many connections strangers open, the allowed
//! handsets and the registrar keep their places.

// Numbers from the wire are read here: no arithmetic may overflow or panic, whatever they are.
#![deny(clippy::arithmetic_side_effects)]

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

use super::Allowed;
use super::endpoint::{Endpoint, Incoming};
use super::message::{MAX_MESSAGE, Message};
use crate::app::App;
use crate::connections::{Door, Ticket};
use crate::deadline::Deadline;
use crate::logging::Repeated;
use crate::metrics::SIP_CONNECTIONS_REFUSED_TOTAL;
use crate::sip_share::{self as share, Why};
use crate::task::AbortOnDrop;

/// How long a connection may send nothing.
const IDLE: Duration = Duration::from_secs(180);
/// How long a stranger has for its one request, and its 403 to be written.
const STRANGER: Duration = Duration::from_secs(5);
/// Messages waiting to be written to one connection (a peer that reads nothing loses its connection after
/// `WRITE_TIMEOUT_SECONDS`).
const QUEUE: usize = 2 * ROOM;
/// Room kept in that queue before the next request is read: for the answers of every request read and not
/// answered yet (those waiting for the telephone, [`super::REQUESTS_QUEUE`], and for a call,
/// [`super::CALL_QUEUE`]), and a few of the gateway's own.
const ROOM: usize = super::REQUESTS_QUEUE + super::CALL_QUEUE + 8;
/// Strangers' connections open at once, outside the connection budget.
const STRANGERS: usize = 8;
/// Connections beyond their share being answered `503` at once, outside the connection budget.
const REFUSALS: usize = 8;
/// How long a connection waits for the place of one closed for it.
const GIVE_UP_WAIT: Duration = Duration::from_secs(1);

/// Accepts connections on `listener` until dropped; their requests go to `requests`.
pub async fn serve(
    app: Arc<App>,
    endpoint: Arc<Endpoint>,
    listener: TcpListener,
    allowed: Allowed,
    requests: mpsc::Sender<Incoming>,
) {
    let strangers = Arc::new(tokio::sync::Semaphore::new(STRANGERS));
    let refusals = Arc::new(tokio::sync::Semaphore::new(REFUSALS));
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(err) => {
                static FAILED: Repeated = Repeated::new();
                if let Some(left_out) = FAILED.next() {
                    tracing::warn!(%err, left_out, "a SIP connection could not be accepted");
                }
                // Out of descriptors: give the others a moment to end.
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let stranger = !allowed.contains(peer.ip());
        let connection = Connection {
            endpoint: endpoint.clone(),
            peer,
            stranger,
            write_timeout: Duration::from_secs(app.settings.limits.write_timeout_secs),
        };
        // Checked before a place is taken: a stranger's connection never counts against the allowed. It holds
        // one of the strangers' places, an allowed peer's its address's share and one in the budget.
        if stranger {
            let Ok(place) = strangers.clone().try_acquire_owned() else {
                static TURNED_AWAY: Repeated = Repeated::new();
                if let Some(left_out) = TURNED_AWAY.next() {
                    tracing::warn!(%peer, left_out, "SIP connections from strangers beyond {STRANGERS}; closed");
                }
                continue;
            };
            let requests = requests.clone();
            tokio::spawn(async move {
                if let Err(why) = connection.run(stream, requests, None).await {
                    tracing::debug!(%peer, why, "a SIP connection was closed");
                }
                drop(place);
            });
            continue;
        }
        let (app, requests, refusals, router) = (app.clone(), requests.clone(), refusals.clone(), allowed.registrar);
        tokio::spawn(async move {
            match admitted(&app, peer, router).await {
                Ok((ticket, place)) => {
                    if let Err(why) = connection.run(stream, requests, Some(&place)).await {
                        tracing::debug!(%peer, why, "a SIP connection was closed");
                    }
                    // The budget's place first: a connection waiting for this one's finds it free.
                    drop(ticket);
                    drop(place);
                }
                Err(why) => refuse(&app, stream, peer, why, &refusals).await,
            }
        });
    }
}

/// A place for an allowed peer's connection: its address's share, then one in the budget that leaves the
/// places kept for calls and the router (the router's own connection may take those). With none free, the
/// connection idle longest is closed for it (see [`crate::sip_share`]), and the place it frees taken.
async fn admitted(app: &App, peer: SocketAddr, router: Option<IpAddr>) -> Result<(Ticket, share::Place), Why> {
    let is_router = router == Some(peer.ip());
    let place = app.sip_share.enter(peer.ip(), is_router)?;
    // Calls each take a place of the door, and the router one more.
    let kept = app.settings.sip.max_calls.saturating_add(1);
    for last in [false, true] {
        if (is_router || app.connections.room(Door::Sip) > kept)
            && let Some(ticket) = app.connections.admit(Door::Sip, peer.ip(), &app.metrics)
        {
            return Ok((ticket, place));
        }
        let Some(gone) = app.sip_share.give_up_idle(router).filter(|_| !last) else {
            break;
        };
        // The connection given up frees its place as it ends.
        let _ = tokio::time::timeout(GIVE_UP_WAIT, gone).await;
    }
    Err(Why::Door)
}

/// A connection beyond its share: its one request is answered `503` with `Retry-After` and the connection
/// closed (at once when [`REFUSALS`] are being answered already); counted and named with its address.
async fn refuse(app: &App, mut stream: TcpStream, peer: SocketAddr, why: Why, refusals: &Arc<tokio::sync::Semaphore>) {
    app.sip_share.refused(peer.ip(), why);
    app.metrics.incr(SIP_CONNECTIONS_REFUSED_TOTAL, &[("why", why.label())]);
    static REFUSED: Repeated = Repeated::new();
    if let Some(left_out) = REFUSED.next() {
        tracing::warn!(%peer, why = why.label(), left_out, "a SIP connection beyond its share was refused");
    }
    let Ok(_answering) = refusals.try_acquire() else {
        return;
    };
    let (pong, _) = mpsc::channel(1);
    let mut buf = Vec::new();
    let read = tokio::time::timeout(STRANGER, next_message(&mut stream, &mut buf, &pong)).await;
    let Ok(Ok(Some(bytes))) = read else { return };
    let Ok(request) = Message::parse(&bytes) else { return };
    if request.code().is_some() || request.method() == "ACK" {
        return;
    }
    let busy = super::busy(&request, 503, "Service Unavailable");
    let _ = tokio::time::timeout(STRANGER, stream.write_all(&busy.to_bytes())).await;
    let _ = stream.shutdown().await;
}

/// One peer's connection.
struct Connection {
    endpoint: Arc<Endpoint>,
    peer: SocketAddr,
    stranger: bool,
    write_timeout: Duration,
}

impl Connection {
    async fn run(
        self,
        stream: TcpStream,
        requests: mpsc::Sender<Incoming>,
        place: Option<&share::Place>,
    ) -> Result<(), String> {
        let _ = stream.set_nodelay(true);
        let (mut reader, writer) = stream.into_split();
        let (tx, mut rx) = mpsc::channel::<Vec<u8>>(QUEUE);
        let _attached = self.endpoint.attach(self.peer, tx.clone());
        let (once, limit) = (self.stranger, self.write_timeout);
        let mut write = AbortOnDrop(tokio::spawn(async move {
            let mut writer = Deadline::new(writer, limit);
            while let Some(bytes) = rx.recv().await {
                if writer.write_all(&bytes).await.is_err() || once {
                    break;
                }
            }
            let _ = writer.shutdown().await;
        }));
        let idle = if self.stranger { STRANGER } else { IDLE };
        let mut buf = Vec::new();
        let asked = place.map(share::Place::given_up);
        let mut given_up = std::pin::pin!(async move {
            match asked {
                Some(asked) => asked.await,
                None => std::future::pending().await,
            }
        });
        while !write.0.is_finished() {
            // A peer that reads its answers slower than it sends requests is read slower: each request it sends
            // finds room for its answers, so a burst is answered whole and never crowds out what it asked.
            let room = tokio::time::timeout(idle, tx.reserve_many(ROOM)).await;
            drop(room.map_err(|_| format!("answers not taken for {} s", idle.as_secs()))?);
            let next = tokio::time::timeout(idle, next_message(&mut reader, &mut buf, &tx));
            let message = tokio::select! {
                message = next => message.map_err(|_| format!("nothing for {} s", idle.as_secs()))??,
                () = &mut given_up => return Err("closed, idle, for a connection that waited".into()),
            };
            let Some(message) = message else { return Ok(()) };
            if let Some(place) = place {
                place.heard(message.starts_with(b"INVITE "));
            }
            if !self.endpoint.take(&message, self.peer, &requests).await {
                return Ok(());
            }
            if self.stranger {
                // Its 403 is written, then the connection closes.
                let _ = tokio::time::timeout(STRANGER, &mut write.0).await;
                return Ok(());
            }
        }
        Ok(())
    }
}

/// The next message of the stream (`None` at its end), read into `buf`, which keeps what follows it. Empty
/// lines between messages are skipped, and a keep-alive (a double CRLF, RFC 5626 §4.4.1) is answered with
/// one CRLF on `pong`.
async fn next_message<R: AsyncRead + Unpin>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    pong: &mpsc::Sender<Vec<u8>>,
) -> Result<Option<Vec<u8>>, String> {
    // Where the search for the end of the head goes on: a head that trickles in byte by byte is searched
    // once, not once per byte.
    let mut searched = 0;
    loop {
        let blank = buf.iter().take_while(|&&b| b == b'\r' || b == b'\n').count();
        if blank > 0 && blank < buf.len() || blank >= 4 {
            if buf[..blank].windows(4).any(|w| w == b"\r\n\r\n") {
                let _ = pong.try_send(b"\r\n".to_vec());
            }
            buf.drain(..blank);
            searched = 0;
        }
        let found = buf[searched..].windows(4).position(|w| w == b"\r\n\r\n");
        if let Some(end) = found.map(|at| searched.saturating_add(at)) {
            let length = content_length(&buf[..end])?;
            // Compared before it is added to: a length near `usize::MAX` would overflow.
            if length > MAX_MESSAGE.saturating_sub(end.saturating_add(4)) {
                return Err(format!("a message of {length} bytes and more, more than {MAX_MESSAGE}"));
            }
            let total = end.saturating_add(4).saturating_add(length);
            while buf.len() < total {
                if read_more(reader, buf).await? == 0 {
                    return Err("the connection ended inside a message".into());
                }
            }
            return Ok(Some(buf.drain(..total).collect()));
        }
        if buf.len() > MAX_MESSAGE {
            return Err(format!("headers longer than {MAX_MESSAGE} bytes"));
        }
        searched = buf.len().saturating_sub(3);
        if read_more(reader, buf).await? == 0 {
            return if buf.iter().all(u8::is_ascii_whitespace) {
                Ok(None)
            } else {
                Err("the connection ended inside a message".into())
            };
        }
    }
}

async fn read_more<R: AsyncRead + Unpin>(reader: &mut R, buf: &mut Vec<u8>) -> Result<usize, String> {
    let mut chunk = [0u8; 4096];
    let n = reader.read(&mut chunk).await.map_err(|e| e.to_string())?;
    buf.extend_from_slice(&chunk[..n]);
    Ok(n)
}

/// The `Content-Length` (or compact `l`) of a message's head; over a stream it must be there.
fn content_length(head: &[u8]) -> Result<usize, String> {
    let head = String::from_utf8_lossy(head);
    let value = head
        .lines()
        .filter_map(|line| line.split_once(':'))
        .find(|(name, _)| {
            let name = name.trim();
            name.eq_ignore_ascii_case("Content-Length") || name.eq_ignore_ascii_case("l")
        })
        .ok_or("a message without Content-Length")?
        .1
        .trim();
    super::message::digits(value).ok_or_else(|| "a Content-Length that is not a number".to_string())
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    async fn messages(stream: &[u8]) -> (Vec<Result<Option<Vec<u8>>, String>>, usize) {
        let (pong, mut pongs) = mpsc::channel(8);
        let mut reader = stream;
        let mut buf = Vec::new();
        let mut read = Vec::new();
        loop {
            let next = next_message(&mut reader, &mut buf, &pong).await;
            let end = !matches!(next, Ok(Some(_)));
            read.push(next);
            if end {
                break;
            }
        }
        drop(pong);
        let mut count = 0;
        while pongs.recv().await.is_some() {
            count += 1;
        }
        (read, count)
    }

    #[tokio::test]
    async fn messages_are_framed_by_their_length_and_keep_alives_answered() {
        let one = b"OPTIONS sip:a@b SIP/2.0\r\nContent-Length: 0\r\n\r\n";
        let two = b"INFO sip:a@b SIP/2.0\r\nl: 5\r\n\r\nhello";
        let stream = [&b"\r\n\r\n"[..], one, b"\r\n", two].concat();
        let (read, pongs) = messages(&stream).await;
        assert_eq!(read.len(), 3);
        assert_eq!(read[0].as_ref().unwrap().as_deref(), Some(&one[..]));
        assert_eq!(read[1].as_ref().unwrap().as_deref(), Some(&two[..]));
        assert_eq!(read[2], Ok(None));
        assert_eq!(pongs, 1);
    }

    #[tokio::test]
    async fn what_cannot_be_framed_ends_the_connection_with_the_reason() {
        let (read, _) = messages(b"OPTIONS sip:a@b SIP/2.0\r\nVia: x\r\n\r\n").await;
        assert_eq!(read[0], Err("a message without Content-Length".into()));
        let huge = format!("INFO sip:a@b SIP/2.0\r\nContent-Length: {}\r\n\r\n", usize::MAX);
        let (read, _) = messages(huge.as_bytes()).await;
        assert!(read[0].as_ref().unwrap_err().contains("more than"), "{read:?}");
        for length in ["1e9", "+5", "-0", " "] {
            let message = format!("INFO sip:a@b SIP/2.0\r\nContent-Length: {length}\r\n\r\nhello");
            let (read, _) = messages(message.as_bytes()).await;
            assert!(
                read[0].as_ref().unwrap_err().contains("not a number"),
                "{length}: {read:?}"
            );
        }
        let long = format!("INFO sip:a@b SIP/2.0\r\nContent-Length: {MAX_MESSAGE}\r\n\r\n");
        let (read, _) = messages(long.as_bytes()).await;
        assert!(read[0].as_ref().unwrap_err().contains("more than"), "{read:?}");
        let (read, _) = messages(&vec![b'A'; MAX_MESSAGE + 10]).await;
        assert!(read[0].as_ref().unwrap_err().contains("headers longer"), "{read:?}");
        let (read, _) = messages(b"OPTIONS sip:a@b SIP/2.0\r\nContent-Length: 9\r\n\r\nshort").await;
        assert_eq!(read[0], Err("the connection ended inside a message".into()));
    }
}
