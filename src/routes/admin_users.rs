//! `/api/admin/users…`: creating, listing, renaming and deleting users, their tokens, prefs, memories
//! and history. Every write is audit-logged with the acting admin.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::app::{App, AppState};
use crate::auth::{self, Admin, token};
use crate::error::{ApiError, AppJson, Result};
use crate::prefs::{self, Writer};
use crate::routes::me::memory_text;
use crate::store::users::{NewUser, User};

/// Routes of the user administration.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/admin/users", get(list).post(create))
        .route("/api/admin/users/{user_id}", put(rename).delete(remove))
        .route("/api/admin/users/{user_id}/token", post(reset_token))
        .route(
            "/api/admin/users/{user_id}/memories",
            post(preset_memories).get(list_memories),
        )
        .route("/api/admin/users/{user_id}/prefs", put(set_prefs).get(get_prefs))
        .route("/api/admin/users/{user_id}/admin", put(set_admin))
        .route(
            "/api/admin/users/{user_id}/history",
            axum::routing::delete(delete_history),
        )
        .route("/api/admin/audit", get(audit_log))
}

/// Writes the audit entry of an admin action (to the log table and the service log).
pub async fn audit(app: &App, admin: &Admin, action: &str, target: &str, detail: Value) -> Result<()> {
    tracing::info!(target: "audit", actor = %admin.actor, action, target, %detail, "admin action");
    app.store
        .audit(&admin.actor, action, target, &detail.to_string())
        .await?;
    Ok(())
}

/// A user as the admin list shows it: flags, the language and web-search settings, and the profile.
async fn user_json(app: &App, user: &User) -> Result<Value> {
    let web_default = app.runtime.effective().await?.flag("web_search_enabled");
    user_json_with(app, user, web_default).await
}

async fn user_json_with(app: &App, user: &User, web_default: bool) -> Result<Value> {
    let prefs = app.store.prefs(&user.id).await?;
    Ok(json!({
        "id": user.id,
        "name": user.name,
        "display_name": user.display_name,
        "external_id": user.external_id,
        "is_admin": auth::is_admin(app, user),
        "is_admin_flag": user.is_admin,
        "is_anonymous": user.is_anonymous,
        "created_at": user.created_at,
        "allowed_languages": prefs.get("allowed_languages").cloned().unwrap_or(json!(crate::config::LANGUAGES)),
        "web_search_enabled": prefs.get("web_search_enabled").and_then(Value::as_bool).unwrap_or(web_default),
        "prefs": prefs,
    }))
}

async fn existing(app: &App, id: &str) -> Result<User> {
    app.store.user_by_id(id).await?.ok_or(ApiError::NotFound("user"))
}

async fn list(State(app): State<AppState>, _admin: Admin) -> Result<Json<Vec<Value>>> {
    let web_default = app.runtime.effective().await?.flag("web_search_enabled");
    let mut out = Vec::new();
    for user in app.store.list_users().await? {
        out.push(user_json_with(&app, &user, web_default).await?);
    }
    Ok(Json(out))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewUserBody {
    name: String,
    #[serde(default)]
    display_name: Option<String>,
    #[serde(default)]
    is_admin: bool,
    /// The single-sign-on identity this account belongs to (the header value), for an account created before
    /// the person first comes through the proxy.
    #[serde(default)]
    external_id: Option<String>,
}

/// An SSO identity: 1 to 200 printable characters.
fn external_id(raw: Option<&str>) -> Result<Option<String>> {
    let Some(id) = raw.map(str::trim).filter(|id| !id.is_empty()) else {
        return Ok(None);
    };
    if id.chars().count() > 200 || id.chars().any(char::is_control) {
        return Err(ApiError::invalid(
            "external_id",
            "expected at most 200 printable characters",
        ));
    }
    Ok(Some(id.to_string()))
}

/// A login name: 1 to 64 characters of letters, digits and `.-_@`.
fn user_name(raw: &str) -> Result<String> {
    let name = raw.trim();
    let valid = !name.is_empty()
        && name.chars().count() <= 64
        && name.chars().all(|c| c.is_alphanumeric() || "._-@".contains(c));
    if !valid || name == crate::store::users::ANONYMOUS_ID {
        return Err(ApiError::invalid(
            "name",
            "expected 1 to 64 letters, digits or . _ - @ (not \"anonymous\")",
        ));
    }
    Ok(name.to_string())
}

fn display_name(raw: &str) -> Result<String> {
    let name = raw.trim();
    if name.chars().count() > 100 || name.chars().any(char::is_control) {
        return Err(ApiError::invalid(
            "display_name",
            "expected at most 100 printable characters",
        ));
    }
    Ok(name.to_string())
}

async fn create(
    State(app): State<AppState>,
    admin: Admin,
    AppJson(body): AppJson<NewUserBody>,
) -> Result<(StatusCode, Json<Value>)> {
    let name = user_name(&body.name)?;
    let display = display_name(body.display_name.as_deref().unwrap_or_default())?;
    let external = external_id(body.external_id.as_deref())?;
    let token = token::generate();
    let user = app
        .store
        .create_user(NewUser {
            name: &name,
            display_name: &display,
            is_admin: body.is_admin,
            external_id: external.as_deref(),
            token_hash: Some(&token::hash(&token)),
        })
        .await?;
    audit(
        &app,
        &admin,
        "user.create",
        &user.id,
        json!({"name": name, "is_admin": body.is_admin, "external_id": external}),
    )
    .await?;
    let mut out = user_json(&app, &user).await?;
    out["token"] = json!(token);
    Ok((StatusCode::CREATED, Json(out)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RenameBody {
    display_name: String,
}

async fn rename(
    State(app): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    AppJson(body): AppJson<RenameBody>,
) -> Result<Json<Value>> {
    let display = display_name(&body.display_name)?;
    if !app.store.rename_user(&id, &display).await? {
        return Err(ApiError::NotFound("user"));
    }
    audit(&app, &admin, "user.rename", &id, json!({"display_name": display})).await?;
    Ok(Json(user_json(&app, &existing(&app, &id).await?).await?))
}

async fn remove(State(app): State<AppState>, admin: Admin, Path(id): Path<String>) -> Result<Json<Value>> {
    let user = existing(&app, &id).await?;
    if user.is_anonymous {
        return Err(ApiError::BadRequest {
            code: "anonymous_user",
            message: "the anonymous user cannot be deleted".into(),
        });
    }
    if !app.store.delete_user(&id).await? {
        return Err(ApiError::NotFound("user"));
    }
    audit(&app, &admin, "user.delete", &id, json!({"name": user.name})).await?;
    Ok(Json(json!({"deleted": id})))
}

async fn reset_token(State(app): State<AppState>, admin: Admin, Path(id): Path<String>) -> Result<Json<Value>> {
    existing(&app, &id).await?;
    let token = token::generate();
    app.store
        .replace_tokens(&id, &token::hash(&token), "admin reset")
        .await?;
    audit(&app, &admin, "user.token_reset", &id, json!({})).await?;
    Ok(Json(json!({"token": token})))
}

/// One memory (`{"text": …}`) or several (`{"texts": […]}`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PresetBody {
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    texts: Vec<String>,
}

async fn preset_memories(
    State(app): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    AppJson(body): AppJson<PresetBody>,
) -> Result<(StatusCode, Json<Value>)> {
    existing(&app, &id).await?;
    let texts: Vec<String> = body.text.into_iter().chain(body.texts).collect();
    if texts.is_empty() || texts.len() > 100 {
        return Err(ApiError::invalid("texts", "expected 1 to 100 memories"));
    }
    let checked: Vec<&str> = texts.iter().map(|t| memory_text(t)).collect::<Result<_>>()?;
    let cap = app.settings.memory.cap;
    if app.store.memories(&id).await?.len() + checked.len() > cap as usize {
        return Err(super::me::memories_full(cap));
    }
    let mut created = Vec::new();
    for text in checked {
        let memory = app.store.add_memory(&id, text, "admin", cap).await?;
        created.push(memory.ok_or_else(|| super::me::memories_full(cap))?);
    }
    audit(
        &app,
        &admin,
        "user.memories_preset",
        &id,
        json!({"count": created.len()}),
    )
    .await?;
    Ok((StatusCode::CREATED, Json(json!(created))))
}

async fn list_memories(State(app): State<AppState>, _admin: Admin, Path(id): Path<String>) -> Result<Json<Value>> {
    existing(&app, &id).await?;
    Ok(Json(json!(app.store.memories(&id).await?)))
}

async fn get_prefs(State(app): State<AppState>, _admin: Admin, Path(id): Path<String>) -> Result<Json<Value>> {
    existing(&app, &id).await?;
    Ok(Json(Value::Object(app.store.prefs(&id).await?)))
}

async fn set_prefs(
    State(app): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    AppJson(changes): AppJson<Map<String, Value>>,
) -> Result<Json<Value>> {
    existing(&app, &id).await?;
    let changes = prefs::validate(&changes, Writer::Admin)?;
    let keys: Vec<&String> = changes.keys().collect();
    audit(&app, &admin, "user.prefs", &id, json!({"keys": keys})).await?;
    Ok(Json(Value::Object(app.store.merge_prefs(&id, changes).await?)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AdminFlag {
    is_admin: bool,
}

async fn set_admin(
    State(app): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    AppJson(body): AppJson<AdminFlag>,
) -> Result<Json<Value>> {
    if !app.store.set_admin(&id, body.is_admin).await? {
        return Err(ApiError::NotFound("user"));
    }
    audit(&app, &admin, "user.admin_flag", &id, json!({"is_admin": body.is_admin})).await?;
    Ok(Json(user_json(&app, &existing(&app, &id).await?).await?))
}

async fn delete_history(State(app): State<AppState>, admin: Admin, Path(id): Path<String>) -> Result<Json<Value>> {
    existing(&app, &id).await?;
    let sessions = app.store.delete_history(&id).await?;
    audit(&app, &admin, "user.history_delete", &id, json!({"sessions": sessions})).await?;
    Ok(Json(json!({"user_id": id, "deleted_sessions": sessions})))
}

async fn audit_log(State(app): State<AppState>, _admin: Admin) -> Result<Json<Value>> {
    Ok(Json(json!(app.store.audit_entries(500).await?)))
}
