//! Several instances of the gateway on one database: what must be exact across them is kept in the database
//! (quotas, leases), and what an instance caches (runtime overrides, the local backend) follows an admin's
//! change through another instance within `OVERRIDES_REFRESH_SECONDS`.

use std::time::Duration;

use reqwest::Method;
use serde_json::json;
use tokio::sync::Semaphore;

use crate::common::{As, TestApp, eventually, throughout};
use crate::fakes::{CHAT, Fake, Reply, tokens};

/// Instance `a`, and instance `b` on the same database; both refresh their overrides every second.
async fn two_instances(llm: &Fake, llamacpp: &Fake) -> (TestApp, TestApp) {
    let settings = [
        ("OVERRIDES_REFRESH_SECONDS", "1"),
        ("LLAMACPP_URL", llamacpp.base.as_str()),
    ];
    let a = TestApp::with()
        .llm(llm)
        .env(&settings)
        .env(&[("INSTANCE_ID", "a")])
        .start()
        .await;
    let b = TestApp::with()
        .llm(llm)
        .env(&settings)
        .env(&[("INSTANCE_ID", "b")])
        .beside(&a)
        .start()
        .await;
    (a, b)
}

#[tokio::test]
async fn the_daily_quota_is_exact_across_instances() {
    let llm = Fake::answering(&["Ok."]).await;
    let (a, b) = two_instances(&llm, &llm).await;
    let (id, token) = a.create_user("anna").await;
    let limit = json!({"daily_request_limit": 10});
    let path = format!("/api/admin/users/{id}/prefs");
    assert_eq!(a.call(Method::PUT, &path, As::AdminKey, Some(limit)).await.status, 200);

    let mut turns = Vec::new();
    for n in 0..30 {
        let app = if n % 2 == 0 { &a } else { &b };
        let request = app
            .request(Method::POST, "/api/chat", As::Bearer(&token))
            .json(&json!({"text": format!("question {n}"), "text_only": true}));
        turns.push(tokio::spawn(
            async move { request.send().await.unwrap().status().as_u16() },
        ));
    }
    let mut statuses = Vec::new();
    for turn in turns {
        statuses.push(turn.await.unwrap());
    }
    let served = statuses.iter().filter(|s| **s == 200).count();
    let refused = statuses.iter().filter(|s| **s == 429).count();
    assert_eq!((served, refused), (10, 20), "{statuses:?}");
    assert_eq!(llm.requests(CHAT).len(), 10, "only the served turns reached the model");
}

#[tokio::test]
async fn an_admins_change_through_one_instance_reaches_the_other() {
    let llm = Fake::answering(&["Ok."]).await;
    let (a, b) = two_instances(&llm, &llm).await;
    let set = json!({"value": "1.3"});
    let r = a
        .call(
            Method::PUT,
            "/api/admin/config/llm_temperature",
            As::AdminKey,
            Some(set),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    eventually("instance b taking up the override", 5, || async {
        b.get("/api/config", As::Nobody).await.body["llm_temperature"] == json!(1.3)
    })
    .await;
    let (_, token) = b.create_user("bert").await;
    let turn = json!({"text": "hi", "text_only": true});
    assert_eq!(
        b.call(Method::POST, "/api/chat", As::Bearer(&token), Some(turn))
            .await
            .status,
        200
    );
    let sent = llm.requests(CHAT).last().unwrap().json();
    assert_eq!(sent["temperature"], json!(1.3), "instance b's turn used the override");
}

#[tokio::test]
async fn a_backend_switch_is_one_at_a_time_across_instances_and_both_follow_it() {
    let llm = Fake::start().await;
    llm.always("/api/tags", Reply::Json(json!({"models": [{"name": "smollm2"}]})));
    llm.always("/api/ps", Reply::Json(json!({"models": []})));
    let llamacpp = Fake::start().await;
    let gate = std::sync::Arc::new(Semaphore::new(0));
    let models = Reply::Json(json!({"data": [{"id": "smollm2"}]}));
    llamacpp.then("/v1/models", Reply::Gated(gate.clone(), Box::new(models.clone())));
    llamacpp.always("/v1/models", models);
    let (a, b) = two_instances(&llm, &llamacpp).await;

    // Instance a's switch holds the lease while it waits for llama.cpp; instance b's meanwhile is refused.
    let first = tokio::spawn({
        let request = a
            .request(Method::POST, "/api/admin/llm/backend", As::AdminKey)
            .json(&json!({"backend": "llamacpp", "model": "smollm2"}));
        async move { request.send().await.unwrap().status().as_u16() }
    });
    eventually("instance a asking llama.cpp", 5, || async {
        !llamacpp.requests("/v1/models").is_empty()
    })
    .await;
    let second = json!({"backend": "ollama", "model": "smollm2"});
    let refused = b
        .call(Method::POST, "/api/admin/llm/backend", As::AdminKey, Some(second))
        .await;
    assert_eq!(refused.error(409), "conflict");
    gate.add_permits(1);
    assert_eq!(first.await.unwrap(), 200);

    // Instance b takes up the new backend without a restart.
    eventually("instance b following the switch", 5, || async {
        b.get("/api/admin/llm/status", As::AdminKey).await.body["backend"] == "llamacpp"
    })
    .await;
}

#[tokio::test]
async fn each_instance_names_itself_in_its_metrics_and_status() {
    let llm = Fake::start().await;
    let (a, b) = two_instances(&llm, &llm).await;
    let text = a.prometheus().await;
    assert!(
        text.lines()
            .any(|l| l.starts_with("gateway_info{") && l.contains("instance=\"a\"")),
        "{text}"
    );
    assert_eq!(b.get("/api/admin/status", As::AdminKey).await.body["instance"], "b");
}

#[tokio::test]
async fn token_resets_at_once_on_two_instances_leave_one_working_token() {
    let llm = Fake::start().await;
    let (a, b) = two_instances(&llm, &llm).await;
    let (id, _) = a.create_user("anna").await;
    let path = format!("/api/admin/users/{id}/token");
    let mut resets = Vec::new();
    for n in 0..10 {
        let app = if n % 2 == 0 { &a } else { &b };
        let request = app.request(Method::POST, &path, As::AdminKey);
        resets.push(tokio::spawn(async move {
            let r = request.send().await.unwrap();
            assert_eq!(r.status(), 200);
            r.json::<serde_json::Value>().await.unwrap()["token"]
                .as_str()
                .unwrap()
                .to_string()
        }));
    }
    let mut tokens = Vec::new();
    for reset in resets {
        tokens.push(reset.await.unwrap());
    }
    let mut working = 0;
    for token in &tokens {
        working += usize::from(a.get("/api/me", As::Bearer(token)).await.status == 200);
    }
    assert_eq!(working, 1, "one reset wins; the others' tokens were replaced");
    assert_eq!(a.rows_of("tokens", &id).await, 1);
}

#[tokio::test]
async fn one_memory_extraction_at_a_time_for_a_user_on_all_instances() {
    let llm = Fake::answering(&["Nice."]).await;
    let gate = std::sync::Arc::new(Semaphore::new(0));
    let facts = tokens(&["- Anna likes green tea.\n"]);
    llm.when(|r| r.is_extraction(), Reply::Gated(gate.clone(), Box::new(facts)));
    let extraction = [
        ("MEMORY_EXTRACTION_ENABLED", "true"),
        ("MEMORY_EXTRACTION_EVERY_N_TURNS", "1"),
    ];
    let a = TestApp::with().llm(&llm).env(&extraction).start().await;
    let b = TestApp::with().llm(&llm).env(&extraction).beside(&a).start().await;
    let (_, token) = a.create_user("anna").await;
    let session = a
        .call(Method::POST, "/api/sessions", As::Bearer(&token), None)
        .await
        .body["id"]
        .clone();
    let turn = async |app: &TestApp, text: &str| {
        let body = json!({"text": text, "session_id": session, "text_only": true});
        app.call(Method::POST, "/api/chat", As::Bearer(&token), Some(body))
            .await
    };
    let extractions = || llm.all_requests().iter().filter(|r| r.is_extraction()).count();

    // The first turn's extraction is held open by the gate; the turns stored meanwhile, on either instance,
    // start none of their own.
    assert_eq!(turn(&a, "I drink green tea.").await.status, 200);
    eventually("the first extraction", 5, || async { extractions() == 1 }).await;
    let (second, third) = tokio::join!(turn(&b, "I live in Hamburg."), turn(&a, "My dog is Bello."));
    assert_eq!((second.status.as_u16(), third.status.as_u16()), (200, 200));
    // A turn decides on its extraction before it answers, so a second one would already be on its way: a moment
    // for its request to reach the fake.
    throughout(
        "no second extraction while one runs",
        Duration::from_millis(200),
        || async { extractions() == 1 },
    )
    .await;
    gate.add_permits(1);
    eventually("the extracted memory", 5, || async {
        a.get("/api/me/memories", As::Bearer(&token))
            .await
            .body
            .as_array()
            .is_some_and(|m| m.len() == 1)
    })
    .await;
    assert_eq!(extractions(), 1, "nor a late one");
}

#[tokio::test]
async fn an_unconfirmed_alarm_is_reminded_once_though_two_instances_watch_it() {
    let smtp = crate::smtp::SmtpServer::start(crate::smtp::Mode::Accept).await;
    let port = smtp.port.to_string();
    // 0.02 minutes: the reminder is due 1.2 s after the press.
    let settings = [
        ("SMTP_HOST", "127.0.0.1"),
        ("SMTP_PORT", port.as_str()),
        ("SMTP_SECURITY", "none"),
        ("EMERGENCY_ESCALATION_MINUTES", "0.02"),
    ];
    let a = TestApp::with().env(&settings).start().await;
    let b = TestApp::with().env(&settings).beside(&a).start().await;
    let (id, token) = a.create_user("anna").await;
    let contacts = json!({"emergency_contacts": ["tochter@family.example"]});
    let path = format!("/api/admin/users/{id}/prefs");
    assert_eq!(
        a.call(Method::PUT, &path, As::AdminKey, Some(contacts)).await.status,
        200
    );

    let pressed = b.call(Method::POST, "/api/emergency", As::Bearer(&token), None).await;
    assert_eq!(pressed.body["status"], "alerted", "{}", pressed.body);
    eventually("the reminder", 10, || async { smtp.mails().len() >= 2 }).await;
    // Each instance looks for due reminders every second, so the other one has looked within a second of this
    // reminder: one look and a margin for its mail to arrive.
    throughout("one reminder only", Duration::from_millis(1200), || async {
        smtp.mails().len() == 2
    })
    .await;
    let subjects: Vec<String> = smtp.mails().iter().map(|m| m.header("Subject")).collect();
    assert_eq!(subjects.len(), 2, "the alarm and one reminder: {subjects:?}");
    assert!(
        subjects[1].starts_with("ERINNERUNG") || subjects[1].starts_with("REMINDER"),
        "{subjects:?}"
    );
}

/// A reminder due on one instance reaches the person's page open on another within a second, through
/// PostgreSQL's LISTEN/NOTIFY; with SQLite (one instance) the other instance's page is not reached, and the
/// delivery says so.
#[tokio::test]
async fn a_reminder_due_on_one_instance_reaches_the_page_open_on_another() {
    let a = TestApp::with().env(&[("INSTANCE_ID", "a")]).start().await;
    let (id, token) = a.create_user("erika").await;
    let b = TestApp::with().env(&[("INSTANCE_ID", "b")]).beside(&a).start().await;
    let mut page = crate::ws::connect(&b, "/ws/chat", &token).await;
    let in_an_hour = jiff::Timestamp::now()
        .checked_add(jiff::SignedDuration::from_hours(1))
        .unwrap()
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string();
    let body = json!({"text": "Tabletten", "due_at": in_an_hour});
    let set = a
        .call(Method::POST, "/api/me/reminders", As::Bearer(&token), Some(body))
        .await;
    assert_eq!(set.status, 201, "{}", set.body);
    // A third instance's scheduler, its clock an hour ahead, delivers it: neither it nor `a` holds the page.
    let c = crate::reminders::scheduler_of(&a, &[("INSTANCE_ID", "c")]).await;
    let postgres = a.database_url.is_some();
    if postgres {
        eventually("b's page written down", 10, || async {
            (a.store.presence_elsewhere(&id, "c", 0).await.unwrap() == 1).then_some(())
        })
        .await;
    }
    let due = jiff::Timestamp::now().as_millisecond() + 3_600_000 + 1_000;
    let started = std::time::Instant::now();
    assert_eq!(voice_gateway::care::schedule::due(&c, due).await.unwrap(), 1);
    let listed = a.get("/api/me/reminders", As::Bearer(&token)).await.body;
    let delivery = listed["reminders"][0]["deliveries"][0].clone();
    if !postgres {
        assert_eq!(delivery["status"], "unreachable", "{listed}");
        return;
    }
    assert_eq!(
        (delivery["channel"].as_str(), delivery["status"].as_str()),
        (Some("page"), Some("delivered")),
        "{listed}"
    );
    let event = page.next_of("reminder").await;
    println!("due on c → event on b's page: {} ms", started.elapsed().as_millis());
    assert_eq!(
        (event["id"].clone(), event["text"].as_str()),
        (set.body["id"].clone(), Some("Tabletten"))
    );
}

/// A reminder pushed to a page open on another instance that never shows it (a tab on a locked phone, an
/// instance that stopped answering) goes on to the telephone: only a receipt counts as delivered. With SQLite
/// (one instance) the other instance's page is not reached at all, and the telephone rings the same.
#[tokio::test]
async fn a_reminder_a_page_on_another_instance_never_showed_goes_on_to_the_telephone() {
    let prefs = json!({"language": "de", "phone_mobile": "+4917011111"});
    let receipt = [("CARE_RECEIPT_SECONDS", "1"), ("PUBLIC_URL", "https://gw.example")];
    let mut env = receipt.to_vec();
    env.push(("INSTANCE_ID", "a"));
    let s = crate::emergency::setup(None, &env, prefs).await;
    let b = TestApp::with()
        .env(&[("INSTANCE_ID", "b")])
        .beside(&s.app)
        .start()
        .await;
    let mut page = crate::ws::connect_silent(&b, "/ws/chat", &s.token).await;
    let in_an_hour = jiff::Timestamp::now()
        .checked_add(jiff::SignedDuration::from_hours(1))
        .unwrap()
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string();
    let body = json!({"text": "Tabletten", "due_at": in_an_hour});
    let set = s
        .app
        .call(Method::POST, "/api/me/reminders", As::Bearer(&s.token), Some(body))
        .await;
    assert_eq!(set.status, 201, "{}", set.body);
    let postgres = s.app.database_url.is_some();
    if postgres {
        eventually("b's page written down", 10, || async {
            (s.app.store.presence_elsewhere(&s.id, "c", 0).await.unwrap() == 1).then_some(())
        })
        .await;
    }
    // A third instance, its clock an hour ahead, with Twilio as the others have it, delivers it.
    let twilio = [
        ("TWILIO_API_URL", s.twilio.base.as_str()),
        ("TWILIO_ACCOUNT_SID", "AC123"),
        ("TWILIO_AUTH_TOKEN", "twilio-secret"),
        ("TWILIO_FROM_NUMBER", "+4930000000"),
        ("INSTANCE_ID", "c"),
    ];
    let c = crate::reminders::scheduler_of(&s.app, &[&twilio[..], &receipt[..]].concat()).await;
    let due = jiff::Timestamp::now().as_millisecond() + 3_600_000 + 1_000;
    assert_eq!(voice_gateway::care::schedule::due(&c, due).await.unwrap(), 1);

    let tried = crate::reminders::deliveries(&s, 2).await;
    let page_tried = match postgres {
        true => "1 connection(s) took it, none showed it within 1 s",
        false => "no page or voice connection open",
    };
    assert_eq!(tried[0], ("page".into(), "unreachable".into(), page_tried.into()));
    assert_eq!(
        (tried[1].0.as_str(), tried[1].1.as_str()),
        ("phone", "delivered"),
        "{tried:?}"
    );
    if postgres {
        assert!(page.next_of("reminder").await["receipt"].is_string());
    }
}
