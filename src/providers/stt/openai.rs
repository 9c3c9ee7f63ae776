//! OpenAI-compatible transcription: `POST {base}/audio/transcriptions`, multipart with the audio as a WAV
//! file. `verbose_json` is asked for because it carries the detected language (OpenAI, Groq, speaches and
//! whisper.cpp server all return it); a plain `{"text"}` answer is read too. The words are asked for as well
//! (`timestamp_granularities[]=word`): where the server gives each word's probability (faster-whisper,
//! speaches), the help function hears a guessed word more tolerantly.

use std::sync::Arc;

use async_trait::async_trait;
use reqwest::multipart::{Form, Part};
use secrecy::{ExposeSecret, SecretString};

use super::{Stt, SttId, Transcript};
use crate::providers::audio::Pcm;
use crate::providers::registry::{Capabilities, Cost, Engine, Setup, is_local_address};
use crate::providers::{Build, Origin, ProviderError, send_json};

const ID: Origin = Origin::new(SttId::Openai.as_str(), "OPENAI_STT_URL");

/// The registry's builder.
pub(super) fn build(b: &Build<'_>) -> Arc<dyn Stt> {
    let p = b.settings;
    Arc::new(OpenAiStt {
        local: is_local_address(&p.openai_stt_url),
        languages: b.languages.iter().map(|l| l.to_string()).collect(),
        ..OpenAiStt::new(
            &p.openai_stt_url,
            p.openai_stt_api_key.clone(),
            &p.openai_stt_model,
            b.http.clone(),
        )
    })
}

/// An OpenAI-compatible transcription server.
pub struct OpenAiStt {
    url: String,
    key: Option<SecretString>,
    model: String,
    http: reqwest::Client,
    /// The base address, as the settings give it.
    base: String,
    local: bool,
    languages: Vec<String>,
    /// Who the errors name (the engines' Whisper is served by the same protocol).
    origin: Origin<'static>,
}

impl OpenAiStt {
    /// A server at `base`.
    pub fn new(base: &str, key: Option<SecretString>, model: &str, http: reqwest::Client) -> Self {
        Self {
            url: format!("{}/audio/transcriptions", base.trim_end_matches('/')),
            key,
            model: model.to_string(),
            http,
            base: base.to_string(),
            local: false,
            languages: Vec::new(),
            origin: ID,
        }
    }

    /// The same server, named in errors and traces as `origin`.
    pub(super) fn named(self, origin: Origin<'static>) -> Self {
        Self { origin, ..self }
    }
}

impl Engine for OpenAiStt {
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            configured: true,
            streaming: false,
            local: self.local,
            languages: self.languages.clone(),
            voices: Vec::new(),
            // Any WAV; the gateway sends what it has (16 kHz from its channels).
            sample_rates: vec![16_000],
            cost: Cost::PerMinute.unless_local(self.local),
        }
    }

    fn setup(&self) -> Setup {
        Setup {
            url: Some(self.base.clone()),
            model: Some(self.model.clone()),
            key_set: Some(self.key.is_some()),
            ..Setup::default()
        }
    }
}

#[async_trait]
impl Stt for OpenAiStt {
    #[tracing::instrument(skip_all, fields(provider = self.origin.id, seconds = audio.duration_secs()))]
    async fn transcribe(&self, audio: &Pcm, language: Option<&str>) -> Result<Transcript, ProviderError> {
        self.request(audio, language, None).await
    }

    #[tracing::instrument(skip_all, fields(provider = self.origin.id, seconds = audio.duration_secs()))]
    async fn transcribe_after(
        &self,
        audio: &Pcm,
        language: Option<&str>,
        prompt: &str,
    ) -> Option<Result<Transcript, ProviderError>> {
        Some(self.request(audio, language, Some(prompt)).await)
    }
}

impl OpenAiStt {
    /// One `/audio/transcriptions` request, with the text said before the clip where there is one.
    async fn request(
        &self,
        audio: &Pcm,
        language: Option<&str>,
        prompt: Option<&str>,
    ) -> Result<Transcript, ProviderError> {
        let file = Part::bytes(audio.to_wav())
            .file_name("audio.wav")
            .mime_str("audio/wav")
            .map_err(|e| ProviderError::from_http(self.origin, &e))?;
        let mut form = Form::new()
            .part("file", file)
            .text("model", self.model.clone())
            .text("response_format", "verbose_json")
            .text("timestamp_granularities[]", "word");
        if let Some(lang) = language {
            form = form.text("language", lang.to_string());
        }
        if let Some(prompt) = prompt {
            form = form.text("prompt", prompt.to_string());
        }
        let mut call = self.http.post(&self.url).multipart(form);
        if let Some(key) = &self.key {
            call = call.bearer_auth(key.expose_secret());
        }
        let body = send_json(self.origin, call).await?;
        let text = body["text"]
            .as_str()
            .ok_or_else(|| ProviderError::failed(self.origin.id, "answer has no text field"))?;
        Ok(Transcript {
            text: text.trim().to_string(),
            language: body["language"].as_str().and_then(iso_code),
            words: words(&body),
        })
    }
}

/// The words with their probabilities: top-level `words` (speaches, the engines' Whisper) or each segment's;
/// words without a probability (OpenAI's) are left out, as they tell nothing of the engine's certainty.
fn words(body: &serde_json::Value) -> Vec<(String, f32)> {
    let top = body["words"].as_array().into_iter().flatten();
    let segments = body["segments"].as_array().into_iter().flatten();
    let in_segments = segments.flat_map(|s| s["words"].as_array().into_iter().flatten());
    let all: Vec<&serde_json::Value> = if body["words"].is_array() {
        top.collect()
    } else {
        in_segments.collect()
    };
    all.into_iter()
        .take(500)
        .filter_map(|w| {
            let p = w["probability"].as_f64()?;
            Some((w["word"].as_str()?.trim().to_string(), p as f32))
        })
        .collect()
}

/// Whisper servers report the language as a name ("german") or a code ("de"); the gateway works in codes.
fn iso_code(reported: &str) -> Option<String> {
    let lower = reported.trim().to_ascii_lowercase();
    let code = match lower.as_str() {
        "german" => "de",
        "english" => "en",
        "french" => "fr",
        "spanish" => "es",
        "italian" => "it",
        "dutch" => "nl",
        "polish" => "pl",
        "portuguese" => "pt",
        other if other.len() == 2 => other,
        _ => return None,
    };
    Some(code.to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn words_are_read_with_their_probabilities_where_the_server_gives_them() {
        let speaches = serde_json::json!({"text": "Help", "words": [{"word": " Help", "probability": 0.25}]});
        assert_eq!(super::words(&speaches), vec![("Help".to_string(), 0.25)]);
        let segments = serde_json::json!({"segments": [{"words": [{"word": "a", "probability": 0.5}]}]});
        assert_eq!(super::words(&segments), vec![("a".to_string(), 0.5)]);
        let openai = serde_json::json!({"text": "Help", "words": [{"word": "Help", "start": 0.0, "end": 0.4}]});
        assert!(super::words(&openai).is_empty());
    }

    #[test]
    fn language_names_become_codes() {
        assert_eq!(super::iso_code("german").as_deref(), Some("de"));
        assert_eq!(super::iso_code("EN").as_deref(), Some("en"));
        assert_eq!(super::iso_code("klingon"), None);
    }
}
