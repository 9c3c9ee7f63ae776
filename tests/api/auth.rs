use reqwest::Method;
use serde_json::json;

use crate::common::{As, spawn_app};

#[tokio::test]
async fn protected_calls_without_credentials_get_401() {
    let app = spawn_app(&[]).await;
    for path in ["/api/me", "/api/sessions", "/api/me/memories", "/api/devices"] {
        let code = app.get(path, As::Nobody).await.error(401);
        assert_eq!(code, "unauthorized");
    }
    app.get("/api/admin/users", As::Nobody).await.error(401);
}

#[tokio::test]
async fn a_bearer_token_identifies_its_user_and_a_wrong_one_is_refused() {
    let app = spawn_app(&[]).await;
    let (id, token) = app.create_user("alice").await;
    let me = app.get("/api/me", As::Bearer(&token)).await;
    assert_eq!(me.status, 200);
    assert_eq!(me.body["id"], id);
    assert_eq!(me.body["name"], "alice");
    assert_eq!(me.body["is_admin"], false);
    app.get("/api/me", As::Bearer("not-a-token")).await.error(401);
}

#[tokio::test]
async fn the_cookie_and_the_token_query_parameter_authenticate() {
    let app = spawn_app(&[]).await;
    let (_, token) = app.create_user("bob").await;
    let by_cookie = app
        .send(
            app.request(Method::GET, "/api/me", As::Nobody)
                .header("Cookie", format!("theme=dark; va_token={token}")),
        )
        .await;
    assert_eq!(by_cookie.body["name"], "bob");
    let by_query = app.get(&format!("/api/me?token={token}"), As::Nobody).await;
    assert_eq!(by_query.body["name"], "bob");
    app.get("/api/me?token=wrong", As::Nobody).await.error(401);
}

#[tokio::test]
async fn the_personal_link_sets_the_cookie_and_redirects_without_the_token() {
    let app = spawn_app(&[]).await;
    let (_, token) = app.create_user("carla").await;
    let r = app.get(&format!("/?lang=de&k={token}"), As::Nobody).await;
    assert_eq!(r.status, 303);
    assert_eq!(r.headers["location"], "/?lang=de");
    let cookie = r.headers["set-cookie"].to_str().unwrap();
    assert!(cookie.starts_with(&format!("va_token={token};")), "{cookie}");
    for attr in ["HttpOnly", "Secure", "SameSite=Lax", "Max-Age=31536000", "Path=/"] {
        assert!(cookie.contains(attr), "{attr} missing in {cookie}");
    }
    let page = app
        .send(
            app.request(Method::GET, "/", As::Nobody)
                .header("Cookie", format!("va_token={token}")),
        )
        .await;
    assert_eq!(page.status, 200);
    let bad = app.get("/?k=forged", As::Nobody).await;
    assert_eq!(bad.status, 401);
    assert!(bad.headers.get("set-cookie").is_none());
}

#[tokio::test]
async fn the_page_gate_redirects_to_sso_login_or_shows_a_login_button() {
    let with_sso = spawn_app(&[("SSO_LOGIN_URL", "https://sso.example/login")]).await;
    let r = with_sso.get("/", As::Nobody).await;
    assert_eq!(r.status, 303);
    assert_eq!(r.headers["location"], "https://sso.example/login");

    let plain = spawn_app(&[]).await;
    let resp = plain.client.get(plain.url("/")).send().await.unwrap();
    assert_eq!(resp.status(), 401);
    assert!(resp.text().await.unwrap().contains("href=\"/login\""));
    let icon = plain.get("/favicon.ico", As::Nobody).await;
    assert_eq!(icon.status, 200);

    // The admin panel's gate is the same: the proxy's login, else the page with the button (not JSON).
    let r = with_sso.get("/admin", As::Nobody).await;
    assert_eq!(r.status, 303);
    assert_eq!(r.headers["location"], "https://sso.example/login");
    let admin = plain.client.get(plain.url("/admin")).send().await.unwrap();
    assert_eq!(admin.status(), 401);
    assert!(
        admin.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    assert!(admin.text().await.unwrap().contains("href=\"/login\""));

    // Without a single-sign-on proxy the button explains the personal link; behind one it leads to its login.
    let login = plain.client.get(plain.url("/login")).send().await.unwrap();
    assert_eq!(login.status(), 200);
    let text = login.text().await.unwrap();
    assert!(
        text.contains("personal link") && text.contains("admin-link.txt"),
        "{text}"
    );
    // A browser that asks for German is answered in German, with its button and the page's language.
    let german = |path: &str| {
        plain
            .client
            .get(plain.url(path))
            .header("Accept-Language", "de-DE,de;q=0.9,en;q=0.8")
            .send()
    };
    let gate = german("/").await.unwrap().text().await.unwrap();
    assert!(
        gate.contains("<html lang=\"de\">")
            && gate.contains("Sie haben noch keinen persönlichen Zugang.")
            && gate.contains(">Anmelden</a>"),
        "{gate}"
    );
    let how = german("/login").await.unwrap().text().await.unwrap();
    assert!(
        how.contains("persönlichen Link") && how.contains("admin-link.txt"),
        "{how}"
    );
    let proxied = spawn_app(&[("TRUSTED_PROXY_IPS", "127.0.0.1")]).await;
    let r = proxied.get("/login", As::Nobody).await;
    assert_eq!(r.status, 303);
    assert_eq!(r.headers["location"], "/api/login");
}

#[tokio::test]
async fn the_trusted_header_from_a_trusted_proxy_provisions_the_user_once() {
    let app = spawn_app(&[
        ("TRUSTED_PROXY_IPS", "10.0.0.0/8, 127.0.0.1"),
        ("TRUSTED_AUTH_HEADER", "Remote-User"),
    ])
    .await;
    let first = app
        .send(
            app.request(Method::GET, "/api/me", As::Nobody)
                .header("Remote-User", "dora"),
        )
        .await;
    assert_eq!(first.status, 200);
    assert_eq!(first.body["name"], "dora");
    assert_eq!(first.body["external_id"], "dora");
    let again = app
        .send(
            app.request(Method::GET, "/api/me", As::Nobody)
                .header("Remote-User", "dora"),
        )
        .await;
    assert_eq!(again.body["id"], first.body["id"]);
    let users = app.get("/api/admin/users", As::AdminKey).await;
    assert_eq!(users.body.as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn the_trusted_header_is_ignored_from_an_untrusted_address() {
    let app = spawn_app(&[("TRUSTED_PROXY_IPS", "10.0.0.0/8")]).await;
    let r = app
        .send(
            app.request(Method::GET, "/api/me", As::Nobody)
                .header("X-Forwarded-User", "mallory"),
        )
        .await;
    r.error(401);
    let users = app.get("/api/admin/users", As::AdminKey).await;
    assert!(
        users.body.as_array().unwrap().is_empty(),
        "no user may be provisioned: {}",
        users.body
    );
}

#[tokio::test]
async fn sso_login_issues_a_cookie_token_beside_existing_ones() {
    let app = spawn_app(&[("TRUSTED_PROXY_IPS", "127.0.0.1")]).await;
    let old_token = app.create_sso_user("erik", "erik").await;
    let r = app
        .send(
            app.request(Method::GET, "/api/login", As::Nobody)
                .header("X-Forwarded-User", "erik"),
        )
        .await;
    assert_eq!(r.status, 303);
    assert_eq!(r.headers["location"], "/");
    let cookie = r.headers["set-cookie"].to_str().unwrap();
    let fresh = cookie.trim_start_matches("va_token=").split(';').next().unwrap();
    assert_eq!(app.get("/api/me", As::Bearer(fresh)).await.body["name"], "erik");
    assert_eq!(
        app.get("/api/me", As::Bearer(&old_token)).await.status,
        200,
        "other devices stay logged in"
    );
    app.get("/api/login", As::Nobody).await.error(401);
}

#[tokio::test]
async fn admin_login_rotates_an_sso_admins_token_and_refuses_others() {
    let app = spawn_app(&[("TRUSTED_PROXY_IPS", "127.0.0.1"), ("ADMIN_USERS", "root-admin")]).await;
    let old_token = app.create_sso_user("root-admin", "root-admin").await;
    let r = app
        .send(
            app.request(Method::GET, "/api/admin/login", As::Nobody)
                .header("X-Forwarded-User", "root-admin"),
        )
        .await;
    assert_eq!(r.status, 303);
    let cookie = r.headers["set-cookie"].to_str().unwrap();
    let fresh = cookie.trim_start_matches("va_token=").split(';').next().unwrap();
    assert_eq!(app.get("/api/admin/users", As::Bearer(fresh)).await.status, 200);
    app.get("/api/me", As::Bearer(&old_token)).await.error(401);

    let other = app
        .send(
            app.request(Method::GET, "/api/admin/login", As::Nobody)
                .header("X-Forwarded-User", "frank"),
        )
        .await;
    other.error(403);
    app.get("/api/admin/login", As::Nobody).await.error(403);
    let audit = app.get("/api/admin/audit", As::AdminKey).await;
    assert!(
        audit
            .body
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["action"] == "admin.login" && e["actor"] == "root-admin")
    );
}

#[tokio::test]
async fn admin_endpoints_need_the_key_the_flag_or_admin_users() {
    let app = spawn_app(&[("ADMIN_USERS", "listed")]).await;
    let (_, plain) = app.create_user("plain").await;
    let (_, listed) = app.create_user("listed").await;
    let (flag_id, flagged) = app.create_user("flagged").await;
    app.get("/api/admin/users", As::Bearer(&plain)).await.error(403);
    app.send(
        app.request(Method::GET, "/api/admin/users", As::Nobody)
            .header("X-Admin-Key", "wrong"),
    )
    .await
    .error(401);
    assert_eq!(app.get("/api/admin/users", As::Bearer(&listed)).await.status, 200);
    app.get("/api/admin/users", As::Bearer(&flagged)).await.error(403);
    let set = app
        .call(
            Method::PUT,
            &format!("/api/admin/users/{flag_id}/admin"),
            As::AdminKey,
            Some(json!({"is_admin": true})),
        )
        .await;
    assert_eq!(set.body["is_admin"], true);
    assert_eq!(app.get("/api/admin/users", As::Bearer(&flagged)).await.status, 200);
    assert_eq!(app.get("/api/me", As::Bearer(&listed)).await.body["is_admin"], true);
}

#[tokio::test]
async fn without_auth_everyone_is_the_anonymous_user_who_is_no_admin() {
    let app = spawn_app(&[("AUTH_ENABLED", "false")]).await;
    let me = app.get("/api/me", As::Nobody).await;
    assert_eq!(me.status, 200);
    assert_eq!(me.body["is_anonymous"], true);
    assert_eq!(me.body["id"], "anonymous");
    app.get("/api/admin/users", As::Nobody).await.error(403);
}

#[tokio::test]
async fn a_token_reset_invalidates_the_old_token_at_once_and_keeps_the_data() {
    let app = spawn_app(&[]).await;
    let (id, old) = app.create_user("gina").await;
    app.call(
        Method::POST,
        "/api/me/memories",
        As::Bearer(&old),
        Some(json!({"text": "likes tea"})),
    )
    .await;
    let r = app
        .call(
            Method::POST,
            &format!("/api/admin/users/{id}/token"),
            As::AdminKey,
            None,
        )
        .await;
    assert_eq!(r.status, 200);
    let new = r.body["token"].as_str().unwrap().to_string();
    assert_ne!(new, old);
    app.get("/api/me", As::Bearer(&old)).await.error(401);
    let memories = app.get("/api/me/memories", As::Bearer(&new)).await;
    assert_eq!(memories.body[0]["text"], "likes tea");
    let stored: Vec<(String,)> = voice_gateway::with_pool!(app.store, pool => sqlx::query_as("SELECT hash FROM tokens")
        .fetch_all(pool)
        .await
        .unwrap());
    assert!(
        stored.iter().all(|(h,)| h.len() == 64 && *h != new),
        "only hashes are stored"
    );
}

#[tokio::test]
async fn request_headers_discovery_accepts_the_key_as_query_or_header_and_redacts_secrets() {
    let app = spawn_app(&[("TRUSTED_PROXY_IPS", "127.0.0.1")]).await;
    let path = format!("/api/admin/request-headers?key={}", crate::common::ADMIN_KEY);
    let r = app
        .send(
            app.request(Method::GET, &path, As::Nobody)
                .header("X-Forwarded-User", "hans")
                .header("Cookie", "va_token=secret"),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["identity"], "hans");
    assert_eq!(r.body["peer_is_trusted_proxy"], true);
    assert_eq!(r.body["headers"]["cookie"], "(redacted)");
    assert_eq!(app.get("/api/admin/request-headers", As::AdminKey).await.status, 200);
    app.get("/api/admin/request-headers?key=wrong", As::Nobody)
        .await
        .error(401);
    let (_, plain) = app.create_user("plain").await;
    app.get("/api/admin/request-headers", As::Bearer(&plain))
        .await
        .error(403);
}

#[tokio::test]
async fn an_sso_name_never_takes_over_a_local_account_or_a_reserved_name() {
    let app = spawn_app(&[("TRUSTED_PROXY_IPS", "127.0.0.1")]).await;
    let local_admin = app
        .call(
            Method::POST,
            "/api/admin/users",
            As::AdminKey,
            Some(json!({"name": "admin", "is_admin": true})),
        )
        .await;
    let (bob_id, _) = app.create_user("bob").await;
    let as_sso = |name: &str| {
        app.send(
            app.request(Method::GET, "/api/me", As::Nobody)
                .header("X-Forwarded-User", name),
        )
    };

    let admin = as_sso("admin").await;
    assert_eq!(admin.status, 200);
    assert_ne!(
        admin.body["id"], local_admin.body["id"],
        "a new user, not the local admin"
    );
    assert_eq!(
        (admin.body["name"].clone(), admin.body["is_admin"].clone()),
        (json!("sso:admin"), json!(false))
    );
    let refused = app.send(
        app.request(Method::GET, "/api/admin/users", As::Nobody)
            .header("X-Forwarded-User", "admin"),
    );
    assert_eq!(refused.await.error(403), "forbidden");

    let bob = as_sso("bob").await;
    assert_ne!(bob.body["id"], json!(bob_id));
    assert_eq!(bob.body["name"], "sso:bob");
    let anonymous = as_sso("anonymous").await;
    assert_eq!(anonymous.body["name"], "sso:anonymous");
    assert_ne!(anonymous.body["id"], "anonymous");
    assert_eq!(
        as_sso("bob").await.body["id"],
        bob.body["id"],
        "the same identity finds its user again"
    );

    // An admin links an account to an identity explicitly.
    app.create_sso_user("carla", "carla@corp.example").await;
    let carla = as_sso("carla@corp.example").await;
    assert_eq!(carla.body["name"], "carla");
    let twice = app
        .call(
            Method::POST,
            "/api/admin/users",
            As::AdminKey,
            Some(json!({"name": "carla2", "external_id": "carla@corp.example"})),
        )
        .await;
    assert_eq!(twice.error(409), "conflict");
}

#[tokio::test]
async fn a_link_opened_while_signed_in_as_somebody_else_asks_and_only_the_pages_post_swaps() {
    let app = spawn_app(&[]).await;
    let (_, anna) = app.create_user("anna").await;
    let (erika_id, erika) = app.create_user("erika").await;
    app.set_prefs(&erika_id, json!({"language": "de"})).await;
    let as_anna = |path: String| {
        app.request(Method::GET, &path, As::Nobody)
            .header("Cookie", format!("va_token={anna}"))
    };

    // Erika's link in Anna's browser: asked, in Erika's language, and the cookie stays Anna's.
    for path in ["/", "/admin", "/carer"] {
        let asked = app.send(as_anna(format!("{path}?k={erika}"))).await;
        assert_eq!(asked.status, 200, "{path}");
        assert!(
            asked.headers.get("set-cookie").is_none(),
            "{path}: swapped without a word"
        );
    }
    let page = app
        .client
        .execute(as_anna(format!("/?lang=de&k={erika}")).build().unwrap())
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("Sie sind in diesem Browser als anna angemeldet. Als erika fortfahren?"),
        "{page}"
    );
    assert!(
        page.contains("action=\"/switch\"") && page.contains("href=\"/?lang=de\""),
        "{page}"
    );

    // The page's POST swaps; a link of her own, or a browser signed in as nobody, swaps at once as before.
    let form = format!("k={erika}&to=%2F%3Flang%3Dde");
    let swapped = app
        .send(
            app.request(Method::POST, "/switch", As::Nobody)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Sec-Fetch-Site", "same-origin")
                .body(form),
        )
        .await;
    assert_eq!(
        (swapped.status.as_u16(), &swapped.headers["location"]),
        (303, &"/?lang=de".parse::<reqwest::header::HeaderValue>().unwrap())
    );
    assert!(
        swapped.headers["set-cookie"]
            .to_str()
            .unwrap()
            .starts_with(&format!("va_token={erika};"))
    );
    let own = app.send(as_anna(format!("/?k={anna}"))).await;
    assert_eq!(own.status, 303);
    let forged = app
        .send(
            app.request(Method::POST, "/switch", As::Nobody)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .body("k=forged&to=https%3A%2F%2Fevil.example"),
        )
        .await;
    assert_eq!(forged.error(401), "unauthorized");
}
