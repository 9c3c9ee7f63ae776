//! A failing language model: the fallback order before the first token, a stream cut after it, and errors
//! that name the provider and its setting.

use serde_json::json;

use crate::common::{Stage, TestApp, free_port};
use crate::fakes::{CHAT, Fake, Reply, token_chunks, tokens};
use crate::turns::chat;

#[tokio::test]
async fn the_llm_falls_back_in_the_configured_order_when_the_first_fails_before_any_token() {
    let cloud = Fake::start().await;
    cloud.then(
        CHAT,
        Reply::Status(503, "{\"error\":{\"message\":\"overloaded\"}}".into()),
    );
    let local = Fake::start().await;
    local.then(CHAT, tokens(&["From local."]));
    let (app, token, _) = TestApp::with()
        .llm(&local)
        .first(Stage::Llm, &cloud, "local")
        .env(&[("CLOUD_LLM_API_KEY", "sk-cloud"), ("CLOUD_LLM_MODEL", "vendor/model-x")])
        .user("anna")
        .await;

    let r = chat(&app, &token, json!({"text": "Hello", "text_only": true})).await;

    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["text"], "From local.");
    assert_eq!(r.body["semantic"]["llm"]["provider"], "local");
    assert_eq!(r.body["semantic"]["fallbacks"], json!(["llm:cloud"]));
    let to_cloud = cloud.requests(CHAT);
    assert_eq!(to_cloud.len(), 1);
    assert_eq!(to_cloud[0].header("authorization").as_deref(), Some("Bearer sk-cloud"));
    assert_eq!(to_cloud[0].json()["model"], "vendor/model-x");
    assert_eq!(local.requests(CHAT)[0].json()["model"], "smollm2");
    assert!(
        local.requests(CHAT)[0].header("authorization").is_none(),
        "no key goes to the local server"
    );
}

#[tokio::test]
async fn an_error_event_before_the_first_token_falls_back() {
    let cloud = Fake::start().await;
    cloud.then(
        CHAT,
        Reply::Sse(vec![
            json!({"error": {"message": "rate limited upstream", "code": 429}}),
        ]),
    );
    let local = Fake::start().await;
    local.then(CHAT, tokens(&["Local answer."]));
    let (app, token, _) = TestApp::with()
        .llm(&local)
        .first(Stage::Llm, &cloud, "local")
        .user("anna")
        .await;
    let r = chat(&app, &token, json!({"text": "Hello", "text_only": true})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["text"], "Local answer.");
    assert_eq!(local.requests(CHAT).len(), 1);
}

#[tokio::test]
async fn a_stream_cut_after_some_tokens_is_an_error_and_does_not_fall_back() {
    let cloud = Fake::start().await;
    cloud.then(CHAT, Reply::SseCut(token_chunks(&["The answer", " is"])));
    let local = Fake::answering(&["Should not be asked."]).await;
    let (app, token, id) = TestApp::with()
        .llm(&local)
        .first(Stage::Llm, &cloud, "local")
        .user("anna")
        .await;
    let session = app.new_session(&token).await;

    let r = chat(&app, &token, json!({"text": "Hello", "session_id": session})).await;

    assert_eq!(r.error(502), "provider_failed");
    assert!(
        r.body["error"]["message"].as_str().unwrap().contains("cloud"),
        "{}",
        r.body
    );
    assert!(local.requests(CHAT).is_empty(), "no fallback once tokens were sent");
    assert_eq!(app.rows_of("messages", &id).await, 0, "a failed turn is not stored");
}

#[tokio::test]
async fn every_provider_failing_names_the_last_one_with_502() {
    let local = Fake::start().await;
    local.always(CHAT, Reply::Status(500, "boom".into()));
    let (app, token, _) = TestApp::with().llm(&local).user("anna").await;
    let r = chat(&app, &token, json!({"text": "Hello"})).await;
    assert_eq!(r.error(502), "provider_failed");
    let message = r.body["error"]["message"].as_str().unwrap();
    assert!(message.contains("local") && message.contains("500"), "{message}");
}

#[tokio::test]
async fn an_unreachable_model_server_is_named_with_its_address_and_setting() {
    // A port nobody listens on: bound, then closed.
    let port = free_port();
    let url = format!("http://user:secret@127.0.0.1:{port}/v1");
    let (app, token, _) = TestApp::with()
        .env(&[("LOCAL_LLM_URL", &url), ("MEMORY_EXTRACTION_ENABLED", "false")])
        .user("anna")
        .await;
    let r = chat(&app, &token, json!({"text": "Hello"})).await;
    assert_eq!(r.error(502), "provider_failed");
    let message = r.body["error"]["message"].as_str().unwrap();
    let address = format!("could not connect to http://127.0.0.1:{port}/v1/chat/completions");
    assert!(message.contains(&address), "{message}");
    assert!(
        message.contains("connection refused") && message.contains("LOCAL_LLM_URL"),
        "{message}"
    );
    assert!(!message.contains("secret"), "no credentials: {message}");
}
