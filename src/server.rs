//! The HTTP server: accepts connections and serves each with hyper, within limits a stranger cannot exhaust.
//!
//! - Every connection must send its request headers within `HEADER_READ_TIMEOUT_SECONDS` (hyper starts the
//!   timer whenever it waits for a request, so the same bound closes idle keep-alive connections and slow
//!   WebSocket handshakes), and its body within `BODY_READ_TIMEOUT_SECONDS` (408).
//! - Connections count in the one budget of every door ([`crate::connections`]). A connection beyond its share
//!   is still read for a moment: `/health` answers, every other request gets 503 with `Retry-After`, and the
//!   connection closes. Only a small number of such overflow connections is kept (a few per address); beyond
//!   those a connection gets a 503 at once (after the handshake on HTTPS) and is closed, so the process never
//!   runs out of file descriptors and `/health` keeps answering.
//! - On shutdown the listeners close, connections finish their requests, and after [`crate::task::SHUTDOWN_GRACE`]
//!   the rest is dropped.
//! - With HTTPS on (`TLS`), its door does the TLS handshake within the header timeout; the HTTP door then
//!   answers requests from other machines with a redirect to HTTPS (loopback stays plain HTTP for scripts, and a
//!   trusted proxy, which terminates TLS itself, is served as it is).

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use axum::http::{HeaderValue, Request, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use futures_util::FutureExt;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use ipnet::IpNet;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tokio_rustls::TlsAcceptor;
use tower_http::timeout::RequestBodyTimeoutLayer;
use tower_service::Service;

use crate::app::{App, AppState};
use crate::connections::{self, Lane};
use crate::error::error_response;
use crate::logging::Repeated;
use crate::tls::{OverTls, host_of, is_loopback_host};

/// Refusals in progress at once on the HTTPS door (each needs a handshake), and how long one may take.
const TLS_REFUSALS: usize = 16;
const TLS_REFUSAL_TIMEOUT: Duration = Duration::from_secs(2);
/// Header timeout of an overflow connection.
const OVERFLOW_HEADER_TIMEOUT: Duration = Duration::from_secs(5);

/// The answer to a connection over every limit.
const REFUSED: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\n\
connection: close\r\ncontent-length: 100\r\n\r\n\
{\"error\":{\"status\":503,\"code\":\"overloaded\",\"message\":\"too many connections; try again in a moment\"}}";

/// A listening socket and how its connections are served.
pub struct Door {
    pub listener: TcpListener,
    /// TLS on every connection: the HTTPS door.
    pub tls: Option<TlsAcceptor>,
    /// Requests from other machines are redirected to HTTPS on this port: the HTTP door while HTTPS is on.
    pub https_port: Option<u16>,
}

impl Door {
    /// The door's name in the connection budget.
    fn kind(&self) -> connections::Door {
        match self.tls {
            Some(_) => connections::Door::Https,
            None => connections::Door::Http,
        }
    }
}

/// The next connection of any door, with the door's index.
async fn accept(doors: &[Door]) -> (usize, std::io::Result<(TcpStream, SocketAddr)>) {
    let waiting = doors.iter().map(|door| door.listener.accept().boxed());
    let (accepted, index, _) = futures_util::future::select_all(waiting).await;
    (index, accepted)
}

/// Serves `app` on `doors` until `shutdown` completes, then lets connections finish their requests for
/// up to [`crate::task::SHUTDOWN_GRACE`].
pub async fn run(doors: Vec<Door>, app: Arc<App>, shutdown: impl Future<Output = ()> + Send) {
    let limits = app.settings.server.clone();
    let write_timeout = Duration::from_secs(app.settings.limits.write_timeout_secs);
    let refusals = Arc::new(Semaphore::new(TLS_REFUSALS));
    let (routers, overflow) = routers(&app, &doors);
    // Each connection task holds a receiver of `closing` (told to finish) and of `open` (counted to wait).
    let (closing_tx, closing_rx) = watch::channel(());
    let (open_tx, open_rx) = watch::channel(());
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (door, (tcp, peer)) = tokio::select! {
            () = &mut shutdown => break,
            (door, accepted) = accept(&doors) => match accepted {
                Ok(accepted) => (door, accepted),
                Err(err) => {
                    // Out of file descriptors or a connection reset before accept: wait, do not spin.
                    static FAILED: Repeated = Repeated::new();
                    if let Some(left_out) = FAILED.next() {
                        tracing::warn!(%err, left_out, "accepting a connection failed");
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let Some(permit) = app.connections.admit(doors[door].kind(), peer.ip(), &app.metrics) else {
            refuse(tcp, doors[door].tls.clone(), &refusals);
            continue;
        };
        if let Err(err) = tcp.set_nodelay(true) {
            tracing::debug!(%err, "TCP_NODELAY could not be set");
        }
        let router = match permit.lane {
            Lane::Full => routers[door].clone(),
            Lane::Overflow => overflow.clone(),
        };
        let header_timeout = match permit.lane {
            Lane::Full => Duration::from_secs(limits.header_timeout_secs),
            Lane::Overflow => OVERFLOW_HEADER_TIMEOUT,
        };
        let (closing, open) = (closing_rx.clone(), open_rx.clone());
        let tls = doors[door].tls.clone();
        // A client that stops reading (a board's event stream left open on a sleeping phone) loses its
        // connection after WRITE_TIMEOUT_SECONDS without progress instead of holding it forever.
        let tcp = crate::deadline::Deadline::new(tcp, write_timeout);
        tokio::spawn(async move {
            match tls {
                None => serve_connection(tcp, peer, false, router, header_timeout, permit, closing).await,
                // A client that does not finish its handshake in time is treated like one that sends no request.
                Some(tls) => match tokio::time::timeout(header_timeout, tls.accept(tcp)).await {
                    Ok(Ok(stream)) => {
                        serve_connection(stream, peer, true, router, header_timeout, permit, closing).await;
                    }
                    Ok(Err(err)) => tracing::debug!(%err, %peer, "TLS handshake failed"),
                    Err(_) => tracing::debug!(%peer, "TLS handshake timed out"),
                },
            }
            drop(open);
        });
    }
    drop(doors);
    drop((closing_rx, open_rx));
    let _ = closing_tx.send(());
    if tokio::time::timeout(crate::task::SHUTDOWN_GRACE, open_tx.closed())
        .await
        .is_err()
    {
        tracing::warn!(
            "requests still running after {:?}; stopping anyway",
            crate::task::SHUTDOWN_GRACE
        );
    }
}

/// Each door's router (on HTTP beside HTTPS, one that sends other machines to HTTPS), and the overflow
/// lane's: health and a 503 for everything else.
fn routers(app: &Arc<App>, doors: &[Door]) -> (Vec<Router>, Router) {
    let state = AppState(app.clone());
    let body_timeout = Duration::from_secs(app.settings.server.body_timeout_secs);
    let full = crate::routes::router(state.clone()).layer(RequestBodyTimeoutLayer::new(body_timeout));
    let trusted = &app.settings.auth.trusted_proxy_ips;
    let hosts = Arc::new(crate::hosts::Hosts::new(&app.settings));
    let routers = doors
        .iter()
        .map(|door| match door.https_port {
            Some(port) => {
                let trusted = Arc::new(trusted.clone());
                full.clone().layer(axum::middleware::from_fn(
                    move |req: Request<axum::body::Body>, next: Next| to_https(port, trusted.clone(), req, next),
                ))
            }
            None => full.clone(),
        })
        .map(|router| {
            router.layer(axum::middleware::from_fn_with_state(
                hosts.clone(),
                crate::hosts::only_own,
            ))
        })
        // A refused host name or a redirect to HTTPS carries them too.
        .map(crate::routes::with_security_headers)
        .collect();
    let overflow = axum::Router::from(crate::routes::health::router())
        .fallback(busy)
        .with_state(state);
    (routers, overflow)
}

/// A connection over every limit gets a 503 and is closed, its request unread: written at once on HTTP, after
/// the handshake on HTTPS (a browser shows a bare TLS error otherwise), a few at a time and briefly, since a
/// handshake costs work.
fn refuse(tcp: TcpStream, tls: Option<TlsAcceptor>, refusals: &Arc<Semaphore>) {
    let Some(tls) = tls else {
        let _ = tcp.try_write(REFUSED);
        return;
    };
    let Ok(permit) = refusals.clone().try_acquire_owned() else {
        return;
    };
    tokio::spawn(async move {
        let _permit = permit;
        let answered = async {
            let mut stream = tls.accept(tcp).await?;
            stream.write_all(REFUSED).await?;
            stream.shutdown().await?;
            // Read to the client's close: closing with its request unread would reset the connection, and the
            // client might lose the answer.
            tokio::io::copy(&mut stream, &mut tokio::io::sink()).await
        };
        let _ = tokio::time::timeout(TLS_REFUSAL_TIMEOUT, answered).await;
    });
}

/// One connection (plain or TLS): HTTP/1.1 with upgrades (WebSockets), the peer's address as `ConnectInfo`.
async fn serve_connection(
    io: impl AsyncRead + AsyncWrite + Unpin + Send + 'static,
    peer: SocketAddr,
    secure: bool,
    router: Router,
    header_timeout: Duration,
    permit: connections::Ticket,
    mut closing: watch::Receiver<()>,
) {
    let lane = permit.lane;
    let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
        req.extensions_mut().insert(ConnectInfo(peer));
        if secure {
            req.extensions_mut().insert(OverTls);
        }
        let mut router = router.clone();
        async move {
            let mut response = router.call(req).await?;
            if lane == Lane::Overflow {
                response
                    .headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            Ok::<_, Infallible>(response)
        }
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .keep_alive(lane == Lane::Full);
    let conn = http.serve_connection(TokioIo::new(io), service).with_upgrades();
    let mut conn = std::pin::pin!(conn);
    let mut told = false;
    loop {
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(err) = result {
                    tracing::trace!(%err, %peer, "connection ended with an error");
                }
                break;
            }
            changed = closing.changed(), if !told => {
                told = true;
                if changed.is_ok() {
                    conn.as_mut().graceful_shutdown();
                }
            }
        }
    }
    drop(permit);
}

/// On the HTTP door while HTTPS is on: a request from another machine goes to the same path on HTTPS (a phone
/// needs it for the microphone); loopback and trusted proxies are served.
async fn to_https(port: u16, trusted: Arc<Vec<IpNet>>, req: Request<axum::body::Body>, next: Next) -> Response {
    let peer = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    let from_proxy = peer.is_some_and(|ip| trusted.iter().any(|net| net.contains(&ip)));
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(host_of)
        .unwrap_or_default();
    // An ACME authority checks its challenge over plain HTTP (it follows no redirect to another port).
    let challenge = req.uri().path().starts_with("/.well-known/acme-challenge/");
    if from_proxy || challenge || host.is_empty() || is_loopback_host(&host) {
        return next.run(req).await;
    }
    let path = req.uri().path_and_query().map_or("/", |p| p.as_str());
    // Temporary: a browser must not remember it when HTTPS is switched off again.
    Redirect::temporary(&format!("https://{host}:{port}{path}")).into_response()
}

/// The answer on an overflow connection to anything but `/health`.
async fn busy() -> Response {
    let mut response = error_response(
        StatusCode::SERVICE_UNAVAILABLE,
        "overloaded",
        "too many connections; try again in a moment",
    )
    .into_response();
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_refusal_is_a_complete_response_with_the_contracts_error_body() {
        let text = std::str::from_utf8(REFUSED).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(length, body.len());
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(json["error"]["status"], 503);
        assert!(head.starts_with("HTTP/1.1 503 "));
    }
}
