//! Speech to text: the trait, the transcript, the stream every caller transcribes through, and the engines.

mod openai;
mod stream;
mod whisper;

use async_trait::async_trait;

use super::ProviderError;
use super::audio::Pcm;
use super::registry::{Engine, registry};

pub use stream::{SpeechEvent, SttStream, open};

registry! {
    /// A speech-to-text provider.
    SttId: Stt, dyn Stt {
        /// Whisper run by the gateway (the engines start faster-whisper; without them it falls back along `STT_FALLBACK`).
        Whisper = "whisper" => whisper::build,
        /// An OpenAI-compatible `/audio/transcriptions` service (OpenAI, Groq, speaches, a whisper.cpp server).
        Openai = "openai" => openai::build,
    }
}

/// What was heard.
#[derive(Debug, Clone, PartialEq)]
pub struct Transcript {
    /// The recognised text, trimmed.
    pub text: String,
    /// The spoken language, when the engine detected it (ISO 639-1).
    pub language: Option<String>,
    /// Each word with the probability the engine gave it, where it gives them (faster-whisper, speaches); the
    /// help function hears a guessed word more tolerantly ([`crate::emergency::hearing`]).
    pub words: Vec<(String, f32)>,
}

/// A speech recogniser. Callers use [`open`], which streams where the engine can and batches where it cannot.
#[async_trait]
pub trait Stt: Engine {
    /// Transcribes a whole clip of mono 16-bit PCM. `language` fixes the language; `None` lets the engine
    /// detect it.
    async fn transcribe(&self, audio: &Pcm, language: Option<&str>) -> Result<Transcript, ProviderError>;

    /// Transcribes a clip with `prompt` as the text said before it (OpenAI's `prompt`), which leans the
    /// recogniser towards its words; `None` for an engine that takes no prompt.
    async fn transcribe_after(
        &self,
        _audio: &Pcm,
        _language: Option<&str>,
        _prompt: &str,
    ) -> Option<Result<Transcript, ProviderError>> {
        None
    }

    /// A recognition fed as the audio arrives, for engines that recognise incrementally; `None` (the default)
    /// for engines that take whole clips, which [`open`] wraps.
    fn stream(&self, _sample_rate: u32, _language: Option<&str>) -> Option<SttStream> {
        None
    }
}
