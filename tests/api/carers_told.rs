//! A carer is told: a resident's care notice and call for help reach their carers' mail as well as their
//! contacts' (unless the resident turned `notify_carers` off), the notice with the board's link; and a carer
//! who chose a time gets the day's summary of their residents once a day, those who need them first on top
//! (the clock passed in).

use reqwest::Method;
use serde_json::json;

use crate::common::{As, TestApp, eventually};
use crate::reminders::{in_seconds, reminders, scheduler_of};
use crate::smtp::{Mode, SmtpServer};
use voice_gateway::care::{schedule, summary};

/// The relay `smtp` and the board's public address.
fn relay(smtp: &SmtpServer) -> Vec<(&'static str, String)> {
    vec![
        ("SMTP_HOST", "127.0.0.1".into()),
        ("SMTP_PORT", smtp.port.to_string()),
        ("SMTP_SECURITY", "none".into()),
        ("PUBLIC_URL", "https://heim.example".into()),
    ]
}

/// A gateway on `smtp`; Erika (her daughter her contact) in the care of Anna, who has an address.
async fn home(smtp: &SmtpServer) -> (TestApp, (String, String), (String, String)) {
    let env = relay(smtp);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (app, token, erika) = TestApp::with().env(&env).user("erika").await;
    let profile = json!({"full_name": "Erika Muster", "language": "de", "timezone": "Europe/Berlin",
        "emergency_contacts": ["tochter@family.example"]});
    app.set_prefs(&erika, profile).await;
    let (anna, anna_token) = app.create_user("schwester-anna").await;
    app.set_prefs(&anna, json!({"email": "anna@heim.example", "language": "de"}))
        .await;
    let path = format!("/api/admin/users/{erika}/carers");
    let r = app
        .call(Method::PUT, &path, As::AdminKey, Some(json!({"carers": [anna]})))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    (app, (erika, token), (anna, anna_token))
}

#[tokio::test]
async fn a_missed_reminders_notice_reaches_the_carer_with_the_boards_link_unless_the_resident_says_no() {
    let smtp = SmtpServer::start(Mode::Accept).await;
    let (app, (erika, token), (_, anna)) = home(&smtp).await;
    let body = json!({"text": "Tabletten", "due_at": in_seconds(1)});
    let set = app
        .call(Method::POST, "/api/me/reminders", As::Bearer(&token), Some(body))
        .await;
    assert_eq!(set.status, 201, "{}", set.body);
    eventually("the first delivery", 15, || async {
        let listed = reminders(&app, &token).await;
        (listed[0]["deliveries"].as_array().unwrap().len() == 1).then_some(())
    })
    .await;
    let env = relay(&smtp);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let scheduler = scheduler_of(&app, &env).await;
    let now = jiff::Timestamp::now().as_millisecond();
    for minutes in [11, 22, 33] {
        assert_eq!(schedule::due(&scheduler, now + minutes * 60_000).await.unwrap(), 1);
    }
    let mails = eventually("the notices sent", 15, || async {
        let mails = smtp.mails();
        (mails.len() == 2).then_some(mails)
    })
    .await;
    let to = |who: &str| mails.iter().find(|m| m.recipients == [who]).expect(who);
    let carer = to("anna@heim.example");
    assert!(
        carer.header("subject").contains("Erika Muster"),
        "{}",
        carer.header("subject")
    );
    let said = carer.body();
    assert!(said.contains("Tabletten"), "{said}");
    assert!(said.contains("https://heim.example/carer"), "the board's link: {said}");
    assert!(!said.contains("/api/care/ack/"), "the contacts' link is theirs: {said}");
    assert!(to("tochter@family.example").body().contains("/api/care/ack/"));
    looked_after_on_the_board(&app, &erika, &anna).await;

    // Erika turns it off: her next call for help reaches her daughter only.
    app.set_prefs(&erika, json!({"notify_carers": false})).await;
    let help = app.call(Method::POST, "/api/emergency", As::Bearer(&token), None).await;
    assert!(help.status.is_success(), "{}", help.body);
    let mails = eventually("the alarm sent", 15, || async {
        let mails = smtp.mails();
        (mails.len() == 3).then_some(mails)
    })
    .await;
    assert_eq!(mails[2].recipients, ["tochter@family.example"]);
}

#[tokio::test]
async fn a_call_for_help_reaches_the_carers_mail_as_the_contacts() {
    let smtp = SmtpServer::start(Mode::Accept).await;
    let (app, (_erika, token), _) = home(&smtp).await;
    let help = app.call(Method::POST, "/api/emergency", As::Bearer(&token), None).await;
    assert!(help.status.is_success(), "{}", help.body);
    let mails = eventually("the alarm sent", 15, || async {
        let mails = smtp.mails();
        (mails.len() == 2).then_some(mails)
    })
    .await;
    let mut to: Vec<&str> = mails.iter().map(|m| m.recipients[0].as_str()).collect();
    to.sort();
    assert_eq!(to, ["anna@heim.example", "tochter@family.example"]);
}

#[tokio::test]
async fn a_carer_gets_the_days_summary_once_at_the_time_they_chose_those_who_need_them_first() {
    let smtp = SmtpServer::start(Mode::Accept).await;
    let (app, (erika, token), (anna, anna_token)) = home(&smtp).await;
    let (hans, hans_token) = app.create_user("hans").await;
    app.set_prefs(&hans, json!({"timezone": "Europe/Berlin"})).await;
    let path = format!("/api/admin/users/{hans}/carers");
    let r = app
        .call(Method::PUT, &path, As::AdminKey, Some(json!({"carers": [anna]})))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    confirmed_by_the_carer(&app, (&hans, &hans_token), &anna_token).await;
    let wrong = app
        .call(
            Method::PUT,
            &format!("/api/admin/users/{anna}/prefs"),
            As::AdminKey,
            Some(json!({"carer_summary_at": "25:00"})),
        )
        .await;
    assert_eq!(wrong.status, 422, "{}", wrong.body);
    app.set_prefs(&anna, json!({"carer_summary_at": "18:00", "timezone": "Europe/Berlin"}))
        .await;
    // Erika calls for help twice (the operator ended the wait between): the summary tells both.
    for sent in [2, 4] {
        let help = app.call(Method::POST, "/api/emergency", As::Bearer(&token), None).await;
        assert_eq!(help.body["status"], "alerted", "{}", help.body);
        eventually("the alarm sent", 15, || async {
            (smtp.mails().len() == sent).then_some(())
        })
        .await;
        let wait = format!("/api/admin/users/{erika}/emergency/cooldown");
        app.call(Method::DELETE, &wait, As::AdminKey, None).await;
    }

    // Today in Berlin at 17:59 nothing is due; at 18:05 the summary, once.
    let berlin = jiff::tz::TimeZone::get("Europe/Berlin").unwrap();
    let date = jiff::Timestamp::now().to_zoned(berlin.clone()).date();
    let at = |h, m| {
        date.at(h, m, 0, 0)
            .to_zoned(berlin.clone())
            .unwrap()
            .timestamp()
            .as_millisecond()
    };
    let env = relay(&smtp);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let scheduler = scheduler_of(&app, &env).await;
    assert_eq!(summary::due(&scheduler, at(17, 59)).await.unwrap(), 0);
    assert_eq!(summary::due(&scheduler, at(18, 5)).await.unwrap(), 1);
    assert_eq!(summary::due(&scheduler, at(18, 6)).await.unwrap(), 0, "once a day");
    let mails = smtp.mails();
    assert_eq!(mails.len(), 5);
    let mail = &mails[4];
    assert_eq!(mail.recipients, ["anna@heim.example"]);
    assert_eq!(mail.header("subject"), format!("Ihre Bewohner heute, {date}"));
    let body = mail.body();
    let lines: Vec<&str> = body.lines().filter(|l| l.starts_with("- ")).collect();
    assert_eq!(lines.len(), 2, "{body}");
    let (called, times) = (lines[0].contains("um Hilfe gerufen"), lines[0].matches(':').count());
    assert!(
        lines[0].starts_with("- Erika Muster: hat um ") && called && times == 3,
        "{body}"
    );
    // Hans's reminder his carer confirmed is not told as his own.
    let by_anna = "1 Erinnerung von der Pflege bestätigt; darum gekümmert hat sich: schwester-anna";
    assert_eq!(lines[1], format!("- hans: {by_anna}"), "{body}");
    assert!(body.contains("https://heim.example/carer"), "{body}");
}

/// A reminder of `resident`'s, delivered (nobody there) and then confirmed by their carer.
async fn confirmed_by_the_carer(app: &TestApp, (resident, token): (&str, &str), carer: &str) {
    let body = json!({"text": "Tabletten", "due_at": in_seconds(1)});
    let set = app
        .call(Method::POST, "/api/me/reminders", As::Bearer(token), Some(body))
        .await;
    assert_eq!(set.status, 201, "{}", set.body);
    eventually("the first delivery", 15, || async {
        let listed = reminders(app, token).await;
        (listed[0]["deliveries"].as_array().unwrap().len() == 1).then_some(())
    })
    .await;
    let id = set.body["id"].as_str().unwrap();
    let confirm = format!("/api/carer/residents/{resident}/reminders/{id}/confirm");
    let done = app.call(Method::POST, &confirm, As::Bearer(carer), None).await;
    assert_eq!(done.status, 200, "{}", done.body);
}

/// The notice is open on the carer's board until she says she looks after it: then it is in Erika's day as
/// hers, in the care log and the audit log.
async fn looked_after_on_the_board(app: &TestApp, erika: &str, anna: &str) {
    let row = app
        .get(&format!("/api/carer/residents/{erika}/today"), As::Bearer(anna))
        .await
        .body;
    let notice = row["notice"].clone();
    assert!(notice["about"].as_str().unwrap().contains("Erika Muster"), "{row}");
    assert_eq!(notice["looked_after_by"], serde_json::Value::Null, "{row}");
    let ack = |id: &str| format!("/api/carer/residents/{erika}/notices/{id}/acknowledge");
    let id = notice["id"].as_str().unwrap();
    for _ in 0..2 {
        let done = app.call(Method::POST, &ack(id), As::Bearer(anna), None).await;
        assert_eq!(done.status, 204, "{}", done.body);
    }
    let wrong = app.call(Method::POST, &ack("nothing"), As::Bearer(anna), None).await;
    assert_eq!(wrong.status, 404, "{}", wrong.body);
    let row = app
        .get(&format!("/api/carer/residents/{erika}/today"), As::Bearer(anna))
        .await
        .body;
    assert_eq!(row["notice"], serde_json::Value::Null, "no longer open: {row}");
    let day = app
        .get(&format!("/api/carer/residents/{erika}"), As::Bearer(anna))
        .await
        .body;
    assert_eq!(day["notices"][0]["looked_after_by"], "carer:schwester-anna", "{day}");
    let logged = day["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["what"] == "notice")
        .count();
    assert_eq!(logged, 1, "once in the care log: {day}");
    let audit = app.get("/api/admin/audit", As::AdminKey).await.body;
    let acks: Vec<bool> = audit
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "notice.acknowledge" && e["actor"] == "carer:schwester-anna")
        .map(|e| serde_json::from_str::<serde_json::Value>(e["detail"].as_str().unwrap()).unwrap()["first"] == true)
        .collect();
    assert_eq!(acks.len(), 2, "{audit}");
    assert!(acks.contains(&true) && acks.contains(&false), "{acks:?}");
}

#[tokio::test]
async fn the_summary_puts_whom_nobody_looked_after_first_and_names_who_looked_after_the_others() {
    let smtp = SmtpServer::start(Mode::Accept).await;
    let (app, (erika, token), (anna, anna_token)) = home(&smtp).await;
    let shown = json!({"display_name": "Schwester Anna"});
    let renamed = app
        .call(
            Method::PUT,
            &format!("/api/admin/users/{anna}"),
            As::AdminKey,
            Some(shown),
        )
        .await;
    assert_eq!(renamed.status, 200, "{}", renamed.body);
    let (hans, hans_token) = app.create_user("hans").await;
    let profile = json!({"full_name": "Hans Albers", "language": "de", "timezone": "Europe/Berlin",
        "emergency_contacts": ["sohn@family.example"]});
    app.set_prefs(&hans, profile).await;
    let path = format!("/api/admin/users/{hans}/carers");
    let r = app
        .call(Method::PUT, &path, As::AdminKey, Some(json!({"carers": [anna]})))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    app.set_prefs(&anna, json!({"carer_summary_at": "18:00", "timezone": "Europe/Berlin"}))
        .await;
    // Both call for help (each alarm to the family and to Anna); Anna looks after Erika's on the board.
    for (caller, sent) in [(&token, 2), (&hans_token, 4)] {
        let help = app.call(Method::POST, "/api/emergency", As::Bearer(caller), None).await;
        assert_eq!(help.body["status"], "alerted", "{}", help.body);
        eventually("the alarm sent", 15, || async {
            (smtp.mails().len() == sent).then_some(())
        })
        .await;
    }
    let row = app
        .get(&format!("/api/carer/residents/{erika}/today"), As::Bearer(&anna_token))
        .await
        .body;
    let alarm = row["alarm"]["id"].as_str().unwrap();
    let ack = format!("/api/carer/residents/{erika}/alarms/{alarm}/acknowledge");
    let done = app.call(Method::POST, &ack, As::Bearer(&anna_token), None).await;
    assert!(done.status.is_success(), "{}", done.body);

    let berlin = jiff::tz::TimeZone::get("Europe/Berlin").unwrap();
    let date = jiff::Timestamp::now().to_zoned(berlin.clone()).date();
    let evening = date.at(18, 5, 0, 0).to_zoned(berlin).unwrap();
    let env = relay(&smtp);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let scheduler = scheduler_of(&app, &env).await;
    let at = evening.timestamp().as_millisecond();
    assert_eq!(summary::due(&scheduler, at).await.unwrap(), 1);
    let mails = smtp.mails();
    let body = mails.last().unwrap().body();
    let lines: Vec<&str> = body.lines().filter(|l| l.starts_with("- ")).collect();
    assert_eq!(lines.len(), 2, "{body}");
    // Hans, whom nobody looked after, on top, though Erika comes first by name.
    assert!(lines[0].starts_with("- Hans Albers: hat um "), "{body}");
    assert!(lines[0].ends_with("; noch hat sich niemand darum gekümmert"), "{body}");
    assert!(lines[1].starts_with("- Erika Muster: hat um "), "{body}");
    assert!(
        lines[1].ends_with("; darum gekümmert hat sich: Schwester Anna"),
        "{body}"
    );
}
