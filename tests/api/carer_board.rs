//! The carers' board live: each change of a resident's care (an alarm, a reminder set or confirmed, an alarm
//! looked after) reaches the open boards of the resident's carers as a `care` event, on this instance and,
//! through PostgreSQL's LISTEN/NOTIFY, on another; nobody else's changes do.

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{As, TestApp, eventually, spawn_app};

/// A carer's open board: the event stream of `/api/carer/events`.
struct Board {
    response: reqwest::Response,
    read: String,
}

impl Board {
    async fn open(app: &TestApp, token: &str) -> Self {
        let response = app
            .request(Method::GET, "/api/carer/events", As::Bearer(token))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let kind = response.headers()["content-type"].to_str().unwrap().to_string();
        assert!(kind.starts_with("text/event-stream"), "{kind}");
        Self {
            response,
            read: String::new(),
        }
    }

    /// The resident of the next `care` event (keep-alive comments are skipped).
    async fn next_change(&mut self) -> String {
        let wait = async {
            loop {
                if let Some(end) = self.read.find("\n\n") {
                    let event: String = self.read.drain(..end + 2).collect();
                    if let Some(data) = event.lines().find_map(|l| l.strip_prefix("data: ")) {
                        assert!(event.contains("event: care"), "{event}");
                        let change: Value = serde_json::from_str(data).unwrap();
                        assert_eq!(change["type"], "care.changed");
                        return change["resident_id"].as_str().unwrap().to_string();
                    }
                    continue;
                }
                let chunk = self.response.chunk().await.unwrap().expect("the stream ended");
                self.read.push_str(std::str::from_utf8(&chunk).unwrap());
            }
        };
        tokio::time::timeout(Duration::from_secs(10), wait)
            .await
            .expect("no change reached the board in 10 s")
    }
}

async fn set_carers(app: &TestApp, resident: &str, carers: &[&str]) {
    let path = format!("/api/admin/users/{resident}/carers");
    let r = app
        .call(Method::PUT, &path, As::AdminKey, Some(json!({ "carers": carers })))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

/// A reminder for tomorrow, set by `token`'s owner.
async fn remind(app: &TestApp, token: &str) -> Value {
    let tomorrow = jiff::Timestamp::now()
        .checked_add(jiff::SignedDuration::from_hours(24))
        .unwrap()
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string();
    let body = json!({"text": "die Tabletten", "due_at": tomorrow});
    let r = app
        .call(Method::POST, "/api/me/reminders", As::Bearer(token), Some(body))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.body
}

#[tokio::test]
async fn a_carers_board_hears_of_each_change_of_their_residents_care_and_of_nobody_elses() {
    let app = spawn_app(&[]).await;
    let (erika, erika_token) = app.create_user("erika").await;
    let (_otto, otto_token) = app.create_user("otto").await;
    let (carer, carer_token) = app.create_user("schwester-anna").await;
    set_carers(&app, &erika, &[&carer]).await;
    let mut board = Board::open(&app, &carer_token).await;

    // Otto is not hers: his reminder tells her nothing, so the first change she hears of is Erika's.
    remind(&app, &otto_token).await;
    remind(&app, &erika_token).await;
    assert_eq!(board.next_change().await, erika);
    let today = format!("/api/carer/residents/{erika}/today");
    let row = app.get(&today, As::Bearer(&carer_token)).await;
    assert_eq!(
        (row.status.as_u16(), row.body["reminders_waiting"].as_u64()),
        (200, Some(1)),
        "{}",
        row.body
    );

    // Erika calls for help: the board hears it, and her row has the open alarm.
    let help = app
        .call(Method::POST, "/api/emergency", As::Bearer(&erika_token), None)
        .await;
    assert!(help.status.is_success(), "{}", help.body);
    assert_eq!(board.next_change().await, erika);
    let row = app.get(&today, As::Bearer(&carer_token)).await.body;
    assert_eq!(row["alarm"]["looked_after_by"], json!([]), "{row}");

    // Acknowledged from another board of hers: this one hears it too.
    let ack = format!(
        "/api/carer/residents/{erika}/alarms/{}/acknowledge",
        row["alarm"]["id"].as_str().unwrap()
    );
    let done = app.call(Method::POST, &ack, As::Bearer(&carer_token), None).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert_eq!(board.next_change().await, erika);

    // Another resident's row is 404 to her, as every route of a resident not hers.
    let other = app
        .get(&format!("/api/carer/residents/{_otto}/today"), As::Bearer(&carer_token))
        .await;
    assert_eq!(other.status, 404, "{}", other.body);
}

#[tokio::test]
async fn a_carer_has_at_most_four_boards_open_and_a_closed_one_makes_room() {
    let app = spawn_app(&[]).await;
    let (_carer, token) = app.create_user("schwester-anna").await;
    let mut boards = Vec::new();
    for _ in 0..4 {
        boards.push(Board::open(&app, &token).await);
    }
    let fifth = app.get("/api/carer/events", As::Bearer(&token)).await;
    assert_eq!(
        (fifth.status.as_u16(), fifth.body["error"]["code"].as_str()),
        (429, Some("quota_exceeded")),
        "{}",
        fifth.body
    );
    assert!(
        fifth.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("at most 4 boards")
    );
    drop(boards.pop());
    eventually("a closed board making room", 5, || async {
        let again = app
            .request(Method::GET, "/api/carer/events", As::Bearer(&token))
            .send()
            .await
            .unwrap();
        (again.status() == 200).then_some(())
    })
    .await;
    let nobody = app.get("/api/carer/events", As::Nobody).await;
    assert_eq!(nobody.status, 401, "{}", nobody.body);
}

/// The board open on instance `b` hears of an alarm raised through instance `a` (PostgreSQL's
/// LISTEN/NOTIFY); with SQLite there is one instance, and the test ends after the board opened.
#[tokio::test]
async fn an_alarm_raised_on_one_instance_reaches_the_board_open_on_another() {
    let a = TestApp::with().env(&[("INSTANCE_ID", "a")]).start().await;
    let b = TestApp::with().env(&[("INSTANCE_ID", "b")]).beside(&a).start().await;
    let (erika, erika_token) = a.create_user("erika").await;
    let (carer, carer_token) = a.create_user("schwester-anna").await;
    set_carers(&a, &erika, &[&carer]).await;
    let mut board = Board::open(&b, &carer_token).await;
    if a.database_url.is_none() {
        return;
    }
    let boards = voice_gateway::carers::boards_of(&carer);
    eventually("b's board written down", 10, || async {
        (a.store.presence_elsewhere(&boards, "a", 0).await.unwrap() == 1).then_some(())
    })
    .await;
    let started = Instant::now();
    let help = a
        .call(Method::POST, "/api/emergency", As::Bearer(&erika_token), None)
        .await;
    assert!(help.status.is_success(), "{}", help.body);
    assert_eq!(board.next_change().await, erika);
    println!("alarm on a → board on b: {} ms", started.elapsed().as_millis());
    let row = b
        .get(&format!("/api/carer/residents/{erika}/today"), As::Bearer(&carer_token))
        .await
        .body;
    assert_eq!(row["alarm"]["looked_after_by"], json!([]), "{row}");
}

/// The row of `resident` on the board of `token`'s carer.
async fn row_of(app: &TestApp, resident: &str, token: &str) -> Value {
    let r = app
        .get(&format!("/api/carer/residents/{resident}/today"), As::Bearer(token))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

/// Erika calls for help, the operator ends the wait, she calls again: both alarms open on the row.
async fn two_calls_for_help(app: &TestApp, erika: &str, erika_token: &str) {
    let end_wait = format!("/api/admin/users/{erika}/emergency/cooldown");
    for press in 0..2 {
        if press == 1 {
            let ended = app.call(Method::DELETE, &end_wait, As::AdminKey, None).await;
            assert_eq!(ended.status, 200, "{}", ended.body);
        }
        let help = app
            .call(Method::POST, "/api/emergency", As::Bearer(erika_token), None)
            .await;
        assert!(help.status.is_success(), "{}", help.body);
    }
}

/// Every alarm nobody looked after is on the row, not only the latest; the check-in Erika leaves unanswered
/// stays on it after both alarms were looked after, until her carer looks after it too (named by display name,
/// in the care log and the audit log); the last day lists both calls for help and what came of them.
#[tokio::test]
async fn every_open_alarm_and_a_missed_check_in_stay_on_the_row_until_a_carer_looks_after_them() {
    let app = spawn_app(&[]).await;
    let (erika, erika_token) = crate::checkin::named_user(&app, "erika", "Erika Muster").await;
    let (anna, anna_token) = crate::checkin::named_user(&app, "anna", "Schwester Anna").await;
    let (otto, _) = app.create_user("otto").await;
    set_carers(&app, &erika, &[&anna]).await;
    let prefs = json!({"timezone": crate::checkin::late_morning_zone(), "checkin_window": "09:00-14:00"});
    app.set_prefs(&erika, prefs).await;
    two_calls_for_help(&app, &erika, &erika_token).await;
    let row = row_of(&app, &erika, &anna_token).await;
    let alarms = row["alarms"].as_array().unwrap().clone();
    assert_eq!(alarms.len(), 2, "{row}");
    assert!(alarms.iter().all(|a| a["looked_after_by"] == json!([])), "{row}");
    assert_eq!(row["alarm"]["id"], alarms[1]["id"], "the latest: {row}");

    // Anna looks after the first: the second is still open beside it.
    let ack = |alarm: &Value| {
        format!(
            "/api/carer/residents/{erika}/alarms/{}/acknowledge",
            alarm["id"].as_str().unwrap()
        )
    };
    let done = app
        .call(Method::POST, &ack(&alarms[0]), As::Bearer(&anna_token), None)
        .await;
    assert_eq!(done.status, 200, "{}", done.body);
    let row = row_of(&app, &erika, &anna_token).await;
    assert_eq!(
        row["alarms"][0]["looked_after_names"],
        json!(["Schwester Anna"]),
        "{row}"
    );
    assert_eq!(row["alarms"][1]["looked_after_by"], json!([]), "{row}");
    let done = app
        .call(Method::POST, &ack(&alarms[1]), As::Bearer(&anna_token), None)
        .await;
    assert_eq!(done.status, 200, "{}", done.body);

    // Erika answers nothing at her window's end, nor ten minutes on: the day is missed and stays on the row.
    let (_, due_at) = crate::checkin::plan(&app, &erika_token).await;
    for minutes in [0, 11, 22] {
        let claimed = voice_gateway::care::checkin::due(&app.app, due_at + 1000 + minutes * 60_000).await;
        assert_eq!(claimed.unwrap(), 1, "after {minutes} minutes");
    }
    let row = row_of(&app, &erika, &anna_token).await;
    assert_eq!(row["missed_checkin"]["looked_after_by"], Value::Null, "{row}");
    assert!(
        row["missed_checkin"]["due_at"].as_str().unwrap().contains("T14:00:00"),
        "{row}"
    );
    assert!(
        row["alarms"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a["looked_after_names"] == json!(["Schwester Anna"]))
    );

    // Her day lists both calls for help with what came of them.
    let day = app
        .get(&format!("/api/carer/residents/{erika}"), As::Bearer(&anna_token))
        .await
        .body;
    let outcomes: Vec<&str> = day["alarms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["status"].as_str().unwrap())
        .collect();
    assert_eq!(outcomes, ["no_recipients", "no_recipients"], "{day}");

    looks_after_the_missed_day(&app, &erika, &anna_token, &otto).await;
}

/// Anna looks after Erika's missed day: once (two taps count once), named, logged and audited; Otto is not hers.
async fn looks_after_the_missed_day(app: &TestApp, erika: &str, anna_token: &str, otto: &str) {
    let path = |who: &str| format!("/api/carer/residents/{who}/checkin/acknowledge");
    for _ in 0..2 {
        let done = app.call(Method::POST, &path(erika), As::Bearer(anna_token), None).await;
        assert_eq!(done.status, 204, "{}", done.body);
    }
    let other = app.call(Method::POST, &path(otto), As::Bearer(anna_token), None).await;
    assert_eq!(other.status, 404, "{}", other.body);
    let row = row_of(app, erika, anna_token).await;
    assert_eq!(
        (
            &row["missed_checkin"]["looked_after_by"],
            &row["missed_checkin"]["looked_after_name"]
        ),
        (&json!("carer:anna"), &json!("Schwester Anna")),
        "{row}"
    );
    let day = app
        .get(&format!("/api/carer/residents/{erika}"), As::Bearer(anna_token))
        .await
        .body;
    let by_anna: Vec<(&str, &str)> = day["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["channel"] == "carer" && e["detail_args"]["carer"] == "Schwester Anna")
        .map(|e| (e["what"].as_str().unwrap(), e["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        by_anna,
        [
            ("checkin", "acknowledged"),
            ("alarm", "acknowledged"),
            ("alarm", "acknowledged")
        ],
        "{day}"
    );
    let audit = app.get("/api/admin/audit", As::AdminKey).await.body;
    let acks = audit
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "checkin.acknowledge" && e["actor"] == "carer:anna")
        .count();
    assert_eq!(acks, 2, "{audit}");
}
