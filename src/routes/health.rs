//! `GET /health`: liveness, with the store's state.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::openapi::PUBLIC;
use crate::app::AppState;

/// The health route.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(health))
}

/// Liveness and the database's state.
#[derive(Serialize, ToSchema)]
struct Health {
    /// `ok`, or `degraded` when the database does not answer.
    status: &'static str,
    version: &'static str,
    /// `ok` or `unreachable`.
    database: &'static str,
    uptime_seconds: u64,
}

/// Liveness and database state: 200 while the database answers, else 503 `degraded`.
#[utoipa::path(get, path = "/health", tag = PUBLIC, responses(
    (status = 200, body = Health), (status = 503, description = "the database does not answer", body = Health)))]
async fn health(State(app): State<AppState>) -> (StatusCode, Json<Health>) {
    let db_ok = app.store.ping().await;
    let status = if db_ok {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let body = Health {
        status: if db_ok { "ok" } else { "degraded" },
        version: env!("CARGO_PKG_VERSION"),
        database: if db_ok { "ok" } else { "unreachable" },
        uptime_seconds: app.started_at.elapsed().as_secs(),
    };
    (status, Json(body))
}
