//! Entry points of a person: the page gate at `/`, `/admin` and `/carer`, the personal link `/?k=…`, single-sign-on
//! login (`/api/login`, `/api/admin/login`) and the discovery of the proxy's identity header.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::header::{ACCEPT_LANGUAGE, CACHE_CONTROL, CONTENT_TYPE, HOST};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::audit::{Action, audit};
use super::openapi::{ADMIN, PUBLIC};

use crate::app::{App, AppState};
use crate::auth::{self, ADMIN_KEY_HEADER, Admin, cookie, token};
use crate::error::{ApiError, Result};
use crate::phrasebook::{self, phrase};
use crate::tls::{OverTls, host_of, is_loopback_host};

/// Routes of the page gate (the assistant page and the admin panel) and logins.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(index))
        .routes(routes!(admin_page))
        .routes(routes!(carer_page))
        .routes(routes!(login))
        .routes(routes!(sso_login))
        .routes(routes!(admin_login))
        .routes(routes!(request_headers))
        .routes(routes!(super::switch::switch))
}

/// The icon (not part of the API).
pub fn assets() -> Router<AppState> {
    Router::new()
        .route("/favicon.ico", get(favicon))
        .route("/favicon.svg", get(favicon))
}

const FAVICON: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="30" fill="#1f5f8b"/><rect x="25" y="12" width="14" height="26" rx="7" fill="#fff"/><path d="M18 30a14 14 0 0 0 28 0M32 44v8" stroke="#fff" stroke-width="4" fill="none"/></svg>"##;

async fn favicon() -> impl IntoResponse {
    (
        [(CONTENT_TYPE, "image/svg+xml"), (CACHE_CONTROL, "max-age=86400")],
        FAVICON,
    )
}

/// `path` without the `k` parameter, so the token does not stay in the address bar or history.
fn without_link_token(path: &str, query: &str) -> String {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).unwrap_or_default();
    let kept: Vec<(String, String)> = pairs.into_iter().filter(|(k, _)| k != "k").collect();
    match serde_urlencoded::to_string(kept) {
        Ok(rest) if !rest.is_empty() => format!("{path}?{rest}"),
        _ => path.to_string(),
    }
}

/// A personal link (`?k=<token>`) opened at `path`: the token goes into the cookie and the browser back to
/// `path` without it (a browser signed in as somebody else is asked first, [`super::switch`]); `None` when the
/// address holds no link.
async fn personal_link(
    app: &App,
    path: &str,
    query: Option<&str>,
    over_tls: bool,
    peer: SocketAddr,
    headers: &HeaderMap,
) -> Option<Result<Response>> {
    let link_token = auth::query_param(query, "k")?;
    let user = match app.store.user_by_token_hash(&token::hash(&link_token)).await {
        Ok(user) => user,
        Err(err) => return Some(Err(err.into())),
    };
    let response = match user {
        Some(_) if !keeps_secure_cookie(app, over_tls, peer, headers) => (
            StatusCode::FORBIDDEN,
            [(CACHE_CONTROL, "no-store")],
            Html(page(headers, "page-signin-insecure-link", false)),
        )
            .into_response(),
        // Signed in as somebody else: asked first, never swapped without a word.
        Some(user) => {
            let to = without_link_token(path, query.unwrap_or_default());
            match super::switch::ask(app, (&link_token, &user), &to, headers).await {
                Some(asked) => asked,
                None => cookie::redirect(&to, Some(&link_token)),
            }
        }
        None => (
            StatusCode::UNAUTHORIZED,
            // Counted against the address, as every failed credential ([`crate::guesses`]).
            axum::Extension(crate::error::Credential::Link),
            Html(page(headers, "page-signin-invalid-link", true)),
        )
            .into_response(),
    };
    Some(Ok(response))
}

/// The web page; `?k=<token>` stores the personal link in the cookie and redirects without it.
#[utoipa::path(get, path = "/", tag = PUBLIC, responses(
    (status = 200, description = "the assistant page", content_type = "text/html"),
    (status = 303, description = "a valid personal link: into the cookie, then the page without it"),
    (status = 403, description = "a personal link over plain HTTP from another machine: why it cannot sign in", content_type = "text/html"),
    (status = 401, description = "no identity: the sign-in page", content_type = "text/html")))]
async fn index(State(app): State<AppState>, asked: Asked) -> Response {
    // The page itself takes no query token: only the cookie, the proxy identity or the anonymous user.
    gated(&app, "/", &asked, |_| {
        ([(CACHE_CONTROL, "no-store")], Html(super::ui::index_html())).into_response()
    })
    .await
}

/// Whether the browser will keep the `Secure` sign-in cookie of this request: over TLS, on the gateway's own
/// machine (browsers treat `localhost` and loopback addresses as secure), or through a trusted proxy, which
/// terminates TLS itself.
fn keeps_secure_cookie(app: &App, over_tls: bool, peer: SocketAddr, headers: &HeaderMap) -> bool {
    let host = headers
        .get(HOST)
        .and_then(|h| h.to_str().ok())
        .map(host_of)
        .unwrap_or_default();
    over_tls
        || is_loopback_host(&host)
        || app
            .settings
            .auth
            .trusted_proxy_ips
            .iter()
            .any(|net| net.contains(&peer.ip()))
}

/// What a browser without identity gets at `/` and `/admin`: the proxy's login where there is one, else the
/// page with the sign-in button.
fn gate(app: &App, headers: &HeaderMap) -> Response {
    match &app.settings.auth.sso_login_url {
        Some(url) => cookie::redirect(url, None),
        None => (
            StatusCode::UNAUTHORIZED,
            Html(page(headers, "page-signin-no-access", true)),
        )
            .into_response(),
    }
}

/// The admin panel for admins; others get 403, callers without identity the same gate as `/`.
#[utoipa::path(get, path = "/admin", tag = PUBLIC, responses(
    (status = 200, description = "the admin panel", content_type = "text/html"),
    (status = 303, description = "a valid personal link: into the cookie, then the panel without it; no identity, behind a proxy: its login"),
    (status = 401, description = "no identity, or a personal link not valid: the sign-in page", content_type = "text/html"),
    (status = 403, description = "not an admin, or a personal link over plain HTTP from another machine", content_type = "text/html")))]
async fn admin_page(State(app): State<AppState>, asked: Asked) -> Response {
    gated(&app, "/admin", &asked, |caller| {
        if caller.is_admin {
            ([(CACHE_CONTROL, "no-store")], Html(super::ui::admin_html())).into_response()
        } else {
            let forbidden = Html(page(&asked.headers, "page-signin-not-admin", false));
            (StatusCode::FORBIDDEN, [(CACHE_CONTROL, "no-store")], forbidden).into_response()
        }
    })
    .await
}

/// How a page was asked for: from where, whether over TLS, its query (a personal link) and its headers.
struct Asked {
    peer: SocketAddr,
    over_tls: bool,
    query: Option<String>,
    headers: HeaderMap,
}

impl FromRequestParts<AppState> for Asked {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, state: &AppState) -> Result<Self, Response> {
        let ConnectInfo(peer) = ConnectInfo::<SocketAddr>::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        Ok(Self {
            peer,
            over_tls: parts.extensions.get::<OverTls>().is_some(),
            query: parts.uri.query().map(String::from),
            headers: parts.headers.clone(),
        })
    }
}

/// A page behind the gate at `path`: a personal link signs in first (an admin's opens the panel as a person's
/// opens the page); an identified caller gets what `shown` makes of them, anybody else the gate.
async fn gated(app: &App, path: &str, asked: &Asked, shown: impl FnOnce(auth::CurrentUser) -> Response) -> Response {
    let link = personal_link(
        app,
        path,
        asked.query.as_deref(),
        asked.over_tls,
        asked.peer,
        &asked.headers,
    )
    .await;
    if let Some(link) = link {
        return link.unwrap_or_else(IntoResponse::into_response);
    }
    match auth::identify(app, &asked.headers, None, Some(asked.peer)).await {
        Ok(caller) => shown(caller),
        Err(ApiError::Unauthorized) => gate(app, &asked.headers),
        Err(ApiError::WrongCredential(credential)) => {
            (axum::Extension(credential), gate(app, &asked.headers)).into_response()
        }
        Err(err) => err.into_response(),
    }
}

/// The carers' board for whoever is signed in (a user without residents sees that nobody is in their care);
/// callers without identity get the same gate as `/`.
#[utoipa::path(get, path = "/carer", tag = PUBLIC, responses(
    (status = 200, description = "the carers' board", content_type = "text/html"),
    (status = 303, description = "a valid personal link: into the cookie, then the board without it; no identity, behind a proxy: its login"),
    (status = 401, description = "no identity, or a personal link not valid: the sign-in page", content_type = "text/html"),
    (status = 403, description = "a personal link over plain HTTP from another machine", content_type = "text/html")))]
async fn carer_page(State(app): State<AppState>, asked: Asked) -> Response {
    gated(&app, "/carer", &asked, |_| {
        ([(CACHE_CONTROL, "no-store")], Html(super::ui::carer_html())).into_response()
    })
    .await
}

/// The sign-in button: the single-sign-on login where a proxy is configured, else how to get in without one.
#[utoipa::path(get, path = "/login", tag = PUBLIC, responses(
    (status = 200, description = "how to get in without a proxy: the personal link", content_type = "text/html"),
    (status = 303, description = "to /api/login behind a single-sign-on proxy")))]
async fn login(State(app): State<AppState>, headers: HeaderMap) -> Response {
    if !app.settings.auth.trusted_proxy_ips.is_empty() {
        return cookie::redirect("/api/login", None);
    }
    let how = page(&headers, "page-signin-how", false);
    ([(CACHE_CONTROL, "no-store")], Html(how)).into_response()
}

/// The gate page; with `login` a large button leads to `/login` (no automatic redirect).
/// The page's words are the browser's language (nobody is known yet); their markup is the phrasebook's own.
fn page(headers: &HeaderMap, message: &str, login: bool) -> String {
    let version = env!("CARGO_PKG_VERSION");
    let accepted = headers.get(ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok());
    let lang = phrasebook::negotiate(accepted);
    let button = if login {
        format!(
            "<p><a class=\"big\" href=\"/login\">{}</a></p>",
            phrase(lang, "page-signin-button")
        )
    } else {
        format!("<p>{}</p>", phrase(lang, "page-signin-api"))
    };
    let message = phrase(lang, message);
    format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>voice-gateway</title><link rel=\"icon\" href=\"/favicon.svg\">\
         <link rel=\"manifest\" href=\"/manifest.webmanifest\"><meta name=\"theme-color\" content=\"#1f5f8b\">\
         <link rel=\"stylesheet\" href=\"/ui/ack.css?v={version}\">\
         </head><body><main><h1>voice-gateway <small>{version}</small></h1><p>{message}</p>{button}</main></body></html>"
    )
}

/// Behind the SSO proxy: issues a token in cookie va_token and redirects to /.
#[utoipa::path(get, path = "/api/login", tag = PUBLIC, responses(
    (status = 303, description = "signed in: the token is in the cookie"),
    (status = 401, description = "not from a trusted proxy, or no identity header")))]
async fn sso_login(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Response> {
    let Some(external_id) = auth::trusted_identity(&app, &headers, Some(peer)) else {
        return Err(ApiError::Unauthorized);
    };
    let user = app.store.user_for_external_id(&external_id).await?;
    let fresh = token::generate();
    app.store.add_token(&user.id, &token::hash(&fresh), "sso login").await?;
    tracing::info!(user = %user.name, "single-sign-on login");
    Ok(cookie::redirect("/", Some(&fresh)))
}

/// Behind the SSO proxy: rotates an admin's token into the cookie; others 403.
#[utoipa::path(get, path = "/api/admin/login", tag = PUBLIC, responses(
    (status = 303, description = "signed in as admin: the token is in the cookie"),
    (status = 403, description = "not an admin, or not behind the proxy")))]
async fn admin_login(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Response> {
    let Some(external_id) = auth::trusted_identity(&app, &headers, Some(peer)) else {
        return Err(ApiError::Forbidden(
            "admin login requires the single-sign-on proxy".into(),
        ));
    };
    let user = app.store.user_for_external_id(&external_id).await?;
    if !auth::is_admin(&app, &user) {
        return Err(ApiError::Forbidden("admin rights required".into()));
    }
    let fresh = token::generate();
    app.store
        .replace_tokens(&user.id, &token::hash(&fresh), "admin login")
        .await?;
    let admin = Admin {
        actor: user.name.clone(),
        user: Some(user.clone()),
    };
    audit(&app, &admin, &user.id, Action::Login {}).await?;
    Ok(cookie::redirect("/", Some(&fresh)))
}

/// Headers whose values are secrets and are never echoed.
const REDACTED: &[&str] = &["authorization", "cookie", ADMIN_KEY_HEADER, "proxy-authorization"];

/// What the proxy sends, as the gateway sees it, to find the identity header.
#[derive(Serialize, ToSchema)]
struct RequestHeaders {
    peer: Option<String>,
    peer_is_trusted_proxy: bool,
    trusted_auth_header: String,
    /// The identity the trusted header gives, if any.
    identity: Option<String>,
    /// Every header; secrets show as `(redacted)`.
    headers: BTreeMap<String, String>,
}

/// Headers as the gateway sees them (also `?key=` or X-Admin-Key).
#[utoipa::path(get, path = "/api/admin/request-headers", tag = ADMIN, responses((status = 200, body = RequestHeaders)))]
async fn request_headers(State(app): State<AppState>, request: Request) -> Result<Json<RequestHeaders>> {
    let (mut parts, _body) = request.into_parts();
    let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    match auth::query_param(parts.uri.query(), "key") {
        Some(key) => auth::admin_by_key(&app, &key).map(drop)?,
        None => Admin::from_request_parts(&mut parts, &app).await.map(drop)?,
    }
    let headers = &parts.headers;
    let mut shown = BTreeMap::new();
    for (name, value) in headers {
        let text = if REDACTED.contains(&name.as_str()) {
            "(redacted)".to_string()
        } else {
            String::from_utf8_lossy(value.as_bytes()).into_owned()
        };
        shown.insert(name.as_str().to_string(), text);
    }
    let from = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0);
    Ok(Json(RequestHeaders {
        peer: peer.map(|ip| ip.to_string()),
        peer_is_trusted_proxy: peer
            .is_some_and(|ip| app.settings.auth.trusted_proxy_ips.iter().any(|n| n.contains(&ip))),
        trusted_auth_header: app.settings.auth.trusted_auth_header.clone(),
        identity: auth::trusted_identity(&app, headers, from),
        headers: shown,
    }))
}
