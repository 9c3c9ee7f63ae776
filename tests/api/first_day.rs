//! The first day without a stumble (issue 77), in Chromium in German: a family creates their mother in the
//! panel by the name people see, enters her contact and sees the warning go without a reload, sets her daily
//! reminder, and her own page offers "Rückgängig" before a reminder is gone.

use reqwest::Method;
use serde_json::json;

use crate::browser::ui_steps;
use crate::common::{As, spawn_app};
use crate::smtp::{Mode, SmtpServer};

#[tokio::test]
#[ignore = "needs Chromium and node; scripts/test.sh runs it"]
async fn a_family_sets_up_their_mother_in_german_without_a_reload_a_guess_or_a_lost_reminder() {
    let smtp = SmtpServer::start(Mode::Accept).await;
    let port = smtp.port.to_string();
    let app = spawn_app(&[
        ("SMTP_HOST", "127.0.0.1"),
        ("SMTP_PORT", &port),
        ("SMTP_SECURITY", "none"),
    ])
    .await;
    let created = app
        .call(
            Method::POST,
            "/api/admin/users",
            As::AdminKey,
            Some(json!({"name": "tochter", "is_admin": true})),
        )
        .await;
    let (admin, admin_token) = (
        created.body["id"].as_str().unwrap(),
        created.body["token"].as_str().unwrap(),
    );
    app.set_prefs(admin, json!({"language": "de"})).await;

    let out = ui_steps(
        "first-day.mjs",
        &[
            ("BASE", format!("http://{}", app.addr)),
            ("LINK", format!("/?k={admin_token}")),
        ],
    )
    .await;

    let token = out
        .lines()
        .find_map(|l| l.strip_prefix("person frau.weiss "))
        .expect("she was created")
        .trim();
    let me = app.get("/api/me", As::Bearer(token)).await;
    assert_eq!(me.body["name"], "frau.weiss");
    assert_eq!(me.body["display_name"], "Frau Weiß");
    assert_eq!(
        me.body["prefs"]["emergency_contacts"],
        json!(["tochter@family.example"])
    );
    // "Herr Groß" with a login name typed wrong was not created.
    let users = app.get("/api/admin/users", As::AdminKey).await;
    let names: Vec<&str> = users
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["name"].as_str().unwrap())
        .collect();
    assert!(!names.iter().any(|n| n.contains("gro")), "{names:?}");
    // Her reminder, kept by "Rückgängig", was deleted once she left it deleted past the undo time.
    let reminders = app.get("/api/me/reminders", As::Bearer(token)).await;
    assert_eq!(reminders.body["reminders"], json!([]), "{}", reminders.body);
}
