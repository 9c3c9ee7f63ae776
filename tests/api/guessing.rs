//! Guessing a secret is slowed to nothing: ten failed credentials a minute from one address are answered as
//! ever, the next starts a wait in which every request of that address (a correct key too) gets 429 with
//! `Retry-After`; another address is unaffected. Behind a trusted proxy the forwarded address is the client;
//! from anybody else a forwarded address is not believed. The doubling waits are `guesses`' unit tests, with
//! the clock passed in.

use reqwest::Method;
use serde_json::Value;

use crate::common::{ADMIN_KEY, As, TestApp, spawn_app};

/// `GET /api/admin/users` with `key`, from `client` as the proxy forwards it: status and `Retry-After`.
async fn admin_from(app: &TestApp, client: &str, key: &str) -> (u16, Option<u64>) {
    let request = app
        .request(Method::GET, "/api/admin/users", As::Nobody)
        .header("X-Admin-Key", key)
        .header("X-Forwarded-For", client);
    let r = app.send(request).await;
    let retry = r
        .headers
        .get("retry-after")
        .map(|v| v.to_str().unwrap().parse().unwrap());
    if r.status == 429 {
        assert_eq!(r.error(429), "too_many_attempts");
    }
    (r.status.as_u16(), retry)
}

fn counter(metrics: &Value, name: &str) -> u64 {
    metrics["counters"][name].as_u64().unwrap_or(0)
}

#[tokio::test]
async fn fifty_wrong_admin_keys_make_the_address_wait_and_a_correct_key_from_it_too_but_not_from_another() {
    let app = spawn_app(&[("TRUSTED_PROXY_IPS", "127.0.0.1")]).await;
    let mut statuses = Vec::new();
    for i in 0..50 {
        statuses.push(admin_from(&app, "192.0.2.1", &format!("guess-{i:04}-abcdefghijkl")).await);
    }
    assert!(statuses[..11].iter().all(|s| *s == (401, None)), "{statuses:?}");
    for (status, retry) in &statuses[11..] {
        assert_eq!(*status, 429);
        assert!(retry.is_some_and(|s| (1..=60).contains(&s)), "{retry:?}");
    }
    let (status, retry) = admin_from(&app, "192.0.2.1", ADMIN_KEY).await;
    assert_eq!(status, 429, "a correct key waits too");
    assert!(retry.is_some_and(|s| (1..=60).contains(&s)));
    assert_eq!(
        admin_from(&app, "192.0.2.2", ADMIN_KEY).await,
        (200, None),
        "another address"
    );
    // The OpenAI-compatible API says so in OpenAI's shape.
    let v1 = app
        .request(Method::GET, "/v1/models", As::Nobody)
        .header("X-Forwarded-For", "192.0.2.1");
    let v1 = app.send(v1).await;
    assert_eq!(v1.status, 429);
    assert!(
        v1.body["error"]["type"].is_string() && v1.body["error"]["status"].is_null(),
        "{}",
        v1.body
    );
    // /health stays open for the probes of the waiting address.
    let health = app
        .request(Method::GET, "/health", As::Nobody)
        .header("X-Forwarded-For", "192.0.2.1");
    assert_eq!(app.send(health).await.status, 200);

    let metrics = app.get("/api/metrics", As::AdminKey).await.body;
    assert_eq!(
        counter(&metrics, "auth_failures_total{kind=\"admin_key\"}"),
        11,
        "{metrics}"
    );
    assert_eq!(counter(&metrics, "auth_blocked_total"), 1);
    let health = app.get("/api/admin/providers", As::AdminKey).await.body;
    let waiting = health["waiting_addresses"].as_array().unwrap();
    assert_eq!(waiting.len(), 1, "{health}");
    assert_eq!(waiting[0]["address"], "192.0.2.1");
    assert!(waiting[0]["seconds_left"].as_u64().is_some_and(|s| s > 0 && s <= 60));
}

#[tokio::test]
async fn every_kind_of_wrong_credential_is_counted_and_a_forwarded_address_only_believed_from_the_proxy() {
    let app = spawn_app(&[]).await;
    let wrong = "wrong-0123456789abcdefghijklmnopqrstuvwxyz";
    let tries = [
        app.request(Method::GET, "/api/me", As::Bearer(wrong)),
        app.request(Method::GET, "/api/me", As::Nobody)
            .header("Cookie", format!("va_token={wrong}")),
        app.request(Method::GET, &format!("/?k={wrong}"), As::Nobody),
        app.request(Method::GET, &format!("/api/emergency/ack/{wrong}"), As::Nobody),
        app.request(Method::GET, &format!("/api/care/ack/{wrong}"), As::Nobody),
    ];
    let mut statuses = Vec::new();
    for request in tries {
        statuses.push(app.send(request).await.status.as_u16());
    }
    assert_eq!(statuses, [401, 401, 401, 404, 404]);
    let metrics = app.get("/api/metrics", As::AdminKey).await.body;
    for kind in ["bearer", "cookie", "link", "ack", "care"] {
        assert_eq!(
            counter(&metrics, &format!("auth_failures_total{{kind=\"{kind}\"}}")),
            1,
            "{kind}"
        );
    }

    // No proxy is trusted here: whatever X-Forwarded-For says, the guesses are the peer's own, and its
    // eleventh failed credential (the five above and six keys) starts its wait.
    for i in 0..6 {
        let forged = format!("198.51.100.{i}");
        assert_eq!(admin_from(&app, &forged, wrong).await.0, 401);
    }
    assert_eq!(admin_from(&app, "198.51.100.99", ADMIN_KEY).await.0, 429);
}
