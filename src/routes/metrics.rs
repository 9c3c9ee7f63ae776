//! `GET /api/metrics` (admins: the numbers tell who uses the gateway how much) and the middleware that counts
//! every routed request by its route template, so `/api/sessions/:session_id` is one series, not one per
//! session.

use std::time::Instant;

use axum::Json;
use axum::extract::{MatchedPath, Request, State};
use axum::http::header::{ACCEPT, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::openapi::ADMIN;
use crate::app::AppState;
use crate::auth::Admin;
use crate::error::AppQuery;

/// The route.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(metrics))
}

/// Query of `GET /api/metrics`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct MetricsQuery {
    /// `prometheus` for the text exposition format.
    format: Option<String>,
}

/// Counters, gauges and latency histograms: JSON by default; the Prometheus text format with
/// `?format=prometheus` or an `Accept` of `text/plain` or `application/openmetrics-text` (what Prometheus sends).
#[utoipa::path(get, path = "/api/metrics", tag = ADMIN, params(MetricsQuery), responses((status = 200,
    description = "HTTP requests and latency per route template, stage timings, fallbacks, provider errors, quota \
        rejections, emergency_total, emergency_cooldowns_ended_total, emergency_acknowledgements_total, \
        emergency_escalations_total, ws_connections",
    content((crate::metrics::Snapshot = "application/json"), (String = "text/plain")))))]
async fn metrics(
    State(app): State<AppState>,
    _admin: Admin,
    headers: HeaderMap,
    AppQuery(query): AppQuery<MetricsQuery>,
) -> Response {
    let accept = headers.get(ACCEPT).and_then(|v| v.to_str().ok()).unwrap_or("");
    let text = query.format.as_deref() == Some("prometheus")
        || accept.contains("text/plain")
        || accept.contains("application/openmetrics-text");
    if text {
        let content_type = HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8");
        ([(CONTENT_TYPE, content_type)], app.metrics.to_prometheus()).into_response()
    } else {
        Json(app.metrics.snapshot()).into_response()
    }
}

/// The route template as a label: `/api/sessions/{session_id}` → `/api/sessions/:session_id` (braces in label
/// values are valid, but some scrapers' parsers trip over them).
fn label_of(template: &str) -> String {
    template
        .split('/')
        .map(|seg| match seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            Some(name) => format!(":{name}"),
            None => seg.to_string(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Counts a routed request and its latency under its route template.
pub async fn track(State(app): State<AppState>, request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_string(), |p| label_of(p.as_str()));
    let method = request.method().to_string();
    let started = Instant::now();
    // A failure the test suite injects into a handler (see `crate::task::Faults`).
    app.faults.trip("http");
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    let labels = [("method", method.as_str()), ("route", route.as_str())];
    app.metrics.observe(
        crate::metrics::HTTP_REQUEST_DURATION_SECONDS,
        &labels,
        started.elapsed().as_secs_f64(),
    );
    app.metrics.incr(
        crate::metrics::HTTP_REQUESTS_TOTAL,
        &[
            ("method", method.as_str()),
            ("route", route.as_str()),
            ("status", status.as_str()),
        ],
    );
    response
}
