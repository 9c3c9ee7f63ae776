//! Reminders and timers: set by typing or speaking in German and English (the gateway answers itself, no model),
//! kept in the person's time zone, listed, cancelled and confirmed over the REST API by the person and by a
//! carer; every wrong value gets the contract's error body.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{As, TestApp};
use crate::fakes::{CHAT, Fake, Reply};
use crate::ws::{Client, Frame, connect, kinds};

/// Tomorrow's date in Berlin, as the gateway sees it now.
pub(crate) fn tomorrow_in_berlin() -> String {
    let now = jiff::Timestamp::now().to_zoned(jiff::tz::TimeZone::get("Europe/Berlin").unwrap());
    now.date().tomorrow().unwrap().to_string()
}

/// What the gateway answers `text`, typed in German on the open page `page`.
pub(crate) async fn answer_on(page: &mut Client, text: &str) -> String {
    page.send(json!({"text": text, "language": "de", "text_only": true}))
        .await;
    page.next_of("semantic").await["text"].as_str().unwrap().to_string()
}

/// `days` from today at 9:00 in Berlin's winter offset, RFC 3339.
fn ahead(days: i64) -> String {
    let date = jiff::Timestamp::now().to_zoned(jiff::tz::TimeZone::UTC).date();
    format!("{}T09:00:00+01:00", date.checked_add(jiff::ToSpan::days(days)).unwrap())
}

pub(crate) async fn reminders(app: &TestApp, token: &str) -> Vec<Value> {
    let r = app.get("/api/me/reminders", As::Bearer(token)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["reminders"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_typed_reminder_is_set_by_the_gateway_itself_in_the_persons_time_zone_and_said_back() {
    let llm = Fake::answering(&["Das sollte das Modell nie sagen."]).await;
    let (app, token, id) = TestApp::with().llm(&llm).user("erika").await;
    app.set_prefs(&id, json!({"timezone": "Europe/Berlin", "language": "de"}))
        .await;
    let session = app.new_session(&token).await;

    let said = "Erinnere mich morgen um acht an meine Tabletten";
    let body = json!({"text": said, "language": "de", "session_id": session, "text_only": true});
    let r = app
        .call(Method::POST, "/api/chat", As::Bearer(&token), Some(body))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let answer = r.body["text"].as_str().unwrap();
    assert!(answer.starts_with("Gut, ich erinnere Sie morgen, "), "{answer}");
    assert!(answer.ends_with(" um 8 Uhr an Ihre Tabletten."), "{answer}");
    assert!(llm.requests(CHAT).is_empty(), "no model was asked");

    let set = reminders(&app, &token).await;
    assert_eq!(set.len(), 1);
    assert_eq!(set[0]["text"], "meine Tabletten");
    let due = set[0]["due_at"].as_str().unwrap();
    assert!(
        due.starts_with(&format!("{}T08:00:00+0", tomorrow_in_berlin())),
        "{due}"
    );
    assert_eq!(set[0]["time_zone"], "Europe/Berlin");
    assert_eq!(
        (set[0]["state"].as_str(), set[0]["confirm"].as_bool()),
        (Some("scheduled"), Some(true))
    );
    assert_eq!(set[0]["created_by"], "user");
    // The conversation keeps the request and the answer, as any turn.
    assert_eq!(app.stored_texts(&session, &token).await, [said, answer]);

    // Asked which there are, and cancelled by its words, in English too.
    let ask = |text: &str, language: &str| json!({"text": text, "language": language, "text_only": true});
    let r = app
        .call(
            Method::POST,
            "/api/chat",
            As::Bearer(&token),
            Some(ask("Welche Erinnerungen habe ich?", "de")),
        )
        .await;
    let listed = r.body["text"].as_str().unwrap();
    assert!(
        listed.starts_with("Sie haben eine Erinnerung: morgen, ") && listed.contains("an Ihre Tabletten"),
        "{listed}"
    );
    let r = app
        .call(
            Method::POST,
            "/api/chat",
            As::Bearer(&token),
            Some(ask("Remind me every weekday at 7:30 am to take the bus", "en")),
        )
        .await;
    assert_eq!(
        r.body["text"].as_str().unwrap().split(", first").next(),
        Some("OK, I'll remind you every weekday at 7:30 am to take the bus")
    );
    let r = app
        .call(
            Method::POST,
            "/api/chat",
            As::Bearer(&token),
            Some(ask("Lösch die Erinnerung für die Tabletten", "de")),
        )
        .await;
    assert_eq!(r.body["text"], "Gut, die Erinnerung an Ihre Tabletten ist gelöscht.");
    let left = reminders(&app, &token).await;
    assert_eq!(left.len(), 1);
    assert_eq!(left[0]["repeat"], "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR");
    assert!(llm.requests(CHAT).is_empty());
}

#[tokio::test]
async fn a_spoken_timer_is_set_and_heard_back() {
    let stt = Fake::start().await;
    stt.then(
        crate::ws::STT,
        Reply::Json(json!({"text": "Stell einen Timer auf zehn Minuten."})),
    );
    let llm = Fake::answering(&["Nie."]).await;
    let (app, token, _) = TestApp::with().llm(&llm).stt(&stt).user("erika").await;
    let mut ws = connect(&app, "/ws/voice", &token).await;
    ws.send(json!({"type": "start", "language": "de"})).await;
    ws.send_audio(&crate::ws::tone(300)).await;
    ws.send(json!({"type": "end"})).await;
    let frames = ws.turn().await;
    let kinds = kinds(&frames);
    assert!(kinds.contains(&"audio".to_string()), "the answer is spoken: {kinds:?}");
    let said: Vec<String> = frames
        .iter()
        .filter(|f| f.kind() != "binary")
        .filter_map(|f| f.json().get("text").and_then(Value::as_str).map(String::from))
        .collect();
    assert!(
        said.iter().any(|t| t.starts_with("Der Timer läuft: 10 Minuten, bis ")),
        "{said:?}"
    );
    assert!(llm.requests(CHAT).is_empty());
    let set = reminders(&app, &token).await;
    assert_eq!(
        (set[0]["timer"].as_bool(), set[0]["confirm"].as_bool()),
        (Some(true), Some(false))
    );
    assert_eq!(set[0]["created_by"], "voice");
}

/// Posts a reminder of Anna's.
async fn post(app: &TestApp, token: &str, body: Value) -> crate::common::Reply {
    app.call(Method::POST, "/api/me/reminders", As::Bearer(token), Some(body))
        .await
}

#[tokio::test]
async fn the_rest_api_sets_lists_cancels_and_refuses_wrong_values_clearly() {
    let (app, token, id) = TestApp::with()
        .env(&[("REMINDERS_MAX", "2"), ("TIMEZONE", "America/New_York")])
        .user("anna")
        .await;
    let arzt = set_in_the_gateways_zone_and_a_timer(&app, &token).await;
    every_wrong_value_is_refused_naming_its_field(&app, &token).await;

    // Confirmed only while it is being delivered; cancelled once; another person's is not found.
    let confirm = app
        .call(
            Method::POST,
            &format!("/api/me/reminders/{arzt}/confirm"),
            As::Bearer(&token),
            None,
        )
        .await;
    assert_eq!(confirm.error(409), "conflict");
    let (_, other) = app.create_user("ben").await;
    let path = format!("/api/me/reminders/{arzt}");
    let delete = |who| app.call(Method::DELETE, &path, who, None);
    assert_eq!(delete(As::Bearer(&other)).await.error(404), "not_found");
    assert_eq!(delete(As::Bearer(&token)).await.status, 204);
    assert_eq!(delete(As::Bearer(&token)).await.error(404), "not_found");
    assert_eq!(reminders(&app, &token).await.len(), 1, "the timer is left");

    a_carer_sets_and_cancels_audited(&app, &token, &id).await;
}

/// A reminder kept in the gateway's zone, a timer, and a third beyond `REMINDERS_MAX`: the first one's id.
async fn set_in_the_gateways_zone_and_a_timer(app: &TestApp, token: &str) -> String {
    let post = |body: Value| post(app, token, body);
    let r = post(json!({"text": "Arzt", "due_at": ahead(30)})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    // Kept in the gateway's zone (TIMEZONE) as the person set none: 9:00 in Berlin is 3:00 in New York (4:00
    // in the weeks the two change their clocks apart).
    let at: jiff::Timestamp = ahead(30).parse().unwrap();
    let in_new_york = at.to_zoned(jiff::tz::TimeZone::get("America/New_York").unwrap());
    assert_eq!(
        r.body["due_at"].as_str(),
        Some(in_new_york.strftime("%Y-%m-%dT%H:%M:%S%:z").to_string().as_str())
    );
    assert_eq!(r.body["time_zone"], "America/New_York");
    let arzt = r.body["id"].as_str().unwrap().to_string();
    let r = post(json!({"in_seconds": 600})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(
        (r.body["timer"].as_bool(), r.body["text"].as_str()),
        (Some(true), Some("Timer"))
    );
    // The third waits beyond REMINDERS_MAX.
    assert_eq!(
        post(json!({"text": "Mehr", "due_at": ahead(31)})).await.error(409),
        "conflict"
    );

    arzt
}

async fn every_wrong_value_is_refused_naming_its_field(app: &TestApp, token: &str) {
    let post = |body: Value| post(app, token, body);
    for (body, field) in [
        (json!({"text": "x", "due_at": "tomorrow"}), "due_at"),
        (
            json!({"text": "x", "due_at": ahead(32).replace("+01:00", "")}),
            "due_at",
        ),
        (json!({"text": "x", "due_at": "2001-01-01T09:00:00Z"}), "due_at"),
        (json!({"text": "x", "due_at": "2200-01-01T09:00:00Z"}), "due_at"),
        (json!({"text": "x"}), "due_at"),
        (json!({"text": "x", "due_at": ahead(32), "in_seconds": 5}), "due_at"),
        (json!({"in_seconds": 0}), "in_seconds"),
        (json!({"text": "", "due_at": ahead(32)}), "text"),
        (json!({"text": "x".repeat(201), "due_at": ahead(32)}), "text"),
        (
            json!({"text": "x", "due_at": ahead(32), "repeat": "FREQ=MONTHLY"}),
            "repeat",
        ),
        (
            json!({"text": "x", "due_at": ahead(32), "repeat": "FREQ=WEEKLY;BYDAY=XX"}),
            "repeat",
        ),
        (json!({"in_seconds": 60, "repeat": "FREQ=DAILY"}), "repeat"),
    ] {
        let r = post(body.clone()).await;
        assert_eq!(r.error(422), "invalid_request", "{body}");
        assert!(
            r.body["error"]["message"].as_str().unwrap().starts_with(field),
            "{body}: {}",
            r.body
        );
    }
    assert_eq!(
        post(json!({"text": "x", "due": "2099"})).await.status,
        422,
        "unknown fields are refused"
    );
}

async fn a_carer_sets_and_cancels_audited(app: &TestApp, token: &str, id: &str) {
    // A carer sets and cancels, audited; a person is no carer.
    let path = format!("/api/admin/users/{id}/reminders");
    let r = app
        .call(
            Method::POST,
            &path,
            As::AdminKey,
            Some(json!({"text": "Gymnastik", "due_at": ahead(40), "repeat": "FREQ=WEEKLY;BYDAY=TH,MO"})),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(
        (r.body["created_by"].as_str(), r.body["repeat"].as_str()),
        (Some("admin"), Some("FREQ=WEEKLY;BYDAY=MO,TH"))
    );
    let gym = r.body["id"].as_str().unwrap().to_string();
    assert_eq!(
        app.get(&path, As::AdminKey).await.body["reminders"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let r = app
        .call(Method::DELETE, &format!("{path}/{gym}"), As::AdminKey, None)
        .await;
    assert_eq!(r.status, 204);
    assert_eq!(app.get(&path, As::Bearer(token)).await.status, 403);
    assert_eq!(
        app.get("/api/admin/users/nobody/reminders", As::AdminKey)
            .await
            .error(404),
        "not_found"
    );
    let audit = app.get("/api/admin/audit", As::AdminKey).await;
    let actions: Vec<&str> = audit
        .body
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e["action"].as_str())
        .collect();
    assert!(
        actions.contains(&"user.reminder_add") && actions.contains(&"user.reminder_cancel"),
        "{actions:?}"
    );
}

/// `seconds` from now, RFC 3339 in UTC.
pub(crate) fn in_seconds(seconds: i64) -> String {
    let at = jiff::Timestamp::now()
        .checked_add(jiff::SignedDuration::from_secs(seconds))
        .unwrap();
    at.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

#[tokio::test]
async fn a_delivery_slower_than_the_lease_holds_its_claim_and_no_other_instance_delivers_it_again() {
    // The satellite and the mobile both hang: Home Assistant until its 10 s timeout, then Twilio; together
    // longer than the first lease would last against a clock 54 s ahead.
    let ha = Fake::start().await;
    const ANNOUNCE: &str = "/api/services/assist_satellite/announce";
    let (ha_gate, twilio_gate) = (
        std::sync::Arc::new(tokio::sync::Semaphore::new(0)),
        std::sync::Arc::new(tokio::sync::Semaphore::new(0)),
    );
    ha.always(
        ANNOUNCE,
        Reply::Gated(ha_gate.clone(), Box::new(Reply::Json(json!([])))),
    );
    let prefs = json!({"language": "de", "phone_mobile": "+4917011111", "ha_satellite": "assist_satellite.flur",
        "reminder_via": ["home_assistant", "phone"]});
    let ha_url = ha.base.clone();
    let env = [
        ("HA_URL", ha_url.as_str()),
        ("HA_TOKEN", "ha"),
        ("PUBLIC_URL", "https://gw.example"),
    ];
    let s = crate::emergency::setup(None, &env, prefs).await;
    let gated = Reply::Json(json!({"sid": "CA1", "status": "queued"}));
    s.twilio.always(
        crate::emergency::CALL,
        Reply::Gated(twilio_gate.clone(), Box::new(gated)),
    );
    let body = json!({"text": "Tabletten", "due_at": in_seconds(1)});
    let r = s
        .app
        .call(Method::POST, "/api/me/reminders", As::Bearer(&s.token), Some(body))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    // The gateway's own scheduler is on its second channel, ten seconds into the delivery.
    crate::common::eventually("the call to the mobile", 30, || async {
        (!s.twilio.requests(crate::emergency::CALL).is_empty()).then_some(())
    })
    .await;
    // A second instance on the same database, its clock 54 s ahead: the first lease (60 s) would have
    // ended by then; the renewed one holds.
    let other = scheduler_of(&s.app, &[]).await;
    let now = jiff::Timestamp::now().as_millisecond();
    assert_eq!(
        voice_gateway::care::schedule::due(&other, now + 54_000).await.unwrap(),
        0
    );
    twilio_gate.add_permits(8);
    ha_gate.add_permits(8);
    let listed = crate::common::eventually("the delivery recorded", 30, || async {
        let listed = reminders(&s.app, &s.token).await;
        (listed[0]["deliveries"].as_array().unwrap().len() == 2).then_some(listed)
    })
    .await;
    assert_eq!(ha.requests(ANNOUNCE).len(), 1);
    assert_eq!(s.twilio.requests(crate::emergency::CALL).len(), 1);
    let channels: Vec<&str> = listed[0]["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["channel"].as_str().unwrap())
        .collect();
    assert_eq!(channels, ["home_assistant", "phone"]);
    assert_eq!(listed[0]["state"], "delivering");
}

#[tokio::test]
async fn a_due_reminder_reaches_the_open_page_and_is_confirmed_and_a_timer_ends() {
    let (app, token, _) = TestApp::with()
        .env(&[("TIMEZONE", "Europe/Berlin")])
        .user("erika")
        .await;
    let mut page = connect(&app, "/ws/chat", &token).await;
    let post = |body: Value| app.call(Method::POST, "/api/me/reminders", As::Bearer(&token), Some(body));
    let pills = post(json!({"text": "Tabletten", "due_at": in_seconds(1)})).await;
    assert_eq!(pills.status, 201, "{}", pills.body);
    let timer = post(json!({"in_seconds": 1})).await;
    assert_eq!(timer.status, 201, "{}", timer.body);

    // Both arrive on the open page within a few seconds (the scheduler looks every 2 s).
    let mut events = Vec::new();
    while events.len() < 2 {
        let frame = page.next().await;
        if frame.kind() == "reminder" {
            events.push(frame.json().clone());
        }
    }
    let of = |id: &Value| events.iter().find(|e| e["id"] == *id).cloned().unwrap();
    let event = of(&pills.body["id"]);
    assert_eq!(
        (event["text"].as_str(), event["confirm"].as_bool()),
        (Some("Tabletten"), Some(true))
    );
    assert_eq!(event["due_at"], pills.body["due_at"]);
    assert_eq!(of(&timer.body["id"])["timer"], true);

    // The reminder waits for its confirmation, with its delivery; the timer is over.
    let listed = crate::common::eventually("the timer over and the delivery recorded", 10, || async {
        let listed = reminders(&app, &token).await;
        let recorded = listed
            .first()
            .is_some_and(|r| r["deliveries"].as_array().is_some_and(|d| !d.is_empty()));
        (listed.len() == 1 && recorded).then_some(listed)
    })
    .await;
    assert_eq!(listed[0]["state"], "delivering");
    assert_eq!(listed[0]["deliveries"][0]["channel"], "page");
    assert_eq!(listed[0]["deliveries"][0]["status"], "delivered");
    let path = format!("/api/me/reminders/{}/confirm", pills.body["id"].as_str().unwrap());
    let confirmed = app.call(Method::POST, &path, As::Bearer(&token), None).await;
    assert_eq!(confirmed.status, 200, "{}", confirmed.body);
    assert_eq!(confirmed.body["state"], "confirmed");
    assert_eq!(
        app.call(Method::POST, &path, As::Bearer(&token), None).await.error(409),
        "conflict"
    );
    let metrics = app.prometheus().await;
    for line in [
        "reminders_total{event=\"set\",channel=\"user\"} 2",
        "reminders_total{event=\"delivered\",channel=\"page\"} 2",
        "reminders_total{event=\"confirmed\",channel=\"api\"} 1",
    ] {
        assert!(metrics.contains(line), "{line} in {metrics}");
    }
}

#[tokio::test]
async fn two_instances_on_one_database_deliver_each_reminder_once() {
    let first = TestApp::with().start().await;
    let (_, token) = first.create_user("erika").await;
    let second = TestApp::with().beside(&first).start().await;
    let mut ids = Vec::new();
    for n in 0..6 {
        let body = json!({"text": format!("Erinnerung {n}"), "due_at": in_seconds(1)});
        let r = first
            .call(Method::POST, "/api/me/reminders", As::Bearer(&token), Some(body))
            .await;
        assert_eq!(r.status, 201, "{}", r.body);
        ids.push(r.body["id"].clone());
    }
    // Both schedulers look; each reminder is claimed by one of them and delivered (here: nobody's page is
    // open, so recorded as unreachable) exactly once.
    let listed = crate::common::eventually("every reminder claimed", 20, || async {
        let listed = reminders(&second, &token).await;
        let delivered = |r: &Value| r["deliveries"].as_array().is_some_and(|d| !d.is_empty());
        listed
            .iter()
            .all(|r| r["state"] == "delivering" && delivered(r))
            .then_some(listed)
    })
    .await;
    assert_eq!(listed.len(), 6);
    for r in &listed {
        let deliveries = r["deliveries"].as_array().unwrap();
        assert_eq!(deliveries.len(), 1, "{r}");
        assert_eq!(deliveries[0]["status"], "unreachable");
    }
}

#[tokio::test]
async fn a_voice_connection_hears_a_due_reminder_in_the_persons_words() {
    let llm = Fake::answering(&["Nie."]).await;
    let (app, token, id) = TestApp::with().llm(&llm).user("erika").await;
    app.set_prefs(&id, json!({"language": "de"})).await;
    let mut voice = connect(&app, "/ws/voice", &token).await;
    voice.send(json!({"type": "start", "language": "de"})).await;
    let body = json!({"text": "meine Tabletten", "due_at": in_seconds(1)});
    let r = app
        .call(Method::POST, "/api/me/reminders", As::Bearer(&token), Some(body))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let reminder = loop {
        let frame = voice.next().await;
        if frame.kind() == "reminder" {
            break frame.json().clone();
        }
    };
    assert_eq!(reminder["said"], "Erinnerung: Ihre Tabletten.");
    let audio = voice.next().await;
    assert_eq!(audio.kind(), "audio");
    assert_eq!(audio.json()["text"], "Erinnerung: Ihre Tabletten.");
    let Frame::Audio(wav) = voice.next().await else {
        panic!("the spoken reminder")
    };
    assert!(wav.starts_with(b"RIFF") && wav.len() > 1000, "{} bytes", wav.len());
}

/// The scheduler of `app`'s database with the clock passed in: an `App` on the same store, not serving.
pub(crate) async fn scheduler_of(app: &TestApp, extra: &[(&str, &str)]) -> std::sync::Arc<voice_gateway::app::App> {
    let db = app.db_path().display().to_string();
    let mut env = vec![("DB_PATH".to_string(), db), ("WYOMING_ZEROCONF".into(), "false".into())];
    env.extend(app.database_url.clone().map(|url| ("DATABASE_URL".to_string(), url)));
    env.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let env: std::collections::HashMap<String, String> = env.into_iter().collect();
    let settings = voice_gateway::config::Settings::from_lookup(&|k| env.get(k).cloned()).unwrap();
    voice_gateway::app::App::new(settings, app.store.clone())
}

#[tokio::test]
async fn an_unconfirmed_reminder_is_delivered_again_then_counts_as_missed_and_the_contacts_are_told() {
    let smtp = crate::smtp::SmtpServer::start(crate::smtp::Mode::Accept).await;
    let port = smtp.port.to_string();
    let relay = [
        ("SMTP_HOST", "127.0.0.1"),
        ("SMTP_PORT", port.as_str()),
        ("SMTP_SECURITY", "none"),
        ("SMTP_FROM", "gateway@care.example"),
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
    // Delivered once by the gateway's own scheduler (no page open: unreachable), then waiting to be confirmed.
    crate::common::eventually("the first delivery", 15, || async {
        let listed = reminders(&app, &token).await;
        (listed[0]["deliveries"].as_array().unwrap().len() == 1).then_some(())
    })
    .await;
    // Ten minutes on (REMINDER_RETRY_MINUTES), it is delivered again; and again; then it counts as missed.
    let scheduler = scheduler_of(&app, &relay).await;
    let now = jiff::Timestamp::now().as_millisecond();
    for (minutes, claimed) in [(5, 0), (11, 1), (22, 1), (33, 1), (44, 0)] {
        let n = voice_gateway::care::schedule::due(&scheduler, now + minutes * 60_000)
            .await
            .unwrap();
        assert_eq!(n, claimed, "after {minutes} minutes");
    }
    // The daughter is told, clearly not as an alarm.
    let mail = crate::common::eventually("the care notice", 15, || async { smtp.mails().first().cloned() }).await;
    assert_eq!(mail.recipients, ["tochter@family.example"]);
    assert_eq!(
        mail.header("Subject"),
        "Hinweis (kein Notruf): Erika Muster hat eine Erinnerung nicht bestätigt"
    );
    let text = mail.body();
    assert!(
        text.starts_with("Dies ist kein Notruf.") && text.contains("„Tabletten“") && text.contains("3-mal"),
        "{text}"
    );
    let listed = crate::common::eventually("the notice recorded", 15, || async {
        let listed = reminders(&app, &token).await;
        (listed[0]["deliveries"].as_array().unwrap().len() == 5).then_some(listed)
    })
    .await;
    assert_eq!(listed[0]["state"], "missed");
    let statuses: Vec<&str> = listed[0]["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        ["unreachable", "unreachable", "unreachable", "missed", "sent"]
    );
    assert_eq!(listed[0]["deliveries"][3]["detail"], "not confirmed after 3 deliveries");
    assert_eq!(listed[0]["deliveries"][4]["channel"], "mail");
}

#[tokio::test]
async fn each_day_of_a_daily_reminder_nobody_confirms_is_followed_up_told_and_logged_while_the_next_waits() {
    let smtp = crate::smtp::SmtpServer::start(crate::smtp::Mode::Accept).await;
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
    let body = json!({"text": "Tabletten", "due_at": in_seconds(1), "repeat": "FREQ=DAILY"});
    let series = app
        .call(Method::POST, "/api/me/reminders", As::Bearer(&token), Some(body))
        .await;
    assert_eq!(series.status, 201, "{}", series.body);
    let today = delivered_today_while_the_series_waits(&app, &token, &series.body).await;
    // Ten minutes on it is delivered again, and again; then it is missed and the daughter is told, today.
    let scheduler = scheduler_of(&app, &relay).await;
    let now = jiff::Timestamp::now().as_millisecond();
    for (minutes, claimed) in [(11, 1), (22, 1), (33, 1), (44, 0)] {
        let n = voice_gateway::care::schedule::due(&scheduler, now + minutes * 60_000)
            .await
            .unwrap();
        assert_eq!(n, claimed, "after {minutes} minutes");
    }
    let mail = crate::common::eventually("the care notice", 15, || async { smtp.mails().first().cloned() }).await;
    assert_eq!(mail.recipients, ["tochter@family.example"]);
    assert!(mail.body().contains("„Tabletten“"), "{}", mail.body());
    // Tomorrow: the next day's pills, followed up on their own.
    let tomorrow = now + 24 * 3_600_000 + 60_000;
    assert_eq!(
        voice_gateway::care::schedule::due(&scheduler, tomorrow).await.unwrap(),
        1
    );
    let listed = reminders(&app, &token).await;
    assert_eq!(
        listed.len(),
        2,
        "the missed day is in the log, not among what waits: {listed:?}"
    );
    assert!(
        listed
            .iter()
            .any(|r| r["state"] == "delivering" && r["id"] != today["id"])
    );
    care_log_shows_both_days(&app, &id).await;
}

/// Today's pills are delivered (no page open: unreachable) as a reminder of their own; the series waits for
/// tomorrow at once. Today's delivery.
async fn delivered_today_while_the_series_waits(app: &TestApp, token: &str, series: &Value) -> Value {
    let listed = crate::common::eventually("today's delivery", 15, || async {
        let listed = reminders(app, token).await;
        (listed.len() == 2).then_some(listed)
    })
    .await;
    let today = listed.iter().find(|r| r["id"] != series["id"]).unwrap().clone();
    assert_eq!(
        (today["state"].as_str(), today["repeat"].as_str()),
        (Some("delivering"), None)
    );
    let waiting = listed.iter().find(|r| r["id"] == series["id"]).unwrap();
    assert_eq!(waiting["state"], "scheduled");
    assert!(waiting["due_at"].as_str() > series["due_at"].as_str(), "{waiting}");
    today
}

/// The care log shows both days: today's three deliveries, its miss and its notice; tomorrow's delivery.
async fn care_log_shows_both_days(app: &TestApp, id: &str) {
    let log = crate::common::eventually("the notice logged", 15, || async {
        let r = app.get(&format!("/api/admin/users/{id}/care"), As::AdminKey).await;
        let log = r.body["log"].as_array().unwrap().clone();
        log.iter().any(|e| e["channel"] == "mail").then_some(log)
    })
    .await;
    let statuses: Vec<&str> = log
        .iter()
        .filter(|e| e["what"] == "reminder")
        .map(|e| e["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        [
            "unreachable",
            "sent",
            "missed",
            "unreachable",
            "unreachable",
            "unreachable"
        ],
        "newest first: {log:?}"
    );
}

#[tokio::test]
async fn erledigt_confirms_only_the_reminder_told_on_that_connection_and_is_otherwise_a_question() {
    let llm = Fake::answering(&["Schön."]).await;
    let (app, token, _) = TestApp::with().llm(&llm).user("erika").await;
    let mut page = connect(&app, "/ws/chat", &token).await;
    let body = json!({"text": "meine Tabletten", "due_at": in_seconds(1)});
    let r = app
        .call(Method::POST, "/api/me/reminders", As::Bearer(&token), Some(body))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let told = page.next_of("reminder").await;
    assert_eq!(told["id"], r.body["id"]);
    let say = |text: &str| json!({"text": text, "language": "de", "text_only": true});
    // Typed where the reminder was never told (no connection): a question for the model, nothing confirmed.
    let elsewhere = app
        .call(Method::POST, "/api/chat", As::Bearer(&token), Some(say("Erledigt!")))
        .await;
    assert_eq!(elsewhere.body["text"], "Schön.");
    assert_eq!(llm.requests(CHAT).len(), 1);
    assert_eq!(reminders(&app, &token).await[0]["state"], "delivering");
    // On the page that showed it: confirmed, and the model is not asked.
    page.send(say("Ja, hab ich.")).await;
    let answer = page.next_of("semantic").await;
    assert_eq!(answer["text"], "Danke, erledigt: Ihre Tabletten.");
    assert_eq!(reminders(&app, &token).await[0]["state"], "confirmed");
    assert_eq!(llm.requests(CHAT).len(), 1);
    // With nothing left to confirm, the same words on the same page are a question for the model.
    page.send(say("Ja, hab ich.")).await;
    assert_eq!(page.next_of("semantic").await["text"], "Schön.");
    assert_eq!(llm.requests(CHAT).len(), 2);
}

#[tokio::test]
async fn a_question_for_the_missing_time_takes_the_next_answer_and_lets_anything_else_go_to_the_model() {
    let llm = Fake::answering(&["Casablanca ist von 1942."]).await;
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .env(&[("TIMEZONE", "Europe/Berlin")])
        .user("erika")
        .await;
    let mut page = connect(&app, "/ws/chat", &token).await;
    let mut ask = async |text: &str| answer_on(&mut page, text).await;
    assert_eq!(
        ask("Erinnere mich an den Müll").await,
        "Wann soll ich Sie erinnern? Sagen Sie zum Beispiel: morgen um 8 Uhr."
    );
    let set = ask("Morgen um acht.").await;
    assert!(set.starts_with("Gut, ich erinnere Sie morgen"), "{set}");
    assert!(set.ends_with("um 8 Uhr an den Müll."), "{set}");
    let listed = reminders(&app, &token).await;
    assert_eq!((listed.len(), listed[0]["text"].as_str()), (1, Some("den Müll")));
    assert_eq!(listed[0]["due_at"].as_str().unwrap()[..10], tomorrow_in_berlin());
    // Asked again, but the next words are not a time: they go to the model, and the question is over.
    assert!(
        ask("Erinnere mich an die Blumen")
            .await
            .starts_with("Wann soll ich Sie erinnern?")
    );
    assert_eq!(
        ask("Erinnerst du dich an Casablanca?").await,
        "Casablanca ist von 1942."
    );
    assert_eq!(llm.requests(CHAT).len(), 1);
    assert_eq!(ask("Um neun").await, "Casablanca ist von 1942.");
    assert_eq!(reminders(&app, &token).await.len(), 1);
    // Sentences that only hold the words are questions for the model too, never the reminder question.
    for said in [
        "Die Erinnerung an meinen Mann macht mich traurig.",
        "Mein Wecker ist kaputt, welchen soll ich kaufen?",
    ] {
        assert_eq!(ask(said).await, "Casablanca ist von 1942.", "{said}");
    }
    assert_eq!(llm.requests(CHAT).len(), 4);
}

#[tokio::test]
async fn a_reminder_missed_while_the_gateway_was_down_is_told_on_the_next_visit_once() {
    let (app, token, id) = TestApp::with()
        .env(&[("TIMEZONE", "Europe/Berlin")])
        .user("erika")
        .await;
    app.set_prefs(&id, json!({"language": "de"})).await;
    let body = json!({"text": "meine Tabletten", "due_at": ahead(1)});
    let r = app
        .call(Method::POST, "/api/me/reminders", As::Bearer(&token), Some(body))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let due: jiff::Timestamp = r.body["due_at"].as_str().unwrap().parse().unwrap();
    // The gateway was down: its scheduler looks again three hours after the time (the clock passed in).
    let later = due.as_millisecond() + 180 * 60_000;
    assert_eq!(voice_gateway::care::schedule::due(&app.app, later).await.unwrap(), 1);
    assert_eq!(reminders(&app, &token).await[0]["state"], "missed");

    // The next time a page opens, the person hears of it, in their words; once.
    let mut page = connect(&app, "/ws/chat", &token).await;
    let told = page.next_of("reminder_missed").await;
    assert_eq!(
        told["said"],
        "Während der Assistent nicht lief, ist Ihre Erinnerung von 9:00 Uhr ausgefallen: Ihre Tabletten."
    );
    assert_eq!(
        (told["text"].as_str(), told["due_at"].as_str()),
        (Some("meine Tabletten"), r.body["due_at"].as_str())
    );
    drop(page);
    let mut again = connect(&app, "/ws/chat", &token).await;
    assert!(again.quiet_for(1500).await, "told twice");
    let listed = reminders(&app, &token).await;
    let statuses: Vec<&str> = listed[0]["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["missed", "told"]);
}

#[tokio::test]
async fn a_reminder_is_announced_on_the_persons_assist_satellite_through_home_assistants_rest_api() {
    // Home Assistant's REST API as its documentation gives it: the action's changed states, a JSON list.
    let ha = Fake::start().await;
    const ANNOUNCE: &str = "/api/services/assist_satellite/announce";
    ha.always(ANNOUNCE, Reply::Json(json!([])));
    let (app, token, id) = TestApp::with()
        .env(&[("HA_URL", &ha.base), ("HA_TOKEN", "ha-secret")])
        .user("erika")
        .await;
    let prefs = json!({"language": "de", "ha_satellite": "assist_satellite.kueche",
        "reminder_via": ["home_assistant", "page"]});
    app.set_prefs(&id, prefs).await;
    let body = json!({"text": "meine Tabletten", "due_at": in_seconds(1)});
    let r = app
        .call(Method::POST, "/api/me/reminders", As::Bearer(&token), Some(body))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let announced = crate::common::eventually("the announcement", 15, || async {
        ha.requests(ANNOUNCE).first().cloned()
    })
    .await;
    assert_eq!(announced.method, "POST");
    assert_eq!(announced.header("authorization").as_deref(), Some("Bearer ha-secret"));
    assert_eq!(
        announced.json(),
        json!({"entity_id": "assist_satellite.kueche", "message": "Erinnerung: Ihre Tabletten."})
    );
    let listed = crate::common::eventually("the delivery recorded", 10, || async {
        let listed = reminders(&app, &token).await;
        (!listed[0]["deliveries"].as_array().unwrap().is_empty()).then_some(listed)
    })
    .await;
    let delivery = &listed[0]["deliveries"][0];
    assert_eq!(
        (delivery["channel"].as_str(), delivery["status"].as_str()),
        (Some("home_assistant"), Some("delivered"))
    );

    // A wrong entity or channel is refused with the contract's error body.
    for bad in [
        json!({"ha_satellite": "light.kitchen"}),
        json!({"reminder_via": ["alexa"]}),
    ] {
        let r = app
            .call(Method::PUT, "/api/me/prefs", As::Bearer(&token), Some(bad.clone()))
            .await;
        assert_eq!(r.error(422), "invalid_request", "{bad}");
    }
}

#[tokio::test]
async fn a_reminder_due_while_the_real_binary_was_stopped_is_delivered_once_after_it_starts() {
    use crate::alarm_followup::{json_of, start_binary, stop_binary};
    let twilio = Fake::start().await;
    let dir = tempfile::tempdir().unwrap();
    let port = crate::common::free_port();
    let base = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::new();
    let up = || async { http.get(format!("{base}/health")).send().await.is_ok() };
    let admin = |req: reqwest::RequestBuilder| req.header("X-Admin-Key", crate::common::ADMIN_KEY);
    let child = start_binary(dir.path(), port, &twilio);
    crate::common::eventually("the gateway to start", 20, up).await;
    let user = json_of(admin(http.post(format!("{base}/api/admin/users"))).json(&json!({"name": "erika"}))).await;
    let list = format!("{base}/api/admin/users/{}/reminders", user["id"].as_str().unwrap());
    let set = admin(http.post(&list))
        .json(&json!({"text": "Tabletten", "due_at": ahead(1)}))
        .send()
        .await
        .unwrap();
    assert_eq!(set.status(), 201);
    stop_binary(child).await;

    // Its time passes while the gateway is stopped (moved into the past in the database rather than waited for).
    let options = sqlx::sqlite::SqliteConnectOptions::new().filename(dir.path().join("data/gateway.db"));
    let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
    let moved = sqlx::query("UPDATE reminders SET due_at = $1")
        .bind(voice_gateway::store::now_ms() - 60_000)
        .execute(&pool)
        .await
        .unwrap();
    assert_eq!(moved.rows_affected(), 1);
    pool.close().await;

    // Started again: delivered at once (nobody's page is open: recorded as unreachable), and waiting to be
    // confirmed; started once more, it is not delivered again.
    let deliveries = || async {
        let listed = json_of(admin(http.get(&list))).await;
        listed["reminders"][0]["deliveries"]
            .as_array()
            .map(Vec::len)
            .unwrap_or(0)
    };
    let child = start_binary(dir.path(), port, &twilio);
    crate::common::eventually("the gateway to start again", 20, up).await;
    crate::common::eventually("the delivery after the start", 20, || async {
        (deliveries().await == 1).then_some(())
    })
    .await;
    stop_binary(child).await;
    let child = start_binary(dir.path(), port, &twilio);
    crate::common::eventually("the gateway to start once more", 20, up).await;
    // A second reminder due in a second: once it is delivered, the scheduler has looked at everything due.
    let set = admin(http.post(&list))
        .json(&json!({"text": "Wasser trinken", "due_at": in_seconds(1)}))
        .send()
        .await
        .unwrap();
    assert_eq!(set.status(), 201);
    let listed = crate::common::eventually("the second reminder delivered", 20, || async {
        let listed = json_of(admin(http.get(&list))).await;
        let second = listed["reminders"][1]["deliveries"].as_array().map_or(0, Vec::len);
        (second >= 1).then_some(listed)
    })
    .await;
    stop_binary(child).await;
    let r = &listed["reminders"][0];
    assert_eq!(r["state"], "delivering", "{r}");
    assert_eq!(r["deliveries"].as_array().unwrap().len(), 1, "delivered once: {r}");
    assert_eq!(r["deliveries"][0]["status"], "unreachable", "{r}");
}

#[tokio::test]
async fn a_cloud_model_sets_lists_and_cancels_reminders_through_tools_for_what_the_grammar_does_not_read() {
    use crate::fakes::{tokens, tool_call};
    let cloud = Fake::start().await;
    let due = ahead(2);
    let set = format!(r#"{{"text": "prendre mes médicaments", "due_at": "{due}", "repeat": "FREQ=DAILY"}}"#);
    cloud.then(CHAT, tool_call("set_reminder", &set));
    cloud.then(CHAT, tokens(&["C'est noté."]));
    cloud.then(CHAT, tool_call("set_reminder", r#"{"text": "x", "due_at": "demain"}"#));
    cloud.then(CHAT, tokens(&["Quand exactement ?"]));
    cloud.then(CHAT, tool_call("cancel_reminder", r#"{"text": "médicaments"}"#));
    cloud.then(CHAT, tokens(&["C'est annulé."]));
    let (app, token, _) = TestApp::with()
        .env(&[
            ("TIMEZONE", "Europe/Paris"),
            ("MEMORY_EXTRACTION_ENABLED", "false"),
            ("WEB_SEARCH_ENABLED", "false"),
        ])
        .first(crate::common::Stage::Llm, &cloud, "")
        .user("amelie")
        .await;
    let say = async |text: &str| {
        let body = json!({"text": text, "language": "fr", "text_only": true});
        app.call(Method::POST, "/api/chat", As::Bearer(&token), Some(body))
            .await
    };
    // The last message the model was given in its `n`th request: a tool's result.
    let last_given = |n: usize| {
        cloud.requests(CHAT)[n].json()["messages"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()
            .clone()
    };

    // Words the French sentences do not read: the model is asked, with the tools, and its call sets the reminder.
    let r = say("N'oublie pas de me dire de prendre mes médicaments tous les jours dès après-demain vers neuf heures")
        .await;
    assert_eq!(r.body["text"], "C'est noté.", "{}", r.body);
    let asked = cloud.requests(CHAT)[0].json();
    let names: Vec<&str> = asked["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["set_reminder", "list_reminders", "cancel_reminder"]);
    let result = last_given(1);
    assert_eq!(result["role"], "tool");
    let content: Value = serde_json::from_str(result["content"].as_str().unwrap()).unwrap();
    assert_eq!(content["set"]["text"], "prendre mes médicaments");
    assert_eq!(content["set"]["repeat"], "FREQ=DAILY");
    let listed = reminders(&app, &token).await;
    assert_eq!(
        (listed[0]["text"].as_str(), listed[0]["repeat"].as_str()),
        (Some("prendre mes médicaments"), Some("FREQ=DAILY"))
    );
    assert_eq!(listed[0]["due_at"], due);
    assert_eq!(listed[0]["time_zone"], "Europe/Paris");

    // A wrong time comes back to the model as an error it can ask about; nothing is stored.
    let r = say("Je voudrais qu'on me fasse penser à demain").await;
    assert_eq!(r.body["text"], "Quand exactement ?");
    let result = last_given(3);
    assert!(result["content"].as_str().unwrap().contains("\"error\""), "{result}");
    assert_eq!(reminders(&app, &token).await.len(), 1);

    // And cancelled by its words.
    let r = say("Je ne veux plus entendre parler du rappel des médicaments").await;
    assert_eq!(r.body["text"], "C'est annulé.");
    assert!(reminders(&app, &token).await.is_empty());
}

/// Erika with her mobile on a gateway whose Twilio is a fake that takes calls, and whose pages have a second
/// to say they showed a reminder.
async fn with_a_mobile() -> crate::emergency::Setup {
    let prefs = json!({"language": "de", "full_name": "Erika Muster", "phone_mobile": "+4917011111"});
    let env = [("PUBLIC_URL", "https://gw.example"), ("CARE_RECEIPT_SECONDS", "1")];
    crate::emergency::setup(None, &env, prefs).await
}

/// The reminder's deliveries once there are `count`: (channel, status, detail).
pub(crate) async fn deliveries(s: &crate::emergency::Setup, count: usize) -> Vec<(String, String, String)> {
    crate::common::eventually("the deliveries recorded", 20, || async {
        let listed = reminders(&s.app, &s.token).await;
        let all = listed[0]["deliveries"].as_array().cloned().unwrap_or_default();
        let text = |d: &Value, k: &str| d[k].as_str().unwrap_or_default().to_string();
        let all: Vec<_> = all
            .iter()
            .map(|d| (text(d, "channel"), text(d, "status"), text(d, "detail")))
            .collect();
        (all.len() == count).then_some(all)
    })
    .await
}

/// Sets Erika's reminder "Tabletten", due in a second.
async fn tablets_in_a_second(s: &crate::emergency::Setup) {
    let body = json!({"text": "Tabletten", "due_at": in_seconds(1)});
    let r = s
        .app
        .call(Method::POST, "/api/me/reminders", As::Bearer(&s.token), Some(body))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
}

#[tokio::test]
async fn a_reminder_a_page_took_but_never_showed_goes_on_to_the_telephone() {
    let s = with_a_mobile().await;
    // A tab left open on a locked phone: it takes the event and never shows it.
    let mut page = crate::ws::connect_silent(&s.app, "/ws/chat", &s.token).await;
    tablets_in_a_second(&s).await;
    let taken = page.next_of("reminder").await;
    assert!(taken["receipt"].is_string(), "{taken}");
    // Somebody else's page claiming her receipt counts for nothing.
    let (_, otto) = s.app.create_user("otto").await;
    let mut other = connect(&s.app, "/ws/chat", &otto).await;
    other.send(json!({"type": "shown", "receipt": taken["receipt"]})).await;

    let tried = deliveries(&s, 2).await;
    assert_eq!(
        tried[0],
        (
            "page".into(),
            "unreachable".into(),
            "1 connection(s) took it, none showed it within 1 s".into()
        )
    );
    assert_eq!(
        (tried[1].0.as_str(), tried[1].1.as_str()),
        ("phone", "delivered"),
        "{tried:?}"
    );
    let call = &s.twilio.requests(crate::emergency::CALL)[0];
    assert_eq!(crate::emergency::form(call)["To"], "+4917011111");
}

#[tokio::test]
async fn a_reminder_the_page_showed_is_delivered_there_and_the_telephone_stays_quiet() {
    let s = with_a_mobile().await;
    let mut page = connect(&s.app, "/ws/chat", &s.token).await;
    tablets_in_a_second(&s).await;
    assert_eq!(page.next_of("reminder").await["text"], "Tabletten");

    let tried = deliveries(&s, 1).await;
    assert_eq!(tried[0], ("page".into(), "delivered".into(), "1 connection(s)".into()));
    assert!(s.twilio.requests(crate::emergency::CALL).is_empty());
}

#[tokio::test]
async fn a_reminder_confirmed_on_a_client_that_sends_no_receipt_was_shown_and_the_telephone_stays_quiet() {
    let s = with_a_mobile().await;
    let mut page = crate::ws::connect_silent(&s.app, "/ws/chat", &s.token).await;
    tablets_in_a_second(&s).await;
    let told = page.next_of("reminder").await;

    let confirm = format!("/api/me/reminders/{}/confirm", told["id"].as_str().unwrap());
    let done = s.app.call(Method::POST, &confirm, As::Bearer(&s.token), None).await;
    assert_eq!(done.status, 200, "{}", done.body);
    // The confirmation is recorded at once, the page's delivery when its wait ends: both, nothing else.
    let mut tried = deliveries(&s, 2).await;
    tried.sort();
    assert_eq!(
        tried,
        [
            ("api".into(), "confirmed".into(), String::new()),
            ("page".into(), "delivered".into(), "1 connection(s)".into())
        ]
    );
    assert!(s.twilio.requests(crate::emergency::CALL).is_empty());
}
