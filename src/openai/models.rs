//! `GET /v1/models` and what the `model` of a chat request means here: `default` (the user's own route), a
//! provider (`local`, `cloud`: its configured model), a provider and model (`cloud/openai/gpt-4o-mini`), or
//! the id of a model preset of the admin's menu.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::errors::V1Error;
use crate::app::{App, AppState};
use crate::auth::CurrentUser;
use crate::auth::access::OPENAI;
use crate::config::keys::Key;
use crate::config::presets::Preset;
use crate::config::route::RouteLayer;
use crate::config::runtime::Effective;
use crate::providers::{LlmId, ProviderId};
use crate::turn::chat::default_model;
use crate::turn::request_layer;

/// The model that follows the user's route (preferences, the defaults).
pub const DEFAULT_MODEL: &str = "default";

/// The route.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list))
}

/// The models a client may name.
#[derive(Serialize, ToSchema)]
struct ModelList {
    /// `list`.
    object: &'static str,
    data: Vec<Model>,
}

/// One model.
#[derive(Serialize, ToSchema)]
struct Model {
    /// What `model` takes.
    id: String,
    /// `model`.
    object: &'static str,
    /// Unix time; 0, the gateway does not know.
    created: u64,
    /// `voice-gateway`.
    owned_by: &'static str,
}

/// The models: `default`, each configured LLM provider alone and with its configured model, and the presets of
/// the model menu that use a configured provider. A provider without what it needs is not offered: asking for
/// it could only fail.
#[utoipa::path(get, path = "/v1/models", tag = OPENAI, responses((status = 200, body = ModelList)))]
async fn list(State(app): State<AppState>, _caller: CurrentUser) -> Result<Json<ModelList>, V1Error> {
    let eff = app.runtime.effective().await.map_err(crate::error::ApiError::from)?;
    let data = offered(&app, &eff)
        .into_iter()
        .map(|id| Model {
            id,
            object: "model",
            created: 0,
            owned_by: "voice-gateway",
        })
        .collect();
    Ok(Json(ModelList { object: "list", data }))
}

/// Every model id `/v1/models` lists, in order, without repeats.
fn offered(app: &App, eff: &Effective) -> Vec<String> {
    let usable: Vec<LlmId> = app
        .providers
        .llm
        .iter()
        .filter(|(_, engine)| engine.capabilities().configured)
        .map(|(id, _)| id)
        .collect();
    let mut ids = vec![DEFAULT_MODEL.to_string()];
    ids.extend(usable.iter().map(|p| p.to_string()));
    ids.extend(usable.iter().map(|&p| format!("{p}/{}", default_model(eff, p))));
    ids.extend(
        app.settings
            .model_presets
            .iter()
            .filter(|preset| configured(app, preset_provider(eff, preset).1))
            .map(|p| p.id.clone()),
    );
    let mut seen = std::collections::HashSet::new();
    ids.retain(|id| seen.insert(id.clone()));
    ids
}

/// Whether the provider has what it needs (a cloud model its key).
fn configured(app: &App, id: LlmId) -> bool {
    app.providers.llm.get(id).capabilities().configured
}

/// The setting a provider lacks when it is not configured, as the engine says.
pub fn missing_setting(app: &App, id: LlmId) -> &'static str {
    app.providers.llm.get(id).missing().unwrap_or("its address")
}

/// A model whose provider lacks a setting: 404, naming the setting.
fn not_configured(app: &App, model: &str, id: LlmId) -> V1Error {
    let message = format!(
        "the model {model:?} is not available: the {id} provider needs {}; GET /v1/models lists the models",
        missing_setting(app, id)
    );
    V1Error::new(StatusCode::NOT_FOUND, "model_not_found", Some("model"), message)
}

/// The provider a preset of the model menu names, the one it uses (that, else the default) and the model it
/// names for it.
fn preset_provider(eff: &Effective, preset: &Preset) -> (Option<LlmId>, LlmId, Option<String>) {
    let value = |key: Key| preset.values.get(key.as_str()).and_then(|v| v.as_str());
    let named = value(Key::DefaultLlmProvider).and_then(|p| LlmId::parse(p).ok());
    let chosen = named.unwrap_or_else(|| eff.provider(Key::DefaultLlmProvider));
    (named, chosen, value(Key::model_of(chosen)).map(String::from))
}

/// The route layer a `model` selects; an id that is none of the forms above is 404 `model_not_found`, and so
/// is a provider that is not configured (the message names the setting it lacks).
pub fn layer_for(app: &App, eff: &Effective, model: &str) -> Result<RouteLayer, V1Error> {
    let model = model.trim();
    let (provider, name): (Option<LlmId>, Option<String>) = if model.is_empty() || model == DEFAULT_MODEL {
        (None, None)
    } else if let Ok(id) = LlmId::parse(model) {
        (Some(id), None)
    } else if let Some((id, rest)) = model
        .split_once('/')
        .and_then(|(p, rest)| Some((LlmId::parse(p).ok()?, rest)))
        .filter(|(_, rest)| !rest.trim().is_empty())
    {
        (Some(id), Some(rest.to_string()))
    } else if let Some(preset) = app.settings.model_presets.iter().find(|p| p.id == model) {
        let (named, chosen, name) = preset_provider(eff, preset);
        if !configured(app, chosen) {
            return Err(not_configured(app, model, chosen));
        }
        (named, name)
    } else {
        return Err(V1Error::new(
            StatusCode::NOT_FOUND,
            "model_not_found",
            Some("model"),
            format!("the model {model:?} does not exist; GET /v1/models lists the models"),
        ));
    };
    if let Some(id) = provider.filter(|&id| !configured(app, id)) {
        return Err(not_configured(app, model, id));
    }
    Ok(request_layer(&[
        ("llm_provider", provider.map(LlmId::as_str)),
        ("llm_model", name.as_deref()),
    ])?)
}
