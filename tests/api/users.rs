use reqwest::Method;
use serde_json::json;
use voice_gateway::store::usage::Counter;

use crate::common::{As, TestApp, spawn_app};

const USER_TABLES: [&str; 9] = [
    "sessions",
    "messages",
    "memories",
    "devices",
    "usage",
    "web_search_usage",
    "cost_usage",
    "prefs",
    "tokens",
];

/// Gives a user a row in every table that holds user data.
async fn fill(app: &TestApp, id: &str, token: &str) {
    let s = app
        .call(
            Method::POST,
            "/api/sessions",
            As::Bearer(token),
            Some(json!({"title": "t"})),
        )
        .await;
    let session = s.body["id"].as_str().unwrap();
    app.store.store_turn(session, id, "question", "answer").await.unwrap();
    app.call(
        Method::POST,
        "/api/me/memories",
        As::Bearer(token),
        Some(json!({"text": "m"})),
    )
    .await;
    app.call(
        Method::POST,
        "/api/devices",
        As::Bearer(token),
        Some(json!({"name": "phone", "kind": "phone"})),
    )
    .await;
    app.call(
        Method::PUT,
        "/api/me/prefs",
        As::Bearer(token),
        Some(json!({"language": "de"})),
    )
    .await;
    app.store.count_within(Counter::Requests, id, 0).await.unwrap();
    app.store.count_within(Counter::WebSearches, id, 0).await.unwrap();
    app.store.add_cost(id, "llm", 0.002).await.unwrap();
}

#[tokio::test]
async fn creating_a_user_returns_the_token_once_and_names_must_be_unique() {
    let app = spawn_app(&[]).await;
    let r = app
        .call(
            Method::POST,
            "/api/admin/users",
            As::AdminKey,
            Some(json!({"name": "ida", "display_name": "Ida K.", "is_admin": true})),
        )
        .await;
    assert_eq!(r.status, 201);
    assert_eq!(r.body["display_name"], "Ida K.");
    assert_eq!(r.body["is_admin"], true);
    let token = r.body["token"].as_str().unwrap();
    assert_eq!(token.len(), 43);
    // The personal link on the address the admin used, and its QR code says the same.
    let link = format!("http://{}/?k={token}", app.addr);
    assert_eq!(r.body["link"], link.as_str());
    assert_eq!(crate::common::read_qr(r.body["qr_svg"].as_str().unwrap()), link);
    let list = app.get("/api/admin/users", As::AdminKey).await;
    let ida = &list.body[0];
    assert!(ida.get("token").is_none(), "the token is never shown again");
    assert!(ida.get("link").is_none() && ida.get("qr_svg").is_none());
    assert_eq!(ida["allowed_languages"].as_array().unwrap().len(), 8);
    assert_eq!(ida["web_search_enabled"], true);
    let dup = app
        .call(
            Method::POST,
            "/api/admin/users",
            As::AdminKey,
            Some(json!({"name": "ida"})),
        )
        .await;
    dup.error(409);
    app.call(
        Method::POST,
        "/api/admin/users",
        As::AdminKey,
        Some(json!({"display_name": " "})),
    )
    .await
    .error(422);
    app.call(
        Method::POST,
        "/api/admin/users",
        As::AdminKey,
        Some(json!({"name": "has space"})),
    )
    .await
    .error(422);
}

#[tokio::test]
async fn rename_reset_and_delete_of_an_unknown_user_give_404() {
    let app = spawn_app(&[]).await;
    app.call(
        Method::PUT,
        "/api/admin/users/nope",
        As::AdminKey,
        Some(json!({"display_name": "x"})),
    )
    .await
    .error(404);
    app.call(Method::DELETE, "/api/admin/users/nope", As::AdminKey, None)
        .await
        .error(404);
    app.call(Method::POST, "/api/admin/users/nope/token", As::AdminKey, None)
        .await
        .error(404);
    app.call(
        Method::PUT,
        "/api/admin/users/nope/prefs",
        As::AdminKey,
        Some(json!({})),
    )
    .await
    .error(404);
    let (id, token) = app.create_user("jo").await;
    let r = app
        .call(
            Method::PUT,
            &format!("/api/admin/users/{id}"),
            As::AdminKey,
            Some(json!({"display_name": "Jo"})),
        )
        .await;
    assert_eq!(r.body["display_name"], "Jo");
    assert_eq!(app.get("/api/me", As::Bearer(&token)).await.body["display_name"], "Jo");
}

#[tokio::test]
async fn deleting_a_user_removes_exactly_that_users_data() {
    let app = spawn_app(&[]).await;
    let (gone, gone_token) = app.create_user("leaving").await;
    let (kept, kept_token) = app.create_user("staying").await;
    fill(&app, &gone, &gone_token).await;
    fill(&app, &kept, &kept_token).await;
    let before: Vec<i64> = futures_counts(&app, &kept).await;

    let r = app
        .call(Method::DELETE, &format!("/api/admin/users/{gone}"), As::AdminKey, None)
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body, json!({"deleted": gone}));
    for table in USER_TABLES {
        assert_eq!(
            app.rows_of(table, &gone).await,
            0,
            "{table} keeps rows of the deleted user"
        );
    }
    assert_eq!(futures_counts(&app, &kept).await, before);
    assert!(
        before.iter().all(|n| *n > 0),
        "the other user has data in every table: {before:?}"
    );
    app.get("/api/me", As::Bearer(&gone_token)).await.error(401);
}

async fn futures_counts(app: &TestApp, id: &str) -> Vec<i64> {
    let mut counts = Vec::new();
    for table in USER_TABLES {
        counts.push(app.rows_of(table, id).await);
    }
    counts
}

#[tokio::test]
async fn the_anonymous_user_cannot_be_deleted() {
    let app = spawn_app(&[("AUTH_ENABLED", "false")]).await;
    app.get("/api/me", As::Nobody).await;
    let code = app
        .call(Method::DELETE, "/api/admin/users/anonymous", As::AdminKey, None)
        .await
        .error(400);
    assert_eq!(code, "anonymous_user");
    assert_eq!(app.get("/api/me", As::Nobody).await.body["id"], "anonymous");
}

#[tokio::test]
async fn deleting_history_keeps_account_memories_and_usage_and_is_audited() {
    let app = spawn_app(&[]).await;
    let (id, token) = app.create_user("kim").await;
    fill(&app, &id, &token).await;
    let r = app
        .call(
            Method::DELETE,
            &format!("/api/admin/users/{id}/history"),
            As::AdminKey,
            None,
        )
        .await;
    assert_eq!(r.body["deleted_sessions"], 1);
    assert_eq!(app.rows_of("sessions", &id).await, 0);
    assert_eq!(app.rows_of("messages", &id).await, 0);
    assert_eq!(app.rows_of("memories", &id).await, 1);
    assert_eq!(app.rows_of("usage", &id).await, 1);
    assert_eq!(app.get("/api/me", As::Bearer(&token)).await.status, 200);
    let audit = app.get("/api/admin/audit", As::AdminKey).await;
    let entry = &audit.body[0];
    assert_eq!(
        (
            entry["action"].as_str(),
            entry["actor"].as_str(),
            entry["target"].as_str()
        ),
        (Some("user.history_delete"), Some("admin-key"), Some(id.as_str()))
    );
}

#[tokio::test]
async fn admin_prefs_accept_admin_keys_and_refuse_a_bad_cooldown_with_422() {
    let app = spawn_app(&[]).await;
    let (id, token) = app.create_user("lea").await;
    let path = format!("/api/admin/users/{id}/prefs");
    let ok = app
        .call(
            Method::PUT,
            &path,
            As::AdminKey,
            Some(json!({"allowed_languages": ["de"], "emergency_cooldown_minutes": "10", "web_search_enabled": false})),
        )
        .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(ok.body["emergency_cooldown_minutes"], "10");
    for bad in [json!("61"), json!("ten"), json!(-5), json!(true)] {
        let r = app
            .call(
                Method::PUT,
                &path,
                As::AdminKey,
                Some(json!({"emergency_cooldown_minutes": bad})),
            )
            .await;
        r.error(422);
        assert!(
            r.body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("emergency_cooldown_minutes")
        );
    }
    let me = app.get("/api/me", As::Bearer(&token)).await;
    assert_eq!(
        me.body["prefs"]["emergency_cooldown_minutes"], "10",
        "a refused change leaves the value alone"
    );
    let list = app.get("/api/admin/users", As::AdminKey).await;
    assert_eq!(list.body[0]["allowed_languages"], json!(["de"]));
    assert_eq!(list.body[0]["web_search_enabled"], false);
}

#[tokio::test]
async fn preset_memories_reach_the_user() {
    let app = spawn_app(&[]).await;
    let (id, token) = app.create_user("max").await;
    let path = format!("/api/admin/users/{id}/memories");
    let r = app
        .call(
            Method::POST,
            &path,
            As::AdminKey,
            Some(json!({"texts": ["has a dog named Rex", "lives in Bonn"]})),
        )
        .await;
    assert_eq!(r.status, 201);
    let mine = app.get("/api/me/memories", As::Bearer(&token)).await;
    let texts: Vec<&str> = mine
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["has a dog named Rex", "lives in Bonn"]);
    assert_eq!(mine.body[0]["source"], "admin");
    app.call(Method::POST, &path, As::AdminKey, Some(json!({"texts": [""]})))
        .await
        .error(422);
}

#[tokio::test]
async fn a_person_named_as_people_write_it_gets_a_login_name_derived_shown_and_made_unique() {
    let app = spawn_app(&[]).await;
    let suggested = app
        .get("/api/admin/users/name-for?display_name=Frau%20Wei%C3%9F", As::AdminKey)
        .await;
    assert_eq!(suggested.status, 200, "{}", suggested.body);
    assert_eq!(suggested.body["name"], "frau.weiss");
    for name in ["frau.weiss", "frau.weiss.2"] {
        let created = app
            .call(
                Method::POST,
                "/api/admin/users",
                As::AdminKey,
                Some(json!({"display_name": "Frau Weiß"})),
            )
            .await;
        assert_eq!(created.status, 201, "{}", created.body);
        assert_eq!(created.body["name"], name);
        assert_eq!(created.body["display_name"], "Frau Weiß");
        assert!(created.body["token"].is_string(), "{}", created.body);
    }
    let next = app
        .get("/api/admin/users/name-for?display_name=Frau%20Wei%C3%9F", As::AdminKey)
        .await;
    assert_eq!(next.body["name"], "frau.weiss.3");
    // A login name typed with a space is refused, naming the field, so that the panel says it in German.
    let typed = json!({"name": "Frau Weiß", "display_name": "Frau Weiß"});
    let refused = app
        .call(Method::POST, "/api/admin/users", As::AdminKey, Some(typed))
        .await;
    assert_eq!(refused.error(422), "invalid_request");
    assert_eq!(refused.body["error"]["field"], "name", "{}", refused.body);
    let nothing = app
        .call(Method::POST, "/api/admin/users", As::AdminKey, Some(json!({})))
        .await;
    assert_eq!(nothing.error(422), "invalid_request");
    assert_eq!(nothing.body["error"]["field"], "name", "{}", nothing.body);
    let (erika, _) = app.create_user("erika").await;
    let prefs = format!("/api/admin/users/{erika}/prefs");
    let wrong_pref = app
        .call(
            Method::PUT,
            &prefs,
            As::AdminKey,
            Some(json!({"birth_date": "15.03.1941"})),
        )
        .await;
    assert_eq!(wrong_pref.body["error"]["field"], "birth_date", "{}", wrong_pref.body);
}
