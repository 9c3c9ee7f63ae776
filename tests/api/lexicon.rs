use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{As, TestApp, spawn_app};

async fn entry(app: &TestApp, lang: &str, section: &str, key: &str) -> Option<Value> {
    let lex = app.get(&format!("/api/admin/lexicon/{lang}"), As::AdminKey).await;
    assert_eq!(lex.status, 200, "{}", lex.body);
    lex.body["sections"][section]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["key"] == key)
        .cloned()
}

#[tokio::test]
async fn a_written_entry_is_used_at_once_and_a_deleted_one_is_gone() {
    let app = spawn_app(&[]).await;
    assert_eq!(entry(&app, "de", "units", "km").await.unwrap()["source"], "builtin");
    assert!(
        entry(&app, "de", "terms", "Ollama").await.is_none(),
        "the lexicon is now cached"
    );

    let put = app
        .call(
            Method::PUT,
            "/api/admin/lexicon/de/terms",
            As::AdminKey,
            Some(json!({"key": "Ollama", "value": "O-lama"})),
        )
        .await;
    assert_eq!(put.status, 200, "{}", put.body);
    assert_eq!(
        entry(&app, "de", "terms", "Ollama").await.unwrap(),
        json!({"key": "Ollama", "value": "O-lama", "source": "custom"})
    );

    let replaced = app
        .call(
            Method::PUT,
            "/api/admin/lexicon/de/units",
            As::AdminKey,
            Some(json!({"key": "km", "value": "Kilometer|Kilometer"})),
        )
        .await;
    assert_eq!(replaced.status, 200);
    assert_eq!(entry(&app, "de", "units", "km").await.unwrap()["source"], "custom");

    let del = app
        .call(Method::DELETE, "/api/admin/lexicon/de/units?key=km", As::AdminKey, None)
        .await;
    assert_eq!(del.body, json!({"deleted": "km"}));
    assert_eq!(
        entry(&app, "de", "units", "km").await.unwrap()["source"],
        "builtin",
        "the default comes back"
    );
    app.call(Method::DELETE, "/api/admin/lexicon/de/units?key=km", As::AdminKey, None)
        .await
        .error(404);

    let slash = app
        .call(
            Method::PUT,
            "/api/admin/lexicon/pl/units",
            As::AdminKey,
            Some(json!({"key": "km/h", "value": "kilometrów na godzinę"})),
        )
        .await;
    assert_eq!(slash.status, 200, "every UI language is editable");
    let gone = app
        .call(
            Method::DELETE,
            "/api/admin/lexicon/pl/units?key=km%2Fh",
            As::AdminKey,
            None,
        )
        .await;
    assert_eq!(gone.body, json!({"deleted": "km/h"}));

    let audit = app.get("/api/admin/audit", As::AdminKey).await;
    let actions: Vec<&str> = audit
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        actions,
        [
            "lexicon.delete",
            "lexicon.put",
            "lexicon.delete",
            "lexicon.put",
            "lexicon.put"
        ]
    );
}

#[tokio::test]
async fn bad_entries_get_422_and_non_admins_403() {
    let app = spawn_app(&[]).await;
    let cases = [
        ("/api/admin/lexicon/de/terms", json!({"key": " ", "value": "x"}), "key"),
        (
            "/api/admin/lexicon/de/slang",
            json!({"key": "a", "value": "b"}),
            "section",
        ),
        ("/api/admin/lexicon/xx/terms", json!({"key": "a", "value": "b"}), "lang"),
        (
            "/api/admin/lexicon/de/terms",
            json!({"key": "a".repeat(65), "value": "b"}),
            "key",
        ),
        (
            "/api/admin/lexicon/de/terms",
            json!({"key": "a", "value": "b".repeat(257)}),
            "value",
        ),
    ];
    for (path, body, field) in cases {
        let r = app.call(Method::PUT, path, As::AdminKey, Some(body)).await;
        r.error(422);
        assert!(
            r.body["error"]["message"].as_str().unwrap().starts_with(field),
            "{}",
            r.body
        );
    }
    app.call(
        Method::PUT,
        "/api/admin/lexicon/de/terms",
        As::AdminKey,
        Some(json!({"key": "a"})),
    )
    .await
    .error(422);
    app.get("/api/admin/lexicon/xx", As::AdminKey).await.error(422);
    let (_, user) = app.create_user("yusuf").await;
    app.call(
        Method::PUT,
        "/api/admin/lexicon/de/terms",
        As::Bearer(&user),
        Some(json!({"key": "a", "value": "b"})),
    )
    .await
    .error(403);
    app.get("/api/admin/lexicon/de", As::Bearer(&user)).await.error(403);
    assert!(
        entry(&app, "de", "terms", "a").await.is_none(),
        "refused writes store nothing"
    );
}
