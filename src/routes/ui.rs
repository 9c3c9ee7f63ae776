//! The browser UI, built into the binary (no CDN, no font download, works without internet). Asset URLs
//! carry the version as a cache-busting parameter; the assets themselves may be cached for a day. The pages
//! are served by the gate in [`super::login`], which decides who sees them.

use axum::Router;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::IntoResponse;
use axum::routing::get;

use crate::app::AppState;

const INDEX: &str = include_str!("../../ui/index.html");
const APP_JS: &str = include_str!("../../ui/app.js");
const I18N_JS: &str = include_str!("../../ui/i18n.js");
const WORKLET_JS: &str = include_str!("../../ui/mic-worklet.js");
const APP_CSS: &str = include_str!("../../ui/app.css");
const ADMIN: &str = include_str!("../../ui/admin.html");
const ADMIN_JS: &str = include_str!("../../ui/admin.js");
const ACK_CSS: &str = include_str!("../../ui/ack.css");

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

/// The assistant page with the version filled in.
pub fn index_html() -> String {
    INDEX.replace("{VERSION}", env!("CARGO_PKG_VERSION"))
}

/// The admin panel with the version filled in.
pub fn admin_html() -> String {
    ADMIN.replace("{VERSION}", env!("CARGO_PKG_VERSION"))
}
