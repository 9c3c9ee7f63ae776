//! The caller's own account: `/api/me`, prefs and memories.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::openapi::USER;

use crate::app::AppState;
use crate::auth::CurrentUser;
use crate::error::{ApiError, AppJson, Result};
use crate::prefs::{self, Prefs, Writer};
use crate::providers::TtsId;
use crate::store::memories::Memory;
use crate::turn::speech;

/// What a prefs change may hold.
pub const PREFS_BODY: &str = "Any subset of: language, voice, voice_gender, stt_provider, llm_provider, \
    tts_provider, llm_model, web_search_enabled, full_name, street, postal_code, city, phone_mobile, phone_landline, \
    birth_date (YYYY-MM-DD), medical_notes, emergency_contacts (e-mail list), emergency_contact_phones (+ numbers, or internal numbers of the house: **613), \
    location_consent, large_text, share_with_carers, notify_carers, email, carer_summary_at (\"18:00\" or \"\"), reminder_time (\"09:00\" or \"\": a day said without its time), form_of_address (formal | informal), timezone (IANA, e.g. Europe/Berlin), \
    checkin_window (\"08:00-10:00\" or \"\"), away_until (YYYY-MM-DD), reminder_via (list of page, house_line, phone, home_assistant), \
    ha_satellite (assist_satellite.…); admin only: allowed_languages, web_search_daily_limit, daily_request_limit, \
    emergency_cooldown_minutes (\"\" or \"0\"..\"60\"). null removes a key.";

/// Longest memory text accepted.
pub const MEMORY_MAX_CHARS: usize = 1000;

/// Routes of `/api/me`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(me))
        .routes(routes!(put_prefs, get_prefs))
        .routes(routes!(list_memories, add_memory))
        .routes(routes!(delete_memory))
}

/// The caller.
#[derive(Serialize, ToSchema)]
struct Me {
    id: String,
    name: String,
    display_name: String,
    external_id: Option<String>,
    is_admin: bool,
    is_anonymous: bool,
    /// Epoch milliseconds.
    created_at: i64,
    prefs: Prefs,
    sso_logout_url: Option<String>,
    /// The engine and voice that speak each of the caller's languages when the page names no voice.
    voices: BTreeMap<String, DefaultVoice>,
    /// Who cares for the caller (an admin names them): they see the caller's care, not their conversations.
    carers: Vec<super::board::Person>,
    /// Where the caller's words go, stage by stage, on the route their turns take now.
    words_go: WordsGo,
}

/// Where a person's words go: whether they stay at home (`local_only`), and each stage's engine.
#[derive(Serialize, ToSchema)]
struct WordsGo {
    /// Only engines on this machine or its network (the `local_only` pref, else `LOCAL_ONLY`).
    local_only: bool,
    /// Speech to text.
    recogniser: Place,
    /// The language model.
    model: Place,
    /// Text to speech.
    voice: Place,
    /// Web search; `None` when the person's turns do not search.
    search: Option<Place>,
}

/// One stage's engine and whether it runs at home.
#[derive(Serialize, ToSchema)]
struct Place {
    provider: String,
    /// On this machine or its network; false: the provider's service outside.
    local: bool,
}

impl Place {
    fn of(id: &str, capabilities: crate::providers::Capabilities) -> Self {
        Place {
            provider: id.to_string(),
            local: capabilities.local,
        }
    }
}

/// Where `prefs`' owner's words go on the route a turn would take now.
fn words_go(app: &crate::app::App, eff: &crate::config::runtime::Effective, prefs: &Prefs) -> WordsGo {
    use crate::config::keys::Key;
    use crate::providers::ProviderId;
    let route = crate::turn::route_for(app, eff, prefs, &Default::default());
    let p = &app.providers;
    let searching = !route.local_only
        && prefs
            .web_search_enabled
            .unwrap_or_else(|| eff.flag(Key::WebSearchEnabled));
    let search_id: crate::providers::SearchId = eff.provider(Key::WebSearchProvider);
    let search_engine = p.search.get(search_id);
    WordsGo {
        local_only: route.local_only,
        recogniser: Place::of(route.stt.name(), p.stt.get(route.stt).capabilities()),
        model: Place::of(route.llm.name(), p.llm.get(route.llm).capabilities()),
        voice: Place::of(route.tts.name(), p.tts.get(route.tts).capabilities()),
        search: (searching && search_engine.configured())
            .then(|| Place::of(search_id.name(), search_engine.capabilities())),
    }
}

/// A voice that speaks by default.
#[derive(Serialize, ToSchema)]
struct DefaultVoice {
    #[schema(value_type = TtsId)]
    provider: String,
    voice: String,
}

/// The caller with is_admin, prefs and sso_logout_url.
#[utoipa::path(get, path = "/api/me", tag = USER, responses((status = 200, body = Me)))]
async fn me(State(app): State<AppState>, caller: CurrentUser) -> Result<Json<Me>> {
    let prefs = app.store.prefs(&caller.user.id).await?;
    let eff = app.runtime.effective().await?;
    let languages: Vec<String> = match prefs.allowed_languages() {
        [] => crate::config::languages().iter().map(|l| l.to_string()).collect(),
        allowed => allowed.to_vec(),
    };
    let voices = languages
        .into_iter()
        .map(|language| {
            let (provider, voice) = speech::default_speaker(&app, &eff, &prefs, &language);
            let provider = provider.to_string();
            (language, DefaultVoice { provider, voice })
        })
        .collect();
    let carers = app.store.carers_of(&caller.user.id).await?;
    let words_go = words_go(&app, &eff, &prefs);
    let u = caller.user;
    Ok(Json(Me {
        id: u.id,
        name: u.name,
        display_name: u.display_name,
        external_id: u.external_id,
        is_admin: caller.is_admin,
        is_anonymous: u.is_anonymous,
        created_at: u.created_at,
        prefs,
        sso_logout_url: app.settings.auth.sso_logout_url.clone(),
        voices,
        carers: carers.into_iter().map(Into::into).collect(),
        words_go,
    }))
}

/// The caller's prefs.
#[utoipa::path(get, path = "/api/me/prefs", tag = USER, responses((status = 200, body = Prefs)))]
async fn get_prefs(State(app): State<AppState>, caller: CurrentUser) -> Result<Json<Prefs>> {
    Ok(Json(app.store.prefs(&caller.user.id).await?))
}

/// Merges prefs (null removes a key); admin-only keys give 403.
#[utoipa::path(put, path = "/api/me/prefs", tag = USER, request_body(content = Object, description = PREFS_BODY),
    responses((status = 200, description = "all prefs after the change", body = Prefs),
        (status = 403, description = "an admin-only key")))]
async fn put_prefs(
    State(app): State<AppState>,
    caller: CurrentUser,
    AppJson(changes): AppJson<Map<String, Value>>,
) -> Result<Json<Prefs>> {
    let changes = prefs::change(&changes, Writer::User)?;
    let before = app.store.prefs(&caller.user.id).await?;
    let prefs = app.store.merge_prefs(&caller.user.id, changes).await?;
    crate::care::checkin::replan(&app, &caller.user.id, &before, &prefs).await?;
    // A voice connection open now waits as long as the person just chose.
    app.paces.changed(&caller.user.id).await;
    crate::admins::help_changed(&app, &caller.user.id).await;
    Ok(Json(prefs))
}

/// Body of a new memory.
#[derive(Deserialize, ToSchema)]
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

/// The caller's memories.
#[utoipa::path(get, path = "/api/me/memories", tag = USER, responses((status = 200, body = Vec<Memory>)))]
async fn list_memories(State(app): State<AppState>, caller: CurrentUser) -> Result<Json<Vec<Memory>>> {
    Ok(Json(app.store.memories(&caller.user.id).await?))
}

/// The answer when a user has `MEMORIES_MAX` memories.
pub fn memories_full(cap: u32) -> ApiError {
    ApiError::Conflict(format!("the limit of {cap} memories is reached; delete one first"))
}

/// Adds a memory (at most MEMORIES_MAX).
#[utoipa::path(post, path = "/api/me/memories", tag = USER, request_body = NewMemory,
    responses((status = 201, body = Memory), (status = 409, description = "MEMORIES_MAX is reached")))]
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

/// What a delete removed.
#[derive(Serialize, ToSchema)]
pub struct Deleted {
    /// The id of what is gone.
    pub deleted: String,
}

/// Deletes one of the caller's memories.
#[utoipa::path(delete, path = "/api/me/memories/{memory_id}", tag = USER, responses((status = 200, body = Deleted)))]
async fn delete_memory(
    State(app): State<AppState>,
    caller: CurrentUser,
    Path(memory_id): Path<String>,
) -> Result<Json<Deleted>> {
    if app.store.delete_memory(&caller.user.id, &memory_id).await? {
        Ok(Json(Deleted { deleted: memory_id }))
    } else {
        Err(ApiError::NotFound("memory"))
    }
}
