//! The language-model menu of the admin: presets and their selection, the live model list of a provider, the
//! local backend's status, and the switch between the local backends.

use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::audit::{Action, audit};
use super::openapi::ADMIN;
use crate::app::{AppState, LOCAL_BACKEND_KEY};
use crate::auth::Admin;
use crate::config::keys;
use crate::config::keys::Key;
use crate::config::presets::{PRESET_KEYS, Preset};
use crate::error::{ApiError, AppJson, Result};
use crate::providers::llm::local::{BACKENDS, url_setting};
use crate::providers::{LlmId, Origin, ProviderError, ProviderId};

/// How long a provider's model list is reused.
const MODEL_LIST_TTL: Duration = Duration::from_secs(600);
/// How long the backend may take to list its models or report its state.
const BACKEND_TIMEOUT: Duration = Duration::from_secs(5);

/// The routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(presets))
        .routes(routes!(select))
        .routes(routes!(provider_models))
        .routes(routes!(status))
        .routes(routes!(switch_backend))
}

/// The model menu.
#[derive(Serialize, ToSchema)]
struct Presets {
    presets: Vec<Preset>,
    active: Active,
}

/// The provider and model in effect.
#[derive(Serialize, ToSchema)]
struct Active {
    provider: String,
    model: String,
    /// The languages the model answers in, when they are known (the engines' model, a preset's).
    #[serde(skip_serializing_if = "Option::is_none")]
    languages: Option<Vec<String>>,
    /// The preset whose values are in effect; absent after a selection.
    #[serde(skip_serializing_if = "Option::is_none")]
    active_index: Option<Option<usize>>,
}

/// The answer to a selection.
#[derive(Serialize, ToSchema)]
struct Selected {
    selected: bool,
    active: Active,
}

/// Model presets (the default one first), the active provider, model and active_index.
#[utoipa::path(get, path = "/api/admin/models", tag = ADMIN, responses((status = 200, body = Presets)))]
async fn presets(State(app): State<AppState>, _admin: Admin) -> Result<Json<Presets>> {
    let eff = app.runtime.effective().await?;
    let overrides = app.runtime.overrides().await?;
    let id: LlmId = eff.provider(Key::DefaultLlmProvider);
    let (provider, model_key) = (id.to_string(), Key::model_of(id));
    let overridden = PRESET_KEYS.iter().any(|k| overrides.contains_key(*k));
    let active_index = app.settings.model_presets.iter().position(|p| {
        if p.default {
            !overridden
        } else {
            overridden
                && p.values
                    .iter()
                    .all(|(k, v)| keys::find(k).is_some_and(|spec| v.as_str() == Some(eff.get(spec.id))))
        }
    });
    Ok(Json(Presets {
        presets: app.settings.model_presets.clone(),
        active: Active {
            languages: crate::turn::languages::of_model(&app, id, eff.get(model_key)).map(|(_, l)| l),
            model: eff.get(model_key).to_string(),
            provider,
            active_index: Some(active_index),
        },
    }))
}

/// The preset to apply.
#[derive(Debug, Deserialize, ToSchema)]
struct SelectBody {
    /// The preset's id (`index` is accepted instead).
    preset: Option<String>,
    index: Option<usize>,
}

/// Applies a preset: the default removes the model overrides, any other sets its values (audit-logged).
#[utoipa::path(post, path = "/api/admin/models/select", tag = ADMIN, request_body = SelectBody,
    responses((status = 200, body = Selected), (status = 404, description = "no such preset")))]
async fn select(
    State(app): State<AppState>,
    admin: Admin,
    AppJson(body): AppJson<SelectBody>,
) -> Result<Json<Selected>> {
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
    let values = &chosen.values;
    audit(&app, &admin, &chosen.id, Action::ModelsSelect { values }).await?;
    presets_after(&app).await
}

async fn presets_after(app: &AppState) -> Result<Json<Selected>> {
    let eff = app.runtime.effective().await?;
    let id: LlmId = eff.provider(Key::DefaultLlmProvider);
    let (provider, model_key) = (id.to_string(), Key::model_of(id));
    Ok(Json(Selected {
        selected: true,
        active: Active {
            languages: crate::turn::languages::of_model(app, id, eff.get(model_key)).map(|(_, l)| l),
            model: eff.get(model_key).to_string(),
            provider,
            active_index: None,
        },
    }))
}

/// A provider's model list.
#[derive(Serialize, ToSchema)]
struct ModelList {
    provider: String,
    /// Whether the list came from the 10-minute cache.
    cached: bool,
    /// `{id, name, context_length, pricing}` each.
    #[schema(value_type = Vec<Object>)]
    models: Value,
}

/// The provider's live model list (`GET …/models` of its OpenAI-compatible API), cached 10 minutes; a failure
/// is 502 and is not cached.
#[utoipa::path(get, path = "/api/admin/{provider}/models", tag = ADMIN,
    params(("provider" = String, Path, description = "local or cloud")),
    responses((status = 200, body = ModelList), (status = 409, description = "the provider is not configured"),
        (status = 502, description = "the provider did not answer")))]
async fn provider_models(
    State(app): State<AppState>,
    _admin: Admin,
    Path(provider): Path<String>,
) -> Result<Json<ModelList>> {
    let id = LlmId::parse(&provider).map_err(|_| ApiError::NotFound("provider"))?;
    if !app.providers.llm.get(id).capabilities().configured {
        let setting = crate::openai::models::missing_setting(&app, id);
        return Err(ApiError::Conflict(format!("{id} is not configured: set {setting}")));
    }
    if let Ok(cache) = app.model_lists.lock()
        && let Some((at, list)) = cache.get(&provider)
        && at.elapsed() < MODEL_LIST_TTL
    {
        return Ok(Json(ModelList {
            cached: true,
            models: list.clone(),
            provider,
        }));
    }
    let listed = app.providers.llm.get(id).models(BACKEND_TIMEOUT).await;
    let listed = listed.map_err(|e| ApiError::Upstream(e.to_string()))?;
    let models: Vec<Value> = listed
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
    Ok(Json(ModelList {
        provider,
        cached: false,
        models: list,
    }))
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
                ProviderError::from_http(Origin::new(backend, url_setting(backend)), &e).to_string()
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

/// One GPU's load.
#[derive(Serialize, ToSchema)]
struct GpuLoad {
    index: Option<f64>,
    name: Option<String>,
    utilization_percent: Option<f64>,
    memory_used_mib: Option<f64>,
    memory_total_mib: Option<f64>,
}

/// GPU load from `nvidia-smi`, or null when there is none.
async fn gpu_load() -> Option<Vec<GpuLoad>> {
    let run = tokio::process::Command::new("nvidia-smi")
        .args([
            "--query-gpu=index,name,utilization.gpu,memory.used,memory.total",
            "--format=csv,noheader,nounits",
        ])
        .kill_on_drop(true)
        .output();
    let Ok(Ok(out)) = tokio::time::timeout(BACKEND_TIMEOUT, run).await else {
        return None;
    };
    if !out.status.success() {
        return None;
    }
    let gpus = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| {
            let f: Vec<&str> = line.split(',').map(str::trim).collect();
            let num = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok());
            GpuLoad {
                index: num(0),
                name: f.get(1).map(|n| n.to_string()),
                utilization_percent: num(2),
                memory_used_mib: num(3),
                memory_total_mib: num(4),
            }
        })
        .collect();
    Some(gpus)
}

/// The local backend's state.
#[derive(Serialize, ToSchema)]
struct LlmStatus {
    backend: String,
    url: String,
    model: String,
    default_llm_provider: String,
    backend_status: BackendStatus,
    loaded_models: Vec<String>,
    available_models: Vec<String>,
    /// Null without `nvidia-smi`.
    gpu: Option<Vec<GpuLoad>>,
    service: Service,
}

/// Whether the backend answers.
#[derive(Serialize, ToSchema)]
struct BackendStatus {
    reachable: bool,
    error: Option<String>,
}

/// The gateway itself.
#[derive(Serialize, ToSchema)]
struct Service {
    status: &'static str,
    version: &'static str,
    uptime_seconds: u64,
    database: bool,
}

/// The local backend: which, its model, whether it answers, what it has loaded, GPU load, service state.
#[utoipa::path(get, path = "/api/admin/llm/status", tag = ADMIN, responses((status = 200, body = LlmStatus)))]
async fn status(State(app): State<AppState>, _admin: Admin) -> Result<Json<LlmStatus>> {
    let eff = app.runtime.effective().await?;
    let backend = app.providers.local.name();
    let (reachable, error, loaded, available) = match backend_models(&app, &backend).await {
        Ok((loaded, available)) => (true, None, loaded, available),
        Err(e) => (false, Some(e), Vec::new(), Vec::new()),
    };
    Ok(Json(LlmStatus {
        url: app.providers.local.v1_url(),
        model: eff.get(Key::LocalLlmModel).to_string(),
        default_llm_provider: eff.get(Key::DefaultLlmProvider).to_string(),
        backend_status: BackendStatus { reachable, error },
        loaded_models: loaded,
        available_models: available,
        gpu: gpu_load().await,
        service: Service {
            status: "ok",
            version: env!("CARGO_PKG_VERSION"),
            uptime_seconds: app.started_at.elapsed().as_secs(),
            database: app.store.ping().await,
        },
        backend,
    }))
}

/// The backend to switch to and its model.
#[derive(Debug, Deserialize, ToSchema)]
struct BackendBody {
    /// `ollama` or `llamacpp`.
    backend: String,
    #[schema(pattern = "^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$")]
    model: String,
}

/// The backend in effect after a switch.
#[derive(Serialize, ToSchema)]
struct Switched {
    backend: String,
    model: String,
    url: String,
}

/// Model names as backends spell them: letters, digits and `._:/-`, starting with a letter or digit.
fn valid_model_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || "._:/-".contains(c))
}

/// Switches the local backend and its model. Every outcome, accepted or not, is audited.
#[utoipa::path(post, path = "/api/admin/llm/backend", tag = ADMIN, request_body = BackendBody,
    responses((status = 200, body = Switched), (status = 409, description = "another switch is running"),
        (status = 502, description = "the backend did not answer")))]
async fn switch_backend(
    State(app): State<AppState>,
    admin: Admin,
    AppJson(body): AppJson<BackendBody>,
) -> Result<Json<Switched>> {
    let result = try_switch(&app, &admin, &body).await;
    let (backend, model) = (body.backend.as_str(), Some(body.model.as_str()));
    let action = match &result {
        Ok(_) => Action::Backend { backend, model },
        Err(err) => Action::BackendRejected {
            backend,
            model,
            rejected: err.to_string(),
        },
    };
    audit(&app, &admin, backend, action).await?;
    result.map(Json)
}

async fn try_switch(app: &AppState, admin: &Admin, body: &BackendBody) -> Result<Switched> {
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
    // A lease in the database, so that no two switches run at once on any of the gateway's instances.
    let holder = format!("{}/{}", app.instance, crate::store::new_id());
    if !app.store.claim_lease(SWITCH_LEASE, &holder, SWITCH_LEASE_MS).await? {
        return Err(ApiError::Conflict("another backend switch is running".into()));
    }
    let switched = switch(app, admin, body).await;
    if let Err(err) = app.store.release_lease(SWITCH_LEASE, &holder).await {
        tracing::warn!(%err, "releasing the backend switch lease failed; it expires by itself");
    }
    switched
}

/// The lease of the backend switch, and how long it is held at most (the backend's answer, then the writes).
const SWITCH_LEASE: &str = "llm-backend-switch";
const SWITCH_LEASE_MS: i64 = 30_000;

async fn switch(app: &AppState, admin: &Admin, body: &BackendBody) -> Result<Switched> {
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
    Ok(Switched {
        backend: body.backend.clone(),
        model: body.model.clone(),
        url: app.providers.local.v1_url(),
    })
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
