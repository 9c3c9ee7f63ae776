//! Operating the gateway: presets, model lists, the local backend, metrics, admin views and the export.

use std::sync::Arc;

use reqwest::Method;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

use crate::common::{As, TestApp, eventually, spawn_app};
use crate::fakes::{CHAT, Fake, Reply, tokens};

async fn audit_actions(app: &TestApp, action: &str) -> i64 {
    let (n,): (i64,) = voice_gateway::with_pool!(app.store, pool => sqlx::query_as("SELECT COUNT(*) FROM audit_log WHERE action = $1")
        .bind(action)
        .fetch_one(pool)
        .await
        .unwrap());
    n
}

#[tokio::test]
async fn presets_are_listed_selected_and_reset() {
    let app = spawn_app(&[]).await;
    let listed = app.get("/api/admin/models", As::AdminKey).await;
    assert_eq!(listed.status, 200);
    assert_eq!(listed.body["presets"][0]["default"], true);
    assert_eq!(listed.body["active"]["active_index"], 0);
    let index = listed.body["presets"]
        .as_array()
        .unwrap()
        .iter()
        .position(|p| p["id"] == "local-qwen3-4b")
        .unwrap();

    let select = |body: Value| app.call(Method::POST, "/api/admin/models/select", As::AdminKey, Some(body));
    let r = select(json!({"preset": "local-qwen3-4b"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.body["active"],
        json!({"provider": "local", "model": "qwen3:4b", "languages": ["en", "de", "fr", "es", "it", "nl", "pl", "pt"]})
    );
    let model = app.get("/api/admin/config/local_llm_model", As::AdminKey).await;
    assert_eq!(model.body["value"], "qwen3:4b");
    assert_eq!(
        app.get("/api/admin/models", As::AdminKey).await.body["active"]["active_index"],
        index
    );

    let r = select(json!({"preset": "default"})).await;
    assert_eq!(r.status, 200);
    let model = app.get("/api/admin/config/local_llm_model", As::AdminKey).await;
    assert_eq!(
        model.body["value"],
        Value::Null,
        "the default preset removes the override"
    );
    assert_eq!(
        app.get("/api/admin/models", As::AdminKey).await.body["active"]["active_index"],
        0
    );

    assert_eq!(select(json!({"preset": "gpt-7"})).await.error(404), "not_found");
    assert_eq!(audit_actions(&app, "models.select").await, 2);
    let (_, token) = app.create_user("anna").await;
    let r = app
        .call(
            Method::POST,
            "/api/admin/models/select",
            As::Bearer(&token),
            Some(json!({"preset": "default"})),
        )
        .await;
    assert_eq!(r.error(403), "forbidden");
}

#[tokio::test]
async fn the_cloud_model_list_is_cached_for_ten_minutes_and_failures_are_not() {
    let cloud = Fake::start().await;
    cloud.then("/v1/models", Reply::Status(503, "busy".into()));
    cloud.always(
        "/v1/models",
        Reply::Json(json!({"data": [{"id": "openai/gpt-4o-mini", "name": "GPT-4o mini"}, {"id": "meta/llama"}]})),
    );
    let url = cloud.v1();
    let app = spawn_app(&[("CLOUD_LLM_URL", &url), ("CLOUD_LLM_API_KEY", "sk-list")]).await;

    let failed = app.get("/api/admin/cloud/models", As::AdminKey).await;
    assert_eq!(failed.error(502), "provider_failed");
    let first = app.get("/api/admin/cloud/models", As::AdminKey).await;
    let second = app.get("/api/admin/cloud/models", As::AdminKey).await;

    assert_eq!(first.body["cached"], false);
    assert_eq!(second.body["cached"], true);
    assert_eq!(second.body["models"][0]["id"], "openai/gpt-4o-mini");
    assert_eq!(second.body["models"][1]["name"], "meta/llama");
    let asked = cloud.requests("/v1/models");
    assert_eq!(asked.len(), 2, "one failure, then one fetch for both answers");
    assert_eq!(asked[1].header("authorization").as_deref(), Some("Bearer sk-list"));
    assert_eq!(
        app.get("/api/admin/gpt/models", As::AdminKey).await.error(404),
        "not_found"
    );
}

/// A fake Ollama (native `/api/tags`, `/api/ps` and OpenAI-compatible chat) and a fake llama.cpp server.
async fn backends() -> (Fake, Fake) {
    let ollama = Fake::start().await;
    ollama.always(
        "/api/tags",
        Reply::Json(json!({"models": [{"name": "qwen3:4b"}, {"name": "smollm2"}]})),
    );
    ollama.always(
        "/api/ps",
        Reply::Json(json!({"models": [{"name": "qwen3:4b", "size_vram": 0}]})),
    );
    ollama.always(CHAT, tokens(&["From Ollama."]));
    let llamacpp = Fake::start().await;
    llamacpp.always("/v1/chat/completions", tokens(&["From llama.cpp."]));
    (ollama, llamacpp)
}

#[tokio::test]
async fn the_llm_status_reports_the_backend_its_models_and_the_service() {
    let (ollama, _) = backends().await;
    let url = ollama.v1();
    let app = spawn_app(&[
        ("LOCAL_LLM_URL", &url),
        ("LOCAL_LLM_BACKEND", "ollama"),
        ("LOCAL_LLM_MODEL", "qwen3:4b"),
    ])
    .await;
    let r = app.get("/api/admin/llm/status", As::AdminKey).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["backend"], "ollama");
    assert_eq!(r.body["model"], "qwen3:4b");
    assert_eq!(r.body["backend_status"]["reachable"], true);
    assert_eq!(r.body["loaded_models"], json!(["qwen3:4b"]));
    assert_eq!(r.body["available_models"], json!(["qwen3:4b", "smollm2"]));
    assert!(r.body["gpu"].is_null() || r.body["gpu"].is_array());
    assert_eq!(r.body["service"]["status"], "ok");

    let down = spawn_app(&[("LOCAL_LLM_URL", "http://127.0.0.1:9/v1")]).await;
    let r = down.get("/api/admin/llm/status", As::AdminKey).await;
    assert_eq!(r.body["backend_status"]["reachable"], false);
    let error = r.body["backend_status"]["error"].as_str().unwrap();
    assert!(error.contains("not reachable at http://127.0.0.1:9"), "{error}");
    assert!(
        !error.contains("/api/") && !error.contains("/v1/"),
        "no internal paths: {error}"
    );
}

#[tokio::test]
async fn switching_the_backend_checks_the_allowlist_and_the_model_and_audits_everything() {
    let (ollama, llamacpp) = backends().await;
    let gate = Arc::new(Semaphore::new(0));
    llamacpp.then(
        "/v1/models",
        Reply::Gated(
            gate.clone(),
            Box::new(Reply::Json(json!({"data": [{"id": "smollm2"}]}))),
        ),
    );
    llamacpp.always("/v1/models", Reply::Json(json!({"data": [{"id": "smollm2"}]})));
    let (ollama_url, llamacpp_url) = (ollama.v1(), llamacpp.base.clone());
    let app = spawn_app(&[
        ("LOCAL_LLM_URL", &ollama_url),
        ("LOCAL_LLM_BACKEND", "ollama"),
        ("LLAMACPP_URL", &llamacpp_url),
        ("AUTH_ENABLED", "false"),
    ])
    .await;
    let switch = |body: Value| app.call(Method::POST, "/api/admin/llm/backend", As::AdminKey, Some(body));

    assert_eq!(
        switch(json!({"backend": "vllm", "model": "smollm2"})).await.error(422),
        "invalid_request"
    );
    assert_eq!(
        switch(json!({"backend": "ollama", "model": "rm -rf /"}))
            .await
            .error(422),
        "invalid_request"
    );
    let missing = switch(json!({"backend": "ollama", "model": "llama3:70b"})).await;
    assert_eq!(missing.error(422), "invalid_request");
    assert!(missing.body["error"]["message"].as_str().unwrap().contains("qwen3:4b"));

    // The first switch waits for llama.cpp's model list; a second one meanwhile is refused.
    let first = tokio::spawn({
        let request = app
            .request(Method::POST, "/api/admin/llm/backend", As::AdminKey)
            .json(&json!({"backend": "llamacpp", "model": "smollm2"}));
        async move { request.send().await.unwrap().status().as_u16() }
    });
    eventually("the first switch to ask llama.cpp", 5, || async {
        !llamacpp.requests("/v1/models").is_empty()
    })
    .await;
    assert_eq!(
        switch(json!({"backend": "ollama", "model": "smollm2"}))
            .await
            .error(409),
        "conflict"
    );
    gate.add_permits(1);
    assert_eq!(first.await.unwrap(), 200);

    let status = app.get("/api/admin/llm/status", As::AdminKey).await;
    assert_eq!(
        (status.body["backend"].clone(), status.body["model"].clone()),
        (json!("llamacpp"), json!("smollm2"))
    );
    let answer = app
        .call(
            Method::POST,
            "/api/chat",
            As::Nobody,
            Some(json!({"text": "hi", "text_only": true})),
        )
        .await;
    assert_eq!(
        answer.body["text"], "From llama.cpp.",
        "turns now go to the new backend"
    );
    assert_eq!(audit_actions(&app, "llm.backend").await, 1);
    assert_eq!(audit_actions(&app, "llm.backend.rejected").await, 4);
}

#[tokio::test]
async fn metrics_count_requests_by_route_template_in_json_and_prometheus_text() {
    let llm = Fake::answering(&["Ok."]).await;
    let url = llm.v1();
    let app = spawn_app(&[("LOCAL_LLM_URL", &url), ("DEFAULT_LLM_PROVIDER", "local")]).await;
    let (_, token) = app.create_user("anna").await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let id = app
            .call(Method::POST, "/api/sessions", As::Bearer(&token), None)
            .await
            .body["id"]
            .clone();
        app.get(&format!("/api/sessions/{}", id.as_str().unwrap()), As::Bearer(&token))
            .await;
        ids.push(id.as_str().unwrap().to_string());
    }
    app.call(
        Method::POST,
        "/api/chat",
        As::Bearer(&token),
        Some(json!({"text": "x", "text_only": true})),
    )
    .await;

    let json_view = app.get("/api/metrics", As::AdminKey).await;
    let counters = &json_view.body["counters"];
    assert_eq!(
        counters["http_requests_total{method=\"GET\",route=\"/api/sessions/:session_id\",status=\"200\"}"],
        2
    );
    assert!(json_view.body["histograms"]["stage_duration_seconds{stage=\"llm\"}"]["count"].as_u64() == Some(1));

    let text = app
        .request(Method::GET, "/api/metrics", As::AdminKey)
        .header("Accept", "text/plain;version=0.0.4")
        .send()
        .await
        .unwrap();
    assert!(
        text.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    let body = text.text().await.unwrap();
    let lines = body.lines().map(|l| Ok(l.to_string()));
    let scrape = prometheus_parse::Scrape::parse(lines).expect("valid exposition format");
    let session_gets: f64 = scrape
        .samples
        .iter()
        .filter(|s| s.metric == "http_requests_total" && s.labels.get("route") == Some("/api/sessions/:session_id"))
        .map(|s| match s.value {
            prometheus_parse::Value::Counter(v) | prometheus_parse::Value::Untyped(v) => v,
            _ => 0.0,
        })
        .sum();
    assert_eq!(session_gets, 2.0);
    assert!(
        !ids.iter().any(|id| body.contains(id.as_str())),
        "no raw ids in route labels"
    );
    let histogram = scrape
        .samples
        .iter()
        .find(|s| s.metric == "http_request_duration_seconds")
        .expect("latency");
    assert!(matches!(histogram.value, prometheus_parse::Value::Histogram(_)));
    assert!(scrape.docs.contains_key("http_requests_total"));
    let prom = app.get("/api/metrics?format=prometheus", As::AdminKey).await;
    assert_eq!(prom.status, 200);
    assert_eq!(
        app.get("/api/metrics", As::Bearer(&token)).await.error(403),
        "forbidden"
    );
}

#[tokio::test]
async fn admins_see_status_statistics_and_conversations() {
    let app = spawn_app(&[("CLOUD_LLM_API_KEY", "sk-very-secret")]).await;
    let (id, token) = app.create_user("anna").await;
    let session = app.new_session(&token).await;
    app.store
        .store_turn(&session, &id, "Hallo?", "Hallo Anna.")
        .await
        .unwrap();
    for _ in 0..4 {
        app.store
            .count_within(voice_gateway::store::usage::Counter::Requests, &id, 0)
            .await
            .unwrap();
    }
    app.store.add_cost(&id, "llm", 0.01).await.unwrap();
    app.store.add_cost(&id, "llm", 0.03).await.unwrap();

    let status = app.get("/api/admin/status", As::AdminKey).await;
    assert_eq!(status.status, 200);
    assert_eq!(status.body["providers"]["llm"]["cloud"]["key_set"], true);
    // The registry's list: every provider of every stage, with what it can do.
    let registry = status.body["registry"].as_array().unwrap();
    let ids: Vec<String> = registry
        .iter()
        .map(|p| format!("{}:{}", p["stage"].as_str().unwrap(), p["id"].as_str().unwrap()))
        .collect();
    assert_eq!(
        ids,
        [
            "stt:whisper",
            "stt:openai",
            "llm:local",
            "llm:cloud",
            "tts:espeak",
            "tts:piper",
            "tts:openai",
            "search:searxng",
            "search:tavily",
            "search:brave"
        ]
    );
    let cloud = registry.iter().find(|p| p["id"] == "cloud").unwrap();
    assert_eq!(
        (&cloud["configured"], &cloud["streaming"]),
        (&serde_json::json!(true), &serde_json::json!(true))
    );
    assert!(!status.body.to_string().contains("sk-very-secret"));
    assert_eq!(status.body["gpus"]["setting"], "auto");

    let stats = app.get("/api/admin/stats", As::AdminKey).await;
    let anna = stats.body["users"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["name"] == "anna")
        .unwrap()
        .clone();
    assert_eq!(anna["requests_today"], 4);
    assert_eq!(anna["requests_month"], 4);
    assert!((anna["cost_month"].as_f64().unwrap() - 0.04).abs() < 1e-9);
    assert!((anna["avg_cost_per_request"].as_f64().unwrap() - 0.01).abs() < 1e-9);
    assert!((stats.body["total"]["cost_total"].as_f64().unwrap() - 0.04).abs() < 1e-9);

    let overview = app.get("/api/admin/conversations", As::AdminKey).await;
    let row = overview
        .body
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["name"] == "anna")
        .unwrap()
        .clone();
    assert_eq!((row["sessions"].clone(), row["messages"].clone()), (json!(1), json!(2)));
    let sessions = app.get(&format!("/api/admin/conversations/{id}"), As::AdminKey).await;
    assert_eq!(sessions.body["sessions"][0]["id"], session.as_str());
    let transcript = app
        .get(&format!("/api/admin/conversations/{id}/{session}"), As::AdminKey)
        .await;
    let texts: Vec<&str> = transcript.body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["Hallo?", "Hallo Anna."]);
    assert_eq!(audit_actions(&app, "conversation.read").await, 1);
    let wrong = app
        .get(&format!("/api/admin/conversations/nobody/{session}"), As::AdminKey)
        .await;
    assert_eq!(wrong.error(404), "not_found");
    assert_eq!(
        app.get("/api/admin/stats", As::Bearer(&token)).await.error(403),
        "forbidden"
    );
}

#[tokio::test]
async fn the_database_export_taken_during_writes_is_a_consistent_sqlite_file() {
    let app = spawn_app(&[]).await;
    if app.database_url.is_some() {
        // PostgreSQL has its own backup tools; the export says so instead of a file.
        let r = app.get("/api/admin/db-export", As::AdminKey).await;
        assert_eq!(r.error(409), "conflict");
        assert!(r.body["error"]["message"].as_str().unwrap().contains("pg_dump"));
        return;
    }
    let (writer_id, token) = app.create_user("writer").await;
    let writer = {
        let requests: Vec<_> = (0..150)
            .map(|_| app.request(Method::POST, "/api/sessions", As::Bearer(&token)))
            .collect();
        tokio::spawn(async move {
            for r in requests {
                assert_eq!(r.send().await.unwrap().status(), 201);
            }
        })
    };
    // Taken while the writes go on: once the first has landed.
    eventually("the first write", 5, || async {
        app.rows_of("sessions", &writer_id).await > 0
    })
    .await;
    let export = app
        .request(Method::GET, "/api/admin/db-export", As::AdminKey)
        .send()
        .await
        .unwrap();
    assert_eq!(export.status(), 200);
    assert!(
        export.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains(".db")
    );
    let bytes = export.bytes().await.unwrap();
    writer.await.unwrap();
    assert!(bytes.starts_with(b"SQLite format 3\0"));

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("copy.db");
    std::fs::write(&path, &bytes).unwrap();
    let options = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(&path)
        .read_only(true);
    let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
    let (check,): (String,) = sqlx::query_as("PRAGMA integrity_check").fetch_one(&pool).await.unwrap();
    assert_eq!(check, "ok");
    let (users,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM users WHERE name = 'writer'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(users, 1);
    assert_eq!(audit_actions(&app, "db.export").await, 1);
}
