use reqwest::Method;
use serde_json::json;

use crate::common::{As, eventually, spawn_app};

#[tokio::test]
async fn sessions_hold_overrides_and_messages() {
    let app = spawn_app(&[]).await;
    let (uid, token) = app.create_user("sam").await;
    let created = app
        .call(
            Method::POST,
            "/api/sessions",
            As::Bearer(&token),
            Some(json!({"title": "Garden", "overrides": {"llm_provider": "cloud", "language": "de"}})),
        )
        .await;
    assert_eq!(created.status, 201);
    let id = created.body["id"].as_str().unwrap().to_string();
    assert_eq!(created.body.as_object().unwrap().len(), 1, "answer is just the id");
    let bare = app.call(Method::POST, "/api/sessions", As::Bearer(&token), None).await;
    assert_eq!(bare.status, 201);

    // Times have millisecond resolution: the message must come after the second session's creation.
    let created_by = voice_gateway::store::now_ms();
    eventually("the clock to move on", 1, || async {
        voice_gateway::store::now_ms() > created_by
    })
    .await;
    app.store
        .store_turn(&id, &uid, "When to plant tulips?", "In autumn.")
        .await
        .unwrap();
    let shown = app.get(&format!("/api/sessions/{id}"), As::Bearer(&token)).await;
    assert_eq!(
        shown.body["overrides"],
        json!({"llm_provider": "cloud", "language": "de"})
    );
    let roles: Vec<&str> = shown.body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["user", "assistant"]);
    assert_eq!(shown.body["messages"][1]["text"], "In autumn.");

    let list = app.get("/api/sessions", As::Bearer(&token)).await;
    assert_eq!(list.body.as_array().unwrap().len(), 2);
    assert_eq!(
        list.body[0]["id"], id,
        "the session with the newest message comes first"
    );
    changed_refused_and_deleted(&app, &token, (&uid, &id)).await;
}

/// The session's overrides are replaced, wrong ones refused (422), and deleting it takes its messages.
async fn changed_refused_and_deleted(app: &crate::common::TestApp, token: &str, (uid, id): (&str, &str)) {
    let updated = app
        .call(
            Method::PUT,
            &format!("/api/sessions/{id}"),
            As::Bearer(token),
            Some(json!({"overrides": {"voice": "de"}})),
        )
        .await;
    assert_eq!(updated.body["overrides"], json!({"voice": "de"}));
    assert_eq!(updated.body["title"], "Garden");
    let bad = app
        .call(
            Method::PUT,
            &format!("/api/sessions/{id}"),
            As::Bearer(token),
            Some(json!({"overrides": {"llm_provider": "gpt"}})),
        )
        .await;
    bad.error(422);
    app.call(
        Method::POST,
        "/api/sessions",
        As::Bearer(token),
        Some(json!({"overrides": {"colour": "red"}})),
    )
    .await
    .error(422);

    let del = app
        .call(Method::DELETE, &format!("/api/sessions/{id}"), As::Bearer(token), None)
        .await;
    assert_eq!(del.body, json!({"deleted": id}));
    app.get(&format!("/api/sessions/{id}"), As::Bearer(token))
        .await
        .error(404);
    assert_eq!(app.rows_of("messages", uid).await, 0);
}

#[tokio::test]
async fn another_users_session_answers_as_an_unknown_one_and_leaks_nothing() {
    let app = spawn_app(&[]).await;
    let (owner_id, owner) = app.create_user("tom").await;
    let (_, intruder) = app.create_user("uwe").await;
    let s = app
        .call(
            Method::POST,
            "/api/sessions",
            As::Bearer(&owner),
            Some(json!({"title": "private diary"})),
        )
        .await;
    let id = s.body["id"].as_str().unwrap().to_string();
    app.store
        .store_turn(&id, &owner_id, "secret question", "secret answer")
        .await
        .unwrap();
    let path = format!("/api/sessions/{id}");
    let unknown = app
        .call(Method::GET, "/api/sessions/no-such-id", As::Bearer(&intruder), None)
        .await;
    for method in [Method::GET, Method::DELETE] {
        let r = app.call(method, &path, As::Bearer(&intruder), None).await;
        // Exactly as an id that does not exist: whether it does is nobody else's business.
        assert_eq!((r.status, &r.body), (unknown.status, &unknown.body));
        let text = r.body.to_string();
        assert!(!text.contains("private diary") && !text.contains("secret"), "{text}");
    }
    app.call(
        Method::PUT,
        &path,
        As::Bearer(&intruder),
        Some(json!({"title": "mine"})),
    )
    .await
    .error(404);
    assert!(
        app.get("/api/sessions", As::Bearer(&intruder))
            .await
            .body
            .as_array()
            .unwrap()
            .is_empty()
    );
    let still = app.get(&path, As::Bearer(&owner)).await;
    assert_eq!(still.body["title"], "private diary");
    assert_eq!(still.body["messages"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_client_opening_conversations_in_a_loop_removes_its_empty_ones_then_is_refused() {
    let app = spawn_app(&[("SESSIONS_PER_USER", "3")]).await;
    let (uid, token) = app.create_user("loop").await;
    let open = || app.call(Method::POST, "/api/sessions", As::Bearer(&token), None);
    let mut ids = Vec::new();
    for _ in 0..3 {
        let r = open().await;
        assert_eq!(r.status, 201, "{}", r.body);
        ids.push(r.body["id"].as_str().unwrap().to_string());
    }
    // The first holds a conversation; the second is the oldest empty one, and goes for the fourth.
    app.store
        .store_turn(&ids[0], &uid, "Wie spät ist es?", "Drei Uhr.")
        .await
        .unwrap();
    assert_eq!(open().await.status, 201);
    let listed: Vec<String> = app
        .get("/api/sessions", As::Bearer(&token))
        .await
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(listed.len(), 3, "{listed:?}");
    assert!(listed.contains(&ids[0]) && !listed.contains(&ids[1]), "{listed:?}");
    // Every one holds a conversation now: refused, nothing removed.
    for id in &listed {
        app.store.store_turn(id, &uid, "Frage", "Antwort").await.unwrap();
    }
    let refused = open().await;
    assert_eq!(refused.error(409), "conflict");
    assert_eq!(
        app.get("/api/sessions", As::Bearer(&token))
            .await
            .body
            .as_array()
            .unwrap()
            .len(),
        3
    );
}
