//! Speech to text: the trait, the transcript, and the engines by id.

mod openai;

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;

use super::ProviderError;
use super::audio::Pcm;
use crate::config::ProviderSettings;

/// What was heard.
#[derive(Debug, Clone, PartialEq)]
pub struct Transcript {
    /// The recognised text, trimmed.
    pub text: String,
    /// The spoken language, when the engine detected it (ISO 639-1).
    pub language: Option<String>,
}

/// A speech recogniser.
#[async_trait]
pub trait Stt: Send + Sync {
    /// Transcribes mono 16-bit PCM. `language` fixes the language; `None` lets the engine detect it.
    async fn transcribe(&self, audio: &Pcm, language: Option<&str>) -> Result<Transcript, ProviderError>;
}

/// The in-process whisper.cpp engine is not part of this build: choosing it fails clearly, and a configured
/// fallback (`STT_FALLBACK`) takes over.
struct Unavailable(&'static str);

#[async_trait]
impl Stt for Unavailable {
    async fn transcribe(&self, _: &Pcm, _: Option<&str>) -> Result<Transcript, ProviderError> {
        Err(ProviderError::NotConfigured(self.0.to_string()))
    }
}

/// The engines of this stage.
pub fn engines(p: &ProviderSettings, http: &reqwest::Client) -> HashMap<&'static str, Arc<dyn Stt>> {
    let openai = openai::OpenAiStt::new(
        &p.openai_stt_url,
        p.openai_stt_api_key.clone(),
        &p.openai_stt_model,
        http.clone(),
    );
    HashMap::from([
        ("openai", Arc::new(openai) as Arc<dyn Stt>),
        (
            "whisper",
            Arc::new(Unavailable(
                "whisper (in-process whisper.cpp is not built in; use openai)",
            )) as Arc<dyn Stt>,
        ),
    ])
}
