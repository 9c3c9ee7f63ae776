use reqwest::Method;
use serde_json::json;

use crate::common::{ADMIN_KEY, As, spawn_app};

#[tokio::test]
async fn config_shows_version_choices_and_voice_menu_but_no_secret() {
    let app = spawn_app(&[
        ("CLOUD_LLM_API_KEY", "sk-cloud-secret-value"),
        ("SMTP_PASSWORD", "smtp-secret-value"),
        ("OPENAI_TTS_URL", "http://127.0.0.1:9/v1"),
        ("OPENAI_TTS_UNSUPPORTED_LANGUAGES", "de,nl,pl"),
    ])
    .await;
    let r = app.get("/api/config", As::Nobody).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(
        r.body["available"]["openai_tts_unsupported_languages"],
        json!(["de", "nl", "pl"])
    );
    let llm = r.body["available"]["llm_providers"].as_array().unwrap();
    let cloud = llm.iter().find(|p| p["id"] == "cloud").expect("cloud listed");
    assert_eq!(cloud["configured"], true);
    // What the registry says of it: a streaming service paid by the token.
    assert_eq!(
        (
            &cloud["capabilities"]["streaming"],
            &cloud["capabilities"]["local"],
            &cloud["capabilities"]["cost"]
        ),
        (&json!(true), &json!(false), &json!("per_token"))
    );
    let tts = r.body["available"]["tts_providers"].as_array().unwrap();
    let espeak = tts.iter().find(|p| p["id"] == "espeak").expect("espeak listed");
    assert_eq!(espeak["capabilities"]["local"], true);
    assert_eq!(espeak["capabilities"]["sample_rates"], json!([22050]));
    let openai = tts.iter().find(|p| p["id"] == "openai").expect("openai listed");
    assert!(
        !openai["capabilities"]["languages"]
            .as_array()
            .unwrap()
            .contains(&json!("de"))
    );
    let menu = r.body["tts_menu"].as_array().unwrap();
    assert!(menu.iter().any(|v| v["provider"] == "espeak" && v["voice"] == "de"));
    let cloud_voice = menu
        .iter()
        .find(|v| v["provider"] == "openai")
        .expect("openai voice listed");
    assert!(!cloud_voice["languages"].as_array().unwrap().contains(&json!("de")));
    let text = r.body.to_string();
    for secret in ["sk-cloud-secret-value", "smtp-secret-value", ADMIN_KEY] {
        assert!(!text.contains(secret), "{secret} leaked");
    }
}

#[tokio::test]
async fn runtime_overrides_take_effect_without_restart_and_are_audited() {
    let app = spawn_app(&[("DEFAULT_LLM_PROVIDER", "local")]).await;
    let path = "/api/admin/config/default_llm_provider";
    let before = app.get(path, As::AdminKey).await;
    assert_eq!(
        before.body,
        json!({"key": "default_llm_provider", "value": null, "effective": "local",
        "environment": "local", "meaning": "language model provider"})
    );
    app.get("/api/config", As::Nobody).await;

    let set = app
        .call(Method::PUT, path, As::AdminKey, Some(json!({"value": "cloud"})))
        .await;
    assert_eq!(
        (set.body["value"].as_str(), set.body["effective"].as_str()),
        (Some("cloud"), Some("cloud"))
    );
    assert_eq!(
        app.get("/api/config", As::Nobody).await.body["providers"]["llm"],
        "cloud"
    );
    let num = app
        .call(
            Method::PUT,
            "/api/admin/config/daily_request_limit",
            As::AdminKey,
            Some(json!({"value": 3})),
        )
        .await;
    assert_eq!(num.body["effective"], "3");
    assert_eq!(app.get("/api/config", As::Nobody).await.body["daily_request_limit"], 3);

    let reset = app.call(Method::DELETE, path, As::AdminKey, None).await;
    assert_eq!(reset.body["effective"], "local");
    assert_eq!(reset.body["value"], json!(null));
    assert_eq!(
        app.get("/api/config", As::Nobody).await.body["providers"]["llm"],
        "local"
    );

    let audit = app.get("/api/admin/audit", As::AdminKey).await;
    let actions: Vec<(&str, &str)> = audit
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["action"].as_str().unwrap(), e["target"].as_str().unwrap()))
        .collect();
    assert_eq!(
        actions,
        [
            ("config.reset", "default_llm_provider"),
            ("config.set", "daily_request_limit"),
            ("config.set", "default_llm_provider")
        ]
    );
    assert!(audit.body.as_array().unwrap().iter().all(|e| e["actor"] == "admin-key"));
}

#[tokio::test]
async fn overrides_refuse_unknown_keys_bad_values_and_non_admins() {
    let app = spawn_app(&[]).await;
    app.get("/api/admin/config/no_such_key", As::AdminKey).await.error(404);
    app.call(
        Method::PUT,
        "/api/admin/config/no_such_key",
        As::AdminKey,
        Some(json!({"value": 1})),
    )
    .await
    .error(404);
    for (key, value) in [
        ("default_llm_provider", json!("gpt-9")),
        ("llm_temperature", json!(3)),
        ("emergency_cooldown_minutes", json!("90")),
        ("web_search_daily_limit", json!(-1)),
        ("tts_normalization_enabled", json!("sometimes")),
        ("local_llm_model", json!(["a"])),
    ] {
        let r = app
            .call(
                Method::PUT,
                &format!("/api/admin/config/{key}"),
                As::AdminKey,
                Some(json!({"value": value})),
            )
            .await;
        r.error(422);
    }
    app.call(
        Method::PUT,
        "/api/admin/config/local_llm_model",
        As::AdminKey,
        Some(json!({"val": "x"})),
    )
    .await
    .error(422);
    let (_, user) = app.create_user("vera").await;
    app.call(
        Method::PUT,
        "/api/admin/config/local_llm_model",
        As::Bearer(&user),
        Some(json!({"value": "x"})),
    )
    .await
    .error(403);
    let all = app.get("/api/admin/config", As::AdminKey).await;
    assert_eq!(all.body.as_array().unwrap().len(), 16);
    let audit = app.get("/api/admin/audit", As::AdminKey).await;
    assert!(
        audit
            .body
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["action"] == "user.create"),
        "refusals change nothing"
    );
}

#[tokio::test]
async fn health_reports_the_database() {
    let app = spawn_app(&[]).await;
    let r = app.get("/health", As::Nobody).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body["status"], "ok");
    assert_eq!(r.body["database"], "ok");
}

#[tokio::test]
async fn config_and_overrides_written_elsewhere_are_served_from_a_30_second_cache() {
    let app = spawn_app(&[]).await;
    assert_eq!(
        app.get("/api/config", As::Nobody).await.body["daily_request_limit"],
        500
    );
    // Another gateway on the same database writes an override: this one keeps its cached view.
    app.store
        .set_override("daily_request_limit", "7", "other-gateway")
        .await
        .unwrap();
    assert_eq!(
        app.get("/api/config", As::Nobody).await.body["daily_request_limit"],
        500
    );
    let key = app.get("/api/admin/config/daily_request_limit", As::AdminKey).await;
    assert_eq!(key.body["effective"], "500");
}

#[tokio::test]
async fn a_stored_override_that_no_longer_passes_is_reported_and_the_environment_holds() {
    let app = spawn_app(&[("DAILY_REQUEST_LIMIT", "7")]).await;
    // As an older version or a hand edit may have left it: not a count.
    app.store
        .set_override("daily_request_limit", "lots", "upgrade")
        .await
        .unwrap();
    // A write through the API drops the cache, so the next read sees the stored value.
    let set = app
        .call(
            Method::PUT,
            "/api/admin/config/web_search_daily_limit",
            As::AdminKey,
            Some(json!({"value": 3})),
        )
        .await;
    assert_eq!(set.status, 200);

    let config = app.get("/api/config", As::Nobody).await;
    assert_eq!(
        config.body["daily_request_limit"], 7,
        "the environment's value, not zero"
    );
    assert_eq!(config.body["web_search_daily_limit"], 3);
    let status = app.get("/api/admin/status", As::AdminKey).await;
    assert_eq!(status.status, 200);
    let invalid = status.body["invalid_overrides"].as_array().unwrap();
    assert_eq!(invalid.len(), 1, "{invalid:?}");
    assert_eq!(invalid[0]["key"], "daily_request_limit");
    assert_eq!(invalid[0]["value"], "lots");
    assert!(
        invalid[0]["problem"].as_str().unwrap().contains("whole number"),
        "{invalid:?}"
    );
    let key = app.get("/api/admin/config/daily_request_limit", As::AdminKey).await;
    assert_eq!(key.body["effective"], "7");
}

#[tokio::test]
async fn a_provider_without_what_it_needs_is_not_offered_and_asking_for_it_names_the_setting() {
    let app = spawn_app(&[]).await;
    let r = app.get("/api/config", As::Nobody).await;
    let llm: Vec<&str> = r.body["available"]["llm_providers"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["id"].as_str())
        .collect();
    assert_eq!(llm, ["local"], "the cloud model has no key");
    let models = app.get("/api/admin/cloud/models", As::AdminKey).await;
    assert_eq!(models.error(409), "conflict");
    let message = models.body["error"]["message"].as_str().unwrap();
    assert!(message.contains("CLOUD_LLM_API_KEY"), "{message}");
}
