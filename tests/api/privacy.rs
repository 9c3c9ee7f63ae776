//! A person's data: deleting her leaves nothing that names her in any table (found from the schema itself, so
//! a table added later is checked too), while the residents she cared for keep their records with "deleted
//! user" where her name stood; every look at a resident's records by a carer or an admin is in her access log.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{As, TestApp};
use crate::emergency::{profile, setup};
use crate::fakes::Fake;
use crate::smtp::Mode;

const NAME: &str = "zelda7f3a";
const SHOWN: &str = "Zelda Quokka";

/// Zelda with a bit of everything: a turn, a memory, a reminder, a check-in, an alarm; Rita's carer who
/// read her day and set her check-in. Their ids and Zelda's token.
async fn zelda_and_rita(app: &TestApp) -> (String, String, String) {
    let (zelda, token) = app.create_user(NAME).await;
    let (rita, _) = app.create_user("rita").await;
    let named = json!({"display_name": SHOWN});
    assert_eq!(
        app.call(
            Method::PUT,
            &format!("/api/admin/users/{zelda}"),
            As::AdminKey,
            Some(named)
        )
        .await
        .status,
        200
    );
    app.set_prefs(&zelda, profile()).await;
    let me = As::Bearer(&token);
    let soon = (jiff::Timestamp::now() + jiff::SignedDuration::from_secs(3600)).to_string();
    let session = app.call(Method::POST, "/api/sessions", me, None).await.body["id"].clone();
    let writes = [
        (
            "/api/chat",
            json!({"text": "Wie spät ist es?", "text_only": true, "session_id": session}),
        ),
        ("/api/me/memories", json!({"text": "Ich trinke Tee mit Zitrone."})),
        ("/api/me/reminders", json!({"text": "die Tabletten", "due_at": soon})),
        ("/api/me/checkin", json!({})),
        ("/api/emergency", json!({})),
    ];
    for (path, body) in writes {
        let r = app.call(Method::POST, path, me, Some(body)).await;
        assert!(r.status.is_success(), "{path}: {}", r.body);
    }
    let carers = json!({"carers": [zelda]});
    let path = format!("/api/admin/users/{rita}/carers");
    assert_eq!(
        app.call(Method::PUT, &path, As::AdminKey, Some(carers)).await.status,
        200
    );
    assert_eq!(app.get(&format!("/api/carer/residents/{rita}"), me).await.status, 200);
    let window = json!({"window": "08:00-10:00"});
    let path = format!("/api/carer/residents/{rita}/checkin");
    assert_eq!(app.call(Method::PUT, &path, me, Some(window)).await.status, 200);
    (zelda, rita, token)
}

/// A gateway whose model answers, with the mail relay and Anna's profile of the help tests.
async fn with_a_model() -> (crate::emergency::Setup, Fake) {
    let llm = Fake::answering(&["Gleich drei."]).await;
    let url = llm.v1();
    let env = [("LOCAL_LLM_URL", url.as_str()), ("DEFAULT_LLM_PROVIDER", "local")];
    (setup(Some(Mode::Accept), &env, profile()).await, llm)
}

#[tokio::test]
async fn deleting_a_person_leaves_nothing_that_names_her_in_any_table_and_her_resident_keeps_hers() {
    let (s, _llm) = with_a_model().await;
    let app = &s.app;
    let (zelda, rita, token) = zelda_and_rita(app).await;
    for needle in [zelda.as_str(), NAME, SHOWN] {
        assert!(
            !app.store.mentions(needle).await.unwrap().is_empty(),
            "{needle} is stored before"
        );
    }
    let rita_log = app
        .get(&format!("/api/admin/users/{rita}/care"), As::AdminKey)
        .await
        .body;
    assert!(rita_log.to_string().contains(SHOWN), "{rita_log}");

    let r = app
        .call(Method::DELETE, &format!("/api/admin/users/{zelda}"), As::AdminKey, None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    for needle in [zelda.as_str(), NAME, SHOWN] {
        assert_eq!(app.store.mentions(needle).await.unwrap(), [], "{needle} is left");
    }
    app.get("/api/me", As::Bearer(&token)).await.error(401);
    // Rita keeps her check-in and her care log, with "deleted user" where Zelda's name stood.
    let care = app
        .get(&format!("/api/admin/users/{rita}/care"), As::AdminKey)
        .await
        .body;
    assert_eq!(care["checkin"]["window"], "08:00-10:00", "{care}");
    assert!(care.to_string().contains("deleted user"), "{care}");
    // The audit keeps what was done, not to or by whom.
    let audit = app.get("/api/admin/audit", As::AdminKey).await.body;
    let deleted = audit
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["target"] == "deleted user")
        .count();
    assert!(deleted >= 2, "{audit}");
}

/// The looks at `person`'s records as her own page reads them: `(reader, carer, what)`.
async fn looks(app: &TestApp, token: &str) -> Vec<(String, bool, String)> {
    let log = app.get("/api/me/access-log", As::Bearer(token)).await;
    assert_eq!(log.status, 200, "{}", log.body);
    let entries = log.body["accesses"].as_array().unwrap().clone();
    let text = |e: &Value, k: &str| e[k].as_str().unwrap().to_string();
    entries
        .iter()
        .map(|e| (text(e, "reader"), e["carer"] == true, text(e, "what")))
        .collect()
}

#[tokio::test]
async fn a_carers_and_an_admins_looks_are_in_the_residents_access_log_and_a_stranger_never_is() {
    let (app, rita_token, rita) = TestApp::with().user("rita").await;
    let (olga, olga_token) = app.create_user("olga").await;
    let (_, ben_token) = app.create_user("ben").await;
    let carers = json!({"carers": [olga]});
    let path = format!("/api/admin/users/{rita}/carers");
    assert_eq!(
        app.call(Method::PUT, &path, As::AdminKey, Some(carers)).await.status,
        200
    );
    // Rita's own reads are hers; a stranger (Ben) gets nothing and leaves no trace.
    assert_eq!(app.get("/api/me/reminders", As::Bearer(&rita_token)).await.status, 200);
    assert_eq!(
        app.get(&format!("/api/carer/residents/{rita}"), As::Bearer(&ben_token))
            .await
            .status,
        404
    );
    assert_eq!(looks(&app, &rita_token).await, []);

    // Olga's board read every few seconds is one look; her opening Rita's day and reminders are two more.
    for _ in 0..3 {
        assert_eq!(
            app.get("/api/carer/residents", As::Bearer(&olga_token)).await.status,
            200
        );
    }
    assert_eq!(
        app.get(&format!("/api/carer/residents/{rita}"), As::Bearer(&olga_token))
            .await
            .status,
        200
    );
    let reminders = format!("/api/carer/residents/{rita}/reminders");
    assert_eq!(app.get(&reminders, As::Bearer(&olga_token)).await.status, 200);
    assert_eq!(
        app.get(&format!("/api/admin/users/{rita}/prefs"), As::AdminKey)
            .await
            .status,
        200
    );
    let mut seen = looks(&app, &rita_token).await;
    seen.sort();
    let look = |reader: &str, carer, what: &str| (reader.to_string(), carer, what.to_string());
    assert_eq!(
        seen,
        [
            look("admin-key", false, "profile"),
            look("olga", true, "care_log"),
            look("olga", true, "day"),
            look("olga", true, "reminders")
        ]
    );
    let operator = app
        .get(&format!("/api/admin/users/{rita}/access-log"), As::AdminKey)
        .await;
    assert_eq!(
        operator.body["accesses"].as_array().unwrap().len(),
        4,
        "{}",
        operator.body
    );
}

/// The files of a ZIP archive, by name.
fn unzipped(bytes: &[u8]) -> std::collections::BTreeMap<String, String> {
    use std::io::Read;
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a ZIP archive");
    let mut files = std::collections::BTreeMap::new();
    for i in 0..archive.len() {
        let mut file = archive.by_index(i).unwrap();
        let mut text = String::new();
        file.read_to_string(&mut text).unwrap();
        files.insert(file.name().unwrap().to_string(), text);
    }
    files
}

#[tokio::test]
async fn her_export_holds_each_kind_of_her_data_no_secret_and_a_summary_in_german() {
    let (s, _llm) = with_a_model().await;
    let app = &s.app;
    let (zelda, rita, token) = zelda_and_rita(app).await;
    app.set_prefs(&zelda, json!({"language": "de"})).await;
    let r = app
        .request(Method::GET, "/api/me/export", As::Bearer(&token))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "application/zip");
    let bytes = r.bytes().await.unwrap();
    let files = unzipped(&bytes);
    let has = |file: &str, what: &str| {
        let text = files
            .get(&format!("tables/{file}.json"))
            .unwrap_or_else(|| panic!("no {file}: {:?}", files.keys()));
        assert!(text.contains(what), "{file} lacks {what}: {text}");
    };
    has("users", NAME);
    has("prefs", "Hauptstraße 5");
    has("messages", "Wie spät ist es?");
    has("memories", "Tee mit Zitrone");
    has("reminders", "die Tabletten");
    has("emergency_alarms", &zelda);
    has("emergency_deliveries", "tochter@family.example");
    has("carers", &zelda);
    has("access_log", &rita);
    has("sessions", &zelda);
    has("usage", &zelda);
    has("emergency_events", &zelda);
    for file in files.values() {
        assert!(
            !file.contains(&token) && !file.contains("token_hash") && !file.contains("\"hash\""),
            "{file}"
        );
    }
    assert!(!files.contains_key("tables/tokens.json"));
    let summary = &files["summary.html"];
    assert!(
        summary.contains("Meine Daten bei voice-gateway") && summary.contains(SHOWN),
        "{summary}"
    );

    // The operator's export for her is audited and in her access log.
    let path = format!("/api/admin/users/{zelda}/export");
    let by_admin = app.request(Method::GET, &path, As::AdminKey).send().await.unwrap();
    assert_eq!(by_admin.status(), 200);
    assert!(unzipped(&by_admin.bytes().await.unwrap()).contains_key("tables/messages.json"));
    let audit = app.get("/api/admin/audit", As::AdminKey).await.body;
    assert!(
        audit
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["action"] == "user.export" && e["target"] == zelda.as_str())
    );
    let seen = looks(app, &token).await;
    assert!(seen.contains(&("admin-key".into(), false, "export".into())), "{seen:?}");
}

/// A gateway binary whose default model is "the cloud" (`llm.cloud.example`, reached through `cloud`, a fake
/// standing in as the HTTP proxy on loopback) and whose local model is at `local_url`; its address.
async fn cloud_gateway(
    dir: &std::path::Path,
    cloud: &Fake,
    local: &Fake,
    local_url: String,
) -> (tokio::process::Child, String) {
    let stt = Fake::start().await;
    let port = crate::common::free_port();
    let env = [
        ("LISTEN_ADDR", format!("127.0.0.1:{port}")),
        ("AUTH_ENABLED", "true".into()),
        ("ADMIN_API_KEY", crate::common::ADMIN_KEY.into()),
        ("LOCAL_LLM_URL", local_url),
        ("DEFAULT_LLM_PROVIDER", "cloud".into()),
        ("CLOUD_LLM_URL", "http://llm.cloud.example/v1".into()),
        ("CLOUD_LLM_API_KEY", "sk-test".into()),
        ("HTTP_PROXY", cloud.base.clone()),
        ("NO_PROXY", "127.0.0.1,localhost".into()),
    ];
    let child = crate::browser::gateway_binary(dir, &stt, local, &env);
    let base = format!("http://127.0.0.1:{port}");
    crate::common::eventually("the gateway to listen", 30, || async {
        std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
    })
    .await;
    (child, base)
}

/// Makes a user with `prefs` through the admin API: their token.
async fn person(base: &str, name: &str, prefs: Value) -> String {
    let client = reqwest::Client::new();
    let key = ("X-Admin-Key", crate::common::ADMIN_KEY);
    let made: Value = client
        .post(format!("{base}/api/admin/users"))
        .header(key.0, key.1)
        .json(&json!({"name": name}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = made["id"].as_str().unwrap();
    let set = client
        .put(format!("{base}/api/admin/users/{id}/prefs"))
        .header(key.0, key.1)
        .json(&prefs)
        .send()
        .await
        .unwrap();
    assert_eq!(set.status(), 200);
    made["token"].as_str().unwrap().to_string()
}

/// A typed question of `token`'s person: status and body.
async fn ask(base: &str, token: &str) -> (u16, Value) {
    let r = reqwest::Client::new()
        .post(format!("{base}/api/chat"))
        .bearer_auth(token)
        .json(&json!({"text": "Wie spät ist es?", "text_only": true}))
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn her_words_stay_at_home_the_cloud_hears_nothing_of_hers_and_still_answers_another() {
    let (cloud, local) = (
        Fake::answering(&["From the cloud."]).await,
        Fake::answering(&["Hier, zu Hause."]).await,
    );
    let dir = tempfile::tempdir().unwrap();
    let (_gateway, base) = cloud_gateway(dir.path(), &cloud, &local, local.v1()).await;
    let anna = person(&base, "anna", json!({"local_only": true, "language": "de"})).await;
    let bob = person(&base, "bob", json!({})).await;
    let (status, answer) = ask(&base, &anna).await;
    assert_eq!(
        (status, answer["text"].as_str()),
        (200, Some("Hier, zu Hause.")),
        "{answer}"
    );
    assert!(cloud.requests("/v1/chat/completions").is_empty(), "the cloud heard her");
    let (status, answer) = ask(&base, &bob).await;
    assert_eq!(
        (status, answer["text"].as_str()),
        (200, Some("From the cloud.")),
        "{answer}"
    );
    assert_eq!(cloud.requests("/v1/chat/completions").len(), 1);
    // Her page says where her words go; his says the model is outside.
    let me = |token: &str| {
        reqwest::Client::new()
            .get(format!("{base}/api/me"))
            .bearer_auth(token.to_string())
            .send()
    };
    let hers: Value = me(&anna).await.unwrap().json().await.unwrap();
    assert_eq!(hers["words_go"]["local_only"], true, "{hers}");
    assert_eq!(
        (
            &hers["words_go"]["model"]["provider"],
            &hers["words_go"]["model"]["local"]
        ),
        (&json!("local"), &json!(true))
    );
    assert_eq!(hers["words_go"]["search"], Value::Null);
    let his: Value = me(&bob).await.unwrap().json().await.unwrap();
    assert_eq!(
        (
            &his["words_go"]["model"]["provider"],
            &his["words_go"]["model"]["local"]
        ),
        (&json!("cloud"), &json!(false))
    );

    // Where no model runs at home, she is told so in her language, and nothing is sent.
    let elsewhere = tempfile::tempdir().unwrap();
    let (_other, base) = cloud_gateway(
        elsewhere.path(),
        &cloud,
        &local,
        "http://llm.elsewhere.example/v1".into(),
    )
    .await;
    let anna = person(&base, "anna", json!({"local_only": true, "language": "de"})).await;
    let (status, answer) = ask(&base, &anna).await;
    assert_eq!(status, 502, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("bleiben auf dem Rechner"),
        "{answer}"
    );
    assert_eq!(
        cloud.requests("/v1/chat/completions").len(),
        1,
        "nothing more reached the cloud"
    );
}
