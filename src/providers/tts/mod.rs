//! Text to speech: the trait, the audio it returns, and the engines by id.

mod espeak;
mod openai;
pub mod piper;

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;

use super::{ProviderError, check_status};
use crate::config::ProviderSettings;
use crate::providers::audio::fix_wav_sizes;

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

/// The engines of this stage; Piper is built by the caller, which keeps it for its voice list.
pub fn engines(
    p: &ProviderSettings,
    http: &reqwest::Client,
    piper: Arc<piper::Piper>,
) -> HashMap<&'static str, Arc<dyn Tts>> {
    let openai = openai::OpenAiTts::new(p, http.clone());
    HashMap::from([
        ("espeak", Arc::new(espeak::Espeak::default()) as Arc<dyn Tts>),
        ("openai", Arc::new(openai) as Arc<dyn Tts>),
        ("piper", piper as Arc<dyn Tts>),
    ])
}

/// Sends a prepared OpenAI-compatible `/audio/speech` request of provider `id` and returns its WAV (with the
/// sizes a streaming server leaves open filled in).
async fn wav_answer(id: &str, call: reqwest::RequestBuilder) -> Result<Speech, ProviderError> {
    let response = call.send().await.map_err(|e| ProviderError::from_http(id, &e))?;
    let bytes = check_status(id, response)
        .await?
        .bytes()
        .await
        .map_err(|e| ProviderError::from_http(id, &e))?;
    let audio = fix_wav_sizes(bytes.to_vec()).map_err(|e| ProviderError::failed(id, e.to_string()))?;
    Ok(Speech { audio, format: "wav" })
}
