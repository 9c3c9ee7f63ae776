//! The turn area: the language and audio a turn defaults to, and automatic memory extraction.

use crate::providers::LlmId;

use super::env::{ConfigError, Source};
use super::languages;

/// Defaults of a turn.
#[derive(Debug)]
pub struct TurnSettings {
    /// `AUDIO_STREAM_DEFAULT`: sentence-wise audio when a request does not say.
    pub audio_stream_default: bool,
    /// `DEFAULT_LANGUAGE`: the language when neither the user nor the request names one.
    pub default_language: String,
}

impl TurnSettings {
    /// Reads the area.
    pub(super) fn read(src: &Source) -> Result<Self, ConfigError> {
        Ok(Self {
            audio_stream_default: src
                .var(
                    "AUDIO_STREAM_DEFAULT",
                    "sentence-wise audio when a request does not set `audio_stream`",
                )
                .bool(true)?,
            default_language: src
                .var(
                    "DEFAULT_LANGUAGE",
                    "language when neither user nor request names one (de, en, fr, es, it, nl, pl, pt)",
                )
                .shown("the machine's locale (LANG) when it is one of them, else en")
                .choice(&machine_language(src), languages())?,
        })
    }
}

/// The language of the machine's locale (`LC_ALL`, else `LC_MESSAGES`, else `LANG`: `de_DE.UTF-8` is `de`)
/// when the phrasebook has it, else English: a German household is heard and answered in German without
/// setting anything.
fn machine_language(src: &Source) -> String {
    let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
        .into_iter()
        .find_map(|name| src.system(name))
        .unwrap_or_default();
    let language = locale
        .split(['_', '.', '@', '-'])
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    if languages().contains(&language.as_str()) {
        language
    } else {
        "en".into()
    }
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

impl MemorySettings {
    /// Reads the area.
    pub(super) fn read(src: &Source) -> Result<Self, ConfigError> {
        Ok(Self {
            enabled: src
                .var(
                    "MEMORY_EXTRACTION_ENABLED",
                    "extract durable facts from conversations in the background",
                )
                .bool(true)?,
            every_n_turns: src
                .var(
                    "MEMORY_EXTRACTION_EVERY_N_TURNS",
                    "extraction runs after every N stored turns of a user",
                )
                .ranged(5, 1000)?
                .max(1),
            max: src
                .var(
                    "MEMORY_EXTRACTION_MAX",
                    "memories per user at which extraction stops adding",
                )
                .ranged(50, 10_000)?,
            cap: src
                .var(
                    "MEMORIES_MAX",
                    "memories a user may have (added by the user, an admin or extraction); beyond, 409",
                )
                .ranged(200, 100_000)?
                .max(1),
            prompt_max_chars: src
                .var(
                    "MEMORY_PROMPT_MAX_CHARS",
                    "memory text that enters a prompt; the newest memories go in first, older ones are left out",
                )
                .ranged(4000, 1_000_000)? as usize,
            provider: src
                .var(
                    "MEMORY_EXTRACTION_PROVIDER",
                    "LLM provider asked for extraction: `local` or `cloud`",
                )
                .shown("(default LLM provider)")
                .providers()?
                .into_iter()
                .next(),
        })
    }
}
