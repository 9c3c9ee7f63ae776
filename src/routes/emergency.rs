//! `POST /api/emergency`, `GET /api/emergency/status`, the contacts' acknowledgement
//! (`GET`/`POST /api/emergency/ack/{token}`, no login), Twilio's callback of the call
//! (`POST /api/emergency/call/{id}`, signed) and the admin list `GET /api/admin/emergencies`.

use std::collections::HashMap;
use std::net::SocketAddr;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, header};
use axum::response::{Html, IntoResponse};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::app::AppState;
use crate::auth::{Admin, CurrentUser};
use crate::emergency::ack::{self, Page};
use crate::emergency::{self, Answer, Press};
use crate::error::{ApiError, AppJson, Result};
use crate::store::emergency::Acknowledgement;

/// The routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/emergency", post(raise))
        .route("/api/emergency/status", get(status))
        .route("/api/emergency/ack/{token}", get(ack_page).post(ack_confirm))
        .route("/api/emergency/call/{id}", post(call_callback))
        .route("/api/admin/emergencies", get(list))
}

/// The browser's Geolocation fix.
#[derive(Debug, Deserialize)]
struct Geo {
    latitude: f64,
    longitude: f64,
    /// Metres.
    accuracy: Option<f64>,
    /// Milliseconds since the epoch.
    timestamp: Option<i64>,
}

#[derive(Debug, Deserialize)]
struct DeviceKind {
    mobile: Option<bool>,
    platform: Option<String>,
}

#[derive(Debug, Deserialize)]
struct EmergencyBody {
    geo: Option<Geo>,
    geo_error: Option<String>,
    device: Option<DeviceKind>,
}

fn press(body: Option<EmergencyBody>) -> Result<Press> {
    let Some(body) = body else {
        return Ok(Press::default());
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
    })
}

/// One press of the help button. No quota applies.
async fn raise(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    caller: CurrentUser,
    body: Option<AppJson<EmergencyBody>>,
) -> Result<Json<Answer>> {
    let press = press(body.map(|AppJson(b)| b))?;
    let base_url = base_url(&app, peer, &headers);
    Ok(Json(emergency::raise(&app, &caller.user, press, base_url).await?))
}

/// Where acknowledgement links point: `PUBLIC_URL`, else the address the button was pressed at (its scheme
/// from `X-Forwarded-Proto` only when a trusted proxy says so).
fn base_url(app: &AppState, peer: SocketAddr, headers: &HeaderMap) -> String {
    if let Some(url) = &app.settings.emergency.public_url {
        return url.clone();
    }
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let trusted = app.settings.trusted_proxy_ips.iter().any(|n| n.contains(&peer.ip()));
    let scheme = match header("x-forwarded-proto") {
        Some("https") if trusted => "https",
        _ => "http",
    };
    let host = header("host")
        .filter(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_alphanumeric() || "-.:[]".contains(c)))
        .map_or_else(|| app.settings.listen_addr.to_string(), String::from);
    format!("{scheme}://{host}")
}

/// The link of an alarm's e-mail or SMS: the alarm and a button.
async fn ack_page(State(app): State<AppState>, Path(token): Path<String>) -> Result<impl IntoResponse> {
    let page = ack::page(&app, &token, Page::Ask).await?;
    Ok(([(header::CACHE_CONTROL, "no-store")], Html(page)))
}

/// The button: the contact confirms having seen the alarm. A second use changes nothing.
async fn ack_confirm(State(app): State<AppState>, Path(token): Path<String>) -> Result<impl IntoResponse> {
    let page = ack::page(&app, &token, Page::Thanks).await?;
    Ok(([(header::CACHE_CONTROL, "no-store")], Html(page)))
}

/// Twilio posts the digits the callee pressed; the answer is TwiML.
async fn call_callback(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: std::result::Result<Bytes, BytesRejection>,
) -> Result<impl IntoResponse> {
    let body = body?;
    let form: Vec<(String, String)> =
        serde_urlencoded::from_bytes(&body).map_err(|_| ApiError::invalid("body", "expected a form"))?;
    let signature = headers.get("x-twilio-signature").and_then(|v| v.to_str().ok());
    let twiml = ack::call(&app, &id, signature, &form).await?;
    Ok(([(header::CONTENT_TYPE, "text/xml; charset=utf-8")], twiml))
}

async fn status(State(app): State<AppState>, caller: CurrentUser) -> Result<Json<Value>> {
    Ok(Json(emergency::status(&app, &caller.user).await?))
}

/// The newest 500 sends (alarms, retries, reminders): time, category (the outcome, or `escalated`), user,
/// channels, and who confirmed the alarm.
async fn list(State(app): State<AppState>, _admin: Admin) -> Result<Json<Value>> {
    let events = app.store.emergency_events(500).await?;
    let mut out = Vec::with_capacity(events.len());
    // An alarm's sends (alarm, retries, reminder) and a person's alarms share their lookups.
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
        let user = names[&e.user_id].clone();
        out.push(json!({
            "id": e.id,
            "at": e.created_at,
            "category": e.category,
            "user_id": e.user_id,
            "user_name": user,
            "alarm_id": e.alarm_id,
            "acknowledged": !acknowledged_by.is_empty(),
            "acknowledged_by": acknowledged_by,
            "details": serde_json::from_str::<Value>(&e.details).unwrap_or(Value::Null),
        }));
    }
    Ok(Json(Value::from(out)))
}
