//! HTTP routes, one module per resource, merged into one router.

pub mod access;
pub mod admin_config;
pub mod admin_health;
pub mod admin_lexicon;
pub mod admin_llm;
pub mod admin_ops;
pub mod admin_users;
pub mod audit;
pub mod board;
pub mod ca;
pub mod care;
pub mod carer;
pub mod chat;
pub mod devices;
pub mod emergency;
pub mod export;
pub mod health;
pub mod login;
pub mod me;
pub mod metrics;
pub mod openapi;
pub mod public_config;
pub mod reminders;
pub mod sessions;
pub mod switch;
pub mod ui;

use std::net::SocketAddr;
use std::time::Instant;

use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use utoipa_axum::router::OpenApiRouter;

use crate::app::AppState;
use crate::error::{ApiError, Credential, error_response};

/// Every route with its description, without state; uploads to `/api/transcribe` may be up to `audio_limit`
/// bytes.
pub fn described(audio_limit: usize) -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(health::router())
        .merge(access::router())
        .merge(export::router())
        .merge(ca::router())
        .merge(public_config::router())
        .merge(openapi::router())
        .merge(login::router())
        .merge(me::router())
        .merge(reminders::router())
        .merge(care::router())
        .merge(carer::router())
        .merge(sessions::router())
        .merge(devices::router())
        .merge(chat::router(audio_limit))
        .merge(emergency::router())
        .merge(admin_users::router())
        .merge(admin_config::router())
        .merge(admin_lexicon::router())
        .merge(admin_llm::router())
        .merge(admin_ops::router())
        .merge(admin_health::router())
        .merge(crate::ws::router())
        .merge(crate::phone::router())
        .merge(metrics::router())
        .merge(crate::openai::router(audio_limit))
}

/// The whole HTTP interface.
pub fn router(state: AppState) -> Router {
    let body_limit = state.settings.limits.body_bytes;
    let (routes, _) = described(state.settings.limits.audio_bytes).split_for_parts();
    let routes = routes
        .merge(login::assets())
        .merge(ui::assets())
        .route_layer(axum::middleware::from_fn_with_state(state.clone(), metrics::track))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(CatchPanicLayer::custom({
            let app = state.clone();
            move |err| panic_response(&app, err)
        }))
        .layer(axum::middleware::from_fn_with_state(state.clone(), slow_guessers))
        .layer(axum::middleware::from_fn(crate::openai::errors::translate))
        .layer(own_pages_only(state.settings.emergency.public_url.clone()));
    with_security_headers(routes).with_state(state)
}

/// Writes (POST, PUT, PATCH, DELETE) only from the gateway's own pages: the browser's `Sec-Fetch-Site` says
/// `same-origin` (or `none`: typed, a bookmark), else its `Origin` is the request's own host or `PUBLIC_URL`;
/// a request with neither (curl, Twilio, a script with a bearer token) is no browser's and passes. A page on
/// another port of the same machine is the same *site* for `SameSite=Lax` cookies, not the same origin: its
/// form or `fetch` gets 403 `cross_origin` before any handler runs (Go 1.25's scheme, as `tower-http` has it).
fn own_pages_only(
    public_url: Option<String>,
) -> tower_http::csrf::CsrfLayer<impl tower_http::csrf::ResponseForProtectionError<axum::body::Body>> {
    let mut layer = tower_http::csrf::CsrfLayer::new();
    if let Some(origin) = public_url.and_then(|url| reqwest::Url::parse(&url).ok()) {
        let origin = origin.origin().ascii_serialization();
        layer = match layer.clone().add_trusted_origin(&origin) {
            Ok(trusted) => trusted,
            Err(err) => {
                tracing::warn!(%err, origin, "PUBLIC_URL's origin could not be trusted for writes");
                layer
            }
        };
    }
    layer.with_rejection_response(|err: tower_http::csrf::ProtectionError| {
        tracing::debug!(%err, "a write from another origin was refused");
        error_response(
            StatusCode::FORBIDDEN,
            "cross_origin",
            "this request did not come from the gateway's own pages",
        )
    })
}

/// Guessing slowed to nothing ([`crate::guesses`]): an address that failed too many credentials waits, every
/// request of it but `/health` answered 429 with `Retry-After`; a handler's failed credential (the
/// [`Credential`] its response carries) is counted against the address after the response.
async fn slow_guessers(State(app): State<AppState>, req: Request, next: Next) -> Response {
    let peer = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0);
    let Some(client) = crate::guesses::client(req.headers(), peer, &app.settings.auth.trusted_proxy_ips) else {
        return next.run(req).await;
    };
    let now = Instant::now();
    if req.uri().path() != "/health"
        && let Some(wait) = app.guesses.waiting(client, now)
    {
        return ApiError::Waiting(wait).into_response();
    }
    let response = next.run(req).await;
    if let Some(credential) = response.extensions().get::<Credential>() {
        let labels = [("kind", credential.as_str())];
        app.metrics.incr(crate::metrics::AUTH_FAILURES_TOTAL, &labels);
        if let Some(wait) = app.guesses.failed(client, now) {
            app.metrics.incr(crate::metrics::AUTH_BLOCKED_TOTAL, &[]);
            tracing::warn!(%client, seconds = wait.as_secs(), "an address failed too many credentials; it waits");
        }
    }
    response
}

/// The content security policy of every page: scripts, styles and connections only from the gateway itself
/// (no inline script or style), no framing, no `<base>`, forms only to the gateway.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; media-src 'self' blob:; connect-src 'self'; worker-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// What the pages may use of the device: the microphone and the location (the help button's) for the
/// gateway's own pages, nothing else.
pub const PERMISSIONS_POLICY: &str = "camera=(), microphone=(self), geolocation=(self), payment=(), usb=()";

/// Headers on every response (a handler's own win): the policy above, no MIME sniffing, no referrer (the
/// acknowledgement and personal links carry secrets in their address), no framing by older browsers, a window
/// of its own (another site's window it opened, or that opened it, holds no handle to it), its responses not
/// loadable by another site's page (an image or script tag reading an answer), and the device permissions
/// above. No `Strict-Transport-Security`: a house that turns `TLS` off again must still reach its gateway.
pub fn with_security_headers<S: Clone + Send + Sync + 'static>(router: Router<S>) -> Router<S> {
    let set = |name, value| SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value));
    router
        .layer(set(header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY))
        .layer(set(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(set(header::REFERRER_POLICY, "no-referrer"))
        .layer(set(header::X_FRAME_OPTIONS, "DENY"))
        .layer(set(
            header::HeaderName::from_static("cross-origin-opener-policy"),
            "same-origin",
        ))
        .layer(set(
            header::HeaderName::from_static("cross-origin-resource-policy"),
            "same-origin",
        ))
        .layer(set(
            header::HeaderName::from_static("permissions-policy"),
            PERMISSIONS_POLICY,
        ))
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

/// A panic is a bug: the client gets the contract's 500 body; it is counted (`task_failures_total{door="http"}`,
/// the admin panel's health) and logged with its message.
fn panic_response(app: &AppState, err: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let detail = err
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| err.downcast_ref::<&str>().copied())
        .unwrap_or("unknown panic");
    app.lines.task_failed(&app.metrics, "http", detail);
    error_response(StatusCode::INTERNAL_SERVER_ERROR, "internal", "internal error")
}
