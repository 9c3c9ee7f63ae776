//! `/api/devices`: the devices a user talks to the gateway from.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, put};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::app::AppState;
use crate::auth::CurrentUser;
use crate::error::{ApiError, AppJson, Result};
use crate::store::devices::Device;

/// Kinds a device may have.
pub const KINDS: &[&str] = &["browser", "phone", "tablet", "speaker", "other"];

/// Devices per user.
const MAX_DEVICES: usize = 50;

/// Routes of `/api/devices`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/devices", get(list).post(register))
        .route("/api/devices/{device_id}", put(rename).delete(remove))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewDevice {
    name: String,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    platform: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Rename {
    name: String,
}

fn field(name: &str, value: &str, max: usize, required: bool) -> Result<String> {
    let v = value.trim();
    if required && v.is_empty() {
        return Err(ApiError::invalid(name, "must not be empty"));
    }
    if v.chars().count() > max || v.chars().any(char::is_control) {
        return Err(ApiError::invalid(
            name,
            format!("expected at most {max} printable characters"),
        ));
    }
    Ok(v.to_string())
}

async fn list(State(app): State<AppState>, caller: CurrentUser) -> Result<Json<Vec<Device>>> {
    Ok(Json(app.store.devices(&caller.user.id).await?))
}

async fn register(
    State(app): State<AppState>,
    caller: CurrentUser,
    AppJson(body): AppJson<NewDevice>,
) -> Result<(StatusCode, Json<Device>)> {
    let name = field("name", &body.name, 100, true)?;
    let kind = body.kind.unwrap_or_else(|| "other".into());
    if !KINDS.contains(&kind.as_str()) {
        return Err(ApiError::invalid(
            "kind",
            format!("expected one of {}", KINDS.join(", ")),
        ));
    }
    let platform = field("platform", body.platform.as_deref().unwrap_or_default(), 100, false)?;
    if app.store.devices(&caller.user.id).await?.len() >= MAX_DEVICES {
        return Err(ApiError::Conflict(format!("at most {MAX_DEVICES} devices per user")));
    }
    let device = app.store.add_device(&caller.user.id, &name, &kind, &platform).await?;
    Ok((StatusCode::CREATED, Json(device)))
}

async fn rename(
    State(app): State<AppState>,
    caller: CurrentUser,
    Path(id): Path<String>,
    AppJson(body): AppJson<Rename>,
) -> Result<Json<Device>> {
    let name = field("name", &body.name, 100, true)?;
    let device = app.store.rename_device(&caller.user.id, &id, &name).await?;
    device.map(Json).ok_or(ApiError::NotFound("device"))
}

async fn remove(State(app): State<AppState>, caller: CurrentUser, Path(id): Path<String>) -> Result<Json<Value>> {
    if app.store.delete_device(&caller.user.id, &id).await? {
        Ok(Json(json!({"deleted": id})))
    } else {
        Err(ApiError::NotFound("device"))
    }
}
