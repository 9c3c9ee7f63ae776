//! `/api/admin/lexicon/{lang}…`: the pronunciation lexicon editor (all eight UI languages).
//! Every write is audit-logged and flushes the lexicon cache, so the next turn uses it.

use axum::extract::{Path, RawQuery, State};
use std::collections::BTreeMap;

use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::me::Deleted;
use super::openapi::ADMIN;

use crate::app::AppState;
use crate::auth::{Admin, query_param};
use crate::error::{ApiError, AppJson, Result};
use crate::routes::audit::{Action, audit};
use crate::text::lexicon::{self, EntryError, Origin, Section};

/// Routes of the lexicon editor.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(show))
        .routes(routes!(upsert, remove))
}

/// A language's lexicon.
#[derive(Serialize, ToSchema)]
struct Lexicon {
    lang: String,
    /// `abbreviations`, `units` and `terms`, each with its entries.
    sections: BTreeMap<&'static str, Vec<Entry>>,
}

/// One entry of a section.
#[derive(Serialize, ToSchema)]
#[schema(as = LexiconEntry)]
struct Entry {
    key: String,
    value: String,
    /// `builtin` or `custom`.
    source: &'static str,
}

/// An entry as stored.
#[derive(Serialize, ToSchema)]
struct Stored {
    lang: String,
    section: &'static str,
    key: String,
    value: String,
}

impl From<EntryError> for ApiError {
    fn from(err: EntryError) -> Self {
        ApiError::invalid(err.field, err.problem)
    }
}

/// Pronunciation lexicon of a language: sections with builtin and custom entries.
#[utoipa::path(get, path = "/api/admin/lexicon/{lang}", tag = ADMIN, responses((status = 200, body = Lexicon)))]
async fn show(State(app): State<AppState>, _admin: Admin, Path(lang): Path<String>) -> Result<Json<Lexicon>> {
    lexicon::check_place(&lang, "terms")?;
    let lex = app.lexicon(&lang).await?;
    let mut sections = BTreeMap::new();
    for section in Section::ALL {
        let entries = lex
            .entries(section)
            .map(|(key, value, origin)| Entry {
                key: key.to_string(),
                value: value.to_string(),
                source: if origin == Origin::Builtin { "builtin" } else { "custom" },
            })
            .collect();
        sections.insert(section.as_str(), entries);
    }
    Ok(Json(Lexicon { lang, sections }))
}

/// An entry to add or replace.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct EntryBody {
    #[schema(max_length = 64)]
    key: String,
    /// Units may give "singular|plural".
    #[schema(max_length = 256)]
    value: String,
}

/// Adds or replaces an entry (section abbreviations, units or terms).
#[utoipa::path(put, path = "/api/admin/lexicon/{lang}/{section}", tag = ADMIN, request_body = EntryBody,
    responses((status = 200, body = Stored)))]
async fn upsert(
    State(app): State<AppState>,
    admin: Admin,
    Path((lang, section)): Path<(String, String)>,
    AppJson(body): AppJson<EntryBody>,
) -> Result<Json<Stored>> {
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
        &target,
        Action::LexiconPut {
            key: &key,
            value: &value,
        },
    )
    .await?;
    Ok(Json(Stored {
        lang,
        section: section.as_str(),
        key,
        value,
    }))
}

/// Deletes a custom entry: `?key=<key>`; built-in entries come back.
#[utoipa::path(delete, path = "/api/admin/lexicon/{lang}/{section}", tag = ADMIN,
    params(("key" = String, Query, description = "the entry's key")), responses((status = 200, body = Deleted)))]
async fn remove(
    State(app): State<AppState>,
    admin: Admin,
    Path((lang, section)): Path<(String, String)>,
    RawQuery(query): RawQuery,
) -> Result<Json<Deleted>> {
    let section = lexicon::check_place(&lang, &section)?;
    let key = query_param(query.as_deref(), "key")
        .ok_or_else(|| ApiError::invalid("key", "query parameter key is required"))?;
    if !app.store.delete_lexicon_entry(&lang, section.as_str(), &key).await? {
        return Err(ApiError::NotFound("custom lexicon entry"));
    }
    app.lexicons.flush();
    let target = format!("{lang}/{}", section.as_str());
    audit(&app, &admin, &target, Action::LexiconDelete { key: &key }).await?;
    Ok(Json(Deleted { deleted: key }))
}
