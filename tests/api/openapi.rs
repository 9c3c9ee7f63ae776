use reqwest::Method;
use voice_gateway::routes::openapi::operations;

use crate::common::{As, spawn_app};

#[tokio::test]
async fn every_described_operation_is_served() {
    let app = spawn_app(&[]).await;
    let described = operations();
    assert!(described.len() > 60, "{described:?}");
    for (method, path) in described {
        if path == "/api/admin/gateway/restart" {
            // It would stop this test's server; the binary test restarts the real program.
            continue;
        }
        let concrete = path
            .replace("{user_id}", "u")
            .replace("{key}", "local_llm_model")
            .replace(['{', '}'], "");
        let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
        if path.ends_with("/events") {
            // An event stream never ends: its status and type are what tell that it is served.
            let r = app
                .request(method.clone(), &concrete, As::AdminKey)
                .send()
                .await
                .unwrap();
            let stream = r
                .headers()
                .get("content-type")
                .is_some_and(|t| t == "text/event-stream");
            assert!(stream || r.status() == 401, "{method} {path}: {}", r.status());
            continue;
        }
        let r = app.call(method.clone(), &concrete, As::AdminKey, None).await;
        let unrouted = r.status == 405 || (r.status == 404 && r.body["error"]["message"] == "no such endpoint");
        assert!(!unrouted, "{method} {path} is described but not served ({})", r.status);
    }
}

/// The other way: a route is registered only through `utoipa-axum`'s `routes!`, which takes the handler's
/// description; plain `.route(` is left to the pages' assets (icons, scripts, styles), which are not API.
#[test]
fn every_served_route_is_described() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let mut plain = Vec::new();
    for dir in ["routes", "ws"] {
        for entry in std::fs::read_dir(format!("{root}/{dir}")).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            for line in text.lines().filter(|l| l.contains(".route(\"")) {
                plain.push(format!("{name}: {}", line.trim()));
            }
        }
    }
    let assets = [
        "/favicon.ico",
        "/favicon.svg",
        "/ui/",
        "/manifest.webmanifest",
        "/sw.js",
    ];
    let undescribed: Vec<&String> = plain
        .iter()
        .filter(|l| !assets.iter().any(|a| l.contains(&format!("\"{a}"))))
        .collect();
    assert!(undescribed.is_empty(), "routes without a description: {undescribed:?}");
    let src = std::fs::read_to_string(format!("{root}/routes/ui.rs")).unwrap();
    assert!(src.contains("\"/ui/app.js\""), "the asset check reads the real files");
}

#[tokio::test]
async fn the_description_carries_the_version_schemas_and_events() {
    let app = spawn_app(&[]).await;
    let doc = app.get("/openapi.json", As::Nobody).await.body;
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["version"], env!("CARGO_PKG_VERSION"));
    assert!(doc["paths"]["/api/admin/users"]["get"]["responses"]["403"].is_object());
    let chat = &doc["paths"]["/api/chat"]["post"]["responses"]["200"];
    assert_eq!(
        chat["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/ChatAnswer"
    );
    let schemas = &doc["components"]["schemas"];
    for name in [
        "Error",
        "ChatAnswer",
        "Semantic",
        "ServerEvent",
        "Transcription",
        "PublicConfig",
    ] {
        assert!(schemas[name].is_object(), "{name} missing");
    }
    // Each WebSocket event is one variant of ServerEvent, told apart by its type.
    let events = serde_json::to_string(&schemas["ServerEvent"]).unwrap();
    for kind in [
        "transcript",
        "ack",
        "token",
        "filler",
        "notice",
        "semantic",
        "audio",
        "interrupted",
        "done",
        "error",
    ] {
        assert!(events.contains(&format!("\"{kind}\"")), "{kind} missing in {events}");
    }
    let ids: Vec<&str> = doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|item| item.as_object().unwrap().values())
        .map(|op| op["operationId"].as_str().unwrap())
        .collect();
    let unique: std::collections::HashSet<&&str> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "operation ids are unique");
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
    assert_ne!(doc["paths"]["/api/sessions"]["post"]["requestBody"]["required"], true);
    assert_ne!(doc["paths"]["/api/emergency"]["post"]["requestBody"]["required"], true);
    assert_eq!(doc["paths"]["/api/chat"]["post"]["requestBody"]["required"], true);
}

/// The WebSocket channels are described by the types that read and write their frames: every frame and event
/// type is listed under its schema, and every schema they name is there too.
#[test]
fn the_description_lists_the_websocket_frames_and_the_realtime_events() {
    let doc = voice_gateway::routes::openapi::document();
    let schemas = &doc["components"]["schemas"];
    let listed = |name: &str, kinds: &[&str]| {
        assert!(schemas[name].is_object(), "{name} missing");
        let text = serde_json::to_string(&schemas[name]).unwrap();
        for kind in kinds {
            assert!(
                text.contains(&format!("\"{kind}\"")),
                "{kind} missing in {name}: {text}"
            );
        }
    };
    listed("ClientFrame", &["chat", "start", "end", "interrupt"]);
    listed(
        "RealtimeClientEvent",
        &[
            "session.update",
            "input_audio_buffer.append",
            "input_audio_buffer.commit",
            "input_audio_buffer.clear",
            "conversation.item.create",
            "response.create",
            "response.cancel",
        ],
    );
    listed(
        "RealtimeServerEvent",
        &[
            "session.created",
            "session.updated",
            "error",
            "input_audio_buffer.cleared",
            "input_audio_buffer.speech_started",
            "input_audio_buffer.speech_stopped",
            "input_audio_buffer.committed",
            "conversation.item.added",
            "conversation.item.created",
            "conversation.item.input_audio_transcription.completed",
            "response.created",
            "response.output_item.added",
            "response.content_part.added",
            "response.output_text.delta",
            "response.output_audio_transcript.delta",
            "response.output_audio.delta",
            "response.output_text.done",
            "response.output_audio.done",
            "response.output_audio_transcript.done",
            "response.content_part.done",
            "response.output_item.done",
            "response.done",
        ],
    );
    // Every schema a description refers to is described.
    let text = serde_json::to_string(doc).unwrap();
    for reference in text.split("\"#/components/schemas/").skip(1) {
        let name = &reference[..reference.find('"').unwrap()];
        assert!(schemas[name].is_object(), "{name} is named but not described");
    }
}
