//! Reminders and timers: the person's own under `/api/me/reminders`, and a carer's view and hand under
//! `/api/admin/users/{user_id}/reminders` (every write audited). Times are RFC 3339 with the person's offset;
//! a repetition is an RFC 5545 rule of the two forms the gateway takes (`FREQ=DAILY`,
//! `FREQ=WEEKLY;BYDAY=MO,TH`).

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::audit::{Action, audit};
use super::openapi::{ADMIN, USER};
use crate::app::{App, AppState};
use crate::auth::{Admin, CurrentUser};
use crate::care::{self, due::Rule};
use crate::config::REMINDER_TEXT_MAX;
use crate::error::{ApiError, AppJson, Result};
use crate::store::reminders::{NewReminder, StoredReminder};

/// The farthest ahead a reminder may be set.
const MAX_AHEAD_DAYS: i64 = 366;

/// Routes of reminders.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, add))
        .routes(routes!(cancel))
        .routes(routes!(confirm))
        .routes(routes!(admin_list, admin_add))
        .routes(routes!(admin_cancel))
        .routes(routes!(admin_confirm))
}

/// A reminder or timer.
#[derive(Serialize, ToSchema)]
pub struct Reminder {
    id: String,
    text: String,
    /// When it is due next, RFC 3339 with the person's offset.
    due_at: String,
    /// The IANA time zone its time is kept in.
    time_zone: String,
    /// How it repeats (RFC 5545), or null for once.
    repeat: Option<String>,
    /// Whether the person must confirm it.
    confirm: bool,
    timer: bool,
    /// `scheduled`, `delivering`, `confirmed`, `missed`, `done` or `cancelled`.
    state: String,
    /// `user`, `admin`, `carer` or `voice`.
    created_by: String,
    deliveries: Vec<ReminderDelivery>,
}

impl Reminder {
    pub(super) fn id(&self) -> &str {
        &self.id
    }
}

/// One attempt to deliver a reminder.
#[derive(Serialize, ToSchema)]
struct ReminderDelivery {
    /// `page`, `house_line`, `phone` or `home_assistant`; a confirmation also `api` or `said` (the person), or
    /// `carer` / `admin` (on their behalf, named in `detail`).
    channel: String,
    status: String,
    detail: Option<String>,
    /// RFC 3339.
    at: String,
}

/// The reminders of a person.
#[derive(Serialize, ToSchema)]
pub(super) struct Reminders {
    pub(super) reminders: Vec<Reminder>,
}

/// A new reminder: `text` with `due_at`, or a timer of `in_seconds`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct NewBody {
    /// What to be reminded of (1 to 200 characters; a timer may leave it out).
    #[serde(default)]
    text: Option<String>,
    /// RFC 3339 with an offset ("2026-11-28T08:00:00+01:00").
    #[serde(default)]
    due_at: Option<String>,
    /// A timer: due this many seconds from now (1 to 86400).
    #[serde(default)]
    in_seconds: Option<u32>,
    /// `FREQ=DAILY` or `FREQ=WEEKLY;BYDAY=MO,TH`; null for once.
    #[serde(default)]
    repeat: Option<String>,
    /// Whether the person must confirm it (default true; a timer false).
    #[serde(default)]
    confirm: Option<bool>,
}

/// The person's reminders with their deliveries.
pub(super) async fn view(app: &App, stored: Vec<StoredReminder>) -> Result<Vec<Reminder>> {
    let ids: Vec<String> = stored.iter().map(|r| r.id.clone()).collect();
    let deliveries = app.store.reminder_deliveries(&ids).await?;
    Ok(stored
        .into_iter()
        .map(|r| Reminder {
            deliveries: deliveries
                .iter()
                .filter(|d| d.reminder_id == r.id)
                .map(|d| ReminderDelivery {
                    channel: d.channel.clone(),
                    status: d.status.clone(),
                    detail: d.detail.clone(),
                    at: care::rfc3339(d.at, &r.time_zone),
                })
                .collect(),
            due_at: care::rfc3339(r.due_at, &r.time_zone),
            id: r.id,
            text: r.text,
            time_zone: r.time_zone,
            repeat: r.repeat_rule,
            confirm: r.confirm,
            timer: r.timer,
            state: r.state,
            created_by: r.created_by,
        })
        .collect())
}

/// Checks a new reminder and stores it for `user_id`, made by `by`.
pub(super) async fn create(app: &App, user_id: &str, body: NewBody, by: &str) -> Result<Reminder> {
    let text = body.text.as_deref().map(str::trim).unwrap_or_default().to_string();
    if text.chars().count() > REMINDER_TEXT_MAX {
        return Err(ApiError::invalid(
            "text",
            format!("longer than {REMINDER_TEXT_MAX} characters"),
        ));
    }
    let now = Timestamp::now();
    let (due, timer) = match (&body.due_at, body.in_seconds) {
        (Some(_), Some(_)) => return Err(ApiError::invalid("due_at", "give due_at or in_seconds, not both")),
        (None, None) => return Err(ApiError::invalid("due_at", "required (or in_seconds for a timer)")),
        (None, Some(seconds)) if (1..=86_400).contains(&seconds) => {
            (now.as_millisecond() + i64::from(seconds) * 1000, true)
        }
        (None, Some(_)) => return Err(ApiError::invalid("in_seconds", "expected 1 to 86400")),
        (Some(at), None) => {
            let at: Timestamp = at.parse().map_err(|_| {
                ApiError::invalid("due_at", "expected RFC 3339 with an offset (2026-11-28T08:00:00+01:00)")
            })?;
            let ms = at.as_millisecond();
            if ms < now.as_millisecond() - 60_000 {
                return Err(ApiError::invalid("due_at", "has passed"));
            }
            if ms > now.as_millisecond() + MAX_AHEAD_DAYS * 86_400_000 {
                return Err(ApiError::invalid(
                    "due_at",
                    format!("more than {MAX_AHEAD_DAYS} days ahead"),
                ));
            }
            (ms, false)
        }
    };
    if text.is_empty() && !timer {
        return Err(ApiError::invalid("text", "empty"));
    }
    let rule = match body.repeat.as_deref().filter(|r| !r.trim().is_empty()) {
        Some(rule) if timer => return Err(ApiError::invalid("repeat", format!("a timer does not repeat ({rule})"))),
        Some(rule) => Some(
            Rule::parse(rule)
                .map_err(|e| ApiError::invalid("repeat", e))?
                .to_string(),
        ),
        None => None,
    };
    let prefs = app.store.prefs(user_id).await?;
    let zone = care::person_zone_name(app, &prefs);
    let new = NewReminder {
        text: if text.is_empty() { "Timer" } else { &text },
        due_at: due,
        time_zone: &zone,
        repeat_rule: rule.as_deref(),
        confirm: body.confirm.unwrap_or(!timer),
        timer,
        created_by: by,
    };
    let cap = app.settings.care.reminders_max;
    let stored = app.store.add_reminder(user_id, &new, cap).await?.ok_or_else(|| {
        ApiError::Conflict(format!(
            "{cap} reminders are waiting already (REMINDERS_MAX); cancel one first"
        ))
    })?;
    app.metrics
        .incr(crate::metrics::REMINDERS_TOTAL, &[("event", "set"), ("channel", by)]);
    crate::carers::changed(app, user_id).await;
    Ok(view(app, vec![stored]).await?.remove(0))
}

/// The caller's reminders and timers still to come, confirmed or missed, the next first.
#[utoipa::path(get, path = "/api/me/reminders", tag = USER, responses((status = 200, body = Reminders)))]
async fn list(State(app): State<AppState>, caller: CurrentUser) -> Result<Json<Reminders>> {
    let stored = app.store.reminders(&caller.user.id).await?;
    Ok(Json(Reminders {
        reminders: view(&app, stored).await?,
    }))
}

/// Sets a reminder (`text`, `due_at`, `repeat`, `confirm`) or a timer (`in_seconds`).
#[utoipa::path(post, path = "/api/me/reminders", tag = USER, request_body = NewBody,
    responses((status = 201, body = Reminder), (status = 409, description = "REMINDERS_MAX are waiting"),
        (status = 422, description = "a wrong text, time or rule")))]
async fn add(
    State(app): State<AppState>,
    caller: CurrentUser,
    AppJson(body): AppJson<NewBody>,
) -> Result<(StatusCode, Json<Reminder>)> {
    let made = create(&app, &caller.user.id, body, "user").await?;
    Ok((StatusCode::CREATED, Json(made)))
}

/// Cancels one of the caller's waiting reminders.
#[utoipa::path(delete, path = "/api/me/reminders/{id}", tag = USER,
    responses((status = 204), (status = 404, description = "no such reminder waiting")))]
async fn cancel(State(app): State<AppState>, caller: CurrentUser, Path(id): Path<String>) -> Result<StatusCode> {
    if app.store.cancel_reminder(&caller.user.id, &id).await? {
        crate::carers::changed(&app, &caller.user.id).await;
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::NotFound("reminder"))
    }
}

/// Confirms a reminder being delivered.
#[utoipa::path(post, path = "/api/me/reminders/{id}/confirm", tag = USER,
    responses((status = 200, body = Reminder), (status = 404, description = "no such reminder"),
        (status = 409, description = "not being delivered")))]
async fn confirm(State(app): State<AppState>, caller: CurrentUser, Path(id): Path<String>) -> Result<Json<Reminder>> {
    confirmed(&app, &caller.user.id, &id, care::By::Person("api"))
        .await
        .map(Json)
}

/// Confirms `user_id`'s reminder `id` `by` them or on their behalf; 409 when it is not being delivered.
pub(super) async fn confirmed(app: &App, user_id: &str, id: &str, by: care::By<'_>) -> Result<Reminder> {
    if !crate::care::confirm(app, user_id, id, by).await? {
        let state = app
            .store
            .reminder(user_id, id)
            .await?
            .ok_or(ApiError::NotFound("reminder"))?
            .state;
        return Err(ApiError::Conflict(format!(
            "the reminder is {state}, not being delivered"
        )));
    }
    let stored = app
        .store
        .reminder(user_id, id)
        .await?
        .ok_or(ApiError::NotFound("reminder"))?;
    Ok(view(app, vec![stored]).await?.remove(0))
}

async fn existing(app: &App, id: &str) -> Result<()> {
    app.store
        .user_by_id(id)
        .await?
        .map(|_| ())
        .ok_or(ApiError::NotFound("user"))
}

/// A person's reminders, for their carer.
#[utoipa::path(get, path = "/api/admin/users/{user_id}/reminders", tag = ADMIN,
    responses((status = 200, body = Reminders), (status = 404, description = "no such user")))]
async fn admin_list(State(app): State<AppState>, admin: Admin, Path(user_id): Path<String>) -> Result<Json<Reminders>> {
    existing(&app, &user_id).await?;
    super::access::looked(&app, &user_id, super::access::reader_of(&admin), "reminders").await?;
    let stored = app.store.reminders(&user_id).await?;
    Ok(Json(Reminders {
        reminders: view(&app, stored).await?,
    }))
}

/// Sets a reminder for a person, as a carer.
#[utoipa::path(post, path = "/api/admin/users/{user_id}/reminders", tag = ADMIN, request_body = NewBody,
    responses((status = 201, body = Reminder), (status = 404, description = "no such user"),
        (status = 409, description = "REMINDERS_MAX are waiting"), (status = 422, description = "a wrong text, time or rule")))]
async fn admin_add(
    State(app): State<AppState>,
    admin: Admin,
    Path(user_id): Path<String>,
    AppJson(body): AppJson<NewBody>,
) -> Result<(StatusCode, Json<Reminder>)> {
    existing(&app, &user_id).await?;
    let made = create(&app, &user_id, body, "admin").await?;
    audit(&app, &admin, &user_id, Action::ReminderAdd { id: &made.id }).await?;
    Ok((StatusCode::CREATED, Json(made)))
}

/// Cancels a person's reminder, as a carer.
#[utoipa::path(delete, path = "/api/admin/users/{user_id}/reminders/{id}", tag = ADMIN,
    responses((status = 204), (status = 404, description = "no such user or reminder waiting")))]
async fn admin_cancel(
    State(app): State<AppState>,
    admin: Admin,
    Path((user_id, id)): Path<(String, String)>,
) -> Result<StatusCode> {
    existing(&app, &user_id).await?;
    if !app.store.cancel_reminder(&user_id, &id).await? {
        return Err(ApiError::NotFound("reminder"));
    }
    crate::carers::changed(&app, &user_id).await;
    audit(&app, &admin, &user_id, Action::ReminderCancel { id: &id }).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Confirms a person's reminder being delivered, as a carer who saw to it: recorded as the admin's (channel
/// `admin`, named), never as the person's sign of life.
#[utoipa::path(post, path = "/api/admin/users/{user_id}/reminders/{id}/confirm", tag = ADMIN,
    responses((status = 200, body = Reminder), (status = 404, description = "no such user or reminder"),
        (status = 409, description = "not being delivered")))]
async fn admin_confirm(
    State(app): State<AppState>,
    admin: Admin,
    Path((user_id, id)): Path<(String, String)>,
) -> Result<Json<Reminder>> {
    existing(&app, &user_id).await?;
    // Named as the panel names the admin: their display name, or the key's name in the audit log.
    let name = admin.user.as_ref().map_or(admin.actor.as_str(), care::shown_name);
    let made = confirmed(&app, &user_id, &id, care::By::Admin(name)).await?;
    audit(&app, &admin, &user_id, Action::ReminderConfirm { id: &id }).await?;
    Ok(Json(made))
}
