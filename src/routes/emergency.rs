//! `POST /api/emergency`, `GET /api/emergency/status`, the contacts' acknowledgement
//! (`GET`/`POST /api/emergency/ack/{token}`, no login), Twilio's callback of the call
//! (`POST /api/emergency/call/{id}`, signed) and the admin list `GET /api/admin/emergencies`.

use std::collections::HashMap;
use std::net::SocketAddr;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, header};
use axum::response::{Html, IntoResponse};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::audit::{Action, audit};
use super::openapi::{ADMIN, PUBLIC, USER};

use crate::app::AppState;
use crate::auth::{Admin, CurrentUser};
use crate::emergency::ack::{self, Page};
use crate::emergency::{self, Answer, Press, Status};
use crate::error::{ApiError, AppJson, AppQuery, Result};
use crate::store::emergency::Acknowledgement;

/// The routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(raise))
        .routes(routes!(status))
        .routes(routes!(decline))
        .routes(routes!(ack_page, ack_confirm))
        .routes(routes!(call_callback))
        .routes(routes!(list))
        .routes(routes!(end_cooldown))
}

/// The browser's Geolocation fix.
#[derive(Debug, Deserialize, ToSchema)]
struct Geo {
    latitude: f64,
    longitude: f64,
    /// Metres.
    accuracy: Option<f64>,
    /// Milliseconds since the epoch.
    timestamp: Option<i64>,
}

/// The device the button was pressed on.
#[derive(Debug, Deserialize, ToSchema)]
struct DeviceKind {
    mobile: Option<bool>,
    platform: Option<String>,
}

/// A press: where the person is (or why that is unknown) and on what device.
#[derive(Debug, Deserialize, ToSchema)]
struct EmergencyBody {
    geo: Option<Geo>,
    geo_error: Option<String>,
    device: Option<DeviceKind>,
    /// The page's language (one of the eight), for the answer of a person who set none.
    language: Option<String>,
}

fn press(body: Option<EmergencyBody>, headers: &HeaderMap) -> Result<Press> {
    let Some(body) = body else {
        return Ok(Press {
            language: page_language(None, headers)?,
            ..Press::default()
        });
    };
    let fix = match body.geo {
        Some(g) => {
            if !(-90.0..=90.0).contains(&g.latitude) || !(-180.0..=180.0).contains(&g.longitude) {
                return Err(ApiError::invalid(
                    "geo",
                    "latitude must be -90..90 and longitude -180..180",
                ));
            }
            if g.accuracy.is_some_and(|a| !(0.0..=1.0e7).contains(&a)) {
                return Err(ApiError::invalid("geo.accuracy", "expected metres from 0"));
            }
            Some((g.latitude, g.longitude, g.accuracy, g.timestamp))
        }
        None => None,
    };
    let clip = |s: String, max: usize| s.chars().filter(|c| !c.is_control()).take(max).collect::<String>();
    Ok(Press {
        fix,
        geo_error: body.geo_error.map(|e| clip(e, 300)),
        mobile: body.device.as_ref().and_then(|d| d.mobile),
        platform: body.device.and_then(|d| d.platform).map(|p| clip(p, 100)),
        language: page_language(body.language.as_deref(), headers)?,
        way: crate::emergency::Way::Button,
        said: None,
    })
}

/// The language a request asks the help function to speak: `language` when given (one of the eight, else a
/// 422), else the first of `Accept-Language`'s that the gateway speaks.
fn page_language(given: Option<&str>, headers: &HeaderMap) -> Result<Option<String>> {
    if let Some(language) = given {
        return match crate::config::languages().iter().find(|l| **l == language) {
            Some(l) => Ok(Some((*l).to_string())),
            None => Err(ApiError::invalid(
                "language",
                format!("expected one of {}", crate::config::languages().join(", ")),
            )),
        };
    }
    let accepted = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    Ok(accepted
        .split(',')
        .filter_map(|tag| tag.split(';').next()?.trim().split('-').next())
        .map(str::to_ascii_lowercase)
        .find(|l| crate::config::languages().contains(&l.as_str())))
}

/// The status's query: the page's language.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct StatusQuery {
    /// The page's language (one of the eight), for the words of a person who set none.
    language: Option<String>,
}

/// The help button: alerts the emergency contacts by e-mail, SMS and call (no quota); inside the cooldown
/// sends nothing and says what the window's alarm achieved and when a press sends again.
#[utoipa::path(post, path = "/api/emergency", tag = USER, request_body(content = Option<EmergencyBody>),
    responses((status = 200, body = Answer)))]
async fn raise(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    caller: CurrentUser,
    body: Option<AppJson<EmergencyBody>>,
) -> Result<Json<Answer>> {
    let mut press = press(body.map(|AppJson(b)| b), &headers)?;
    let base_url = base_url(&app, peer, &headers);
    // The button answers a typed help question too (the page's dialog after it): a "ja" typed after it must
    // not raise a second alarm, and the contacts learn that the person wrote, and what.
    if let Some(said) = emergency::typed::answered(&app, &caller.user.id).await? {
        press.way = emergency::Way::Typed;
        press.said = Some(emergency::Press::clip(&said, emergency::SAID_MAX_CHARS)).filter(|s| !s.is_empty());
    }
    Ok(Json(emergency::raise(&app, &caller.user, press, base_url).await?))
}

/// The answer to the help question's no, given by a button (the page's dialog after a typed call for help).
#[derive(Debug, Serialize, ToSchema)]
struct Declined {
    /// `declined`.
    status: &'static str,
    /// Whether a typed help question was open (it is not any more).
    was_open: bool,
    /// What to tell the person, in their language: nobody is alerted.
    message: String,
}

/// The person said no to the help question by a button: nobody is alerted, and the question is closed (a
/// "ja" typed afterwards is a question for the model again).
#[utoipa::path(delete, path = "/api/emergency/question", tag = USER, params(StatusQuery),
    responses((status = 200, body = Declined)))]
async fn decline(
    State(app): State<AppState>,
    headers: HeaderMap,
    caller: CurrentUser,
    AppQuery(query): AppQuery<StatusQuery>,
) -> Result<Json<Declined>> {
    let was_open = emergency::typed::settle(&app, &caller.user.id).await?.is_some();
    let asked = page_language(query.language.as_deref(), &headers)?;
    let prefs = app.store.prefs(&caller.user.id).await?;
    let language = emergency::language(&app, &prefs, asked.as_deref());
    Ok(Json(Declined {
        status: "declined",
        was_open,
        message: emergency::spoken::declined(&language),
    }))
}

/// Where acknowledgement links point: `PUBLIC_URL`, else the address the button was pressed at (its scheme
/// from `X-Forwarded-Proto` only when a trusted proxy says so).
fn base_url(app: &AppState, peer: SocketAddr, headers: &HeaderMap) -> String {
    if let Some(url) = &app.settings.emergency.public_url {
        return url.clone();
    }
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let trusted = app
        .settings
        .auth
        .trusted_proxy_ips
        .iter()
        .any(|n| n.contains(&peer.ip()));
    let scheme = match header("x-forwarded-proto") {
        Some("https") if trusted => "https",
        _ => "http",
    };
    let host = header("host")
        .filter(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_alphanumeric() || "-.:[]".contains(c)))
        .map_or_else(|| app.settings.server.listen_addr.to_string(), String::from);
    format!("{scheme}://{host}")
}

/// A contact's acknowledgement link (from the alarm's e-mail or SMS, valid 24 h): the alarm and a confirm
/// button; 404 for a wrong or expired link.
#[utoipa::path(get, path = "/api/emergency/ack/{token}", tag = PUBLIC,
    responses((status = 200, description = "the alarm and a confirm button", content_type = "text/html")))]
async fn ack_page(State(app): State<AppState>, Path(token): Path<String>) -> Result<impl IntoResponse> {
    let page = ack::page(&app, &token, Page::Ask).await?;
    Ok(([(header::CACHE_CONTROL, "no-store")], Html(page)))
}

/// Confirms having seen the alarm (cancels the pending reminder); a second use changes nothing.
#[utoipa::path(post, path = "/api/emergency/ack/{token}", tag = PUBLIC,
    responses((status = 200, description = "a thank-you page", content_type = "text/html")))]
async fn ack_confirm(State(app): State<AppState>, Path(token): Path<String>) -> Result<impl IntoResponse> {
    let page = ack::page(&app, &token, Page::Thanks).await?;
    Ok(([(header::CACHE_CONTROL, "no-store")], Html(page)))
}

/// Twilio's <Gather> callback of an alarm call (form fields, X-Twilio-Signature required): Digits=1
/// confirms; answers TwiML.
#[utoipa::path(post, path = "/api/emergency/call/{id}", tag = PUBLIC,
    request_body(content_type = "application/x-www-form-urlencoded", content = Object),
    responses((status = 200, description = "TwiML", content_type = "text/xml"),
        (status = 403, description = "no valid X-Twilio-Signature")))]
async fn call_callback(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: std::result::Result<Bytes, BytesRejection>,
) -> Result<impl IntoResponse> {
    let post = ack::TwilioPost::read(&headers, &body?)?;
    let twiml = ack::call(&app, &id, &post).await?;
    Ok(([(header::CONTENT_TYPE, "text/xml; charset=utf-8")], twiml))
}

/// Cooldown state, whether a press would reach anybody, the newest alarm and who confirmed it.
#[utoipa::path(get, path = "/api/emergency/status", tag = USER, params(StatusQuery),
    responses((status = 200, body = Status)))]
async fn status(
    State(app): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    AppQuery(query): AppQuery<StatusQuery>,
) -> Result<Json<Status>> {
    let language = page_language(query.language.as_deref(), &headers)?;
    Ok(Json(emergency::status(&app, &caller.user, language.as_deref()).await?))
}

/// What ending a cooldown window did.
#[derive(Debug, Serialize, ToSchema)]
struct CooldownEnded {
    user_id: String,
    /// Whether a window was open (a press now sends at once either way).
    was_open: bool,
}

/// Ends a person's help cooldown window, once the operator has fixed their channels: the next press sends at
/// once. The alarms and their log stay; audit-logged.
#[utoipa::path(delete, path = "/api/admin/users/{user_id}/emergency/cooldown", tag = ADMIN,
    responses((status = 200, body = CooldownEnded), (status = 404, description = "no such user")))]
async fn end_cooldown(
    State(app): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> Result<Json<CooldownEnded>> {
    let user = app.store.user_by_id(&id).await?.ok_or(ApiError::NotFound("user"))?;
    let was_open = emergency::end_cooldown(&app, &user).await?;
    audit(&app, &admin, &id, Action::CooldownEnd { was_open }).await?;
    Ok(Json(CooldownEnded { user_id: id, was_open }))
}

/// One send of the help function.
#[derive(Serialize, ToSchema)]
struct EmergencyEvent {
    id: String,
    /// Epoch ms.
    at: i64,
    /// The outcome (`alerted`, `no_recipients`, `delivery_failed`, `cooldown`), or `escalated`.
    category: String,
    user_id: String,
    user_name: Option<String>,
    alarm_id: Option<String>,
    acknowledged: bool,
    acknowledged_by: Vec<Acknowledgement>,
    /// The channels' results.
    details: Value,
}

/// The newest 500 sends (alarms and their reminders; retries of earlier versions): time, category (the outcome, or `escalated`), user,
/// channels, and who confirmed the alarm.
#[utoipa::path(get, path = "/api/admin/emergencies", tag = ADMIN, responses((status = 200, body = Vec<EmergencyEvent>)))]
async fn list(State(app): State<AppState>, _admin: Admin) -> Result<Json<Vec<EmergencyEvent>>> {
    let events = app.store.emergency_events(500).await?;
    let mut out = Vec::with_capacity(events.len());
    // An alarm's sends (alarm, reminder) and a person's alarms share their lookups.
    let mut names: HashMap<String, Option<String>> = HashMap::new();
    let mut confirmations: HashMap<String, Vec<Acknowledgement>> = HashMap::new();
    for e in events {
        if !names.contains_key(&e.user_id) {
            let name = app.store.user_by_id(&e.user_id).await?.map(|u| u.name);
            names.insert(e.user_id.clone(), name);
        }
        let acknowledged_by = match &e.alarm_id {
            Some(alarm) => {
                if !confirmations.contains_key(alarm) {
                    confirmations.insert(alarm.clone(), app.store.acknowledged_by(alarm).await?);
                }
                confirmations[alarm].clone()
            }
            None => Vec::new(),
        };
        out.push(EmergencyEvent {
            user_name: names[&e.user_id].clone(),
            details: serde_json::from_str::<Value>(&e.details).unwrap_or(Value::Null),
            id: e.id,
            at: e.created_at,
            category: e.category,
            user_id: e.user_id,
            alarm_id: e.alarm_id,
            acknowledged: !acknowledged_by.is_empty(),
            acknowledged_by,
        });
    }
    Ok(Json(out))
}
