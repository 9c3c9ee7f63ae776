//! The caller's own account: `/api/me`, prefs and memories.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{delete, get, put};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::app::AppState;
use crate::auth::CurrentUser;
use crate::error::{ApiError, AppJson, Result};
use crate::prefs::{self, Writer};
use crate::store::memories::Memory;

/// Longest memory text accepted.
pub const MEMORY_MAX_CHARS: usize = 1000;

/// Routes of `/api/me`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/me", get(me))
        .route("/api/me/prefs", put(put_prefs).get(get_prefs))
        .route("/api/me/memories", get(list_memories).post(add_memory))
        .route("/api/me/memories/{memory_id}", delete(delete_memory))
}

async fn me(State(app): State<AppState>, caller: CurrentUser) -> Result<Json<Value>> {
    let prefs = app.store.prefs(&caller.user.id).await?;
    let u = &caller.user;
    Ok(Json(json!({
        "id": u.id,
        "name": u.name,
        "display_name": u.display_name,
        "external_id": u.external_id,
        "is_admin": caller.is_admin,
        "is_anonymous": u.is_anonymous,
        "created_at": u.created_at,
        "prefs": prefs,
        "sso_logout_url": app.settings.sso_logout_url,
    })))
}

async fn get_prefs(State(app): State<AppState>, caller: CurrentUser) -> Result<Json<Map<String, Value>>> {
    Ok(Json(app.store.prefs(&caller.user.id).await?))
}

async fn put_prefs(
    State(app): State<AppState>,
    caller: CurrentUser,
    AppJson(changes): AppJson<Map<String, Value>>,
) -> Result<Json<Map<String, Value>>> {
    let changes = prefs::validate(&changes, Writer::User)?;
    Ok(Json(app.store.merge_prefs(&caller.user.id, changes).await?))
}

/// Body of a new memory.
#[derive(Deserialize)]
pub struct NewMemory {
    /// The fact to remember.
    pub text: String,
}

/// Checks a memory text: not empty, not longer than [`MEMORY_MAX_CHARS`].
pub fn memory_text(text: &str) -> Result<&str> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::invalid("text", "must not be empty"));
    }
    if text.chars().count() > MEMORY_MAX_CHARS {
        return Err(ApiError::invalid(
            "text",
            format!("longer than {MEMORY_MAX_CHARS} characters"),
        ));
    }
    Ok(text)
}

async fn list_memories(State(app): State<AppState>, caller: CurrentUser) -> Result<Json<Vec<Memory>>> {
    Ok(Json(app.store.memories(&caller.user.id).await?))
}

/// The answer when a user has `MEMORIES_MAX` memories.
pub fn memories_full(cap: u32) -> ApiError {
    ApiError::Conflict(format!("the limit of {cap} memories is reached; delete one first"))
}

async fn add_memory(
    State(app): State<AppState>,
    caller: CurrentUser,
    AppJson(body): AppJson<NewMemory>,
) -> Result<(StatusCode, Json<Memory>)> {
    let cap = app.settings.memory.cap;
    let memory = app
        .store
        .add_memory(&caller.user.id, memory_text(&body.text)?, "user", cap)
        .await?
        .ok_or_else(|| memories_full(cap))?;
    Ok((StatusCode::CREATED, Json(memory)))
}

async fn delete_memory(
    State(app): State<AppState>,
    caller: CurrentUser,
    Path(memory_id): Path<String>,
) -> Result<Json<Value>> {
    if app.store.delete_memory(&caller.user.id, &memory_id).await? {
        Ok(Json(json!({"deleted": memory_id})))
    } else {
        Err(ApiError::NotFound("memory"))
    }
}
