//! The `va_token` cookie: reading it from requests and setting it on responses.

use axum::http::header::{CACHE_CONTROL, COOKIE, LOCATION, SET_COOKIE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

/// Name of the cookie that carries a user token.
pub const NAME: &str = "va_token";

/// One year, the cookie's lifetime.
const MAX_AGE_SECS: u64 = 365 * 24 * 60 * 60;

/// The `va_token` value of the request's cookies, if any.
pub fn read(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == NAME)
        .map(|(_, value)| value.trim_matches('"').to_string())
        .filter(|v| !v.is_empty())
}

/// The `Set-Cookie` value storing a token: HttpOnly, Secure, SameSite=Lax, one year.
pub fn set(token: &str) -> String {
    format!("{NAME}={token}; Path=/; Max-Age={MAX_AGE_SECS}; HttpOnly; Secure; SameSite=Lax")
}

/// A 303 to `to`, storing `token` in the cookie when there is one; never cached.
pub fn redirect(to: &str, token: Option<&str>) -> Response {
    let mut headers = HeaderMap::new();
    if let Ok(location) = to.parse() {
        headers.insert(LOCATION, location);
    }
    if let Some(set) = token.and_then(|t| set(t).parse().ok()) {
        headers.insert(SET_COOKIE, set);
    }
    headers.insert(CACHE_CONTROL, "no-store".parse().expect("static header value"));
    (StatusCode::SEE_OTHER, headers).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_token_among_other_cookies() {
        let mut headers = HeaderMap::new();
        headers.insert(COOKIE, "a=1; va_token=abc; b=2".parse().unwrap());
        assert_eq!(read(&headers).as_deref(), Some("abc"));
        assert!(set("t").contains("HttpOnly; Secure; SameSite=Lax"));
    }
}
