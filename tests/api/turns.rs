//! Conversational turns over REST against fake providers that speak the real protocols.

use std::sync::Arc;

use base64::Engine;
use reqwest::Method;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

use crate::common::{As, Stage, TestApp, eventually, free_port};
use crate::fakes::{CHAT, Fake, Reply, completion, token_chunks, tokens, tokens_with_usage, tool_call, wav, wav_info};

/// A gateway whose local LLM is `llm`, speaking with espeak-ng, memory extraction off unless asked for.
async fn chat(app: &TestApp, token: &str, body: Value) -> crate::common::Reply {
    app.call(Method::POST, "/api/chat", As::Bearer(token), Some(body)).await
}

fn audio_of(body: &Value) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(body["audio"].as_str().expect("audio"))
        .unwrap()
}

#[tokio::test]
async fn a_question_gets_a_streamed_answer_spoken_by_espeak_and_stored_in_the_session() {
    let llm = Fake::start().await;
    llm.then(CHAT, tokens(&["Hello", " Anna", ". It is", " 3 degrees", " today."]));
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .env(&[("LOCAL_LLM_MODEL", "qwen3:4b"), ("LLM_TEMPERATURE", "0.3")])
        .user("anna")
        .await;
    let session = app.new_session(&token).await;

    let r = chat(&app, &token, json!({"text": "How cold is it?", "session_id": session})).await;

    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["text"], "Hello Anna. It is 3 degrees today.");
    assert_eq!(r.body["session_id"], session.as_str());
    assert_eq!(
        r.body["semantic"]["sentences"],
        json!(["Hello Anna.", "It is three degrees today."])
    );
    assert_eq!(r.body["semantic"]["citations"], json!([]));
    assert_eq!(
        r.body["semantic"]["llm"],
        json!({"provider": "local", "model": "qwen3:4b"})
    );
    assert_eq!(r.body["semantic"]["tts"]["provider"], "espeak");
    assert_eq!(r.body["audio_format"], "wav");
    let (rate, channels, bits, seconds) = wav_info(&audio_of(&r.body));
    assert_eq!((rate, channels, bits), (22_050, 1, 16));
    assert!((1.0..15.0).contains(&seconds), "{seconds} s for two short sentences");

    let sent = llm.requests(CHAT)[0].json();
    assert_eq!(sent["model"], "qwen3:4b");
    assert_eq!(sent["stream"], true);
    assert_eq!(sent["stream_options"]["include_usage"], true);
    assert_eq!(sent["temperature"], 0.3);
    assert_eq!(
        sent["max_tokens"], 316,
        "a spoken answer: SPOKEN_MAX_TOKENS and a margin"
    );
    assert!(sent.get("tools").is_none(), "web search is off: no tools");
    let messages = sent["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0]["role"], "system");
    assert!(
        messages[0]["content"]
            .as_str()
            .unwrap()
            .contains("You are talking with anna.")
    );
    assert_eq!(messages[1], json!({"role": "user", "content": "How cold is it?"}));

    assert_eq!(
        app.stored_texts(&session, &token).await,
        ["How cold is it?", "Hello Anna. It is 3 degrees today."]
    );
}

#[tokio::test]
async fn a_server_that_answers_without_streaming_is_read_too_and_stateless_turns_store_nothing() {
    let llm = Fake::start().await;
    llm.then(CHAT, completion("Plain answer."));
    let (app, token, id) = TestApp::with().llm(&llm).user("anna").await;

    let r = chat(&app, &token, json!({"text": "Hi", "text_only": true})).await;

    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["text"], "Plain answer.");
    assert_eq!(r.body["session_id"], Value::Null);
    assert_eq!(r.body["audio"], Value::Null);
    assert_eq!(app.rows_of("messages", &id).await, 0);
}

#[tokio::test]
async fn history_and_memories_reach_the_llm_and_debug_reports_their_counts() {
    let llm = Fake::answering(&["Fine."]).await;
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .env(&[("HISTORY_MAX_MESSAGES", "4")])
        .user("anna")
        .await;
    for text in ["I like green tea.", "My dog is Bello."] {
        let r = app
            .call(
                Method::POST,
                "/api/me/memories",
                As::Bearer(&token),
                Some(json!({"text": text})),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.body);
    }
    let session = app.new_session(&token).await;
    for n in 1..=3 {
        let r = chat(
            &app,
            &token,
            json!({"text": format!("question {n}"), "session_id": session, "text_only": true}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }

    let r = app
        .call(
            Method::POST,
            "/api/chat?debug=true",
            As::Bearer(&token),
            Some(json!({"text": "question 4", "session_id": session, "text_only": true})),
        )
        .await;

    assert_eq!(r.body["history_len"], 4);
    assert_eq!(r.body["memories_len"], 2);
    let last = llm.requests(CHAT).pop().unwrap().json();
    let messages = last["messages"].as_array().unwrap();
    let system = messages[0]["content"].as_str().unwrap();
    assert!(
        system.contains("I like green tea.") && system.contains("My dog is Bello."),
        "{system}"
    );
    let texts: Vec<&str> = messages[1..].iter().map(|m| m["content"].as_str().unwrap()).collect();
    assert_eq!(texts, vec!["question 2", "Fine.", "question 3", "Fine.", "question 4"]);
    let plain = chat(&app, &token, json!({"text": "x", "text_only": true})).await;
    assert!(plain.body.get("history_len").is_none(), "only with ?debug");
}

#[tokio::test]
async fn only_the_newest_memories_that_fit_the_budget_enter_the_prompt() {
    let llm = Fake::answering(&["Fine."]).await;
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .env(&[("MEMORY_PROMPT_MAX_CHARS", "40")])
        .user("anna")
        .await;
    for text in ["The oldest fact of all.", "A middle fact here.", "The newest fact."] {
        let r = app
            .call(
                Method::POST,
                "/api/me/memories",
                As::Bearer(&token),
                Some(json!({"text": text})),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.body);
    }

    let r = app
        .call(
            Method::POST,
            "/api/chat?debug=true",
            As::Bearer(&token),
            Some(json!({"text": "Hi", "text_only": true})),
        )
        .await;

    assert_eq!(r.body["memories_len"], 2, "{}", r.body);
    let system = llm.requests(CHAT)[0].json()["messages"][0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(system.contains("A middle fact here.\n- The newest fact."), "{system}");
    assert!(!system.contains("oldest"), "{system}");
}

#[tokio::test]
async fn the_anonymous_user_gets_no_name_or_memories_in_the_prompt() {
    let llm = Fake::answering(&["Hi."]).await;
    let app = TestApp::with()
        .llm(&llm)
        .env(&[("AUTH_ENABLED", "false")])
        .start()
        .await;
    app.call(
        Method::POST,
        "/api/me/memories",
        As::Nobody,
        Some(json!({"text": "secret fact"})),
    )
    .await;
    let r = app
        .call(
            Method::POST,
            "/api/chat?debug",
            As::Nobody,
            Some(json!({"text": "Hello", "text_only": true})),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["memories_len"], 0);
    let system = llm.requests(CHAT)[0].json()["messages"][0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        !system.contains("secret fact") && !system.contains("talking with"),
        "{system}"
    );
}

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

#[tokio::test]
async fn memory_extraction_runs_on_the_nth_turn_in_the_background_without_delaying_it() {
    let llm = Fake::answering(&["Nice."]).await;
    let gate = Arc::new(Semaphore::new(0));
    llm.when(
        |r| r.is_extraction(),
        Reply::Gated(
            gate.clone(),
            Box::new(tokens(&["- Anna likes green tea.\n- Anna's dog is called Bello.\n"])),
        ),
    );
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .env(&[
            ("MEMORY_EXTRACTION_ENABLED", "true"),
            ("MEMORY_EXTRACTION_EVERY_N_TURNS", "2"),
            ("MEMORY_EXTRACTION_MAX", "10"),
        ])
        .user("anna")
        .await;
    let session = app.new_session(&token).await;
    let turn = |text: &'static str| {
        chat(
            &app,
            &token,
            json!({"text": text, "session_id": session, "text_only": true}),
        )
    };

    assert_eq!(turn("I drink green tea every morning.").await.status, 200);
    assert!(
        llm.all_requests().iter().all(|r| !r.is_extraction()),
        "not on the first turn"
    );
    let second = turn("My dog Bello is five.").await;

    // The answer is back while the extraction's LLM call is still held open by the gate.
    assert_eq!(second.status, 200);
    eventually("the second turn's extraction", 5, || async {
        llm.all_requests().iter().any(|r| r.is_extraction())
    })
    .await;
    let extraction = llm.all_requests().into_iter().find(|r| r.is_extraction()).unwrap();
    assert!(
        extraction.body.windows(15).any(|w| w == b"green tea every"),
        "the conversation is sent"
    );
    let memories = app.get("/api/me/memories", As::Bearer(&token)).await;
    assert_eq!(memories.body.as_array().unwrap().len(), 0);

    gate.add_permits(1);
    let memories = || async {
        let r = app.get("/api/me/memories", As::Bearer(&token)).await;
        let texts: Vec<(Value, Value)> = r
            .body
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["text"].clone(), m["source"].clone()))
            .collect();
        texts
    };
    eventually("the extracted memories", 5, || async { memories().await.len() == 2 }).await;
    let texts = memories().await;
    assert_eq!(
        texts,
        vec![
            (json!("Anna likes green tea."), json!("extraction")),
            (json!("Anna's dog is called Bello."), json!("extraction"))
        ]
    );
}

#[tokio::test]
async fn a_failing_memory_extraction_never_fails_the_turn() {
    let llm = Fake::answering(&["Ok."]).await;
    llm.when(|r| r.is_extraction(), Reply::Status(500, "down".into()));
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .env(&[
            ("MEMORY_EXTRACTION_ENABLED", "true"),
            ("MEMORY_EXTRACTION_EVERY_N_TURNS", "1"),
        ])
        .user("anna")
        .await;
    let session = app.new_session(&token).await;
    let r = chat(
        &app,
        &token,
        json!({"text": "I live in Hamburg.", "session_id": session, "text_only": true}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["text"], "Ok.");
    // The extraction really ran (and failed) behind the answer; the session and the memories are intact.
    eventually("the extraction attempt", 5, || async {
        llm.all_requests().iter().any(|r| r.is_extraction())
    })
    .await;
    let memories = app.get("/api/me/memories", As::Bearer(&token)).await;
    assert_eq!(memories.body, json!([]));
    let stored = app.get(&format!("/api/sessions/{session}"), As::Bearer(&token)).await;
    assert_eq!(stored.body["messages"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn piper_speaks_the_languages_it_has_voices_for_and_espeak_the_others() {
    let llm = Fake::answering(&["Good day."]).await;
    let piper = Fake::start().await;
    piper.always("/v1/audio/speech", Reply::Bytes("audio/wav", wav(2205)));
    let voices = tempfile::tempdir().unwrap();
    for file in [
        "en_US-joe-medium.onnx",
        "en_US-joe-medium.onnx.json",
        "fr_FR-siwis-low.onnx",
    ] {
        std::fs::write(voices.path().join(file), b"{}").unwrap();
    }
    let (piper_url, dir) = (piper.v1(), voices.path().to_str().unwrap().to_string());
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .env(&[
            ("DEFAULT_TTS_PROVIDER", "piper"),
            ("PIPER_URL", &piper_url),
            ("PIPER_VOICE_DIR", &dir),
        ])
        .user("anna")
        .await;

    let english = chat(&app, &token, json!({"text": "Hello", "language": "en"})).await;
    assert_eq!(english.status, 200, "{}", english.body);
    assert_eq!(english.body["semantic"]["tts"]["provider"], "piper");
    assert_eq!(english.body["semantic"]["tts_fallback"], false);
    let sent = piper.requests("/v1/audio/speech")[0].json();
    assert_eq!(
        sent,
        json!({"model": "piper", "input": "Good day.", "voice": "en_US-joe-medium", "response_format": "wav"})
    );
    assert_eq!(wav_info(&audio_of(&english.body)).0, 24_000);

    // No German voice (and a French one without its .json is no voice): espeak-ng speaks, and says so.
    let german = chat(&app, &token, json!({"text": "Hallo", "language": "de"})).await;
    assert_eq!(german.body["semantic"]["tts"]["provider"], "espeak");
    assert_eq!(german.body["semantic"]["tts_fallback"], true);
    assert_eq!(piper.requests("/v1/audio/speech").len(), 1);

    // The voice menu lists the voices that exist.
    let config = app.get("/api/config", As::Bearer(&token)).await;
    let piper_voices: Vec<&Value> = config.body["tts_menu"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["provider"] == "piper")
        .collect();
    assert_eq!(piper_voices.len(), 1, "{}", config.body["tts_menu"]);
    assert_eq!(piper_voices[0]["voice"], "en_US-joe-medium");
    assert_eq!(piper_voices[0]["languages"], json!(["en"]));

    // The page's automatic choice names the voice that really speaks each language.
    let me = app.get("/api/me", As::Bearer(&token)).await;
    assert_eq!(
        me.body["voices"]["en"],
        json!({"provider": "piper", "voice": "en_US-joe-medium"})
    );
    assert_eq!(me.body["voices"]["de"], json!({"provider": "espeak", "voice": "de"}));
    // A voice the person chose in their prefs is the automatic one.
    let r = app
        .call(
            Method::PUT,
            "/api/me/prefs",
            As::Bearer(&token),
            Some(json!({"tts_provider": "espeak", "voice": "en-us"})),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let me = app.get("/api/me", As::Bearer(&token)).await;
    assert_eq!(me.body["voices"]["en"], json!({"provider": "espeak", "voice": "en-us"}));
}

#[tokio::test]
async fn a_cloud_voice_that_cannot_speak_the_language_hands_over_to_the_local_voice() {
    let llm = Fake::answering(&["Guten Tag."]).await;
    let tts = Fake::start().await;
    tts.always("/v1/audio/speech", Reply::Bytes("audio/wav", wav(2400)));
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .first(Stage::Tts, &tts, "")
        .env(&[
            ("OPENAI_TTS_VOICE", "af_heart"),
            ("OPENAI_TTS_MODEL", "kokoro"),
            ("OPENAI_TTS_UNSUPPORTED_LANGUAGES", "de,pl"),
        ])
        .user("anna")
        .await;

    let german = chat(&app, &token, json!({"text": "Hallo", "language": "de"})).await;
    assert_eq!(german.status, 200, "{}", german.body);
    assert_eq!(german.body["semantic"]["tts_fallback"], true);
    assert_eq!(german.body["semantic"]["tts"]["provider"], "espeak");
    assert!(tts.requests("/v1/audio/speech").is_empty());
    assert!(wav_info(&audio_of(&german.body)).3 > 0.3);

    let english = chat(&app, &token, json!({"text": "Hello", "language": "en"})).await;
    assert_eq!(english.body["semantic"]["tts_fallback"], false);
    assert_eq!(english.body["semantic"]["tts"]["provider"], "openai");
    let sent = tts.requests("/v1/audio/speech")[0].json();
    assert_eq!(
        sent,
        json!({"model": "kokoro", "input": "Guten Tag.", "voice": "af_heart", "response_format": "wav"})
    );
    assert_eq!(wav_info(&audio_of(&english.body)).0, 24_000);
}

#[tokio::test]
async fn a_speech_server_that_answers_mp3_or_opus_instead_of_wav_is_still_heard() {
    let llm = Fake::answering(&["Good day."]).await;
    let tts = Fake::start().await;
    let fixture = |name: &str| crate::speech::format_fixture(name);
    tts.then("/v1/audio/speech", Reply::Bytes("audio/mpeg", fixture("sentence.mp3")));
    tts.then("/v1/audio/speech", Reply::Bytes("audio/ogg", fixture("sentence.opus")));
    tts.then(
        "/v1/audio/speech",
        Reply::Bytes("audio/mpeg", b"not audio at all".to_vec()),
    );
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .first(Stage::Tts, &tts, "espeak")
        .user("anna")
        .await;

    for _ in 0..2 {
        let r = chat(&app, &token, json!({"text": "Hello", "language": "en"})).await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.body["semantic"]["tts"]["provider"], "openai");
        let (_, channels, bits, seconds) = wav_info(&audio_of(&r.body));
        assert_eq!((channels, bits), (1, 16));
        assert!((1.4..1.65).contains(&seconds), "{seconds} s of the server's sentence");
    }
    // Bytes that are no audio: the next voice of the chain speaks instead.
    let r = chat(&app, &token, json!({"text": "Hello", "language": "en"})).await;
    assert_eq!(r.body["semantic"]["tts"]["provider"], "espeak", "{}", r.body);
    assert_eq!(r.body["semantic"]["fallbacks"], json!(["tts:openai"]));
}

#[tokio::test]
async fn a_failing_tts_falls_back_along_the_chain() {
    let llm = Fake::answering(&["Hello."]).await;
    let tts = Fake::start().await;
    tts.always("/v1/audio/speech", Reply::Status(500, "gpu gone".into()));
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .first(Stage::Tts, &tts, "espeak")
        .user("anna")
        .await;
    let r = chat(&app, &token, json!({"text": "Hi"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["semantic"]["tts"]["provider"], "espeak");
    assert_eq!(r.body["semantic"]["fallbacks"], json!(["tts:openai"]));
    assert_eq!(tts.requests("/v1/audio/speech").len(), 1);
}

#[tokio::test]
async fn route_layers_choose_the_language_and_it_is_clamped_to_the_allowed_ones() {
    let llm = Fake::answering(&["Ok."]).await;
    let (app, token, id) = TestApp::with().llm(&llm).user("anna").await;
    app.call(
        Method::PUT,
        &format!("/api/admin/users/{id}/prefs"),
        As::AdminKey,
        Some(json!({"allowed_languages": ["de", "en"]})),
    )
    .await;
    app.call(
        Method::PUT,
        "/api/me/prefs",
        As::Bearer(&token),
        Some(json!({"language": "de"})),
    )
    .await;
    let session = app.new_session(&token).await;
    let r = app
        .call(
            Method::PUT,
            &format!("/api/sessions/{session}"),
            As::Bearer(&token),
            Some(json!({"overrides": {"language": "en"}})),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);

    let user_pref = chat(&app, &token, json!({"text": "a", "text_only": true})).await;
    let by_session = chat(
        &app,
        &token,
        json!({"text": "b", "session_id": session, "text_only": true}),
    )
    .await;
    let by_request = chat(
        &app,
        &token,
        json!({"text": "c", "session_id": session, "language": "de", "text_only": true}),
    )
    .await;
    let clamped = chat(&app, &token, json!({"text": "d", "language": "fr", "text_only": true})).await;

    assert_eq!(user_pref.body["semantic"]["language"], "de");
    assert_eq!(by_session.body["semantic"]["language"], "en");
    assert_eq!(by_request.body["semantic"]["language"], "de");
    assert_eq!(clamped.body["semantic"]["language"], "de");
    let system = llm.requests(CHAT)[3].json()["messages"][0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(system.contains("Answer in German"), "{system}");
}

#[tokio::test]
async fn a_lexicon_entry_is_used_by_the_next_turn() {
    let llm = Fake::answering(&["Ask the GPT", " about it."]).await;
    let (app, token, _) = TestApp::with().llm(&llm).user("anna").await;
    let before = chat(&app, &token, json!({"text": "x", "text_only": true})).await;
    assert_eq!(before.body["semantic"]["sentences"], json!(["Ask the GPT about it."]));
    let r = app
        .call(
            Method::PUT,
            "/api/admin/lexicon/en/terms",
            As::AdminKey,
            Some(json!({"key": "GPT", "value": "gee pee tee"})),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let after = chat(&app, &token, json!({"text": "x", "text_only": true})).await;
    assert_eq!(
        after.body["semantic"]["sentences"],
        json!(["Ask the gee pee tee about it."])
    );
}

#[tokio::test]
async fn an_unknown_request_language_is_clamped_not_refused() {
    let llm = Fake::answering(&["Ok."]).await;
    let (app, token, _) = TestApp::with().llm(&llm).user("anna").await;
    // A device's `en-US` gets English; a language the gateway does not know gets the first allowed one.
    for (asked, got) in [("en-US", "en"), ("de_AT", "de"), ("xx", "en")] {
        let r = chat(&app, &token, json!({"text": "x", "language": asked})).await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.body["semantic"]["language"], got, "{asked}");
    }
}

#[tokio::test]
async fn bad_chat_requests_get_clear_errors_and_cost_nothing() {
    let llm = Fake::answering(&["Ok."]).await;
    let (app, token, id) = TestApp::with().llm(&llm).user("anna").await;
    let (_, other) = app.create_user("bert").await;
    let foreign = app.new_session(&other).await;

    assert_eq!(
        chat(&app, &token, json!({"text": "   "})).await.error(400),
        "empty_text"
    );
    assert_eq!(
        chat(&app, &token, json!({"text": "x".repeat(4001)})).await.error(413),
        "payload_too_large"
    );
    assert_eq!(
        chat(&app, &token, json!({"text": 5})).await.error(422),
        "invalid_request"
    );
    assert_eq!(chat(&app, &token, json!({})).await.error(422), "invalid_request");
    let r = chat(&app, &token, json!({"text": "x", "provider": "gpt"})).await;
    assert_eq!(r.error(422), "invalid_request");
    assert!(r.body["error"]["message"].as_str().unwrap().contains("llm_provider"));
    let r = chat(&app, &token, json!({"text": "x", "voice": "../../etc/passwd"})).await;
    assert_eq!(r.error(422), "invalid_request");
    assert!(r.body["error"]["message"].as_str().unwrap().starts_with("voice"));
    assert_eq!(
        chat(&app, &token, json!({"text": "x", "session_id": foreign}))
            .await
            .error(403),
        "forbidden"
    );
    assert_eq!(
        chat(&app, &token, json!({"text": "x", "session_id": "nope"}))
            .await
            .error(404),
        "not_found"
    );
    let r = app
        .call(Method::POST, "/api/chat", As::Nobody, Some(json!({"text": "x"})))
        .await;
    assert_eq!(r.error(401), "unauthorized");

    assert!(llm.requests(CHAT).is_empty());
    assert_eq!(app.rows_of("usage", &id).await, 0, "refused requests do not count");
}
