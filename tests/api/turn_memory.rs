//! What a turn remembers: the session's history and the user's memories in the prompt, within their budget,
//! and the memory extraction that runs after every n-th turn without delaying it.

use std::sync::Arc;

use reqwest::Method;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

use crate::common::{As, TestApp, eventually};
use crate::fakes::{CHAT, Fake, Reply, tokens};
use crate::turns::chat;

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
        !system.contains("secret fact") && !system.contains("name is"),
        "{system}"
    );
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
