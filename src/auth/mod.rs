//! Identity and access: who is calling, and whether they may.
//!
//! Methods tried per request, in order: bearer token; cookie `va_token`; the `k` (personal link) or `token`
//! (WebSocket) query parameter; the trusted single-sign-on header, believed only from `TRUSTED_PROXY_IPS`;
//! and, when `AUTH_ENABLED` is false, the anonymous user: for callers on this machine (loopback), and from
//! other machines only with `ANONYMOUS_FROM_NETWORK`, so that opening the gateway to the house does not make
//! everyone on the network the same person. Admin endpoints also accept `X-Admin-Key`.

pub mod cookie;
pub mod names;
pub mod token;

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;

use crate::app::{App, AppState};
use crate::error::{ApiError, Credential};
use crate::store::users::User;

/// Who may call an operation: the API description tags each route with one of these, and its security follows.
pub mod access {
    /// Routes anybody may call.
    pub const PUBLIC: &str = "public";
    /// Routes of any authenticated user (everyone when AUTH_ENABLED is false).
    pub const USER: &str = "user";
    /// The admins' routes: admin key, admin flag or ADMIN_USERS.
    pub const ADMIN: &str = "admin";
    /// A carer's routes: any user, by bearer token or cookie; only the caller's residents are reachable
    /// (anybody else is 404).
    pub const CARER: &str = "carer";
    /// The OpenAI-compatible routes under `/v1`: any user, by bearer token; errors in OpenAI's shape.
    pub const OPENAI: &str = "openai";
}

/// Header carrying the admin key.
pub const ADMIN_KEY_HEADER: &str = "x-admin-key";

/// How the caller was identified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// `Authorization: Bearer …`.
    Bearer,
    /// Cookie `va_token`.
    Cookie,
    /// `?k=` or `?token=`.
    Query,
    /// The trusted single-sign-on header.
    TrustedHeader,
    /// Nobody: AUTH_ENABLED is false.
    Anonymous,
}

/// The authenticated caller of a user endpoint.
#[derive(Debug, Clone)]
pub struct CurrentUser {
    /// The user record.
    pub user: User,
    /// Flag or ADMIN_USERS.
    pub is_admin: bool,
    /// How the caller was identified.
    pub method: Method,
}

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0);
        identify(state, &parts.headers, parts.uri.query(), peer).await
    }
}

/// Identifies a caller from headers, query and peer address (shared by REST and WebSocket handshakes).
pub async fn identify(
    app: &App,
    headers: &HeaderMap,
    query: Option<&str>,
    peer: Option<SocketAddr>,
) -> Result<CurrentUser, ApiError> {
    let found = |user: User, method| CurrentUser {
        is_admin: is_admin(app, &user),
        user,
        method,
    };
    if let Some(token) = bearer(headers) {
        return match app.store.user_by_token_hash(&token::hash(&token)).await? {
            Some(user) => Ok(found(user, Method::Bearer)),
            None => reject("bearer token unknown", Credential::Bearer),
        };
    }
    // A stale cookie is not an error: the person may still be identified by the proxy or be anonymous.
    if let Some(token) = cookie::read(headers)
        && let Some(user) = app.store.user_by_token_hash(&token::hash(&token)).await?
    {
        return Ok(found(user, Method::Cookie));
    }
    if let Some(token) = query_token(query) {
        return match app.store.user_by_token_hash(&token::hash(&token)).await? {
            Some(user) => Ok(found(user, Method::Query)),
            None => reject("query token unknown", Credential::Link),
        };
    }
    if let Some(external_id) = trusted_identity(app, headers, peer) {
        let user = app.store.user_for_external_id(&external_id).await?;
        return Ok(found(user, Method::TrustedHeader));
    }
    let nearby = peer.is_none_or(|p| p.ip().is_loopback() || p.ip().to_canonical().is_loopback());
    if !app.settings.auth.enabled && (nearby || app.settings.auth.anonymous_from_network) {
        // A read on the hot path; the insert happens once, on the first anonymous request.
        let user = match app.store.user_by_id(crate::store::users::ANONYMOUS_ID).await? {
            Some(user) => user,
            None => app.store.ensure_anonymous().await?,
        };
        return Ok(found(user, Method::Anonymous));
    }
    // A stale cookie that leaves the caller unknown is a failed credential; one the anonymous user stands in
    // for is not.
    match cookie::read(headers) {
        Some(_) => reject("cookie unknown", Credential::Cookie),
        None => {
            tracing::debug!("authentication rejected: no credentials");
            Err(ApiError::Unauthorized)
        }
    }
}

/// A credential that matched nothing: counted against the caller's address ([`crate::guesses`]).
fn reject<T>(why: &str, credential: Credential) -> Result<T, ApiError> {
    tracing::debug!(why, "authentication rejected");
    Err(ApiError::WrongCredential(credential))
}

/// Whether a user is admin: the persistent flag, or a name (or SSO identity) listed in ADMIN_USERS.
pub fn is_admin(app: &App, user: &User) -> bool {
    user.is_admin
        || app.settings.auth.is_listed_admin(&user.name)
        || user
            .external_id
            .as_deref()
            .is_some_and(|e| app.settings.auth.is_listed_admin(e))
}

/// The bearer token: `Authorization: Bearer …`, or on a WebSocket handshake from a browser (which cannot set
/// that header) the subprotocol `openai-insecure-api-key.<token>` of OpenAI's Realtime clients.
fn bearer(headers: &HeaderMap) -> Option<String> {
    if let Some(value) = headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok()) {
        let (scheme, token) = value.split_once(' ')?;
        return scheme.eq_ignore_ascii_case("bearer").then(|| token.trim().to_string());
    }
    headers
        .get_all(axum::http::header::SEC_WEBSOCKET_PROTOCOL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .find_map(|p| p.trim().strip_prefix(REALTIME_KEY_PROTOCOL).map(String::from))
        .filter(|token| !token.is_empty())
}

/// The subprotocol prefix that carries a token on a browser's WebSocket handshake.
pub const REALTIME_KEY_PROTOCOL: &str = "openai-insecure-api-key.";

/// The token of the personal link (`k`) or of a WebSocket URL (`token`).
pub fn query_token(query: Option<&str>) -> Option<String> {
    query_param(query, "k").or_else(|| query_param(query, "token"))
}

/// One decoded query parameter.
pub fn query_param(query: Option<&str>, name: &str) -> Option<String> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query?).unwrap_or_default();
    pairs
        .into_iter()
        .find(|(k, v)| k == name && !v.is_empty())
        .map(|(_, v)| v)
}

/// The SSO identity, when the header is present and the peer is a trusted proxy.
pub fn trusted_identity(app: &App, headers: &HeaderMap, peer: Option<SocketAddr>) -> Option<String> {
    let value = headers
        .get(app.settings.auth.trusted_auth_header.as_str())?
        .to_str()
        .ok()?
        .trim();
    if value.is_empty() || value.len() > 256 {
        return None;
    }
    let trusted = peer.is_some_and(|p| {
        app.settings
            .auth
            .trusted_proxy_ips
            .iter()
            .any(|net| net.contains(&p.ip()))
    });
    if !trusted {
        tracing::debug!(?peer, "identity header ignored: peer is not a trusted proxy");
        return None;
    }
    Some(value.to_string())
}

/// An admin caller: the admin key, or a user who is admin.
#[derive(Debug, Clone)]
pub struct Admin {
    /// Name written to the audit log: the user's name, or `admin-key`.
    pub actor: String,
    /// The admin user, when a user (not the key) called.
    pub user: Option<User>,
}

impl FromRequestParts<AppState> for Admin {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        if let Some(given) = parts.headers.get(ADMIN_KEY_HEADER) {
            return admin_by_key(state, given.to_str().unwrap_or_default());
        }
        let caller = CurrentUser::from_request_parts(parts, state).await?;
        if caller.is_admin {
            Ok(Self {
                actor: caller.user.name.clone(),
                user: Some(caller.user),
            })
        } else {
            tracing::debug!(user = %caller.user.name, "admin endpoint refused");
            Err(ApiError::Forbidden("admin rights required".into()))
        }
    }
}

/// Checks an admin key in constant time.
pub fn admin_by_key(app: &App, given: &str) -> Result<Admin, ApiError> {
    use secrecy::ExposeSecret;
    match &app.settings.auth.admin_api_key {
        Some(expected) if token::secrets_equal(given, expected.expose_secret()) => Ok(Admin {
            actor: "admin-key".into(),
            user: None,
        }),
        _ => reject("admin key wrong or not configured", Credential::AdminKey),
    }
}
