//! What `GET /api/config` shows of the configuration: nothing secret, everything a client chooses from.

use serde::Serialize;
use utoipa::ToSchema;

use crate::providers::{Capabilities, LlmId, SttId, TtsId};

/// The effective non-secret configuration, what can be chosen, and the voice menu.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PublicConfig {
    pub version: &'static str,
    /// `local-dev`, `hybrid` or `cloud`.
    pub profile: &'static str,
    pub auth_enabled: bool,
    pub sso_login_url: Option<String>,
    pub sso_logout_url: Option<String>,
    pub default_language: String,
    pub history_max_messages: u32,
    pub audio_stream_default: bool,
    /// The default provider of each stage.
    pub providers: StageChoice<String>,
    /// The fallback chains.
    pub fallbacks: Fallbacks,
    pub models: Models,
    pub local_llm_backend: String,
    pub llm_temperature: f64,
    pub daily_request_limit: u32,
    pub web_search_enabled: bool,
    pub web_search_daily_limit: u32,
    pub tts_normalization_enabled: bool,
    pub stt_force_language: bool,
    pub emergency_cooldown_minutes: u32,
    pub memory_extraction: MemoryExtraction,
    pub limits: Limits,
    pub available: Available,
    /// Ready-made voice options: espeak-ng for every language, the Piper voices found, the cloud voice.
    pub tts_menu: Vec<VoiceOption>,
    /// The HTTPS port when `TLS` is on (the page links an insecure context there); `None` when off.
    pub https_port: Option<u16>,
}

/// One value per stage.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StageChoice<T> {
    pub stt: T,
    pub llm: T,
    pub tts: T,
    pub web_search: T,
}

/// The fallback chains of the speech and language stages.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Fallbacks {
    pub stt: Vec<SttId>,
    pub llm: Vec<LlmId>,
    pub tts: Vec<TtsId>,
}

/// The default model of each LLM provider.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Models {
    pub local: String,
    pub cloud: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MemoryExtraction {
    pub enabled: bool,
    pub every_n_turns: u32,
    pub max: u32,
}

/// Body limits in bytes.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Limits {
    pub body_bytes: usize,
    pub audio_bytes: usize,
}

/// What can be chosen.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Available {
    pub languages: Vec<&'static str>,
    /// Each language's own name ("Deutsch"), for the language menus; its code where its files name none.
    pub language_names: std::collections::BTreeMap<&'static str, String>,
    pub stt_providers: Vec<Provider>,
    pub llm_providers: Vec<Provider>,
    pub tts_providers: Vec<Provider>,
    pub web_search_providers: Vec<Provider>,
    /// Whether any web-search provider is configured.
    pub web_search: bool,
    pub openai_tts_unsupported_languages: Vec<String>,
    pub voice_genders: [&'static str; 2],
}

/// A provider, whether its settings are there, and what it can do (the registry's description).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Provider {
    pub id: &'static str,
    pub configured: bool,
    pub capabilities: Capabilities,
}

/// One entry of the voice menu.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct VoiceOption {
    pub provider: TtsId,
    pub voice: String,
    pub label: String,
    pub languages: Vec<String>,
}
