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
