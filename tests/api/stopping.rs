//! A quick stop: Ctrl-C with a carer's board, a voice page and a telephone call open ends the gateway's
//! process within three seconds, and each is told: the board's event stream ends, the page's socket closes
//! with 1001 (going away), the caller gets a BYE.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use crate::common::{eventually, free_port};
use crate::doors::Gateway;
use crate::sip_ends::Handset;

const KEY: &str = "admin-key-of-the-stop-test";

/// Creates a user on `gateway` with the admin key: their id and token.
async fn user(client: &reqwest::Client, gateway: &Gateway, name: &str) -> (String, String) {
    let created: Value = client
        .post(gateway.url("/api/admin/users"))
        .header("X-Admin-Key", KEY)
        .json(&json!({"name": name}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["id"].as_str().expect("an id").to_string();
    (id, created["token"].as_str().unwrap().to_string())
}

/// The 200 a handset answers `request` with: its Via, From, To, Call-ID and CSeq.
fn ok_to(request: &str) -> String {
    let copied: Vec<&str> = request
        .lines()
        .filter(|l| {
            ["Via:", "From:", "To:", "Call-ID:", "CSeq:"]
                .iter()
                .any(|h| l.starts_with(h))
        })
        .collect();
    format!("SIP/2.0 200 OK\r\n{}\r\nContent-Length: 0\r\n\r\n", copied.join("\r\n"))
}

#[tokio::test]
async fn ctrl_c_with_a_board_a_voice_page_and_a_call_open_ends_within_three_seconds_and_tells_each() {
    let sip = SocketAddr::from(([127, 0, 0, 1], free_port())).to_string();
    let env = [
        ("AUTH_ENABLED", "true"),
        ("ADMIN_API_KEY", KEY),
        ("SIP_ADDR", sip.as_str()),
        ("SIP_ALLOWED_FROM", "127.0.0.1"),
        ("PHONE_UNKNOWN_CALLERS", "guest"),
        ("DEFAULT_TTS_PROVIDER", "espeak"),
    ];
    let mut gateway = Gateway::start_with(&env, None).await;
    let client = reqwest::Client::new();
    let (erika, token) = user(&client, &gateway, "erika").await;
    let (anna, anna_token) = user(&client, &gateway, "anna").await;
    let carers = client
        .put(gateway.url(&format!("/api/admin/users/{erika}/carers")))
        .header("X-Admin-Key", KEY)
        .json(&json!({"carers": [anna]}))
        .send()
        .await
        .unwrap();
    assert_eq!(carers.status(), 200);
    let mut board = client
        .get(gateway.url("/api/carer/events"))
        .bearer_auth(&anna_token)
        .send()
        .await
        .unwrap();
    assert_eq!(board.status(), 200);
    let page_url = format!("ws://127.0.0.1:{}/ws/voice?token={token}", gateway.port);
    let (mut page, _) = tokio_tungstenite::connect_async(page_url)
        .await
        .expect("the page's socket");
    let handset = Handset::new(sip.parse().unwrap(), "stop-1").await;
    let ok = handset.call("").await;
    assert!(ok.starts_with("SIP/2.0 200"), "{ok}");
    // The call is open once its caller hears the assistant (the greeting's first RTP packet).
    let mut packet = [0u8; 2048];
    let heard = tokio::time::timeout(Duration::from_secs(20), handset.audio.recv_from(&mut packet)).await;
    assert!(heard.is_ok(), "no audio on the call");

    let asked = Instant::now();
    rustix::process::kill_process(
        rustix::process::Pid::from_raw(gateway.child.id() as i32).unwrap(),
        rustix::process::Signal::INT,
    )
    .unwrap();
    let bye = handset.next("BYE ").await;
    assert!(bye.contains("Call-ID: stop-1"), "{bye}");
    handset.send(&ok_to(&bye)).await;
    let closed = loop {
        match page.next().await {
            Some(Ok(Message::Close(frame))) => break frame.map(|f| u16::from(f.code)),
            Some(Ok(_)) => continue,
            other => panic!("the page's socket ended without a close: {other:?}"),
        }
    };
    assert_eq!(closed, Some(1001), "going away");
    while let Some(chunk) = board.chunk().await.expect("the board's stream ends cleanly") {
        assert!(!chunk.is_empty());
    }
    let status = eventually("the process ends", 15, || {
        let exited = gateway.child.try_wait().unwrap();
        async move { exited }
    })
    .await;
    let took = asked.elapsed();
    println!("stopped {took:?} after SIGINT");
    assert_eq!(status.code(), Some(0), "{}", gateway.log());
    assert!(
        took < Duration::from_secs(3),
        "stopped after {took:?}: {}",
        gateway.log()
    );
}
