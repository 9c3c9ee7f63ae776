//! The structured result of an answer, the same on `/api/chat` and on the WebSocket channels.

use serde::Serialize;
use utoipa::ToSchema;

use super::TurnOutcome;
use crate::providers::TtsId;

/// The structured result of an answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Semantic {
    /// The answer as written.
    pub text: String,
    /// Its spoken sentences, after the text pipeline.
    pub sentences: Vec<String>,
    /// Addresses of the web results the answer used (the UI shows up to 4).
    pub citations: Vec<String>,
    /// The turn's language.
    pub language: String,
    /// Who answered.
    pub llm: Model,
    /// Who spoke the whole answer; null when nothing was spoken as one piece (text only, or sentence by
    /// sentence, where each `audio` event names its provider).
    pub tts: Option<Voice>,
    /// The chosen TTS cannot speak the language, so the local voice speaks.
    pub tts_fallback: bool,
    /// `stage:provider` of each provider that failed before one answered.
    pub fallbacks: Vec<String>,
    /// What the person should know about the answer: the model does not speak their language, web search is
    /// not there for a time-sensitive question.
    pub notice: Option<String>,
}

/// An LLM provider and its model.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Model {
    pub provider: String,
    pub model: String,
}

/// A TTS provider and its voice (null: the provider's default).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Voice {
    pub provider: TtsId,
    pub voice: Option<String>,
}

impl Semantic {
    /// The result of `outcome`; `tts_fallback` as the caller's speech path decided it.
    pub fn of(outcome: &TurnOutcome, tts_fallback: bool) -> Self {
        Self {
            text: outcome.text.clone(),
            sentences: outcome.sentences.clone(),
            citations: outcome.citations.clone(),
            language: outcome.route.language.clone(),
            llm: Model {
                provider: outcome.llm.0.clone(),
                model: outcome.llm.1.clone(),
            },
            tts: outcome.tts_provider.as_ref().map(|provider| Voice {
                provider: *provider,
                voice: outcome.route.voice.clone(),
            }),
            tts_fallback,
            fallbacks: outcome.fallbacks.clone(),
            notice: outcome.notice.clone(),
        }
    }
}
