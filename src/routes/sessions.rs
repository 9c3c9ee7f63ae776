//! `/api/sessions`: the caller's conversations and their per-session route overrides.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::me::Deleted;
use super::openapi::USER;
use crate::app::AppState;
use crate::auth::CurrentUser;
use crate::error::{ApiError, AppJson, Result};
use crate::prefs;
use crate::store::sessions::{Message, Session};
use crate::turn::owned;

/// Longest session title.
const TITLE_MAX_CHARS: usize = 200;

/// Routes of `/api/sessions`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(show, update, remove))
}

/// Body of `POST` and `PUT`: both fields optional.
#[derive(Deserialize, Default, ToSchema)]
#[serde(deny_unknown_fields)]
struct SessionBody {
    title: Option<String>,
    /// stt_provider, llm_provider, tts_provider, llm_model, voice, language.
    #[schema(value_type = Option<Object>)]
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

/// A session as clients see it; with its messages when one session is shown.
#[derive(Serialize, ToSchema)]
pub struct SessionView {
    id: String,
    title: String,
    #[schema(value_type = Object)]
    overrides: Map<String, Value>,
    created_at: i64,
    updated_at: i64,
    message_count: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    messages: Option<Vec<Message>>,
}

impl SessionView {
    /// The session without its messages.
    pub fn of(s: &Session) -> Self {
        Self {
            id: s.id.clone(),
            title: s.title.clone(),
            overrides: s.overrides_map(),
            created_at: s.created_at,
            updated_at: s.updated_at,
            message_count: s.message_count,
            messages: None,
        }
    }

    /// The session with its messages.
    pub fn with_messages(s: &Session, messages: Vec<Message>) -> Self {
        Self {
            messages: Some(messages),
            ..Self::of(s)
        }
    }
}

/// The id of something created.
#[derive(Serialize, ToSchema)]
pub struct Created {
    pub id: String,
}

/// The caller's sessions.
#[utoipa::path(get, path = "/api/sessions", tag = USER, responses((status = 200, body = Vec<SessionView>)))]
async fn list(State(app): State<AppState>, caller: CurrentUser) -> Result<Json<Vec<SessionView>>> {
    let sessions = app.store.sessions(&caller.user.id).await?;
    Ok(Json(sessions.iter().map(SessionView::of).collect()))
}

/// New session (title and overrides optional; the body may be left out).
#[utoipa::path(post, path = "/api/sessions", tag = USER, request_body(content = Option<SessionBody>),
    responses((status = 201, body = Created),
        (status = 409, description = "at SESSIONS_PER_USER conversations, none of them empty")))]
async fn create(
    State(app): State<AppState>,
    caller: CurrentUser,
    body: Option<AppJson<SessionBody>>,
) -> Result<(StatusCode, Json<Created>)> {
    let body = body.map(|AppJson(b)| b).unwrap_or_default();
    let title = title(body.title)?.unwrap_or_default();
    let overrides = prefs::validate_route(&body.overrides.unwrap_or_default())?;
    // Bounded: a client opening conversations in a loop removes its own empty ones, then is refused.
    if !app
        .store
        .room_for_session(&caller.user.id, app.settings.limits.sessions_per_user)
        .await?
    {
        return Err(ApiError::Conflict(format!(
            "at most {} conversations: delete some first",
            app.settings.limits.sessions_per_user
        )));
    }
    let id = app.store.create_session(&caller.user.id, &title, &overrides).await?;
    Ok((StatusCode::CREATED, Json(Created { id })))
}

/// One session with its messages.
#[utoipa::path(get, path = "/api/sessions/{session_id}", tag = USER,
    responses((status = 200, body = SessionView), (status = 404, description = "no such session of the caller's (another user's answers the same)")))]
async fn show(State(app): State<AppState>, caller: CurrentUser, Path(id): Path<String>) -> Result<Json<SessionView>> {
    let session = owned(&app, &caller.user, &id).await?;
    let messages = app.store.messages(&id).await?;
    Ok(Json(SessionView::with_messages(&session, messages)))
}

/// Renames a session or changes its overrides.
#[utoipa::path(put, path = "/api/sessions/{session_id}", tag = USER, request_body = SessionBody,
    responses((status = 200, body = SessionView), (status = 404, description = "no such session of the caller's (another user's answers the same)")))]
async fn update(
    State(app): State<AppState>,
    caller: CurrentUser,
    Path(id): Path<String>,
    AppJson(body): AppJson<SessionBody>,
) -> Result<Json<SessionView>> {
    let session = owned(&app, &caller.user, &id).await?;
    let title = title(body.title)?.unwrap_or(session.title.clone());
    let overrides = match body.overrides {
        Some(changes) => prefs::validate_route(&changes)?,
        None => session.overrides_map(),
    };
    app.store.update_session(&id, &title, &overrides).await?;
    let updated = app.store.session(&id).await?.ok_or(ApiError::NotFound("session"))?;
    Ok(Json(SessionView::of(&updated)))
}

/// Deletes a session with its messages.
#[utoipa::path(delete, path = "/api/sessions/{session_id}", tag = USER,
    responses((status = 200, body = Deleted), (status = 404, description = "no such session of the caller's (another user's answers the same)")))]
async fn remove(State(app): State<AppState>, caller: CurrentUser, Path(id): Path<String>) -> Result<Json<Deleted>> {
    owned(&app, &caller.user, &id).await?;
    app.store.delete_session(&id).await?;
    Ok(Json(Deleted { deleted: id }))
}
