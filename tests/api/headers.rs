//! Every header of every page, as a whole: each response (a page, a script, an answer, an error, a refusal, a
//! redirect) carries the security headers with their values, and nothing beyond the headers listed here (no
//! `Server`, no `X-Powered-By`). The sign-in cookie is `HttpOnly`, `Secure`, `SameSite=Lax`.

use std::collections::BTreeSet;

use reqwest::Method;

use crate::common::{As, TestApp, spawn_app};

/// The security headers and their values, on every response.
const SECURITY: [(&str, &str); 7] = [
    (
        "content-security-policy",
        voice_gateway::routes::CONTENT_SECURITY_POLICY,
    ),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("x-frame-options", "DENY"),
    ("cross-origin-opener-policy", "same-origin"),
    ("cross-origin-resource-policy", "same-origin"),
    ("permissions-policy", voice_gateway::routes::PERMISSIONS_POLICY),
];

/// What else a response may carry.
const OTHERS: [&str; 10] = [
    "content-type",
    "content-disposition",
    "content-length",
    "date",
    "cache-control",
    "vary",
    "location",
    "set-cookie",
    "retry-after",
    "transfer-encoding",
];

/// Checks one response's headers: every security header with its value, nothing unlisted; its status.
async fn checked(app: &TestApp, (path, who, host): (&str, As<'_>, Option<&str>)) -> u16 {
    let mut request = app.request(Method::GET, path, who);
    if let Some(host) = host {
        request = request.header("Host", host);
    }
    let r = request.send().await.unwrap();
    let headers = r.headers();
    for (name, value) in SECURITY {
        assert_eq!(
            headers.get(name).map(|v| v.to_str().unwrap()),
            Some(value),
            "{path}: {name}"
        );
    }
    let allowed: BTreeSet<&str> = SECURITY.iter().map(|(n, _)| *n).chain(OTHERS).collect();
    let unlisted: Vec<&str> = headers
        .keys()
        .map(|k| k.as_str())
        .filter(|k| !allowed.contains(k))
        .collect();
    assert!(unlisted.is_empty(), "{path}: {unlisted:?}");
    if let Some(cookie) = headers.get("set-cookie") {
        let cookie = cookie.to_str().unwrap();
        assert!(cookie.contains("; HttpOnly; Secure; SameSite=Lax"), "{path}: {cookie}");
    }
    r.status().as_u16()
}

#[tokio::test]
async fn every_page_answer_error_and_refusal_carries_the_security_headers_and_no_other_unlisted_one() {
    let app = spawn_app(&[("TLS", "auto")]).await;
    let (_, token) = app.create_user("page").await;
    let (me, nobody) = (As::Bearer(&token), As::Nobody);
    let link = format!("/?k={token}");
    let wrong = "/api/emergency/ack/0123456789abcdef0123456789abcdef";
    let pages = [
        ("/", me, None, 200),
        (link.as_str(), nobody, None, 303),
        ("/?k=wrong", nobody, None, 401),
        ("/admin", nobody, None, 401),
        ("/carer", me, None, 200),
        ("/login", nobody, None, 200),
        ("/ca", nobody, None, 200),
        ("/ca.crt", nobody, None, 200),
        ("/ui/app.js", nobody, None, 200),
        ("/ui/app.css", nobody, None, 200),
        ("/ui/offline.html", nobody, None, 200),
        ("/ui/icon-192.png", nobody, None, 200),
        ("/sw.js", nobody, None, 200),
        ("/manifest.webmanifest", nobody, None, 200),
        ("/openapi.json", nobody, None, 200),
        ("/health", nobody, None, 200),
        ("/api/config", me, None, 200),
        ("/api/me", nobody, None, 401),
        (wrong, nobody, None, 404),
        ("/no-such-page", nobody, None, 404),
        ("/api/config", nobody, Some("attacker.example"), 421),
        // Another machine's name over plain HTTP goes to HTTPS.
        ("/", nobody, Some(&crate::common::dot_local()), 307),
    ];
    for (path, who, host, status) in pages {
        assert_eq!(checked(&app, (path, who, host)).await, status, "{path} {host:?}");
    }
}

#[test]
fn the_pages_hold_no_inline_script_or_style_the_policy_would_block() {
    assert!(!voice_gateway::routes::CONTENT_SECURITY_POLICY.contains("unsafe-inline"));
    for page in [
        include_str!("../../ui/index.html"),
        include_str!("../../ui/admin.html"),
        include_str!("../../ui/carer.html"),
        include_str!("../../ui/offline.html"),
    ] {
        assert!(!page.contains("<style") && !page.contains(" style=") && !page.contains(" onclick="));
        assert!(page.matches("<script").count() == page.matches("<script src=").count());
    }
}
