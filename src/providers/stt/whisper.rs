//! Whisper on this machine, run by the gateway: the engines (`ENGINES=auto`) start faster-whisper (CTranslate2,
//! int8 on a CPU by `WHISPER_COMPUTE_TYPE`) on `WHISPER_MODEL_PATH` or the model they fetch, as a child
//! process on a loopback port, and this engine transcribes through it. Without the engines it has nothing to
//! run on: choosing it fails clearly, and a configured fallback (`STT_FALLBACK`) takes over.

use std::sync::Arc;

use async_trait::async_trait;

use super::openai::OpenAiStt;
use super::{Stt, SttId, Transcript};
use crate::providers::audio::Pcm;
use crate::providers::registry::{Capabilities, Cost, Engine, Setup};
use crate::providers::{Build, Origin, ProviderError};

/// Errors name the engine; its address is the engines', not a setting.
const ORIGIN: Origin = Origin {
    id: SttId::Whisper.as_str(),
    setting: None,
};

/// The engines' Whisper, once they run it.
struct Whisper {
    /// The service the engines started (`None` while they do not run it).
    served: Option<OpenAiStt>,
    model: String,
    model_path: Option<String>,
    languages: Vec<String>,
}

/// The registry's builder.
pub(super) fn build(b: &Build<'_>) -> Arc<dyn Stt> {
    let p = b.settings;
    Arc::new(Whisper {
        served: p
            .whisper_url
            .as_deref()
            .map(|url| OpenAiStt::new(url, None, &p.whisper_model, b.http.clone()).named(ORIGIN)),
        model: p.whisper_model.clone(),
        model_path: p.whisper_model_path.clone(),
        languages: b.languages.iter().map(|l| l.to_string()).collect(),
    })
}

impl Engine for Whisper {
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            configured: self.served.is_some(),
            streaming: false,
            local: true,
            languages: self.languages.clone(),
            voices: Vec::new(),
            sample_rates: vec![16_000],
            cost: Cost::Free,
        }
    }

    fn setup(&self) -> Setup {
        Setup {
            url: self.served.as_ref().and_then(|s| s.setup().url),
            model: Some(self.model.clone()),
            model_path: self.model_path.clone(),
            configured: Some(self.served.is_some()),
            ..Setup::default()
        }
    }

    fn missing(&self) -> Option<&'static str> {
        self.served.is_none().then_some("ENGINES=auto")
    }
}

#[async_trait]
impl Stt for Whisper {
    async fn transcribe(&self, audio: &Pcm, language: Option<&str>) -> Result<Transcript, ProviderError> {
        match &self.served {
            Some(served) => served.transcribe(audio, language).await,
            None => Err(ProviderError::NotConfigured(format!(
                "{} (the gateway runs Whisper itself with ENGINES=auto)",
                SttId::Whisper
            ))),
        }
    }

    async fn transcribe_after(
        &self,
        audio: &Pcm,
        language: Option<&str>,
        prompt: &str,
    ) -> Option<Result<Transcript, ProviderError>> {
        self.served.as_ref()?.transcribe_after(audio, language, prompt).await
    }
}
