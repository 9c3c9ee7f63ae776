//! OpenAI-compatible speech: `POST {base}/audio/speech` with `{model, input, voice, response_format: "wav"}`
//! (OpenAI, Kokoro-FastAPI, speaches). WAV is asked for so that every engine hands out the same format.

use async_trait::async_trait;
use secrecy::{ExposeSecret, SecretString};
use serde_json::json;

use super::{Speech, SpeechRequest, Tts};
use crate::config::ProviderSettings;
use crate::providers::ProviderError;

const ID: &str = "openai";
/// The voice when neither the request nor `OPENAI_TTS_VOICE` names one.
const DEFAULT_VOICE: &str = "alloy";

/// An OpenAI-compatible speech server.
pub struct OpenAiTts {
    url: String,
    key: Option<SecretString>,
    model: String,
    configured: bool,
    unsupported: Vec<String>,
    http: reqwest::Client,
}

impl OpenAiTts {
    /// The server of the settings.
    pub fn new(p: &ProviderSettings, http: reqwest::Client) -> Self {
        Self {
            url: format!("{}/audio/speech", p.openai_tts_url.trim_end_matches('/')),
            key: p.openai_tts_api_key.clone(),
            model: p.openai_tts_model.clone(),
            configured: p.openai_tts_configured,
            unsupported: p.openai_tts_unsupported_languages.clone(),
            http,
        }
    }
}

#[async_trait]
impl Tts for OpenAiTts {
    fn speaks(&self, language: &str) -> bool {
        !self.unsupported.iter().any(|l| l == language)
    }

    fn check_voice(&self, voice: &str, _: &str) -> Result<(), String> {
        let valid =
            (1..=64).contains(&voice.len()) && voice.chars().all(|c| c.is_ascii_alphanumeric() || "_-.+".contains(c));
        if valid {
            Ok(())
        } else {
            Err(format!("{voice:?} is not a voice name of the OpenAI-compatible TTS"))
        }
    }

    #[tracing::instrument(skip_all, fields(provider = ID, chars = request.text.len()))]
    async fn speak(&self, request: &SpeechRequest<'_>) -> Result<Speech, ProviderError> {
        if !self.configured {
            return Err(ProviderError::NotConfigured(
                "openai TTS (set OPENAI_TTS_URL or OPENAI_TTS_API_KEY)".into(),
            ));
        }
        let body = json!({
            "model": self.model,
            "input": request.text,
            "voice": request.voice.unwrap_or(DEFAULT_VOICE),
            "response_format": "wav",
        });
        let mut call = self.http.post(&self.url).json(&body);
        if let Some(key) = &self.key {
            call = call.bearer_auth(key.expose_secret());
        }
        super::wav_answer(ID, call).await
    }
}
