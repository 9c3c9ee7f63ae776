//! Settings from the environment, deployment profiles, and the runtime-overridable keys.
//!
//! Precedence of a setting at start-up: built-in default < profile < environment. Runtime overrides
//! (see [`runtime`]) sit above the environment for the 16 keys of [`keys::KEYS`].
//!
//! The settings are read once, at start-up, into one typed struct per area (server, store, auth, limits,
//! turn, voice, providers, help function, engines); each area's file holds its struct, its defaults and the
//! meaning of each variable, and the README's table is made from those readings ([`catalog`]).

pub mod auth;
pub mod care;
pub mod catalog;
pub mod engine_settings;
pub mod env;
pub mod help;
pub mod keys;
pub mod limits;
pub mod phone;
pub mod presets;
pub mod privacy;
pub mod profile;
pub mod providers;
pub mod public;
pub mod route;
pub mod runtime;
pub mod server;
pub mod sip;
pub mod store;
pub mod tls;
pub mod traces;
pub mod turn;
pub mod voice;
pub mod wyoming;

use std::collections::BTreeMap;
use std::path::PathBuf;

pub use crate::providers::ProviderSettings;
pub use auth::AuthSettings;
pub use care::{CareSettings, REMINDER_TEXT_MAX};
pub use engine_settings::EngineSettings;
pub use env::ConfigError;
use env::Source;
pub use help::{CallVia, EmergencySettings, SmtpSettings};
pub use limits::LimitSettings;
pub use phone::PhoneSettings;
pub use profile::Profile;
pub use providers::Fallbacks;
pub use server::ServerSettings;
pub use sip::SipSettings;
pub use store::StoreSettings;
pub use tls::{AcmeSettings, TlsMode, TlsSettings};
pub use traces::TracesSettings;
pub use turn::{MemorySettings, TurnSettings};
pub use voice::VoiceSettings;
pub use wyoming::WyomingSettings;

/// The languages present in the phrasebook (the eight shipped and any added as a folder); every language
/// setting and pref is one of these.
pub use crate::phrasebook::languages;

/// Everything read from the environment at start-up, by area. Secrets are `SecretString`, so `Debug`
/// redacts them.
#[derive(Debug)]
pub struct Settings {
    /// `PROFILE`.
    pub profile: Profile,
    /// The HTTP server: address, connection limits, timeouts, instance name, restart command.
    pub server: ServerSettings,
    /// The SQLite file or the PostgreSQL server.
    pub store: StoreSettings,
    /// Credentials and identities.
    pub auth: AuthSettings,
    /// Body sizes, answer length, provider time, history.
    pub limits: LimitSettings,
    /// The language and audio a turn defaults to.
    pub turn: TurnSettings,
    /// `MEMORY_EXTRACTION_*`, `MEMORIES_MAX`, `MEMORY_PROMPT_MAX_CHARS`.
    pub memory: MemorySettings,
    /// The streaming channels: origins, idle timeout, filler, voice detection, end of turn, limits.
    pub voice: VoiceSettings,
    /// `STT_FALLBACK`, `LLM_FALLBACK`, `TTS_FALLBACK`: providers tried in order after the chosen one.
    pub fallbacks: Fallbacks,
    /// Addresses, models and keys of the providers.
    pub providers: ProviderSettings,
    /// The model menu: the default preset, then `MODEL_PRESETS_FILE`'s or the built-in ones.
    pub model_presets: Vec<presets::Preset>,
    /// `SMTP_*`: the mail relay of the help function.
    pub smtp: SmtpSettings,
    /// The help function's other channels: contacts, SMS and calls (Twilio), the webhook, reminders.
    pub emergency: EmergencySettings,
    /// `TIMEZONE`, `REMINDERS_MAX`: reminders and timers.
    pub care: CareSettings,
    /// `RETENTION_*_DAYS`, `LOCAL_ONLY`: how long each kind of data is kept, where words may go.
    pub privacy: privacy::PrivacySettings,
    /// `ENGINES`, `ENGINES_DIR`, `GPUS`: the zero-setup local engines.
    pub engines: EngineSettings,
    /// `WYOMING_ADDR`, `WYOMING_USER`: the Wyoming server for Home Assistant.
    pub wyoming: WyomingSettings,
    /// `PHONE_*`, `AUDIOSOCKET_*`: calls through Twilio and Asterisk.
    pub phone: PhoneSettings,
    pub sip: SipSettings,
    /// `TLS`, `HTTPS_ADDR`, `TLS_CERT_PATH`, `TLS_KEY_PATH`: HTTPS beside HTTP.
    pub tls: TlsSettings,
    /// `OTEL_EXPORTER_OTLP_*`: where the turns' traces go.
    pub traces: TracesSettings,
    /// Environment values of the 16 runtime keys, validated and canonical.
    pub runtime_env: BTreeMap<keys::Key, String>,
}

/// The 16 runtime keys, each defined in [`keys::KEYS`].
fn runtime_env(src: &Source) -> Result<BTreeMap<keys::Key, String>, ConfigError> {
    keys::KEYS
        .iter()
        .map(|spec| {
            let var = src
                .var(
                    spec.env_name(),
                    format!("{} (runtime key `{}`)", spec.meaning, spec.key),
                )
                .profiles(spec.profiles);
            // A long text is not repeated in the README.
            let var = if spec.kind == keys::Kind::Text {
                var.shown("(a short voice-assistant prompt)")
            } else {
                var
            };
            spec.validate(&var.string(spec.default))
                .map(|value| (spec.id, value))
                .map_err(|problem| var.error(problem))
        })
        .collect()
}

impl Settings {
    /// Reads the process environment (after loading `.env` when present).
    pub fn from_env() -> Result<Self, ConfigError> {
        let _ = dotenvy::dotenv();
        Self::from_lookup(&|var| std::env::var(var).ok())
    }

    /// Settings of these pairs alone (the tests' environment).
    #[cfg(test)]
    pub(crate) fn from_pairs(pairs: &[(&str, &str)]) -> Result<Self, ConfigError> {
        let map: std::collections::HashMap<&str, &str> = pairs.iter().copied().collect();
        Self::from_lookup(&|k| map.get(k).map(|v| v.to_string()))
    }

    /// Reads settings through any lookup; tests pass a map.
    pub fn from_lookup(lookup: &dyn Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        Self::parse(lookup).map(|(settings, _)| settings)
    }

    /// Every variable the settings read, with its default under `profile` (`None`: unset), in reading order.
    pub fn defaults(profile: Profile) -> Vec<env::Documented> {
        let lookup = |var: &str| (var == "PROFILE").then(|| profile.as_str().to_string());
        Self::parse(&lookup).map(|(_, read)| read).unwrap_or_default()
    }

    fn parse(lookup: &dyn Fn(&str) -> Option<String>) -> Result<(Self, Vec<env::Documented>), ConfigError> {
        let src = Source::new(lookup)?;
        let configured = |var: &str| lookup(var).is_some_and(|v| !v.trim().is_empty());
        let server = ServerSettings::read(&src)?;
        let store = StoreSettings::read(&src)?;
        let engines_dir = src
            .var(
                "ENGINES_DIR",
                "virtual environment, models and logs of the local engines",
            )
            .shown("data/engines")
            .raw()
            .map_or_else(
                || {
                    store
                        .db_path
                        .parent()
                        .map_or_else(|| PathBuf::from("engines"), |p| p.join("engines"))
                },
                PathBuf::from,
            );
        // Read by the phrasebook before the settings (they accept its languages); listed here to be documented.
        let _ = src
            .var(
                "LOCALES_DIR",
                "a folder of languages added or corrected by a translator (`<lang>/<area>.ftl`, Fluent)",
            )
            .shown("locales beside the binary")
            .raw();
        let tls = TlsSettings::read(&src, server.listen_addr)?;
        let sip = SipSettings::read(&src)?;
        let settings = Self {
            tls,
            traces: TracesSettings::read(&src)?,
            server,
            store,
            auth: AuthSettings::read(&src)?,
            limits: LimitSettings::read(&src)?,
            voice: VoiceSettings::read(&src, &engines_dir)?,
            wyoming: WyomingSettings::read(&src)?,
            phone: PhoneSettings::read(&src)?,
            emergency: EmergencySettings::read(&src, sip.registrar.is_some())?,
            care: CareSettings::read(&src)?,
            privacy: privacy::PrivacySettings::read(&src)?,
            sip,
            turn: TurnSettings::read(&src)?,
            memory: MemorySettings::read(&src)?,
            fallbacks: Fallbacks::read(&src)?,
            providers: providers::read(&src, &configured)?,
            smtp: help::smtp(&src)?,
            engines: EngineSettings::read(&src, engines_dir, &configured)?,
            model_presets: providers::model_presets(&src)?,
            runtime_env: runtime_env(&src)?,
            profile: src.profile,
        };
        // Read by the logging set-up, before the settings.
        src.var(
            "RUST_LOG",
            "the log's filter (tracing `EnvFilter` syntax); the exported traces have their own",
        )
        .shown("info")
        .read_elsewhere();
        Ok((settings, src.documented.into_inner()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::{LlmId, TtsId};
    use secrecy::ExposeSecret;
    use std::collections::HashMap;

    fn settings(pairs: &[(&str, &str)]) -> Result<Settings, ConfigError> {
        let map: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Settings::from_lookup(&|k| map.get(k).cloned())
    }

    #[test]
    fn starts_with_no_settings_at_all() {
        let s = settings(&[]).unwrap();
        assert_eq!(s.server.listen_addr.to_string(), "127.0.0.1:8080");
        assert_eq!(s.store.db_path, PathBuf::from("data/gateway.db"));
        assert_eq!(s.profile, Profile::LocalDev);
        assert!(!s.auth.enabled);
        assert_eq!(s.limits.history_max_messages, 10);
        assert_eq!(s.runtime_env[&keys::Key::EmergencyCooldownMinutes], "5");
    }

    #[test]
    fn the_default_language_is_the_machines_locale_when_the_phrasebook_has_it() {
        let language = |pairs: &[(&str, &str)]| settings(pairs).unwrap().turn.default_language;
        assert_eq!(language(&[]), "en");
        assert_eq!(language(&[("LANG", "de_DE.UTF-8")]), "de");
        assert_eq!(
            language(&[("LANG", "fr_CH.UTF-8"), ("LC_ALL", "pl_PL.UTF-8")]),
            "pl",
            "LC_ALL first"
        );
        assert_eq!(language(&[("LANG", "C.UTF-8")]), "en");
        assert_eq!(
            language(&[("LANG", "tr_TR.UTF-8")]),
            "en",
            "a language the phrasebook lacks"
        );
        assert_eq!(
            language(&[("LANG", "de_DE.UTF-8"), ("DEFAULT_LANGUAGE", "it")]),
            "it",
            "the setting wins"
        );
    }

    #[test]
    fn bad_values_name_the_variable() {
        let cases = [
            ("DAILY_REQUEST_LIMIT", "lots"),
            ("PROFILE", "staging"),
            ("TRUSTED_PROXY_IPS", "10.0.0.0/33"),
            ("AUTH_ENABLED", "maybe"),
            ("LLM_FALLBACK", "local,gpt"),
            ("EMERGENCY_COOLDOWN_MINUTES", "90"),
            ("GPUS", "first"),
            ("LISTEN_ADDR", "localhost"),
        ];
        for (var, value) in cases {
            let err = settings(&[(var, value)]).unwrap_err();
            assert_eq!(err.var, var);
            assert!(err.to_string().contains(var), "{err}");
        }
    }

    #[test]
    fn profile_changes_defaults_and_environment_wins() {
        let cloud = settings(&[("PROFILE", "cloud")]).unwrap();
        assert!(cloud.auth.enabled);
        assert_eq!(cloud.runtime_env[&keys::Key::DefaultTtsProvider], "openai");
        assert_eq!(cloud.fallbacks.tts, vec![TtsId::Espeak]);
        let hybrid = settings(&[("PROFILE", "hybrid"), ("DEFAULT_LLM_PROVIDER", "local")]).unwrap();
        assert_eq!(hybrid.runtime_env[&keys::Key::DefaultLlmProvider], "local");
        assert_eq!(hybrid.fallbacks.llm, vec![LlmId::Local]);
    }

    #[test]
    fn proxies_accept_addresses_and_ranges() {
        let s = settings(&[("TRUSTED_PROXY_IPS", "127.0.0.1, 10.0.0.0/8,::1")]).unwrap();
        assert_eq!(s.auth.trusted_proxy_ips.len(), 3);
        assert!(s.auth.trusted_proxy_ips[1].contains(&"10.2.3.4".parse::<std::net::IpAddr>().unwrap()));
    }

    #[test]
    fn an_admin_key_easy_to_guess_stops_the_start_naming_the_setting_not_the_key() {
        for weak in ["change-me", "Change-Me", "short-key", "password"] {
            let err = settings(&[("ADMIN_API_KEY", weak)]).unwrap_err().to_string();
            assert!(err.contains("ADMIN_API_KEY") && err.contains("16 or more"), "{err}");
            assert!(
                !err.to_lowercase().contains(&weak.to_lowercase()),
                "the key is not repeated: {err}"
            );
        }
        assert!(settings(&[("ADMIN_API_KEY", "0123456789abcdef")]).is_ok());
    }

    #[test]
    fn secrets_are_redacted_in_debug_output() {
        let s = settings(&[
            ("ADMIN_API_KEY", "hunter2-secret-value"),
            ("SMTP_PASSWORD", "mail-secret"),
        ])
        .unwrap();
        let shown = format!("{s:?}");
        assert!(!shown.contains("hunter2-secret-value") && !shown.contains("mail-secret"));
        assert_eq!(s.auth.admin_api_key.unwrap().expose_secret(), "hunter2-secret-value");
    }
}
