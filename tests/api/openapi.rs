use reqwest::Method;
use voice_gateway::routes::openapi::ENDPOINTS;

use crate::common::{As, spawn_app};

#[tokio::test]
async fn every_described_endpoint_is_served() {
    let app = spawn_app(&[]).await;
    for (method, path, ..) in ENDPOINTS {
        if *path == "/api/admin/gateway/restart" {
            // It would stop this test's server; the binary test restarts the real program.
            continue;
        }
        let concrete = path
            .replace("{user_id}", "u")
            .replace("{key}", "local_llm_model")
            .replace(['{', '}'], "");
        let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
        let r = app.call(method.clone(), &concrete, As::AdminKey, None).await;
        let unrouted = r.status == 405 || (r.status == 404 && r.body["error"]["message"] == "no such endpoint");
        assert!(!unrouted, "{method} {path} is described but not served ({})", r.status);
    }
}

#[tokio::test]
async fn the_description_carries_the_version_and_every_path() {
    let app = spawn_app(&[]).await;
    let doc = app.get("/openapi.json", As::Nobody).await.body;
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["version"], env!("CARGO_PKG_VERSION"));
    for (method, path, ..) in ENDPOINTS {
        assert!(doc["paths"][path][method].is_object(), "{method} {path} missing");
    }
    assert!(doc["paths"]["/api/admin/users"]["get"]["responses"]["403"].is_object());
}

#[tokio::test]
async fn the_description_lists_the_statuses_routes_really_answer() {
    let app = spawn_app(&[("TRUSTED_PROXY_IPS", "10.0.0.1")]).await;
    let doc = app.get("/openapi.json", As::Nobody).await.body;
    let responses = |method: &str, path: &str| doc["paths"][path][method]["responses"].clone();
    // Each described status, provoked for real.
    let (_, token) = app.create_user("doc").await;
    let taken = app
        .call(
            Method::POST,
            "/api/admin/users",
            As::AdminKey,
            Some(serde_json::json!({"name": "doc"})),
        )
        .await;
    assert_eq!(taken.status, 409);
    assert!(responses("post", "/api/admin/users")["409"].is_object());
    assert_eq!(app.get("/api/login", As::Nobody).await.status, 401);
    assert!(responses("get", "/api/login")["401"].is_object());
    assert_eq!(app.get("/api/admin/login", As::Bearer(&token)).await.status, 403);
    assert!(responses("get", "/api/admin/login")["403"].is_object());
    let unknown = app
        .call(
            Method::POST,
            "/api/admin/models/select",
            As::AdminKey,
            Some(serde_json::json!({"preset": "nope"})),
        )
        .await;
    assert_eq!(unknown.status, 404, "{}", unknown.body);
    assert!(responses("post", "/api/admin/models/select")["404"].is_object());
    // A press and a new session may come without a body.
    assert_eq!(
        app.call(Method::POST, "/api/sessions", As::Bearer(&token), None)
            .await
            .status,
        201
    );
    assert_eq!(doc["paths"]["/api/sessions"]["post"]["requestBody"]["required"], false);
    assert_eq!(doc["paths"]["/api/emergency"]["post"]["requestBody"]["required"], false);
    assert_eq!(doc["paths"]["/api/chat"]["post"]["requestBody"]["required"], true);
}
