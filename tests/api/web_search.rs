//! Web search as a tool of the turn: citations, each provider's protocol, the daily budget and the notices.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{As, TestApp};
use crate::fakes::{CHAT, Fake, Reply, tokens, tool_call};
use crate::turns::chat;

#[tokio::test]
async fn web_search_is_a_tool_whose_sources_become_citations() {
    let llm = Fake::start().await;
    llm.then(CHAT, tool_call("web_search", r#"{"query": "weather Berlin"}"#));
    llm.then(CHAT, tokens(&["It is sunny in Berlin [1]."]));
    let search = Fake::start().await;
    search.then(
        "/search",
        Reply::Json(json!({"query": "weather Berlin", "results": [
            {"url": "https://wetter.example/berlin", "title": "Berlin weather", "content": "Sunny, 21 °C"},
            {"url": "https://news.example/today", "title": "News", "content": "Sun all day"},
            {"url": "javascript:alert(1)", "title": "bad", "content": "dropped"}
        ]})),
    );
    let search_url = search.base.clone();
    let (app, token, id) = TestApp::with()
        .llm(&llm)
        .env(&[
            ("WEB_SEARCH_ENABLED", "true"),
            ("WEB_SEARCH_PROVIDER", "searxng"),
            ("SEARXNG_URL", &search_url),
        ])
        .user("anna")
        .await;

    let r = chat(
        &app,
        &token,
        json!({"text": "How is the weather in Berlin?", "text_only": true}),
    )
    .await;

    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["text"], "It is sunny in Berlin [1].");
    assert_eq!(
        r.body["semantic"]["citations"],
        json!(["https://wetter.example/berlin", "https://news.example/today"])
    );
    assert_eq!(r.body["semantic"]["sentences"], json!(["It is sunny in Berlin."]));
    let query = &search.requests("/search")[0].query;
    assert!(
        query.contains("q=weather+Berlin") && query.contains("format=json"),
        "{query}"
    );
    let asked = llm.requests(CHAT);
    assert_eq!(asked[0].json()["tools"][0]["function"]["name"], "web_search");
    let follow_up = asked[1].json();
    let messages = follow_up["messages"].as_array().unwrap();
    let call = &messages[messages.len() - 2];
    assert_eq!(call["role"], "assistant");
    assert_eq!(
        call["tool_calls"][0]["function"]["arguments"],
        r#"{"query": "weather Berlin"}"#
    );
    let result = &messages[messages.len() - 1];
    assert_eq!(result["role"], "tool");
    assert_eq!(result["tool_call_id"], "call_1");
    assert!(result["content"].as_str().unwrap().contains("Sunny, 21 °C"));
    assert_eq!(app.rows_of("web_search_usage", &id).await, 1);
}

#[tokio::test]
async fn tavily_and_brave_are_asked_with_their_own_protocols() {
    for provider in ["tavily", "brave"] {
        let llm = Fake::start().await;
        llm.then(CHAT, tool_call("web_search", r#"{"query":"news"}"#));
        llm.then(CHAT, tokens(&["Done."]));
        let search = Fake::start().await;
        search.always(
            "/search",
            Reply::Json(json!({"results": [{"url": "https://t.example/a", "title": "A", "content": "x"}]})),
        );
        search.always(
            "/web/search",
            Reply::Json(
                json!({"web": {"results": [{"url": "https://b.example/a", "title": "A", "description": "x"}]}}),
            ),
        );
        let base = search.base.clone();
        let (app, token, _) = TestApp::with()
            .llm(&llm)
            .env(&[
                ("WEB_SEARCH_ENABLED", "true"),
                ("WEB_SEARCH_PROVIDER", provider),
                ("TAVILY_URL", &base),
                ("TAVILY_API_KEY", "tvly-key"),
                ("BRAVE_URL", &base),
                ("BRAVE_API_KEY", "brave-key"),
            ])
            .user("anna")
            .await;
        let r = chat(&app, &token, json!({"text": "Any news?", "text_only": true})).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let got = search.all_requests();
        assert_eq!(got.len(), 1, "{provider}");
        if provider == "tavily" {
            assert_eq!(got[0].method, "POST");
            assert_eq!(got[0].header("authorization").as_deref(), Some("Bearer tvly-key"));
            assert_eq!(got[0].json()["query"], "news");
            assert_eq!(r.body["semantic"]["citations"], json!(["https://t.example/a"]));
        } else {
            assert_eq!(got[0].method, "GET");
            assert_eq!(got[0].header("x-subscription-token").as_deref(), Some("brave-key"));
            assert!(got[0].query.contains("q=news"));
            assert_eq!(r.body["semantic"]["citations"], json!(["https://b.example/a"]));
        }
    }
}

#[tokio::test]
async fn when_the_search_budget_is_used_up_the_tool_is_off_and_a_time_sensitive_question_gets_a_notice() {
    let llm = Fake::answering(&["Answer."]).await;
    llm.then(CHAT, tool_call("web_search", r#"{"query":"x"}"#));
    let search = Fake::start().await;
    search.always(
        "/search",
        Reply::Json(json!({"results": [{"url": "https://a.example", "title": "a", "content": "b"}]})),
    );
    let search_url = search.base.clone();
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .env(&[
            ("WEB_SEARCH_ENABLED", "true"),
            ("SEARXNG_URL", &search_url),
            ("WEB_SEARCH_DAILY_LIMIT", "1"),
        ])
        .user("anna")
        .await;
    let first = chat(&app, &token, json!({"text": "Tell me something", "text_only": true})).await;
    assert_eq!(first.body["semantic"]["citations"], json!(["https://a.example"]));
    assert_eq!(first.body["semantic"]["notice"], Value::Null);

    let second = chat(
        &app,
        &token,
        json!({"text": "What is the weather today?", "text_only": true}),
    )
    .await;
    let timeless = chat(
        &app,
        &token,
        json!({"text": "How tall is the Zugspitze?", "text_only": true}),
    )
    .await;
    let german = chat(
        &app,
        &token,
        json!({"text": "Wie ist das Wetter heute?", "language": "de", "text_only": true}),
    )
    .await;

    assert_eq!(second.status, 200, "{}", second.body);
    let notice = second.body["semantic"]["notice"].as_str().unwrap();
    assert!(notice.contains("used up"), "{notice}");
    assert_eq!(timeless.body["semantic"]["notice"], Value::Null);
    assert!(german.body["semantic"]["notice"].as_str().unwrap().contains("Websuche"));
    let asked = llm.requests(CHAT);
    assert!(
        asked[2].json().get("tools").is_none(),
        "no tool once the budget is used up"
    );
    assert_eq!(search.requests("/search").len(), 1);
}

#[tokio::test]
async fn a_user_with_web_search_switched_off_gets_the_switched_off_notice() {
    let llm = Fake::answering(&["Answer."]).await;
    let (app, token, id) = TestApp::with()
        .llm(&llm)
        .env(&[("WEB_SEARCH_ENABLED", "true"), ("SEARXNG_URL", "http://127.0.0.1:9")])
        .user("anna")
        .await;
    let r = app
        .call(
            Method::PUT,
            &format!("/api/admin/users/{id}/prefs"),
            As::AdminKey,
            Some(json!({"web_search_enabled": false})),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = chat(
        &app,
        &token,
        json!({"text": "What's the latest news?", "text_only": true}),
    )
    .await;
    assert!(
        r.body["semantic"]["notice"].as_str().unwrap().contains("switched off"),
        "{}",
        r.body
    );
    assert!(llm.requests(CHAT)[0].json().get("tools").is_none());
}
