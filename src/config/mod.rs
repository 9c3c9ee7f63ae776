//! Settings from the environment, deployment profiles, and the runtime-overridable keys.
//!
//! Precedence of a setting at start-up: built-in default < profile < environment. Runtime overrides
//! (see [`runtime`]) sit above the environment for the 16 keys of [`keys::KEYS`].

pub mod catalog;
pub mod env;
pub mod keys;
pub mod presets;
pub mod profile;
pub mod public;
pub mod route;
pub mod runtime;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;

use ipnet::IpNet;
use secrecy::SecretString;

pub use env::ConfigError;
use env::Source;
pub use profile::Profile;

/// The eight UI languages; every language setting and pref is one of these.
pub const LANGUAGES: [&str; 8] = ["de", "en", "fr", "es", "it", "nl", "pl", "pt"];

/// Everything read from the environment at start-up. Secrets are `SecretString`, so `Debug` redacts them.
#[derive(Debug)]
pub struct Settings {
    /// `PROFILE`.
    pub profile: Profile,
    /// `LISTEN_ADDR`: the address the server binds.
    pub listen_addr: SocketAddr,
    /// `DB_PATH`: the embedded SQLite file.
    pub db_path: PathBuf,
    /// `DATABASE_URL`: a PostgreSQL store instead of SQLite, shared by several instances.
    pub database_url: Option<SecretString>,
    /// `DATABASE_MAX_CONNECTIONS`: the PostgreSQL connection pool's size.
    pub database_max_connections: u32,
    /// `DATABASE_WAIT_SECONDS`: how long start-up waits for a PostgreSQL server that does not answer yet.
    pub database_wait_secs: u64,
    /// `AUTH_ENABLED`: false lets every caller act as the anonymous user.
    pub auth_enabled: bool,
    /// `ADMIN_API_KEY`: the admin secret accepted in `X-Admin-Key`.
    pub admin_api_key: Option<SecretString>,
    /// `TRUSTED_AUTH_HEADER`: identity header set by the single-sign-on proxy.
    pub trusted_auth_header: String,
    /// `TRUSTED_PROXY_IPS`: peers whose identity header is believed.
    pub trusted_proxy_ips: Vec<IpNet>,
    /// `ADMIN_USERS`: user names that are admins whatever their flag says.
    pub admin_users: Vec<String>,
    /// `SSO_LOGOUT_URL`, shown by `/api/me`.
    pub sso_logout_url: Option<String>,
    /// `SSO_LOGIN_URL`, where the UI gate sends callers without identity.
    pub sso_login_url: Option<String>,
    /// `BODY_LIMIT_BYTES`: largest JSON body.
    pub body_limit_bytes: usize,
    /// Connection limits and timeouts of the HTTP server.
    pub server: ServerSettings,
    /// `AUDIO_LIMIT_BYTES`: largest audio upload.
    pub audio_limit_bytes: usize,
    /// `LLM_MAX_TOKENS`: longest answer of the language model, in tokens.
    pub llm_max_tokens: u32,
    /// `PROVIDER_TIMEOUT_SECONDS`: total time a provider call may take.
    pub provider_timeout_secs: u64,
    /// `HISTORY_MAX_MESSAGES`: messages of a session loaded into a turn.
    pub history_max_messages: u32,
    /// `AUDIO_STREAM_DEFAULT`: sentence-wise audio when a request does not say.
    pub audio_stream_default: bool,
    /// `DEFAULT_LANGUAGE`: the language when neither the user nor the request names one.
    pub default_language: String,
    /// `MEMORY_EXTRACTION_*`.
    pub memory: MemorySettings,
    /// WebSocket channels: origins, idle timeout, filler, voice activity detection.
    pub ws: WsSettings,
    /// `STT_FALLBACK`, `LLM_FALLBACK`, `TTS_FALLBACK`: providers tried in order after the chosen one.
    pub fallbacks: Fallbacks,
    /// Addresses, models and keys of the providers.
    pub providers: ProviderSettings,
    /// `SMTP_*`: the mail relay of the help function.
    pub smtp: SmtpSettings,
    /// `EMERGENCY_CONTACT_EMAIL`: a recipient of every alarm.
    pub emergency_contact_email: Option<String>,
    /// SMS and calls (Twilio), the webhook, and the channel timeout of the help function.
    pub emergency: EmergencySettings,
    /// `GPUS`: `auto`, `none` or a comma list of device numbers.
    pub gpus: String,
    /// `INSTANCE_ID`: this instance's name among the gateway's instances (metrics, live log, leases).
    pub instance_id: String,
    /// `OVERRIDES_REFRESH_SECONDS`: how old the runtime overrides an instance uses may be.
    pub overrides_refresh_secs: u64,
    /// `ENGINES`, `ENGINES_DIR`: the zero-setup local engines.
    pub engines: EngineSettings,
    /// The model menu: the default preset, then `MODEL_PRESETS_FILE`'s or the built-in ones.
    pub model_presets: Vec<presets::Preset>,
    /// `RESTART_COMMAND`: the privileged command that restarts the service (split at spaces, no shell).
    pub restart_command: Option<Vec<String>>,
    /// Environment values of the 16 runtime keys, validated and canonical.
    pub runtime_env: BTreeMap<keys::Key, String>,
}

/// What one client may hold of the server: connections and the time to send a request.
#[derive(Debug, Clone)]
pub struct ServerSettings {
    /// `MAX_CONNECTIONS`: open connections (WebSockets included) served in full; beyond them a connection is
    /// answered 503, except `/health`.
    pub max_connections: usize,
    /// `MAX_CONNECTIONS_PER_CLIENT`: the same for one client address (not applied to `TRUSTED_PROXY_IPS`).
    pub max_connections_per_client: usize,
    /// `HEADER_READ_TIMEOUT_SECONDS`: time to send a request's headers, which is also how long an idle
    /// keep-alive connection (or a WebSocket handshake) may wait.
    pub header_timeout_secs: u64,
    /// `BODY_READ_TIMEOUT_SECONDS`: time to send a request's body.
    pub body_timeout_secs: u64,
}

/// Automatic memory extraction.
#[derive(Debug)]
pub struct MemorySettings {
    /// `MEMORY_EXTRACTION_ENABLED`.
    pub enabled: bool,
    /// `MEMORY_EXTRACTION_EVERY_N_TURNS`.
    pub every_n_turns: u32,
    /// `MEMORY_EXTRACTION_MAX`: memories per user the extraction stops at.
    pub max: u32,
    /// `MEMORY_EXTRACTION_PROVIDER`: LLM provider asked; empty = the default LLM provider.
    pub provider: Option<String>,
    /// `MEMORIES_MAX`: memories a user may have, however they are added.
    pub cap: u32,
    /// `MEMORY_PROMPT_MAX_CHARS`: memory text that enters a prompt; the newest memories go in first.
    pub prompt_max_chars: usize,
}

/// The streaming channels.
#[derive(Debug)]
pub struct WsSettings {
    /// `WS_ALLOWED_ORIGINS`: browser origins besides the gateway's own that may open a WebSocket.
    pub allowed_origins: Vec<String>,
    /// `WS_IDLE_TIMEOUT_SECONDS`: a connection without frames and without a running turn is closed after this.
    pub idle_timeout_secs: u64,
    /// `FILLER_AFTER_MS`: a filler phrase is sent when the first token takes longer (0 = never).
    pub filler_after_ms: u64,
    /// `VAD_THRESHOLD`: RMS level (16-bit samples) above which a 20 ms frame counts as speech.
    pub vad_threshold: u32,
    /// `VAD_MIN_SPEECH_MS`: speech needed before an utterance can end.
    pub vad_min_speech_ms: u32,
    /// `VAD_SILENCE_MS`: trailing silence that ends an utterance.
    pub vad_silence_ms: u32,
    /// `VAD_ENGINE`: `auto` (Silero when its runtime and model are there, else energy), `silero` or `energy`.
    pub vad_engine: String,
    /// `VAD_SPEECH_PROBABILITY`: Silero's probability at which a window is speech.
    pub vad_speech_probability: f32,
    /// `ONNXRUNTIME_LIB`: the ONNX Runtime library (default: the engines folder's `onnxruntime/`).
    pub onnxruntime_lib: PathBuf,
    /// `SILERO_VAD_MODEL`: the Silero VAD model (default: the engines folder's `models/silero_vad.onnx`).
    pub silero_vad_model: PathBuf,
    /// `TURN_ENGINE`: `auto` (Smart Turn when its runtime and model are there, else the fixed silence),
    /// `smart-turn` or `silence`.
    pub turn_engine: String,
    /// `SMART_TURN_MODEL`: the Smart Turn model (default: the engines folder's `models/smart-turn-v3.2-cpu.onnx`).
    pub smart_turn_model: PathBuf,
    /// `TURN_CHECK_MS`: silence after which Smart Turn is asked whether the turn is complete.
    pub turn_check_ms: u32,
    /// `TURN_MAX_SILENCE_MS`: silence that ends a turn Smart Turn found incomplete.
    pub turn_max_silence_ms: u32,
    /// `TURN_COMPLETE_PROBABILITY`: Smart Turn's probability at which a turn counts as complete.
    pub turn_complete_probability: f32,
    /// `BARGE_IN_MIN_SPEECH_MS`: speech that interrupts a running answer on `/ws/voice` (0 = never); shorter
    /// sounds during an answer (a cough, "mhm") are ignored.
    pub barge_in_min_speech_ms: u32,
    /// `STT_EARLY_MS`: silence after which an utterance is transcribed while the end of the turn is still being
    /// awaited (0 = only once it ended); speech that goes on drops that transcription.
    pub stt_early_ms: u32,
    /// `MAX_UTTERANCE_SECONDS`: longest utterance buffered on `/ws/voice`.
    pub max_utterance_secs: u32,
    /// `MAX_VOICE_CONNECTIONS`: open `/ws/voice` connections of everybody together.
    pub max_voice_connections: usize,
    /// `VOICE_CONNECTIONS_PER_USER`: open `/ws/voice` connections of one user.
    pub voice_connections_per_user: usize,
    /// `AUDIO_BUFFER_BUDGET_BYTES`: audio all voice connections may buffer together.
    pub audio_buffer_budget_bytes: usize,
}

/// Fallback chains per stage.
#[derive(Debug)]
pub struct Fallbacks {
    /// `STT_FALLBACK`.
    pub stt: Vec<String>,
    /// `LLM_FALLBACK`.
    pub llm: Vec<String>,
    /// `TTS_FALLBACK`.
    pub tts: Vec<String>,
}

/// Provider endpoints and credentials (see the provider table of the contract).
#[derive(Debug)]
pub struct ProviderSettings {
    /// `LOCAL_LLM_URL`.
    pub local_llm_url: String,
    /// `LOCAL_LLM_BACKEND`: `ollama` or `llamacpp`.
    pub local_llm_backend: String,
    /// `OLLAMA_URL`: the Ollama server (without `/v1`), used when the local backend is switched to Ollama.
    pub ollama_url: String,
    /// `LLAMACPP_URL`: the llama.cpp server (without `/v1`), used when the local backend is switched to it.
    pub llamacpp_url: String,
    /// `CLOUD_LLM_URL`.
    pub cloud_llm_url: String,
    /// `CLOUD_LLM_API_KEY`.
    pub cloud_llm_api_key: Option<SecretString>,
    /// `WHISPER_MODEL_PATH`: model file of the in-process whisper engine.
    pub whisper_model_path: Option<String>,
    /// `WHISPER_MODEL`: model size.
    pub whisper_model: String,
    /// `WHISPER_COMPUTE_TYPE`: quantisation.
    pub whisper_compute_type: String,
    /// `OPENAI_STT_URL`.
    pub openai_stt_url: String,
    /// `OPENAI_STT_API_KEY`.
    pub openai_stt_api_key: Option<SecretString>,
    /// `OPENAI_STT_MODEL`.
    pub openai_stt_model: String,
    /// `PIPER_VOICE_DIR`: the Piper voices (`.onnx` with `.onnx.json`); the zero-setup engines set it.
    pub piper_voice_dir: Option<String>,
    /// `PIPER_URL`: an OpenAI-compatible speech server with those voices (`…/v1`); the zero-setup engines set it.
    pub piper_url: Option<String>,
    /// `OPENAI_TTS_URL`.
    pub openai_tts_url: String,
    /// `OPENAI_TTS_API_KEY`.
    pub openai_tts_api_key: Option<SecretString>,
    /// `OPENAI_TTS_MODEL`.
    pub openai_tts_model: String,
    /// Whether the OpenAI-compatible TTS was configured (`OPENAI_TTS_URL` set explicitly or a key given).
    pub openai_tts_configured: bool,
    /// `OPENAI_TTS_UNSUPPORTED_LANGUAGES`: languages the OpenAI-compatible TTS cannot speak.
    pub openai_tts_unsupported_languages: Vec<String>,
    /// `SEARXNG_URL`.
    pub searxng_url: Option<String>,
    /// `TAVILY_URL`.
    pub tavily_url: String,
    /// `BRAVE_URL`.
    pub brave_url: String,
    /// `TAVILY_API_KEY`.
    pub tavily_api_key: Option<SecretString>,
    /// `BRAVE_API_KEY`.
    pub brave_api_key: Option<SecretString>,
}

/// The local engines the gateway sets up and starts itself when nothing else is configured.
#[derive(Debug)]
pub struct EngineSettings {
    /// `ENGINES`: `auto` (default in local-dev) starts what is not configured, `off` starts nothing.
    pub mode: String,
    /// `ENGINES_DIR`: virtual environment, models and logs (default: `engines` beside the database).
    pub dir: PathBuf,
    /// `LOCAL_LLM_URL` was given: the user runs their own language model server.
    pub llm_configured: bool,
    /// `OPENAI_STT_URL` was given: the user runs their own transcription service.
    pub stt_configured: bool,
    /// `DEFAULT_TTS_PROVIDER` or `PIPER_URL` was given: the engines do not choose the voice.
    pub tts_configured: bool,
    /// `WHISPER_MODEL` was given: the engines fetch that size rather than choosing one for the hardware.
    pub whisper_model_explicit: bool,
    /// `WHISPER_WINDOW_SECONDS`: the audio window the local Whisper encodes for a short clip (30 = Whisper's own).
    pub whisper_window_secs: u32,
}

/// Channels of the help function besides e-mail.
#[derive(Debug)]
pub struct EmergencySettings {
    /// `TWILIO_API_URL`: base address of the Twilio REST API.
    pub twilio_api_url: String,
    /// `TWILIO_ACCOUNT_SID`.
    pub twilio_account_sid: Option<String>,
    /// `TWILIO_AUTH_TOKEN`.
    pub twilio_auth_token: Option<SecretString>,
    /// `TWILIO_FROM_NUMBER`: the sending number, international format.
    pub twilio_from: Option<String>,
    /// `EMERGENCY_WEBHOOK_URL`: an address told of every alarm (best effort).
    pub webhook_url: Option<String>,
    /// `EMERGENCY_CHANNEL_TIMEOUT_SECONDS`: longest any one channel may take.
    pub channel_timeout_secs: u64,
    /// `EMERGENCY_ESCALATION_MINUTES` in milliseconds: a reminder goes out when no contact confirmed an
    /// alarm within this time; 0 = no reminders.
    pub escalation_ms: i64,
    /// `PUBLIC_URL`: the address contacts reach the gateway at, for acknowledgement links; without it the
    /// address the help button was pressed at.
    pub public_url: Option<String>,
}

impl EmergencySettings {
    /// Whether SMS and calls can be sent.
    pub fn twilio_configured(&self) -> bool {
        self.twilio_account_sid.is_some() && self.twilio_auth_token.is_some() && self.twilio_from.is_some()
    }
}

/// The SMTP relay.
#[derive(Debug)]
pub struct SmtpSettings {
    /// `SMTP_HOST`; without it no mail is sent.
    pub host: Option<String>,
    /// `SMTP_PORT`.
    pub port: u16,
    /// `SMTP_USER`.
    pub user: Option<String>,
    /// `SMTP_PASSWORD`.
    pub password: Option<SecretString>,
    /// `SMTP_FROM`.
    pub from: String,
    /// `SMTP_SECURITY`: `none`, `starttls` or `tls`.
    pub security: String,
}

/// A probability setting between 0 and 1.
fn probability(src: &env::Source, var: &str, default: f32) -> Result<f32, ConfigError> {
    let value: f32 = src.number(var, default)?;
    if !(0.0..=1.0).contains(&value) {
        return Err(ConfigError::new(var, format!("{value} is not between 0 and 1")));
    }
    Ok(value)
}

/// `EMERGENCY_ESCALATION_MINUTES`: 0 = off, fractions allowed (0.5 = 30 s), at most a day.
fn escalation_ms(src: &env::Source) -> Result<i64, ConfigError> {
    const VAR: &str = "EMERGENCY_ESCALATION_MINUTES";
    let minutes: f64 = src.number(VAR, 3.0)?;
    if !(0.0..=1440.0).contains(&minutes) {
        return Err(ConfigError::new(
            VAR,
            format!("{minutes} is not between 0 and 1440 minutes"),
        ));
    }
    Ok((minutes * 60_000.0).round() as i64)
}

/// `PUBLIC_URL`: an http(s) address without a trailing slash.
fn public_url(src: &env::Source) -> Result<Option<String>, ConfigError> {
    let Some(url) = src.raw("PUBLIC_URL") else {
        return Ok(None);
    };
    match reqwest::Url::parse(&url) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") && parsed.host_str().is_some() => {
            Ok(Some(url.trim_end_matches('/').to_string()))
        }
        _ => Err(ConfigError::new(
            "PUBLIC_URL",
            format!("{url:?} is not an http(s) address"),
        )),
    }
}

impl Settings {
    /// `CUDA_VISIBLE_DEVICES` for the engines' processes by `GPUS`: `none` hides every GPU, a list shows
    /// those devices, `auto` leaves the environment's (`None`). Given to each child rather than set on this
    /// process, where changing the environment is unsafe once threads run.
    pub fn cuda_visible_devices(&self) -> Option<String> {
        match self.gpus.as_str() {
            "auto" => None,
            "none" => Some(String::new()),
            list => Some(list.split(',').map(str::trim).collect::<Vec<_>>().join(",")),
        }
    }

    /// Reads the process environment (after loading `.env` when present).
    pub fn from_env() -> Result<Self, ConfigError> {
        let _ = dotenvy::dotenv();
        Self::from_lookup(&|var| std::env::var(var).ok())
    }

    /// Reads settings through any lookup; tests pass a map.
    pub fn from_lookup(lookup: &dyn Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        Self::parse(lookup).map(|(settings, _)| settings)
    }

    /// Every variable the settings read, with its default under `profile` (`None`: unset), in reading order.
    pub fn defaults(profile: Profile) -> env::Defaults {
        let lookup = |var: &str| (var == "PROFILE").then(|| profile.as_str().to_string());
        Self::parse(&lookup).map(|(_, read)| read).unwrap_or_default()
    }

    fn parse(lookup: &dyn Fn(&str) -> Option<String>) -> Result<(Self, env::Defaults), ConfigError> {
        let src = Source::new(lookup)?;
        let secret = |var: &str| src.raw(var).map(SecretString::from);
        let listen = src.string("LISTEN_ADDR", "127.0.0.1:8080");
        let listen_addr = listen.parse().map_err(|_| {
            ConfigError::new(
                "LISTEN_ADDR",
                format!("{listen:?} is not an address like 127.0.0.1:8080"),
            )
        })?;
        let default_language = src.choice("DEFAULT_LANGUAGE", "en", &LANGUAGES)?;
        let engines_dir = src.raw("ENGINES_DIR").map(PathBuf::from).unwrap_or_else(|| {
            PathBuf::from(src.string("DB_PATH", "data/gateway.db"))
                .parent()
                .map_or_else(|| PathBuf::from("engines"), |p| p.join("engines"))
        });
        let security = src.choice("SMTP_SECURITY", "starttls", &["none", "starttls", "tls"])?;
        let smtp_port_default = match security.as_str() {
            "tls" => 465,
            "none" => 25,
            _ => 587,
        };
        let settings = Self {
            listen_addr,
            db_path: PathBuf::from(src.string("DB_PATH", "data/gateway.db")),
            database_url: database_url(&src)?,
            database_max_connections: src.ranged("DATABASE_MAX_CONNECTIONS", 10, 1000)?.max(1),
            database_wait_secs: src.ranged("DATABASE_WAIT_SECONDS", 30, 3600)?.into(),
            auth_enabled: src.bool("AUTH_ENABLED", false)?,
            admin_api_key: secret("ADMIN_API_KEY"),
            trusted_auth_header: header_name(&src)?,
            trusted_proxy_ips: proxy_ips(&src)?,
            admin_users: src.list("ADMIN_USERS"),
            sso_logout_url: src.raw("SSO_LOGOUT_URL"),
            sso_login_url: src.raw("SSO_LOGIN_URL"),
            body_limit_bytes: src.number("BODY_LIMIT_BYTES", 1024 * 1024)?,
            server: ServerSettings {
                max_connections: src.ranged("MAX_CONNECTIONS", 4096, 1_000_000)?.max(1) as usize,
                max_connections_per_client: src.ranged("MAX_CONNECTIONS_PER_CLIENT", 256, 1_000_000)?.max(1) as usize,
                header_timeout_secs: src.ranged("HEADER_READ_TIMEOUT_SECONDS", 10, 3600)?.max(1).into(),
                body_timeout_secs: src.ranged("BODY_READ_TIMEOUT_SECONDS", 60, 3600)?.max(1).into(),
            },
            audio_limit_bytes: src.number("AUDIO_LIMIT_BYTES", 16 * 1024 * 1024)?,
            llm_max_tokens: src.ranged("LLM_MAX_TOKENS", 400, 100_000)?.max(16),
            provider_timeout_secs: src.ranged("PROVIDER_TIMEOUT_SECONDS", 120, 3600)?.max(1).into(),
            history_max_messages: src.ranged("HISTORY_MAX_MESSAGES", 10, 1000)?,
            audio_stream_default: src.bool("AUDIO_STREAM_DEFAULT", true)?,
            memory: MemorySettings {
                enabled: src.bool("MEMORY_EXTRACTION_ENABLED", true)?,
                every_n_turns: src.ranged("MEMORY_EXTRACTION_EVERY_N_TURNS", 5, 1000)?.max(1),
                max: src.ranged("MEMORY_EXTRACTION_MAX", 50, 10_000)?,
                provider: provider_or_none(&src, "MEMORY_EXTRACTION_PROVIDER", crate::provider_ids::LLM_PROVIDERS)?,
                cap: src.ranged("MEMORIES_MAX", 200, 100_000)?.max(1),
                prompt_max_chars: src.ranged("MEMORY_PROMPT_MAX_CHARS", 4000, 1_000_000)? as usize,
            },
            ws: WsSettings {
                allowed_origins: src.list("WS_ALLOWED_ORIGINS"),
                idle_timeout_secs: src.ranged("WS_IDLE_TIMEOUT_SECONDS", 300, 86_400)?.max(1).into(),
                filler_after_ms: src.ranged("FILLER_AFTER_MS", 1500, 60_000)?.into(),
                vad_threshold: src.ranged("VAD_THRESHOLD", 500, 32_767)?,
                vad_min_speech_ms: src.ranged("VAD_MIN_SPEECH_MS", 200, 10_000)?,
                vad_silence_ms: src.ranged("VAD_SILENCE_MS", 700, 10_000)?.max(20),
                vad_engine: src.choice("VAD_ENGINE", "auto", &["auto", "silero", "energy"])?,
                vad_speech_probability: probability(&src, "VAD_SPEECH_PROBABILITY", 0.5)?,
                onnxruntime_lib: src.raw("ONNXRUNTIME_LIB").map_or_else(
                    || engines_dir.join("onnxruntime").join("libonnxruntime.so"),
                    PathBuf::from,
                ),
                silero_vad_model: src
                    .raw("SILERO_VAD_MODEL")
                    .map_or_else(|| engines_dir.join("models").join("silero_vad.onnx"), PathBuf::from),
                turn_engine: src.choice("TURN_ENGINE", "auto", &["auto", "smart-turn", "silence"])?,
                smart_turn_model: src.raw("SMART_TURN_MODEL").map_or_else(
                    || engines_dir.join("models").join("smart-turn-v3.2-cpu.onnx"),
                    PathBuf::from,
                ),
                turn_check_ms: src.ranged("TURN_CHECK_MS", 200, 10_000)?.max(20),
                turn_max_silence_ms: src.ranged("TURN_MAX_SILENCE_MS", 2000, 10_000)?.max(20),
                turn_complete_probability: probability(&src, "TURN_COMPLETE_PROBABILITY", 0.5)?,
                barge_in_min_speech_ms: src.ranged("BARGE_IN_MIN_SPEECH_MS", 400, 10_000)?,
                stt_early_ms: src.ranged("STT_EARLY_MS", 200, 10_000)?,
                max_utterance_secs: src.ranged("MAX_UTTERANCE_SECONDS", 60, 600)?.max(1),
                max_voice_connections: src.ranged("MAX_VOICE_CONNECTIONS", 200, 100_000)?.max(1) as usize,
                voice_connections_per_user: src.ranged("VOICE_CONNECTIONS_PER_USER", 4, 1000)?.max(1) as usize,
                audio_buffer_budget_bytes: src.number("AUDIO_BUFFER_BUDGET_BYTES", 256 * 1024 * 1024)?,
            },
            fallbacks: Fallbacks {
                stt: chain(&src, "STT_FALLBACK", crate::provider_ids::STT_PROVIDERS)?,
                llm: chain(&src, "LLM_FALLBACK", crate::provider_ids::LLM_PROVIDERS)?,
                tts: chain(&src, "TTS_FALLBACK", crate::provider_ids::TTS_PROVIDERS)?,
            },
            providers: ProviderSettings {
                local_llm_url: src.string("LOCAL_LLM_URL", "http://127.0.0.1:11434/v1"),
                local_llm_backend: src.choice("LOCAL_LLM_BACKEND", "ollama", &["ollama", "llamacpp"])?,
                ollama_url: src.string("OLLAMA_URL", "http://127.0.0.1:11434"),
                llamacpp_url: src.string("LLAMACPP_URL", "http://127.0.0.1:8081"),
                cloud_llm_url: src.string("CLOUD_LLM_URL", "https://openrouter.ai/api/v1"),
                cloud_llm_api_key: secret("CLOUD_LLM_API_KEY"),
                whisper_model_path: src.raw("WHISPER_MODEL_PATH"),
                whisper_model: src.string("WHISPER_MODEL", "small"),
                whisper_compute_type: src.string("WHISPER_COMPUTE_TYPE", "int8"),
                openai_stt_url: src.string("OPENAI_STT_URL", "https://api.openai.com/v1"),
                openai_stt_api_key: secret("OPENAI_STT_API_KEY"),
                openai_stt_model: src.string("OPENAI_STT_MODEL", "whisper-1"),
                piper_voice_dir: src.raw("PIPER_VOICE_DIR"),
                piper_url: src.raw("PIPER_URL"),
                openai_tts_url: src.string("OPENAI_TTS_URL", "https://api.openai.com/v1"),
                openai_tts_api_key: secret("OPENAI_TTS_API_KEY"),
                openai_tts_model: src.string("OPENAI_TTS_MODEL", "tts-1"),
                openai_tts_configured: lookup("OPENAI_TTS_URL").is_some_and(|v| !v.trim().is_empty())
                    || src.raw("OPENAI_TTS_API_KEY").is_some(),
                openai_tts_unsupported_languages: languages(&src, "OPENAI_TTS_UNSUPPORTED_LANGUAGES")?,
                searxng_url: src.raw("SEARXNG_URL"),
                tavily_url: src.string("TAVILY_URL", "https://api.tavily.com"),
                brave_url: src.string("BRAVE_URL", "https://api.search.brave.com/res/v1"),
                tavily_api_key: secret("TAVILY_API_KEY"),
                brave_api_key: secret("BRAVE_API_KEY"),
            },
            smtp: SmtpSettings {
                host: src.raw("SMTP_HOST"),
                port: src.number("SMTP_PORT", smtp_port_default)?,
                user: src.raw("SMTP_USER"),
                password: secret("SMTP_PASSWORD"),
                from: src.string("SMTP_FROM", "voice-gateway@localhost"),
                security,
            },
            emergency_contact_email: src.raw("EMERGENCY_CONTACT_EMAIL"),
            emergency: EmergencySettings {
                twilio_api_url: src.string("TWILIO_API_URL", "https://api.twilio.com"),
                twilio_account_sid: src.raw("TWILIO_ACCOUNT_SID"),
                twilio_auth_token: secret("TWILIO_AUTH_TOKEN"),
                twilio_from: src.raw("TWILIO_FROM_NUMBER"),
                webhook_url: src.raw("EMERGENCY_WEBHOOK_URL"),
                channel_timeout_secs: src.ranged("EMERGENCY_CHANNEL_TIMEOUT_SECONDS", 15, 300)?.max(1).into(),
                escalation_ms: escalation_ms(&src)?,
                public_url: public_url(&src)?,
            },
            gpus: gpus(&src)?,
            instance_id: src
                .raw("INSTANCE_ID")
                .unwrap_or_else(|| format!("{}:{}", host_name(), listen_addr.port())),
            overrides_refresh_secs: src.ranged("OVERRIDES_REFRESH_SECONDS", 30, 3600)?.max(1).into(),
            engines: EngineSettings {
                mode: src.choice(
                    "ENGINES",
                    if src.profile == Profile::LocalDev {
                        "auto"
                    } else {
                        "off"
                    },
                    &["auto", "off"],
                )?,
                dir: engines_dir.clone(),
                llm_configured: lookup("LOCAL_LLM_URL").is_some_and(|v| !v.trim().is_empty()),
                stt_configured: lookup("OPENAI_STT_URL").is_some_and(|v| !v.trim().is_empty()),
                tts_configured: ["DEFAULT_TTS_PROVIDER", "PIPER_URL"]
                    .iter()
                    .any(|k| lookup(k).is_some_and(|v| !v.trim().is_empty())),
                whisper_model_explicit: lookup("WHISPER_MODEL").is_some_and(|v| !v.trim().is_empty()),
                whisper_window_secs: src.ranged("WHISPER_WINDOW_SECONDS", 15, 30)?.max(1),
            },
            model_presets: presets::load(src.raw("MODEL_PRESETS_FILE").as_deref())
                .map_err(|e| ConfigError::new("MODEL_PRESETS_FILE", e))?,
            restart_command: src
                .raw("RESTART_COMMAND")
                .map(|c| c.split_whitespace().map(String::from).collect::<Vec<_>>())
                .filter(|parts| !parts.is_empty()),
            runtime_env: runtime_env(&src)?,
            default_language,
            profile: src.profile,
        };
        Ok((settings, src.read.into_inner()))
    }

    /// Whether a user name is listed in `ADMIN_USERS`.
    pub fn is_listed_admin(&self, name: &str) -> bool {
        self.admin_users.iter().any(|n| n == name)
    }
}

/// This machine's name (for the default instance id).
fn host_name() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "gateway".to_string())
}

fn database_url(src: &Source) -> Result<Option<SecretString>, ConfigError> {
    match src.raw("DATABASE_URL") {
        None => Ok(None),
        Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => Ok(Some(url.into())),
        Some(_) => Err(ConfigError::new("DATABASE_URL", "expected a postgres:// URL")),
    }
}

fn header_name(src: &Source) -> Result<String, ConfigError> {
    let name = src.string("TRUSTED_AUTH_HEADER", "X-Forwarded-User");
    axum::http::HeaderName::from_bytes(name.as_bytes())
        .map(|h| h.as_str().to_string())
        .map_err(|_| ConfigError::new("TRUSTED_AUTH_HEADER", format!("{name:?} is not a valid header name")))
}

fn proxy_ips(src: &Source) -> Result<Vec<IpNet>, ConfigError> {
    src.list("TRUSTED_PROXY_IPS")
        .iter()
        .map(|entry| {
            entry
                .parse::<IpNet>()
                .or_else(|_| entry.parse::<std::net::IpAddr>().map(IpNet::from))
                .map_err(|_| {
                    ConfigError::new(
                        "TRUSTED_PROXY_IPS",
                        format!("{entry:?} is neither an IP address nor a CIDR range"),
                    )
                })
        })
        .collect()
}

fn chain(src: &Source, var: &str, ids: &[&str]) -> Result<Vec<String>, ConfigError> {
    let list = src.list(var);
    match list.iter().find(|p| !ids.contains(&p.as_str())) {
        Some(bad) => Err(ConfigError::new(
            var,
            format!("{bad:?} is not one of {}", ids.join(", ")),
        )),
        None => Ok(list),
    }
}

fn provider_or_none(src: &Source, var: &str, ids: &[&str]) -> Result<Option<String>, ConfigError> {
    Ok(chain(src, var, ids)?.into_iter().next())
}

fn languages(src: &Source, var: &str) -> Result<Vec<String>, ConfigError> {
    chain(src, var, &LANGUAGES)
}

fn gpus(src: &Source) -> Result<String, ConfigError> {
    let value = src.string("GPUS", "auto");
    let valid = value == "auto"
        || value == "none"
        || value
            .split(',')
            .all(|d| !d.trim().is_empty() && d.trim().chars().all(|c| c.is_ascii_digit()));
    if valid {
        Ok(value)
    } else {
        Err(ConfigError::new(
            "GPUS",
            format!("{value:?} is not auto, none or a comma list of device numbers"),
        ))
    }
}

fn runtime_env(src: &Source) -> Result<BTreeMap<keys::Key, String>, ConfigError> {
    keys::KEYS
        .iter()
        .map(|spec| {
            let var = spec.env_name();
            let raw = src.raw(&var).unwrap_or_else(|| spec.default.to_string());
            spec.validate(&raw)
                .map(|value| (spec.id, value))
                .map_err(|problem| ConfigError::new(&var, problem))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use secrecy::ExposeSecret;
    use std::collections::HashMap;

    fn settings(pairs: &[(&str, &str)]) -> Result<Settings, ConfigError> {
        let map: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Settings::from_lookup(&|k| map.get(k).cloned())
    }

    #[test]
    fn starts_with_no_settings_at_all() {
        let s = settings(&[]).unwrap();
        assert_eq!(s.listen_addr.to_string(), "127.0.0.1:8080");
        assert_eq!(s.db_path, PathBuf::from("data/gateway.db"));
        assert_eq!(s.profile, Profile::LocalDev);
        assert!(!s.auth_enabled);
        assert_eq!(s.history_max_messages, 10);
        assert_eq!(s.runtime_env[&keys::Key::EmergencyCooldownMinutes], "5");
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
        assert!(cloud.auth_enabled);
        assert_eq!(cloud.runtime_env[&keys::Key::DefaultTtsProvider], "openai");
        assert_eq!(cloud.fallbacks.tts, vec!["espeak"]);
        let hybrid = settings(&[("PROFILE", "hybrid"), ("DEFAULT_LLM_PROVIDER", "local")]).unwrap();
        assert_eq!(hybrid.runtime_env[&keys::Key::DefaultLlmProvider], "local");
        assert_eq!(hybrid.fallbacks.llm, vec!["local"]);
    }

    #[test]
    fn proxies_accept_addresses_and_ranges() {
        let s = settings(&[("TRUSTED_PROXY_IPS", "127.0.0.1, 10.0.0.0/8,::1")]).unwrap();
        assert_eq!(s.trusted_proxy_ips.len(), 3);
        assert!(s.trusted_proxy_ips[1].contains(&"10.2.3.4".parse::<std::net::IpAddr>().unwrap()));
    }

    #[test]
    fn secrets_are_redacted_in_debug_output() {
        let s = settings(&[("ADMIN_API_KEY", "hunter2-secret"), ("SMTP_PASSWORD", "mail-secret")]).unwrap();
        let shown = format!("{s:?}");
        assert!(!shown.contains("hunter2-secret") && !shown.contains("mail-secret"));
        assert_eq!(s.admin_api_key.unwrap().expose_secret(), "hunter2-secret");
    }
}
