//! `GET /health`: liveness, with the store's state.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;

use crate::app::AppState;

/// The health route.
pub fn router() -> Router<AppState> {
    Router::new().route("/health", get(health))
}

/// 200 `{"status":"ok"}` while the database answers, else 503 `{"status":"degraded"}`.
async fn health(State(app): State<AppState>) -> impl IntoResponse {
    let db_ok = app.store.ping().await;
    let status = if db_ok {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let body = json!({
        "status": if db_ok { "ok" } else { "degraded" },
        "version": env!("CARGO_PKG_VERSION"),
        "database": if db_ok { "ok" } else { "unreachable" },
        "uptime_seconds": app.started_at.elapsed().as_secs(),
    });
    (status, Json(body))
}
