use reqwest::Method;
use serde_json::json;

use crate::common::{As, spawn_app};

#[tokio::test]
async fn malformed_json_gets_400_and_wrong_types_get_422() {
    let app = spawn_app(&[]).await;
    let (_, token) = app.create_user("wim").await;
    let broken = app
        .request(Method::POST, "/api/me/memories", As::Bearer(&token))
        .header("Content-Type", "application/json")
        .body("{\"text\": ");
    assert_eq!(app.send(broken).await.error(400), "malformed_json");
    let wrong = app
        .call(
            Method::POST,
            "/api/me/memories",
            As::Bearer(&token),
            Some(json!({"text": 42})),
        )
        .await;
    wrong.error(422);
    let missing = app
        .call(Method::POST, "/api/me/memories", As::Bearer(&token), Some(json!({})))
        .await;
    missing.error(422);
    let plain = app
        .request(Method::POST, "/api/me/memories", As::Bearer(&token))
        .body("text=hi");
    app.send(plain).await.error(400);
    let not_object = app
        .call(
            Method::PUT,
            "/api/me/prefs",
            As::Bearer(&token),
            Some(json!(["language"])),
        )
        .await;
    not_object.error(422);
}

#[tokio::test]
async fn a_body_over_the_limit_gets_413_and_nothing_is_stored() {
    let app = spawn_app(&[("BODY_LIMIT_BYTES", "2000")]).await;
    let (id, token) = app.create_user("xena").await;
    let big = json!({"text": "y".repeat(5000)});
    let r = app
        .call(Method::POST, "/api/me/memories", As::Bearer(&token), Some(big))
        .await;
    assert_eq!(r.error(413), "payload_too_large");
    assert_eq!(app.rows_of("memories", &id).await, 0);
}

#[tokio::test]
async fn unknown_paths_and_methods_get_the_error_body() {
    let app = spawn_app(&[]).await;
    app.get("/api/nothing-here", As::Nobody).await.error(404);
    app.call(Method::PATCH, "/api/me", As::Nobody, None).await.error(405);
}

#[tokio::test]
async fn a_bad_query_and_a_websocket_route_without_handshake_get_the_error_body() {
    let app = spawn_app(&[]).await;
    let (_, token) = app.create_user("quinn").await;
    let r = app
        .call(
            Method::POST,
            "/api/transcribe?sample_rate=fast",
            As::Bearer(&token),
            None,
        )
        .await;
    assert_eq!(r.error(422), "invalid_request");
    assert!(r.body["error"]["message"].as_str().unwrap().contains("sample_rate"));
    let r = app.get("/ws/chat", As::Bearer(&token)).await;
    assert_eq!(r.error(400), "websocket_expected");
}
