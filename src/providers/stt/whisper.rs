//! The in-process whisper.cpp engine is not part of this build (no ggml model ships in any package these
//! machines reach): choosing it fails clearly, and a configured fallback (`STT_FALLBACK`) takes over.

use std::sync::Arc;

use async_trait::async_trait;

use super::{Stt, Transcript};
use crate::providers::Build;
use crate::providers::ProviderError;
use crate::providers::audio::Pcm;
use crate::providers::registry::{Capabilities, Cost, Engine, Setup};

/// The placeholder of the in-process engine.
struct Whisper {
    model_path: Option<String>,
    languages: Vec<String>,
}

/// The registry's builder.
pub(super) fn build(b: &Build<'_>) -> Arc<dyn Stt> {
    Arc::new(Whisper {
        model_path: b.settings.whisper_model_path.clone(),
        languages: b.languages.iter().map(|l| l.to_string()).collect(),
    })
}

impl Engine for Whisper {
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            // As the settings say; a call still fails, and falls back, while the engine is not built in.
            configured: self.model_path.is_some(),
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
            model_path: self.model_path.clone(),
            built_in: Some(false),
            ..Setup::default()
        }
    }
}

#[async_trait]
impl Stt for Whisper {
    async fn transcribe(&self, _: &Pcm, _: Option<&str>) -> Result<Transcript, ProviderError> {
        Err(ProviderError::NotConfigured(
            "whisper (in-process whisper.cpp is not built in; use openai)".into(),
        ))
    }
}
