//! What happens after a press: the truthful answer inside the cooldown (the specification's `cooldown`, no
//! second send), an operator ending the window, the contacts' acknowledgement (link and call), the reminder
//! when nobody confirms, and its survival of a restart.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use base64::Engine;
use hmac::{Hmac, Mac};
use serde_json::{Value, json};

use crate::common::{As, Reply as Answer, eventually, free_port, spawn_app, throughout};
use crate::emergency::{CALL, SMS, Setup, ack_link, events, form, mail_to, press, profile, setup};
use crate::fakes::{Fake, Reply};
use crate::smtp::Mode;

fn failing(s: &Setup, times: usize) {
    for _ in 0..times {
        s.twilio.then(SMS, Reply::Status(500, "{\"message\":\"down\"}".into()));
        s.twilio.then(CALL, Reply::Status(500, "{\"message\":\"down\"}".into()));
    }
}

fn mails(s: &Setup) -> usize {
    s.smtp.as_ref().unwrap().mails().len()
}

fn text(r: &Answer) -> String {
    r.body["message"].as_str().unwrap_or_default().to_string()
}

/// The operator's row of `name` in the help path's health.
async fn help_row_of(s: &Setup, name: &str) -> Value {
    let health = s.app.get("/api/admin/providers", As::AdminKey).await;
    health.body["help"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["name"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("{name} is not listed: {}", health.body))
}

async fn status(s: &Setup) -> Value {
    s.app.get("/api/emergency/status", As::Bearer(&s.token)).await.body
}

#[tokio::test]
async fn after_no_recipients_a_press_inside_the_window_answers_cooldown_and_when_a_press_sends_again() {
    let hook = Fake::start().await;
    hook.always("/hook", Reply::Status(204, String::new()));
    let url = format!("{}/hook", hook.base);
    let s = setup(
        None,
        &[("TWILIO_ACCOUNT_SID", ""), ("EMERGENCY_WEBHOOK_URL", &url)],
        profile(),
    )
    .await;
    assert_eq!(press(&s, None).await.body["status"], "no_recipients");

    let started = std::time::Instant::now();
    let again = press(&s, None).await;
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "the answer did not wait for anything"
    );

    // The specification's status, with the window's age and what is left of it.
    assert_eq!(again.body["status"], "cooldown", "{}", again.body);
    assert_eq!(again.body["minutes_ago"], 0);
    let left = again.body["remaining_seconds"].as_i64().unwrap();
    assert!((290..=300).contains(&left), "{left}");
    let message = text(&again);
    assert!(
        message.contains("hat niemanden erreicht")
            && message.contains("Ein neuer Alarm kann in 5 Minuten gesendet werden")
            && message.contains("Wartezeit früher beenden")
            && message.contains("112"),
        "{message}"
    );
    // The status says word for word what a press says now.
    let st = status(&s).await;
    assert_eq!(
        (st["cooldown_active"].as_bool(), st["cooldown_message"].as_str()),
        (Some(true), Some(message.as_str())),
        "{st}"
    );
    assert_eq!(events(&s.app, &s.id).await, vec!["no_recipients"]);
    assert_eq!(hook.requests("/hook").len(), 1, "the webhook is not repeated either");
}

#[tokio::test]
async fn a_press_that_reached_nobody_then_a_contact_set_the_operator_ends_the_window_and_the_next_press_mails() {
    // The mail relay works, but Anna has no contact yet: her press reaches nobody and opens the window.
    let no_contacts = json!({"full_name": "Anna Muster", "language": "de"});
    let s = setup(
        Some(Mode::Accept),
        &[("TWILIO_ACCOUNT_SID", ""), ("EMERGENCY_CONTACT_EMAIL", "")],
        no_contacts,
    )
    .await;
    let first = press(&s, None).await;
    assert_eq!(first.body["status"], "no_recipients", "{}", first.body);
    assert!(
        text(&first).contains("keine Kontaktperson eingetragen"),
        "{}",
        text(&first)
    );

    // Her daughter is entered now: help reaches somebody, but the window stands, and every view says so alike.
    s.app
        .set_prefs(&s.id, json!({"emergency_contacts": ["tochter@family.example"]}))
        .await;
    let inside = press(&s, None).await;
    assert_eq!(inside.body["status"], "cooldown", "{}", inside.body);
    assert_eq!(inside.body["notify_ready"], true);
    let st = status(&s).await;
    assert_eq!(st["reach"], "somebody");
    assert_eq!(st["cooldown_message"], inside.body["message"], "{st}");
    assert_eq!(mails(&s), 0, "no second send inside the window");
    // The operator's view names her and what her last press achieved.
    let anna = help_row_of(&s, "anna").await;
    assert_eq!(anna["last_press_reached_nobody"], true);
    assert!(anna["cooldown_remaining_seconds"].as_i64().unwrap() > 0, "{anna}");
    the_operator_ends_the_window(&s).await;
}

/// The operator ends the window: only an admin may, audited, counted, and the next press mails at once.
async fn the_operator_ends_the_window(s: &crate::emergency::Setup) {
    let path = format!("/api/admin/users/{}/emergency/cooldown", s.id);
    let ended = s
        .app
        .call(reqwest::Method::DELETE, &path, As::Bearer(&s.token), None)
        .await;
    assert_eq!(ended.status, 403, "only an admin may end it");
    let ended = s.app.call(reqwest::Method::DELETE, &path, As::AdminKey, None).await;
    assert_eq!(
        (ended.status.as_u16(), &ended.body["was_open"]),
        (200, &json!(true)),
        "{}",
        ended.body
    );
    let audit = s.app.get("/api/admin/audit", As::AdminKey).await;
    assert!(
        audit
            .body
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["action"] == "user.emergency_cooldown_end"),
        "{}",
        audit.body
    );
    assert!(
        s.app
            .prometheus()
            .await
            .lines()
            .any(|l| l == "emergency_cooldowns_ended_total 1")
    );
    assert_eq!(status(s).await["cooldown_active"], false);
    let after = press(s, None).await;
    assert_eq!(after.body["status"], "alerted", "{}", after.body);
    assert_eq!(mails(s), 1);
    assert_eq!(events(&s.app, &s.id).await, vec!["no_recipients", "alerted"]);
    let unknown = s
        .app
        .call(
            reqwest::Method::DELETE,
            "/api/admin/users/nobody/emergency/cooldown",
            As::AdminKey,
            None,
        )
        .await;
    assert_eq!(unknown.status, 404);
}

#[tokio::test]
async fn after_an_alarm_that_reached_somebody_a_press_names_whom_and_repeats_nothing() {
    let s = setup(Some(Mode::RefuseRecipients), &[], profile()).await;
    s.twilio.then(SMS, Reply::Status(500, "{}".into()));
    assert_eq!(press(&s, None).await.body["status"], "alerted", "the call got through");

    let again = press(&s, None).await;

    assert_eq!(again.body["status"], "cooldown");
    let message = text(&again);
    assert!(
        message.contains("vor einer Minute") && message.contains("+491709999999 (Anruf)") && message.contains("112"),
        "{message}"
    );
    assert!(
        !message.contains("tochter"),
        "the refused mail reached nobody: {message}"
    );
    assert_eq!(again.body["notified"], json!([]));
    assert_eq!(
        (s.twilio.requests(SMS).len(), s.twilio.requests(CALL).len(), mails(&s)),
        (1, 1, 0)
    );
    assert_eq!(events(&s.app, &s.id).await, vec!["alerted"]);
}

#[tokio::test]
async fn after_delivery_failed_presses_inside_the_window_send_nothing_and_tell_why() {
    let s = setup(Some(Mode::RefuseRecipients), &[], profile()).await;
    failing(&s, 1);
    assert_eq!(press(&s, None).await.body["status"], "delivery_failed");
    s.smtp.as_ref().unwrap().set_mode(Mode::Accept);

    // Twenty presses at once inside the window: no second send, each told the same truth.
    let replies = futures_util::future::join_all((0..20).map(|_| press(&s, None))).await;

    for reply in &replies {
        assert_eq!(reply.body["status"], "cooldown", "{}", reply.body);
        assert_eq!(reply.body["notified"], json!([]));
        assert!(text(reply).contains("hat niemanden erreicht"), "{}", text(reply));
    }
    assert_eq!(mails(&s), 0);
    assert_eq!((s.twilio.requests(SMS).len(), s.twilio.requests(CALL).len()), (1, 1));
    assert_eq!(events(&s.app, &s.id).await, vec!["delivery_failed"]);
    // The page learns why: every channel failed its delivery just now, and whom the alarm missed.
    let st = status(&s).await;
    assert_eq!(
        (&st["cause"], &st["reach"]),
        (&json!("channels_failing"), &json!("failing")),
        "{st}"
    );
    assert!(st["warning"].as_str().unwrap().contains("112"), "{st}");
    assert!(
        st["failed_to"]
            .as_array()
            .unwrap()
            .contains(&json!("tochter@family.example")),
        "{st}"
    );
}

#[tokio::test]
async fn the_link_in_the_mail_confirms_once_and_the_person_sees_who_confirmed() {
    let s = setup(Some(Mode::Accept), &[], profile()).await;
    assert_eq!(press(&s, None).await.body["status"], "alerted");
    assert_eq!(status(&s).await["acknowledged"], false);
    let all = s.smtp.as_ref().unwrap().mails();
    let link = ack_link(&mail_to(&all, "tochter@family.example").body());

    // Opening the link shows the alarm and a button, without confirming: mail scanners open links too.
    let page = s.app.client.get(&link).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(
        page.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let html = page.text().await.unwrap();
    assert!(
        html.contains("<html lang=\"de\">") && html.contains("Anna Muster hat um"),
        "{html}"
    );
    assert!(html.contains("<form method=\"post\">") && html.contains("Ich habe den Alarm gesehen"));
    assert_eq!(status(&s).await["acknowledged"], false);

    let confirmed = s.app.client.post(&link).send().await.unwrap();
    assert_eq!(confirmed.status(), 200);
    let html = confirmed.text().await.unwrap();
    assert!(
        html.contains("Danke. Anna Muster weiß jetzt, dass Sie den Alarm gesehen haben."),
        "{html}"
    );
    let st = status(&s).await;
    assert_eq!(st["acknowledged"], true);
    assert_eq!(st["acknowledged_by"].as_array().unwrap().len(), 1);
    assert_eq!(st["acknowledged_by"][0]["contact"], "tochter@family.example");
    assert_eq!(st["acknowledged_by"][0]["via"], "link");

    // A second use is harmless.
    assert_eq!(s.app.client.post(&link).send().await.unwrap().status(), 200);
    assert_eq!(status(&s).await["acknowledged_by"].as_array().unwrap().len(), 1);

    // The person pressing again is told, and so is the admin.
    let again = press(&s, None).await;
    assert!(
        text(&again).contains("Gesehen und bestätigt von tochter@family.example"),
        "{}",
        text(&again)
    );
    let list = s.app.get("/api/admin/emergencies", As::AdminKey).await;
    assert_eq!(list.body[0]["acknowledged"], true);
    assert_eq!(list.body[0]["acknowledged_by"][0]["contact"], "tochter@family.example");
    assert!(
        s.app
            .prometheus()
            .await
            .contains("\nemergency_acknowledgements_total 1\n")
    );

    // Forged and expired links get the same 404.
    let forged = s
        .app
        .url("/api/emergency/ack/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    let forged_get = s.app.send(s.app.client.get(&forged)).await;
    assert_eq!(forged_get.error(404), "not_found");
    voice_gateway::with_pool!(s.app.store, pool => {
        sqlx::query("UPDATE emergency_acks SET expires_at = 0")
        .execute(pool)
        .await
        .unwrap();
    });
    let desk = ack_link(&mail_to(&all, "desk@care.example").body());
    let expired = s.app.send(s.app.client.post(&desk)).await;
    assert_eq!(expired.error(404), "not_found");
    assert_eq!(expired.body, s.app.send(s.app.client.post(&forged)).await.body);
}

/// Twilio's signature, computed here independently of the gateway.
fn sign(url: &str, fields: &[(&str, &str)]) -> String {
    let mut sorted = fields.to_vec();
    sorted.sort();
    let mut mac = Hmac::<sha1::Sha1>::new_from_slice(b"twilio-secret").unwrap();
    mac.update(url.as_bytes());
    for (k, v) in sorted {
        mac.update(k.as_bytes());
        mac.update(v.as_bytes());
    }
    base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
}

#[tokio::test]
async fn pressing_1_in_the_call_confirms_when_twilio_signed_the_callback() {
    let s = setup(Some(Mode::Accept), &[], profile()).await;
    assert_eq!(press(&s, None).await.body["status"], "alerted");
    let twiml = form(&s.twilio.requests(CALL)[0])["Twiml"].clone();
    let action = twiml
        .split("action=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .replace("&amp;", "&");
    assert!(action.contains("/api/emergency/call/"), "{action}");
    let fields = [
        ("CallSid", "CA1"),
        ("Digits", "1"),
        ("From", "+4930000000"),
        ("To", "+491709999999"),
    ];
    let post = |signature: Option<String>| {
        let mut req = s.app.client.post(&action).form(&fields);
        if let Some(sig) = signature {
            req = req.header("X-Twilio-Signature", sig);
        }
        s.app.send(req)
    };

    assert_eq!(post(Some("bm90IHNpZ25lZA==".into())).await.error(403), "forbidden");
    assert_eq!(post(None).await.error(403), "forbidden");
    assert_eq!(status(&s).await["acknowledged"], false);

    let reply = s
        .app
        .client
        .post(&action)
        .form(&fields)
        .header("X-Twilio-Signature", sign(&action, &fields))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    assert!(
        reply.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/xml")
    );
    let said = reply.text().await.unwrap();
    assert!(
        said.starts_with("<Response><Say language=\"de-DE\">Danke. Anna Muster"),
        "{said}"
    );
    let st = status(&s).await;
    assert_eq!(st["acknowledged_by"][0]["contact"], "+491709999999");
    assert_eq!(st["acknowledged_by"][0]["via"], "call");
}

#[tokio::test]
async fn without_a_confirmation_a_reminder_goes_out_once_on_every_channel() {
    // 0.02 minutes: the reminder is due 1.2 s after the press.
    let s = setup(
        Some(Mode::Accept),
        &[("EMERGENCY_ESCALATION_MINUTES", "0.02")],
        profile(),
    )
    .await;
    assert_eq!(press(&s, None).await.body["status"], "alerted");
    assert!(status(&s).await["alarm"]["escalation_due_at"].is_i64());

    eventually("the reminder", 10, || async {
        s.twilio.requests(SMS).len() == 2 && s.twilio.requests(CALL).len() == 2 && mails(&s) == 4
    })
    .await;

    let sms = form(&s.twilio.requests(SMS)[1])["Body"].clone();
    assert!(
        sms.starts_with("ERINNERUNG") && sms.contains("/api/emergency/ack/"),
        "{sms}"
    );
    let reminder = s.smtp.as_ref().unwrap().mails()[3].clone();
    assert!(
        reminder.header("Subject").starts_with("ERINNERUNG"),
        "{}",
        reminder.header("Subject")
    );
    eventually("the reminder's record", 5, || async {
        events(&s.app, &s.id).await == ["alerted", "escalated"]
    })
    .await;
    let st = status(&s).await;
    assert!(st["alarm"]["escalated_at"].is_i64() && st["alarm"]["escalation_due_at"].is_null());

    // Once: the reminder is no longer due (above), so only a worker that sent it again regardless could send a
    // second one, at its next look (every second): one look and a margin for the request to arrive.
    throughout("one reminder only", Duration::from_millis(1200), || async {
        s.twilio.requests(SMS).len() == 2
    })
    .await;
    assert!(s.app.prometheus().await.contains("\nemergency_escalations_total 1\n"));
}

#[tokio::test]
async fn a_confirmation_cancels_the_pending_reminder() {
    // 0.03 minutes: the reminder would be due 1.8 s after the press, time enough to confirm before.
    let s = setup(
        Some(Mode::Accept),
        &[("EMERGENCY_ESCALATION_MINUTES", "0.03")],
        profile(),
    )
    .await;
    let pressed = std::time::Instant::now();
    assert_eq!(press(&s, None).await.body["status"], "alerted");
    let link = ack_link(&mail_to(&s.smtp.as_ref().unwrap().mails(), "desk@care.example").body());
    assert_eq!(s.app.client.post(&link).send().await.unwrap().status(), 200);
    assert!(status(&s).await["alarm"]["escalation_due_at"].is_null());

    // Up to when the cancelled reminder would have gone out: its due time, then the worker's next look (it
    // looks every second) and a margin for the requests to arrive.
    let would_have_gone = Duration::from_millis(1800 + 1000 + 200);
    throughout(
        "no reminder after the confirmation",
        would_have_gone.saturating_sub(pressed.elapsed()),
        || async { s.twilio.requests(SMS).len() == 1 && mails(&s) == 2 },
    )
    .await;

    assert_eq!(s.twilio.requests(SMS).len(), 1);
    assert_eq!(mails(&s), 2);
    assert_eq!(events(&s.app, &s.id).await, vec!["alerted"]);
}

#[tokio::test]
async fn a_fresh_gateway_exports_the_alarm_counters_with_zero() {
    let text = spawn_app(&[]).await.prometheus().await;
    for line in [
        "emergency_total 0",
        "emergency_cooldowns_ended_total 0",
        "emergency_acknowledgements_total 0",
        "emergency_escalations_total 0",
        "quota_rejections_total 0",
    ] {
        assert!(text.lines().any(|l| l == line), "{line} missing in:\n{text}");
    }
}

const BIN: &str = env!("CARGO_BIN_EXE_voice-gateway");

/// The real binary on a port, with its database in `dir` and Twilio pointed at the fake.
pub(crate) fn start_binary(dir: &std::path::Path, port: u16, twilio: &Fake) -> Child {
    Command::new(BIN)
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("ENGINES", "off")
        .env("AUTH_ENABLED", "true")
        .env("ADMIN_API_KEY", crate::common::ADMIN_KEY)
        .env("LISTEN_ADDR", format!("127.0.0.1:{port}"))
        .env("TWILIO_API_URL", &twilio.base)
        .env("TWILIO_ACCOUNT_SID", "AC123")
        .env("TWILIO_AUTH_TOKEN", "twilio-secret")
        .env("TWILIO_FROM_NUMBER", "+4930000000")
        // Not due while the test runs: the test moves the due time itself (below).
        .env("EMERGENCY_ESCALATION_MINUTES", "10")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

pub(crate) async fn json_of(req: reqwest::RequestBuilder) -> Value {
    req.send().await.unwrap().json().await.unwrap()
}

pub(crate) async fn stop_binary(mut child: Child) {
    let pid = child.id().to_string();
    Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    tokio::task::spawn_blocking(move || child.wait().unwrap())
        .await
        .unwrap();
}

/// Makes the pending reminders in a stopped gateway's SQLite file due a second ago; returns how many there were.
async fn fall_due(db: &std::path::Path) -> u64 {
    let options = sqlx::sqlite::SqliteConnectOptions::new().filename(db);
    let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
    let due = voice_gateway::store::now_ms() - 1000;
    let moved = sqlx::query("UPDATE emergency_alarms SET escalate_at = $1 WHERE escalate_at IS NOT NULL")
        .bind(due)
        .execute(&pool)
        .await
        .unwrap()
        .rows_affected();
    pool.close().await;
    moved
}

#[tokio::test]
async fn a_pending_reminder_survives_a_restart_of_the_real_binary() {
    let twilio = Fake::start().await;
    twilio.always(SMS, Reply::Json(json!({"sid": "SM1"})));
    twilio.always(CALL, Reply::Json(json!({"sid": "CA1"})));
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::new();
    let up = || async { http.get(format!("{base}/health")).send().await.is_ok() };
    let child = start_binary(dir.path(), port, &twilio);
    eventually("the gateway to start", 20, up).await;
    let admin = |req: reqwest::RequestBuilder| req.header("X-Admin-Key", crate::common::ADMIN_KEY);
    let user = json_of(admin(http.post(format!("{base}/api/admin/users"))).json(&json!({"name": "anna"}))).await;
    let prefs = json!({"emergency_contact_phones": ["+491709999999"], "language": "de", "full_name": "Anna"});
    let prefs_url = format!("{base}/api/admin/users/{}/prefs", user["id"].as_str().unwrap());
    assert_eq!(
        admin(http.put(prefs_url)).json(&prefs).send().await.unwrap().status(),
        200
    );
    let pressed = json_of(
        http.post(format!("{base}/api/emergency"))
            .bearer_auth(user["token"].as_str().unwrap()),
    )
    .await;
    assert_eq!(pressed["status"], "alerted");

    // Stopped long before the reminder is due; then its due time, kept in the database, passes while the
    // gateway is down: moved into the past rather than waited for.
    stop_binary(child).await;
    assert_eq!(
        fall_due(&dir.path().join("data/gateway.db")).await,
        1,
        "one pending reminder was kept"
    );
    assert_eq!(
        twilio.requests(SMS).len(),
        1,
        "nothing was sent while the gateway was down"
    );

    let child = start_binary(dir.path(), port, &twilio);
    eventually("the reminder after the restart", 20, || async {
        twilio.requests(SMS).len() == 2
    })
    .await;
    stop_binary(child).await;
    let sms = form(&twilio.requests(SMS)[1])["Body"].clone();
    assert!(sms.starts_with("ERINNERUNG"), "{sms}");
}

#[tokio::test]
async fn a_press_inside_the_window_of_a_delivered_alarm_says_when_one_sends_again_and_the_operator_can_end_it() {
    let s = setup(Some(Mode::Accept), &[], profile()).await;
    assert_eq!(press(&s, None).await.body["status"], "alerted");
    let sent = mails(&s);

    let again = press(&s, None).await;
    assert_eq!(again.body["status"], "cooldown", "{}", again.body);
    let said = text(&again);
    assert!(
        said.starts_with("Der Alarm wurde vor einer Minute ausgelöst"),
        "never 0 minutes: {said}"
    );
    assert!(
        said.contains("Ein neuer Alarm kann in 5 Minuten gesendet werden; wer den Assistenten betreut, kann die Wartezeit früher beenden."),
        "{said}"
    );
    // Her help reaches everybody, yet the operator sees her open window and can end it.
    let anna = help_row_of(&s, "anna").await;
    assert_eq!(
        (&anna["stuck"], &anna["reach"]),
        (&json!(false), &json!("somebody")),
        "{anna}"
    );
    assert!(anna["cooldown_remaining_seconds"].as_i64().unwrap() > 240, "{anna}");
    let health = s.app.get("/api/admin/providers", As::AdminKey).await;
    assert_eq!(
        health.body["users_without_working_channel"],
        json!([]),
        "{}",
        health.body
    );
    let path = format!("/api/admin/users/{}/emergency/cooldown", s.id);
    let ended = s.app.call(reqwest::Method::DELETE, &path, As::AdminKey, None).await;
    assert_eq!(ended.body["was_open"], true, "{}", ended.body);
    assert_eq!(press(&s, None).await.body["status"], "alerted");
    assert!(mails(&s) > sent, "the press after the ended wait mailed again");
}
