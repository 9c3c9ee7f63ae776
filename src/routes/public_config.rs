//! `GET /api/config`: the effective non-secret configuration, what can be chosen, and the voice menu.

use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::openapi::PUBLIC;
use crate::app::{App, AppState};
use crate::config::keys::Key;
use crate::config::languages;
use crate::config::public::{
    Available, Fallbacks, Limits, MemoryExtraction, Models, Provider, PublicConfig, StageChoice, VoiceOption,
};
use crate::config::runtime::Effective;
use crate::error::{ApiError, Result};
use crate::phrasebook;
use crate::providers::registry::{Engine, Engines};
use crate::providers::{LlmId, ProviderId, SttId, TtsId};

/// The config route (open: the UI reads it before login; it holds no secret).
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(config))
}

/// Effective non-secret configuration, available options and voice menu (cached 30 s).
#[utoipa::path(get, path = "/api/config", tag = PUBLIC, responses((status = 200, body = PublicConfig)))]
async fn config(State(app): State<AppState>) -> Result<Json<PublicConfig>> {
    if let Some((at, body)) = app
        .config_cache
        .lock()
        .map_err(|_| ApiError::Internal("config cache".into()))?
        .as_ref()
        && at.elapsed() < Duration::from_secs(app.settings.server.overrides_refresh_secs)
    {
        return Ok(Json(body.clone()));
    }
    let effective = app.runtime.effective().await?;
    let body = build(&app, &effective);
    if let Ok(mut cache) = app.config_cache.lock() {
        *cache = Some((Instant::now(), body.clone()));
    }
    Ok(Json(body))
}

fn build(app: &App, eff: &Effective) -> PublicConfig {
    let s = &app.settings;
    let p = &s.providers;
    PublicConfig {
        version: env!("CARGO_PKG_VERSION"),
        profile: s.profile.as_str(),
        auth_enabled: s.auth.enabled,
        sso_login_url: s.auth.sso_login_url.clone(),
        sso_logout_url: s.auth.sso_logout_url.clone(),
        default_language: s.turn.default_language.clone(),
        history_max_messages: s.limits.history_max_messages,
        audio_stream_default: s.turn.audio_stream_default,
        providers: StageChoice {
            stt: eff.provider::<SttId>(Key::DefaultSttProvider).to_string(),
            llm: eff.provider::<LlmId>(Key::DefaultLlmProvider).to_string(),
            tts: eff.provider::<TtsId>(Key::DefaultTtsProvider).to_string(),
            web_search: eff.get(Key::WebSearchProvider).to_string(),
        },
        fallbacks: Fallbacks {
            stt: s.fallbacks.stt.clone(),
            llm: s.fallbacks.llm.clone(),
            tts: s.fallbacks.tts.clone(),
        },
        models: Models {
            local: eff.get(Key::LocalLlmModel).to_string(),
            cloud: eff.get(Key::CloudLlmModel).to_string(),
        },
        local_llm_backend: p.local_llm_backend.clone(),
        llm_temperature: eff.number(Key::LlmTemperature),
        daily_request_limit: eff.count(Key::DailyRequestLimit),
        web_search_enabled: eff.flag(Key::WebSearchEnabled),
        web_search_daily_limit: eff.count(Key::WebSearchDailyLimit),
        tts_normalization_enabled: eff.flag(Key::TtsNormalizationEnabled),
        stt_force_language: eff.flag(Key::SttForceLanguage),
        emergency_cooldown_minutes: eff.count(Key::EmergencyCooldownMinutes),
        memory_extraction: MemoryExtraction {
            enabled: s.memory.enabled,
            every_n_turns: s.memory.every_n_turns,
            max: s.memory.max,
        },
        limits: Limits {
            body_bytes: s.limits.body_bytes,
            audio_bytes: s.limits.audio_bytes,
        },
        available: available(app),
        tts_menu: tts_menu(app, eff),
        https_port: (s.tls.mode != crate::config::TlsMode::Off).then_some(s.tls.https_addr.port()),
    }
}

/// Every provider of each stage with what it can do (from the registry), and the languages the cloud TTS
/// cannot speak.
fn available(app: &App) -> Available {
    let p = &app.settings.providers;
    let providers = &app.providers;
    Available {
        languages: languages().to_vec(),
        language_names: languages()
            .iter()
            .map(|l| (*l, phrasebook::own(l, "language-name").unwrap_or_else(|| l.to_string())))
            .collect(),
        stt_providers: listed(&providers.stt),
        llm_providers: listed(&providers.llm),
        tts_providers: listed(&providers.tts),
        web_search_providers: listed(&providers.search),
        web_search: providers.search.iter().any(|(_, e)| e.capabilities().configured),
        openai_tts_unsupported_languages: p.openai_tts_unsupported_languages.clone(),
        voice_genders: ["female", "male"],
    }
}

/// A stage's providers as `/api/config` lists them.
fn listed<I: ProviderId, E: Engine + ?Sized>(engines: &Engines<I, E>) -> Vec<Provider> {
    // A provider without what it needs (a cloud service without its key) is not offered: choosing it could
    // only fail.
    engines
        .iter()
        .filter(|(_, engine)| engine.capabilities().configured)
        .map(|(id, engine)| {
            let capabilities = engine.capabilities();
            Provider {
                id: id.name(),
                configured: capabilities.configured,
                capabilities,
            }
        })
        .collect()
}

/// Ready-made voice options: what each configured engine offers (espeak-ng a voice for every language,
/// Piper the voices found, the cloud service its voice).
fn tts_menu(app: &App, eff: &Effective) -> Vec<VoiceOption> {
    let mut menu = Vec::new();
    for (provider, engine) in app.providers.tts.iter() {
        if !engine.capabilities().configured {
            continue;
        }
        let default_voice = Key::voice_of(provider).map(|key| eff.get(key));
        for offered in engine.offered(default_voice) {
            menu.push(VoiceOption {
                provider,
                voice: offered.voice,
                label: offered.label,
                languages: offered.languages,
            });
        }
    }
    menu
}
