//! What a stranger cannot do to the server: hold connections open with slow headers or bodies, or take every
//! connection, while `/health` keeps answering.

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

use crate::common::{TestApp, eventually, spawn_app};

/// A connection from a loopback address of our choice (all of 127.0.0.0/8 is this machine).
async fn connect_from(app: &TestApp, from: &str) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from.parse().unwrap(), 0)).unwrap();
    socket.connect(app.addr).await.unwrap()
}

/// A connection that starts a request and never finishes its headers.
async fn slow_client(app: &TestApp, from: &str) -> TcpStream {
    let mut tcp = connect_from(app, from).await;
    tcp.write_all(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        .await
        .unwrap();
    tcp
}

/// What the server sends until it closes, or what it sent within `wait`.
async fn read_some(tcp: &mut TcpStream, wait: Duration) -> (String, bool) {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = Instant::now() + wait;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, tcp.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (String::from_utf8_lossy(&got).into(), true),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
            Err(_) => return (String::from_utf8_lossy(&got).into(), false),
        }
    }
}

/// `GET path` from an address; the status line's code.
async fn get_from(app: &TestApp, from: &str, path: &str) -> (u16, String) {
    let client = reqwest::Client::builder()
        .local_address(from.parse::<IpAddr>().unwrap())
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    let r = client.get(app.url(path)).send().await.expect("an answer");
    let retry = r
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (r.status().as_u16(), retry)
}

/// `GET path` from an address on a connection the server closes after answering; returns the answer once it
/// has closed, and so no longer counts the connection.
async fn get_and_close(app: &TestApp, from: &str, path: &str) -> String {
    let mut tcp = connect_from(app, from).await;
    let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    tcp.write_all(request.as_bytes()).await.unwrap();
    let (answer, closed) = read_some(&mut tcp, Duration::from_secs(5)).await;
    assert!(closed, "the server closes the connection: {answer}");
    answer
}

#[tokio::test]
async fn slow_headers_are_cut_off_and_health_answers_meanwhile() {
    let app = spawn_app(&[("HEADER_READ_TIMEOUT_SECONDS", "1")]).await;
    let mut slow = Vec::new();
    for _ in 0..20 {
        slow.push(slow_client(&app, "127.0.0.2").await);
    }

    assert_eq!(get_from(&app, "127.0.0.3", "/health").await.0, 200);
    let started = Instant::now();
    for tcp in &mut slow {
        let (_, closed) = read_some(tcp, Duration::from_secs(5)).await;
        assert!(closed, "a slow client was not cut off");
    }
    assert!(started.elapsed() < Duration::from_secs(4), "{:?}", started.elapsed());
}

#[tokio::test]
async fn a_slow_body_gets_408() {
    let app = spawn_app(&[("BODY_READ_TIMEOUT_SECONDS", "1")]).await;
    let (_, token) = app.create_user("slowpoke").await;
    let mut tcp = connect_from(&app, "127.0.0.1").await;
    let head = format!(
        "PUT /api/me/prefs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"language\""
    );
    tcp.write_all(head.as_bytes()).await.unwrap();

    let (answer, _) = read_some(&mut tcp, Duration::from_secs(5)).await;

    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"status\":408"), "{answer}");
}

#[tokio::test]
async fn beyond_the_caps_connections_get_a_clean_503_and_health_still_answers() {
    let app = spawn_app(&[
        ("MAX_CONNECTIONS", "4"),
        ("MAX_CONNECTIONS_PER_CLIENT", "2"),
        ("HEADER_READ_TIMEOUT_SECONDS", "30"),
    ])
    .await;
    // One client takes its two places, its four overflow places, and is then refused at once.
    let mut held = Vec::new();
    for _ in 0..6 {
        held.push(slow_client(&app, "127.0.0.2").await);
    }
    let mut refused = slow_client(&app, "127.0.0.2").await;
    let (answer, closed) = read_some(&mut refused, Duration::from_secs(3)).await;
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("\"code\":\"overloaded\"") && closed, "{answer}");

    // Another client is served in full while the global cap is not reached; it is gone before the next comes.
    let served = get_and_close(&app, "127.0.0.3", "/api/config").await;
    assert!(served.starts_with("HTTP/1.1 200"), "{served}");
    // A second slow client fills the global cap of four.
    held.push(slow_client(&app, "127.0.0.4").await);
    held.push(slow_client(&app, "127.0.0.4").await);
    eventually("the server to count the second client's places", 5, || async {
        get_from(&app, "127.0.0.5", "/api/config").await.0 == 503
    })
    .await;
    assert_eq!(
        get_from(&app, "127.0.0.5", "/health").await.0,
        200,
        "health answers at the cap"
    );
    assert_eq!(
        get_from(&app, "127.0.0.5", "/api/config").await,
        (503, "1".into()),
        "everything else is refused with Retry-After"
    );

    // When the slow clients go, the places are free again.
    drop(held);
    eventually("the places to be free again", 5, || async {
        get_from(&app, "127.0.0.5", "/api/config").await.0 == 200
    })
    .await;
}
