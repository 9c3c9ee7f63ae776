//! The browser UI, built into the binary (no CDN, no font download, works without internet). Asset URLs
//! carry the version as a cache-busting parameter; the assets themselves may be cached for a day. The pages
//! are served by the gate in [`super::login`], which decides who sees them.

use axum::Router;
use axum::extract::Path;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::IntoResponse;
use axum::routing::get;

use crate::app::AppState;
use crate::error::ApiError;
use crate::phrasebook;

const INDEX: &str = include_str!("../../ui/index.html");
const APP_JS: &str = include_str!("../../ui/app.js");
const FLUENT_JS: &str = include_str!("../../ui/vendor/fluent-bundle.js");
const WORDS_JS: &str = include_str!("../../ui/words.js");
const WORKLET_JS: &str = include_str!("../../ui/mic-worklet.js");
const APP_CSS: &str = include_str!("../../ui/app.css");
const ADMIN: &str = include_str!("../../ui/admin.html");
const ADMIN_JS: &str = include_str!("../../ui/admin.js");
const CARER: &str = include_str!("../../ui/carer.html");
const CARER_JS: &str = include_str!("../../ui/carer.js");
const ACK_CSS: &str = include_str!("../../ui/ack.css");
const MANIFEST: &str = include_str!("../../ui/manifest.webmanifest");
const SERVICE_WORKER: &str = include_str!("../../ui/sw.js");
const OFFLINE: &str = include_str!("../../ui/offline.html");
const ICON_192: &[u8] = include_bytes!("../../ui/icon-192.png");
const ICON_512: &[u8] = include_bytes!("../../ui/icon-512.png");
const ICON_180: &[u8] = include_bytes!("../../ui/icon-180.png");

/// The pages' scripts and styles (not part of the API; the page itself is served by the gate at `/`).
pub fn assets() -> Router<AppState> {
    Router::new()
        .route(
            "/ui/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/ui/vendor/fluent-bundle.js",
            get(|| async { asset("text/javascript; charset=utf-8", FLUENT_JS) }),
        )
        .route(
            "/ui/words.js",
            get(|| async { asset("text/javascript; charset=utf-8", WORDS_JS) }),
        )
        .route("/ui/locales/{lang}/{file}", get(words))
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
            "/ui/carer.js",
            get(|| async { asset("text/javascript; charset=utf-8", CARER_JS) }),
        )
        .route(
            "/ui/ack.css",
            get(|| async { asset("text/css; charset=utf-8", ACK_CSS) }),
        )
        .route(
            "/manifest.webmanifest",
            get(|| async { asset("application/manifest+json", MANIFEST) }),
        )
        // At the root, so that it may serve every page of the gateway; never cached by the browser itself, so a
        // new version's worker is found at once.
        .route("/sw.js", get(|| async { service_worker() }))
        .route(
            "/ui/offline.html",
            get(|| async { versioned("text/html; charset=utf-8", OFFLINE) }),
        )
        .route("/ui/icon-192.png", get(|| async { image(ICON_192) }))
        .route("/ui/icon-512.png", get(|| async { image(ICON_512) }))
        .route("/ui/icon-180.png", get(|| async { image(ICON_180) }))
}

/// `GET /ui/locales/{lang}/{area}.ftl`: the page's words in a language, as the phrasebook has them (built in,
/// then what the folder adds). Only the pages' areas; revalidated, since a translator's folder changes them
/// without a new version.
async fn words(Path((lang, file)): Path<(String, String)>) -> Result<impl IntoResponse, ApiError> {
    let area = file.strip_suffix(".ftl").filter(|a| PAGE_AREAS.contains(a));
    let text = area
        .and_then(|area| phrasebook::source(&lang, area))
        .ok_or(ApiError::NotFound("phrasebook file"))?;
    Ok((
        [(CONTENT_TYPE, "text/plain; charset=utf-8"), (CACHE_CONTROL, "no-cache")],
        text,
    ))
}

/// The phrasebook's areas the pages read.
const PAGE_AREAS: [&str; 3] = ["page", "admin", "carer"];

fn service_worker() -> impl IntoResponse {
    let body = SERVICE_WORKER.replace("{VERSION}", env!("CARGO_PKG_VERSION"));
    (
        [
            (CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}

fn versioned(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    let body = body.replace("{VERSION}", env!("CARGO_PKG_VERSION"));
    (
        [(CONTENT_TYPE, content_type), (CACHE_CONTROL, "public, max-age=86400")],
        body,
    )
}

fn image(bytes: &'static [u8]) -> impl IntoResponse {
    (
        [(CONTENT_TYPE, "image/png"), (CACHE_CONTROL, "public, max-age=86400")],
        bytes,
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

/// The carers' board with the version filled in.
pub fn carer_html() -> String {
    CARER.replace("{VERSION}", env!("CARGO_PKG_VERSION"))
}
