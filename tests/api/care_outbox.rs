//! Care notices that cannot be lost: written to the outbox with the state they tell of, sent by the
//! scheduler until the mail relay takes them, marked sent once, and resumed after a gateway stopped in the
//! middle of sending (the clock passed in; a second scheduler on the same database is the restarted gateway).

use reqwest::Method;
use serde_json::json;

use crate::common::{As, TestApp};
use crate::reminders::{in_seconds, reminders, scheduler_of};
use crate::smtp::{Mode, SmtpServer};
use voice_gateway::care::{outbox, schedule};

/// A gateway whose relay is `smtp`, Erika with her daughter as contact, and a reminder of hers missed at
/// `now` + 33 minutes (the clock passed in): the scheduler of the same database and `now`.
async fn missed_pills(smtp: &SmtpServer) -> (TestApp, String, std::sync::Arc<voice_gateway::app::App>, i64) {
    let port = smtp.port.to_string();
    let relay = [
        ("SMTP_HOST", "127.0.0.1"),
        ("SMTP_PORT", port.as_str()),
        ("SMTP_SECURITY", "none"),
    ];
    let (app, token, id) = TestApp::with().env(&relay).user("erika").await;
    let profile =
        json!({"full_name": "Erika Muster", "language": "de", "emergency_contacts": ["tochter@family.example"]});
    app.set_prefs(&id, profile).await;
    let body = json!({"text": "Tabletten", "due_at": in_seconds(1)});
    let r = app
        .call(Method::POST, "/api/me/reminders", As::Bearer(&token), Some(body))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    crate::common::eventually("the first delivery", 15, || async {
        let listed = reminders(&app, &token).await;
        (listed[0]["deliveries"].as_array().unwrap().len() == 1).then_some(())
    })
    .await;
    let scheduler = scheduler_of(&app, &relay).await;
    let now = jiff::Timestamp::now().as_millisecond();
    for minutes in [11, 22] {
        assert_eq!(schedule::due(&scheduler, now + minutes * 60_000).await.unwrap(), 1);
    }
    (app, token, scheduler, now + 33 * 60_000)
}

/// The statuses of the first reminder's care notice tries, in order.
async fn notice_tries(app: &TestApp, token: &str) -> Vec<String> {
    reminders(app, token).await[0]["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["channel"] == "mail")
        .map(|d| d["status"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn a_notice_the_relay_refuses_is_tried_again_and_sent_once_when_it_takes_it() {
    let smtp = SmtpServer::start(Mode::RefuseRecipients).await;
    let (app, token, scheduler, missed_at) = missed_pills(&smtp).await;
    assert_eq!(schedule::due(&scheduler, missed_at).await.unwrap(), 1);
    assert_eq!(reminders(&app, &token).await[0]["state"], "missed");
    // Its first try (at once) fails and is recorded; the notice waits.
    let tries = crate::common::eventually("the first try", 15, || async {
        let tries = notice_tries(&app, &token).await;
        (!tries.is_empty()).then_some(tries)
    })
    .await;
    assert_eq!(tries, ["failed"]);
    // The admin's health names it.
    let health = app.get("/api/admin/providers", As::AdminKey).await;
    assert_eq!(health.body["care_notices"]["waiting"], 1, "{}", health.body);
    assert!(
        health.body["care_notices"]["last_error"]
            .as_str()
            .unwrap()
            .contains("550"),
        "{}",
        health.body
    );
    // Before its pause is over nothing is tried; the relay takes mail again; the next try sends it, once.
    assert_eq!(outbox::due(&scheduler, missed_at + 10_000).await.unwrap(), 0);
    smtp.set_mode(Mode::Accept);
    assert_eq!(outbox::due(&scheduler, missed_at + 31_000).await.unwrap(), 1);
    assert_eq!(smtp.mails().len(), 1);
    assert_eq!(smtp.mails()[0].recipients, ["tochter@family.example"]);
    for later in [2, 60, 24 * 60] {
        assert_eq!(outbox::due(&scheduler, missed_at + later * 60_000).await.unwrap(), 0);
    }
    assert_eq!(smtp.mails().len(), 1);
    assert_eq!(notice_tries(&app, &token).await, ["failed", "sent"]);
    let health = app.get("/api/admin/providers", As::AdminKey).await;
    assert_eq!(health.body["care_notices"]["waiting"], 0, "{}", health.body);
}

#[tokio::test]
async fn a_gateway_stopped_while_sending_a_notice_sends_it_once_after_it_starts_again() {
    // The relay holds the connection without a word: the gateway is stopped in the middle of the send.
    let smtp = SmtpServer::start(Mode::Hang).await;
    let (app, token, scheduler, missed_at) = missed_pills(&smtp).await;
    let sending = {
        let scheduler = scheduler.clone();
        tokio::spawn(async move { schedule::due(&scheduler, missed_at).await })
    };
    crate::common::eventually("the reminder missed", 15, || async {
        (reminders(&app, &token).await[0]["state"] == "missed").then_some(())
    })
    .await;
    sending.abort();
    drop(scheduler);
    // Started again (a new scheduler on the same database), with a relay that answers: the claim of the
    // stopped send holds for its lease; then the notice goes out, once.
    smtp.set_mode(Mode::Accept);
    let restarted = scheduler_of(
        &app,
        &[
            ("SMTP_HOST", "127.0.0.1"),
            ("SMTP_PORT", &smtp.port.to_string()),
            ("SMTP_SECURITY", "none"),
        ],
    )
    .await;
    assert_eq!(outbox::due(&restarted, missed_at + 1_000).await.unwrap(), 0);
    assert_eq!(outbox::due(&restarted, missed_at + 61_000).await.unwrap(), 1);
    assert_eq!(outbox::due(&restarted, missed_at + 120_000).await.unwrap(), 0);
    assert_eq!(smtp.mails().len(), 1);
    assert_eq!(notice_tries(&app, &token).await, ["sent"]);
}
