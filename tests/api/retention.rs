//! Retention: a purge as of a day passed in removes what is older than its kind's setting and nothing younger;
//! a person's own shorter choice holds for her alone; two instances purging at once delete each row once.

use reqwest::Method;
use serde_json::json;

use crate::common::{As, TestApp};
use crate::emergency::{profile, setup};
use crate::fakes::Fake;
use crate::smtp::Mode;
use voice_gateway::retention::purge_claimed;

const DAY_MS: i64 = 86_400_000;

/// The rows of Anna's data by kind: messages, care log, alarms, usage, the access log.
async fn rows(app: &TestApp, id: &str) -> [i64; 5] {
    [
        app.rows_of("messages", id).await,
        app.rows_of("care_log", id).await,
        app.rows_of("emergency_alarms", id).await,
        app.rows_of("usage", id).await,
        app.rows_of("access_log", id).await,
    ]
}

/// A gateway whose model answers, and Anna with a turn, a check-in her carer set, an alarm and an admin's look.
async fn anna_with_a_day() -> (crate::emergency::Setup, Fake) {
    let llm = Fake::answering(&["Gleich drei."]).await;
    let url = llm.v1();
    let env = [("LOCAL_LLM_URL", url.as_str()), ("DEFAULT_LLM_PROVIDER", "local")];
    let s = setup(Some(Mode::Accept), &env, profile()).await;
    let me = As::Bearer(&s.token);
    // Her carer sets her check-in: a line of her care log.
    let (olga, olga_token) = s.app.create_user("olga").await;
    let carers = json!({"carers": [olga]});
    let path = format!("/api/admin/users/{}/carers", s.id);
    assert_eq!(
        s.app.call(Method::PUT, &path, As::AdminKey, Some(carers)).await.status,
        200
    );
    let window = json!({"window": "08:00-10:00"});
    let path = format!("/api/carer/residents/{}/checkin", s.id);
    assert_eq!(
        s.app
            .call(Method::PUT, &path, As::Bearer(&olga_token), Some(window))
            .await
            .status,
        200
    );
    let session = s.app.call(Method::POST, "/api/sessions", me, None).await.body["id"].clone();
    for (path, body) in [
        (
            "/api/chat",
            json!({"text": "Wie spät ist es?", "text_only": true, "session_id": session}),
        ),
        ("/api/emergency", json!({})),
    ] {
        let r = s.app.call(Method::POST, path, me, Some(body)).await;
        assert!(r.status.is_success(), "{path}: {}", r.body);
    }
    let look = s
        .app
        .get(&format!("/api/admin/users/{}/prefs", s.id), As::AdminKey)
        .await;
    assert_eq!(look.status, 200);
    (s, llm)
}

#[tokio::test]
async fn each_kind_goes_when_its_days_are_over_and_not_a_day_before() {
    let (s, _llm) = anna_with_a_day().await;
    let (app, now) = (&s.app, voice_gateway::store::now_ms());
    let before = rows(app, &s.id).await;
    assert!(before.iter().all(|n| *n > 0), "{before:?}");
    // Days ahead, and what is left: conversations go after 90, the care log after 180, alarms after 365,
    // the daily counters after 400, the access log after 730.
    let steps: [(i64, [bool; 5]); 6] = [
        (89, [true, true, true, true, true]),
        (91, [false, true, true, true, true]),
        (181, [false, false, true, true, true]),
        (366, [false, false, false, true, true]),
        (402, [false, false, false, false, true]),
        (731, [false, false, false, false, false]),
    ];
    for (days, kept) in steps {
        purge_claimed(&app.app, now + days * DAY_MS)
            .await
            .unwrap()
            .expect("the lease");
        let left = rows(app, &s.id).await;
        let expected: Vec<i64> = kept.iter().zip(before).map(|(k, n)| if *k { n } else { 0 }).collect();
        assert_eq!(left.to_vec(), expected, "after {days} days");
    }
    let metrics = app.get("/api/metrics", As::AdminKey).await.body;
    let purged = |kind: &str| metrics["counters"][format!("purged_rows_total{{kind=\"{kind}\"}}")].as_u64();
    assert!(purged("conversations").unwrap() >= before[0] as u64, "{metrics}");
    assert!(purged("alarms").unwrap() >= 1, "{metrics}");
}

#[tokio::test]
async fn her_own_shorter_choice_holds_for_her_and_two_instances_purge_each_row_once() {
    let (s, llm) = anna_with_a_day().await;
    let app = &s.app;
    let choice = json!({"conversation_retention_days": 7});
    let r = app
        .call(Method::PUT, "/api/me/prefs", As::Bearer(&s.token), Some(choice))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let (bob, bob_token) = app.create_user("bob").await;
    let session = app
        .call(Method::POST, "/api/sessions", As::Bearer(&bob_token), None)
        .await
        .body["id"]
        .clone();
    let asked = json!({"text": "Und morgen?", "text_only": true, "session_id": session});
    assert!(
        app.call(Method::POST, "/api/chat", As::Bearer(&bob_token), Some(asked))
            .await
            .status
            .is_success()
    );
    let other = TestApp::with().llm(&llm).beside(app).start().await;
    let when = voice_gateway::store::now_ms() + 10 * DAY_MS;
    let (a, b) = tokio::join!(purge_claimed(&app.app, when), purge_claimed(&other.app, when));
    let conversations = |p: Option<Vec<(voice_gateway::store::purge::Kind, u64)>>| p.map_or(0, |p| p[0].1);
    // Her two messages and the conversation they leave empty are gone once, however the instances met; Bob's
    // stay.
    assert_eq!(conversations(a.unwrap()) + conversations(b.unwrap()), 3);
    assert_eq!(app.rows_of("messages", &s.id).await, 0);
    assert_eq!(app.rows_of("messages", &bob).await, 2);
}
