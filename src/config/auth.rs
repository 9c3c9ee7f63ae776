//! The auth area: who may call, and how they are recognised.

use ipnet::IpNet;
use secrecy::SecretString;

use super::env::{ConfigError, Source, Var};

/// Credentials and identities.
#[derive(Debug)]
pub struct AuthSettings {
    /// `AUTH_ENABLED`: false lets callers without credentials act as the anonymous user (from this machine only,
    /// unless `ANONYMOUS_FROM_NETWORK`).
    pub enabled: bool,
    /// `ANONYMOUS_FROM_NETWORK`: with `AUTH_ENABLED=false`, callers from other machines are the anonymous user
    /// too (else they need their personal link).
    pub anonymous_from_network: bool,
    /// `ADMIN_API_KEY`: the admin secret accepted in `X-Admin-Key`.
    pub admin_api_key: Option<SecretString>,
    /// `TRUSTED_AUTH_HEADER`: identity header set by the single-sign-on proxy.
    pub trusted_auth_header: String,
    /// `TRUSTED_PROXY_IPS`: peers whose identity header is believed.
    pub trusted_proxy_ips: Vec<IpNet>,
    /// `ADMIN_USERS`: user names that are admins whatever their flag says.
    pub admin_users: Vec<String>,
    /// `SSO_LOGOUT_URL`, shown by `/api/me`.
    pub sso_logout_url: Option<String>,
    /// `SSO_LOGIN_URL`, where the UI gate sends callers without identity.
    pub sso_login_url: Option<String>,
    /// `AUTH_FAILURES_PER_MINUTE`: failed credentials a client address may have in a minute before it waits.
    pub failures_per_minute: u32,
}

impl AuthSettings {
    /// Reads the area.
    pub(super) fn read(src: &Source) -> Result<Self, ConfigError> {
        Ok(Self {
            enabled: src
                .var(
                    "AUTH_ENABLED",
                    "false: callers without credentials on this machine act as the anonymous user",
                )
                .profiles([None, Some("true"), Some("true")])
                .bool(false)?,
            anonymous_from_network: src
                .var(
                    "ANONYMOUS_FROM_NETWORK",
                    "with `AUTH_ENABLED=false`, callers from other machines act as the anonymous user too (else each person uses their personal link)",
                )
                .bool(false)?,
            admin_api_key: admin_key(src.var(
                "ADMIN_API_KEY",
                "admin secret, sent as `X-Admin-Key`: at least 16 characters, not an example value",
            ))?,
            trusted_auth_header: header_name(
                src.var("TRUSTED_AUTH_HEADER", "identity header set by the single-sign-on proxy"),
            )?,
            trusted_proxy_ips: src
                .var(
                    "TRUSTED_PROXY_IPS",
                    "comma list of addresses and CIDR ranges whose identity header is believed",
                )
                .networks()?,
            admin_users: src
                .var("ADMIN_USERS", "comma list of user names that are admins")
                .list(),
            sso_logout_url: src
                .var(
                    "SSO_LOGOUT_URL",
                    "logout address shown by `/api/me` as `sso_logout_url`",
                )
                .raw(),
            sso_login_url: src
                .var(
                    "SSO_LOGIN_URL",
                    "where the UI gate sends callers without identity (else 401)",
                )
                .raw(),
            failures_per_minute: src
                .var(
                    "AUTH_FAILURES_PER_MINUTE",
                    "failed credentials (admin key, token, cookie, links) one client address may have in a minute; beyond, it waits a minute, doubling up to an hour (429)",
                )
                .ranged(10, 1_000_000)?
                .max(1),
        })
    }

    /// Whether a user name is listed in `ADMIN_USERS`.
    pub fn is_listed_admin(&self, name: &str) -> bool {
        self.admin_users.iter().any(|n| n == name)
    }
}

/// The shortest admin key the gateway starts with: it can be guessed at any speed a client likes.
const ADMIN_KEY_MIN_CHARS: usize = 16;

/// The admin key, refused (naming the setting, never the value) when shorter than [`ADMIN_KEY_MIN_CHARS`] or
/// a value that examples use ("change-me").
fn admin_key(var: Var) -> Result<Option<SecretString>, ConfigError> {
    const EXAMPLES: [&str; 6] = [
        "change-me",
        "changeme",
        "change-me-please",
        "secret",
        "admin",
        "password",
    ];
    if let Some(key) = var.raw() {
        let key = key.trim().to_lowercase();
        if key.chars().count() < ADMIN_KEY_MIN_CHARS || EXAMPLES.contains(&key.as_str()) {
            return Err(var.error(format!(
                "is too easy to guess: use {ADMIN_KEY_MIN_CHARS} or more random characters (e.g. `openssl rand -hex 16`)"
            )));
        }
    }
    Ok(var.secret())
}

fn header_name(var: Var) -> Result<String, ConfigError> {
    let name = var.string("X-Forwarded-User");
    axum::http::HeaderName::from_bytes(name.as_bytes())
        .map(|h| h.as_str().to_string())
        .map_err(|_| var.error(format!("{name:?} is not a valid header name")))
}
