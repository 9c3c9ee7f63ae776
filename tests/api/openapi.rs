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
