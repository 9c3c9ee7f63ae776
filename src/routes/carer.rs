//! The carer's role. An admin names a resident's carers (`PUT /api/admin/users/{user_id}/carers`); a carer's
//! own token then reaches, under `/api/carer`, the care of those residents and nothing else: their day (the
//! check-in, reminders, the care log, the alarms, notices and missed check-ins nobody looked after), and their
//! reminders set, cancelled and confirmed on their behalf, each action audited as the carer. No conversation,
//! memory, setting or other user is reachable this way. What a carer does is the carer's: recorded in the care
//! log as theirs (channel `carer`, by display name) and never a sign of the resident's life. Every route
//! reaches a resident through the `carers` table in the same query ([`resident`], or [`today`]'s
//! `Store::board_of`, the board's rows): somebody who is not the caller's resident is 404, whether or not they
//! exist.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::audit::{Action, audit, audit_as};
use super::board::{Names, Notice, Person, Resident, TodaysAlarm, today};
use super::care::{Care, Checkin, care_of, plan_of};
use super::openapi::{ADMIN, CARER};
use super::reminders::{NewBody, Reminder, Reminders, confirmed, create, view};
use crate::app::{App, AppState};
use crate::auth::{Admin, CurrentUser};
use crate::error::{ApiError, AppJson, Result};
use crate::store::users::User;

/// The carers a resident may have.
const CARERS_MAX: usize = 20;

/// Routes of the carer's role.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_carers, put_carers))
        .routes(routes!(residents))
        .routes(routes!(resident_care))
        .routes(routes!(list_reminders, add_reminder))
        .routes(routes!(cancel_reminder))
        .routes(routes!(confirm_reminder))
        .routes(routes!(sessions))
        .routes(routes!(put_checkin))
        .routes(routes!(acknowledge_checkin))
        .routes(routes!(acknowledge))
        .routes(routes!(acknowledge_notice))
        .routes(routes!(resident_today))
        .routes(routes!(events))
}

/// Boards a carer may have open at once on one instance.
const BOARDS_MAX: usize = 4;
/// A comment line on a quiet board's stream, so that proxies keep it and a gone board is noticed.
const KEEP_ALIVE: std::time::Duration = std::time::Duration::from_secs(15);

/// A resident's carers.
#[derive(Serialize, ToSchema)]
struct Carers {
    carers: Vec<Person>,
}

/// The carers a resident is to have: user ids, at most 20; an empty list removes them all.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct CarersBody {
    carers: Vec<String>,
}

/// The caller's residents.
#[derive(Serialize, ToSchema)]
struct Residents {
    residents: Vec<Resident>,
}

/// A resident's day as their carer sees it.
#[derive(Serialize, ToSchema)]
struct ResidentCare {
    #[serde(flatten)]
    person: Person,
    #[serde(flatten)]
    care: Care,
    reminders: Vec<Reminder>,
    alarm: Option<TodaysAlarm>,
    /// Every alarm of the last day (with what came of it and who looks after it), and every older one nobody
    /// looked after, oldest first.
    alarms: Vec<TodaysAlarm>,
    /// The care notices of the last day, newest first, looked after or not.
    notices: Vec<Notice>,
}

/// `id`, when the caller cares for them; else 404.
async fn resident(app: &App, carer: &CurrentUser, id: &str) -> Result<User> {
    let found = app.store.resident_of(&carer.user.id, id).await?;
    found.ok_or(ApiError::NotFound("resident"))
}

/// How the audit log names a carer.
fn actor(carer: &CurrentUser) -> String {
    format!("carer:{}", carer.user.name)
}

/// Writes a carer's act into the resident's care log (channel `carer`), naming the carer by display name.
async fn logged(app: &App, carer: &CurrentUser, id: &str, what: &str, status: &str) -> Result<()> {
    let note = crate::care::By::Carer(crate::care::shown_name(&carer.user)).note();
    let detail = note.as_ref().map(crate::care::note::Note::english);
    Ok(app.store.add_care_log(id, what, "carer", status, detail).await?)
}

/// A resident's carers.
#[utoipa::path(get, path = "/api/admin/users/{user_id}/carers", tag = ADMIN,
    responses((status = 200, body = Carers), (status = 404, description = "no such user")))]
async fn get_carers(State(app): State<AppState>, _admin: Admin, Path(id): Path<String>) -> Result<Json<Carers>> {
    app.store.user_by_id(&id).await?.ok_or(ApiError::NotFound("user"))?;
    let carers = app.store.carers_of(&id).await?.into_iter().map(Person::from).collect();
    Ok(Json(Carers { carers }))
}

/// Makes these users the resident's carers (and nobody else); audited.
#[utoipa::path(put, path = "/api/admin/users/{user_id}/carers", tag = ADMIN, request_body = CarersBody,
    responses((status = 200, body = Carers), (status = 404, description = "no such user"),
        (status = 422, description = "an unknown user, the resident themselves, or more than 20")))]
async fn put_carers(
    State(app): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    AppJson(body): AppJson<CarersBody>,
) -> Result<Json<Carers>> {
    app.store.user_by_id(&id).await?.ok_or(ApiError::NotFound("user"))?;
    let mut ids = body.carers;
    ids.sort();
    ids.dedup();
    if ids.len() > CARERS_MAX {
        return Err(ApiError::invalid("carers", format!("at most {CARERS_MAX}")));
    }
    if ids.contains(&id) {
        return Err(ApiError::invalid("carers", "a resident cannot be their own carer"));
    }
    let known = app.store.users_of(&ids).await?;
    if let Some(unknown) = ids.iter().find(|carer| !known.iter().any(|u| &u.id == *carer)) {
        return Err(ApiError::invalid("carers", format!("no user {unknown}")));
    }
    app.store.set_carers(&id, &ids).await?;
    audit(&app, &admin, &id, Action::Carers { carers: ids.len() }).await?;
    crate::admins::help_changed(&app, &id).await;
    let carers = app.store.carers_of(&id).await?.into_iter().map(Person::from).collect();
    Ok(Json(Carers { carers }))
}

/// The caller's residents, each with where their care stands today.
#[utoipa::path(get, path = "/api/carer/residents", tag = CARER, responses((status = 200, body = Residents)))]
async fn residents(State(app): State<AppState>, carer: CurrentUser) -> Result<Json<Residents>> {
    let residents = today(&app, &carer.user.id, None).await?;
    for resident in &residents {
        super::access::looked(&app, &resident.person.id, &carer.user.id, "day").await?;
    }
    Ok(Json(Residents { residents }))
}

/// Where one resident's care stands today (a row of the board, read again when it changed).
#[utoipa::path(get, path = "/api/carer/residents/{user_id}/today", tag = CARER,
    responses((status = 200, body = Resident), (status = 404, description = "not the caller's resident")))]
async fn resident_today(
    State(app): State<AppState>,
    carer: CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<Resident>> {
    let row = today(&app, &carer.user.id, Some(&id)).await?.pop();
    let row = row.ok_or(ApiError::NotFound("resident"))?;
    super::access::looked(&app, &id, &carer.user.id, "day").await?;
    Ok(Json(row))
}

/// The board's live changes, `text/event-stream`: a `care` event `{"type": "care.changed", "resident_id"}`
/// whenever a resident's care changes on any instance; then `GET …/residents/{id}/today` gives the new row.
/// A board that reconnects has missed nothing it cannot read again (`GET /api/carer/residents`).
#[utoipa::path(get, path = "/api/carer/events", tag = CARER,
    responses((status = 200, description = "the stream of changes", content_type = "text/event-stream"),
        (status = 429, description = "four boards of the carer are open here already")))]
async fn events(State(app): State<AppState>, carer: CurrentUser) -> Result<axum::response::Response> {
    let boards = crate::carers::boards_of(&carer.user.id);
    if app.notify.open(&boards) >= BOARDS_MAX {
        return Err(ApiError::TooManyRequests(format!(
            "at most {BOARDS_MAX} boards of one carer are open at once"
        )));
    }
    Ok(live(&app, &boards, "care"))
}

/// The live events `name`'s connections are pushed, as `text/event-stream` events of the type `kind`: kept
/// alive, and ended when the gateway stops (the page reconnects to whichever instance answers).
pub(super) fn live(app: &App, name: &str, kind: &'static str) -> axum::response::Response {
    use axum::response::IntoResponse;
    use axum::response::sse::{Event, KeepAlive, Sse};
    let subscription = app.notify.subscribe(name);
    let stream = futures_util::stream::unfold(subscription, move |mut subscription| async move {
        let change = subscription.next().await?;
        let event = Event::default().event(kind).json_data(change);
        Some((event, subscription))
    });
    let mut hold = app.stop.hold();
    let stream = futures_util::StreamExt::take_until(stream, async move { crate::task::stopped(&mut hold).await });
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
        .into_response()
}

/// One resident's day: the check-in, the care log, the reminders and an alarm of the last day.
#[utoipa::path(get, path = "/api/carer/residents/{user_id}", tag = CARER,
    responses((status = 200, body = ResidentCare), (status = 404, description = "not the caller's resident")))]
async fn resident_care(
    State(app): State<AppState>,
    carer: CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<ResidentCare>> {
    let row = today(&app, &carer.user.id, Some(&id))
        .await?
        .pop()
        .ok_or(ApiError::NotFound("resident"))?;
    super::access::looked(&app, &id, &carer.user.id, "care_log").await?;
    let care = care_of(&app, &id).await?;
    let reminders = view(&app, app.store.reminders(&id).await?).await?;
    let since = crate::store::now_ms().saturating_sub(super::board::SHOWN_MS);
    let notices = app.store.care_notices(&id, since).await?;
    let names: Names = (app.store.carers_of(&id).await?.into_iter())
        .map(|c| (c.name.clone(), crate::care::shown_name(&c).to_string()))
        .collect();
    let zone = &care.checkin.time_zone;
    Ok(Json(ResidentCare {
        notices: notices.into_iter().map(|n| Notice::of(n, zone, &names)).collect(),
        person: row.person,
        care,
        reminders,
        alarm: row.alarm,
        alarms: row.alarms,
    }))
}

/// A resident's reminders.
#[utoipa::path(get, path = "/api/carer/residents/{user_id}/reminders", tag = CARER,
    responses((status = 200, body = Reminders), (status = 404, description = "not the caller's resident")))]
async fn list_reminders(
    State(app): State<AppState>,
    carer: CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<Reminders>> {
    resident(&app, &carer, &id).await?;
    super::access::looked(&app, &id, &carer.user.id, "reminders").await?;
    let reminders = view(&app, app.store.reminders(&id).await?).await?;
    Ok(Json(Reminders { reminders }))
}

/// Sets a reminder for a resident (the body of `POST /api/me/reminders`); audited as the carer.
#[utoipa::path(post, path = "/api/carer/residents/{user_id}/reminders", tag = CARER, request_body = NewBody,
    responses((status = 201, body = Reminder), (status = 404, description = "not the caller's resident"),
        (status = 409, description = "REMINDERS_MAX are waiting"), (status = 422, description = "a wrong text, time or rule")))]
async fn add_reminder(
    State(app): State<AppState>,
    carer: CurrentUser,
    Path(id): Path<String>,
    AppJson(body): AppJson<NewBody>,
) -> Result<(StatusCode, Json<Reminder>)> {
    resident(&app, &carer, &id).await?;
    let made = create(&app, &id, body, "carer").await?;
    audit_as(&app, &actor(&carer), &id, Action::ReminderAdd { id: made.id() }).await?;
    Ok((StatusCode::CREATED, Json(made)))
}

/// Cancels a resident's waiting reminder; audited as the carer.
#[utoipa::path(delete, path = "/api/carer/residents/{user_id}/reminders/{id}", tag = CARER,
    responses((status = 204), (status = 404, description = "not the caller's resident, or no such reminder waiting")))]
async fn cancel_reminder(
    State(app): State<AppState>,
    carer: CurrentUser,
    Path((user_id, id)): Path<(String, String)>,
) -> Result<StatusCode> {
    resident(&app, &carer, &user_id).await?;
    if !app.store.cancel_reminder(&user_id, &id).await? {
        return Err(ApiError::NotFound("reminder"));
    }
    crate::carers::changed(&app, &user_id).await;
    audit_as(&app, &actor(&carer), &user_id, Action::ReminderCancel { id: &id }).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Confirms a resident's reminder being delivered, as the carer who saw to it: recorded as the carer's
/// (channel `carer`, by display name), never as the resident's sign of life; audited as the carer.
#[utoipa::path(post, path = "/api/carer/residents/{user_id}/reminders/{id}/confirm", tag = CARER,
    responses((status = 200, body = Reminder), (status = 404, description = "not the caller's resident, or no such reminder"),
        (status = 409, description = "not being delivered")))]
async fn confirm_reminder(
    State(app): State<AppState>,
    carer: CurrentUser,
    Path((user_id, id)): Path<(String, String)>,
) -> Result<Json<Reminder>> {
    resident(&app, &carer, &user_id).await?;
    let by = crate::care::By::Carer(crate::care::shown_name(&carer.user));
    let made = confirmed(&app, &user_id, &id, by).await?;
    audit_as(&app, &actor(&carer), &user_id, Action::ReminderConfirm { id: &id }).await?;
    Ok(Json(made))
}

/// A resident's conversation, as a carer may see it: its title and times, never what was said.
#[derive(Serialize, ToSchema)]
struct Shared {
    id: String,
    title: String,
    /// Epoch milliseconds.
    created_at: i64,
    updated_at: i64,
}

/// A resident's conversations.
#[derive(Serialize, ToSchema)]
struct SharedSessions {
    sessions: Vec<Shared>,
}

/// The list of a resident's conversations, when they share it (`share_with_carers`); audited as the carer.
#[utoipa::path(get, path = "/api/carer/residents/{user_id}/sessions", tag = CARER,
    responses((status = 200, body = SharedSessions), (status = 403, description = "the resident does not share it"),
        (status = 404, description = "not the caller's resident")))]
async fn sessions(
    State(app): State<AppState>,
    carer: CurrentUser,
    Path(id): Path<String>,
) -> Result<Json<SharedSessions>> {
    resident(&app, &carer, &id).await?;
    if app.store.prefs(&id).await?.share_with_carers != Some(true) {
        return Err(ApiError::Forbidden(
            "the resident does not share their conversations with carers".into(),
        ));
    }
    super::access::looked(&app, &id, &carer.user.id, "conversations").await?;
    let sessions: Vec<Shared> = app
        .store
        .sessions(&id)
        .await?
        .into_iter()
        .map(|s| Shared {
            id: s.id,
            title: s.title,
            created_at: s.created_at,
            updated_at: s.updated_at,
        })
        .collect();
    audit_as(
        &app,
        &actor(&carer),
        &id,
        Action::CarerSessions { count: sessions.len() },
    )
    .await?;
    Ok(Json(SharedSessions { sessions }))
}

/// A resident's check-in as a carer sets it: each field present is set (`""` or null turns it off).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct CheckinBody {
    /// "08:00-10:00" in the resident's zone, or "" for no check-in.
    #[serde(default, deserialize_with = "crate::prefs::present")]
    window: Option<Option<String>>,
    /// `YYYY-MM-DD`: away through that day; "" when back.
    #[serde(default, deserialize_with = "crate::prefs::present")]
    away_until: Option<Option<String>>,
    /// The resident's IANA time zone ("Europe/Berlin"), which the window and every time of theirs keep; ""
    /// for the gateway's.
    #[serde(default, deserialize_with = "crate::prefs::present")]
    time_zone: Option<Option<String>>,
}

/// Sets a resident's check-in window, days away or time zone (as the prefs `checkin_window`, `away_until` and
/// `timezone` are checked); audited as the carer.
#[utoipa::path(put, path = "/api/carer/residents/{user_id}/checkin", tag = CARER, request_body = CheckinBody,
    responses((status = 200, body = Checkin), (status = 404, description = "not the caller's resident"),
        (status = 422, description = "a window or date that is none")))]
async fn put_checkin(
    State(app): State<AppState>,
    carer: CurrentUser,
    Path(id): Path<String>,
    AppJson(body): AppJson<CheckinBody>,
) -> Result<Json<Checkin>> {
    resident(&app, &carer, &id).await?;
    let mut changes = serde_json::Map::new();
    let fields = [
        ("checkin_window", &body.window),
        ("away_until", &body.away_until),
        ("timezone", &body.time_zone),
    ];
    for (key, value) in fields {
        if let Some(value) = value {
            changes.insert(key.into(), value.clone().map_or(serde_json::Value::Null, Into::into));
        }
    }
    let changed = crate::prefs::change(&changes, crate::prefs::Writer::User)?;
    let before = app.store.prefs(&id).await?;
    let after = app.store.merge_prefs(&id, changed).await?;
    crate::care::checkin::replan(&app, &id, &before, &after).await?;
    logged(&app, &carer, &id, crate::care::checkin::WHAT, "set").await?;
    crate::carers::changed(&app, &id).await;
    let action = Action::Checkin {
        window: body.window.is_some(),
        away_until: body.away_until.is_some(),
        time_zone: body.time_zone.is_some(),
    };
    audit_as(&app, &actor(&carer), &id, action).await?;
    plan_of(&app, &id).await.map(Json)
}

/// Who has acknowledged an alarm, after the carer did.
#[derive(Serialize, ToSchema)]
struct Acknowledged {
    alarm_id: String,
    /// Contacts and carers (`carer:<name>`), first first.
    acknowledged_by: Vec<String>,
}

/// Acknowledges a resident's alarm as the carer: the contacts' reminder is called off as a contact's
/// acknowledgement calls it off; audited as the carer.
#[utoipa::path(post, path = "/api/carer/residents/{user_id}/alarms/{alarm_id}/acknowledge", tag = CARER,
    responses((status = 200, body = Acknowledged), (status = 404, description = "not the caller's resident, or not their alarm")))]
async fn acknowledge(
    State(app): State<AppState>,
    carer: CurrentUser,
    Path((id, alarm_id)): Path<(String, String)>,
) -> Result<Json<Acknowledged>> {
    resident(&app, &carer, &id).await?;
    let who = actor(&carer);
    let first = app
        .store
        .acknowledge_as(&id, &alarm_id, &who)
        .await?
        .ok_or(ApiError::NotFound("alarm"))?;
    if first {
        app.metrics.incr(crate::metrics::EMERGENCY_ACKNOWLEDGEMENTS_TOTAL, &[]);
        logged(&app, &carer, &id, "alarm", "acknowledged").await?;
        crate::carers::changed(&app, &id).await;
    }
    audit_as(
        &app,
        &who,
        &id,
        Action::AlarmAcknowledge {
            alarm_id: &alarm_id,
            first,
        },
    )
    .await?;
    let by = app.store.acknowledged_by(&alarm_id).await?;
    Ok(Json(Acknowledged {
        alarm_id,
        acknowledged_by: by.into_iter().map(|a| a.contact).collect(),
    }))
}

/// Acknowledges a resident's care notice as the carer (the same as a contact's link: recorded in the care
/// log, the notice no longer open on the board); audited as the carer.
#[utoipa::path(post, path = "/api/carer/residents/{user_id}/notices/{notice_id}/acknowledge", tag = CARER,
    responses((status = 204), (status = 404, description = "not the caller's resident, or not their notice")))]
async fn acknowledge_notice(
    State(app): State<AppState>,
    carer: CurrentUser,
    Path((id, notice_id)): Path<(String, String)>,
) -> Result<StatusCode> {
    resident(&app, &carer, &id).await?;
    let who = actor(&carer);
    let (first, _about) = app
        .store
        .acknowledge_care_as(&id, &notice_id, &who)
        .await?
        .ok_or(ApiError::NotFound("notice"))?;
    if first {
        logged(&app, &carer, &id, "notice", "acknowledged").await?;
        crate::carers::changed(&app, &id).await;
    }
    audit_as(&app, &who, &id, Action::NoticeAcknowledge { first }).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Acknowledges the day a resident left the check-in unanswered, as the carer: it is then looked after on the
/// board (named), recorded in the care log; audited as the carer. The resident's next check-in asks as ever.
#[utoipa::path(post, path = "/api/carer/residents/{user_id}/checkin/acknowledge", tag = CARER,
    responses((status = 204), (status = 404, description = "not the caller's resident, or no missed check-in")))]
async fn acknowledge_checkin(
    State(app): State<AppState>,
    carer: CurrentUser,
    Path(id): Path<String>,
) -> Result<StatusCode> {
    resident(&app, &carer, &id).await?;
    let who = actor(&carer);
    let first = app
        .store
        .acknowledge_missed_checkin(&id, &who)
        .await?
        .ok_or(ApiError::NotFound("missed check-in"))?;
    if first {
        logged(&app, &carer, &id, crate::care::checkin::WHAT, "acknowledged").await?;
        crate::carers::changed(&app, &id).await;
    }
    audit_as(&app, &who, &id, Action::CheckinAcknowledge { first }).await?;
    Ok(StatusCode::NO_CONTENT)
}
