//! The browser UI, built into the binary (no CDN, no font download, works without internet). Asset URLs
//! carry the version as a cache-busting parameter; the assets themselves may be cached for a day.

use std::net::SocketAddr;

use axum::Router;
use axum::extract::{ConnectInfo, State};
use axum::http::HeaderMap;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::openapi::PUBLIC;
use crate::app::AppState;

const INDEX: &str = include_str!("../../ui/index.html");
const APP_JS: &str = include_str!("../../ui/app.js");
const I18N_JS: &str = include_str!("../../ui/i18n.js");
const WORKLET_JS: &str = include_str!("../../ui/mic-worklet.js");
const APP_CSS: &str = include_str!("../../ui/app.css");
const ADMIN: &str = include_str!("../../ui/admin.html");
const ADMIN_JS: &str = include_str!("../../ui/admin.js");
const ACK_CSS: &str = include_str!("../../ui/ack.css");

/// The admin page.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(admin_page))
}

/// The pages' scripts and styles (not part of the API; the page itself is served by the gate at `/`).
pub fn assets() -> Router<AppState> {
    Router::new()
        .route(
            "/ui/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/ui/i18n.js",
            get(|| async { asset("text/javascript; charset=utf-8", I18N_JS) }),
        )
        .route(
            "/ui/mic-worklet.js",
            get(|| async { asset("text/javascript; charset=utf-8", WORKLET_JS) }),
        )
        .route(
            "/ui/app.css",
            get(|| async { asset("text/css; charset=utf-8", APP_CSS) }),
        )
        .route(
            "/ui/admin.js",
            get(|| async { asset("text/javascript; charset=utf-8", ADMIN_JS) }),
        )
        .route(
            "/ui/ack.css",
            get(|| async { asset("text/css; charset=utf-8", ACK_CSS) }),
        )
}

fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [(CONTENT_TYPE, content_type), (CACHE_CONTROL, "public, max-age=86400")],
        body,
    )
}

/// The admin panel for admins; others get 403, callers without identity the same gate as `/`.
#[utoipa::path(get, path = "/admin", tag = PUBLIC, responses(
    (status = 200, description = "the admin panel", content_type = "text/html"),
    (status = 303, description = "no identity, behind a proxy: its login"),
    (status = 401, description = "no identity: the sign-in page", content_type = "text/html"),
    (status = 403, description = "not an admin")))]
async fn admin_page(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Response {
    match crate::auth::identify(&app, &headers, None, Some(peer)).await {
        Ok(caller) if caller.is_admin => (
            [(CACHE_CONTROL, "no-store")],
            Html(ADMIN.replace("{VERSION}", env!("CARGO_PKG_VERSION"))),
        )
            .into_response(),
        Ok(_) => crate::error::ApiError::Forbidden("the admin panel is for admins".into()).into_response(),
        Err(crate::error::ApiError::Unauthorized) => super::login::gate(&app),
        Err(err) => err.into_response(),
    }
}

/// The assistant page with the version filled in.
pub fn index_html() -> String {
    INDEX.replace("{VERSION}", env!("CARGO_PKG_VERSION"))
}
