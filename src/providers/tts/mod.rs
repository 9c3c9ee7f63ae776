//! Text to speech: the trait, the audio it returns, and the engines by id.

mod espeak;
mod openai;
pub mod piper;

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;

use super::ProviderError;
use crate::config::ProviderSettings;

pub use espeak::espeak_voice;

/// Synthesised speech. Every engine returns WAV, so clients and the sentence stream need one decoder.
#[derive(Debug, Clone)]
pub struct Speech {
    /// The audio file.
    pub audio: Vec<u8>,
    /// Its container: always `wav` today.
    pub format: &'static str,
}

/// What to say and how.
#[derive(Debug, Clone)]
pub struct SpeechRequest<'a> {
    /// Text ready to be spoken (after the text pipeline).
    pub text: &'a str,
    /// Language code.
    pub language: &'a str,
    /// Voice of this engine; `None` = the engine's default for the language.
    pub voice: Option<&'a str>,
    /// `female` or `male`, for engines whose default voice has variants.
    pub gender: Option<&'a str>,
}

/// A speech synthesiser.
#[async_trait]
pub trait Tts: Send + Sync {
    /// Whether this engine can speak a language (the cloud TTS cannot speak some).
    fn speaks(&self, language: &str) -> bool;
    /// Whether a voice name is usable by this engine for a language; the message says why not.
    fn check_voice(&self, voice: &str, language: &str) -> Result<(), String>;
    /// Speaks the text.
    async fn speak(&self, request: &SpeechRequest<'_>) -> Result<Speech, ProviderError>;
}

/// The engines of this stage.
pub fn engines(p: &ProviderSettings, http: &reqwest::Client) -> HashMap<&'static str, Arc<dyn Tts>> {
    let openai = openai::OpenAiTts::new(p, http.clone());
    HashMap::from([
        ("espeak", Arc::new(espeak::Espeak::default()) as Arc<dyn Tts>),
        ("openai", Arc::new(openai) as Arc<dyn Tts>),
        ("piper", Arc::new(piper::Piper::new(p, http.clone())) as Arc<dyn Tts>),
    ])
}
