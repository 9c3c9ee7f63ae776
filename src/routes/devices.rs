//! `/api/devices`: the devices a user talks to the gateway from.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::me::Deleted;
use super::openapi::USER;

use crate::app::AppState;
use crate::auth::CurrentUser;
use crate::error::{ApiError, AppJson, Result};
use crate::store::devices::Device;

/// Kinds a device may have.
pub const KINDS: &[&str] = &["browser", "phone", "tablet", "speaker", "other"];

/// Devices per user.
const MAX_DEVICES: usize = 50;

/// Routes of `/api/devices`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, register))
        .routes(routes!(rename, remove))
}

/// A device to register.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct NewDevice {
    name: String,
    /// browser, phone, tablet, speaker or other (the default).
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    platform: Option<String>,
}

/// A device's new name.
#[derive(Deserialize, ToSchema)]
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

/// The caller's devices.
#[utoipa::path(get, path = "/api/devices", tag = USER, responses((status = 200, body = Vec<Device>)))]
async fn list(State(app): State<AppState>, caller: CurrentUser) -> Result<Json<Vec<Device>>> {
    Ok(Json(app.store.devices(&caller.user.id).await?))
}

/// Registers a device (at most 50 per user).
#[utoipa::path(post, path = "/api/devices", tag = USER, request_body = NewDevice,
    responses((status = 201, body = Device), (status = 409, description = "50 devices already")))]
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

/// Renames a device.
#[utoipa::path(put, path = "/api/devices/{device_id}", tag = USER, request_body = Rename,
    responses((status = 200, body = Device)))]
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

/// Removes a device.
#[utoipa::path(delete, path = "/api/devices/{device_id}", tag = USER, responses((status = 200, body = Deleted)))]
async fn remove(State(app): State<AppState>, caller: CurrentUser, Path(id): Path<String>) -> Result<Json<Deleted>> {
    if app.store.delete_device(&caller.user.id, &id).await? {
        Ok(Json(Deleted { deleted: id }))
    } else {
        Err(ApiError::NotFound("device"))
    }
}
