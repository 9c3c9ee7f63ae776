//! Speech-to-text, language-model, text-to-speech and web-search providers.
//!
//! The ids below are the ones settings, prefs and runtime overrides may name (the contract's provider table).

/// Speech-to-text providers.
pub const STT_PROVIDERS: &[&str] = &["whisper", "openai"];
/// Language-model providers.
pub const LLM_PROVIDERS: &[&str] = &["local", "cloud"];
/// Text-to-speech providers.
pub const TTS_PROVIDERS: &[&str] = &["espeak", "piper", "openai"];
/// Web-search providers.
pub const SEARCH_PROVIDERS: &[&str] = &["searxng", "tavily", "brave"];
