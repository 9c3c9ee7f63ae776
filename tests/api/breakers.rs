//! Circuit breakers: a failing or hanging provider is skipped after its failures, probed after the cooldown,
//! and taken back once it works; its health is visible to the admin, in the metrics and to load balancers.

use std::sync::Arc;

use reqwest::Method;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

use crate::common::{As, Stage, TestApp, eventually};
use crate::fakes::{CHAT, Fake, Reply, token_chunks, tokens};

/// The model list a probe asks for.
const MODELS: &str = "/v1/models";

async fn chat(app: &TestApp, token: &str) -> crate::common::Reply {
    let body = json!({"text": "Hello", "text_only": true});
    app.call(Method::POST, "/api/chat", As::Bearer(token), Some(body)).await
}

/// The admin's view of one provider.
async fn health_of(app: &TestApp, stage: &str, id: &str) -> Value {
    let all = app.get("/api/admin/providers", As::AdminKey).await;
    assert_eq!(all.status, 200, "{}", all.body);
    let providers = all.body["providers"].as_array().unwrap().clone();
    providers
        .into_iter()
        .find(|p| p["stage"] == stage && p["id"] == id)
        .unwrap_or_else(|| panic!("{stage} {id} is listed"))
}

fn models() -> Reply {
    Reply::Json(json!({"object": "list", "data": [{"id": "model-x", "object": "model"}]}))
}

#[tokio::test]
async fn a_failing_provider_is_skipped_after_its_failures_and_taken_back_once_a_probe_finds_it_working() {
    let cloud = Fake::start().await;
    cloud.always(
        CHAT,
        Reply::Status(500, r#"{"error": {"message": "overloaded"}}"#.into()),
    );
    cloud.always(MODELS, Reply::Status(503, "down".into()));
    let local = Fake::start().await;
    local.always(CHAT, tokens(&["From local."]));
    let (app, token, _) = TestApp::with()
        .llm(&local)
        .first(Stage::Llm, &cloud, "local")
        .env(&[("BREAKER_FAILURES", "2"), ("BREAKER_COOLDOWN_SECONDS", "1")])
        .user("anna")
        .await;
    assert_eq!(health_of(&app, "llm", "cloud").await["state"], "closed");
    assert!(
        app.prometheus()
            .await
            .contains(r#"provider_state{stage="llm",provider="cloud"} 0"#),
        "the gauge is there before anything failed"
    );

    for _ in 0..3 {
        let r = chat(&app, &token).await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.body["text"], "From local.");
        assert_eq!(r.body["semantic"]["fallbacks"], json!(["llm:cloud"]));
    }
    assert_eq!(
        cloud.requests(CHAT).len(),
        2,
        "after two failures the third turn did not ask the failing provider"
    );
    let sick = health_of(&app, "llm", "cloud").await;
    assert!(sick["state"] == "open" || sick["state"] == "half_open", "{sick}");
    assert!(sick["last_error"].as_str().unwrap().contains("500"), "{sick}");
    assert_eq!(sick["calls"], 2);
    assert_eq!(sick["error_rate"], 1.0);
    assert_eq!(health_of(&app, "llm", "local").await["state"], "closed");
    let text = app.prometheus().await;
    assert!(
        text.contains(r#"provider_state{stage="llm",provider="cloud"} 2"#),
        "{text}"
    );
    assert!(
        text.contains(r#"provider_calls_total{stage="llm",provider="cloud",outcome="skipped"} 1"#),
        "{text}"
    );

    // The probe asks for the model list, finds it failing, and tries again after the next cooldown.
    eventually("a probe", 5, || async { !cloud.requests(MODELS).is_empty() }).await;
    assert_ne!(health_of(&app, "llm", "cloud").await["state"], "closed");
    cloud.always(CHAT, tokens(&["From the cloud."]));
    cloud.always(MODELS, models());
    eventually("the breaker closing", 5, || async {
        health_of(&app, "llm", "cloud").await["state"] == "closed"
    })
    .await;
    let r = chat(&app, &token).await;
    assert_eq!(r.body["text"], "From the cloud.");
    assert_eq!(r.body["semantic"]["fallbacks"], json!([]));
}

#[tokio::test]
async fn a_hanging_provider_costs_one_timeout_not_one_per_turn() {
    let cloud = Fake::start().await;
    let never = Arc::new(Semaphore::new(0));
    cloud.always(CHAT, Reply::Gated(never, Box::new(tokens(&["Too late."]))));
    let local = Fake::answering(&["From local."]).await;
    let (app, token, _) = TestApp::with()
        .llm(&local)
        .first(Stage::Llm, &cloud, "local")
        .env(&[("BREAKER_FAILURES", "1"), ("PROVIDER_TIMEOUT_SECONDS", "1")])
        .user("anna")
        .await;

    let first = chat(&app, &token).await;
    assert_eq!(first.body["text"], "From local.", "{}", first.body);
    assert!(
        health_of(&app, "llm", "cloud").await["last_error"]
            .as_str()
            .unwrap()
            .contains("timed out"),
    );
    let second = chat(&app, &token).await;
    assert_eq!(second.body["text"], "From local.");
    assert_eq!(cloud.requests(CHAT).len(), 1, "the second turn did not wait for it");
}

#[tokio::test]
async fn a_broken_stream_counts_and_a_stage_without_a_usable_provider_answers_at_once_and_is_not_ready() {
    let local = Fake::start().await;
    local.always(CHAT, Reply::SseCut(token_chunks(&["The answer", " is"])));
    let (app, token, _) = TestApp::with()
        .llm(&local)
        .env(&[("BREAKER_FAILURES", "1"), ("BREAKER_COOLDOWN_SECONDS", "600")])
        .user("anna")
        .await;
    let ready = app.get("/health/ready", As::Nobody).await;
    assert_eq!(ready.status, 200, "{}", ready.body);
    assert_eq!(ready.body["status"], "ready");

    let broken = chat(&app, &token).await;
    assert_eq!(broken.error(502), "provider_failed");
    let skipped = chat(&app, &token).await;
    assert_eq!(skipped.error(502), "provider_failed");
    let message = skipped.body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("every llm provider is failing: local (tried again in"),
        "{message}"
    );
    assert_eq!(
        local.requests(CHAT).len(),
        1,
        "the open breaker answered without a call"
    );

    let ready = app.get("/health/ready", As::Nobody).await;
    assert_eq!(ready.status, 503, "{}", ready.body);
    let stages = ready.body["stages"].as_array().unwrap();
    let llm = stages.iter().find(|s| s["stage"] == "llm").unwrap();
    assert_eq!(llm["status"], "degraded");
    let tts = stages.iter().find(|s| s["stage"] == "tts").unwrap();
    assert_eq!(tts["status"], "ready");
    let health = app.get("/health", As::Nobody).await;
    assert_eq!(health.status, 200, "/health stays a liveness check");
}

#[tokio::test]
async fn a_provider_is_working_only_once_a_call_or_a_check_reached_it() {
    let local = Fake::answering(&["Hello."]).await;
    local.always(MODELS, models());
    // Nothing listens where the cloud recogniser is said to be.
    let nowhere = format!("http://127.0.0.1:{}/v1", crate::common::free_port());
    let (app, token, _) = TestApp::with()
        .llm(&local)
        .env(&[("OPENAI_STT_URL", nowhere.as_str())])
        .user("anna")
        .await;
    let stt = health_of(&app, "stt", "openai").await;
    assert_eq!(stt["configured"], true, "{stt}");
    assert!(stt["verified_at"].is_null(), "not working by default: {stt}");
    assert!(health_of(&app, "llm", "local").await["verified_at"].is_null());

    // A turn reached the model: it is known to work.
    assert_eq!(chat(&app, &token).await.status, 200);
    assert!(health_of(&app, "llm", "local").await["verified_at"].is_string());

    // The admin checks the recogniser: nobody answers, and the panel says so.
    let checked = app
        .call(
            Method::POST,
            "/api/admin/providers/stt/openai/check",
            As::AdminKey,
            None,
        )
        .await;
    assert_eq!(checked.status, 200, "{}", checked.body);
    assert!(checked.body["verified_at"].is_null(), "{}", checked.body);
    assert!(checked.body["last_error"].is_string(), "{}", checked.body);
    assert_eq!(checked.body["calls"], 1);
    // A check of the model asks for its model list and finds it working.
    let model = app
        .call(Method::POST, "/api/admin/providers/llm/local/check", As::AdminKey, None)
        .await;
    assert!(model.body["verified_at"].is_string(), "{}", model.body);
    assert_eq!(local.requests(MODELS).len(), 1);
    let unknown = app
        .call(
            Method::POST,
            "/api/admin/providers/llm/nowhere/check",
            As::AdminKey,
            None,
        )
        .await;
    assert_eq!(unknown.status, 404);
    let anna = app
        .call(
            Method::POST,
            "/api/admin/providers/llm/local/check",
            As::Bearer(&token),
            None,
        )
        .await;
    assert_eq!(anna.status, 403);
}
