//! The daily check-in and the care log: the person's plan and their "Mir geht es gut" under
//! `/api/me/checkin`, and a carer's view of a person under `/api/admin/users/{user_id}/care` (the check-in
//! plan, and what care did: each reminder's deliveries and each check-in's tries, newest first); and Twilio's
//! answer of care's call to a mobile (`/api/care/call/{user_id}/{what}`, signed).

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, header};
use axum::response::{Html, IntoResponse};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::openapi::{ADMIN, PUBLIC, USER};
use crate::app::{App, AppState};
use crate::auth::{Admin, CurrentUser};
use crate::care::{self, checkin};
use crate::error::{ApiError, Result};
use crate::prefs::Prefs;
use crate::store::checkins::StoredCheckin;

/// Entries of the care log shown.
const LOG_ENTRIES: i64 = 100;

/// Routes of the check-in and the care log.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_checkin, fine))
        .routes(routes!(admin_care))
        .routes(routes!(call_answer))
        .routes(routes!(ack_page, ack_confirm))
}

/// A person's daily check-in.
#[derive(Serialize, ToSchema)]
pub(super) struct Checkin {
    /// The `checkin_window` pref ("08:00-10:00"), or null when there is no check-in.
    window: Option<String>,
    /// The `away_until` pref, or null.
    away_until: Option<String>,
    /// The person's IANA time zone.
    pub(super) time_zone: String,
    /// The next (or current) window, RFC 3339 with the person's offset; null without a check-in.
    opens_at: Option<String>,
    due_at: Option<String>,
    /// `waiting` (for the window's end) or `calling` (the person was asked and no answer came yet).
    state: Option<String>,
    /// The last sign of life (a turn, a reminder the person confirmed, "I am fine"; never a carer's act), RFC 3339.
    signed_at: Option<String>,
}

/// One entry of the care log.
#[derive(Serialize, ToSchema)]
struct CareEntry {
    /// `reminder` or `checkin`.
    what: String,
    /// The reminder's text (reminders only).
    text: Option<String>,
    /// `page`, `house_line`, `mail`, `api`, `said`, `none`, or `carer` / `admin` for what they did on the person's
    /// behalf (the detail names them).
    channel: String,
    /// `delivered`, `unreachable`, `held`, `confirmed`, `answered`, `ok`, `away`, `missed`, `sent`, …
    status: String,
    /// The detail as an English record ("1 connection(s)"), or a server's error, a recipient.
    detail: Option<String>,
    /// The detail as data: its kind (`connections`, `no-page-open`, …; the phrasebook's `admin-note-<code>`),
    /// or null when it is of no kind (a server's error, a recipient, a row from before), shown as `detail` has it.
    detail_code: Option<String>,
    /// The values of `detail_code` by name: `count` and `minutes` numbers, `clock` a time of day (`HH:MM`, the
    /// person's zone), `date` a `YYYY-MM-DD`, others text.
    #[schema(value_type = Object)]
    detail_args: serde_json::Map<String, serde_json::Value>,
    /// RFC 3339.
    at: String,
}

impl CareEntry {
    /// An entry of the log, its detail read as data ([`care::note`]).
    fn new(
        what: String,
        text: Option<String>,
        (channel, status): (String, String),
        detail: Option<String>,
        at: String,
    ) -> Self {
        let note = detail.as_deref().map(care::note::Note::read);
        Self {
            what,
            text,
            channel,
            status,
            detail_code: note.as_ref().and_then(|n| n.code()).map(String::from),
            detail_args: note.map(|n| n.args()).unwrap_or_default(),
            detail,
            at,
        }
    }
}

/// A carer's view of a person's care.
#[derive(Serialize, ToSchema)]
pub(super) struct Care {
    pub(super) checkin: Checkin,
    /// Newest first, at most 100.
    log: Vec<CareEntry>,
}

pub(super) async fn plan_of(app: &App, user_id: &str) -> Result<Checkin> {
    let prefs = app.store.prefs(user_id).await?;
    let stored = app.store.checkin(user_id).await?;
    Ok(checkin_of(app, &prefs, stored.as_ref()))
}

/// The check-in of the person with `prefs`, planned as `stored`.
pub(super) fn checkin_of(app: &App, prefs: &Prefs, stored: Option<&StoredCheckin>) -> Checkin {
    let zone = care::person_zone_name(app, prefs);
    let at = |ms: i64| care::rfc3339(ms, &zone);
    let set = |v: &Option<String>| Some(Prefs::text(v).to_string()).filter(|s| !s.is_empty());
    Checkin {
        window: set(&prefs.checkin_window),
        away_until: set(&prefs.away_until),
        opens_at: stored.map(|c| at(c.opens_at)),
        due_at: stored.map(|c| at(c.due_at)),
        state: stored.map(|c| c.state.clone()),
        signed_at: stored.and_then(|c| c.signed_at).map(at),
        time_zone: zone,
    }
}

/// The caller's daily check-in.
#[utoipa::path(get, path = "/api/me/checkin", tag = USER, responses((status = 200, body = Checkin)))]
async fn get_checkin(State(app): State<AppState>, caller: CurrentUser) -> Result<Json<Checkin>> {
    plan_of(&app, &caller.user.id).await.map(Json)
}

/// "Mir geht es gut": a sign of life; it answers the check-in that is asking.
#[utoipa::path(post, path = "/api/me/checkin", tag = USER, responses((status = 200, body = Checkin)))]
async fn fine(State(app): State<AppState>, caller: CurrentUser) -> Result<Json<Checkin>> {
    checkin::signed(&app, &caller.user.id, "page").await?;
    plan_of(&app, &caller.user.id).await.map(Json)
}

/// A person's check-in plan and care log.
#[utoipa::path(get, path = "/api/admin/users/{user_id}/care", tag = ADMIN,
    responses((status = 200, body = Care), (status = 404, description = "no such user")))]
async fn admin_care(State(app): State<AppState>, admin: Admin, Path(id): Path<String>) -> Result<Json<Care>> {
    app.store.user_by_id(&id).await?.ok_or(ApiError::NotFound("user"))?;
    super::access::looked(&app, &id, super::access::reader_of(&admin), "care_log").await?;
    care_of(&app, &id).await.map(Json)
}

/// A person's check-in plan and care log, newest first.
pub(super) async fn care_of(app: &App, id: &str) -> Result<Care> {
    let checkin = plan_of(app, id).await?;
    let zone = checkin.time_zone.clone();
    let mut log: Vec<(i64, CareEntry)> = Vec::new();
    for e in app.store.care_log(id, LOG_ENTRIES).await? {
        let at = care::rfc3339(e.at, &zone);
        log.push((e.at, CareEntry::new(e.what, None, (e.channel, e.status), e.detail, at)));
    }
    for (d, text) in app.store.user_reminder_deliveries(id, LOG_ENTRIES).await? {
        let at = care::rfc3339(d.at, &zone);
        let entry = CareEntry::new("reminder".into(), Some(text), (d.channel, d.status), d.detail, at);
        log.push((d.at, entry));
    }
    log.sort_by_key(|(at, _)| std::cmp::Reverse(*at));
    let log = log.into_iter().take(LOG_ENTRIES as usize).map(|(_, e)| e).collect();
    Ok(Care { checkin, log })
}

/// Twilio's `<Gather>` answer of care's call (form fields, X-Twilio-Signature required): `what` is
/// `reminder-{id}`, `checkin` or `help`; Digits=1 or a spoken yes confirms. Answers TwiML.
#[utoipa::path(post, path = "/api/care/call/{user_id}/{what}", tag = PUBLIC,
    request_body(content_type = "application/x-www-form-urlencoded", content = Object),
    responses((status = 200, description = "TwiML", content_type = "text/xml"),
        (status = 403, description = "no valid X-Twilio-Signature")))]
async fn call_answer(
    State(app): State<AppState>,
    Path((user_id, what)): Path<(String, String)>,
    headers: HeaderMap,
    body: std::result::Result<Bytes, BytesRejection>,
) -> Result<impl IntoResponse> {
    let post = crate::emergency::ack::TwilioPost::read(&headers, &body?)?;
    let twiml = care::called::answer(&app, (&user_id, &what), &post).await?;
    Ok(([(header::CONTENT_TYPE, "text/xml; charset=utf-8")], twiml))
}

/// A care notice's acknowledgement link: the page with its one button (no login; a wrong link is 404).
#[utoipa::path(get, path = "/api/care/ack/{token}", tag = PUBLIC,
    responses((status = 200, description = "the page", content_type = "text/html"), (status = 404)))]
async fn ack_page(State(app): State<AppState>, Path(token): Path<String>) -> Result<impl IntoResponse> {
    let page = care::ack::page(&app, &token, false).await?;
    Ok(([(header::CACHE_CONTROL, "no-store")], Html(page)))
}

/// The button of the link's page: the contact is looking after it (recorded in the person's care log once).
#[utoipa::path(post, path = "/api/care/ack/{token}", tag = PUBLIC,
    responses((status = 200, description = "a thank-you page", content_type = "text/html"), (status = 404)))]
async fn ack_confirm(State(app): State<AppState>, Path(token): Path<String>) -> Result<impl IntoResponse> {
    let page = care::ack::page(&app, &token, true).await?;
    Ok(([(header::CACHE_CONTROL, "no-store")], Html(page)))
}
