//! The carer's role: a user an admin names a resident's carer reaches that resident's care and nothing else
//! (404 for anybody else, 403 for every admin route, no conversation), and every action is in the audit log
//! as the carer; what a carer sets reaches the resident.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{As, TestApp, spawn_app};

/// `days` from today at 9:00 in Berlin's winter offset, RFC 3339.
fn ahead(days: i64) -> String {
    let date = jiff::Timestamp::now().to_zoned(jiff::tz::TimeZone::UTC).date();
    format!("{}T09:00:00+01:00", date.checked_add(jiff::ToSpan::days(days)).unwrap())
}

/// Names `carers` the carers of `resident`; the carers the answer lists.
async fn set_carers(app: &TestApp, resident: &str, carers: &[&str]) -> Value {
    let path = format!("/api/admin/users/{resident}/carers");
    let r = app
        .call(Method::PUT, &path, As::AdminKey, Some(json!({ "carers": carers })))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

/// The audit log's entries of `actor`, as (action, target).
async fn audited(app: &TestApp, actor: &str) -> Vec<(String, String)> {
    let log = app.get("/api/admin/audit", As::AdminKey).await.body;
    let entries = log.as_array().unwrap().iter().filter(|e| e["actor"] == actor);
    entries
        .map(|e| {
            (
                e["action"].as_str().unwrap().to_string(),
                e["target"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Otto is not hers, nor is a user that does not exist: 404 alike, for every route; the admin's routes are
/// never hers: 403.
async fn nobody_else_is_hers(
    app: &TestApp,
    carer_token: &str,
    (stranger, erika): (&str, &str),
    (id, body): (&str, &Value),
) {
    for who in [stranger, "00000000-0000-7000-8000-000000000000"] {
        for (method, path, body) in [
            (Method::GET, format!("/api/carer/residents/{who}"), None),
            (Method::GET, format!("/api/carer/residents/{who}/reminders"), None),
            (
                Method::POST,
                format!("/api/carer/residents/{who}/reminders"),
                Some(body.clone()),
            ),
            (
                Method::DELETE,
                format!("/api/carer/residents/{who}/reminders/{id}"),
                None,
            ),
        ] {
            let r = app.call(method, &path, As::Bearer(carer_token), body).await;
            assert_eq!(
                (r.status, r.body["error"]["code"].as_str()),
                (reqwest::StatusCode::NOT_FOUND, Some("not_found")),
                "{path}: {}",
                r.body
            );
        }
    }
    // The admin's routes are never hers: 403.
    for path in [
        "/api/admin/users",
        &format!("/api/admin/conversations/{erika}"),
        &format!("/api/admin/users/{erika}/care"),
    ] {
        let r = app.get(path, As::Bearer(carer_token)).await;
        assert_eq!(r.status, 403, "{path}: {}", r.body);
    }
}

#[tokio::test]
async fn a_carer_sees_and_acts_for_their_residents_only_and_every_action_is_audited_as_them() {
    let app = spawn_app(&[]).await;
    let (erika, erika_token) = app.create_user("erika").await;
    let (hans, _) = app.create_user("hans").await;
    let (stranger, _) = app.create_user("otto").await;
    let (carer, carer_token) = app.create_user("schwester-anna").await;
    app.set_prefs(
        &erika,
        json!({"timezone": "Europe/Berlin", "checkin_window": "08:00-10:00"}),
    )
    .await;
    let set = set_carers(&app, &erika, &[&carer]).await;
    assert_eq!(set["carers"][0]["name"], "schwester-anna");
    set_carers(&app, &hans, &[&carer]).await;

    // Her residents, by name, each with today's care; nobody else.
    let list = app.get("/api/carer/residents", As::Bearer(&carer_token)).await;
    assert_eq!(list.status, 200, "{}", list.body);
    let names: Vec<&str> = list.body["residents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["erika", "hans"]);
    assert_eq!(list.body["residents"][0]["checkin"]["window"], "08:00-10:00");
    assert_eq!(list.body["residents"][0]["alarm"], Value::Null);

    // A reminder set for Erika reaches Erika's own list, made by a carer.
    let body = json!({"text": "die Tabletten", "due_at": ahead(1)});
    let path = format!("/api/carer/residents/{erika}/reminders");
    let made = app
        .call(Method::POST, &path, As::Bearer(&carer_token), Some(body.clone()))
        .await;
    assert_eq!(made.status, 201, "{}", made.body);
    let hers = app.get("/api/me/reminders", As::Bearer(&erika_token)).await.body;
    assert_eq!(hers["reminders"][0]["text"], "die Tabletten");
    assert_eq!(hers["reminders"][0]["created_by"], "carer");
    let day = app
        .get(&format!("/api/carer/residents/{erika}"), As::Bearer(&carer_token))
        .await;
    assert_eq!(day.status, 200, "{}", day.body);
    assert_eq!(day.body["reminders"][0]["text"], "die Tabletten");
    assert_eq!(day.body["checkin"]["time_zone"], "Europe/Berlin");
    let id = made.body["id"].as_str().unwrap();
    let cancelled = app
        .call(Method::DELETE, &format!("{path}/{id}"), As::Bearer(&carer_token), None)
        .await;
    assert_eq!(cancelled.status, 204, "{}", cancelled.body);

    nobody_else_is_hers(&app, &carer_token, (&stranger, &erika), (id, &body)).await;
    // Each action in the audit log, as her.
    assert_eq!(
        audited(&app, "carer:schwester-anna").await,
        [
            ("user.reminder_cancel".to_string(), erika.clone()),
            ("user.reminder_add".to_string(), erika.clone())
        ]
    );
    // Erika sees who cares for her.
    let me = app.get("/api/me", As::Bearer(&erika_token)).await.body;
    assert_eq!(me["carers"][0]["name"], "schwester-anna", "{me}");
}

#[tokio::test]
async fn carers_are_set_only_to_existing_other_users_and_a_removed_carer_loses_the_resident_at_once() {
    let app = spawn_app(&[]).await;
    let (erika, _) = app.create_user("erika").await;
    let (carer, carer_token) = app.create_user("pfleger-ben").await;
    let path = format!("/api/admin/users/{erika}/carers");
    for (body, why) in [
        (json!({"carers": ["nobody"]}), "carers: no user nobody"),
        (
            json!({"carers": [erika]}),
            "carers: a resident cannot be their own carer",
        ),
        (json!({"carers": "x"}), ""),
        (json!({"carer": [carer]}), ""),
    ] {
        let r = app.call(Method::PUT, &path, As::AdminKey, Some(body)).await;
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(r.body["error"]["message"].as_str().unwrap().contains(why), "{}", r.body);
    }
    let missing = app
        .call(
            Method::PUT,
            "/api/admin/users/nobody/carers",
            As::AdminKey,
            Some(json!({"carers": []})),
        )
        .await;
    assert_eq!(missing.status, 404, "{}", missing.body);
    set_carers(&app, &erika, &[&carer, &carer]).await;
    let shown = app.get(&path, As::AdminKey).await.body;
    assert_eq!(shown["carers"].as_array().unwrap().len(), 1, "once: {shown}");
    let day = format!("/api/carer/residents/{erika}");
    assert_eq!(app.get(&day, As::Bearer(&carer_token)).await.status, 200);
    set_carers(&app, &erika, &[]).await;
    assert_eq!(app.get(&day, As::Bearer(&carer_token)).await.status, 404);
    let list = app.get("/api/carer/residents", As::Bearer(&carer_token)).await.body;
    assert_eq!(list["residents"], json!([]));
    assert_eq!(
        audited(&app, "admin-key")
            .await
            .iter()
            .filter(|(a, _)| a == "user.carers")
            .count(),
        2
    );
}

#[tokio::test]
async fn a_carer_sees_a_residents_conversations_only_as_a_list_and_only_when_the_resident_shares_it() {
    let app = spawn_app(&[]).await;
    let (erika, erika_token) = app.create_user("erika").await;
    let (carer, carer_token) = app.create_user("tochter-lena").await;
    set_carers(&app, &erika, &[&carer]).await;
    let session = app.new_session(&erika_token).await;
    let path = format!("/api/carer/residents/{erika}/sessions");
    let closed = app.get(&path, As::Bearer(&carer_token)).await;
    assert_eq!(
        (closed.status.as_u16(), closed.body["error"]["code"].as_str()),
        (403, Some("forbidden")),
        "{}",
        closed.body
    );
    // Erika shares it herself: the titles and times, never a message.
    let r = app
        .call(
            Method::PUT,
            "/api/me/prefs",
            As::Bearer(&erika_token),
            Some(json!({"share_with_carers": true})),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let shared = app.get(&path, As::Bearer(&carer_token)).await;
    assert_eq!(shared.status, 200, "{}", shared.body);
    assert_eq!(shared.body["sessions"][0]["id"], session.as_str());
    assert!(shared.body["sessions"][0].get("messages").is_none(), "{}", shared.body);
    // Her conversation itself stays hers (the sessions API tells a carer so as it tells anybody else).
    let read = app
        .get(&format!("/api/sessions/{session}"), As::Bearer(&carer_token))
        .await;
    assert_eq!(read.status, 404, "{}", read.body);
    assert_eq!(
        audited(&app, "carer:tochter-lena").await,
        [("carer.sessions_list".to_string(), erika.clone())]
    );
}

/// Erika presses for help: the alarm is open on her carer's list until the carer acknowledges it, once; another
/// alarm id is 404.
async fn the_carer_acknowledges_her_alarm(app: &TestApp, (erika, erika_token): (&str, &str), carer_token: &str) {
    let pressed = app
        .call(Method::POST, "/api/emergency", As::Bearer(erika_token), None)
        .await;
    assert!(pressed.status.is_success(), "{}", pressed.body);
    let list = app.get("/api/carer/residents", As::Bearer(carer_token)).await.body;
    assert_eq!(list["residents"][0]["alarm"]["looked_after_by"], json!([]), "open");
    let alarm = list["residents"][0]["alarm"]["id"]
        .as_str()
        .expect("an open alarm")
        .to_string();
    let ack = format!("/api/carer/residents/{erika}/alarms/{alarm}/acknowledge");
    let done = app.call(Method::POST, &ack, As::Bearer(carer_token), None).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert_eq!(done.body["acknowledged_by"], json!(["carer:schwester-anna"]));
    let day = app
        .get(&format!("/api/carer/residents/{erika}"), As::Bearer(carer_token))
        .await
        .body;
    assert_eq!(
        day["alarm"]["looked_after_by"],
        json!(["carer:schwester-anna"]),
        "{day}"
    );
    // Again: nothing changes; somebody else's alarm id is 404.
    let again = app.call(Method::POST, &ack, As::Bearer(carer_token), None).await;
    assert_eq!(again.body["acknowledged_by"], json!(["carer:schwester-anna"]));
    let wrong = format!("/api/carer/residents/{erika}/alarms/nothing/acknowledge");
    assert_eq!(
        app.call(Method::POST, &wrong, As::Bearer(carer_token), None)
            .await
            .status,
        404
    );
}

/// She moves to Lisbon: her window keeps its hours on her new clock; a zone that is none is refused.
async fn she_moves_to_lisbon(app: &TestApp, path: &str, carer_token: &str) {
    let moved = app
        .call(
            Method::PUT,
            path,
            As::Bearer(carer_token),
            Some(json!({"time_zone": "Europe/Lisbon", "away_until": ""})),
        )
        .await;
    assert_eq!(moved.status, 200, "{}", moved.body);
    assert_eq!(moved.body["time_zone"], "Europe/Lisbon");
    assert!(
        moved.body["due_at"].as_str().unwrap().ends_with("T10:00:00+00:00"),
        "{}",
        moved.body
    );
    let nowhere = json!({"time_zone": "Mars/Olympus"});
    let r = app
        .call(Method::PUT, path, As::Bearer(carer_token), Some(nowhere))
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
}

#[tokio::test]
async fn a_carer_sets_a_residents_check_in_and_acknowledges_their_alarm_as_themselves() {
    let app = spawn_app(&[]).await;
    let (erika, erika_token) = app.create_user("erika").await;
    let (carer, carer_token) = app.create_user("schwester-anna").await;
    set_carers(&app, &erika, &[&carer]).await;
    app.set_prefs(&erika, json!({"timezone": "Europe/Berlin"})).await;

    // The check-in, set for her: her own plan shows it; a window that is none is refused.
    let path = format!("/api/carer/residents/{erika}/checkin");
    let set = app
        .call(
            Method::PUT,
            &path,
            As::Bearer(&carer_token),
            Some(json!({"window": "08:00-10:00"})),
        )
        .await;
    assert_eq!(set.status, 200, "{}", set.body);
    assert_eq!(
        (set.body["window"].as_str(), set.body["time_zone"].as_str()),
        (Some("08:00-10:00"), Some("Europe/Berlin"))
    );
    let hers = app.get("/api/me/checkin", As::Bearer(&erika_token)).await.body;
    assert_eq!(hers["window"], "08:00-10:00");
    assert!(hers["due_at"].as_str().unwrap().ends_with("T10:00:00+01:00"), "{hers}");
    for bad in [
        json!({"window": "late"}),
        json!({"away_until": "tomorrow"}),
        json!({"windows": ""}),
    ] {
        let r = app.call(Method::PUT, &path, As::Bearer(&carer_token), Some(bad)).await;
        assert_eq!(r.status, 422, "{}", r.body);
    }
    let away = app
        .call(
            Method::PUT,
            &path,
            As::Bearer(&carer_token),
            Some(json!({"away_until": "2099-01-01"})),
        )
        .await;
    assert_eq!(
        (away.body["away_until"].as_str(), away.body["window"].as_str()),
        (Some("2099-01-01"), Some("08:00-10:00"))
    );
    she_moves_to_lisbon(&app, &path, &carer_token).await;

    the_carer_acknowledges_her_alarm(&app, (&erika, &erika_token), &carer_token).await;
    let actions: Vec<String> = audited(&app, "carer:schwester-anna")
        .await
        .into_iter()
        .map(|(a, _)| a)
        .collect();
    assert_eq!(
        actions,
        [
            "alarm.acknowledge",
            "alarm.acknowledge",
            "user.checkin",
            "user.checkin",
            "user.checkin"
        ]
    );
}
