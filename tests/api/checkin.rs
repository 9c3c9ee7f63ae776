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
pub(crate) fn late_morning_zone() -> String {
    let hour = i64::from(jiff::Timestamp::now().to_zoned(jiff::tz::TimeZone::UTC).hour());
    let ahead = 11 - hour;
    match ahead {
        0 => "Etc/GMT".into(),
        k if k > 0 => format!("Etc/GMT-{k}"),
        k => format!("Etc/GMT+{}", -k),
    }
}

/// The person's check-in as the API shows it, and the end of its window in epoch milliseconds.
pub(crate) async fn plan(app: &TestApp, token: &str) -> (Value, i64) {
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

/// The daughter says she is looking after Erika's silent day, by the link of the care notice `mail`: the page
/// asks (a GET changes nothing), its button records it once in the care log; a wrong link is 404.
async fn the_daughter_looks_after_it_by_the_link(app: &TestApp, id: &str, text: &str) {
    let link = text
        .lines()
        .find_map(|l| l.split_once("hier: "))
        .map(|(_, link)| link.trim().to_string())
        .expect("a link");
    assert!(link.starts_with("https://gw.example/api/care/ack/"), "{link}");
    let path = format!("http://{}{}", app.addr, &link["https://gw.example".len()..]);
    let page = app.client.get(&path).send().await.unwrap().text().await.unwrap();
    assert!(
        page.contains("Ich kümmere mich darum") && page.contains("Erika Muster hat sich heute nicht gemeldet"),
        "{page}"
    );
    assert_eq!(care_log(app, id).await.0.len(), 4);
    for _ in 0..2 {
        let thanks = app.client.post(&path).send().await.unwrap().text().await.unwrap();
        assert!(thanks.contains("Danke. Es ist vermerkt"), "{thanks}");
    }
    assert_eq!(
        care_log(app, id).await.0[0],
        ("link".to_string(), "acknowledged".to_string())
    );
    assert_eq!(care_log(app, id).await.0.len(), 5);
    let wrong = app
        .client
        .get(format!("http://{}/api/care/ack/nonsense", app.addr))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 404);
}

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
        ("PUBLIC_URL", "https://gw.example"),
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
    the_daughter_looks_after_it_by_the_link(&app, &id, &text).await;

    let metrics = app.prometheus().await;
    for line in [
        "checkins_total{event=\"asked\"} 2",
        "checkins_total{event=\"missed\"} 1",
    ] {
        assert!(metrics.contains(line), "{line} in {metrics}");
    }
}

/// A user made by the admin with a display name: (id, token).
pub(crate) async fn named_user(app: &TestApp, name: &str, display_name: &str) -> (String, String) {
    let user = json!({"name": name, "display_name": display_name});
    let r = app
        .call(Method::POST, "/api/admin/users", As::AdminKey, Some(user))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let field = |k: &str| r.body[k].as_str().unwrap().to_string();
    (field("id"), field("token"))
}

/// Erika (a check-in window around now, her daughter's address) with her carer Schwester Anna: Anna's token.
async fn with_carer(app: &TestApp, id: &str) -> String {
    let (anna, anna_token) = named_user(app, "anna", "Schwester Anna").await;
    let set = format!("/api/admin/users/{id}/carers");
    let r = app
        .call(Method::PUT, &set, As::AdminKey, Some(json!({"carers": [anna]})))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let prefs = json!({"full_name": "Erika Muster", "language": "de", "timezone": late_morning_zone(),
        "checkin_window": "09:00-14:00", "emergency_contacts": ["tochter@family.example"]});
    app.set_prefs(id, prefs).await;
    anna_token
}

/// Erika's reminder reaches her open page in her check-in window and her carer confirms it on the board: that
/// is the carer's act (the reminder's delivery and the care log name her), not Erika's sign of life. At the
/// window's end the page asks Erika, asks again, and her daughter is told she stayed silent.
#[tokio::test]
async fn a_carer_confirming_a_residents_reminder_leaves_her_check_in_asking() {
    let smtp = crate::smtp::SmtpServer::start(crate::smtp::Mode::Accept).await;
    let port = smtp.port.to_string();
    let relay = [
        ("SMTP_HOST", "127.0.0.1"),
        ("SMTP_PORT", port.as_str()),
        ("SMTP_SECURITY", "none"),
        ("SMTP_FROM", "gateway@care.example"),
    ];
    let (app, token, id) = TestApp::with().env(&relay).user("erika").await;
    let anna_token = with_carer(&app, &id).await;
    let (_, due_at) = plan(&app, &token).await;
    let mut page = connect(&app, "/ws/chat", &token).await;
    let soon = (jiff::Timestamp::now() + jiff::SignedDuration::from_secs(1)).to_string();
    let body = json!({"text": "die Tabletten", "due_at": soon});
    let made = app
        .call(Method::POST, "/api/me/reminders", As::Bearer(&token), Some(body))
        .await;
    assert_eq!(made.status, 201, "{}", made.body);
    page.next_of("reminder").await;

    // Anna confirms it: recorded as hers, by her display name; Erika has given no sign of life.
    let reminder = made.body["id"].as_str().unwrap();
    let confirm = format!("/api/carer/residents/{id}/reminders/{reminder}/confirm");
    let done = app.call(Method::POST, &confirm, As::Bearer(&anna_token), None).await;
    assert_eq!(done.status, 200, "{}", done.body);
    let last = done.body["deliveries"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (&last["channel"], &last["status"], &last["detail"]),
        (
            &json!("carer"),
            &json!("confirmed"),
            &json!("by the carer Schwester Anna")
        ),
        "{}",
        done.body
    );
    assert_eq!(plan(&app, &token).await.0["signed_at"], Value::Null);

    // At the window's end the page asks Erika, ten minutes on once more, then the daughter is told.
    assert_eq!(due(&app.app, due_at + 1000).await.unwrap(), 1);
    let asked = page.next_of("checkin").await;
    assert!(
        asked["said"]
            .as_str()
            .unwrap()
            .ends_with("Ist bei Ihnen alles in Ordnung?"),
        "{asked}"
    );
    for (minutes, claimed) in [(11, 1), (22, 1)] {
        let n = due(&app.app, due_at + minutes * MINUTE).await.unwrap();
        assert_eq!(n, claimed, "after {minutes} minutes");
    }
    let mail = crate::common::eventually("the care notice", 15, || async { smtp.mails().first().cloned() }).await;
    assert_eq!(mail.recipients, ["tochter@family.example"]);
    assert_eq!(
        mail.header("Subject"),
        "Hinweis (kein Notruf): Erika Muster hat sich heute nicht gemeldet"
    );
    let (log, care) = care_log(&app, &id).await;
    assert!(log.contains(&pairs(&[("none", "missed")])[0]), "{care}");
    assert!(!log.contains(&pairs(&[("none", "ok")])[0]), "{care}");
    let by_anna = care["log"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["channel"] == "carer")
        .unwrap_or_else(|| panic!("the carer's confirmation in {care}"));
    assert_eq!(
        (&by_anna["what"], &by_anna["detail_code"], &by_anna["detail_args"]),
        (
            &json!("reminder"),
            &json!("by-carer"),
            &json!({"carer": "Schwester Anna"})
        ),
    );
}

/// A carer moving Erika's window while her check-in asks her leaves it asking: asked again, the day missed and
/// her daughter's notice written, then the new window planned.
#[tokio::test]
async fn a_carer_moving_the_window_while_the_check_in_asks_leaves_it_asking() {
    let (app, token, id) = TestApp::with().user("erika").await;
    let anna_token = with_carer(&app, &id).await;
    let (_, due_at) = plan(&app, &token).await;
    assert_eq!(due(&app.app, due_at + 1000).await.unwrap(), 1);
    let path = format!("/api/carer/residents/{id}/checkin");
    let body = json!({"window": "10:00-15:00"});
    let set = app.call(Method::PUT, &path, As::Bearer(&anna_token), Some(body)).await;
    assert_eq!(set.status, 200, "{}", set.body);
    assert_eq!(set.body["state"], "calling", "{}", set.body);
    for (minutes, claimed) in [(11, 1), (22, 1)] {
        let n = due(&app.app, due_at + minutes * MINUTE).await.unwrap();
        assert_eq!(n, claimed, "after {minutes} minutes");
    }
    let (log, care) = care_log(&app, &id).await;
    assert!(log.contains(&pairs(&[("none", "missed")])[0]), "{care}");
    assert!(log.contains(&pairs(&[("carer", "set")])[0]), "{care}");
    let (_, next) = plan(&app, &token).await;
    assert_eq!(next - due_at, 25 * 60 * MINUTE, "tomorrow at 15:00");
}

/// An admin confirming a person's reminder in the panel is the admin's act too: recorded as `admin`, named, and
/// no sign of the person's life.
#[tokio::test]
async fn an_admin_confirming_a_reminder_is_no_sign_of_the_persons_life() {
    let (app, token, id) = TestApp::with().user("erika").await;
    let prefs = json!({"timezone": late_morning_zone(), "checkin_window": "09:00-14:00"});
    app.set_prefs(&id, prefs).await;
    let soon = (jiff::Timestamp::now() + jiff::SignedDuration::from_secs(1)).to_string();
    let body = json!({"text": "die Tabletten", "due_at": soon});
    let made = app
        .call(Method::POST, "/api/me/reminders", As::Bearer(&token), Some(body))
        .await;
    assert_eq!(made.status, 201, "{}", made.body);
    let reminder = made.body["id"].as_str().unwrap();
    // Delivered by the gateway's own scheduler (no page open: unreachable, recorded just after the claim), then
    // waiting to be confirmed.
    crate::common::eventually("the delivery", 15, || async {
        let r = app.get("/api/me/reminders", As::Bearer(&token)).await;
        let reminder = &r.body["reminders"][0];
        let recorded = reminder["deliveries"]
            .as_array()
            .is_some_and(|d| d.iter().any(|d| d["status"] == "unreachable"));
        (reminder["state"] == "delivering" && recorded).then_some(())
    })
    .await;
    let path = format!("/api/admin/users/{id}/reminders/{reminder}/confirm");
    let done = app.call(Method::POST, &path, As::AdminKey, None).await;
    assert_eq!(done.status, 200, "{}", done.body);
    let last = done.body["deliveries"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (&last["channel"], &last["detail"]),
        (&json!("admin"), &json!("by the administrator admin-key")),
        "{}",
        done.body
    );
    assert_eq!(plan(&app, &token).await.0["signed_at"], Value::Null);
    let metrics = app.prometheus().await;
    let line = "reminders_total{event=\"confirmed\",channel=\"admin\"} 1";
    assert!(metrics.contains(line), "{line} in {metrics}");
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

/// A French person is asked in French and her "oui" answers: the words the question asks for are heard.
#[tokio::test]
async fn a_french_check_in_is_asked_in_french_and_oui_answers_it() {
    let llm = Fake::answering(&["Il fait beau."]).await;
    let (app, token, id) = TestApp::with().llm(&llm).user("amelie").await;
    let prefs = json!({"language": "fr", "timezone": late_morning_zone(), "checkin_window": "09:00-14:00"});
    app.set_prefs(&id, prefs).await;
    let (_, due_at) = plan(&app, &token).await;
    let mut page = connect(&app, "/ws/chat", &token).await;
    assert_eq!(due(&app.app, due_at + 1000).await.unwrap(), 1);
    assert_eq!(
        page.next_of("checkin").await["said"],
        "Bonjour ! Est-ce que tout va bien ?"
    );
    let said = json!({"text": "Oui, ça va.", "language": "fr", "text_only": true});
    let r = app
        .call(Method::POST, "/api/chat", As::Bearer(&token), Some(said))
        .await;
    assert_eq!(
        r.body["text"],
        "Très bien, cela me fait plaisir. Je vous souhaite une bonne journée."
    );
    assert!(llm.requests(CHAT).is_empty(), "the gateway answered, not the model");
    let (log, _) = care_log(&app, &id).await;
    assert_eq!(log, pairs(&[("said", "answered"), ("page", "delivered")]));
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

/// Posts Twilio's answer of care's call to `action` (on `app`'s own address), signed as Twilio signs it.
async fn twilio_answers(app: &TestApp, action: &str, fields: &[(&str, &str)], signed: bool) -> (u16, String) {
    let path = &action[action.find("/api/").unwrap()..];
    let mut request = app.client.post(format!("http://{}{path}", app.addr)).form(fields);
    if signed {
        request = request.header(
            "X-Twilio-Signature",
            crate::twilio_media::signature("twilio-secret", action, fields),
        );
    }
    let reply = request.send().await.unwrap();
    (reply.status().as_u16(), reply.text().await.unwrap())
}

/// The `<Gather action>` of a TwiML document.
fn action_of(twiml: &str) -> String {
    twiml
        .split("action=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .replace("&amp;", "&")
}

/// A reminder reaches Anna's mobile as the check-in did, and "Ja, erledigt" on the call confirms it.
async fn a_reminder_on_her_mobile_is_confirmed_by_words(s: &crate::emergency::Setup) {
    let app = &s.app;
    let due_soon = (jiff::Timestamp::now() + jiff::SignedDuration::from_secs(1))
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string();
    let body = json!({"text": "meine Tabletten", "due_at": due_soon});
    let r = app
        .call(Method::POST, "/api/me/reminders", As::Bearer(&s.token), Some(body))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let call = crate::common::eventually("the reminder's call", 15, || async {
        let calls = s.twilio.requests(crate::emergency::CALL);
        let mut to_anna = calls
            .iter()
            .map(crate::emergency::form)
            .filter(|c| c["To"] == "+4917011111");
        to_anna.nth(1)
    })
    .await;
    assert!(call["Twiml"].contains("Erinnerung: Ihre Tabletten."), "{call:?}");
    let action = action_of(&call["Twiml"]);
    let yes = [
        ("CallSid", "CA2"),
        ("SpeechResult", "Ja, erledigt."),
        ("Confidence", "0.8"),
    ];
    let (status, twiml) = twilio_answers(app, &action, &yes, true).await;
    assert_eq!(status, 200, "{twiml}");
    assert!(twiml.contains("Danke, erledigt: Ihre Tabletten."), "{twiml}");
    let r = app.get("/api/me/reminders", As::Bearer(&s.token)).await;
    assert_eq!(r.body["reminders"][0]["state"], "confirmed", "{}", r.body);
    let channels: Vec<&str> = r.body["reminders"][0]["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["channel"].as_str().unwrap())
        .collect();
    assert_eq!(channels, ["page", "phone", "phone"]);
}

/// Otto's contact got the care notice by SMS (he has no e-mail contact), and his care log says so.
async fn ottos_contact_is_texted(s: &crate::emergency::Setup, otto: &str) {
    let app = &s.app;
    let notice = crate::common::eventually("the care notice by SMS", 15, || async {
        s.twilio
            .requests(crate::emergency::SMS)
            .iter()
            .map(crate::emergency::form)
            .find(|f| f["To"] == "+491708888888")
    })
    .await;
    assert!(
        notice["Body"].starts_with("Hinweis (kein Notruf): Otto Muster hat sich heute nicht gemeldet."),
        "{notice:?}"
    );
    let (log, body) = crate::common::eventually("Otto's notice logged", 15, || async {
        let (log, body) = care_log(app, otto).await;
        log.iter().any(|(c, _)| c == "sms").then_some((log, body))
    })
    .await;
    assert!(log.contains(&("sms".to_string(), "sent".to_string())), "{body}");
    assert!(log.contains(&("mail".to_string(), "no_contacts".to_string())), "{body}");
}

/// Otto, with a check-in at Anna's hours, a contact by SMS, and neither a mobile nor a page.
async fn otto_without_a_mobile(app: &TestApp) -> (String, String) {
    let (otto, otto_token) = app.create_user("otto").await;
    app.set_prefs(
        &otto,
        json!({"language": "de", "full_name": "Otto Muster", "checkin_window": "09:00-14:00",
        "timezone": late_morning_zone(), "emergency_contact_phones": ["+491708888888"]}),
    )
    .await;
    (otto, otto_token)
}

#[tokio::test]
async fn the_mobile_is_called_through_twilio_and_answered_by_words_and_a_silent_day_is_texted_to_the_contacts() {
    let zone = late_morning_zone();
    let prefs = json!({"language": "de", "full_name": "Anna Muster", "phone_mobile": "+4917011111",
        "checkin_window": "09:00-14:00", "timezone": zone, "emergency_contacts": ["tochter@family.example"],
        "emergency_contact_phones": ["+491709999999"]});
    let s = crate::emergency::setup(
        Some(crate::smtp::Mode::Accept),
        &[("PUBLIC_URL", "https://gw.example")],
        prefs,
    )
    .await;
    let (app, id) = (&s.app, s.id.clone());
    // Otto has no mobile and no page open: nothing reaches him.
    let (otto, otto_token) = otto_without_a_mobile(app).await;
    let (_, due_at) = plan(app, &s.token).await;
    assert_eq!(plan(app, &otto_token).await.1, due_at);

    // At the window's end Anna's mobile is called through Twilio: the question, then how to answer.
    assert_eq!(due(&app.app, due_at + 1000).await.unwrap(), 2);
    let calls = s.twilio.requests(crate::emergency::CALL);
    assert_eq!(calls.len(), 1, "{:?}", care_log(app, &id).await.1);
    let call = crate::emergency::form(&calls[0]);
    assert_eq!(call["To"], "+4917011111");
    let twiml = &call["Twiml"];
    assert!(
        twiml.starts_with("<Response><Gather input=\"dtmf speech\" numDigits=\"1\" language=\"de-DE\""),
        "{twiml}"
    );
    assert!(
        twiml.contains("Ist bei Ihnen alles in Ordnung?") && twiml.contains("Sagen Sie ja oder drücken Sie die 1.")
    );
    let action = action_of(twiml);
    assert_eq!(action, format!("https://gw.example/api/care/call/{id}/checkin"));

    // Unsigned answers are refused; "Nein, ich bin gestürzt" asks the help function's question in the call; a 1
    // raises the alarm, which texts her contact, and the call says so.
    let no = [
        ("CallSid", "CA1"),
        ("SpeechResult", "Nein, ich bin gestürzt."),
        ("Confidence", "0.9"),
    ];
    assert_eq!(twilio_answers(app, &action, &no, false).await.0, 403);
    let (status, twiml) = twilio_answers(app, &action, &no, true).await;
    assert_eq!(status, 200, "{twiml}");
    assert!(
        twiml.contains("Soll ich Ihre Kontaktpersonen alarmieren?") && twiml.contains("Drücken Sie die 1 für ja."),
        "{twiml}"
    );
    let help = action_of(&twiml);
    assert!(help.ends_with("/help"), "{help}");
    let (status, twiml) = twilio_answers(app, &help, &[("CallSid", "CA1"), ("Digits", "1")], true).await;
    assert_eq!(status, 200, "{twiml}");
    let sms = s.twilio.requests(crate::emergency::SMS);
    assert!(
        sms.iter().any(|r| crate::emergency::form(r)["To"] == "+491709999999"),
        "the alarm's SMS"
    );
    let alarm = app.get("/api/emergency/status", As::Bearer(&s.token)).await;
    assert!(alarm.body["alarm"].is_object(), "{}", alarm.body);

    // Otto is asked once more, then his contact gets the care notice by SMS (and the log says so); Anna answered.
    for (minutes, claimed) in [(11, 2), (22, 1)] {
        assert_eq!(
            due(&app.app, due_at + minutes * MINUTE).await.unwrap(),
            claimed,
            "after {minutes} minutes"
        );
    }
    ottos_contact_is_texted(&s, &otto).await;
    let (anna, _) = care_log(app, &id).await;
    assert_eq!(
        anna,
        pairs(&[("none", "ok"), ("phone", "delivered"), ("page", "unreachable")])
    );

    a_reminder_on_her_mobile_is_confirmed_by_words(&s).await;
}
