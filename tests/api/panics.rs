//! A panic (a bug) on any door ends only its request, turn or connection: an HTTP handler's with the
//! contract's 500 body, a WebSocket turn's with an error event and `done`; the next request and the next turn
//! work, and `task_failures_total{door}` and the admin panel's health count it. The failure is injected through
//! the test-only hook `App::faults`, which nothing on the wire can arm.

use serde_json::{Value, json};

use crate::common::{As, TestApp};
use crate::fakes::{Fake, Reply};
use crate::ws::{STT, connect, kinds, tone};

/// The door's count in the metrics and in the admin panel's health.
async fn failures(app: &TestApp, door: &str) -> (u64, u64) {
    let metrics = app.get("/api/metrics", As::AdminKey).await.body;
    let counted = metrics["counters"][format!("task_failures_total{{door=\"{door}\"}}")].as_u64();
    let health = app.get("/api/admin/providers", As::AdminKey).await.body;
    let shown = health["task_failures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["door"] == door)
        .map_or(0, |f| f["failures"].as_u64().unwrap());
    (counted.unwrap_or(0), shown)
}

#[tokio::test]
async fn a_handler_that_panics_answers_500_and_the_next_request_is_served() {
    let (app, token, _) = TestApp::with().user("anna").await;
    app.app.faults.arm("http");
    let failed = app.get("/api/me", As::Bearer(&token)).await;
    assert_eq!(failed.error(500), "internal");
    let next = app.get("/api/me", As::Bearer(&token)).await;
    assert_eq!(next.status, 200, "{}", next.body);
    assert_eq!(next.body["name"], "anna");
    assert_eq!(failures(&app, "http").await, (1, 1));
}

#[tokio::test]
async fn a_voice_turn_that_panics_ends_with_an_error_and_the_next_turn_on_the_connection_is_answered() {
    let stt = Fake::start().await;
    stt.always(STT, Reply::Json(json!({"text": "Wie spät ist es?"})));
    let llm = Fake::answering(&["Gleich drei."]).await;
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .stt(&stt)
        .env(&[("FILLER_AFTER_MS", "0")])
        .user("anna")
        .await;
    let mut ws = connect(&app, "/ws/voice", &token).await;
    ws.send(json!({"type": "start", "language": "de", "text_only": true}))
        .await;

    app.app.faults.arm("voice");
    ws.send_audio(&tone(300)).await;
    ws.send(json!({"type": "end"})).await;
    let failed = ws.turn().await;
    assert_eq!(kinds(&failed), ["error", "done"], "{failed:?}");
    let error: &Value = failed[0].json();
    assert_eq!(error["code"], "internal", "{error}");

    ws.send_audio(&tone(300)).await;
    ws.send(json!({"type": "end"})).await;
    let answered = ws.turn().await;
    assert_eq!(kinds(&answered), ["transcript", "ack", "semantic", "done"]);
    assert_eq!(failures(&app, "voice").await, (1, 1));
}
