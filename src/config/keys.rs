//! The 16 settings an admin may override at runtime, with their types and validation.
//!
//! The override key of a setting is its environment name in lower case; the same validation applies to the
//! environment value at start-up and to an override at runtime, so both give the same canonical string.

use super::env::parse_bool;
use crate::providers::{LlmId, SearchId, Stage, SttId, TtsId};

/// What a runtime key holds, which decides how its value is validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One provider id of a stage.
    Provider(Stage),
    /// A model or voice name: printable, no spaces at the ends, at most 200 characters.
    Name,
    /// Free text (the system prompt), at most 8000 characters.
    Text,
    /// A sampling temperature from 0 to 2.
    Temperature,
    /// A non-negative count; 0 means unlimited.
    Count,
    /// true or false.
    Bool,
    /// Minutes from 0 (off) to 60.
    Minutes,
}

/// A runtime key, by name: code reads the effective settings through these, so a misspelled key does not
/// compile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    /// `default_stt_provider`.
    DefaultSttProvider,
    /// `default_llm_provider`.
    DefaultLlmProvider,
    /// `default_tts_provider`.
    DefaultTtsProvider,
    /// `web_search_provider`.
    WebSearchProvider,
    /// `local_llm_model`.
    LocalLlmModel,
    /// `cloud_llm_model`.
    CloudLlmModel,
    /// `openai_tts_voice`.
    OpenaiTtsVoice,
    /// `piper_voice`.
    PiperVoice,
    /// `system_prompt`.
    SystemPrompt,
    /// `llm_temperature`.
    LlmTemperature,
    /// `daily_request_limit`.
    DailyRequestLimit,
    /// `web_search_enabled`.
    WebSearchEnabled,
    /// `web_search_daily_limit`.
    WebSearchDailyLimit,
    /// `tts_normalization_enabled`.
    TtsNormalizationEnabled,
    /// `stt_force_language`.
    SttForceLanguage,
    /// `emergency_cooldown_minutes`.
    EmergencyCooldownMinutes,
}

impl Key {
    /// The override key (lower case); the environment variable is its upper-case form.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::DefaultSttProvider => "default_stt_provider",
            Self::DefaultLlmProvider => "default_llm_provider",
            Self::DefaultTtsProvider => "default_tts_provider",
            Self::WebSearchProvider => "web_search_provider",
            Self::LocalLlmModel => "local_llm_model",
            Self::CloudLlmModel => "cloud_llm_model",
            Self::OpenaiTtsVoice => "openai_tts_voice",
            Self::PiperVoice => "piper_voice",
            Self::SystemPrompt => "system_prompt",
            Self::LlmTemperature => "llm_temperature",
            Self::DailyRequestLimit => "daily_request_limit",
            Self::WebSearchEnabled => "web_search_enabled",
            Self::WebSearchDailyLimit => "web_search_daily_limit",
            Self::TtsNormalizationEnabled => "tts_normalization_enabled",
            Self::SttForceLanguage => "stt_force_language",
            Self::EmergencyCooldownMinutes => "emergency_cooldown_minutes",
        }
    }
}

impl Key {
    /// The key of the model an LLM provider uses when the route names none.
    pub const fn model_of(provider: LlmId) -> Self {
        match provider {
            LlmId::Local => Self::LocalLlmModel,
            LlmId::Cloud => Self::CloudLlmModel,
        }
    }

    /// The key of a stage's default provider.
    pub const fn default_of(stage: Stage) -> Self {
        match stage {
            Stage::Stt => Self::DefaultSttProvider,
            Stage::Llm => Self::DefaultLlmProvider,
            Stage::Tts => Self::DefaultTtsProvider,
            Stage::Search => Self::WebSearchProvider,
        }
    }

    /// The key of a TTS provider's default voice, for the engines whose voice is a setting (a new engine
    /// has none until a key is made for it).
    pub const fn voice_of(provider: TtsId) -> Option<Self> {
        match provider {
            TtsId::Openai => Some(Self::OpenaiTtsVoice),
            TtsId::Piper => Some(Self::PiperVoice),
            _ => None,
        }
    }
}

/// One overridable setting.
#[derive(Debug)]
pub struct KeySpec {
    /// The key.
    pub id: Key,
    /// The override key (lower case); the environment variable is its upper-case form.
    pub key: &'static str,
    /// Built-in default, used when neither the profile nor the environment sets it.
    pub default: &'static str,
    /// Defaults of the profiles local-dev, hybrid and cloud, above the built-in one.
    pub profiles: [Option<&'static str>; 3],
    /// How values are validated.
    pub kind: Kind,
    /// One line for the README and `/openapi.json`.
    pub meaning: &'static str,
}

const DEFAULT_SYSTEM_PROMPT: &str = "You are a friendly voice assistant. Answer briefly in plain spoken sentences, \
without lists, tables or markdown, in the language of the user.";

/// The overridable settings, in the order the admin panel shows them.
pub const KEYS: [KeySpec; 16] = [
    spec(
        Key::DefaultSttProvider,
        SttId::Openai.as_str(),
        Kind::Provider(Stage::Stt),
        "speech-to-text provider",
    ),
    spec(
        Key::DefaultLlmProvider,
        LlmId::Local.as_str(),
        Kind::Provider(Stage::Llm),
        "language model provider",
    )
    .by_profile([None, Some(LlmId::Cloud.as_str()), Some(LlmId::Cloud.as_str())]),
    spec(
        Key::DefaultTtsProvider,
        TtsId::Espeak.as_str(),
        Kind::Provider(Stage::Tts),
        "text-to-speech provider (unset, the zero-setup engines choose `piper` when they run it)",
    )
    .by_profile([None, None, Some(TtsId::Openai.as_str())]),
    spec(
        Key::WebSearchProvider,
        SearchId::Searxng.as_str(),
        Kind::Provider(Stage::Search),
        "web search provider",
    ),
    spec(
        Key::LocalLlmModel,
        "smollm2",
        Kind::Name,
        "model of the local LLM server",
    ),
    spec(
        Key::CloudLlmModel,
        "openai/gpt-4o-mini",
        Kind::Name,
        "model of the cloud LLM service",
    ),
    spec(
        Key::OpenaiTtsVoice,
        "alloy",
        Kind::Name,
        "default voice of the OpenAI-compatible TTS",
    ),
    spec(Key::PiperVoice, "en_US-joe-medium", Kind::Name, "default Piper voice"),
    spec(
        Key::SystemPrompt,
        DEFAULT_SYSTEM_PROMPT,
        Kind::Text,
        "system prompt of every turn",
    ),
    spec(
        Key::LlmTemperature,
        "0.7",
        Kind::Temperature,
        "sampling temperature, 0 to 2",
    ),
    spec(
        Key::DailyRequestLimit,
        "500",
        Kind::Count,
        "requests per user per day, 0 = unlimited",
    ),
    spec(
        Key::WebSearchEnabled,
        "true",
        Kind::Bool,
        "web search tool on by default for users",
    ),
    spec(
        Key::WebSearchDailyLimit,
        "50",
        Kind::Count,
        "web searches per user per day, 0 = unlimited",
    ),
    spec(
        Key::TtsNormalizationEnabled,
        "true",
        Kind::Bool,
        "speak numbers, dates and units as words",
    ),
    spec(
        Key::SttForceLanguage,
        "true",
        Kind::Bool,
        "transcribe in the target language instead of detecting it",
    ),
    spec(
        Key::EmergencyCooldownMinutes,
        "5",
        Kind::Minutes,
        "minutes between two alarms of one user, 0 = off",
    ),
];

const fn spec(key: Key, default: &'static str, kind: Kind, meaning: &'static str) -> KeySpec {
    KeySpec {
        id: key,
        key: key.as_str(),
        default,
        profiles: [None; 3],
        kind,
        meaning,
    }
}

impl KeySpec {
    const fn by_profile(mut self, defaults: [Option<&'static str>; 3]) -> Self {
        self.profiles = defaults;
        self
    }
}

/// The spec of an override key, if it is one of the 16.
pub fn find(key: &str) -> Option<&'static KeySpec> {
    KEYS.iter().find(|k| k.key == key)
}

impl KeySpec {
    /// The environment variable of this key.
    pub fn env_name(&self) -> String {
        self.key.to_ascii_uppercase()
    }

    /// Checks a value (a JSON scalar rendered as text) and returns its canonical form, or what is wrong.
    pub fn validate(&self, raw: &str) -> Result<String, String> {
        let v = raw.trim();
        match self.kind {
            Kind::Provider(stage) => stage.parse(v).map(String::from).map_err(|e| e.to_string()),
            Kind::Name if v.is_empty() || v.chars().count() > 200 || v.chars().any(char::is_control) => {
                Err("expected a name of 1 to 200 printable characters".into())
            }
            Kind::Name => Ok(v.to_string()),
            Kind::Text if raw.trim().is_empty() || raw.chars().count() > 8000 => {
                Err("expected a text of 1 to 8000 characters".into())
            }
            Kind::Text => Ok(raw.trim().to_string()),
            Kind::Temperature => match v.parse::<f64>() {
                Ok(t) if (0.0..=2.0).contains(&t) => Ok(t.to_string()),
                _ => Err(format!("{v:?} is not a number from 0 to 2")),
            },
            Kind::Count => match v.parse::<u32>() {
                Ok(n) => Ok(n.to_string()),
                Err(_) => Err(format!("{v:?} is not a non-negative whole number")),
            },
            Kind::Bool => parse_bool(v)
                .map(|b| b.to_string())
                .ok_or_else(|| format!("{v:?} is not true or false")),
            Kind::Minutes => match v.parse::<u32>() {
                Ok(n) if n <= 60 => Ok(n.to_string()),
                _ => Err(format!("{v:?} is not a whole number of minutes from 0 to 60")),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_sixteen_distinct_keys_whose_defaults_are_valid() {
        let mut names: Vec<_> = KEYS.iter().map(|k| k.key).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 16);
        for k in &KEYS {
            assert!(k.validate(k.default).is_ok(), "default of {} is invalid", k.key);
        }
    }

    #[test]
    fn values_are_checked_by_kind() {
        let cases = [
            ("default_llm_provider", "cloud", Some("cloud")),
            ("default_llm_provider", "gpt", None),
            ("llm_temperature", "1.5", Some("1.5")),
            ("llm_temperature", "2.5", None),
            ("daily_request_limit", "-1", None),
            ("daily_request_limit", "20", Some("20")),
            ("web_search_enabled", "off", Some("false")),
            ("emergency_cooldown_minutes", "61", None),
            ("emergency_cooldown_minutes", "0", Some("0")),
            ("local_llm_model", " ", None),
        ];
        for (key, raw, want) in cases {
            let got = find(key).unwrap().validate(raw).ok();
            assert_eq!(got.as_deref(), want, "{key}={raw}");
        }
    }
}
