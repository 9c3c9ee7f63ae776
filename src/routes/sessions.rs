//! `/api/sessions`: the caller's conversations and their per-session route overrides.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::app::AppState;
use crate::auth::CurrentUser;
use crate::error::{ApiError, AppJson, Result};
use crate::prefs;
use crate::store::sessions::Session;
use crate::turn::owned;

/// Longest session title.
const TITLE_MAX_CHARS: usize = 200;

/// Routes of `/api/sessions`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/sessions", get(list).post(create))
        .route("/api/sessions/{session_id}", get(show).put(update).delete(remove))
}

/// Body of `POST` and `PUT`: both fields optional.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SessionBody {
    title: Option<String>,
    overrides: Option<Map<String, Value>>,
}

fn title(raw: Option<String>) -> Result<Option<String>> {
    match raw.map(|t| t.trim().to_string()) {
        Some(t) if t.chars().count() > TITLE_MAX_CHARS => Err(ApiError::invalid(
            "title",
            format!("longer than {TITLE_MAX_CHARS} characters"),
        )),
        other => Ok(other),
    }
}

/// A session as clients see it.
pub fn session_json(s: &Session) -> Value {
    json!({
        "id": s.id,
        "title": s.title,
        "overrides": s.overrides_map(),
        "created_at": s.created_at,
        "updated_at": s.updated_at,
        "message_count": s.message_count,
    })
}

async fn list(State(app): State<AppState>, caller: CurrentUser) -> Result<Json<Vec<Value>>> {
    let sessions = app.store.sessions(&caller.user.id).await?;
    Ok(Json(sessions.iter().map(session_json).collect()))
}

async fn create(
    State(app): State<AppState>,
    caller: CurrentUser,
    body: Option<AppJson<SessionBody>>,
) -> Result<(StatusCode, Json<Value>)> {
    let body = body.map(|AppJson(b)| b).unwrap_or_default();
    let title = title(body.title)?.unwrap_or_default();
    let overrides = prefs::validate_route(&body.overrides.unwrap_or_default())?;
    let id = app.store.create_session(&caller.user.id, &title, &overrides).await?;
    Ok((StatusCode::CREATED, Json(json!({"id": id}))))
}

async fn show(State(app): State<AppState>, caller: CurrentUser, Path(id): Path<String>) -> Result<Json<Value>> {
    let session = owned(&app, &caller.user, &id).await?;
    let mut body = session_json(&session);
    body["messages"] = json!(app.store.messages(&id).await?);
    Ok(Json(body))
}

async fn update(
    State(app): State<AppState>,
    caller: CurrentUser,
    Path(id): Path<String>,
    AppJson(body): AppJson<SessionBody>,
) -> Result<Json<Value>> {
    let session = owned(&app, &caller.user, &id).await?;
    let title = title(body.title)?.unwrap_or(session.title.clone());
    let overrides = match body.overrides {
        Some(changes) => prefs::validate_route(&changes)?,
        None => session.overrides_map(),
    };
    app.store.update_session(&id, &title, &overrides).await?;
    let updated = app.store.session(&id).await?.ok_or(ApiError::NotFound("session"))?;
    Ok(Json(session_json(&updated)))
}

async fn remove(State(app): State<AppState>, caller: CurrentUser, Path(id): Path<String>) -> Result<Json<Value>> {
    owned(&app, &caller.user, &id).await?;
    app.store.delete_session(&id).await?;
    Ok(Json(json!({"deleted": id})))
}
