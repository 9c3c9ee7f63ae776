//! Text to speech: the trait, the audio it gives, the stream every caller synthesises through, and the
//! engines.

mod espeak;
mod openai;
pub mod piper;
mod stream;

use async_trait::async_trait;

use super::audio::fix_wav_sizes;
use super::decode::{self, Container};
use super::registry::{Engine, registry};
use super::{Origin, ProviderError, check_status};

pub use espeak::espeak_voice;
pub use stream::{SpeechStream, open};

registry! {
    /// A text-to-speech provider.
    TtsId: Tts, dyn Tts {
        /// espeak-ng, local, every language.
        Espeak = "espeak" => espeak::build,
        /// Piper voices from an OpenAI-compatible speech server (the zero-setup engines start one).
        Piper = "piper" => piper::build,
        /// An OpenAI-compatible `/audio/speech` service (OpenAI, Kokoro-FastAPI, speaches).
        Openai = "openai" => openai::build,
    }
}

/// An engine as a person may know it (the voice notice names it).
pub fn known_as(id: TtsId) -> &'static str {
    match id {
        TtsId::Espeak => "espeak-ng",
        TtsId::Piper => "Piper",
        TtsId::Openai => "OpenAI TTS",
    }
}

/// Synthesised speech as a file. Engines that answer with a whole file return WAV.
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

/// A speech synthesiser. Callers use [`open`], which streams where the engine can and wraps a whole file
/// where it cannot.
#[async_trait]
pub trait Tts: Engine {
    /// Whether this engine can speak a language (the cloud TTS cannot speak some).
    fn speaks(&self, language: &str) -> bool;
    /// The voices it offers in the voice menus and Wyoming's `info`. `default_voice` is the setting of the
    /// engine's default voice, for engines that take any name and so offer that one.
    fn offered(&self, default_voice: Option<&str>) -> Vec<Offered>;
    /// The one language a voice speaks, where its name tells; `None` for a voice that speaks every language
    /// of the engine.
    fn language_of_voice(&self, _voice: &str) -> Option<String> {
        None
    }
    /// The voice it speaks `language` with when `asked` is wanted (none: its own default): `asked` itself,
    /// unless the engine's voices each speak one language.
    fn voice_for(&self, asked: Option<String>, _language: &str) -> Option<String> {
        asked
    }
    /// Whether the names of OpenAI's speech API (`alloy`, `nova`, …) are voices of this engine; where they are
    /// not, a client of that API naming one means the user's own voice.
    fn has_openai_voices(&self) -> bool {
        false
    }
    /// Whether a voice name is usable by this engine for a language; the message says why not.
    fn check_voice(&self, voice: &str, language: &str) -> Result<(), String>;
    /// Speaks the text into a whole file.
    async fn speak(&self, request: &SpeechRequest<'_>) -> Result<Speech, ProviderError>;
    /// Speaks the text as audio chunks while it is produced, for engines that can; `None` (the default) for
    /// engines that produce a whole file, which [`open`] wraps.
    async fn stream(&self, _request: &SpeechRequest<'_>) -> Option<Result<SpeechStream, ProviderError>> {
        None
    }
}

/// A voice an engine offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offered {
    /// As the engine takes it.
    pub voice: String,
    /// As a menu shows it: `espeak-ng (de)`, `Piper de_DE-thorsten-medium`.
    pub label: String,
    /// The languages it speaks.
    pub languages: Vec<String>,
}

/// The body of an OpenAI-compatible `/audio/speech` request (the `openai` engine's and Piper's server's).
#[derive(Debug, serde::Serialize)]
struct SpeechBody<'a> {
    /// The server's model (`tts-1`, `piper`).
    model: &'a str,
    /// The text to speak.
    input: &'a str,
    /// The voice.
    voice: &'a str,
    /// Always `wav`: the gateway converts from there.
    response_format: &'static str,
}

/// The longest answer a speech server may send back (an hour would be a broken server, not an answer).
const MAX_SPEECH_SECONDS: u32 = 600;

/// Sends a prepared OpenAI-compatible `/audio/speech` request and returns its WAV (with the sizes a streaming
/// server leaves open filled in; another format the gateway reads is decoded to WAV).
async fn wav_answer(origin: Origin<'_>, call: reqwest::RequestBuilder) -> Result<Speech, ProviderError> {
    let response = call.send().await.map_err(|e| ProviderError::from_http(origin, &e))?;
    let bytes = check_status(origin, response)
        .await?
        .bytes()
        .await
        .map_err(|e| ProviderError::from_http(origin, &e))?;
    let bytes = bytes.to_vec();
    // Some OpenAI-compatible servers answer their own default (mp3, opus) whatever `response_format` asked.
    if !matches!(Container::sniff(&bytes), None | Some(Container::Wav)) {
        let pcm = decode::decode_upload(bytes, None, MAX_SPEECH_SECONDS)
            .await
            .map_err(|e| ProviderError::failed(origin.id, format!("its audio: {e}")))?;
        return Ok(Speech {
            audio: pcm.to_wav(),
            format: "wav",
        });
    }
    let audio = fix_wav_sizes(bytes).map_err(|e| ProviderError::failed(origin.id, e.to_string()))?;
    Ok(Speech { audio, format: "wav" })
}
