//! The help path, watched: the mail relay, the Twilio account and the webhook are checked without sending
//! anything; a failing one shows in the admin's provider health and on the person's help page, and the operator
//! is told by a channel that still works.

use serde_json::{Value, json};

use crate::common::{As, TestApp, eventually, free_port, spawn_app};
use crate::emergency::{ACCOUNT, SMS, Setup, ack_link, form, press, profile, setup};
use crate::fakes::Reply;
use crate::smtp::Mode;

/// The admin's view of one check of the help path.
async fn check(app: &TestApp, id: &str) -> Value {
    let all = app.get("/api/admin/providers", As::AdminKey).await;
    let providers = all.body["providers"].as_array().unwrap().clone();
    providers
        .into_iter()
        .find(|p| p["stage"] == "help" && p["id"] == id)
        .unwrap_or(Value::Null)
}

async fn state(app: &TestApp, id: &str) -> Value {
    check(app, id).await["state"].clone()
}

/// Twilio refuses its credentials as the relay hangs: the admin sees that Anna's help reaches nobody, and her
/// page tells her to call 112.
async fn nothing_would_reach_anybody(s: &Setup) {
    s.twilio.always(
        ACCOUNT,
        Reply::Status(401, r#"{"code": 20003, "message": "Authenticate"}"#.into()),
    );
    eventually("the Twilio check failing", 10, || async {
        state(&s.app, "twilio").await == "open"
    })
    .await;
    let twilio_check = check(&s.app, "twilio").await;
    assert!(
        twilio_check["last_error"].as_str().unwrap().contains("401"),
        "{twilio_check}"
    );
    let health = s.app.get("/api/admin/providers", As::AdminKey).await;
    assert!(
        health.body["users_without_working_channel"]
            .as_array()
            .unwrap()
            .contains(&json!("anna")),
        "{}",
        health.body
    );
    let status = s.app.get("/api/emergency/status", As::Bearer(&s.token)).await;
    assert!(
        status.body["warning"].as_str().unwrap().contains("112"),
        "{}",
        status.body
    );
}

#[tokio::test]
async fn a_failing_channel_shows_to_the_admin_and_on_the_help_page_and_the_operator_hears_by_one_that_works() {
    let s = setup(
        Some(Mode::Hang),
        &[
            ("HELP_CHECK_SECONDS", "1"),
            ("EMERGENCY_CHANNEL_TIMEOUT_SECONDS", "1"),
            ("OPERATOR_NOTICE_TO", "ops@care.example, +4930111111"),
        ],
        profile(),
    )
    .await;
    let (app, twilio) = (&s.app, &s.twilio);

    // The relay takes the connection and never answers: mail fails, Twilio works.
    eventually("the mail check failing", 10, || async {
        state(app, "mail").await == "open"
    })
    .await;
    assert_eq!(state(app, "twilio").await, "closed");
    let mail = check(app, "mail").await;
    assert!(mail["last_error"].as_str().unwrap().contains("SMTP"), "{mail}");
    let notice = eventually("the operator's notice by SMS", 10, || async {
        twilio
            .requests(SMS)
            .into_iter()
            .map(|r| form(&r))
            .find(|f| f["To"] == "+4930111111")
    })
    .await;
    assert!(notice["Body"].contains("mail FAILS"), "{notice:?}");
    let status = s.app.get("/api/emergency/status", As::Bearer(&s.token)).await;
    let warning = status.body["warning"].as_str().expect("a warning on the help page");
    assert!(warning.contains("E-Mail") && warning.contains("SMS"), "{warning}");
    assert!(warning.contains("nicht"), "in Anna's language: {warning}");

    // Twilio refuses the credentials too: nothing would reach anybody.
    nothing_would_reach_anybody(&s).await;

    // Both come back: the warnings go, and the operator hears of it by mail.
    s.smtp.as_ref().unwrap().set_mode(Mode::Accept);
    twilio.always(ACCOUNT, Reply::Json(json!({"sid": "AC123", "status": "active"})));
    eventually("both checks passing", 15, || async {
        state(app, "mail").await == "closed" && state(app, "twilio").await == "closed"
    })
    .await;
    let status = s.app.get("/api/emergency/status", As::Bearer(&s.token)).await;
    assert_eq!(status.body["warning"], Value::Null);
    let smtp = s.smtp.as_ref().unwrap();
    let mail = eventually("the operator's notice by e-mail", 10, || async {
        smtp.mails()
            .into_iter()
            .find(|m| m.recipients.contains(&"ops@care.example".to_string()))
    })
    .await;
    assert!(mail.body().contains("works again"), "{}", mail.body());
    assert!(
        smtp.mails()
            .iter()
            .all(|m| !m.recipients.contains(&"tochter@family.example".to_string())),
        "a check sends no alarm"
    );
}

#[tokio::test]
async fn a_webhook_whose_host_refuses_connections_fails_its_check() {
    let closed = free_port();
    let url = format!("http://127.0.0.1:{closed}/alarm");
    let app = spawn_app(&[("EMERGENCY_WEBHOOK_URL", &url), ("HELP_CHECK_SECONDS", "1")]).await;
    eventually("the webhook check failing", 10, || async {
        state(&app, "webhook").await == "open"
    })
    .await;
    let webhook = check(&app, "webhook").await;
    assert!(
        webhook["last_error"]
            .as_str()
            .unwrap()
            .contains("refuses the connection"),
        "{webhook}"
    );
    let metrics = app.get("/api/metrics", As::AdminKey).await;
    let failures = &metrics.body["counters"][r#"help_check_failures_total{check="webhook"}"#];
    assert!(failures.as_u64().unwrap() >= 1, "{}", metrics.body);
}

/// The issue's person: a press that failed (the relay refused), the operator ending the wait, a press that
/// delivered and its acknowledgement: the help page then says help reaches somebody, with nothing failing,
/// without waiting for the next periodic check.
#[tokio::test]
async fn after_a_failed_press_a_delivered_and_acknowledged_one_leaves_the_help_path_working() {
    let prefs = json!({"full_name": "Anna Muster", "language": "de",
        "emergency_contacts": ["tochter@family.example"]});
    let env = [("TWILIO_ACCOUNT_SID", ""), ("HELP_CHECK_SECONDS", "3600")];
    let s = setup(Some(Mode::RefuseRecipients), &env, prefs).await;
    let status = || async { s.app.get("/api/emergency/status", As::Bearer(&s.token)).await.body };

    assert_eq!(press(&s, None).await.body["status"], "delivery_failed");
    let st = status().await;
    assert_eq!(
        (st["reach"].as_str(), &st["failing"]),
        (Some("failing"), &json!(["email"])),
        "{st}"
    );

    s.smtp.as_ref().unwrap().set_mode(Mode::Accept);
    let path = format!("/api/admin/users/{}/emergency/cooldown", s.id);
    let ended = s.app.call(reqwest::Method::DELETE, &path, As::AdminKey, None).await;
    assert_eq!(ended.status, 200, "{}", ended.body);
    assert_eq!(press(&s, None).await.body["status"], "alerted");
    let mail = crate::emergency::mail_to(&s.smtp.as_ref().unwrap().mails(), "tochter@family.example");
    let confirmed = s.app.client.post(ack_link(&mail.body())).send().await.unwrap();
    assert_eq!(confirmed.status(), 200);

    let st = status().await;
    assert_eq!(st["reach"], "somebody", "{st}");
    assert_eq!(
        (&st["failing"], &st["working"]),
        (&json!([]), &json!(["email"])),
        "{st}"
    );
    assert_eq!(st["warning"], Value::Null, "{st}");
    assert_eq!(st["acknowledged"], true, "{st}");
}
