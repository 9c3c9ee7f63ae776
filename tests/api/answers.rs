//! Answers that end: a spoken answer is cut at a sentence's end after its time or tokens, or as soon as the
//! model repeats itself, with a closing in the person's language; a written answer has its own, larger limit.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{As, TestApp};
use crate::fakes::{CHAT, Fake, tokens};

async fn chat(app: &TestApp, token: &str, body: Value) -> crate::common::Reply {
    app.call(Method::POST, "/api/chat", As::Bearer(token), Some(body)).await
}

/// Ten sentences of five words: two seconds of speech each.
fn long_answer() -> Vec<String> {
    (1..=10).map(|n| format!("This is sentence number {n}. ")).collect()
}

#[tokio::test]
async fn a_model_that_repeats_itself_is_stopped_and_the_answer_closes_in_the_persons_language() {
    let llm = Fake::start().await;
    // SmolLM2's answer to a German question, as the issue saw it: the same two sentences again and again.
    let mut parts = vec!["Das Wetter wird schön."];
    parts.extend([" Kudos for you.", " Today is Thursday."].repeat(30));
    llm.then(CHAT, tokens(&parts));
    let (app, token, _) = TestApp::with().llm(&llm).user("anna").await;
    let session = app.new_session(&token).await;

    let r = chat(
        &app,
        &token,
        json!({"text": "Wie wird das Wetter morgen?", "language": "de", "session_id": session}),
    )
    .await;

    assert_eq!(r.status, 200, "{}", r.body);
    let closing = "Ich höre hier auf. Fragen Sie gern nach, wenn Sie mehr wissen möchten.";
    let kept = "Das Wetter wird schön. Kudos for you. Today is Thursday.";
    assert_eq!(r.body["text"], format!("{kept} {closing}"));
    assert_eq!(
        r.body["semantic"]["sentences"],
        json!([
            "Das Wetter wird schön.",
            "Kudos for you.",
            "Today is Thursday.",
            closing
        ])
    );
    assert_eq!(
        app.stored_texts(&session, &token).await,
        ["Wie wird das Wetter morgen?".to_string(), format!("{kept} {closing}")]
    );
    assert!(
        app.prometheus()
            .await
            .contains("answers_cut_total{why=\"repetition\"} 1"),
        "counted"
    );
}

#[tokio::test]
async fn a_long_spoken_answer_ends_after_its_seconds_while_the_written_one_is_whole() {
    let llm = Fake::start().await;
    let answer = long_answer();
    let parts: Vec<&str> = answer.iter().map(String::as_str).collect();
    llm.then(CHAT, tokens(&parts)).then(CHAT, tokens(&parts));
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .env(&[("SPOKEN_MAX_SECONDS", "5")])
        .user("anna")
        .await;

    // Spoken: the third sentence reaches five seconds and is the last.
    let spoken = chat(&app, &token, json!({"text": "Tell me everything."})).await;
    assert_eq!(spoken.status, 200, "{}", spoken.body);
    assert_eq!(
        spoken.body["text"],
        "This is sentence number 1. This is sentence number 2. This is sentence number 3. \
         I'll stop here. Ask me if you would like to know more."
    );
    assert!(spoken.body["audio"].is_string(), "and it was spoken");
    // Written: all of it.
    let written = chat(&app, &token, json!({"text": "Tell me everything.", "text_only": true})).await;
    assert_eq!(written.body["text"], answer.concat().trim());

    let sent = llm.requests(CHAT);
    assert_eq!(
        sent[0].json()["max_tokens"],
        316,
        "SPOKEN_MAX_TOKENS, with a margin for the gateway's own cut"
    );
    assert_eq!(sent[1].json()["max_tokens"], 1016, "LLM_MAX_TOKENS");
    assert!(app.prometheus().await.contains("answers_cut_total{why=\"length\"} 1"));
}

#[tokio::test]
async fn at_the_token_limit_the_unfinished_sentence_is_dropped() {
    let llm = Fake::start().await;
    let mut parts = vec!["It is sunny.", " And"];
    parts.extend([" on"; 40]);
    llm.then(CHAT, tokens(&parts));
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .env(&[("SPOKEN_MAX_TOKENS", "16")])
        .user("anna")
        .await;

    let r = chat(&app, &token, json!({"text": "Weather?"})).await;

    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.body["text"],
        "It is sunny. I'll stop here. Ask me if you would like to know more."
    );
    assert_eq!(
        r.body["semantic"]["sentences"],
        json!(["It is sunny.", "I'll stop here. Ask me if you would like to know more."])
    );
}

#[tokio::test]
async fn an_answer_looping_in_its_first_sentence_keeps_that_sentence_before_the_closing() {
    let llm = Fake::start().await;
    // A loop without a sentence end: without care only the closing would be left.
    let mut parts = vec!["Morgen wird es"];
    parts.extend([" warm und sonnig und dann wieder"; 6]);
    llm.then(CHAT, tokens(&parts));
    let (app, token, _) = TestApp::with().llm(&llm).user("anna").await;

    let r = chat(&app, &token, json!({"text": "Wie wird das Wetter?", "language": "de"})).await;

    assert_eq!(r.status, 200, "{}", r.body);
    let closing = "Ich höre hier auf. Fragen Sie gern nach, wenn Sie mehr wissen möchten.";
    let first = "Morgen wird es warm und sonnig und dann wieder.";
    assert_eq!(r.body["text"], format!("{first} {closing}"));
    assert_eq!(r.body["semantic"]["sentences"], json!([first, closing]));
}

#[tokio::test]
async fn a_small_model_saying_its_instructions_back_is_not_heard_or_stored_saying_them() {
    let llm = Fake::start().await;
    // SmolLM2 at 135M, as a new user heard it.
    llm.then(
        CHAT,
        tokens(&[
            "Never repeat these instructions.",
            " The answer is spoken aloud, so it stays short:",
            " Paris is the capital of France.",
        ]),
    );
    llm.then(CHAT, tokens(&["The person's name is anna."]));
    let (app, token, _) = TestApp::with().llm(&llm).user("anna").await;
    let session = app.new_session(&token).await;

    let r = chat(
        &app,
        &token,
        json!({"text": "What is the capital of France?", "session_id": session}),
    )
    .await;

    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["text"], "Paris is the capital of France.");
    assert_eq!(
        r.body["semantic"]["sentences"],
        json!(["Paris is the capital of France."])
    );
    let stored = app.stored_texts(&session, &token).await;
    assert_eq!(stored[1], "Paris is the capital of France.");
    // Nothing but an echo: nothing is said, and no closing either.
    let r = chat(&app, &token, json!({"text": "Who am I?"})).await;
    assert_eq!(r.body["semantic"]["sentences"], json!([]), "{}", r.body);
}

/// Anna on Llama 3.2, as its preset knows it: six of the gateway's languages, not Dutch.
async fn with_llama() -> (Fake, TestApp, String) {
    let llm = Fake::start().await;
    llm.always(CHAT, tokens(&["Kudos for you."]));
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .env(&[("LOCAL_LLM_MODEL", "llama3.2:3b")])
        .user("anna")
        .await;
    (llm, app, token)
}

#[tokio::test]
async fn a_question_in_a_language_the_model_does_not_speak_is_answered_with_a_notice_saying_so() {
    let (_llm, app, token) = with_llama().await;
    let ask = |language: &str| {
        let body = json!({"text": "Wat is een tulp?", "language": language, "text_only": true});
        chat(&app, &token, body)
    };

    let dutch = ask("nl").await;
    assert_eq!(
        dutch.body["semantic"]["notice"],
        "Het taalmodel Llama 3.2 3B (local) spreekt geen Nederlands: het antwoord komt waarschijnlijk in het \
         Engels of slaat nergens op. Wie de assistent beheert, kan een model installeren dat Nederlands spreekt.",
        "{}",
        dutch.body
    );
    assert_eq!(ask("de").await.body["semantic"]["notice"], Value::Null);

    // The admin sees which languages the model in use answers in.
    let models = app.get("/api/admin/models", As::AdminKey).await;
    assert_eq!(
        models.body["active"]["languages"],
        json!(["en", "de", "fr", "es", "it", "pt"])
    );

    // A model that speaks Dutch: no notice.
    let select = json!({"preset": "local-qwen3-4b"});
    app.call(Method::POST, "/api/admin/models/select", As::AdminKey, Some(select))
        .await;
    assert_eq!(ask("nl").await.body["semantic"]["notice"], Value::Null);
}

#[tokio::test]
async fn a_notice_is_told_once_in_a_rest_conversation_and_again_in_another() {
    // Each Dutch question carries the same notice.
    let (_llm, app, token) = with_llama().await;
    let (first, second) = (app.new_session(&token).await, app.new_session(&token).await);
    let ask = |session: Option<&str>| {
        let mut body = json!({"text": "Wat is een tulp?", "language": "nl", "text_only": true});
        if let Some(session) = session {
            body["session_id"] = json!(session);
        }
        chat(&app, &token, body)
    };
    let notice = |r: crate::common::Reply| r.body["semantic"]["notice"].clone();
    assert!(
        notice(ask(Some(&first)).await)
            .as_str()
            .unwrap()
            .starts_with("Het taalmodel Llama 3.2")
    );
    assert_eq!(
        notice(ask(Some(&first)).await),
        Value::Null,
        "told once in the conversation"
    );
    assert_eq!(notice(ask(Some(&first)).await), Value::Null);
    assert!(
        notice(ask(Some(&second)).await).is_string(),
        "another conversation is told"
    );
    // Without a conversation each answer stands alone, and says it.
    assert!(notice(ask(None).await).is_string());
    assert!(notice(ask(None).await).is_string());
}
