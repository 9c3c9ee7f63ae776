//! Only the gateway's own host names are served. A DNS-rebinding page's browser sends the page's own `Host`
//! (and, on a WebSocket, its `Origin` with the same name): that request is answered 421 `unknown_host` before
//! any route runs, with sign-in and in `local-dev`, where the anonymous user needs none.

use futures_util::StreamExt;
use reqwest::Method;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::common::{As, TestApp, spawn_app};

/// A request to `path` naming `host`.
async fn at(app: &TestApp, path: &str, host: &str) -> crate::common::Reply {
    let request = app.request(Method::GET, path, As::Nobody).header("Host", host);
    app.send(request).await
}

/// The status a WebSocket handshake to `path` gets when it names `host` and comes from a page on `host`.
async fn handshake(app: &TestApp, path: &str, host: &str) -> u16 {
    let mut request = format!("ws://{}{path}", app.addr).into_client_request().unwrap();
    let headers = request.headers_mut();
    headers.insert("Host", host.parse().unwrap());
    headers.insert("Origin", format!("http://{host}").parse().unwrap());
    match tokio_tungstenite::connect_async(request).await {
        Ok((mut ws, response)) => {
            let _ = ws.close(None).await;
            let _ = ws.next().await;
            response.status().as_u16()
        }
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => response.status().as_u16(),
        Err(err) => panic!("the handshake got no answer: {err}"),
    }
}

#[tokio::test]
async fn a_rebinding_pages_host_is_refused_in_local_dev_and_with_sign_in() {
    for auth in ["false", "true"] {
        let app = spawn_app(&[("AUTH_ENABLED", auth), ("PROFILE", "local-dev")]).await;
        let (_, token) = app.create_user("anna").await;
        let port = app.addr.port();
        let foreign = format!("attacker.example:{port}");
        for path in ["/", "/api/me", "/api/config", "/health"] {
            let r = at(&app, path, &foreign).await;
            assert_eq!(r.error(421), "unknown_host", "{path} with AUTH_ENABLED={auth}");
        }
        let voice = format!("/ws/voice?token={token}");
        assert_eq!(handshake(&app, &voice, &foreign).await, 421, "AUTH_ENABLED={auth}");
        assert_eq!(handshake(&app, "/ws/chat", &foreign).await, 421, "AUTH_ENABLED={auth}");

        // Its own names are served, the WebSocket from its own page opens.
        for own in [
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            format!("[::1]:{port}"),
        ] {
            assert_eq!(at(&app, "/api/config", &own).await.status, 200, "{own}");
        }
        let own = format!("localhost:{port}");
        assert_eq!(handshake(&app, &voice, &own).await, 101, "AUTH_ENABLED={auth}");
    }
}

#[tokio::test]
async fn the_names_allowed_hosts_and_public_url_give_are_served_and_no_other() {
    let app = spawn_app(&[
        ("ALLOWED_HOSTS", "assistant.home, .family.example"),
        ("PUBLIC_URL", "https://hilfe.example.org"),
    ])
    .await;
    for own in [
        "assistant.home",
        "kitchen.family.example",
        "hilfe.example.org",
        "hilfe.example.org:443",
    ] {
        assert_eq!(at(&app, "/api/config", own).await.status, 200, "{own}");
    }
    for foreign in [
        "evilfamily.example",
        "hilfe.example.org.attacker.example",
        "192.0.2.7:8080",
    ] {
        assert_eq!(
            at(&app, "/api/config", foreign).await.error(421),
            "unknown_host",
            "{foreign}"
        );
    }
}
