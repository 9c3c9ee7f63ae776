//! `GET /api/config`: the effective non-secret configuration, what can be chosen, and the voice menu.

use std::time::{Duration, Instant};

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};

use crate::app::{App, AppState};
use crate::config::LANGUAGES;
use crate::config::runtime::Effective;
use crate::error::{ApiError, Result};
use crate::provider_ids::{LLM_PROVIDERS, SEARCH_PROVIDERS, STT_PROVIDERS, TTS_PROVIDERS};
use crate::providers::tts::piper;

/// How long the body is reused.
const CACHE_TTL: Duration = Duration::from_secs(30);

/// The config route (open: the UI reads it before login; it holds no secret).
pub fn router() -> Router<AppState> {
    Router::new().route("/api/config", get(config))
}

async fn config(State(app): State<AppState>) -> Result<Json<Value>> {
    if let Some((at, body)) = app
        .config_cache
        .lock()
        .map_err(|_| ApiError::Internal("config cache".into()))?
        .as_ref()
        && at.elapsed() < CACHE_TTL
    {
        return Ok(Json(body.clone()));
    }
    let effective = app.runtime.effective().await?;
    let body = build(&app, &effective).await;
    if let Ok(mut cache) = app.config_cache.lock() {
        *cache = Some((Instant::now(), body.clone()));
    }
    Ok(Json(body))
}

async fn build(app: &App, eff: &Effective) -> Value {
    let s = &app.settings;
    let p = &s.providers;
    json!({
        "version": env!("CARGO_PKG_VERSION"),
        "profile": s.profile.as_str(),
        "auth_enabled": s.auth_enabled,
        "sso_login_url": s.sso_login_url,
        "sso_logout_url": s.sso_logout_url,
        "default_language": s.default_language,
        "history_max_messages": s.history_max_messages,
        "audio_stream_default": s.audio_stream_default,
        "providers": {
            "stt": eff.get("default_stt_provider"),
            "llm": eff.get("default_llm_provider"),
            "tts": eff.get("default_tts_provider"),
            "web_search": eff.get("web_search_provider"),
        },
        "fallbacks": {"stt": s.fallbacks.stt, "llm": s.fallbacks.llm, "tts": s.fallbacks.tts},
        "models": {"local": eff.get("local_llm_model"), "cloud": eff.get("cloud_llm_model")},
        "local_llm_backend": p.local_llm_backend,
        "llm_temperature": eff.number("llm_temperature"),
        "daily_request_limit": eff.count("daily_request_limit"),
        "web_search_enabled": eff.flag("web_search_enabled"),
        "web_search_daily_limit": eff.count("web_search_daily_limit"),
        "tts_normalization_enabled": eff.flag("tts_normalization_enabled"),
        "stt_force_language": eff.flag("stt_force_language"),
        "emergency_cooldown_minutes": eff.count("emergency_cooldown_minutes"),
        "memory_extraction": {
            "enabled": s.memory.enabled,
            "every_n_turns": s.memory.every_n_turns,
            "max": s.memory.max,
        },
        "limits": {"body_bytes": s.body_limit_bytes, "audio_bytes": s.audio_limit_bytes},
        "available": available(app),
        "tts_menu": tts_menu(app, eff).await,
    })
}

/// Which provider of each stage is configured, and the languages the cloud TTS cannot speak.
fn available(app: &App) -> Value {
    let s = &app.settings;
    let p = &s.providers;
    let configured = |stage: &str, id: &str| match (stage, id) {
        ("stt", "whisper") => p.whisper_model_path.is_some(),
        ("llm", "cloud") => p.cloud_llm_api_key.is_some(),
        ("tts", "piper") => !app.providers.piper.voices().is_empty(),
        ("tts", "openai") => p.openai_tts_configured,
        ("search", "searxng") => p.searxng_url.is_some(),
        ("search", "tavily") => p.tavily_api_key.is_some(),
        ("search", "brave") => p.brave_api_key.is_some(),
        _ => true,
    };
    let stage = |name: &str, ids: &[&str]| -> Value {
        ids.iter()
            .map(|id| json!({"id": id, "configured": configured(name, id)}))
            .collect()
    };
    json!({
        "languages": LANGUAGES,
        "stt_providers": stage("stt", STT_PROVIDERS),
        "llm_providers": stage("llm", LLM_PROVIDERS),
        "tts_providers": stage("tts", TTS_PROVIDERS),
        "web_search_providers": stage("search", SEARCH_PROVIDERS),
        "web_search": SEARCH_PROVIDERS.iter().any(|id| configured("search", id)),
        "openai_tts_unsupported_languages": p.openai_tts_unsupported_languages,
        "voice_genders": ["female", "male"],
    })
}

/// Ready-made voice options: espeak-ng for every language, Piper voices found on disk, the cloud voice.
async fn tts_menu(app: &App, eff: &Effective) -> Value {
    let p = &app.settings.providers;
    let mut menu: Vec<Value> = LANGUAGES
        .iter()
        .map(|lang| {
            json!({"provider": "espeak", "voice": lang, "label": format!("espeak-ng ({lang})"), "languages": [lang]})
        })
        .collect();
    for voice in app.providers.piper.voices() {
        let lang = piper::language_of(voice);
        menu.push(json!({"provider": "piper", "voice": voice, "label": format!("Piper {voice}"), "languages": [lang]}));
    }
    if p.openai_tts_configured {
        let languages: Vec<&str> = LANGUAGES
            .iter()
            .copied()
            .filter(|l| !p.openai_tts_unsupported_languages.iter().any(|u| u == l))
            .collect();
        let voice = eff.get("openai_tts_voice");
        menu.push(json!({"provider": "openai", "voice": voice, "label": format!("{voice} (OpenAI-compatible)"), "languages": languages}));
    }
    Value::from(menu)
}
