//! `GET /openapi.json`: the API description, derived from the handlers.
//!
//! Every route is registered through `utoipa-axum`'s `routes!`, which takes the handler's `#[utoipa::path]`:
//! a route cannot be served without its description. What every route of a kind answers is added here from
//! the operation's tag (`public`, `user`, `admin`): the security it accepts, 401 and 403, 400/408/413/422 for
//! a request body, 404 for a path parameter and 503 at the connection caps.

use std::sync::OnceLock;

use axum::Json;
use serde_json::{Value, json};
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;

pub use crate::auth::access::{ADMIN, OPENAI, PUBLIC, USER};

/// The route of the description itself.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(openapi_json))
}

/// This API description (OpenAPI 3.1).
#[utoipa::path(get, path = "/openapi.json", tag = PUBLIC,
    responses((status = 200, description = "This API description (OpenAPI 3.1)", body = Object)))]
async fn openapi_json() -> Json<&'static Value> {
    Json(document())
}

/// The whole description, built once from the routes.
pub fn document() -> &'static Value {
    static DOCUMENT: OnceLock<Value> = OnceLock::new();
    DOCUMENT.get_or_init(|| {
        let mut api = super::described(0).into_openapi();
        api.merge(Events::openapi());
        complete(api)
    })
}

/// The schemas no route's body names: the error body every route may answer, and the frames and events of the
/// WebSocket channels (`/ws/chat` and `/ws/voice`; OpenAI's Realtime protocol on `/v1/realtime`), derived from
/// the types that read and write them.
#[derive(utoipa::OpenApi)]
#[openapi(components(schemas(
    crate::error::ErrorBody,
    crate::openai::errors::OpenAiErrorBody,
    crate::ws::protocol::ServerEvent,
    crate::ws::protocol::ClientFrame,
    crate::openai::realtime::events::ServerEvent,
    crate::openai::realtime::client::ClientEvent
)))]
struct Events;

/// Adds what every route of a kind answers, the security schemes and the version to the derived description.
fn complete(api: utoipa::openapi::OpenApi) -> Value {
    let mut doc = serde_json::to_value(&api).unwrap_or_default();
    if let Some(paths) = doc["paths"].as_object_mut() {
        for (path, item) in paths.iter_mut() {
            for (method, operation) in item.as_object_mut().into_iter().flatten() {
                complete_operation(method, path, operation);
            }
        }
    }
    doc["openapi"] = json!("3.1.0");
    doc["info"] = json!({"title": "voice-gateway", "version": env!("CARGO_PKG_VERSION"),
        "description": "Self-hosted voice assistant gateway. Errors use the body in components/schemas/Error \
            (OpenAiErrorBody under /v1, the OpenAI-compatible API); the frames of /ws/chat and /ws/voice are \
            components/schemas/ClientFrame and ServerEvent, those of /v1/realtime RealtimeClientEvent and \
            RealtimeServerEvent."});
    doc["components"]["securitySchemes"] = json!({
        "bearer": {"type": "http", "scheme": "bearer"},
        "cookie": {"type": "apiKey", "in": "cookie", "name": "va_token"},
        "adminKey": {"type": "apiKey", "in": "header", "name": "X-Admin-Key"},
    });
    doc
}

fn complete_operation(method: &str, path: &str, operation: &mut Value) {
    // Handlers of different modules share names (`list`); the method and path are unique.
    let id: String = format!("{method}{path}")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    operation["operationId"] = json!(id.trim_end_matches('_'));
    let tag = operation["tags"][0].as_str().unwrap_or(PUBLIC).to_string();
    operation["security"] = match tag.as_str() {
        USER => json!([{"bearer": []}, {"cookie": []}]),
        OPENAI => json!([{"bearer": []}]),
        ADMIN => json!([{"adminKey": []}, {"bearer": []}, {"cookie": []}]),
        _ => json!([]),
    };
    let has_body = operation.get("requestBody").is_some();
    let has_query = operation["parameters"]
        .as_array()
        .is_some_and(|p| p.iter().any(|p| p["in"] == "query"));
    let mut params: Vec<Value> = operation["parameters"].as_array().cloned().unwrap_or_default();
    for name in path
        .split('/')
        .filter_map(|seg| seg.strip_prefix('{')?.strip_suffix('}'))
    {
        if !params.iter().any(|p| p["name"] == name && p["in"] == "path") {
            params.push(json!({"name": name, "in": "path", "required": true, "schema": {"type": "string"}}));
        }
    }
    if !params.is_empty() {
        operation["parameters"] = Value::from(params);
    }
    let Some(responses) = operation["responses"].as_object_mut() else {
        return;
    };
    let mut common = vec!["503"];
    if tag != PUBLIC {
        common.push("401");
    }
    if tag == ADMIN {
        common.push("403");
    }
    if has_body {
        common.extend(["400", "408", "413", "422"]);
    }
    if path.contains('{') {
        // Unknown, or out of range (a language that does not exist).
        common.extend(["404", "422"]);
    }
    if has_query {
        common.push("422");
    }
    for code in common {
        responses.entry(code).or_insert_with(|| json!({"description": "error"}));
    }
    // Every error answers the contract's body (OpenAI's on `/v1`); every response needs a description.
    let schema = if tag == OPENAI { "OpenAiErrorBody" } else { "Error" };
    let error = json!({"application/json": {"schema": {"$ref": format!("#/components/schemas/{schema}")}}});
    for (code, response) in responses.iter_mut() {
        if code.as_str() >= "400" && response.get("content").is_none() {
            response["content"] = error.clone();
        }
        if response.get("description").is_none() {
            response["description"] = json!(if code.as_str() < "400" { "success" } else { "error" });
        }
    }
}

/// Every described operation as (method, path), for tests that walk them.
pub fn operations() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (path, item) in document()["paths"].as_object().into_iter().flatten() {
        for method in item.as_object().into_iter().flatten().map(|(m, _)| m) {
            out.push((method.clone(), path.clone()));
        }
    }
    out
}
