//! `/api/admin/config/{key}`: runtime overrides of the 16 keys; every write is audit-logged.

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::app::AppState;
use crate::auth::Admin;
use crate::config::keys::{self, KeySpec};
use crate::error::{ApiError, AppJson, Result};
use crate::routes::admin_users::audit;

/// Routes of the runtime configuration.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/admin/config", get(list))
        .route("/api/admin/config/{key}", get(read).put(set).delete(reset))
}

fn spec(key: &str) -> Result<&'static KeySpec> {
    keys::find(key).ok_or(ApiError::NotFound("config key"))
}

async fn entry(app: &AppState, spec: &KeySpec) -> Result<Value> {
    let overrides = app.runtime.overrides().await?;
    let effective = app.runtime.effective().await?;
    Ok(json!({
        "key": spec.key,
        "value": overrides.get(spec.key),
        "effective": effective.get(spec.key),
        "environment": app.runtime.env_value(spec.key),
        "meaning": spec.meaning,
    }))
}

async fn list(State(app): State<AppState>, _admin: Admin) -> Result<Json<Vec<Value>>> {
    let mut out = Vec::new();
    for spec in &keys::KEYS {
        out.push(entry(&app, spec).await?);
    }
    Ok(Json(out))
}

async fn read(State(app): State<AppState>, _admin: Admin, Path(key): Path<String>) -> Result<Json<Value>> {
    Ok(Json(entry(&app, spec(&key)?).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetBody {
    value: Value,
}

async fn set(
    State(app): State<AppState>,
    admin: Admin,
    Path(key): Path<String>,
    AppJson(body): AppJson<SetBody>,
) -> Result<Json<Value>> {
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
        json!({"chars": value.chars().count()})
    } else {
        json!(value)
    };
    audit(&app, &admin, "config.set", spec.key, json!({"value": shown})).await?;
    Ok(Json(entry(&app, spec).await?))
}

async fn reset(State(app): State<AppState>, admin: Admin, Path(key): Path<String>) -> Result<Json<Value>> {
    let spec = spec(&key)?;
    let removed = app.runtime.reset(spec).await?;
    app.invalidate_config();
    audit(&app, &admin, "config.reset", spec.key, json!({"removed": removed})).await?;
    Ok(Json(entry(&app, spec).await?))
}
