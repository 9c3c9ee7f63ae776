//! `/api/admin/lexicon/{lang}…`: the pronunciation lexicon editor (all eight UI languages).
//! Every write is audit-logged and flushes the lexicon cache, so the next turn uses it.

use axum::extract::{Path, RawQuery, State};
use axum::routing::{get, put};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::app::AppState;
use crate::auth::{Admin, query_param};
use crate::error::{ApiError, AppJson, Result};
use crate::routes::admin_users::audit;
use crate::text::lexicon::{self, EntryError, Origin, Section};

/// Routes of the lexicon editor.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/admin/lexicon/{lang}", get(show))
        .route("/api/admin/lexicon/{lang}/{section}", put(upsert).delete(remove))
}

impl From<EntryError> for ApiError {
    fn from(err: EntryError) -> Self {
        ApiError::invalid(err.field, err.problem)
    }
}

async fn show(State(app): State<AppState>, _admin: Admin, Path(lang): Path<String>) -> Result<Json<Value>> {
    lexicon::check_place(&lang, "terms")?;
    let lex = app.lexicon(&lang).await?;
    let mut sections = Map::new();
    for section in Section::ALL {
        let entries: Vec<Value> = lex
            .entries(section)
            .map(|(key, value, origin)| {
                json!({"key": key, "value": value, "source": if origin == Origin::Builtin { "builtin" } else { "custom" }})
            })
            .collect();
        sections.insert(section.as_str().to_string(), Value::from(entries));
    }
    Ok(Json(json!({"lang": lang, "sections": sections})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryBody {
    key: String,
    value: String,
}

async fn upsert(
    State(app): State<AppState>,
    admin: Admin,
    Path((lang, section)): Path<(String, String)>,
    AppJson(body): AppJson<EntryBody>,
) -> Result<Json<Value>> {
    let section = lexicon::check_place(&lang, &section)?;
    let (key, value) = lexicon::check_entry(&body.key, &body.value)?;
    app.store
        .put_lexicon_entry(&lang, section.as_str(), &key, &value)
        .await?;
    app.lexicons.flush();
    let target = format!("{lang}/{}", section.as_str());
    audit(
        &app,
        &admin,
        "lexicon.put",
        &target,
        json!({"key": key, "value": value}),
    )
    .await?;
    Ok(Json(
        json!({"lang": lang, "section": section.as_str(), "key": key, "value": value}),
    ))
}

async fn remove(
    State(app): State<AppState>,
    admin: Admin,
    Path((lang, section)): Path<(String, String)>,
    RawQuery(query): RawQuery,
) -> Result<Json<Value>> {
    let section = lexicon::check_place(&lang, &section)?;
    let key = query_param(query.as_deref(), "key")
        .ok_or_else(|| ApiError::invalid("key", "query parameter key is required"))?;
    if !app.store.delete_lexicon_entry(&lang, section.as_str(), &key).await? {
        return Err(ApiError::NotFound("custom lexicon entry"));
    }
    app.lexicons.flush();
    let target = format!("{lang}/{}", section.as_str());
    audit(&app, &admin, "lexicon.delete", &target, json!({"key": key})).await?;
    Ok(Json(json!({"deleted": key})))
}
