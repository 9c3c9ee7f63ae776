//! The documented list of every setting, so the README table and the code cannot drift apart
//! (a test checks that the README names each one).

use super::keys::KEYS;
use super::profile::Profile;

/// One documented environment variable: name, default, meaning.
pub type Entry = (&'static str, &'static str, &'static str);

/// Settings that are not runtime-overridable.
pub const SETTINGS: &[Entry] = &[
    (
        "PROFILE",
        "local-dev",
        "`local-dev`, `hybrid` or `cloud`: changes the defaults marked (profile)",
    ),
    ("LISTEN_ADDR", "127.0.0.1:8080", "address the server binds"),
    (
        "DB_PATH",
        "data/gateway.db",
        "the embedded SQLite store (created with its folder)",
    ),
    (
        "DATABASE_URL",
        "(unset)",
        "`postgres://…` selects PostgreSQL (not yet supported: start-up stops)",
    ),
    (
        "AUTH_ENABLED",
        "false (local-dev), true (hybrid, cloud)",
        "false: callers without credentials act as the anonymous user",
    ),
    (
        "ADMIN_API_KEY",
        "(unset)",
        "admin secret, sent as `X-Admin-Key` (secret)",
    ),
    (
        "TRUSTED_AUTH_HEADER",
        "X-Forwarded-User",
        "identity header set by the single-sign-on proxy",
    ),
    (
        "TRUSTED_PROXY_IPS",
        "(none)",
        "comma list of addresses and CIDR ranges whose identity header is believed",
    ),
    ("ADMIN_USERS", "(none)", "comma list of user names that are admins"),
    (
        "SSO_LOGOUT_URL",
        "(unset)",
        "logout address shown by `/api/me` as `sso_logout_url`",
    ),
    (
        "SSO_LOGIN_URL",
        "(unset)",
        "where the UI gate sends callers without identity (else 401)",
    ),
    (
        "BODY_LIMIT_BYTES",
        "1048576",
        "largest JSON request body; larger gets 413",
    ),
    ("AUDIO_LIMIT_BYTES", "16777216", "largest audio upload; larger gets 413"),
    (
        "MAX_CONNECTIONS",
        "4096",
        "open connections served in full (WebSockets included); beyond, 503 except `/health`",
    ),
    (
        "MAX_CONNECTIONS_PER_CLIENT",
        "256",
        "the same per client address (not for `TRUSTED_PROXY_IPS`)",
    ),
    (
        "HEADER_READ_TIMEOUT_SECONDS",
        "10",
        "time to send a request's headers; also the idle time of a keep-alive connection",
    ),
    (
        "BODY_READ_TIMEOUT_SECONDS",
        "60",
        "time to send a request's body; slower gets 408",
    ),
    (
        "WS_ALLOWED_ORIGINS",
        "(unset)",
        "comma list of browser origins (`https://app.example`) allowed to open WebSockets besides the gateway's own",
    ),
    (
        "WS_IDLE_TIMEOUT_SECONDS",
        "300",
        "a WebSocket without frames and without a running turn is closed after this",
    ),
    (
        "FILLER_AFTER_MS",
        "1500",
        "a short reassuring phrase is sent when the first token takes longer (0 = never)",
    ),
    (
        "VAD_THRESHOLD",
        "500",
        "RMS level of 16-bit samples above which a 20 ms frame counts as speech (`/ws/voice` with `vad`)",
    ),
    (
        "VAD_MIN_SPEECH_MS",
        "200",
        "speech needed before silence can end an utterance",
    ),
    (
        "VAD_SILENCE_MS",
        "700",
        "trailing silence that ends an utterance when Smart Turn does not decide it",
    ),
    (
        "BARGE_IN_MIN_SPEECH_MS",
        "400",
        "speech that interrupts a running answer on `/ws/voice` (0 = never); shorter sounds are ignored",
    ),
    (
        "STT_EARLY_MS",
        "200",
        "silence after which an utterance is transcribed while the end of the turn is awaited (0 = off); costs a call per pause with a paid STT",
    ),
    (
        "VAD_ENGINE",
        "auto",
        "voice detector of `/ws/voice`: `auto` (Silero when its runtime and model are there, else energy), `silero`, `energy`",
    ),
    (
        "VAD_SPEECH_PROBABILITY",
        "0.5",
        "Silero's probability at which a 32 ms window counts as speech",
    ),
    (
        "ONNXRUNTIME_LIB",
        "ENGINES_DIR/onnxruntime/libonnxruntime.so",
        "the ONNX Runtime library the neural models run on (the one in the PyPI `onnxruntime` wheel will do)",
    ),
    (
        "SILERO_VAD_MODEL",
        "ENGINES_DIR/models/silero_vad.onnx",
        "the Silero VAD model (fetched by the zero-setup engines)",
    ),
    (
        "TURN_ENGINE",
        "auto",
        "end of turn on `/ws/voice` with `vad`: `auto` (Smart Turn when its runtime and model are there, else the fixed `VAD_SILENCE_MS`), `smart-turn`, `silence`",
    ),
    (
        "SMART_TURN_MODEL",
        "ENGINES_DIR/models/smart-turn-v3.2-cpu.onnx",
        "the Smart Turn v3 model, which hears whether a turn is complete (fetched by the zero-setup engines)",
    ),
    (
        "TURN_CHECK_MS",
        "200",
        "silence after which Smart Turn is asked whether the turn is complete; complete ends it at once",
    ),
    (
        "TURN_MAX_SILENCE_MS",
        "2000",
        "silence that ends a turn Smart Turn found incomplete (a thinking pause shorter than this is not cut)",
    ),
    (
        "TURN_COMPLETE_PROBABILITY",
        "0.5",
        "Smart Turn's probability at which a turn counts as complete",
    ),
    (
        "MAX_UTTERANCE_SECONDS",
        "60",
        "longest utterance buffered on `/ws/voice`; longer gets an error event",
    ),
    (
        "MAX_VOICE_CONNECTIONS",
        "200",
        "open `/ws/voice` connections of everybody; beyond, an error event and close 1008",
    ),
    (
        "VOICE_CONNECTIONS_PER_USER",
        "4",
        "open `/ws/voice` connections of one user; beyond, an error event and close 1008",
    ),
    (
        "AUDIO_BUFFER_BUDGET_BYTES",
        "268435456",
        "audio all voice connections may buffer together; a connection that would pass it is closed (1008)",
    ),
    (
        "LLM_MAX_TOKENS",
        "400",
        "longest answer in tokens (`max_tokens`): spoken answers are short, and a model caught in a loop stops",
    ),
    (
        "PROVIDER_TIMEOUT_SECONDS",
        "120",
        "longest any provider call may take in all (connecting: at most 5 s)",
    ),
    (
        "HISTORY_MAX_MESSAGES",
        "10",
        "recent messages of a session loaded into a turn",
    ),
    (
        "AUDIO_STREAM_DEFAULT",
        "true",
        "sentence-wise audio when a request does not set `audio_stream`",
    ),
    (
        "DEFAULT_LANGUAGE",
        "en",
        "language when neither user nor request names one (de, en, fr, es, it, nl, pl, pt)",
    ),
    (
        "MEMORY_EXTRACTION_ENABLED",
        "true",
        "extract durable facts from conversations in the background",
    ),
    (
        "MEMORY_EXTRACTION_EVERY_N_TURNS",
        "5",
        "extraction runs after every N stored turns of a user",
    ),
    (
        "MEMORY_EXTRACTION_MAX",
        "50",
        "memories per user at which extraction stops adding",
    ),
    (
        "MEMORIES_MAX",
        "200",
        "memories a user may have (added by the user, an admin or extraction); beyond, 409",
    ),
    (
        "MEMORY_PROMPT_MAX_CHARS",
        "4000",
        "memory text that enters a prompt; the newest memories go in first, older ones are left out",
    ),
    (
        "MEMORY_EXTRACTION_PROVIDER",
        "(default LLM provider)",
        "LLM provider asked for extraction: `local` or `cloud`",
    ),
    (
        "STT_FALLBACK",
        "(none)",
        "comma list of STT providers tried after the chosen one",
    ),
    (
        "LLM_FALLBACK",
        "(none); hybrid: local",
        "comma list of LLM providers tried after the chosen one",
    ),
    (
        "TTS_FALLBACK",
        "(none); cloud: espeak",
        "comma list of TTS providers tried after the chosen one",
    ),
    (
        "LOCAL_LLM_URL",
        "http://127.0.0.1:11434/v1",
        "OpenAI-compatible base URL of the local LLM server",
    ),
    (
        "LOCAL_LLM_BACKEND",
        "ollama",
        "`ollama` or `llamacpp`: how the local server is managed",
    ),
    (
        "OLLAMA_URL",
        "http://127.0.0.1:11434",
        "the Ollama server when the local backend is switched to `ollama` (the configured backend uses LOCAL_LLM_URL)",
    ),
    (
        "LLAMACPP_URL",
        "http://127.0.0.1:8081",
        "the llama.cpp server when the local backend is switched to `llamacpp`",
    ),
    (
        "CLOUD_LLM_URL",
        "https://openrouter.ai/api/v1",
        "OpenAI-compatible base URL of the cloud LLM",
    ),
    ("CLOUD_LLM_API_KEY", "(unset)", "API key of the cloud LLM (secret)"),
    (
        "WHISPER_MODEL_PATH",
        "(unset)",
        "model file of the in-process whisper STT",
    ),
    (
        "WHISPER_MODEL",
        "small (engines: small on a GPU, base on a CPU)",
        "Whisper size; unless this is set, the zero-setup engines run small where CTranslate2 finds a CUDA device and base on a CPU (74M parameters to small's 244M; 0.37 s per question on 2 cores); base when the size cannot be fetched",
    ),
    ("WHISPER_COMPUTE_TYPE", "int8", "whisper quantisation"),
    (
        "OPENAI_STT_URL",
        "http://127.0.0.1:8090/v1; cloud: https://api.openai.com/v1",
        "base URL of the OpenAI-compatible transcription service",
    ),
    ("OPENAI_STT_API_KEY", "(unset)", "its API key (secret)"),
    ("OPENAI_STT_MODEL", "whisper-1", "its model"),
    (
        "PIPER_VOICE_DIR",
        "(unset; engines: ENGINES_DIR/voices)",
        "folder of Piper voices (`NAME.onnx` with `NAME.onnx.json`; the name's start is the language)",
    ),
    (
        "PIPER_URL",
        "(unset; engines: their Piper service)",
        "OpenAI-compatible speech server with those voices (`…/v1`); the zero-setup engines start one",
    ),
    (
        "OPENAI_TTS_URL",
        "http://127.0.0.1:8880/v1; cloud: https://api.openai.com/v1",
        "base URL of the OpenAI-compatible speech service",
    ),
    ("OPENAI_TTS_API_KEY", "(unset)", "its API key (secret)"),
    ("OPENAI_TTS_MODEL", "tts-1", "its model"),
    (
        "OPENAI_TTS_UNSUPPORTED_LANGUAGES",
        "(none)",
        "languages it cannot speak (e.g. `de,nl,pl` for Kokoro); those use the local voice",
    ),
    (
        "SEARXNG_URL",
        "(unset)",
        "base URL of a SearXNG instance (JSON API enabled)",
    ),
    (
        "TAVILY_URL",
        "https://api.tavily.com",
        "address of the Tavily search API",
    ),
    ("TAVILY_API_KEY", "(unset)", "Tavily search key (secret)"),
    (
        "BRAVE_URL",
        "https://api.search.brave.com/res/v1",
        "address of the Brave search API",
    ),
    ("BRAVE_API_KEY", "(unset)", "Brave search key (secret)"),
    (
        "EMERGENCY_CONTACT_EMAIL",
        "(unset)",
        "recipient of every alarm, besides the user's own contacts",
    ),
    (
        "TWILIO_API_URL",
        "https://api.twilio.com",
        "base address of the Twilio REST API (SMS and calls of the help function)",
    ),
    (
        "TWILIO_ACCOUNT_SID",
        "(unset)",
        "Twilio account; with the token and number it enables SMS and calls",
    ),
    ("TWILIO_AUTH_TOKEN", "(unset)", "Twilio auth token (secret)"),
    (
        "TWILIO_FROM_NUMBER",
        "(unset)",
        "the Twilio number alarms are sent and called from (+4930…)",
    ),
    (
        "EMERGENCY_WEBHOOK_URL",
        "(unset)",
        "address that receives a JSON POST of every alarm (best effort)",
    ),
    (
        "EMERGENCY_CHANNEL_TIMEOUT_SECONDS",
        "15",
        "longest one alarm channel (mail, each SMS or call, webhook) may take",
    ),
    (
        "EMERGENCY_ESCALATION_MINUTES",
        "3",
        "a reminder goes out on every channel when no contact confirmed an alarm within this time (0 = off)",
    ),
    (
        "PUBLIC_URL",
        "(unset)",
        "address contacts reach the gateway at (acknowledgement links); else the address help was pressed at",
    ),
    ("SMTP_HOST", "(unset)", "mail relay; without it no mail is sent"),
    ("SMTP_PORT", "587 (starttls), 465 (tls), 25 (none)", "mail relay port"),
    ("SMTP_USER", "(unset)", "mail relay login"),
    ("SMTP_PASSWORD", "(unset)", "mail relay password (secret)"),
    ("SMTP_FROM", "voice-gateway@localhost", "sender address of alarms"),
    ("SMTP_SECURITY", "starttls", "`none`, `starttls` or `tls`"),
    (
        "GPUS",
        "auto",
        "`auto`, `none` or a comma list of device numbers for local engines",
    ),
    (
        "ENGINES",
        "auto (local-dev), off (hybrid, cloud)",
        "`auto`: at start, set up and run llama.cpp and faster-whisper for whatever LOCAL_LLM_URL / OPENAI_STT_URL do not configure",
    ),
    (
        "ENGINES_DIR",
        "data/engines",
        "virtual environment, models and logs of the local engines",
    ),
    (
        "WHISPER_WINDOW_SECONDS",
        "15",
        "audio window the local faster-whisper encodes for a clip of known language shorter than it (longer clips: just long enough); 30 = Whisper's own window, 0.6 s slower for a short question",
    ),
    (
        "MODEL_PRESETS_FILE",
        "(unset: built-in presets)",
        "JSON list of model presets for the admin menu (see README, Operations)",
    ),
    (
        "RESTART_COMMAND",
        "(unset: the gateway re-executes itself)",
        "privileged command that restarts the service, e.g. `sudo -n systemctl restart voice-gateway` (no shell)",
    ),
    ("RUST_LOG", "info", "log filter (tracing `EnvFilter` syntax)"),
];

/// Every documented variable: the fixed settings, then the 16 runtime-overridable ones.
pub fn all() -> Vec<(String, String, String)> {
    let fixed = SETTINGS
        .iter()
        .map(|(n, d, m)| (n.to_string(), d.to_string(), m.to_string()));
    let runtime = KEYS.iter().map(|k| {
        let per_profile: Vec<String> = [Profile::LocalDev, Profile::Hybrid, Profile::Cloud]
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
