//! Only the gateway's own pages write: a state-changing request a browser sends from another origin (a page on
//! another port of the same machine is the same *site*, so the sign-in cookie goes along) gets 403
//! `cross_origin` before any handler runs; the gateway's own pages, scripts and Twilio are unaffected. The
//! attack in a real browser is `ui-tests/attack.mjs`.

use reqwest::Method;
use serde_json::json;

use crate::common::{As, spawn_app};
use crate::emergency::{events, profile, setup};
use crate::smtp::Mode;

/// A request of `method` to `path` carrying Anna's cookie and the browser's `headers`.
async fn with_cookie(s: &crate::emergency::Setup, (method, path): (Method, &str), headers: &[(&str, &str)]) -> u16 {
    let mut request = s
        .app
        .request(method, path, As::Nobody)
        .header("Cookie", format!("va_token={}", s.token))
        .header("Content-Type", "application/x-www-form-urlencoded");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let r = s.app.send(request).await;
    if r.status == 403 {
        assert_eq!(r.error(403), "cross_origin", "{}", r.body);
    }
    r.status.as_u16()
}

#[tokio::test]
async fn a_write_from_another_origin_is_refused_before_anything_happens() {
    let s = setup(Some(Mode::Accept), &[], profile()).await;
    let other_port = "http://127.0.0.1:1";
    let attacks: [&[(&str, &str)]; 3] = [
        &[("Sec-Fetch-Site", "same-site"), ("Origin", other_port)],
        &[("Sec-Fetch-Site", "cross-site"), ("Origin", "https://evil.example")],
        // A browser without Fetch Metadata: its Origin names the other page.
        &[("Origin", other_port)],
    ];
    for headers in attacks {
        for target in [(Method::POST, "/api/emergency"), (Method::POST, "/api/me/checkin")] {
            assert_eq!(
                with_cookie(&s, target.clone(), headers).await,
                403,
                "{target:?} {headers:?}"
            );
        }
        let prefs = (Method::PUT, "/api/me/prefs");
        assert_eq!(with_cookie(&s, prefs, headers).await, 403, "{headers:?}");
    }
    assert!(s.smtp.as_ref().unwrap().mails().is_empty(), "no alarm went out");
    assert!(events(&s.app, &s.id).await.is_empty());
    let checkin = s.app.get("/api/me/checkin", As::Bearer(&s.token)).await;
    assert_eq!(checkin.body["signed_at"], serde_json::Value::Null, "{}", checkin.body);

    // The gateway's own page (same origin, or its Origin the gateway's own), a bookmark, and a client that is
    // no browser (curl, Twilio: no such headers) write as before.
    let own = format!("http://{}", s.app.addr);
    let checkin = (Method::POST, "/api/me/checkin");
    for headers in [
        &[("Sec-Fetch-Site", "same-origin")][..],
        &[("Origin", own.as_str())],
        &[("Sec-Fetch-Site", "none")],
        &[],
    ] {
        assert_eq!(with_cookie(&s, checkin.clone(), headers).await, 200, "{headers:?}");
    }
}

#[tokio::test]
async fn behind_a_proxy_the_public_address_is_the_gateways_own_origin() {
    let app = spawn_app(&[("PUBLIC_URL", "https://hilfe.example.org")]).await;
    let (_, token) = app.create_user("erika").await;
    let post = |origin: &'static str| {
        app.request(Method::POST, "/api/me/checkin", As::Nobody)
            .header("Cookie", format!("va_token={token}"))
            .header("Host", "127.0.0.1:9")
            .header("Origin", origin)
            .header("Sec-Fetch-Site", "cross-site")
    };
    // The proxy rewrote Host; the browser said cross-site only because it reached the proxy by that name.
    let through_proxy = app.send(post("https://hilfe.example.org")).await;
    assert_eq!(through_proxy.status, 200, "{}", through_proxy.body);
    let elsewhere = app.send(post("https://evil.example")).await;
    assert_eq!(elsewhere.error(403), "cross_origin");
}

#[tokio::test]
#[ignore = "needs Chromium and node; scripts/test.sh runs it"]
async fn a_page_on_another_port_or_site_cannot_raise_an_alarm_or_restart_the_gateway_in_a_real_browser() {
    // The restart command marks a file: the gateway keeps serving, and a restart that happened shows.
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("restarted");
    let command = format!("touch {}", marker.display());
    let s = setup(Some(Mode::Accept), &[("RESTART_COMMAND", &command)], profile()).await;
    let olga = json!({"name": "olga", "is_admin": true});
    let made = s
        .app
        .call(Method::POST, "/api/admin/users", As::AdminKey, Some(olga))
        .await;
    assert_eq!(made.status, 201, "{}", made.body);
    crate::browser::ui_steps(
        "attack.mjs",
        &[
            ("BASE", format!("http://{}", s.app.addr)),
            ("LINK", format!("/?k={}", s.token)),
            (
                "ADMIN_LINK",
                format!("/admin?k={}", made.body["token"].as_str().unwrap()),
            ),
        ],
    )
    .await;
    assert!(s.smtp.as_ref().unwrap().mails().is_empty(), "no alarm went out");
    assert!(events(&s.app, &s.id).await.is_empty());
    let prefs = s.app.get("/api/me/prefs", As::Bearer(&s.token)).await.body;
    assert_eq!(
        prefs["emergency_contacts"],
        json!(["tochter@family.example"]),
        "{prefs}"
    );
    assert_eq!(prefs["full_name"], "Anna Muster", "her own page's write: {prefs}");
    // One restart: the panel's own; none of the four attacks'.
    let audit = s.app.store.audit_entries(100).await.unwrap();
    let restarts: Vec<&str> = audit
        .iter()
        .filter(|e| e.action.contains("restart"))
        .map(|e| e.actor.as_str())
        .collect();
    assert_eq!(restarts, ["olga"], "{audit:?}");
    crate::common::eventually("the panel's restart command to run", 10, || async { marker.exists() }).await;
}
