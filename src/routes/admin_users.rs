//! `/api/admin/users…`: creating, listing, renaming and deleting users, their tokens, prefs, memories
//! and history. Every write is audit-logged with the acting admin.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::me::{Deleted, PREFS_BODY};
use super::openapi::ADMIN;
use crate::config::keys::Key;
use crate::store::audit::AuditEntry;
use crate::store::memories::Memory;

use super::audit::{Action, audit};
use crate::app::{App, AppState};
use crate::auth::{self, Admin, names, token};
use crate::error::{ApiError, AppJson, AppQuery, Result};
use crate::links;
use crate::prefs::{self, Prefs, Writer};
use crate::routes::me::memory_text;
use crate::store::users::{NewUser, User};
use crate::tls::OverTls;

/// Routes of the user administration.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(name_for))
        .routes(routes!(rename, remove))
        .routes(routes!(reset_token))
        .routes(routes!(preset_memories, list_memories))
        .routes(routes!(set_prefs, get_prefs))
        .routes(routes!(set_admin))
        .routes(routes!(delete_history))
        .routes(routes!(audit_log))
}

/// A user as the admin list shows it: flags, the language and web-search settings, and the profile.
#[derive(Serialize, ToSchema)]
struct UserView {
    id: String,
    name: String,
    display_name: String,
    external_id: Option<String>,
    /// Admin by flag or by ADMIN_USERS.
    is_admin: bool,
    /// The persistent flag alone.
    is_admin_flag: bool,
    is_anonymous: bool,
    /// Epoch ms.
    created_at: i64,
    allowed_languages: Vec<String>,
    /// The user's choice, else the global setting.
    web_search_enabled: bool,
    prefs: Prefs,
    /// The person's pace: the end-of-turn patience in use on their voice channels.
    pace: PaceView,
    /// Only in the answer to a create: the personal token, shown once.
    #[serde(skip_serializing_if = "Option::is_none")]
    token: Option<String>,
    /// With the token: the personal link (on HTTPS when it is on).
    #[serde(skip_serializing_if = "Option::is_none")]
    link: Option<String>,
    /// With the token: the link as an SVG QR code, to scan with the person's phone.
    #[serde(skip_serializing_if = "Option::is_none")]
    qr_svg: Option<String>,
}

/// A user's pace as the admin panel shows it beside them.
#[derive(Serialize, ToSchema)]
struct PaceView {
    /// The prefs key `turn_patience` (`auto` when not set).
    setting: String,
    /// The pause after which their turn is first judged over, in ms.
    patience_ms: u32,
    /// Continuations joined to a question cut off at a pause (each lengthened the learned patience).
    joined: i64,
}

async fn user_view(app: &App, user: User) -> Result<UserView> {
    let web_default = app.runtime.effective().await?.flag(Key::WebSearchEnabled);
    user_view_with(app, user, web_default).await
}

async fn user_view_with(app: &App, user: User, web_default: bool) -> Result<UserView> {
    let prefs = app.store.prefs(&user.id).await?;
    let learned = app.store.pace(&user.id).await?;
    let setting = prefs.turn_patience.as_deref();
    let pace = PaceView {
        setting: setting.unwrap_or("auto").to_string(),
        patience_ms: crate::listen::pace::in_use(&app.settings.voice, setting, learned.map(|l| l.patience_ms)),
        joined: learned.map_or(0, |l| l.joined),
    };
    Ok(UserView {
        pace,
        is_admin: auth::is_admin(app, &user),
        allowed_languages: prefs
            .allowed_languages
            .clone()
            .unwrap_or_else(|| crate::config::languages().iter().map(|l| l.to_string()).collect()),
        web_search_enabled: prefs.web_search_enabled.unwrap_or(web_default),
        id: user.id,
        name: user.name,
        display_name: user.display_name,
        external_id: user.external_id,
        is_admin_flag: user.is_admin,
        is_anonymous: user.is_anonymous,
        created_at: user.created_at,
        prefs,
        token: None,
        link: None,
        qr_svg: None,
    })
}

async fn existing(app: &App, id: &str) -> Result<User> {
    app.store.user_by_id(id).await?.ok_or(ApiError::NotFound("user"))
}

/// Users with is_admin, allowed_languages, web_search_enabled and profile.
#[utoipa::path(get, path = "/api/admin/users", tag = ADMIN, responses((status = 200, body = Vec<UserView>)))]
async fn list(State(app): State<AppState>, _admin: Admin) -> Result<Json<Vec<UserView>>> {
    let web_default = app.runtime.effective().await?.flag(Key::WebSearchEnabled);
    let mut out = Vec::new();
    for user in app.store.list_users().await? {
        out.push(user_view_with(&app, user, web_default).await?);
    }
    Ok(Json(out))
}

/// A user to create.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct NewUserBody {
    /// The login name; when absent, derived from `display_name` (`Frau Weiß` → `frau.weiss`, made unique).
    #[serde(default)]
    name: Option<String>,
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

/// Creates a user; the answer holds the token once.
#[utoipa::path(post, path = "/api/admin/users", tag = ADMIN, request_body = NewUserBody,
    responses((status = 201, body = UserView), (status = 409, description = "the name is taken")))]
async fn create(
    State(app): State<AppState>,
    admin: Admin,
    headers: HeaderMap,
    over_tls: Option<Extension<OverTls>>,
    AppJson(body): AppJson<NewUserBody>,
) -> Result<(StatusCode, Json<UserView>)> {
    let display = display_name(body.display_name.as_deref().unwrap_or_default())?;
    let name = match body.name.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
        Some(name) => names::checked(name)?,
        None if !display.is_empty() => names::free(&app.store, &display).await?,
        None => {
            return Err(ApiError::invalid(
                "name",
                "expected a name, or a display_name to derive it from",
            ));
        }
    };
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
    let created = Action::UserCreate {
        name: &name,
        is_admin: body.is_admin,
        external_id: external.as_deref(),
    };
    audit(&app, &admin, &user.id, created).await?;
    crate::admins::help_changed(&app, &user.id).await;
    let mut out = user_view(&app, user).await?;
    let (link, qr_svg) = issued_link(&app, &headers, over_tls, &token);
    (out.link, out.qr_svg, out.token) = (Some(link), qr_svg, Some(token));
    Ok((StatusCode::CREATED, Json(out)))
}

/// The name a person is shown by, to derive a login name from.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
struct NameFor {
    display_name: String,
}

/// A login name.
#[derive(Serialize, ToSchema)]
struct LoginName {
    name: String,
}

/// The free login name a display name gives (`Frau Weiß` → `frau.weiss`, `frau.weiss.2` when taken): what a
/// create with only `display_name` would choose now; the panel shows it, to be kept or changed.
#[utoipa::path(get, path = "/api/admin/users/name-for", tag = ADMIN, params(NameFor),
    responses((status = 200, body = LoginName)))]
async fn name_for(
    State(app): State<AppState>,
    _admin: Admin,
    AppQuery(q): AppQuery<NameFor>,
) -> Result<Json<LoginName>> {
    let display = display_name(&q.display_name)?;
    Ok(Json(LoginName {
        name: names::free(&app.store, &display).await?,
    }))
}

/// A new display name.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct RenameBody {
    display_name: String,
}

/// Sets the display name.
#[utoipa::path(put, path = "/api/admin/users/{user_id}", tag = ADMIN, request_body = RenameBody,
    responses((status = 200, body = UserView)))]
async fn rename(
    State(app): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    AppJson(body): AppJson<RenameBody>,
) -> Result<Json<UserView>> {
    let display = display_name(&body.display_name)?;
    if !app.store.rename_user(&id, &display).await? {
        return Err(ApiError::NotFound("user"));
    }
    audit(&app, &admin, &id, Action::UserRename { display_name: &display }).await?;
    Ok(Json(user_view(&app, existing(&app, &id).await?).await?))
}

/// Deletes a user and all of their data (400 for the anonymous user).
#[utoipa::path(delete, path = "/api/admin/users/{user_id}", tag = ADMIN,
    responses((status = 200, body = Deleted), (status = 400, description = "the anonymous user")))]
async fn remove(State(app): State<AppState>, admin: Admin, Path(id): Path<String>) -> Result<Json<Deleted>> {
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
    // That somebody was deleted is kept; who it was is not (issue 75).
    let deleted = crate::store::forget::DELETED;
    audit(&app, &admin, deleted, Action::UserDelete {}).await?;
    crate::admins::help_changed(&app, &id).await;
    Ok(Json(Deleted { deleted: id }))
}

/// The personal link of a token just issued, as the admin's request sees the gateway, and its QR code.
fn issued_link(
    app: &App,
    headers: &HeaderMap,
    over_tls: Option<Extension<OverTls>>,
    token: &str,
) -> (String, Option<String>) {
    let link = links::personal(&links::base(&app.settings, headers, over_tls.is_some()), token);
    let qr_svg = links::svg(&link);
    (link, qr_svg)
}

/// A fresh personal token, its link and the link as an SVG QR code.
#[derive(Serialize, ToSchema)]
struct NewToken {
    token: String,
    /// The personal link (on HTTPS when it is on).
    link: String,
    /// The link as an SVG QR code, to scan with the person's phone.
    qr_svg: Option<String>,
}

/// Issues a new token; the old ones stop working at once.
#[utoipa::path(post, path = "/api/admin/users/{user_id}/token", tag = ADMIN, responses((status = 200, body = NewToken)))]
async fn reset_token(
    State(app): State<AppState>,
    admin: Admin,
    headers: HeaderMap,
    over_tls: Option<Extension<OverTls>>,
    Path(id): Path<String>,
) -> Result<Json<NewToken>> {
    existing(&app, &id).await?;
    let token = token::generate();
    app.store
        .replace_tokens(&id, &token::hash(&token), "admin reset")
        .await?;
    audit(&app, &admin, &id, Action::TokenReset {}).await?;
    let (link, qr_svg) = issued_link(&app, &headers, over_tls, &token);
    Ok(Json(NewToken { token, link, qr_svg }))
}

/// One memory (`{"text": …}`) or several (`{"texts": […]}`).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct PresetBody {
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    texts: Vec<String>,
}

/// Presets memories (`text` or `texts`).
#[utoipa::path(post, path = "/api/admin/users/{user_id}/memories", tag = ADMIN, request_body = PresetBody,
    responses((status = 201, body = Vec<Memory>), (status = 409, description = "MEMORIES_MAX would be passed")))]
async fn preset_memories(
    State(app): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    AppJson(body): AppJson<PresetBody>,
) -> Result<(StatusCode, Json<Vec<Memory>>)> {
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
    let count = created.len();
    audit(&app, &admin, &id, Action::MemoriesPreset { count }).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// A user's memories.
#[utoipa::path(get, path = "/api/admin/users/{user_id}/memories", tag = ADMIN,
    responses((status = 200, body = Vec<Memory>)))]
async fn list_memories(State(app): State<AppState>, admin: Admin, Path(id): Path<String>) -> Result<Json<Vec<Memory>>> {
    existing(&app, &id).await?;
    super::access::looked(&app, &id, super::access::reader_of(&admin), "memories").await?;
    Ok(Json(app.store.memories(&id).await?))
}

/// A user's prefs.
#[utoipa::path(get, path = "/api/admin/users/{user_id}/prefs", tag = ADMIN, responses((status = 200, body = Prefs)))]
async fn get_prefs(State(app): State<AppState>, admin: Admin, Path(id): Path<String>) -> Result<Json<Prefs>> {
    existing(&app, &id).await?;
    super::access::looked(&app, &id, super::access::reader_of(&admin), "profile").await?;
    Ok(Json(app.store.prefs(&id).await?))
}

/// Merges a user's prefs, admin-only keys included.
#[utoipa::path(put, path = "/api/admin/users/{user_id}/prefs", tag = ADMIN,
    request_body(content = Object, description = PREFS_BODY), responses((status = 200, body = Prefs)))]
async fn set_prefs(
    State(app): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    AppJson(changes): AppJson<Map<String, Value>>,
) -> Result<Json<Prefs>> {
    existing(&app, &id).await?;
    let keys: Vec<&str> = changes.keys().map(String::as_str).collect();
    let changed = prefs::change(&changes, Writer::Admin)?;
    audit(&app, &admin, &id, Action::Prefs { keys }).await?;
    let before = app.store.prefs(&id).await?;
    let prefs = app.store.merge_prefs(&id, changed).await?;
    crate::care::checkin::replan(&app, &id, &before, &prefs).await?;
    // A voice connection open now waits as long as the person just chose.
    app.paces.changed(&id).await;
    crate::admins::help_changed(&app, &id).await;
    Ok(Json(prefs))
}

/// The persistent admin flag.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct AdminFlag {
    is_admin: bool,
}

/// Sets the persistent admin flag.
#[utoipa::path(put, path = "/api/admin/users/{user_id}/admin", tag = ADMIN, request_body = AdminFlag,
    responses((status = 200, body = UserView)))]
async fn set_admin(
    State(app): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    AppJson(body): AppJson<AdminFlag>,
) -> Result<Json<UserView>> {
    if !app.store.set_admin(&id, body.is_admin).await? {
        return Err(ApiError::NotFound("user"));
    }
    audit(
        &app,
        &admin,
        &id,
        Action::AdminFlag {
            is_admin: body.is_admin,
        },
    )
    .await?;
    Ok(Json(user_view(&app, existing(&app, &id).await?).await?))
}

/// What a history delete removed.
#[derive(Serialize, ToSchema)]
struct HistoryDeleted {
    user_id: String,
    deleted_sessions: u64,
}

/// Deletes a user's sessions and messages only.
#[utoipa::path(delete, path = "/api/admin/users/{user_id}/history", tag = ADMIN,
    responses((status = 200, body = HistoryDeleted)))]
async fn delete_history(
    State(app): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> Result<Json<HistoryDeleted>> {
    existing(&app, &id).await?;
    let sessions = app.store.delete_history(&id).await?;
    audit(&app, &admin, &id, Action::HistoryDelete { sessions }).await?;
    Ok(Json(HistoryDeleted {
        user_id: id,
        deleted_sessions: sessions,
    }))
}

/// The newest 500 audit entries.
#[utoipa::path(get, path = "/api/admin/audit", tag = ADMIN, responses((status = 200, body = Vec<AuditEntry>)))]
async fn audit_log(State(app): State<AppState>, _admin: Admin) -> Result<Json<Vec<AuditEntry>>> {
    Ok(Json(app.store.audit_entries(500).await?))
}
