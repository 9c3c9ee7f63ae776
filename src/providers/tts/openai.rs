//! OpenAI-compatible speech: `POST {base}/audio/speech` with `{model, input, voice, response_format: "wav"}`
//! (OpenAI, Kokoro-FastAPI, speaches). WAV is asked for so that every engine hands out the same format.

use std::sync::Arc;

use async_trait::async_trait;
use secrecy::{ExposeSecret, SecretString};

use super::{Offered, Speech, SpeechBody, SpeechRequest, Tts, TtsId};
use crate::providers::registry::{Capabilities, Cost, Engine, Setup, is_local_address};
use crate::providers::{Build, Origin, ProviderError, ProviderSettings};

const ID: Origin = Origin::new(TtsId::Openai.as_str(), "OPENAI_TTS_URL");
/// OpenAI's speech comes at 24 kHz (Kokoro's too).
const SAMPLE_RATE: u32 = 24_000;

/// The registry's builder.
pub(super) fn build(b: &Build<'_>) -> Arc<dyn Tts> {
    let mut tts = OpenAiTts::new(b.settings, b.http.clone());
    tts.languages = b
        .languages
        .iter()
        .filter(|l| tts.speaks(l))
        .map(|l| l.to_string())
        .collect();
    Arc::new(tts)
}

impl Engine for OpenAiTts {
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            configured: self.configured,
            streaming: false,
            local: self.local,
            languages: self.languages.clone(),
            voices: Vec::new(),
            sample_rates: vec![SAMPLE_RATE],
            cost: Cost::PerCharacter.unless_local(self.local),
        }
    }

    fn setup(&self) -> Setup {
        Setup {
            url: Some(self.base.clone()),
            model: Some(self.model.clone()),
            configured: Some(self.configured),
            unsupported_languages: Some(self.unsupported.clone()),
            ..Setup::default()
        }
    }
}
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
    /// `OPENAI_TTS_URL` as set.
    base: String,
    local: bool,
    languages: Vec<String>,
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
            local: is_local_address(&p.openai_tts_url),
            base: p.openai_tts_url.clone(),
            languages: Vec::new(),
        }
    }
}

#[async_trait]
impl Tts for OpenAiTts {
    /// The service takes any voice name: the one set (`OPENAI_TTS_VOICE`), in every language it speaks.
    fn offered(&self, default_voice: Option<&str>) -> Vec<Offered> {
        let Some(voice) = default_voice.filter(|v| !v.is_empty() && self.configured) else {
            return Vec::new();
        };
        vec![Offered {
            voice: voice.to_string(),
            label: format!("{voice} (OpenAI-compatible)"),
            languages: self.languages.clone(),
        }]
    }

    fn speaks(&self, language: &str) -> bool {
        !self.unsupported.iter().any(|l| l == language)
    }

    fn has_openai_voices(&self) -> bool {
        true
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

    #[tracing::instrument(skip_all, fields(provider = ID.id, chars = request.text.len()))]
    async fn speak(&self, request: &SpeechRequest<'_>) -> Result<Speech, ProviderError> {
        if !self.configured {
            return Err(ProviderError::NotConfigured(
                "openai TTS (set OPENAI_TTS_URL or OPENAI_TTS_API_KEY)".into(),
            ));
        }
        let body = SpeechBody {
            model: &self.model,
            input: request.text,
            voice: request.voice.unwrap_or(DEFAULT_VOICE),
            response_format: "wav",
        };
        let mut call = self.http.post(&self.url).json(&body);
        if let Some(key) = &self.key {
            call = call.bearer_auth(key.expose_secret());
        }
        super::wav_answer(ID, call).await
    }
}
