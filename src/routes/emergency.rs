//! `POST /api/emergency`, `GET /api/emergency/status` and the admin list `GET /api/admin/emergencies`.

use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::app::AppState;
use crate::auth::{Admin, CurrentUser};
use crate::emergency::{self, Press};
use crate::error::{ApiError, AppJson, Result};

/// The routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/emergency", post(raise))
        .route("/api/emergency/status", get(status))
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
    caller: CurrentUser,
    body: Option<AppJson<EmergencyBody>>,
) -> Result<Json<Value>> {
    let press = press(body.map(|AppJson(b)| b))?;
    Ok(Json(emergency::raise(&app, &caller.user, press).await?))
}

async fn status(State(app): State<AppState>, caller: CurrentUser) -> Result<Json<Value>> {
    Ok(Json(emergency::status(&app, &caller.user).await?))
}

/// The newest 500 alarms: time, category (the outcome), user, channels.
async fn list(State(app): State<AppState>, _admin: Admin) -> Result<Json<Value>> {
    let events = app.store.emergency_events(500).await?;
    let mut out = Vec::with_capacity(events.len());
    for e in events {
        let user = app.store.user_by_id(&e.user_id).await?;
        out.push(json!({
            "id": e.id,
            "at": e.created_at,
            "category": e.category,
            "user_id": e.user_id,
            "user_name": user.map(|u| u.name),
            "details": serde_json::from_str::<Value>(&e.details).unwrap_or(Value::Null),
        }));
    }
    Ok(Json(Value::from(out)))
}
