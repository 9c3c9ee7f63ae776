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
use secrecy::{ExposeSecret, SecretString};

pub use crate::providers::ProviderSettings;
use crate::providers::{LlmId, SttId, TtsId};

pub use env::ConfigError;
use env::{Source, Var};
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
    pub provider: Option<LlmId>,
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
    pub stt: Vec<SttId>,
    /// `LLM_FALLBACK`.
    pub llm: Vec<LlmId>,
    /// `TTS_FALLBACK`.
    pub tts: Vec<TtsId>,
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

/// `SMTP_*`: the port's default follows the security.
fn smtp(src: &Source) -> Result<SmtpSettings, ConfigError> {
    let security = src
        .var("SMTP_SECURITY", "`none`, `starttls` or `tls`")
        .choice("starttls", &["none", "starttls", "tls"])?;
    let port = match security.as_str() {
        "tls" => 465,
        "none" => 25,
        _ => 587,
    };
    Ok(SmtpSettings {
        host: src.var("SMTP_HOST", "mail relay; without it no mail is sent").raw(),
        port: src
            .var("SMTP_PORT", "mail relay port")
            .shown("587 (starttls), 465 (tls), 25 (none)")
            .number(port)?,
        user: src.var("SMTP_USER", "mail relay login").raw(),
        password: src.var("SMTP_PASSWORD", "mail relay password").secret(),
        from: src
            .var("SMTP_FROM", "sender address of alarms")
            .string("voice-gateway@localhost"),
        security,
    })
}

fn listen_addr(var: Var) -> Result<SocketAddr, ConfigError> {
    let listen = var.string("127.0.0.1:8080");
    listen
        .parse()
        .map_err(|_| var.error(format!("{listen:?} is not an address like 127.0.0.1:8080")))
}

/// `EMERGENCY_ESCALATION_MINUTES`: 0 = off, fractions allowed (0.5 = 30 s), at most a day.
fn escalation_ms(var: Var) -> Result<i64, ConfigError> {
    let minutes: f64 = var.number(3.0)?;
    if !(0.0..=1440.0).contains(&minutes) {
        return Err(var.error(format!("{minutes} is not between 0 and 1440 minutes")));
    }
    Ok((minutes * 60_000.0).round() as i64)
}

/// `PUBLIC_URL`: an http(s) address without a trailing slash.
fn public_url(var: Var) -> Result<Option<String>, ConfigError> {
    let Some(url) = var.raw() else {
        return Ok(None);
    };
    match reqwest::Url::parse(&url) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") && parsed.host_str().is_some() => {
            Ok(Some(url.trim_end_matches('/').to_string()))
        }
        _ => Err(var.error(format!("{url:?} is not an http(s) address"))),
    }
}

fn database_url(var: Var) -> Result<Option<SecretString>, ConfigError> {
    let name = var.error("").var;
    match var.secret() {
        None => Ok(None),
        Some(url)
            if url.expose_secret().starts_with("postgres://") || url.expose_secret().starts_with("postgresql://") =>
        {
            Ok(Some(url))
        }
        Some(_) => Err(ConfigError::new(&name, "expected a postgres:// URL")),
    }
}

fn header_name(var: Var) -> Result<String, ConfigError> {
    let name = var.string("X-Forwarded-User");
    axum::http::HeaderName::from_bytes(name.as_bytes())
        .map(|h| h.as_str().to_string())
        .map_err(|_| var.error(format!("{name:?} is not a valid header name")))
}

fn proxy_ips(var: Var) -> Result<Vec<IpNet>, ConfigError> {
    var.list()
        .iter()
        .map(|entry| {
            entry
                .parse::<IpNet>()
                .or_else(|_| entry.parse::<std::net::IpAddr>().map(IpNet::from))
                .map_err(|_| var.error(format!("{entry:?} is neither an IP address nor a CIDR range")))
        })
        .collect()
}

fn gpus(var: Var) -> Result<String, ConfigError> {
    let value = var.string("auto");
    let valid = value == "auto"
        || value == "none"
        || value
            .split(',')
            .all(|d| !d.trim().is_empty() && d.trim().chars().all(|c| c.is_ascii_digit()));
    if valid {
        Ok(value)
    } else {
        Err(var.error(format!("{value:?} is not auto, none or a comma list of device numbers")))
    }
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
    pub fn defaults(profile: Profile) -> Vec<env::Documented> {
        let lookup = |var: &str| (var == "PROFILE").then(|| profile.as_str().to_string());
        Self::parse(&lookup).map(|(_, read)| read).unwrap_or_default()
    }

    fn parse(lookup: &dyn Fn(&str) -> Option<String>) -> Result<(Self, Vec<env::Documented>), ConfigError> {
        let src = Source::new(lookup)?;
        let configured = |var: &str| lookup(var).is_some_and(|v| !v.trim().is_empty());
        let listen_addr = listen_addr(src.var("LISTEN_ADDR", "address the server binds"))?;
        let db_path = PathBuf::from(
            src.var("DB_PATH", "the embedded SQLite store (created with its folder)")
                .string("data/gateway.db"),
        );
        let engines_dir = src
            .var(
                "ENGINES_DIR",
                "virtual environment, models and logs of the local engines",
            )
            .shown("data/engines")
            .raw()
            .map_or_else(
                || {
                    db_path
                        .parent()
                        .map_or_else(|| PathBuf::from("engines"), |p| p.join("engines"))
                },
                PathBuf::from,
            );
        let in_engines = |var: &str, meaning: &str, shown: &'static str, path: &[&str]| {
            let default = path.iter().fold(engines_dir.clone(), |dir, part| dir.join(part));
            src.var(var, meaning).shown(shown).raw().map_or(default, PathBuf::from)
        };
        let tts_api_key = src.var("OPENAI_TTS_API_KEY", "its API key").secret();
        let settings = Self {
            listen_addr,
            db_path,
            database_url: database_url(src.var("DATABASE_URL", "a `postgres://…` URL (it may hold a password) selects PostgreSQL instead of the SQLite file, for several instances on one store"))?,
            database_wait_secs: src.var("DATABASE_WAIT_SECONDS", "how long start-up waits for a PostgreSQL server that refuses connections or is starting up, then stops saying so").ranged(30, 3600)?.into(),
            database_max_connections: src.var("DATABASE_MAX_CONNECTIONS", "connections each instance keeps to PostgreSQL").ranged(10, 1000)?.max(1),
            auth_enabled: src.var("AUTH_ENABLED", "false: callers without credentials act as the anonymous user").profiles([None, Some("true"), Some("true")]).bool(false)?,
            admin_api_key: src.var("ADMIN_API_KEY", "admin secret, sent as `X-Admin-Key`").secret(),
            trusted_auth_header: header_name(src.var("TRUSTED_AUTH_HEADER", "identity header set by the single-sign-on proxy"))?,
            trusted_proxy_ips: proxy_ips(src.var("TRUSTED_PROXY_IPS", "comma list of addresses and CIDR ranges whose identity header is believed"))?,
            admin_users: src.var("ADMIN_USERS", "comma list of user names that are admins").list(),
            sso_logout_url: src.var("SSO_LOGOUT_URL", "logout address shown by `/api/me` as `sso_logout_url`").raw(),
            sso_login_url: src.var("SSO_LOGIN_URL", "where the UI gate sends callers without identity (else 401)").raw(),
            body_limit_bytes: src.var("BODY_LIMIT_BYTES", "largest JSON request body; larger gets 413").number(1024 * 1024)?,
            audio_limit_bytes: src.var("AUDIO_LIMIT_BYTES", "largest audio upload; larger gets 413").number(16 * 1024 * 1024)?,
            server: ServerSettings {
                max_connections: src.var("MAX_CONNECTIONS", "open connections served in full (WebSockets included); beyond, 503 except `/health`").ranged(4096, 1_000_000)?.max(1) as usize,
                max_connections_per_client: src.var("MAX_CONNECTIONS_PER_CLIENT", "the same per client address (not for `TRUSTED_PROXY_IPS`)").ranged(256, 1_000_000)?.max(1)
                    as usize,
                header_timeout_secs: src.var("HEADER_READ_TIMEOUT_SECONDS", "time to send a request's headers; also the idle time of a keep-alive connection").ranged(10, 3600)?.max(1).into(),
                body_timeout_secs: src.var("BODY_READ_TIMEOUT_SECONDS", "time to send a request's body; slower gets 408").ranged(60, 3600)?.max(1).into(),
            },
            ws: WsSettings {
                allowed_origins: src.var("WS_ALLOWED_ORIGINS", "comma list of browser origins (`https://app.example`) allowed to open WebSockets besides the gateway's own").list(),
                idle_timeout_secs: src.var("WS_IDLE_TIMEOUT_SECONDS", "a WebSocket without frames and without a running turn is closed after this").ranged(300, 86_400)?.max(1).into(),
                filler_after_ms: src.var("FILLER_AFTER_MS", "a short reassuring phrase is sent when the first token takes longer (0 = never)").ranged(1500, 60_000)?.into(),
                vad_threshold: src.var("VAD_THRESHOLD", "RMS level of 16-bit samples above which a 20 ms frame counts as speech (`/ws/voice` with `vad`)").ranged(500, 32_767)?,
                vad_min_speech_ms: src.var("VAD_MIN_SPEECH_MS", "speech needed before silence can end an utterance").ranged(200, 10_000)?,
                vad_silence_ms: src.var("VAD_SILENCE_MS", "trailing silence that ends an utterance when Smart Turn does not decide it").ranged(700, 10_000)?.max(20),
                barge_in_min_speech_ms: src.var("BARGE_IN_MIN_SPEECH_MS", "speech that interrupts a running answer on `/ws/voice` (0 = never); shorter sounds are ignored").ranged(400, 10_000)?,
                stt_early_ms: src.var("STT_EARLY_MS", "silence after which an utterance is transcribed while the end of the turn is awaited (0 = off); costs a call per pause with a paid STT").ranged(200, 10_000)?,
                vad_engine: src.var("VAD_ENGINE", "voice detector of `/ws/voice`: `auto` (Silero when its runtime and model are there, else energy), `silero`, `energy`").choice("auto", &["auto", "silero", "energy"])?,
                vad_speech_probability: src.var("VAD_SPEECH_PROBABILITY", "Silero's probability at which a 32 ms window counts as speech").probability(0.5)?,
                onnxruntime_lib: in_engines(
                    "ONNXRUNTIME_LIB",
                    "the ONNX Runtime library the neural models run on (the one in the PyPI `onnxruntime` wheel will do)",
                    "ENGINES_DIR/onnxruntime/libonnxruntime.so",
                    &["onnxruntime", "libonnxruntime.so"],
                ),
                silero_vad_model: in_engines(
                    "SILERO_VAD_MODEL",
                    "the Silero VAD model (fetched by the zero-setup engines)",
                    "ENGINES_DIR/models/silero_vad.onnx",
                    &["models", "silero_vad.onnx"],
                ),
                turn_engine: src.var("TURN_ENGINE", "end of turn on `/ws/voice` with `vad`: `auto` (Smart Turn when its runtime and model are there, else the fixed `VAD_SILENCE_MS`), `smart-turn`, `silence`").choice("auto", &["auto", "smart-turn", "silence"])?,
                smart_turn_model: in_engines(
                    "SMART_TURN_MODEL",
                    "the Smart Turn v3 model, which hears whether a turn is complete (fetched by the zero-setup engines)",
                    "ENGINES_DIR/models/smart-turn-v3.2-cpu.onnx",
                    &["models", "smart-turn-v3.2-cpu.onnx"],
                ),
                turn_check_ms: src.var("TURN_CHECK_MS", "silence after which Smart Turn is asked whether the turn is complete; complete ends it at once").ranged(200, 10_000)?.max(20),
                turn_max_silence_ms: src.var("TURN_MAX_SILENCE_MS", "silence that ends a turn Smart Turn found incomplete (a thinking pause shorter than this is not cut)").ranged(2000, 10_000)?.max(20),
                turn_complete_probability: src.var("TURN_COMPLETE_PROBABILITY", "Smart Turn's probability at which a turn counts as complete").probability(0.5)?,
                max_utterance_secs: src.var("MAX_UTTERANCE_SECONDS", "longest utterance buffered on `/ws/voice`; longer gets an error event").ranged(60, 600)?.max(1),
                max_voice_connections: src.var("MAX_VOICE_CONNECTIONS", "open `/ws/voice` connections of everybody; beyond, an error event and close 1008").ranged(200, 100_000)?.max(1) as usize,
                voice_connections_per_user: src.var("VOICE_CONNECTIONS_PER_USER", "open `/ws/voice` connections of one user; beyond, an error event and close 1008").ranged(4, 1000)?.max(1)
                    as usize,
                audio_buffer_budget_bytes: src.var("AUDIO_BUFFER_BUDGET_BYTES", "audio all voice connections may buffer together; a connection that would pass it is closed (1008)").number(256 * 1024 * 1024)?,
            },
            llm_max_tokens: src.var("LLM_MAX_TOKENS", "longest answer in tokens (`max_tokens`): spoken answers are short, and a model caught in a loop stops").ranged(400, 100_000)?.max(16),
            provider_timeout_secs: src.var("PROVIDER_TIMEOUT_SECONDS", "longest any provider call may take in all (connecting: at most 5 s)").ranged(120, 3600)?.max(1).into(),
            history_max_messages: src.var("HISTORY_MAX_MESSAGES", "recent messages of a session loaded into a turn").ranged(10, 1000)?,
            audio_stream_default: src.var("AUDIO_STREAM_DEFAULT", "sentence-wise audio when a request does not set `audio_stream`").bool(true)?,
            default_language: src.var("DEFAULT_LANGUAGE", "language when neither user nor request names one (de, en, fr, es, it, nl, pl, pt)").choice("en", &LANGUAGES)?,
            memory: MemorySettings {
                enabled: src.var("MEMORY_EXTRACTION_ENABLED", "extract durable facts from conversations in the background").bool(true)?,
                every_n_turns: src.var("MEMORY_EXTRACTION_EVERY_N_TURNS", "extraction runs after every N stored turns of a user").ranged(5, 1000)?.max(1),
                max: src.var("MEMORY_EXTRACTION_MAX", "memories per user at which extraction stops adding").ranged(50, 10_000)?,
                cap: src.var("MEMORIES_MAX", "memories a user may have (added by the user, an admin or extraction); beyond, 409").ranged(200, 100_000)?.max(1),
                prompt_max_chars: src.var("MEMORY_PROMPT_MAX_CHARS", "memory text that enters a prompt; the newest memories go in first, older ones are left out").ranged(4000, 1_000_000)? as usize,
                provider: src
                    .var("MEMORY_EXTRACTION_PROVIDER", "LLM provider asked for extraction: `local` or `cloud`")
                    .shown("(default LLM provider)")
                    .providers()?
                    .into_iter()
                    .next(),
            },
            fallbacks: Fallbacks {
                stt: src.var("STT_FALLBACK", "comma list of STT providers tried after the chosen one").providers()?,
                llm: src.var("LLM_FALLBACK", "comma list of LLM providers tried after the chosen one").profiles([None, Some(LlmId::Local.as_str()), None]).providers()?,
                tts: src.var("TTS_FALLBACK", "comma list of TTS providers tried after the chosen one").profiles([None, None, Some(TtsId::Espeak.as_str())]).providers()?,
            },
            providers: ProviderSettings {
                local_llm_url: src.var("LOCAL_LLM_URL", "OpenAI-compatible base URL of the local LLM server").string("http://127.0.0.1:11434/v1"),
                local_llm_backend: src.var("LOCAL_LLM_BACKEND", "`ollama` or `llamacpp`: how the local server is managed").choice("ollama", &["ollama", "llamacpp"])?,
                ollama_url: src.var("OLLAMA_URL", "the Ollama server when the local backend is switched to `ollama` (the configured backend uses LOCAL_LLM_URL)").string("http://127.0.0.1:11434"),
                llamacpp_url: src.var("LLAMACPP_URL", "the llama.cpp server when the local backend is switched to `llamacpp`").string("http://127.0.0.1:8081"),
                cloud_llm_url: src.var("CLOUD_LLM_URL", "OpenAI-compatible base URL of the cloud LLM").string("https://openrouter.ai/api/v1"),
                cloud_llm_api_key: src.var("CLOUD_LLM_API_KEY", "API key of the cloud LLM").secret(),
                whisper_model_path: src.var("WHISPER_MODEL_PATH", "model file of the in-process whisper STT").raw(),
                whisper_model: src
                    .var("WHISPER_MODEL", "Whisper size; unless this is set, the zero-setup engines run small where CTranslate2 finds a CUDA device and base on a CPU (74M parameters to small's 244M; 0.37 s per question on 2 cores); base when the size cannot be fetched")
                    .shown("small (engines: small on a GPU, base on a CPU)")
                    .string("small"),
                whisper_compute_type: src.var("WHISPER_COMPUTE_TYPE", "whisper quantisation").string("int8"),
                openai_stt_url: src
                    .var("OPENAI_STT_URL", "base URL of the OpenAI-compatible transcription service")
                    .profiles([
                        Some("http://127.0.0.1:8090/v1"),
                        Some("http://127.0.0.1:8090/v1"),
                        None,
                    ])
                    .string("https://api.openai.com/v1"),
                openai_stt_api_key: src.var("OPENAI_STT_API_KEY", "its API key").secret(),
                openai_stt_model: src.var("OPENAI_STT_MODEL", "its model").string("whisper-1"),
                piper_voice_dir: src
                    .var("PIPER_VOICE_DIR", "folder of Piper voices (`NAME.onnx` with `NAME.onnx.json`; the name's start is the language)")
                    .shown("(unset; engines: ENGINES_DIR/voices)")
                    .raw(),
                piper_url: src.var("PIPER_URL", "OpenAI-compatible speech server with those voices (`…/v1`); the zero-setup engines start one").shown("(unset; engines: their Piper service)").raw(),
                openai_tts_url: src
                    .var("OPENAI_TTS_URL", "base URL of the OpenAI-compatible speech service")
                    .profiles([
                        Some("http://127.0.0.1:8880/v1"),
                        Some("http://127.0.0.1:8880/v1"),
                        None,
                    ])
                    .string("https://api.openai.com/v1"),
                openai_tts_configured: configured("OPENAI_TTS_URL") || tts_api_key.is_some(),
                openai_tts_api_key: tts_api_key,
                openai_tts_model: src.var("OPENAI_TTS_MODEL", "its model").string("tts-1"),
                openai_tts_unsupported_languages: src.var("OPENAI_TTS_UNSUPPORTED_LANGUAGES", "languages it cannot speak (e.g. `de,nl,pl` for Kokoro); those use the local voice").subset(&LANGUAGES)?,
                searxng_url: src.var("SEARXNG_URL", "base URL of a SearXNG instance (JSON API enabled)").raw(),
                tavily_url: src.var("TAVILY_URL", "address of the Tavily search API").string("https://api.tavily.com"),
                tavily_api_key: src.var("TAVILY_API_KEY", "Tavily search key").secret(),
                brave_url: src.var("BRAVE_URL", "address of the Brave search API").string("https://api.search.brave.com/res/v1"),
                brave_api_key: src.var("BRAVE_API_KEY", "Brave search key").secret(),
            },
            emergency_contact_email: src.var("EMERGENCY_CONTACT_EMAIL", "recipient of every alarm, besides the user's own contacts").raw(),
            emergency: EmergencySettings {
                twilio_api_url: src.var("TWILIO_API_URL", "base address of the Twilio REST API (SMS and calls of the help function)").string("https://api.twilio.com"),
                twilio_account_sid: src.var("TWILIO_ACCOUNT_SID", "Twilio account; with the token and number it enables SMS and calls").raw(),
                twilio_auth_token: src.var("TWILIO_AUTH_TOKEN", "Twilio auth token").secret(),
                twilio_from: src.var("TWILIO_FROM_NUMBER", "the Twilio number alarms are sent and called from (+4930…)").raw(),
                webhook_url: src.var("EMERGENCY_WEBHOOK_URL", "address that receives a JSON POST of every alarm (best effort)").raw(),
                channel_timeout_secs: src.var("EMERGENCY_CHANNEL_TIMEOUT_SECONDS", "longest one alarm channel (mail, each SMS or call, webhook) may take").ranged(15, 300)?.max(1).into(),
                escalation_ms: escalation_ms(src.var("EMERGENCY_ESCALATION_MINUTES", "a reminder goes out on every channel when no contact confirmed an alarm within this time (0 = off)"))?,
                public_url: public_url(src.var("PUBLIC_URL", "address contacts reach the gateway at (acknowledgement links); else the address help was pressed at"))?,
            },
            smtp: smtp(&src)?,
            instance_id: src
                .var("INSTANCE_ID", "this instance's name when several gateways share one database: in metrics, the live log and leases")
                .shown("host name:port")
                .raw()
                .unwrap_or_else(|| format!("{}:{}", host_name(), listen_addr.port())),
            overrides_refresh_secs: src.var("OVERRIDES_REFRESH_SECONDS", "how old the runtime overrides (and the local backend) an instance uses may be; an admin's change through another instance takes effect within it").ranged(30, 3600)?.max(1).into(),
            gpus: gpus(src.var("GPUS", "`auto`, `none` or a comma list of device numbers for local engines"))?,
            engines: EngineSettings {
                mode: src
                    .var("ENGINES", "`auto`: at start, set up and run llama.cpp and faster-whisper for whatever LOCAL_LLM_URL / OPENAI_STT_URL do not configure")
                    .profiles([Some("auto"), None, None])
                    .choice("off", &["auto", "off"])?,
                dir: engines_dir.clone(),
                llm_configured: configured("LOCAL_LLM_URL"),
                stt_configured: configured("OPENAI_STT_URL"),
                tts_configured: configured("DEFAULT_TTS_PROVIDER") || configured("PIPER_URL"),
                whisper_model_explicit: configured("WHISPER_MODEL"),
                whisper_window_secs: src.var("WHISPER_WINDOW_SECONDS", "audio window the local faster-whisper encodes for a clip of known language shorter than it (longer clips: just long enough); 30 = Whisper's own window, 0.6 s slower for a short question").ranged(15, 30)?.max(1),
            },
            model_presets: {
                let file = src.var("MODEL_PRESETS_FILE", "JSON list of model presets for the admin menu (see README, Operations)").shown("(unset: built-in presets)");
                presets::load(file.raw().as_deref()).map_err(|e| file.error(e))?
            },
            restart_command: src
                .var("RESTART_COMMAND", "privileged command that restarts the service, e.g. `sudo -n systemctl restart voice-gateway` (no shell)")
                .shown("(unset: the gateway re-executes itself)")
                .raw()
                .map(|c| c.split_whitespace().map(String::from).collect::<Vec<_>>())
                .filter(|parts| !parts.is_empty()),
            runtime_env: runtime_env(&src)?,
            profile: src.profile,
        };
        // Read by the logging set-up, before the settings.
        src.var("RUST_LOG", "log filter (tracing `EnvFilter` syntax)")
            .shown("info")
            .read_elsewhere();
        Ok((settings, src.documented.into_inner()))
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
        assert_eq!(cloud.fallbacks.tts, vec![TtsId::Espeak]);
        let hybrid = settings(&[("PROFILE", "hybrid"), ("DEFAULT_LLM_PROVIDER", "local")]).unwrap();
        assert_eq!(hybrid.runtime_env[&keys::Key::DefaultLlmProvider], "local");
        assert_eq!(hybrid.fallbacks.llm, vec![LlmId::Local]);
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
