//! `/api/admin/config/{key}`: runtime overrides of the 16 keys; every write is audit-logged.

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::openapi::ADMIN;

use crate::app::AppState;
use crate::auth::Admin;
use crate::config::keys::{self, KeySpec};
use crate::error::{ApiError, AppJson, Result};
use crate::routes::audit::{Action, Shown, audit};

/// Routes of the runtime configuration.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(read, set, reset))
}

/// A runtime key: its override, its value from the environment, and the value in effect.
#[derive(Serialize, ToSchema)]
#[schema(as = ConfigEntry)]
struct Entry {
    key: &'static str,
    /// The override; null when there is none.
    value: Option<String>,
    effective: String,
    environment: Option<String>,
    meaning: &'static str,
}

fn spec(key: &str) -> Result<&'static KeySpec> {
    keys::find(key).ok_or(ApiError::NotFound("config key"))
}

async fn entry(app: &AppState, spec: &KeySpec) -> Result<Entry> {
    let overrides = app.runtime.overrides().await?;
    let effective = app.runtime.effective().await?;
    Ok(Entry {
        key: spec.key,
        value: overrides.get(spec.key).cloned(),
        effective: effective.text(spec.id),
        environment: app.runtime.env_value(spec.id),
        meaning: spec.meaning,
    })
}

/// All 16 runtime keys with override, environment and effective value.
#[utoipa::path(get, path = "/api/admin/config", tag = ADMIN, responses((status = 200, body = Vec<Entry>)))]
async fn list(State(app): State<AppState>, _admin: Admin) -> Result<Json<Vec<Entry>>> {
    let mut out = Vec::new();
    for spec in &keys::KEYS {
        out.push(entry(&app, spec).await?);
    }
    Ok(Json(out))
}

/// One runtime key.
#[utoipa::path(get, path = "/api/admin/config/{key}", tag = ADMIN, responses((status = 200, body = Entry)))]
async fn read(State(app): State<AppState>, _admin: Admin, Path(key): Path<String>) -> Result<Json<Entry>> {
    Ok(Json(entry(&app, spec(&key)?).await?))
}

/// A new override.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct SetBody {
    /// A string, number or boolean, checked like the setting.
    value: Value,
}

/// Sets an override (audit-logged); unknown key 404, invalid value 422.
#[utoipa::path(put, path = "/api/admin/config/{key}", tag = ADMIN, request_body = SetBody,
    responses((status = 200, body = Entry)))]
async fn set(
    State(app): State<AppState>,
    admin: Admin,
    Path(key): Path<String>,
    AppJson(body): AppJson<SetBody>,
) -> Result<Json<Entry>> {
    let spec = spec(&key)?;
    let raw = match &body.value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => return Err(ApiError::invalid("value", "expected a string, number or boolean")),
    };
    let value = spec
        .validate(&raw)
        .map_err(|problem| ApiError::invalid("value", problem))?;
    app.runtime.set(spec, &value, &admin.actor).await?;
    app.invalidate_config();
    // The system prompt may be long: the audit keeps its length, not its text.
    let shown = if spec.key == "system_prompt" {
        Shown::Length {
            chars: value.chars().count(),
        }
    } else {
        Shown::Value(&value)
    };
    audit(&app, &admin, spec.key, Action::ConfigSet { value: shown }).await?;
    Ok(Json(entry(&app, spec).await?))
}

/// Removes an override (audit-logged).
#[utoipa::path(delete, path = "/api/admin/config/{key}", tag = ADMIN, responses((status = 200, body = Entry)))]
async fn reset(State(app): State<AppState>, admin: Admin, Path(key): Path<String>) -> Result<Json<Entry>> {
    let spec = spec(&key)?;
    let removed = app.runtime.reset(spec).await?;
    app.invalidate_config();
    audit(&app, &admin, spec.key, Action::ConfigReset { removed }).await?;
    Ok(Json(entry(&app, spec).await?))
}
