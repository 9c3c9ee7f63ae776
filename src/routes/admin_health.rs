//! Provider health for people: `GET /api/admin/providers` (every provider's breaker, latency and errors of
//! the last hour on this instance) and `GET /health/ready` (whether each stage has a provider to use, for load
//! balancers).

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::openapi::{ADMIN, PUBLIC};
use crate::app::{App, AppState};
use crate::auth::Admin;
use crate::config::keys::Key;
use crate::emergency::checks;
use crate::error::{ApiError, Result};
use crate::providers::breakers::HealthReport;
use crate::providers::{ProviderInfo, Stage};
use crate::routes::audit::{Action, audit};

/// The routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(providers))
        .routes(routes!(events))
        .routes(routes!(check))
        .routes(routes!(ready))
}

/// How many admin panels may follow the live events on one instance at once.
const PANELS_MAX: usize = 16;

/// The panels' live events, `text/event-stream`: a `help` event `{"type": "help.changed", "user_id"}` whenever
/// a person's help path may have changed on any instance (prefs, contacts, carers, a person created or
/// deleted); then `GET /api/admin/providers` gives the new diagnosis.
#[utoipa::path(get, path = "/api/admin/events", tag = ADMIN,
    responses((status = 200, description = "the stream of changes", content_type = "text/event-stream"),
        (status = 429, description = "sixteen panels follow it here already")))]
async fn events(State(app): State<AppState>, _admin: Admin) -> Result<axum::response::Response> {
    if app.notify.open(crate::admins::PANELS) >= PANELS_MAX {
        return Err(ApiError::TooManyRequests(format!(
            "at most {PANELS_MAX} admin panels follow the live events at once"
        )));
    }
    Ok(super::carer::live(&app, crate::admins::PANELS, "help"))
}

/// One provider's health.
#[derive(Serialize, ToSchema)]
struct ProviderHealth {
    /// Its id.
    id: &'static str,
    /// Its stage (`stt`, `llm`, `tts`, `search`), or `help` for a check of the help path (`mail`, `twilio`,
    /// `webhook`).
    stage: &'static str,
    /// It has what it needs (address, key, voices); one that is not is never called.
    configured: bool,
    #[serde(flatten)]
    health: HealthReport,
}

/// Every provider's health on this instance.
#[derive(Serialize, ToSchema)]
struct ProvidersHealth {
    /// This instance's name: each instance keeps its own breakers.
    instance: String,
    providers: Vec<ProviderHealth>,
    /// Users whose alarm would reach nobody now: none of their channels is set up, or every one fails its
    /// check.
    users_without_working_channel: Vec<String>,
    /// Every user whose help does not reach everybody, or whose last press reached nobody (`stuck`), and
    /// everybody whose cooldown window is open: the cause per user (no contact, contacts without a channel and
    /// the settings missing, channels failing, the newest alarm not delivered) and the time left in their
    /// cooldown window, which an operator may end.
    help: Vec<checks::Stranded>,
    /// When contacts would get confirmation links they cannot open (`PUBLIC_URL` unset, loopback or
    /// link-local): what to set.
    links_warning: Option<String>,
    /// The same as data, for the panel to say in the operator's language.
    links: Option<checks::LinksProblem>,
    /// The phone lines the gateway keeps itself: its SIP registration with the router.
    lines: Vec<crate::lines::LineStatus>,
    /// The doors whose call or connection tasks failed since the start (each call ended as a hang-up would),
    /// with the last reason.
    task_failures: Vec<crate::lines::TaskFailures>,
    /// Each telephone line's calls since the start, by how they ended (refused, failed, hung up by the
    /// caller, ended by the gateway), with the last reasons.
    calls: Vec<crate::lines::CallOutcomes>,
    /// The care notices to contacts waiting to be sent: a mail relay or Twilio that keeps failing shows here.
    care_notices: CareNotices,
    /// The client addresses that failed too many credentials and wait (429 to every request until then).
    waiting_addresses: Vec<crate::guesses::Waiting>,
    /// The addresses whose TCP connections to the SIP door were refused (beyond their share, or the door's
    /// places taken), the most refused first.
    sip_refused: Vec<crate::sip_share::Refused>,
}

/// The care notices waiting in the outbox.
#[derive(Serialize, ToSchema)]
struct CareNotices {
    /// Notices waiting to be sent (or tried again).
    waiting: i64,
    /// Of them, those that failed at least twice.
    failing: i64,
    /// The last error of one waiting.
    last_error: Option<String>,
}

fn health_of(app: &App, info: &ProviderInfo) -> ProviderHealth {
    ProviderHealth {
        id: info.id,
        stage: info.stage.as_str(),
        configured: info.capabilities.configured,
        health: app.breakers.report(info.stage, info.id),
    }
}

/// Every provider with its circuit breaker's state (`closed`, `open`, `half_open`), its last error and since
/// when, and the median and p90 latency and error rate of its calls in the last hour; the help path's checks
/// beside them (stage `help`: `closed` passed, `open` failed); the users whose alarm would reach nobody.
#[utoipa::path(get, path = "/api/admin/providers", tag = ADMIN, responses((status = 200, body = ProvidersHealth)))]
async fn providers(State(app): State<AppState>, _admin: Admin) -> Result<Json<ProvidersHealth>> {
    let mut providers: Vec<ProviderHealth> = app.providers.list().iter().map(|info| health_of(&app, info)).collect();
    providers.extend(app.breakers.checks().into_iter().map(|(id, health)| ProviderHealth {
        id,
        stage: "help",
        configured: true,
        health,
    }));
    let help = checks::stranded(&app).await?;
    Ok(Json(ProvidersHealth {
        instance: app.instance.clone(),
        providers,
        users_without_working_channel: help
            .iter()
            .filter(|s| s.stuck && s.reach != checks::Reach::Somebody)
            .map(|s| s.name.clone())
            .collect(),
        help,
        links_warning: checks::links_warning(&app),
        links: checks::links_problem(&app),
        lines: app.lines.list(),
        task_failures: app.lines.failures(),
        calls: app.lines.calls(),
        waiting_addresses: app.guesses.waiting_now(std::time::Instant::now()),
        sip_refused: app.sip_share.refusals(),
        care_notices: {
            let outbox = app.store.outbox_health().await?;
            CareNotices {
                waiting: outbox.waiting,
                failing: outbox.failing,
                last_error: outbox.last_error,
            }
        },
    }))
}

/// Probes one provider now (the model list of a language model, a short silence to transcribe, one word to
/// speak, one query to search) and answers its health after it: a provider shows as working only once a call
/// or a probe to it succeeded.
#[utoipa::path(post, path = "/api/admin/providers/{stage}/{id}/check", tag = ADMIN,
    params(("stage" = String, Path, description = "`stt`, `llm`, `tts` or `search`"), ("id" = String, Path)),
    responses((status = 200, body = ProviderHealth), (status = 404, description = "no such provider")))]
async fn check(
    State(app): State<AppState>,
    admin: Admin,
    Path((stage, id)): Path<(String, String)>,
) -> Result<Json<ProviderHealth>> {
    let info = app
        .providers
        .list()
        .into_iter()
        .find(|info| info.stage.as_str() == stage && info.id == id)
        .ok_or(ApiError::NotFound("provider"))?;
    let works = crate::probes::check(&app, info.stage, info.id).await;
    let health = health_of(&app, &info);
    audit(&app, &admin, &format!("{stage}:{id}"), Action::ProviderCheck { works }).await?;
    Ok(Json(health))
}

/// A stage's readiness.
#[derive(Serialize, ToSchema)]
struct StageReadiness {
    stage: Stage,
    /// `ready` (a configured provider's breaker is closed), `degraded` (none is), or `off` (web search
    /// disabled).
    status: &'static str,
    /// The providers that can be used now.
    usable: Vec<&'static str>,
}

/// Whether this instance can answer.
#[derive(Serialize, ToSchema)]
struct Readiness {
    /// `ready`, or `degraded` when speech to text, the language model or text to speech has no usable
    /// provider.
    status: &'static str,
    stages: Vec<StageReadiness>,
}

/// Readiness for load balancers: 200 while speech to text, the language model and text to speech each have a
/// configured provider whose breaker is closed, else 503; web search is reported but never makes it 503.
#[utoipa::path(get, path = "/health/ready", tag = PUBLIC, responses(
    (status = 200, body = Readiness), (status = 503, description = "a stage has no usable provider", body = Readiness)))]
async fn ready(State(app): State<AppState>) -> (StatusCode, Json<Readiness>) {
    let list = app.providers.list();
    let search_on = app
        .runtime
        .effective()
        .await
        .is_ok_and(|eff| eff.flag(Key::WebSearchEnabled));
    let stages: Vec<StageReadiness> = [Stage::Stt, Stage::Llm, Stage::Tts, Stage::Search]
        .into_iter()
        .map(|stage| {
            let usable: Vec<&'static str> = list
                .iter()
                .filter(|p| p.stage == stage && p.capabilities.configured)
                .filter(|p| app.breakers.closed_in(stage, p.id).is_none())
                .map(|p| p.id)
                .collect();
            let status = match (stage, usable.is_empty()) {
                (Stage::Search, _) if !search_on => "off",
                (_, false) => "ready",
                (_, true) => "degraded",
            };
            StageReadiness { stage, status, usable }
        })
        .collect();
    let ready = stages.iter().all(|s| s.stage == Stage::Search || s.status == "ready");
    let code = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let status = if ready { "ready" } else { "degraded" };
    (code, Json(Readiness { status, stages }))
}
