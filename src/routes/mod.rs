//! HTTP routes, one module per resource, merged into one router.

pub mod admin_config;
pub mod admin_lexicon;
pub mod admin_llm;
pub mod admin_ops;
pub mod admin_users;
pub mod chat;
pub mod devices;
pub mod emergency;
pub mod health;
pub mod login;
pub mod me;
pub mod metrics;
pub mod openapi;
pub mod public_config;
pub mod sessions;
pub mod ui;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::response::Response;
use tower_http::catch_panic::CatchPanicLayer;

use crate::app::AppState;
use crate::error::error_response;

/// The whole HTTP interface.
pub fn router(state: AppState) -> Router {
    let body_limit = state.settings.body_limit_bytes;
    Router::new()
        .merge(health::router())
        .merge(public_config::router())
        .merge(openapi::router())
        .merge(login::router())
        .merge(ui::router())
        .merge(me::router())
        .merge(sessions::router())
        .merge(devices::router())
        .merge(chat::router(state.settings.audio_limit_bytes))
        .merge(emergency::router())
        .merge(admin_users::router())
        .merge(admin_config::router())
        .merge(admin_lexicon::router())
        .merge(admin_llm::router())
        .merge(admin_ops::router())
        .merge(crate::ws::router())
        .merge(metrics::router())
        .route_layer(axum::middleware::from_fn_with_state(state.clone(), metrics::track))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(CatchPanicLayer::custom(panic_response))
        .with_state(state)
}

async fn not_found() -> Response {
    error_response(StatusCode::NOT_FOUND, "not_found", "no such endpoint")
}

async fn method_not_allowed() -> Response {
    error_response(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "method not allowed on this endpoint",
    )
}

/// A panic is a bug: the client gets the contract's 500 body, the log gets the message.
fn panic_response(err: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let detail = err
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| err.downcast_ref::<&str>().copied())
        .unwrap_or("unknown panic");
    tracing::error!(detail, "handler panicked");
    error_response(StatusCode::INTERNAL_SERVER_ERROR, "internal", "internal error")
}
