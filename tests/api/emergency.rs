//! The help function against a real SMTP conversation and a fake of Twilio's REST API.

use std::collections::HashMap;

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{As, TestApp, eventually, spawn_app};
use crate::fakes::{Fake, Recorded, Reply};
use crate::smtp::{Mail, Mode, SmtpServer};

pub(crate) const SMS: &str = "/2010-04-01/Accounts/AC123/Messages.json";
pub(crate) const CALL: &str = "/2010-04-01/Accounts/AC123/Calls.json";
/// The account itself, which the help path's check asks for.
pub(crate) const ACCOUNT: &str = "/2010-04-01/Accounts/AC123.json";

pub(crate) struct Setup {
    pub app: TestApp,
    pub token: String,
    pub id: String,
    pub smtp: Option<SmtpServer>,
    pub twilio: Fake,
}

/// A gateway with SMTP (when `smtp` is given), Twilio pointed at a fake, and Anna with a full profile.
pub(crate) async fn setup(smtp: Option<Mode>, extra: &[(&str, &str)], prefs: Value) -> Setup {
    let smtp = match smtp {
        Some(mode) => Some(SmtpServer::start(mode).await),
        None => None,
    };
    let twilio = Fake::start().await;
    twilio.always(SMS, Reply::Json(json!({"sid": "SM1", "status": "queued"})));
    twilio.always(CALL, Reply::Json(json!({"sid": "CA1", "status": "queued"})));
    twilio.always(ACCOUNT, Reply::Json(json!({"sid": "AC123", "status": "active"})));
    let port = smtp.as_ref().map(|s| s.port.to_string()).unwrap_or_default();
    let mut env: Vec<(&str, &str)> = vec![
        ("TWILIO_API_URL", &twilio.base),
        ("TWILIO_ACCOUNT_SID", "AC123"),
        ("TWILIO_AUTH_TOKEN", "twilio-secret"),
        ("TWILIO_FROM_NUMBER", "+4930000000"),
        ("EMERGENCY_CONTACT_EMAIL", "desk@care.example"),
        ("SMTP_FROM", "gateway@care.example"),
        ("SMTP_SECURITY", "none"),
    ];
    if smtp.is_some() {
        env.push(("SMTP_HOST", "127.0.0.1"));
        env.push(("SMTP_PORT", &port));
    }
    env.extend_from_slice(extra);
    let app = spawn_app(&env).await;
    let (id, token) = app.create_user("anna").await;
    app.set_prefs(&id, prefs).await;
    Setup {
        app,
        token,
        id,
        smtp,
        twilio,
    }
}

pub(crate) fn profile() -> Value {
    json!({
        "full_name": "Anna Muster",
        "street": "Hauptstraße 5",
        "postal_code": "20095",
        "city": "Hamburg",
        "phone_mobile": "+49 170 1234567",
        "phone_landline": "+49 40 765432",
        "birth_date": "1941-03-02",
        "medical_notes": "Diabetes, Insulin im Kühlschrank",
        "emergency_contacts": ["tochter@family.example"],
        "emergency_contact_phones": ["+491709999999"],
        "location_consent": true,
        "language": "de",
    })
}

pub(crate) fn press_body() -> Value {
    json!({
        "geo": {"latitude": 53.550341, "longitude": 9.992196, "accuracy": 12.5, "timestamp": 1_795_000_000_000i64},
        "device": {"mobile": true, "platform": "Android"}
    })
}

pub(crate) async fn press(s: &Setup, body: Option<Value>) -> crate::common::Reply {
    s.app
        .call(Method::POST, "/api/emergency", As::Bearer(&s.token), body)
        .await
}

pub(crate) fn form(r: &Recorded) -> HashMap<String, String> {
    serde_urlencoded::from_bytes(&r.body).unwrap()
}

pub(crate) async fn events(app: &TestApp, id: &str) -> Vec<String> {
    let rows: Vec<(String,)> = voice_gateway::with_pool!(app.store, pool => sqlx::query_as(
        "SELECT category FROM emergency_events WHERE user_id = $1 ORDER BY created_at",
    )
    .bind(id)
    .fetch_all(pool)
    .await
    .unwrap());
    rows.into_iter().map(|(c,)| c).collect()
}

/// Twilio was asked, with the account's credentials, for one SMS with the dossier's essentials and a call that
/// asks for a 1 and says no link or coordinates.
fn twilio_got_the_sms_and_the_call(s: &Setup) {
    let sms = s.twilio.requests(SMS);
    assert_eq!(sms.len(), 1);
    let auth = sms[0].header("authorization").unwrap();
    assert_eq!(auth, format!("Basic {}", base64_of("AC123:twilio-secret")));
    let fields = form(&sms[0]);
    assert_eq!(fields["To"], "+491709999999");
    assert_eq!(fields["From"], "+4930000000");
    let text = &fields["Body"];
    for part in [
        "Anna Muster",
        "Hauptstraße 5, 20095 Hamburg",
        "+491701234567",
        "openstreetmap.org/?mlat=53.550341",
    ] {
        assert!(text.contains(part), "SMS lacks {part:?}: {text}");
    }
    let call = form(&s.twilio.requests(CALL)[0]);
    let twiml = &call["Twiml"];
    assert!(twiml.starts_with("<Response><Gather numDigits=\"1\""), "{twiml}");
    assert!(
        twiml.contains("<Say language=\"de-DE\">") && twiml.contains("Drücken Sie die 1"),
        "{twiml}"
    );
    assert!(twiml.contains("Anna Muster") && twiml.contains("Hauptstraße 5, 20095 Hamburg"));
    assert!(twiml.contains("SMS") && twiml.contains("E-Mail"));
    let spoken: String = twiml
        .split("<Say")
        .skip(1)
        .map(|say| say.split("</Say>").next().unwrap())
        .collect();
    assert!(
        !spoken.contains("http") && !spoken.contains("53.55"),
        "no link or coordinates in the call: {spoken}"
    );
}

#[tokio::test]
async fn a_press_mails_the_full_dossier_and_sends_sms_and_call_through_twilio() {
    let s = setup(Some(Mode::Accept), &[], profile()).await;

    let r = press(&s, Some(press_body())).await;

    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["status"], "alerted");
    assert_eq!(r.body["notify_ready"], true);
    assert!(r.body["message"].as_str().unwrap().contains("benachrichtigt"));
    let channels: Vec<(String, String, bool)> = r.body["notified"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["channel"].as_str().unwrap().into(),
                d["to"].as_str().unwrap().into(),
                d["delivered"] == true,
            )
        })
        .collect();
    assert_eq!(
        channels,
        vec![
            ("email".into(), "tochter@family.example".into(), true),
            ("email".into(), "desk@care.example".into(), true),
            ("sms".into(), "+491709999999".into(), true),
            ("call".into(), "+491709999999".into(), true),
        ]
    );

    // One mail per contact, each with the contact's own acknowledgement link.
    let mails = s.smtp.as_ref().unwrap().mails();
    let mut recipients: Vec<String> = mails.iter().flat_map(|m| m.recipients.clone()).collect();
    recipients.sort();
    assert_eq!(recipients, vec!["desk@care.example", "tochter@family.example"]);
    let mail = mail_to(&mails, "tochter@family.example");
    assert_eq!(mail.from, "gateway@care.example");
    assert_ne!(
        ack_link(&mail.body()),
        ack_link(&mail_to(&mails, "desk@care.example").body())
    );
    assert_eq!(
        mail.header("Subject"),
        "NOTFALL: Anna Muster hat mit dem Hilfe-Knopf Hilfe gerufen"
    );
    let body = mail.body();
    for field in [
        "Name: Anna Muster",
        "Adresse: Hauptstraße 5, 20095 Hamburg",
        "Telefon: +491701234567, +4940765432",
        "Geburtsdatum: 1941-03-02",
        "Medizinische Hinweise: Diabetes, Insulin im Kühlschrank",
        "Koordinaten: 53.550341, 9.992196",
        "Karte: https://www.openstreetmap.org/?mlat=53.550341&mlon=9.992196",
        "Genauigkeit: 12 m",
        "Zeitpunkt der Ortung: 2026-11-18",
        "Ausgelöst von: Mobilgerät (Android)",
        "Bitte bestätigen Sie, dass Sie diesen Alarm gesehen haben: http://",
        "112",
    ] {
        assert!(body.contains(field), "missing {field:?} in:\n{body}");
    }

    twilio_got_the_sms_and_the_call(&s);
    assert_eq!(events(&s.app, &s.id).await, vec!["alerted"]);
}

pub(crate) fn mail_to(mails: &[Mail], to: &str) -> Mail {
    mails
        .iter()
        .find(|m| m.recipients == [to])
        .unwrap_or_else(|| panic!("no mail to {to}"))
        .clone()
}

/// The acknowledgement link of a mail or SMS text.
pub(crate) fn ack_link(text: &str) -> String {
    let start = text.find("http://").expect("a link");
    let link: String = text[start..].chars().take_while(|c| !c.is_whitespace()).collect();
    assert!(link.contains("/api/emergency/ack/"), "{link}");
    link
}

fn base64_of(s: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(s)
}

#[tokio::test]
async fn without_consent_the_location_is_left_out_and_a_missing_fix_gives_its_reason() {
    let mut prefs = profile();
    prefs["location_consent"] = json!(false);
    let s = setup(Some(Mode::Accept), &[], prefs).await;
    let r = press(&s, Some(press_body())).await;
    assert_eq!(r.body["status"], "alerted");
    let body = s.smtp.as_ref().unwrap().mails()[0].body();
    assert!(body.contains("Standort: nicht freigegeben"), "{body}");
    assert!(!body.contains("53.55") && !body.contains("openstreetmap"), "{body}");
    assert!(!form(&s.twilio.requests(SMS)[0])["Body"].contains("openstreetmap"));

    let s = setup(Some(Mode::Accept), &[("EMERGENCY_COOLDOWN_MINUTES", "0")], profile()).await;
    press(
        &s,
        Some(json!({"geo_error": "User denied Geolocation", "device": {"mobile": false}})),
    )
    .await;
    let body = s.smtp.as_ref().unwrap().mails()[0].body();
    assert!(
        body.contains("Standort nicht verfügbar: User denied Geolocation"),
        "{body}"
    );
    assert!(body.contains("Ausgelöst von: Computer"));
}

#[tokio::test]
async fn nobody_to_notify_is_no_recipients_with_the_112_advice_in_the_users_language() {
    let s = setup(
        None,
        &[("TWILIO_ACCOUNT_SID", "")],
        json!({"language": "fr", "full_name": "Jean"}),
    )
    .await;
    let status = s.app.get("/api/emergency/status", As::Bearer(&s.token)).await;
    assert_eq!(status.body["notify_ready"], false);

    let r = press(&s, None).await;

    assert_eq!(r.body["status"], "no_recipients");
    assert_eq!(r.body["notify_ready"], false);
    assert_eq!(r.body["notified"], json!([]));
    let message = r.body["message"].as_str().unwrap();
    assert!(
        message.contains("112") && !message.contains("Nobody"),
        "in French: {message}"
    );
    assert_eq!(events(&s.app, &s.id).await, vec!["no_recipients"]);
}

#[tokio::test]
async fn help_that_reaches_nobody_is_said_before_it_is_needed_in_the_pages_language_and_form() {
    // No mail relay, no Twilio, no contact: the help button would reach nobody. Anna set no language.
    let s = setup(
        None,
        &[("TWILIO_ACCOUNT_SID", ""), ("EMERGENCY_CONTACT_EMAIL", "")],
        json!({"full_name": "Anna"}),
    )
    .await;

    let status = s
        .app
        .get("/api/emergency/status?language=de", As::Bearer(&s.token))
        .await;
    assert_eq!(status.status, 200);
    assert_eq!(status.body["reach"], "nobody");
    assert_eq!(status.body["cause"], "no_contact");
    let warning = status.body["warning"].as_str().unwrap();
    assert!(
        warning.starts_with("Hilfe erreicht noch niemanden") && warning.contains("112"),
        "{warning}"
    );
    let english = s.app.get("/api/emergency/status", As::Bearer(&s.token)).await;
    assert!(
        english.body["warning"]
            .as_str()
            .unwrap()
            .starts_with("Help reaches nobody yet"),
        "{}",
        english.body
    );
    let bad = s
        .app
        .get("/api/emergency/status?language=xx", As::Bearer(&s.token))
        .await;
    assert_eq!(
        (bad.status.as_u16(), bad.body["error"]["code"].as_str()),
        (422, Some("invalid_request"))
    );

    // The operator sees whose help reaches nobody, though every check passes.
    let health = s.app.get("/api/admin/providers", As::AdminKey).await;
    assert_eq!(
        health.body["users_without_working_channel"],
        json!(["anna"]),
        "{}",
        health.body
    );

    // Pressed on a German page: the answer is German, in Sie, and names 112.
    let r = press(&s, Some(json!({"language": "de"}))).await;
    assert_eq!(r.body["status"], "no_recipients");
    assert_eq!(
        r.body["message"],
        "Ihre Hilfe erreicht noch niemanden: Es ist keine Kontaktperson eingetragen. Rufen Sie bitte selbst den Notruf 112 an."
    );
    // A person who chose "du" is addressed so.
    s.app
        .set_prefs(
            &s.id,
            json!({"form_of_address": "informal", "emergency_cooldown_minutes": "0"}),
        )
        .await;
    let r = press(&s, Some(json!({"language": "de"}))).await;
    assert!(
        r.body["message"].as_str().unwrap().contains("Ruf bitte selbst"),
        "{}",
        r.body
    );
    let bad = press(&s, Some(json!({"language": "klingon"}))).await;
    assert_eq!(bad.status, 422);
}

#[tokio::test]
async fn contacts_without_a_channel_are_named_as_such_everywhere_never_as_no_contact() {
    // Anna's daughter and a phone number are entered, but the gateway has no mail relay and no Twilio.
    let s = setup(None, &[("TWILIO_ACCOUNT_SID", "")], profile()).await;

    let status = s.app.get("/api/emergency/status", As::Bearer(&s.token)).await;
    assert_eq!(
        (&status.body["reach"], &status.body["cause"]),
        (&json!("nobody"), &json!("no_channel")),
        "{}",
        status.body
    );
    assert_eq!(status.body["missing"], json!(["mail_relay", "sms", "calls"]));
    let warning = status.body["warning"].as_str().unwrap();
    assert!(
        warning.contains("Kontaktpersonen sind eingetragen")
            && warning.contains("E-Mail-Versand (Mailserver)")
            && warning.contains("112")
            && !warning.contains("keine Kontaktperson"),
        "{warning}"
    );

    // The press's answer names the same cause.
    let r = press(&s, None).await;
    assert_eq!(r.body["status"], "no_recipients");
    let message = r.body["message"].as_str().unwrap();
    assert!(
        message.starts_with("Ihre Hilfe erreicht noch niemanden: Ihre Kontaktpersonen sind eingetragen")
            && message.contains("Es fehlt der E-Mail-Versand (Mailserver), der SMS-Versand, die Anruf-Verbindung")
            && !message.contains("keine Kontaktperson"),
        "{message}"
    );

    // The operator reads the cause per person, with the settings to set.
    let health = s.app.get("/api/admin/providers", As::AdminKey).await;
    let anna = &health.body["help"][0];
    assert_eq!(
        (&anna["name"], &anna["cause"], &anna["last_press_reached_nobody"]),
        (&json!("anna"), &json!("no_channel"), &json!(true)),
        "{}",
        health.body
    );
}

#[tokio::test]
async fn every_channel_failing_is_delivery_failed() {
    let s = setup(Some(Mode::RefuseRecipients), &[], profile()).await;
    s.twilio.then(SMS, Reply::Status(500, "{\"message\":\"down\"}".into()));
    s.twilio.then(CALL, Reply::Status(500, "{\"message\":\"down\"}".into()));

    let r = press(&s, Some(press_body())).await;

    assert_eq!(r.body["status"], "delivery_failed");
    assert!(r.body["message"].as_str().unwrap().contains("112"));
    assert!(
        r.body["notified"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["delivered"] == false)
    );
    let sms_error = r.body["notified"][2]["error"].as_str().unwrap();
    assert!(sms_error.contains("500"), "{sms_error}");
    assert_eq!(events(&s.app, &s.id).await, vec!["delivery_failed"]);
}

#[tokio::test]
async fn a_channel_that_hangs_times_out_while_the_others_deliver() {
    let s = setup(
        Some(Mode::Hang),
        &[("EMERGENCY_CHANNEL_TIMEOUT_SECONDS", "1")],
        profile(),
    )
    .await;
    let started = std::time::Instant::now();
    let r = press(&s, Some(press_body())).await;
    assert_eq!(r.body["status"], "alerted", "{}", r.body);
    let email = &r.body["notified"][0];
    assert_eq!(
        (email["channel"].clone(), email["delivered"].clone()),
        (json!("email"), json!(false))
    );
    assert_eq!(r.body["notified"][2]["delivered"], true, "the SMS went out meanwhile");
    assert!(
        started.elapsed().as_secs() < 10,
        "the hanging mail server held the alarm back"
    );
}

/// The states of an alarm's deliveries in the store, as (channel, state).
pub(crate) async fn delivery_states(app: &TestApp, alarm_id: &str) -> Vec<(String, String)> {
    voice_gateway::with_pool!(app.store, pool => sqlx::query_as(
        "SELECT channel, state FROM emergency_deliveries WHERE alarm_id = $1 ORDER BY channel, recipient",
    )
    .bind(alarm_id)
    .fetch_all(pool)
    .await
    .unwrap())
}

/// Twilio's call request held open until the gate opens: a contact's telephone that rings on.
fn ringing_on(s: &Setup) -> std::sync::Arc<tokio::sync::Semaphore> {
    let gate = std::sync::Arc::new(tokio::sync::Semaphore::new(0));
    let queued = Reply::Json(json!({"sid": "CA1", "status": "queued"}));
    s.twilio.then(CALL, Reply::Gated(gate.clone(), Box::new(queued)));
    gate
}

/// A call that is still ringing does not hold back "help is on the way": the answer comes once the e-mails and
/// the SMS reached people, showing the call as still being sent; a second press meanwhile names whom the alarm
/// reached; the call's end and the whole send are recorded when it comes.
#[tokio::test]
async fn a_telephone_still_ringing_does_not_hold_back_help_is_on_the_way() {
    let s = setup(Some(Mode::Accept), &[], profile()).await;
    let gate = ringing_on(&s);

    let r = press(&s, Some(press_body())).await;

    assert_eq!(r.body["status"], "alerted", "{}", r.body);
    let message = r.body["message"].as_str().unwrap();
    assert!(message.starts_with("Hilfe ist unterwegs"), "{message}");
    assert_eq!(
        r.body["notified"][3],
        json!({"channel": "call", "to": "+491709999999", "delivered": false, "sending": true})
    );
    assert_eq!(r.body["notified"][2]["delivered"], true, "{}", r.body);
    let alarm = r.body["alarm_id"].as_str().unwrap();
    let states = delivery_states(&s.app, alarm).await;
    assert!(states.contains(&("call".into(), "sending".into())), "{states:?}");
    assert_eq!(
        events(&s.app, &s.id).await,
        Vec::<String>::new(),
        "logged before its end"
    );

    let again = press(&s, None).await;
    assert_eq!(again.body["status"], "cooldown");
    let told = again.body["message"].as_str().unwrap();
    assert!(
        told.contains("tochter@family.example (E-Mail)") && told.contains("+491709999999 (SMS)"),
        "{told}"
    );

    gate.add_permits(1);
    let states = eventually("the call's end recorded", 10, || async {
        let states = delivery_states(&s.app, alarm).await;
        states.iter().all(|(_, state)| state == "delivered").then_some(states)
    })
    .await;
    assert_eq!(states.len(), 4, "two e-mails, the SMS, the call: {states:?}");
    eventually("the whole send logged", 10, || async {
        (events(&s.app, &s.id).await == ["alerted"]).then_some(())
    })
    .await;
    assert_eq!(s.twilio.requests(CALL).len(), 1, "the second press called nobody again");
}

/// Whoever pressed may go before the alarm is out (a page closed, a call hung up): the alarm is sent and
/// recorded all the same.
#[tokio::test]
async fn an_alarm_goes_out_and_is_recorded_though_whoever_pressed_went_away() {
    let s = setup(None, &[], profile()).await;
    // The SMS held too: nobody is reached while the press waits.
    let gate = ringing_on(&s);
    let queued = Reply::Json(json!({"sid": "SM1", "status": "queued"}));
    s.twilio.then(SMS, Reply::Gated(gate.clone(), Box::new(queued)));
    let impatient = reqwest::Client::builder()
        .timeout(std::time::Duration::from_millis(300))
        .build()
        .unwrap();
    let url = format!("http://{}/api/emergency", s.app.addr);
    let gone = impatient.post(&url).bearer_auth(&s.token).json(&json!({})).send().await;
    assert!(gone.is_err_and(|e| e.is_timeout()), "the press should still be sending");

    gate.add_permits(2);
    eventually("the alarm recorded", 10, || async {
        (events(&s.app, &s.id).await == ["alerted"]).then_some(())
    })
    .await;
    assert_eq!(s.twilio.requests(SMS).len(), 1);
    assert_eq!(s.twilio.requests(CALL).len(), 1);
}

#[tokio::test]
async fn the_webhook_is_told_but_never_decides_the_outcome() {
    let hook = Fake::start().await;
    hook.always("/hook", Reply::Status(500, "nope".into()));
    let url = format!("{}/hook", hook.base);
    let s = setup(Some(Mode::Accept), &[("EMERGENCY_WEBHOOK_URL", &url)], profile()).await;
    let r = press(&s, Some(press_body())).await;
    assert_eq!(r.body["status"], "alerted");
    let payload = hook.requests("/hook")[0].json();
    assert_eq!(payload["event"], "emergency");
    assert_eq!(payload["person"]["name"], "Anna Muster");
    assert_eq!(payload["position"]["latitude"], 53.550341);

    let s = setup(
        None,
        &[("EMERGENCY_WEBHOOK_URL", &url), ("TWILIO_ACCOUNT_SID", "")],
        profile(),
    )
    .await;
    assert_eq!(
        press(&s, None).await.body["status"],
        "no_recipients",
        "a webhook alone reaches nobody"
    );
}

#[tokio::test]
async fn a_second_press_inside_the_cooldown_sends_nothing_and_logs_nothing() {
    let s = setup(Some(Mode::Accept), &[], profile()).await;
    assert_eq!(press(&s, None).await.body["status"], "alerted");

    let again = press(&s, None).await;

    assert_eq!(again.body["status"], "cooldown");
    assert_eq!(again.body["minutes_ago"], 0);
    let remaining = again.body["remaining_seconds"].as_i64().unwrap();
    assert!((295..=300).contains(&remaining), "{remaining}");
    assert!(again.body["message"].as_str().unwrap().contains("vor einer Minute"));
    assert_eq!(s.smtp.as_ref().unwrap().mails().len(), 2);
    assert_eq!(s.twilio.requests(SMS).len(), 1);
    assert_eq!(events(&s.app, &s.id).await, vec!["alerted"]);
    let status = s.app.get("/api/emergency/status", As::Bearer(&s.token)).await;
    assert_eq!(status.body["minutes_ago"], 0);
    assert!(status.body["remaining_seconds"].as_i64().unwrap() > 290);

    // Six minutes later the window of five has passed.
    voice_gateway::with_pool!(s.app.store, pool => {
        sqlx::query("UPDATE emergency_cooldowns SET last_at = last_at - 360000 WHERE user_id = $1")
        .bind(&s.id)
        .execute(pool)
        .await
        .unwrap();
    });
    let status = s.app.get("/api/emergency/status", As::Bearer(&s.token)).await;
    assert_eq!(
        (
            status.body["minutes_ago"].clone(),
            status.body["remaining_seconds"].clone()
        ),
        (json!(6), json!(0))
    );
    assert_eq!(press(&s, None).await.body["status"], "alerted");
    assert_eq!(events(&s.app, &s.id).await, vec!["alerted", "alerted"]);
}

#[tokio::test]
async fn the_users_cooldown_pref_wins_zero_turns_it_off_and_bad_values_are_refused() {
    let mut prefs = profile();
    prefs["emergency_cooldown_minutes"] = json!("0");
    let s = setup(Some(Mode::Accept), &[], prefs).await;
    assert_eq!(press(&s, None).await.body["status"], "alerted");
    assert_eq!(press(&s, None).await.body["status"], "alerted");
    assert_eq!(s.smtp.as_ref().unwrap().mails().len(), 4);

    for bad in [json!("61"), json!("soon"), json!(-1)] {
        let r = s
            .app
            .call(
                Method::PUT,
                &format!("/api/admin/users/{}/prefs", s.id),
                As::AdminKey,
                Some(json!({"emergency_cooldown_minutes": bad})),
            )
            .await;
        assert_eq!(r.error(422), "invalid_request", "{bad}");
    }
    let r = s
        .app
        .call(
            Method::PUT,
            &format!("/api/admin/users/{}/prefs", s.id),
            As::AdminKey,
            Some(json!({"emergency_cooldown_minutes": "10"})),
        )
        .await;
    assert_eq!(r.status, 200);
    // The alarm of a moment ago now lies inside the new ten-minute window.
    let again = press(&s, None).await;
    assert_eq!(again.body["status"], "cooldown");
    assert!(again.body["remaining_seconds"].as_i64().unwrap() > 590);
    assert_eq!(s.smtp.as_ref().unwrap().mails().len(), 4);
}

#[tokio::test]
async fn twenty_simultaneous_presses_send_exactly_one_alarm() {
    let s = setup(Some(Mode::Accept), &[], profile()).await;
    let presses = (0..20).map(|_| press(&s, None));
    let replies = futures_util::future::join_all(presses).await;
    let statuses: Vec<&str> = replies.iter().map(|r| r.body["status"].as_str().unwrap()).collect();
    assert_eq!(statuses.iter().filter(|s| **s == "alerted").count(), 1, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == "cooldown").count(), 19);
    assert_eq!(events(&s.app, &s.id).await.len(), 1);
    assert_eq!(s.smtp.as_ref().unwrap().mails().len(), 2);
    assert_eq!(s.twilio.requests(SMS).len(), 1);
}

#[tokio::test]
async fn an_exhausted_quota_and_dead_providers_do_not_stop_an_alarm() {
    // No LLM, STT or TTS server is reachable in this setup; one request is the daily limit.
    let s = setup(
        Some(Mode::Accept),
        &[("DAILY_REQUEST_LIMIT", "1"), ("LOCAL_LLM_URL", "http://127.0.0.1:9/v1")],
        profile(),
    )
    .await;
    let chat = |text: &str| {
        s.app.call(
            Method::POST,
            "/api/chat",
            As::Bearer(&s.token),
            Some(json!({"text": text, "text_only": true})),
        )
    };
    assert_eq!(chat("a").await.error(502), "provider_failed");
    assert_eq!(chat("b").await.error(429), "quota_exceeded");

    assert_eq!(press(&s, None).await.body["status"], "alerted");
}

#[tokio::test]
async fn admins_list_the_alarms_newest_first_and_bad_presses_are_refused() {
    let s = setup(
        None,
        &[("EMERGENCY_COOLDOWN_MINUTES", "0"), ("TWILIO_ACCOUNT_SID", "")],
        profile(),
    )
    .await;
    press(&s, None).await;
    press(&s, None).await;
    let list = s.app.get("/api/admin/emergencies", As::AdminKey).await;
    let rows = list.body.as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["category"], "no_recipients");
    assert_eq!(rows[0]["user_name"], "anna");
    assert!(rows[0]["at"].as_i64().unwrap() >= rows[1]["at"].as_i64().unwrap());
    assert_eq!(
        s.app
            .get("/api/admin/emergencies", As::Bearer(&s.token))
            .await
            .error(403),
        "forbidden"
    );

    let bad = press(&s, Some(json!({"geo": {"latitude": 123.0, "longitude": 0.0}}))).await;
    assert_eq!(bad.error(422), "invalid_request");
    let bad = press(&s, Some(json!({"geo": "here"}))).await;
    assert_eq!(bad.error(422), "invalid_request");
    assert_eq!(
        s.app
            .call(Method::POST, "/api/emergency", As::Nobody, None)
            .await
            .error(401),
        "unauthorized"
    );
}

#[tokio::test]
async fn with_both_lines_a_house_line_not_registered_hands_the_call_to_twilio_at_once() {
    // The house's telephone is set up, but its router does not answer: the line is not registered.
    let registrar = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let registrar = registrar.local_addr().unwrap().to_string();
    let sip = format!("127.0.0.1:{}", crate::common::free_port());
    let extra = [
        ("SIP_REGISTRAR", registrar.as_str()),
        ("SIP_USER", "assistant"),
        ("SIP_PASSWORD", "line-secret"),
        ("SIP_ADDR", sip.as_str()),
        ("EMERGENCY_CALL_VIA", "both"),
        ("EMERGENCY_COOLDOWN_MINUTES", "0"),
    ];
    let s = setup(Some(Mode::Accept), &extra, profile()).await;
    // Twilio fails the first time: the call's failure names both lines, the house line first.
    s.twilio.then(CALL, Reply::Status(500, "{\"message\":\"down\"}".into()));
    let started = std::time::Instant::now();
    let r = press(&s, Some(press_body())).await;
    let call = r.body["notified"][3].clone();
    assert_eq!(
        (call["channel"].clone(), call["delivered"].clone()),
        (json!("call"), json!(false)),
        "{}",
        r.body
    );
    let why = call["error"].as_str().unwrap();
    assert!(
        why.starts_with("house line: the house's telephone is not registered"),
        "{why}"
    );
    assert!(why.contains("500"), "Twilio was tried after the house line: {why}");
    // The next alarm's call goes out through Twilio, at once: no ringing into a line that is not there.
    let r = press(&s, Some(press_body())).await;
    assert_eq!(r.body["notified"][3]["delivered"], true, "{}", r.body);
    assert_eq!(s.twilio.requests(CALL).len(), 2);
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
}

#[tokio::test]
async fn links_a_contact_cannot_open_are_warned_of_until_public_url_is_an_address_they_reach() {
    let warning = |extra: &'static [(&'static str, &'static str)]| async move {
        let s = setup(Some(Mode::Accept), extra, profile()).await;
        let health = s.app.get("/api/admin/providers", As::AdminKey).await;
        health.body["links_warning"].as_str().map(String::from)
    };
    let unset = warning(&[]).await.expect("a warning without PUBLIC_URL");
    assert!(unset.contains("PUBLIC_URL is not set"), "{unset}");
    let local = warning(&[("PUBLIC_URL", "http://127.0.0.1:8080")])
        .await
        .expect("a warning for loopback");
    assert!(local.contains("loopback or link-local"), "{local}");
    assert_eq!(warning(&[("PUBLIC_URL", "https://hilfe.example.org")]).await, None);
}
