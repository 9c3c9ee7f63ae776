//! Operating views of the admin: gateway status, usage statistics, conversations, the database export and
//! the restart.

use std::collections::BTreeMap;
use std::path::PathBuf;

use axum::Json;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::audit::{Action, audit};
use super::openapi::ADMIN;
use super::sessions::SessionView;
use crate::app::AppState;
use crate::auth::Admin;
use crate::config::keys::Key;
use crate::config::runtime::{Effective, InvalidOverride};
use crate::error::{ApiError, Result};
use crate::latency::Day;
use crate::metrics::Snapshot;
use crate::providers::registry::{Engine, Engines, Setup};
use crate::providers::{ProviderId, ProviderInfo, SearchId};
use crate::store::stats::ConversationSummary;

/// The routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(status))
        .routes(routes!(latency))
        .routes(routes!(stats))
        .routes(routes!(conversations))
        .routes(routes!(user_sessions))
        .routes(routes!(transcript))
        .routes(routes!(db_export))
        .routes(routes!(restart))
}

/// The gateway's state for its operator.
#[derive(Serialize, ToSchema)]
struct GatewayStatus {
    version: &'static str,
    /// This instance's name (`INSTANCE_ID`).
    instance: String,
    profile: &'static str,
    uptime_seconds: u64,
    /// `ok` or `unavailable`.
    database: &'static str,
    auth_enabled: bool,
    /// Per stage: the default, the fallbacks, and each provider's address and model, whether its key is set
    /// (never the key).
    providers: ProvidersStatus,
    /// Every provider with its stage and capabilities, as the registry describes it.
    registry: Vec<ProviderInfo>,
    /// Stored runtime overrides that no longer pass their key's rules (the environment's value is used).
    invalid_overrides: Vec<InvalidOverride>,
    /// The voice activity detector that runs (`silero` or `energy`, with the reason).
    vad: VadStatus,
    /// The end-of-turn decision that runs (`smart-turn` or `silence`, with the reason).
    turn: TurnStatus,
    /// Which channels of the help function are set up.
    emergency: EmergencyChannels,
    /// `GPUS` and the `CUDA_VISIBLE_DEVICES` the engines get.
    gpus: Gpus,
    /// The metrics as `/api/metrics` shows them.
    metrics: Option<Snapshot>,
    /// The stage of a voice turn with the longest median wait over the last day (`end_of_turn`,
    /// `transcription`, `first_token`, `first_sentence` or `first_audio`); none before the first voice turn.
    slowest_stage: Option<&'static str>,
}

/// The voice activity detector that runs, by `engine`; `setting` is `VAD_ENGINE`.
#[derive(Serialize, ToSchema)]
#[serde(tag = "engine", rename_all = "kebab-case")]
enum VadStatus {
    /// The neural detector.
    Silero {
        #[schema(value_type = String)]
        model: PathBuf,
        setting: String,
    },
    /// The energy detector, because the neural one is off or could not load.
    Energy { reason: String, setting: String },
}

/// The end-of-turn decision that runs, by `engine`; `setting` is `TURN_ENGINE`.
#[derive(Serialize, ToSchema)]
#[serde(tag = "engine", rename_all = "kebab-case")]
enum TurnStatus {
    /// The Smart Turn model, asked every `check_ms` in a pause, up to `max_silence_ms`.
    SmartTurn {
        #[schema(value_type = String)]
        model: PathBuf,
        setting: String,
        check_ms: u32,
        max_silence_ms: u32,
    },
    /// A fixed silence, because the model is off or could not load.
    Silence {
        reason: String,
        setting: String,
        silence_ms: u32,
    },
}

/// Which channels of the help function are set up.
#[derive(Serialize, ToSchema)]
struct EmergencyChannels {
    smtp: bool,
    twilio: bool,
    webhook: bool,
}

/// `GPUS` and the `CUDA_VISIBLE_DEVICES` the engines get.
#[derive(Serialize, ToSchema)]
struct Gpus {
    setting: String,
    cuda_visible_devices: Option<String>,
}

/// The providers of each stage in the status.
#[derive(Serialize, ToSchema)]
struct ProvidersStatus {
    stt: StageStatus,
    llm: StageStatus,
    tts: StageStatus,
    web_search: WebSearchStatus,
}

/// A stage's default, its fallbacks, and how each of its providers is set up (by id).
#[derive(Serialize, ToSchema)]
struct StageStatus {
    default: String,
    fallbacks: Vec<String>,
    #[serde(flatten)]
    providers: BTreeMap<&'static str, Setup>,
}

/// The web-search provider in use and whether it is set up.
#[derive(Serialize, ToSchema)]
struct WebSearchStatus {
    provider: String,
    configured: bool,
}

/// A stage of the status from the registry: each engine's setup, with the effective model where a runtime
/// key holds it (`model_key`).
fn stage<I: ProviderId, E: Engine + ?Sized>(
    engines: &Engines<I, E>,
    eff: &Effective,
    fallbacks: &[I],
    model_key: Option<fn(I) -> Key>,
) -> StageStatus {
    let providers = engines
        .iter()
        .map(|(id, engine)| {
            let mut setup = engine.setup();
            if let Some(key) = model_key {
                setup.model = Some(eff.get(key(id)).to_string());
            }
            (id.name(), setup)
        })
        .collect();
    StageStatus {
        default: eff.get(Key::default_of(I::STAGE)).to_string(),
        fallbacks: fallbacks.iter().map(|id| id.to_string()).collect(),
        providers,
    }
}

/// Version, uptime, provider configuration (addresses and whether keys are set, never the keys), GPUs and the
/// runtime metrics.
#[utoipa::path(get, path = "/api/admin/status", tag = ADMIN, responses((status = 200, body = GatewayStatus)))]
async fn status(State(app): State<AppState>, _admin: Admin) -> Result<Json<GatewayStatus>> {
    let eff = app.runtime.effective().await?;
    let s = &app.settings;
    Ok(Json(GatewayStatus {
        version: env!("CARGO_PKG_VERSION"),
        instance: app.instance.clone(),
        profile: s.profile.as_str(),
        uptime_seconds: app.started_at.elapsed().as_secs(),
        database: if app.store.ping().await { "ok" } else { "unavailable" },
        auth_enabled: s.auth.enabled,
        providers: ProvidersStatus {
            stt: stage(&app.providers.stt, &eff, &s.fallbacks.stt, None),
            llm: stage(&app.providers.llm, &eff, &s.fallbacks.llm, Some(Key::model_of)),
            tts: stage(&app.providers.tts, &eff, &s.fallbacks.tts, None),
            web_search: WebSearchStatus {
                provider: eff.get(Key::WebSearchProvider).to_string(),
                configured: app
                    .providers
                    .search
                    .get(eff.provider::<SearchId>(Key::WebSearchProvider))
                    .configured(),
            },
        },
        registry: app.providers.list(),
        invalid_overrides: eff.invalid.clone(),
        vad: match &app.silero {
            Ok(_) => VadStatus::Silero {
                model: s.voice.silero_vad_model.clone(),
                setting: s.voice.vad_engine.clone(),
            },
            Err(why) => VadStatus::Energy {
                reason: why.clone(),
                setting: s.voice.vad_engine.clone(),
            },
        },
        turn: match &app.smart_turn {
            Ok(_) => TurnStatus::SmartTurn {
                model: s.voice.smart_turn_model.clone(),
                setting: s.voice.turn_engine.clone(),
                check_ms: s.voice.turn_check_ms,
                max_silence_ms: s.voice.turn_max_silence_ms,
            },
            Err(why) => TurnStatus::Silence {
                reason: why.clone(),
                setting: s.voice.turn_engine.clone(),
                silence_ms: s.voice.vad_silence_ms,
            },
        },
        emergency: EmergencyChannels {
            smtp: s.smtp.host.is_some(),
            twilio: s.emergency.twilio_configured(),
            webhook: s.emergency.webhook_url.is_some(),
        },
        gpus: Gpus {
            setting: s.engines.gpus.clone(),
            cuda_visible_devices: s
                .engines
                .cuda_visible_devices()
                .or_else(|| std::env::var("CUDA_VISIBLE_DEVICES").ok()),
        },
        metrics: app.metrics.snapshot(),
        slowest_stage: app.recent.day().slowest_stage,
    }))
}

/// Where the voice turns of the last day spent their wait, hour by hour: median and p90 of each stage, from
/// the last speech to the first answer audio (this instance's turns since it started).
#[utoipa::path(get, path = "/api/admin/latency", tag = ADMIN, responses((status = 200, body = Day)))]
async fn latency(State(app): State<AppState>, _admin: Admin) -> Json<Day> {
    Json(app.recent.day())
}

/// Usage this month.
#[derive(Serialize, ToSchema)]
struct Stats {
    /// `YYYY-MM`.
    month: String,
    users: Vec<Usage>,
    total: Totals,
}

/// One user's usage.
#[derive(Serialize, ToSchema)]
struct Usage {
    user_id: String,
    name: String,
    requests_today: i64,
    requests_month: i64,
    /// Phone calls this month and their length in seconds.
    calls_month: i64,
    call_seconds_month: i64,
    cost_month: f64,
    /// Of `cost_month`, what was estimated for answers cut before the provider reported their cost.
    cost_estimated_month: f64,
    avg_cost_per_request: f64,
    cost_total: f64,
}

/// Everybody's usage.
#[derive(Serialize, ToSchema)]
struct Totals {
    requests_month: i64,
    calls_month: i64,
    call_seconds_month: i64,
    cost_month: f64,
    avg_cost_per_request: f64,
    cost_total: f64,
}

/// Requests per user today and this month, phone calls this month, cost this month and in all, and the average cost per request.
#[utoipa::path(get, path = "/api/admin/stats", tag = ADMIN, responses((status = 200, body = Stats)))]
async fn stats(State(app): State<AppState>, _admin: Admin) -> Result<Json<Stats>> {
    let rows = app.store.usage_by_user().await?;
    let per_request = |cost: f64, requests: i64| if requests > 0 { cost / requests as f64 } else { 0.0 };
    let (mut requests, mut cost_month, mut cost_total) = (0i64, 0.0, 0.0);
    let (mut calls, mut call_seconds) = (0i64, 0i64);
    let users = rows
        .into_iter()
        .map(|r| {
            requests += r.requests_month;
            calls += r.calls_month;
            call_seconds += r.call_seconds_month;
            cost_month += r.cost_month;
            cost_total += r.cost_total;
            Usage {
                avg_cost_per_request: per_request(r.cost_month, r.requests_month),
                user_id: r.user_id,
                name: r.name,
                requests_today: r.requests_today,
                requests_month: r.requests_month,
                calls_month: r.calls_month,
                call_seconds_month: r.call_seconds_month,
                cost_month: r.cost_month,
                cost_estimated_month: r.cost_estimated_month,
                cost_total: r.cost_total,
            }
        })
        .collect();
    Ok(Json(Stats {
        month: crate::store::today()[..7].to_string(),
        users,
        total: Totals {
            requests_month: requests,
            calls_month: calls,
            call_seconds_month: call_seconds,
            cost_month,
            avg_cost_per_request: per_request(cost_month, requests),
            cost_total,
        },
    }))
}

/// Users with their numbers of sessions and messages.
#[utoipa::path(get, path = "/api/admin/conversations", tag = ADMIN,
    responses((status = 200, body = Vec<ConversationSummary>)))]
async fn conversations(State(app): State<AppState>, _admin: Admin) -> Result<Json<Vec<ConversationSummary>>> {
    Ok(Json(app.store.conversation_summaries().await?))
}

/// A user and their sessions.
#[derive(Serialize, ToSchema)]
struct UserSessions {
    user: UserName,
    sessions: Vec<SessionView>,
}

/// Who a user is.
#[derive(Serialize, ToSchema)]
struct UserName {
    id: String,
    name: String,
    display_name: String,
}

/// A user's sessions.
#[utoipa::path(get, path = "/api/admin/conversations/{user_id}", tag = ADMIN,
    responses((status = 200, body = UserSessions)))]
async fn user_sessions(
    State(app): State<AppState>,
    admin: Admin,
    Path(user_id): Path<String>,
) -> Result<Json<UserSessions>> {
    let user = app
        .store
        .user_by_id(&user_id)
        .await?
        .ok_or(ApiError::NotFound("user"))?;
    super::access::looked(&app, &user.id, super::access::reader_of(&admin), "conversations").await?;
    let sessions = app.store.sessions(&user.id).await?;
    Ok(Json(UserSessions {
        user: UserName {
            id: user.id,
            name: user.name,
            display_name: user.display_name,
        },
        sessions: sessions.iter().map(SessionView::of).collect(),
    }))
}

/// A session's transcript; audit-logged.
#[utoipa::path(get, path = "/api/admin/conversations/{user_id}/{session_id}", tag = ADMIN,
    responses((status = 200, body = SessionView)))]
async fn transcript(
    State(app): State<AppState>,
    admin: Admin,
    Path((user_id, session_id)): Path<(String, String)>,
) -> Result<Json<SessionView>> {
    let session = app
        .store
        .session(&session_id)
        .await?
        .filter(|s| s.user_id == user_id)
        .ok_or(ApiError::NotFound("session"))?;
    super::access::looked(&app, &user_id, super::access::reader_of(&admin), "conversations").await?;
    let messages = app.store.messages(&session.id).await?;
    audit(
        &app,
        &admin,
        &session.id,
        Action::ConversationRead { user_id: &user_id },
    )
    .await?;
    Ok(Json(SessionView::with_messages(&session, messages)))
}

/// A consistent snapshot of the database (`VACUUM INTO` a temporary file while writes go on), downloaded as
/// a file that the `sqlite3` tool opens; audit-logged.
#[utoipa::path(get, path = "/api/admin/db-export", tag = ADMIN,
    responses((status = 200, description = "the SQLite file", content_type = "application/vnd.sqlite3"),
        (status = 409, description = "the database is PostgreSQL: pg_dump makes its backups")))]
async fn db_export(State(app): State<AppState>, admin: Admin) -> Result<Response> {
    let dir = tempfile::tempdir().map_err(|e| ApiError::Internal(format!("export folder: {e}")))?;
    let path = dir.path().join("export.db");
    if app.store.snapshot_to(&path).await?.is_none() {
        return Err(ApiError::Conflict(
            "the database is PostgreSQL: back it up with pg_dump (see docs/deploy.md)".into(),
        ));
    }
    let bytes = tokio::fs::read(&path)
        .await
        .map_err(|e| ApiError::Internal(format!("reading the export: {e}")))?;
    audit(&app, &admin, "database", Action::DbExport { bytes: bytes.len() }).await?;
    let name = format!("voice-gateway-{}.db", chrono::Local::now().format("%Y%m%d-%H%M%S"));
    Ok((
        [
            (CONTENT_TYPE, "application/vnd.sqlite3".to_string()),
            (CONTENT_DISPOSITION, format!("attachment; filename=\"{name}\"")),
        ],
        Body::from(bytes),
    )
        .into_response())
}

/// A restart on its way.
#[derive(Serialize, ToSchema)]
struct Restarting {
    restarting: bool,
    /// `command` (RESTART_COMMAND) or `re-exec`.
    how: &'static str,
}

/// Restarts the gateway (RESTART_COMMAND, or re-execution); answers first; audit-logged.
///
/// With `RESTART_COMMAND` that command runs detached (no shell, no user input in it); without, the gateway
/// stops serving gracefully and `main` executes itself again.
#[utoipa::path(post, path = "/api/admin/gateway/restart", tag = ADMIN, responses((status = 200, body = Restarting)))]
async fn restart(State(app): State<AppState>, admin: Admin) -> Result<Json<Restarting>> {
    let how = if app.settings.server.restart_command.is_some() {
        "command"
    } else {
        "re-exec"
    };
    audit(&app, &admin, "gateway", Action::Restart { how }).await?;
    let state = app.clone();
    tokio::spawn(async move {
        // Let the answer leave first.
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        match &state.settings.server.restart_command {
            Some(parts) => {
                let spawned = std::process::Command::new(&parts[0])
                    .args(&parts[1..])
                    .stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null())
                    .spawn();
                match spawned {
                    // Detached: it outlives this process when it restarts us; reap it in the background.
                    Ok(mut child) => {
                        let _ = tokio::task::spawn_blocking(move || child.wait()).await;
                    }
                    Err(err) => tracing::error!(%err, "the restart command could not be started"),
                }
            }
            None => {
                let _ = state.restart.send(true);
            }
        }
    });
    Ok(Json(Restarting { restarting: true, how }))
}
