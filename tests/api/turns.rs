//! Conversational turns over REST against fake providers that speak the real protocols: the answer streamed,
//! spoken and stored, the route and its language, the lexicon, and bad requests. The subjects around a turn have
//! files of their own: `turn_memory`, `llm_fallback`, `web_search`, `quota` and `voices`.

use base64::Engine;
use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{As, TestApp};
use crate::fakes::{CHAT, Fake, completion, tokens, wav_info};

/// A gateway whose local LLM is `llm`, speaking with espeak-ng, memory extraction off unless asked for.
pub(crate) async fn chat(app: &TestApp, token: &str, body: Value) -> crate::common::Reply {
    app.call(Method::POST, "/api/chat", As::Bearer(token), Some(body)).await
}

pub(crate) fn audio_of(body: &Value) -> Vec<u8> {
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
            .contains("The person's name is anna.")
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
            .error(404),
        "not_found",
        "another user's session is as unknown as none"
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
