//! The language-model menu of the admin: presets and their selection, the live model list of a provider, the
//! local backend's status, and the switch between the local backends.

use std::time::{Duration, Instant};

use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::admin_users::audit;
use crate::app::{AppState, LOCAL_BACKEND_KEY};
use crate::auth::Admin;
use crate::config::keys;
use crate::config::presets::PRESET_KEYS;
use crate::error::{ApiError, AppJson, Result};
use crate::providers::llm::local::BACKENDS;
use crate::providers::send_json;

/// How long a provider's model list is reused.
const MODEL_LIST_TTL: Duration = Duration::from_secs(600);
/// How long the backend may take to list its models or report its state.
const BACKEND_TIMEOUT: Duration = Duration::from_secs(5);

/// The routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/admin/models", get(presets))
        .route("/api/admin/models/select", post(select))
        .route("/api/admin/{provider}/models", get(provider_models))
        .route("/api/admin/llm/status", get(status))
        .route("/api/admin/llm/backend", post(switch_backend))
}

/// The presets and which one is active.
async fn presets(State(app): State<AppState>, _admin: Admin) -> Result<Json<Value>> {
    let eff = app.runtime.effective().await?;
    let overrides = app.runtime.overrides().await?;
    let provider = eff.get("default_llm_provider").to_string();
    let model_key = if provider == "cloud" {
        "cloud_llm_model"
    } else {
        "local_llm_model"
    };
    let overridden = PRESET_KEYS.iter().any(|k| overrides.contains_key(*k));
    let active_index = app.settings.model_presets.iter().position(|p| {
        if p.default {
            !overridden
        } else {
            overridden && p.values.iter().all(|(k, v)| v.as_str() == Some(eff.get(k)))
        }
    });
    Ok(Json(json!({
        "presets": app.settings.model_presets,
        "active": {"provider": provider, "model": eff.get(model_key), "active_index": active_index},
    })))
}

#[derive(Debug, Deserialize)]
struct SelectBody {
    /// The preset's id (`index` is accepted instead).
    preset: Option<String>,
    index: Option<usize>,
}

/// Applies a preset: the default removes the model overrides, any other sets its values.
async fn select(State(app): State<AppState>, admin: Admin, AppJson(body): AppJson<SelectBody>) -> Result<Json<Value>> {
    let presets = &app.settings.model_presets;
    let chosen = match (&body.preset, body.index) {
        (Some(id), _) => presets.iter().find(|p| &p.id == id),
        (None, Some(i)) => presets.get(i),
        (None, None) => return Err(ApiError::invalid("preset", "give the preset's id")),
    }
    .ok_or(ApiError::NotFound("preset"))?;
    if chosen.default {
        for key in PRESET_KEYS {
            if let Some(spec) = keys::find(key) {
                app.runtime.reset(spec).await?;
            }
        }
    } else {
        for (key, value) in &chosen.values {
            if let (Some(spec), Some(v)) = (keys::find(key), value.as_str()) {
                app.runtime.set(spec, v, &admin.actor).await?;
            }
        }
    }
    app.invalidate_config();
    audit(
        &app,
        &admin,
        "models.select",
        &chosen.id,
        json!({"values": chosen.values}),
    )
    .await?;
    presets_after(&app).await
}

async fn presets_after(app: &AppState) -> Result<Json<Value>> {
    let eff = app.runtime.effective().await?;
    let provider = eff.get("default_llm_provider").to_string();
    let model_key = if provider == "cloud" {
        "cloud_llm_model"
    } else {
        "local_llm_model"
    };
    Ok(Json(
        json!({"selected": true, "active": {"provider": provider, "model": eff.get(model_key)}}),
    ))
}

/// The provider's live model list (`GET …/models` of its OpenAI-compatible API), cached 10 minutes; a failure
/// is 502 and is not cached.
async fn provider_models(
    State(app): State<AppState>,
    _admin: Admin,
    Path(provider): Path<String>,
) -> Result<Json<Value>> {
    let (base, key) = match provider.as_str() {
        "cloud" => (
            app.settings.providers.cloud_llm_url.clone(),
            app.settings.providers.cloud_llm_api_key.clone(),
        ),
        "local" => (app.providers.local.v1_url(), None),
        _ => return Err(ApiError::NotFound("provider")),
    };
    if let Ok(cache) = app.model_lists.lock()
        && let Some((at, list)) = cache.get(&provider)
        && at.elapsed() < MODEL_LIST_TTL
    {
        return Ok(Json(json!({"provider": provider, "cached": true, "models": list})));
    }
    let mut call = app
        .providers
        .http
        .get(format!("{}/models", base.trim_end_matches('/')))
        .timeout(BACKEND_TIMEOUT);
    if let Some(key) = &key {
        call = call.bearer_auth(secrecy::ExposeSecret::expose_secret(key));
    }
    let body = send_json(&provider, call)
        .await
        .map_err(|e| ApiError::Upstream(e.to_string()))?;
    let models: Vec<Value> = body["data"]
        .as_array()
        .ok_or_else(|| ApiError::Upstream(format!("{provider} sent no model list")))?
        .iter()
        .filter_map(|m| {
            let id = m["id"].as_str()?;
            Some(
                json!({"id": id, "name": m.get("name").and_then(Value::as_str).unwrap_or(id),
                "context_length": m.get("context_length"), "pricing": m.get("pricing")}),
            )
        })
        .collect();
    let list = Value::from(models);
    if let Ok(mut cache) = app.model_lists.lock() {
        cache.insert(provider.clone(), (Instant::now(), list.clone()));
    }
    Ok(Json(json!({"provider": provider, "cached": false, "models": list})))
}

/// What a backend reports: its loaded models and the ones it could load.
async fn backend_models(app: &AppState, backend: &str) -> std::result::Result<(Vec<String>, Vec<String>), String> {
    let base = app.providers.local.server_url_of(backend);
    let http = &app.providers.http;
    // Errors name the backend's configured address, never the paths asked or a library's wording of them.
    let base_ref = base.as_str();
    let fetch = |url: String| async move {
        let base = base_ref;
        let failed = |e: reqwest::Error| {
            if e.is_connect() {
                format!("{backend} is not reachable at {base}")
            } else {
                crate::providers::ProviderError::from_http(backend, &e).to_string()
            }
        };
        let response = http.get(&url).timeout(BACKEND_TIMEOUT).send().await.map_err(failed)?;
        if !response.status().is_success() {
            return Err(format!("{backend} at {base} answered {}", response.status().as_u16()));
        }
        response.json::<Value>().await.map_err(failed)
    };
    let names = |v: &Value, list: &str, field: &str| -> Vec<String> {
        v[list]
            .as_array()
            .map(|l| l.iter().filter_map(|m| m[field].as_str().map(String::from)).collect())
            .unwrap_or_default()
    };
    if backend == "ollama" {
        let available = fetch(format!("{base}/api/tags")).await?;
        let running = fetch(format!("{base}/api/ps")).await?;
        Ok((names(&running, "models", "name"), names(&available, "models", "name")))
    } else {
        let models = fetch(format!("{base}/v1/models")).await?;
        let ids = names(&models, "data", "id");
        Ok((ids.clone(), ids))
    }
}

/// GPU load from `nvidia-smi`, or null when there is none.
async fn gpu_load() -> Value {
    let run = tokio::process::Command::new("nvidia-smi")
        .args([
            "--query-gpu=index,name,utilization.gpu,memory.used,memory.total",
            "--format=csv,noheader,nounits",
        ])
        .kill_on_drop(true)
        .output();
    let Ok(Ok(out)) = tokio::time::timeout(BACKEND_TIMEOUT, run).await else {
        return Value::Null;
    };
    if !out.status.success() {
        return Value::Null;
    }
    let gpus: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| {
            let f: Vec<&str> = line.split(',').map(str::trim).collect();
            let num = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok());
            json!({"index": num(0), "name": f.get(1), "utilization_percent": num(2),
                "memory_used_mib": num(3), "memory_total_mib": num(4)})
        })
        .collect();
    Value::from(gpus)
}

/// The local backend: which, its model, whether it answers, what it has loaded, GPU load, service state.
async fn status(State(app): State<AppState>, _admin: Admin) -> Result<Json<Value>> {
    let eff = app.runtime.effective().await?;
    let backend = app.providers.local.name();
    let (reachable, error, loaded, available) = match backend_models(&app, &backend).await {
        Ok((loaded, available)) => (true, None, loaded, available),
        Err(e) => (false, Some(e), Vec::new(), Vec::new()),
    };
    Ok(Json(json!({
        "backend": backend,
        "url": app.providers.local.v1_url(),
        "model": eff.get("local_llm_model"),
        "default_llm_provider": eff.get("default_llm_provider"),
        "backend_status": {"reachable": reachable, "error": error},
        "loaded_models": loaded,
        "available_models": available,
        "gpu": gpu_load().await,
        "service": {"status": "ok", "version": env!("CARGO_PKG_VERSION"),
            "uptime_seconds": app.started_at.elapsed().as_secs(), "database": app.store.ping().await},
    })))
}

#[derive(Debug, Deserialize)]
struct BackendBody {
    backend: String,
    model: String,
}

/// Model names as backends spell them: letters, digits and `._:/-`, starting with a letter or digit.
fn valid_model_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || "._:/-".contains(c))
}

/// Switches the local backend and its model. Every outcome, accepted or not, is audited.
async fn switch_backend(
    State(app): State<AppState>,
    admin: Admin,
    AppJson(body): AppJson<BackendBody>,
) -> Result<Json<Value>> {
    let detail = json!({"backend": body.backend, "model": body.model});
    let result = try_switch(&app, &admin, &body).await;
    match &result {
        Ok(_) => audit(&app, &admin, "llm.backend", &body.backend, detail).await?,
        Err(err) => {
            let mut detail = detail;
            detail["rejected"] = json!(err.to_string());
            audit(&app, &admin, "llm.backend.rejected", &body.backend, detail).await?;
        }
    }
    result.map(Json)
}

async fn try_switch(app: &AppState, admin: &Admin, body: &BackendBody) -> Result<Value> {
    if !BACKENDS.contains(&body.backend.as_str()) {
        return Err(ApiError::invalid(
            "backend",
            format!("expected one of {}", BACKENDS.join(", ")),
        ));
    }
    if !valid_model_name(&body.model) {
        return Err(ApiError::invalid(
            "model",
            "expected 1-128 letters, digits or ._:/- starting with a letter or digit",
        ));
    }
    let Ok(_guard) = app.backend_switch.try_lock() else {
        return Err(ApiError::Conflict("another backend switch is running".into()));
    };
    let (_, available) = backend_models(app, &body.backend).await.map_err(ApiError::Upstream)?;
    if !available.iter().any(|m| m == &body.model) {
        return Err(ApiError::invalid(
            "model",
            format!(
                "{} has no model {:?} (it has: {})",
                body.backend,
                body.model,
                available.join(", ")
            ),
        ));
    }
    let spec = keys::find("local_llm_model").ok_or_else(|| ApiError::Internal("local_llm_model key".into()))?;
    app.runtime.set(spec, &body.model, &admin.actor).await?;
    app.store
        .set_override(LOCAL_BACKEND_KEY, &body.backend, &admin.actor)
        .await?;
    app.providers.local.set(&body.backend);
    app.invalidate_config();
    Ok(json!({"backend": body.backend, "model": body.model, "url": app.providers.local.v1_url()}))
}

#[cfg(test)]
mod tests {
    #[test]
    fn model_names_follow_the_pattern() {
        for ok in [
            "qwen3:4b",
            "library/llama3.2:3b",
            "SmolLM2-135M-Instruct.Q4_1.gguf",
            "smollm2",
        ] {
            assert!(super::valid_model_name(ok), "{ok}");
        }
        for bad in ["", "-x", "a b", "x;rm", "../etc", &"x".repeat(129)] {
            assert!(!super::valid_model_name(bad), "{bad}");
        }
    }
}
