//! The ids of the providers of each stage: what settings, preferences and requests may name. A leaf module,
//! so that the settings can check a name without depending on the providers that answer to it.

/// Speech-to-text providers.
pub const STT_PROVIDERS: &[&str] = &["whisper", "openai"];
/// Language-model providers.
pub const LLM_PROVIDERS: &[&str] = &["local", "cloud"];
/// Text-to-speech providers.
pub const TTS_PROVIDERS: &[&str] = &["espeak", "piper", "openai"];
/// Web-search providers.
pub const SEARCH_PROVIDERS: &[&str] = &["searxng", "tavily", "brave"];
