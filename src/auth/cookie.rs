//! The `va_token` cookie: reading it from requests and setting it on responses.

use axum::http::HeaderMap;
use axum::http::header::COOKIE;

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
