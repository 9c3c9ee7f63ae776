//! Piper voices (MIT, natural and faster than real time on a CPU) served by an OpenAI-compatible speech server:
//! the zero-setup engines' Piper service, or one an operator runs at `PIPER_URL`. The voices are the `.onnx`
//! files of `PIPER_VOICE_DIR`; a voice's language is the start of its name (`de_DE-thorsten-medium` speaks
//! `de`), and a language without a voice is spoken by the local voice instead (`tts_fallback`).

use std::sync::Arc;

use async_trait::async_trait;

use super::{Offered, Speech, SpeechBody, SpeechRequest, Tts, TtsId};
use crate::providers::registry::{Capabilities, Cost, Engine, Setup};
use crate::providers::{Build, Origin, ProviderError, ProviderSettings};

const ID: Origin = Origin::new(TtsId::Piper.as_str(), "PIPER_URL");
/// The sample rate of Piper's medium voices.
const SAMPLE_RATE: u32 = 22_050;

/// The registry's builder.
pub(super) fn build(b: &Build<'_>) -> Arc<dyn Tts> {
    Arc::new(Piper::new(b.settings, b.http.clone()))
}

impl Engine for Piper {
    fn capabilities(&self) -> Capabilities {
        let voices = self.voices().to_vec();
        let mut languages: Vec<String> = voices.iter().map(|v| language_of(v).to_string()).collect();
        languages.dedup();
        Capabilities {
            configured: !voices.is_empty(),
            streaming: false,
            local: true,
            languages,
            voices,
            sample_rates: vec![SAMPLE_RATE],
            cost: Cost::Free,
        }
    }

    fn setup(&self) -> Setup {
        Setup {
            voice_dir: self.voice_dir.clone(),
            url: self.server.clone(),
            voices: Some(self.voices().to_vec()),
            ..Setup::default()
        }
    }
}

/// A Piper speech server and the voices it has.
pub struct Piper {
    url: Option<String>,
    /// `PIPER_URL` and `PIPER_VOICE_DIR` as set.
    server: Option<String>,
    voice_dir: Option<String>,
    voices: Vec<String>,
    http: reqwest::Client,
}

impl Piper {
    /// The server and voices of the settings (none when `PIPER_URL` is unset).
    pub fn new(p: &ProviderSettings, http: reqwest::Client) -> Self {
        Self {
            url: p
                .piper_url
                .as_ref()
                .map(|u| format!("{}/audio/speech", u.trim_end_matches('/'))),
            voices: p.piper_voice_dir.as_deref().map(voices_in).unwrap_or_default(),
            server: p.piper_url.clone(),
            voice_dir: p.piper_voice_dir.clone(),
            http,
        }
    }

    /// The voices, read once at start; empty when no Piper server is configured.
    pub fn voices(&self) -> &[String] {
        if self.url.is_some() { &self.voices } else { &[] }
    }

    /// The voice to use: the one asked for when it exists and speaks the language, else the language's first.
    fn voice_for(&self, asked: Option<&str>, language: &str) -> Option<&str> {
        let speaks = |v: &&String| language_of(v) == language;
        asked
            .and_then(|a| self.voices.iter().filter(speaks).find(|v| v.as_str() == a))
            .or_else(|| self.voices.iter().find(speaks))
            .map(String::as_str)
    }
}

/// The language of a voice name: `en_US-joe-medium` → `en`.
pub fn language_of(voice: &str) -> &str {
    voice.split(['_', '-']).next().unwrap_or_default()
}

/// Names of the `.onnx` voices of a folder that have their `.onnx.json`, sorted.
fn voices_in(dir: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".onnx").map(String::from))
        .filter(|name| std::path::Path::new(dir).join(format!("{name}.onnx.json")).is_file())
        .collect();
    names.sort();
    names
}

#[async_trait]
impl Tts for Piper {
    /// The voices found, each in the language its name starts with.
    fn offered(&self, _: Option<&str>) -> Vec<Offered> {
        self.voices()
            .iter()
            .map(|voice| Offered {
                voice: voice.clone(),
                label: format!("Piper {voice}"),
                languages: vec![language_of(voice).to_string()],
            })
            .collect()
    }

    fn language_of_voice(&self, voice: &str) -> Option<String> {
        Some(language_of(voice).to_string())
    }

    /// The asked voice when it speaks the language, else the language's first (as Piper speaks).
    fn voice_for(&self, asked: Option<String>, language: &str) -> Option<String> {
        let speaks: Vec<&String> = self.voices().iter().filter(|v| language_of(v) == language).collect();
        asked
            .filter(|a| speaks.contains(&a))
            .or_else(|| speaks.first().map(|v| v.to_string()))
    }

    fn speaks(&self, language: &str) -> bool {
        self.url.is_some() && self.voice_for(None, language).is_some()
    }

    fn check_voice(&self, voice: &str, language: &str) -> Result<(), String> {
        match self.voices.iter().find(|v| v.as_str() == voice) {
            Some(v) if language_of(v) == language => Ok(()),
            Some(v) => Err(format!("the Piper voice {v} speaks {}, not {language}", language_of(v))),
            None if self.voices.is_empty() => Err("no Piper voices are installed".into()),
            None => Err(format!(
                "{voice:?} is not a Piper voice here ({})",
                self.voices.join(", ")
            )),
        }
    }

    #[tracing::instrument(skip_all, fields(provider = ID.id, chars = request.text.len()))]
    async fn speak(&self, request: &SpeechRequest<'_>) -> Result<Speech, ProviderError> {
        let Some(url) = &self.url else {
            return Err(ProviderError::NotConfigured(
                "piper (set PIPER_URL and PIPER_VOICE_DIR)".into(),
            ));
        };
        let voice = self
            .voice_for(request.voice, request.language)
            .ok_or_else(|| ProviderError::Unusable(format!("no Piper voice speaks {}", request.language)))?;
        let body = SpeechBody {
            model: "piper",
            input: request.text,
            voice,
            response_format: "wav",
        };
        super::wav_answer(ID, self.http.post(url).json(&body)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_voice_speaks_the_language_its_name_starts_with() {
        assert_eq!(language_of("de_DE-thorsten-medium"), "de");
        assert_eq!(language_of("en_US-joe-medium"), "en");
        let piper = Piper {
            url: Some("http://127.0.0.1:1/v1/audio/speech".into()),
            server: None,
            voice_dir: None,
            voices: vec!["de_DE-thorsten-medium".into(), "en_US-joe-medium".into()],
            http: reqwest::Client::new(),
        };
        assert!(piper.speaks("de") && piper.speaks("en") && !piper.speaks("fr"));
        assert_eq!(
            piper.voice_for(Some("en_US-joe-medium"), "de"),
            Some("de_DE-thorsten-medium")
        );
        assert_eq!(piper.voice_for(None, "en"), Some("en_US-joe-medium"));
        assert!(piper.check_voice("en_US-joe-medium", "de").is_err());
        assert!(piper.check_voice("en_US-joe-medium", "en").is_ok());
    }
}
