//! The daily quota and the costs a turn records.

use reqwest::Method;
use serde_json::json;

use crate::common::{As, Stage, TestApp};
use crate::fakes::{CHAT, Fake, tokens_with_usage};
use crate::turns::chat;

#[tokio::test]
async fn the_daily_quota_refuses_the_request_after_exactly_the_limit() {
    let llm = Fake::answering(&["Ok."]).await;
    let (app, token, id) = TestApp::with()
        .llm(&llm)
        .env(&[("DAILY_REQUEST_LIMIT", "3")])
        .user("anna")
        .await;
    for _ in 0..3 {
        let r = chat(&app, &token, json!({"text": "Hi", "text_only": true})).await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = chat(&app, &token, json!({"text": "Hi", "text_only": true})).await;
    assert_eq!(r.error(429), "quota_exceeded");
    assert!(r.body["error"]["message"].as_str().unwrap().contains("3 requests"));
    let speak = app
        .call(
            Method::POST,
            "/api/speak",
            As::Bearer(&token),
            Some(json!({"text": "Hi"})),
        )
        .await;
    assert_eq!(speak.error(429), "quota_exceeded");
    assert_eq!(llm.requests(CHAT).len(), 3);

    // A per-user limit overrides the global one.
    let r = app
        .call(
            Method::PUT,
            &format!("/api/admin/users/{id}/prefs"),
            As::AdminKey,
            Some(json!({"daily_request_limit": 5})),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(
        chat(&app, &token, json!({"text": "Hi", "text_only": true}))
            .await
            .status,
        200
    );
}

#[tokio::test]
async fn the_cost_of_the_usage_chunk_is_recorded_per_user_day_and_category() {
    let cloud = Fake::start().await;
    cloud.always(
        CHAT,
        tokens_with_usage(
            &["Priced."],
            json!({"prompt_tokens": 100, "completion_tokens": 20, "cost": 0.0021}),
        ),
    );
    let (app, token, id) = TestApp::with()
        .llm(&cloud)
        .first(Stage::Llm, &cloud, "")
        .user("anna")
        .await;
    for _ in 0..2 {
        let r = chat(&app, &token, json!({"text": "Hi", "text_only": true})).await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let (category, cost, requests): (String, f64, i64) = voice_gateway::with_pool!(app.store, pool => sqlx::query_as("SELECT category, cost, requests FROM cost_usage WHERE user_id = $1")
            .bind(&id)
            .fetch_one(pool)
            .await
            .unwrap());
    assert_eq!(category, "llm");
    assert!((cost - 0.0042).abs() < 1e-9, "{cost}");
    assert_eq!(requests, 2);
}
