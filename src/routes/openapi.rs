//! `GET /openapi.json`: the API description, derived from the handlers.
//!
//! Every route is registered through `utoipa-axum`'s `routes!`, which takes the handler's `#[utoipa::path]`:
//! a route cannot be served without its description. What every route of a kind answers is added here from
//! the operation's tag (`public`, `user`, `admin`): the security it accepts, 401 and 403, 400/408/413/422 for
//! a request body, 404 for a path parameter, 503 at the connection caps and 429 while the caller's address waits
//! for guessing credentials.

use std::sync::OnceLock;

use axum::Json;
use serde_json::Value;
use utoipa::OpenApi as _;
use utoipa::openapi::path::{Operation, Parameter, ParameterIn};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, Http, HttpAuthScheme, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{Content, Info, Object, OpenApi, OpenApiVersion, PathItem, Ref, RefOr, Required, Response, Type};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;

pub use crate::auth::access::{ADMIN, CARER, OPENAI, PUBLIC, USER};

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
        complete(&mut api);
        serde_json::to_value(&api).unwrap_or_default()
    })
}

/// The schemas no route's body names: the error body every route may answer, and the frames and events of the
/// WebSocket channels (`/ws/chat` and `/ws/voice`; OpenAI's Realtime protocol on `/v1/realtime`), derived from
/// the types that read and write them.
#[derive(utoipa::OpenApi)]
#[openapi(components(schemas(
    crate::error::ErrorBody,
    crate::openai::errors::OpenAiErrorBody,
    crate::voice::ServerEvent,
    crate::ws::protocol::ClientFrame,
    crate::openai::realtime::events::ServerEvent,
    crate::openai::realtime::client::ClientEvent
)))]
struct Events;

/// Adds what every route of a kind answers, the security schemes and the version to the derived description.
fn complete(api: &mut OpenApi) {
    for (path, item) in api.paths.paths.iter_mut() {
        for (method, operation) in operations_mut(item) {
            complete_operation(method, path, operation);
        }
    }
    api.openapi = OpenApiVersion::Version31;
    let mut info = Info::new("voice-gateway", env!("CARGO_PKG_VERSION"));
    info.description = Some(
        "Self-hosted voice assistant gateway. Errors use the body in components/schemas/Error \
         (OpenAiErrorBody under /v1, the OpenAI-compatible API); the frames of /ws/chat and /ws/voice are \
         components/schemas/ClientFrame and ServerEvent, those of /v1/realtime RealtimeClientEvent and \
         RealtimeServerEvent."
            .into(),
    );
    api.info = info;
    let schemes = &mut api.components.get_or_insert_with(Default::default).security_schemes;
    let bearer = SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer));
    schemes.insert("bearer".into(), RefOr::T(bearer));
    let cookie = SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::new("va_token")));
    schemes.insert("cookie".into(), RefOr::T(cookie));
    let admin_key = SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::new("X-Admin-Key")));
    schemes.insert("adminKey".into(), RefOr::T(admin_key));
}

/// The operations of a path, by method.
fn operations_mut(item: &mut PathItem) -> impl Iterator<Item = (&'static str, &mut Operation)> {
    [
        ("get", &mut item.get),
        ("put", &mut item.put),
        ("post", &mut item.post),
        ("delete", &mut item.delete),
        ("options", &mut item.options),
        ("head", &mut item.head),
        ("patch", &mut item.patch),
        ("trace", &mut item.trace),
    ]
    .into_iter()
    .filter_map(|(method, operation)| Some((method, operation.as_mut()?)))
}

fn complete_operation(method: &str, path: &str, operation: &mut Operation) {
    // Handlers of different modules share names (`list`); the method and path are unique.
    let id: String = format!("{method}{path}")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    operation.operation_id = Some(id.trim_end_matches('_').to_string());
    let tag = operation
        .tags
        .as_ref()
        .and_then(|tags| tags.first())
        .map_or(PUBLIC, String::as_str)
        .to_string();
    let schemes: &[&str] = match tag.as_str() {
        USER | CARER => &["bearer", "cookie"],
        OPENAI => &["bearer"],
        ADMIN => &["adminKey", "bearer", "cookie"],
        _ => &[],
    };
    let no_scopes: [&str; 0] = [];
    operation.security = Some(
        schemes
            .iter()
            .map(|scheme| SecurityRequirement::new(*scheme, no_scopes))
            .collect(),
    );
    let has_query = complete_parameters(path, operation);
    complete_responses(&tag, path, has_query, operation);
}

/// Adds the path's parameters the handler did not describe; whether the operation takes a query.
fn complete_parameters(path: &str, operation: &mut Operation) -> bool {
    let is_param = |p: &RefOr<Parameter>, name: &str, kind: &ParameterIn| matches!(p, RefOr::T(p) if p.parameter_in == *kind && (name.is_empty() || p.name == name));
    let params = operation.parameters.get_or_insert_with(Vec::new);
    let has_query = params.iter().any(|p| is_param(p, "", &ParameterIn::Query));
    for name in path
        .split('/')
        .filter_map(|seg| seg.strip_prefix('{')?.strip_suffix('}'))
    {
        if !params.iter().any(|p| is_param(p, name, &ParameterIn::Path)) {
            let param = Parameter::builder()
                .name(name)
                .parameter_in(ParameterIn::Path)
                .required(Required::True)
                .schema(Some(Object::with_type(Type::String)))
                .build();
            params.push(RefOr::T(param));
        }
    }
    if params.is_empty() {
        operation.parameters = None;
    }
    has_query
}

/// Adds the errors every route of the tag and shape answers, each with the contract's body (OpenAI's on
/// `/v1`), and a description to every response.
fn complete_responses(tag: &str, path: &str, has_query: bool, operation: &mut Operation) {
    let has_body = operation.request_body.is_some();
    let responses = &mut operation.responses.responses;
    let mut common = vec!["503"];
    if tag != PUBLIC {
        common.push("401");
    }
    if path != "/health" {
        // An address that failed too many credentials waits ([`crate::guesses`]).
        common.push("429");
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
        responses
            .entry(code.to_string())
            .or_insert_with(|| RefOr::T(Response::new("error")));
    }
    let schema = if tag == OPENAI { "OpenAiErrorBody" } else { "Error" };
    for (code, response) in responses.iter_mut() {
        let RefOr::T(response) = response else {
            continue;
        };
        let error = code.as_str() >= "400";
        if error && response.content.is_empty() {
            let body = Content::new(Some(Ref::from_schema_name(schema)));
            response.content.insert("application/json".into(), RefOr::T(body));
        }
        if response.description.is_empty() {
            response.description = if error { "error" } else { "success" }.into();
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
