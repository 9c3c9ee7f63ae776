//! The documented list of every setting, so the README table and the code cannot drift apart: a setting's
//! name and meaning are written here, its default is read from the settings themselves, a test checks that
//! every variable the settings read is listed here and every listed one is read, and another that the README
//! holds the generated table.

use super::Settings;
use super::env::Defaults;
use super::keys::KEYS;
use super::profile::Profile;

const PROFILES: [Profile; 3] = [Profile::LocalDev, Profile::Hybrid, Profile::Cloud];

/// One documented environment variable. Its default is what the settings use when it is unset, found by
/// reading the settings of an empty environment under each profile; only a default computed from other
/// settings is written here.
pub struct Setting {
    /// The variable.
    pub name: &'static str,
    /// The default as the README states it, when it is derived from other settings.
    pub derived_default: Option<&'static str>,
    /// What it does.
    pub meaning: &'static str,
}

impl Setting {
    const fn read(name: &'static str, meaning: &'static str) -> Self {
        Self {
            name,
            derived_default: None,
            meaning,
        }
    }

    const fn derived(name: &'static str, default: &'static str, meaning: &'static str) -> Self {
        Self {
            name,
            derived_default: Some(default),
            meaning,
        }
    }
}

/// Settings that are not runtime-overridable.
pub const SETTINGS: &[Setting] = &[
    Setting::read(
        "PROFILE",
        "`local-dev`, `hybrid` or `cloud`: changes the defaults marked (profile)",
    ),
    Setting::read("LISTEN_ADDR", "address the server binds"),
    Setting::read("DB_PATH", "the embedded SQLite store (created with its folder)"),
    Setting::read(
        "DATABASE_URL",
        "`postgres://…` selects PostgreSQL instead of the SQLite file, for several instances on one store (secret: it may hold a password)",
    ),
    Setting::read(
        "DATABASE_WAIT_SECONDS",
        "how long start-up waits for a PostgreSQL server that refuses connections or is starting up, then stops saying so",
    ),
    Setting::read(
        "DATABASE_MAX_CONNECTIONS",
        "connections each instance keeps to PostgreSQL",
    ),
    Setting::read(
        "AUTH_ENABLED",
        "false: callers without credentials act as the anonymous user",
    ),
    Setting::read("ADMIN_API_KEY", "admin secret, sent as `X-Admin-Key` (secret)"),
    Setting::read("TRUSTED_AUTH_HEADER", "identity header set by the single-sign-on proxy"),
    Setting::read(
        "TRUSTED_PROXY_IPS",
        "comma list of addresses and CIDR ranges whose identity header is believed",
    ),
    Setting::read("ADMIN_USERS", "comma list of user names that are admins"),
    Setting::read(
        "SSO_LOGOUT_URL",
        "logout address shown by `/api/me` as `sso_logout_url`",
    ),
    Setting::read(
        "SSO_LOGIN_URL",
        "where the UI gate sends callers without identity (else 401)",
    ),
    Setting::read("BODY_LIMIT_BYTES", "largest JSON request body; larger gets 413"),
    Setting::read("AUDIO_LIMIT_BYTES", "largest audio upload; larger gets 413"),
    Setting::read(
        "MAX_CONNECTIONS",
        "open connections served in full (WebSockets included); beyond, 503 except `/health`",
    ),
    Setting::read(
        "MAX_CONNECTIONS_PER_CLIENT",
        "the same per client address (not for `TRUSTED_PROXY_IPS`)",
    ),
    Setting::read(
        "HEADER_READ_TIMEOUT_SECONDS",
        "time to send a request's headers; also the idle time of a keep-alive connection",
    ),
    Setting::read(
        "BODY_READ_TIMEOUT_SECONDS",
        "time to send a request's body; slower gets 408",
    ),
    Setting::read(
        "WS_ALLOWED_ORIGINS",
        "comma list of browser origins (`https://app.example`) allowed to open WebSockets besides the gateway's own",
    ),
    Setting::read(
        "WS_IDLE_TIMEOUT_SECONDS",
        "a WebSocket without frames and without a running turn is closed after this",
    ),
    Setting::read(
        "FILLER_AFTER_MS",
        "a short reassuring phrase is sent when the first token takes longer (0 = never)",
    ),
    Setting::read(
        "VAD_THRESHOLD",
        "RMS level of 16-bit samples above which a 20 ms frame counts as speech (`/ws/voice` with `vad`)",
    ),
    Setting::read("VAD_MIN_SPEECH_MS", "speech needed before silence can end an utterance"),
    Setting::read(
        "VAD_SILENCE_MS",
        "trailing silence that ends an utterance when Smart Turn does not decide it",
    ),
    Setting::read(
        "BARGE_IN_MIN_SPEECH_MS",
        "speech that interrupts a running answer on `/ws/voice` (0 = never); shorter sounds are ignored",
    ),
    Setting::read(
        "STT_EARLY_MS",
        "silence after which an utterance is transcribed while the end of the turn is awaited (0 = off); costs a call per pause with a paid STT",
    ),
    Setting::read(
        "VAD_ENGINE",
        "voice detector of `/ws/voice`: `auto` (Silero when its runtime and model are there, else energy), `silero`, `energy`",
    ),
    Setting::read(
        "VAD_SPEECH_PROBABILITY",
        "Silero's probability at which a 32 ms window counts as speech",
    ),
    Setting::derived(
        "ONNXRUNTIME_LIB",
        "ENGINES_DIR/onnxruntime/libonnxruntime.so",
        "the ONNX Runtime library the neural models run on (the one in the PyPI `onnxruntime` wheel will do)",
    ),
    Setting::derived(
        "SILERO_VAD_MODEL",
        "ENGINES_DIR/models/silero_vad.onnx",
        "the Silero VAD model (fetched by the zero-setup engines)",
    ),
    Setting::read(
        "TURN_ENGINE",
        "end of turn on `/ws/voice` with `vad`: `auto` (Smart Turn when its runtime and model are there, else the fixed `VAD_SILENCE_MS`), `smart-turn`, `silence`",
    ),
    Setting::derived(
        "SMART_TURN_MODEL",
        "ENGINES_DIR/models/smart-turn-v3.2-cpu.onnx",
        "the Smart Turn v3 model, which hears whether a turn is complete (fetched by the zero-setup engines)",
    ),
    Setting::read(
        "TURN_CHECK_MS",
        "silence after which Smart Turn is asked whether the turn is complete; complete ends it at once",
    ),
    Setting::read(
        "TURN_MAX_SILENCE_MS",
        "silence that ends a turn Smart Turn found incomplete (a thinking pause shorter than this is not cut)",
    ),
    Setting::read(
        "TURN_COMPLETE_PROBABILITY",
        "Smart Turn's probability at which a turn counts as complete",
    ),
    Setting::read(
        "MAX_UTTERANCE_SECONDS",
        "longest utterance buffered on `/ws/voice`; longer gets an error event",
    ),
    Setting::read(
        "MAX_VOICE_CONNECTIONS",
        "open `/ws/voice` connections of everybody; beyond, an error event and close 1008",
    ),
    Setting::read(
        "VOICE_CONNECTIONS_PER_USER",
        "open `/ws/voice` connections of one user; beyond, an error event and close 1008",
    ),
    Setting::read(
        "AUDIO_BUFFER_BUDGET_BYTES",
        "audio all voice connections may buffer together; a connection that would pass it is closed (1008)",
    ),
    Setting::read(
        "LLM_MAX_TOKENS",
        "longest answer in tokens (`max_tokens`): spoken answers are short, and a model caught in a loop stops",
    ),
    Setting::read(
        "PROVIDER_TIMEOUT_SECONDS",
        "longest any provider call may take in all (connecting: at most 5 s)",
    ),
    Setting::read(
        "HISTORY_MAX_MESSAGES",
        "recent messages of a session loaded into a turn",
    ),
    Setting::read(
        "AUDIO_STREAM_DEFAULT",
        "sentence-wise audio when a request does not set `audio_stream`",
    ),
    Setting::read(
        "DEFAULT_LANGUAGE",
        "language when neither user nor request names one (de, en, fr, es, it, nl, pl, pt)",
    ),
    Setting::read(
        "MEMORY_EXTRACTION_ENABLED",
        "extract durable facts from conversations in the background",
    ),
    Setting::read(
        "MEMORY_EXTRACTION_EVERY_N_TURNS",
        "extraction runs after every N stored turns of a user",
    ),
    Setting::read(
        "MEMORY_EXTRACTION_MAX",
        "memories per user at which extraction stops adding",
    ),
    Setting::read(
        "MEMORIES_MAX",
        "memories a user may have (added by the user, an admin or extraction); beyond, 409",
    ),
    Setting::read(
        "MEMORY_PROMPT_MAX_CHARS",
        "memory text that enters a prompt; the newest memories go in first, older ones are left out",
    ),
    Setting::derived(
        "MEMORY_EXTRACTION_PROVIDER",
        "(default LLM provider)",
        "LLM provider asked for extraction: `local` or `cloud`",
    ),
    Setting::read("STT_FALLBACK", "comma list of STT providers tried after the chosen one"),
    Setting::read("LLM_FALLBACK", "comma list of LLM providers tried after the chosen one"),
    Setting::read("TTS_FALLBACK", "comma list of TTS providers tried after the chosen one"),
    Setting::read("LOCAL_LLM_URL", "OpenAI-compatible base URL of the local LLM server"),
    Setting::read(
        "LOCAL_LLM_BACKEND",
        "`ollama` or `llamacpp`: how the local server is managed",
    ),
    Setting::read(
        "OLLAMA_URL",
        "the Ollama server when the local backend is switched to `ollama` (the configured backend uses LOCAL_LLM_URL)",
    ),
    Setting::read(
        "LLAMACPP_URL",
        "the llama.cpp server when the local backend is switched to `llamacpp`",
    ),
    Setting::read("CLOUD_LLM_URL", "OpenAI-compatible base URL of the cloud LLM"),
    Setting::read("CLOUD_LLM_API_KEY", "API key of the cloud LLM (secret)"),
    Setting::read("WHISPER_MODEL_PATH", "model file of the in-process whisper STT"),
    Setting::derived(
        "WHISPER_MODEL",
        "small (engines: small on a GPU, base on a CPU)",
        "Whisper size; unless this is set, the zero-setup engines run small where CTranslate2 finds a CUDA device and base on a CPU (74M parameters to small's 244M; 0.37 s per question on 2 cores); base when the size cannot be fetched",
    ),
    Setting::read("WHISPER_COMPUTE_TYPE", "whisper quantisation"),
    Setting::read(
        "OPENAI_STT_URL",
        "base URL of the OpenAI-compatible transcription service",
    ),
    Setting::read("OPENAI_STT_API_KEY", "its API key (secret)"),
    Setting::read("OPENAI_STT_MODEL", "its model"),
    Setting::derived(
        "PIPER_VOICE_DIR",
        "(unset; engines: ENGINES_DIR/voices)",
        "folder of Piper voices (`NAME.onnx` with `NAME.onnx.json`; the name's start is the language)",
    ),
    Setting::derived(
        "PIPER_URL",
        "(unset; engines: their Piper service)",
        "OpenAI-compatible speech server with those voices (`…/v1`); the zero-setup engines start one",
    ),
    Setting::read("OPENAI_TTS_URL", "base URL of the OpenAI-compatible speech service"),
    Setting::read("OPENAI_TTS_API_KEY", "its API key (secret)"),
    Setting::read("OPENAI_TTS_MODEL", "its model"),
    Setting::read(
        "OPENAI_TTS_UNSUPPORTED_LANGUAGES",
        "languages it cannot speak (e.g. `de,nl,pl` for Kokoro); those use the local voice",
    ),
    Setting::read("SEARXNG_URL", "base URL of a SearXNG instance (JSON API enabled)"),
    Setting::read("TAVILY_URL", "address of the Tavily search API"),
    Setting::read("TAVILY_API_KEY", "Tavily search key (secret)"),
    Setting::read("BRAVE_URL", "address of the Brave search API"),
    Setting::read("BRAVE_API_KEY", "Brave search key (secret)"),
    Setting::read(
        "EMERGENCY_CONTACT_EMAIL",
        "recipient of every alarm, besides the user's own contacts",
    ),
    Setting::read(
        "TWILIO_API_URL",
        "base address of the Twilio REST API (SMS and calls of the help function)",
    ),
    Setting::read(
        "TWILIO_ACCOUNT_SID",
        "Twilio account; with the token and number it enables SMS and calls",
    ),
    Setting::read("TWILIO_AUTH_TOKEN", "Twilio auth token (secret)"),
    Setting::read(
        "TWILIO_FROM_NUMBER",
        "the Twilio number alarms are sent and called from (+4930…)",
    ),
    Setting::read(
        "EMERGENCY_WEBHOOK_URL",
        "address that receives a JSON POST of every alarm (best effort)",
    ),
    Setting::read(
        "EMERGENCY_CHANNEL_TIMEOUT_SECONDS",
        "longest one alarm channel (mail, each SMS or call, webhook) may take",
    ),
    Setting::read(
        "EMERGENCY_ESCALATION_MINUTES",
        "a reminder goes out on every channel when no contact confirmed an alarm within this time (0 = off)",
    ),
    Setting::read(
        "PUBLIC_URL",
        "address contacts reach the gateway at (acknowledgement links); else the address help was pressed at",
    ),
    Setting::read("SMTP_HOST", "mail relay; without it no mail is sent"),
    Setting::derived("SMTP_PORT", "587 (starttls), 465 (tls), 25 (none)", "mail relay port"),
    Setting::read("SMTP_USER", "mail relay login"),
    Setting::read("SMTP_PASSWORD", "mail relay password (secret)"),
    Setting::read("SMTP_FROM", "sender address of alarms"),
    Setting::read("SMTP_SECURITY", "`none`, `starttls` or `tls`"),
    Setting::derived(
        "INSTANCE_ID",
        "host name:port",
        "this instance's name when several gateways share one database: in metrics, the live log and leases",
    ),
    Setting::read(
        "OVERRIDES_REFRESH_SECONDS",
        "how old the runtime overrides (and the local backend) an instance uses may be; an admin's change through another instance takes effect within it",
    ),
    Setting::read(
        "GPUS",
        "`auto`, `none` or a comma list of device numbers for local engines",
    ),
    Setting::read(
        "ENGINES",
        "`auto`: at start, set up and run llama.cpp and faster-whisper for whatever LOCAL_LLM_URL / OPENAI_STT_URL do not configure",
    ),
    Setting::derived(
        "ENGINES_DIR",
        "data/engines",
        "virtual environment, models and logs of the local engines",
    ),
    Setting::read(
        "WHISPER_WINDOW_SECONDS",
        "audio window the local faster-whisper encodes for a clip of known language shorter than it (longer clips: just long enough); 30 = Whisper's own window, 0.6 s slower for a short question",
    ),
    Setting::derived(
        "MODEL_PRESETS_FILE",
        "(unset: built-in presets)",
        "JSON list of model presets for the admin menu (see README, Operations)",
    ),
    Setting::derived(
        "RESTART_COMMAND",
        "(unset: the gateway re-executes itself)",
        "privileged command that restarts the service, e.g. `sudo -n systemctl restart voice-gateway` (no shell)",
    ),
    Setting::derived("RUST_LOG", "info", "log filter (tracing `EnvFilter` syntax)"),
];

/// The default of a variable under each profile, as one text: `false (local-dev), true (hybrid, cloud)` when
/// the profiles differ.
fn default_text(name: &str, defaults: &[(Profile, Defaults)]) -> String {
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for (profile, read) in defaults {
        let value = read
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, d)| d.clone())
            .unwrap_or_else(|| "(unset)".to_string());
        match groups.iter_mut().find(|(v, _)| *v == value) {
            Some((_, profiles)) => profiles.push(profile.as_str()),
            None => groups.push((value, vec![profile.as_str()])),
        }
    }
    match groups.as_slice() {
        [(value, _)] => value.clone(),
        _ => groups
            .iter()
            .map(|(value, profiles)| format!("{value} ({})", profiles.join(", ")))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// Every documented variable: the fixed settings, then the 16 runtime-overridable ones.
pub fn all() -> Vec<(String, String, String)> {
    let defaults = PROFILES.map(|p| (p, Settings::defaults(p)));
    let fixed = SETTINGS.iter().map(|s| {
        let default = s
            .derived_default
            .map_or_else(|| default_text(s.name, &defaults), String::from);
        (s.name.to_string(), default, s.meaning.to_string())
    });
    let runtime = KEYS.iter().map(|k| {
        let per_profile: Vec<String> = PROFILES
            .iter()
            .filter_map(|p| p.default_for(&k.env_name()).map(|v| format!("{}: {v}", p.as_str())))
            .collect();
        let default = match k.key {
            "system_prompt" => "(a short voice-assistant prompt)".to_string(),
            _ if !per_profile.is_empty() => per_profile.join(", "),
            _ => k.default.to_string(),
        };
        (
            k.env_name(),
            default,
            format!("{} (runtime key `{}`)", k.meaning, k.key),
        )
    });
    fixed.chain(runtime).collect()
}

/// The README's configuration table, generated from [`all`].
pub fn markdown_table() -> String {
    let mut out = String::from("| Variable | Default | Meaning |\n|---|---|---|\n");
    for (name, default, meaning) in all() {
        out.push_str(&format!("| `{name}` | {default} | {meaning} |\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variable_read_is_documented_and_every_documented_one_is_read() {
        let runtime: Vec<String> = KEYS.iter().map(|k| k.env_name()).collect();
        let mut read: Vec<String> = PROFILES
            .iter()
            .flat_map(|p| Settings::defaults(*p))
            .map(|(name, _)| name)
            .filter(|name| !runtime.contains(name))
            .collect();
        // Read by the logging set-up, before the settings.
        read.push("RUST_LOG".into());
        read.sort();
        read.dedup();
        let mut listed: Vec<String> = SETTINGS.iter().map(|s| s.name.to_string()).collect();
        listed.sort();
        assert_eq!(read, listed);
    }
    #[test]
    fn the_readme_holds_the_generated_settings_table() {
        let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap_or_default();
        let table = super::markdown_table();
        assert!(
            readme.contains(&table),
            "README.md must contain this table verbatim:\n{table}"
        );
    }
}
