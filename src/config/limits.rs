//! The limits area: sizes of what clients send, and of what the gateway asks of its providers.

use super::env::{ConfigError, Source};

/// Body sizes, answer length, provider time, history.
#[derive(Debug)]
pub struct LimitSettings {
    /// `BODY_LIMIT_BYTES`: largest JSON body.
    pub body_bytes: usize,
    /// `SESSIONS_PER_USER`: conversations a person may open through the API; beyond, the oldest empty ones
    /// go, then 409.
    pub sessions_per_user: u32,
    /// `AUDIO_LIMIT_BYTES`: largest audio upload.
    pub audio_bytes: usize,
    /// `MAX_AUDIO_SECONDS`: longest audio an upload may decode to (a small compressed file can claim hours).
    pub audio_secs: u32,
    /// `LLM_MAX_TOKENS`: longest written answer of the language model, in tokens.
    pub llm_max_tokens: u32,
    /// `SPOKEN_MAX_TOKENS`: longest answer that will be heard, in tokens.
    pub spoken_max_tokens: u32,
    /// `SPOKEN_MAX_SECONDS`: longest answer that will be heard, in seconds of speech.
    pub spoken_max_seconds: u32,
    /// `WRITE_TIMEOUT_SECONDS`: how long a raw connection's peer may take nothing before it is dropped.
    pub write_timeout_secs: u64,
    /// `PROVIDER_TIMEOUT_SECONDS`: total time a provider call may take.
    pub provider_timeout_secs: u64,
    /// `HISTORY_MAX_MESSAGES`: messages of a session loaded into a turn.
    pub history_max_messages: u32,
    /// `BREAKER_FAILURES`: failed calls in a row that open a provider's circuit breaker.
    pub breaker_failures: u32,
    /// `BREAKER_COOLDOWN_SECONDS`: how long an open breaker waits before its probe.
    pub breaker_cooldown_secs: u64,
}

impl LimitSettings {
    /// Reads the area.
    pub(super) fn read(src: &Source) -> Result<Self, ConfigError> {
        Ok(Self {
            body_bytes: src.var("BODY_LIMIT_BYTES", "largest JSON request body; larger gets 413").number(1024 * 1024)?,
            sessions_per_user: src.var("SESSIONS_PER_USER", "conversations a person may have when opening one through the API; beyond, the oldest empty ones are removed, then 409").ranged(1000, 100_000)?.max(1),
            audio_bytes: src.var("AUDIO_LIMIT_BYTES", "largest audio upload; larger gets 413").number(16 * 1024 * 1024)?,
            audio_secs: src.var("MAX_AUDIO_SECONDS", "longest audio an upload may decode to; longer gets 413").ranged(600, 86_400)?.max(1),
            llm_max_tokens: src.var("LLM_MAX_TOKENS", "longest written answer in tokens; it ends at a sentence's end with a short closing").ranged(1000, 100_000)?.max(16),
            spoken_max_tokens: src.var("SPOKEN_MAX_TOKENS", "longest answer that will be heard, in tokens; it ends at a sentence's end with a short closing").ranged(300, 100_000)?.max(16),
            spoken_max_seconds: src.var("SPOKEN_MAX_SECONDS", "longest answer that will be heard, in seconds of speech (estimated from its words)").ranged(45, 3600)?.max(5),
            write_timeout_secs: src.var("WRITE_TIMEOUT_SECONDS", "a peer (HTTP, Wyoming, AudioSocket, SIP over TCP) that takes nothing of what is sent for this long is disconnected (and what waited for it freed)").ranged(30, 3600)?.max(1).into(),
            provider_timeout_secs: src.var("PROVIDER_TIMEOUT_SECONDS", "longest any provider call may take in all (connecting: at most 5 s)").ranged(120, 3600)?.max(1).into(),
            history_max_messages: src.var("HISTORY_MAX_MESSAGES", "recent messages of a session loaded into a turn").ranged(10, 1000)?,
            breaker_failures: src.var("BREAKER_FAILURES", "failed or timed-out calls in a row after which a provider is skipped (its circuit breaker opens) until a probe finds it working").ranged(3, 100)?.max(1),
            breaker_cooldown_secs: src.var("BREAKER_COOLDOWN_SECONDS", "how long a failing provider is skipped before a cheap probe (a model list, a word to speak, a silence to transcribe) tries it again").ranged(30, 3600)?.max(1).into(),
        })
    }
}
