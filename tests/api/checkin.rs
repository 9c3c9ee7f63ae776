//! The daily check-in, driven with the clock passed in (`care::checkin::due` on the serving gateway): a silent
//! day asks the person on their open page, once more, then tells their contacts by a care notice; a turn in
//! the window calls nobody; "Ja" answers the question; quiet hours and `away_until` hold it back.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{As, TestApp};
use crate::fakes::{CHAT, Fake};
use crate::ws::connect;
use voice_gateway::care::checkin::due;

/// A zone where it is late morning now (Etc/GMT-k is UTC+k), so that a window around midday holds now.
fn late_morning_zone() -> String {
    let hour = i64::from(jiff::Timestamp::now().to_zoned(jiff::tz::TimeZone::UTC).hour());
    let ahead = 11 - hour;
    match ahead {
        0 => "Etc/GMT".into(),
        k if k > 0 => format!("Etc/GMT-{k}"),
        k => format!("Etc/GMT+{}", -k),
    }
}

/// The person's check-in as the API shows it, and the end of its window in epoch milliseconds.
async fn plan(app: &TestApp, token: &str) -> (Value, i64) {
    let r = app.get("/api/me/checkin", As::Bearer(token)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let due: jiff::Timestamp = r.body["due_at"].as_str().expect("a planned window").parse().unwrap();
    (r.body.clone(), due.as_millisecond())
}

/// The care log as the carer sees it: (channel, status) newest first, and the whole answer.
async fn care_log(app: &TestApp, id: &str) -> (Vec<(String, String)>, Value) {
    let r = app.get(&format!("/api/admin/users/{id}/care"), As::AdminKey).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let log = r.body["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["channel"].as_str().unwrap().to_string(),
                e["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (log, r.body)
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

const MINUTE: i64 = 60_000;

#[tokio::test]
async fn a_silent_day_asks_on_the_open_page_once_more_then_tells_the_contacts() {
    let smtp = crate::smtp::SmtpServer::start(crate::smtp::Mode::Accept).await;
    let port = smtp.port.to_string();
    let relay = [
        ("SMTP_HOST", "127.0.0.1"),
        ("SMTP_PORT", port.as_str()),
        ("SMTP_SECURITY", "none"),
        ("SMTP_FROM", "gateway@care.example"),
        ("TIMEZONE", "Europe/Berlin"),
    ];
    let (app, token, id) = TestApp::with().env(&relay).user("erika").await;
    let profile = json!({"full_name": "Erika Muster", "language": "de", "emergency_contacts": ["tochter@family.example"],
        "checkin_window": " 8:00 - 10:00"});
    app.set_prefs(&id, profile).await;
    let (checkin, due_at) = plan(&app, &token).await;
    assert_eq!(
        (checkin["window"].as_str(), checkin["state"].as_str()),
        (Some("08:00-10:00"), Some("waiting"))
    );
    assert!(
        checkin["due_at"].as_str().unwrap().ends_with("T10:00:00+01:00"),
        "{checkin}"
    );
    assert_eq!(checkin["time_zone"], "Europe/Berlin");
    let mut page = connect(&app, "/ws/chat", &token).await;

    // Before the window's end nothing happens; at its end, with no sign of life, the page asks.
    assert_eq!(due(&app.app, due_at - 1000).await.unwrap(), 0);
    assert_eq!(due(&app.app, due_at + 1000).await.unwrap(), 1);
    let asked = page.next_of("checkin").await;
    assert_eq!(asked["said"], "Guten Morgen! Ist bei Ihnen alles in Ordnung?");
    // Asked again after CHECKIN_RETRY_MINUTES (10), then the daughter is told, clearly not as an alarm.
    for (minutes, claimed) in [(5, 0), (11, 1), (15, 0), (22, 1)] {
        let n = due(&app.app, due_at + minutes * MINUTE).await.unwrap();
        assert_eq!(n, claimed, "after {minutes} minutes");
    }
    page.next_of("checkin").await;
    let mail = crate::common::eventually("the care notice", 15, || async { smtp.mails().first().cloned() }).await;
    assert_eq!(mail.recipients, ["tochter@family.example"]);
    assert_eq!(
        mail.header("Subject"),
        "Hinweis (kein Notruf): Erika Muster hat sich heute nicht gemeldet"
    );
    let text = mail.body();
    assert!(
        text.starts_with("Dies ist kein Notruf.")
            && text.contains("bis 10:00 Uhr nicht gemeldet und auf die Nachfrage nicht geantwortet"),
        "{text}"
    );
    // The carer sees each step; tomorrow's window is planned.
    let (log, care) = crate::common::eventually("the notice logged", 15, || async {
        let (log, care) = care_log(&app, &id).await;
        (log.len() == 4).then_some((log, care))
    })
    .await;
    assert_eq!(
        log,
        pairs(&[
            ("mail", "sent"),
            ("none", "missed"),
            ("page", "delivered"),
            ("page", "delivered")
        ])
    );
    assert!(care["checkin"]["due_at"].as_str().unwrap().ends_with("T10:00:00+01:00"));
    assert_eq!(care["checkin"]["state"], "waiting");
    let (_, next) = plan(&app, &token).await;
    assert_eq!(next - due_at, 24 * 60 * MINUTE);
    let metrics = app.prometheus().await;
    for line in [
        "checkins_total{event=\"asked\"} 2",
        "checkins_total{event=\"missed\"} 1",
    ] {
        assert!(metrics.contains(line), "{line} in {metrics}");
    }
}

#[tokio::test]
async fn a_turn_in_the_window_calls_nobody_and_ja_answers_the_question() {
    let llm = Fake::answering(&["Die Sonne scheint."]).await;
    let (app, token, id) = TestApp::with().llm(&llm).user("erika").await;
    let (otto, otto_token) = app.create_user("otto").await;
    let prefs = json!({"language": "de", "timezone": late_morning_zone(), "checkin_window": "09:00-14:00"});
    app.set_prefs(&id, prefs.clone()).await;
    app.set_prefs(&otto, prefs).await;
    let say = |text: &str| json!({"text": text, "language": "de", "text_only": true});

    // Erika asks a question in the window, a sign of life: at the window's end nobody is asked.
    let (_, due_at) = plan(&app, &token).await;
    let r = app
        .call(
            Method::POST,
            "/api/chat",
            As::Bearer(&token),
            Some(say("Wie ist das Wetter?")),
        )
        .await;
    assert_eq!(r.body["text"], "Die Sonne scheint.");
    crate::common::eventually("the sign of life", 10, || async {
        plan(&app, &token).await.0["signed_at"].as_str().map(|_| ())
    })
    .await;
    let mut otto_page = connect(&app, "/ws/chat", &otto_token).await;
    assert_eq!(due(&app.app, due_at + 1000).await.unwrap(), 2);
    let (log, _) = care_log(&app, &id).await;
    assert_eq!(log, pairs(&[("none", "ok")]));
    let (_, tomorrow) = plan(&app, &token).await;
    assert_eq!(tomorrow - due_at, 24 * 60 * MINUTE);

    // Otto said nothing: his page asks; "Ja" answers (the gateway itself, not the model), and the next look
    // closes his day without asking again.
    assert_eq!(
        otto_page.next_of("checkin").await["said"],
        "Guten Tag! Ist bei Ihnen alles in Ordnung?"
    );
    let r = app
        .call(
            Method::POST,
            "/api/chat",
            As::Bearer(&otto_token),
            Some(say("Ja, alles gut.")),
        )
        .await;
    assert_eq!(
        r.body["text"],
        "Schön, das freut mich. Ich wünsche Ihnen einen guten Tag."
    );
    assert_eq!(llm.requests(CHAT).len(), 1, "only the weather went to the model");
    assert_eq!(due(&app.app, due_at + 11 * MINUTE).await.unwrap(), 1);
    let (log, _) = care_log(&app, &otto).await;
    assert_eq!(
        log,
        pairs(&[("none", "ok"), ("said", "answered"), ("page", "delivered")])
    );
}

#[tokio::test]
async fn quiet_hours_hold_the_call_back_and_away_until_skips_the_day() {
    let zone = late_morning_zone();
    let (app, token, id) = TestApp::with()
        .env(&[("QUIET_HOURS", "13:30-15:00")])
        .user("erika")
        .await;
    // No page open; the person's handset is an internal number: only the house line could reach them.
    app.set_prefs(
        &id,
        json!({"timezone": zone, "checkin_window": "09:00-14:00", "phone_landline": "**611"}),
    )
    .await;
    let (_, due_at) = plan(&app, &token).await;
    assert_eq!(due(&app.app, due_at + 1000).await.unwrap(), 1);
    let (log, _) = care_log(&app, &id).await;
    assert_eq!(log, pairs(&[("house_line", "held"), ("page", "unreachable")]));
    // Held until the quiet hours end at 15:00 (an hour after the window), then the call is tried (here the
    // house's telephone is not set up, which the log says).
    assert_eq!(due(&app.app, due_at + 30 * MINUTE).await.unwrap(), 0);
    assert_eq!(due(&app.app, due_at + 61 * MINUTE).await.unwrap(), 1);
    let (log, body) = care_log(&app, &id).await;
    assert_eq!(log[0], ("house_line".to_string(), "failed".to_string()), "{body}");
    assert!(
        body["log"][0]["detail"].as_str().unwrap().contains("SIP_REGISTRAR"),
        "{body}"
    );

    // Asked once more, then the day counts as missed (nobody to tell: the log says so).
    for (minutes, claimed) in [(72, 1), (83, 1)] {
        assert_eq!(
            due(&app.app, due_at + minutes * MINUTE).await.unwrap(),
            claimed,
            "after {minutes} minutes"
        );
    }
    let (log, body) = crate::common::eventually("the day missed", 10, || async {
        let (log, body) = care_log(&app, &id).await;
        (log.len() == 8).then_some((log, body))
    })
    .await;
    assert_eq!(
        &log[..2],
        pairs(&[("mail", "no_contacts"), ("none", "missed")]),
        "{body}"
    );

    // Away through tomorrow: tomorrow's window passes without a question.
    let (plan_now, tomorrow) = plan(&app, &token).await;
    assert_eq!(tomorrow - due_at, 24 * 60 * MINUTE);
    let day = &plan_now["due_at"].as_str().unwrap()[..10];
    app.set_prefs(&id, json!({"away_until": day})).await;
    assert_eq!(due(&app.app, tomorrow + 1000).await.unwrap(), 1);
    let (log, _) = care_log(&app, &id).await;
    assert_eq!(log[0], ("none".to_string(), "away".to_string()));
    let r = app.get("/api/me/checkin", As::Bearer(&token)).await;
    assert_eq!(
        (r.body["away_until"].as_str(), r.body["state"].as_str()),
        (Some(day), Some("waiting"))
    );

    // Wrong windows and dates get the contract's error body.
    for bad in [
        json!({"checkin_window": "10:00-08:00"}),
        json!({"checkin_window": "morgens"}),
        json!({"away_until": "next week"}),
        json!({"reminder_via": ["pigeon"]}),
    ] {
        let r = app
            .call(Method::PUT, "/api/me/prefs", As::Bearer(&token), Some(bad.clone()))
            .await;
        assert_eq!(r.error(422), "invalid_request", "{bad}");
    }
}
