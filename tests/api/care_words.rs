//! The care views in the reader's language (issue 65): a care log row is data (its kind's code and values)
//! beside the English record it always had; the admin panel says it, the states and the editor's help in
//! German, sets the person's time zone, ticks the languages the users' table lists, and shows every time on
//! the person's clock with their zone named.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{As, TestApp};
use crate::reminders::in_seconds;
use crate::ws::connect;

/// The care log as the admin API answers it, once `ready` holds of it.
async fn log_when(app: &TestApp, id: &str, ready: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    crate::common::eventually("the care log", 15, || async {
        let r = app.get(&format!("/api/admin/users/{id}/care"), As::AdminKey).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let log = r.body["log"].as_array().unwrap().clone();
        ready(&log).then_some(log)
    })
    .await
}

async fn remind(app: &TestApp, token: &str, text: &str, due_at: &str) {
    let body = json!({"text": text, "due_at": due_at, "confirm": false});
    let r = app
        .call(Method::POST, "/api/me/reminders", As::Bearer(token), Some(body))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
}

#[tokio::test]
async fn a_care_log_row_carries_its_detail_as_a_code_with_values_beside_the_english_record() {
    let (app, token, id) = TestApp::with().user("erika").await;
    // No page open: the reminder reaches nobody.
    remind(&app, &token, "den Tee", &in_seconds(1)).await;
    let log = log_when(&app, &id, |log| log.iter().any(|e| e["status"] == "unreachable")).await;
    let row = &log[0];
    assert_eq!(
        (&row["what"], &row["text"], &row["channel"], &row["status"]),
        (
            &json!("reminder"),
            &json!("den Tee"),
            &json!("page"),
            &json!("unreachable")
        )
    );
    assert_eq!(
        row["detail"], "no page or voice connection open",
        "the record clients read stays"
    );
    assert_eq!(
        (&row["detail_code"], &row["detail_args"]),
        (&json!("no-page-open"), &json!({}))
    );
    // With the page open it is delivered to one connection: the count is a value, a number.
    let _page = connect(&app, "/ws/chat", &token).await;
    remind(&app, &token, "die Post", &in_seconds(1)).await;
    let log = log_when(&app, &id, |log| log.iter().any(|e| e["status"] == "delivered")).await;
    let row = log.iter().find(|e| e["status"] == "delivered").unwrap();
    assert_eq!(row["detail"], "1 connection(s)");
    assert_eq!(
        (&row["detail_code"], &row["detail_args"]),
        (&json!("connections"), &json!({"count": 1}))
    );
    // Rows of no kind (a server's error; a clock written in English words before) stay as stored.
    let store = &app.app.store;
    store
        .add_care_log(&id, "checkin", "mail", "failed", Some("554 relay refused"))
        .await
        .unwrap();
    store
        .add_care_log(&id, "checkin", "none", "ok", Some("a sign of life at at 9:12 am"))
        .await
        .unwrap();
    let log = log_when(&app, &id, |log| log.len() >= 4).await;
    for (row, stored) in log[..2]
        .iter()
        .zip(["a sign of life at at 9:12 am", "554 relay refused"])
    {
        assert_eq!(row["detail"], stored);
        assert_eq!(
            (&row["detail_code"], &row["detail_args"]),
            (&Value::Null, &json!({})),
            "{row}"
        );
    }
}

#[tokio::test]
#[ignore = "needs Chromium and node; scripts/test.sh runs it"]
async fn a_german_admin_reads_the_care_log_in_german_on_the_persons_clock_and_sets_their_zone() {
    let (app, token, id) = TestApp::with().user("erika").await;
    let admin = app
        .call(
            Method::POST,
            "/api/admin/users",
            As::AdminKey,
            Some(json!({"name": "chefin", "is_admin": true})),
        )
        .await;
    let (admin_id, admin_token) = (
        admin.body["id"].as_str().unwrap().to_string(),
        admin.body["token"].as_str().unwrap().to_string(),
    );
    app.set_prefs(&admin_id, json!({"language": "de"})).await;
    let carers = format!("/api/admin/users/{id}/carers");
    let named = app
        .call(Method::PUT, &carers, As::AdminKey, Some(json!({"carers": [admin_id]})))
        .await;
    assert_eq!(named.status, 200, "{}", named.body);
    // Erika lives in Tokyo for now; her allowed languages are left unset (all of them).
    app.set_prefs(&id, json!({"timezone": "Asia/Tokyo"})).await;
    remind(&app, &token, "den Tee", &in_seconds(1)).await;
    log_when(&app, &id, |log| log.iter().any(|e| e["status"] == "unreachable")).await;
    let tomorrow = jiff::Timestamp::now()
        .to_zoned(jiff::tz::TimeZone::get("Asia/Tokyo").unwrap())
        .tomorrow()
        .unwrap()
        .date();
    remind(&app, &token, "die Tabletten", &format!("{tomorrow}T08:00:00+09:00")).await;

    let out = crate::browser::ui_steps(
        "care-words.mjs",
        &[
            ("BASE", format!("http://{}", app.addr)),
            ("LINK", format!("/admin?k={admin_token}")),
            ("PERSON", format!("/?k={token}")),
        ],
    )
    .await;

    assert!(out.contains("ok the care log in German"), "{out}");
    assert!(out.contains("ok the person's page on their clock"), "{out}");
    let prefs = app
        .get(&format!("/api/admin/users/{id}/prefs"), As::AdminKey)
        .await
        .body;
    assert_eq!(prefs["timezone"], "Europe/Berlin", "set in the panel: {prefs}");
    assert_eq!(prefs["notify_carers"], false, "turned off on her own page: {prefs}");
    assert!(
        prefs.get("allowed_languages").is_none_or(Value::is_null),
        "saved with every box ticked, the languages stay unset (all): {prefs}"
    );
    // The reminder set in the panel at 09:30 is at 09:30 on Erika's clock in Berlin, not the device's.
    let r = app.get("/api/me/reminders", As::Bearer(&token)).await;
    let set = r.body["reminders"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["text"] == "Blumen gießen")
        .expect("the reminder set in the panel")
        .clone();
    assert_eq!(set["time_zone"], "Europe/Berlin");
    assert!(set["due_at"].as_str().unwrap().contains("T09:30:00+0"), "{set}");
}
