//! The providers area: addresses, models and keys of every engine, the fallback chains, the model menu.

use crate::providers::{LlmId, ProviderSettings, SttId, TtsId};

use super::env::{ConfigError, Source};
use super::languages;
use super::presets;

/// Fallback chains per stage.
#[derive(Debug)]
pub struct Fallbacks {
    /// `STT_FALLBACK`.
    pub stt: Vec<SttId>,
    /// `LLM_FALLBACK`.
    pub llm: Vec<LlmId>,
    /// `TTS_FALLBACK`.
    pub tts: Vec<TtsId>,
}

impl Fallbacks {
    /// Reads the chains.
    pub(super) fn read(src: &Source) -> Result<Self, ConfigError> {
        Ok(Self {
            stt: src
                .var("STT_FALLBACK", "comma list of STT providers tried after the chosen one")
                .providers()?,
            llm: src
                .var("LLM_FALLBACK", "comma list of LLM providers tried after the chosen one")
                .profiles([None, Some(LlmId::Local.as_str()), None])
                .providers()?,
            tts: src
                .var("TTS_FALLBACK", "comma list of TTS providers tried after the chosen one")
                .profiles([None, None, Some(TtsId::Espeak.as_str())])
                .providers()?,
        })
    }
}

/// Reads the providers' settings; `configured` tells whether a variable was given at all.
pub(super) fn read(src: &Source, configured: &dyn Fn(&str) -> bool) -> Result<ProviderSettings, ConfigError> {
    let tts_api_key = src.var("OPENAI_TTS_API_KEY", "its API key").secret();
    Ok(ProviderSettings {
            local_llm_url: src.var("LOCAL_LLM_URL", "OpenAI-compatible base URL of the local LLM server").string("http://127.0.0.1:11434/v1"),
            local_llm_backend: src.var("LOCAL_LLM_BACKEND", "`ollama` or `llamacpp`: how the local server is managed").choice("ollama", &["ollama", "llamacpp"])?,
            ollama_url: src.var("OLLAMA_URL", "the Ollama server when the local backend is switched to `ollama` (the configured backend uses LOCAL_LLM_URL)").string("http://127.0.0.1:11434"),
            llamacpp_url: src.var("LLAMACPP_URL", "the llama.cpp server when the local backend is switched to `llamacpp`").string("http://127.0.0.1:8081"),
            cloud_llm_url: src.var("CLOUD_LLM_URL", "OpenAI-compatible base URL of the cloud LLM").string("https://openrouter.ai/api/v1"),
            cloud_llm_api_key: src.var("CLOUD_LLM_API_KEY", "API key of the cloud LLM").secret(),
            cloud_llm_price: [
                price(src, "CLOUD_LLM_PRICE_INPUT", "price of a million prompt tokens of the cloud LLM, in the currency of the costs shown; with the output price it estimates the cost of an answer cut before the provider reported it (0: no estimate)")?,
                price(src, "CLOUD_LLM_PRICE_OUTPUT", "price of a million answer tokens of the cloud LLM")?,
            ],
            whisper_model_path: src.var("WHISPER_MODEL_PATH", "Whisper model folder (CTranslate2, as faster-whisper loads it) for the `whisper` engine the gateway runs; unset, the engines fetch WHISPER_MODEL").raw(),
            whisper_url: None,
            served_model: None,
            whisper_model: src
                .var("WHISPER_MODEL", "Whisper size; unless this is set, the zero-setup engines run small where CTranslate2 finds a CUDA device and base on a CPU (74M parameters to small's 244M; 0.37 s per question on 2 cores); base when the size cannot be fetched")
                .shown("small (engines: small on a GPU, base on a CPU)")
                .string("small"),
            whisper_compute_type: src.var("WHISPER_COMPUTE_TYPE", "quantisation of the `whisper` engine on a CPU (a CTranslate2 compute type: int8, int8_float32, int16, float32 or auto)").choice("int8", &["int8", "int8_float32", "int16", "float32", "auto"])?,
            openai_stt_url: src
                .var("OPENAI_STT_URL", "base URL of the OpenAI-compatible transcription service")
                .profiles([
                    Some("http://127.0.0.1:8090/v1"),
                    Some("http://127.0.0.1:8090/v1"),
                    None,
                ])
                .string("https://api.openai.com/v1"),
            openai_stt_api_key: src.var("OPENAI_STT_API_KEY", "its API key").secret(),
            openai_stt_model: src.var("OPENAI_STT_MODEL", "its model").string("whisper-1"),
            piper_voice_dir: src
                .var("PIPER_VOICE_DIR", "folder of Piper voices (`NAME.onnx` with `NAME.onnx.json`; the name's start is the language)")
                .shown("(unset; engines: ENGINES_DIR/voices)")
                .raw(),
            piper_url: src.var("PIPER_URL", "OpenAI-compatible speech server with those voices (`…/v1`); the zero-setup engines start one").shown("(unset; engines: their Piper service)").raw(),
            openai_tts_url: src
                .var("OPENAI_TTS_URL", "base URL of the OpenAI-compatible speech service")
                .profiles([
                    Some("http://127.0.0.1:8880/v1"),
                    Some("http://127.0.0.1:8880/v1"),
                    None,
                ])
                .string("https://api.openai.com/v1"),
            openai_tts_configured: configured("OPENAI_TTS_URL") || tts_api_key.is_some(),
            openai_tts_api_key: tts_api_key,
            openai_tts_model: src.var("OPENAI_TTS_MODEL", "its model").string("tts-1"),
            openai_tts_unsupported_languages: src.var("OPENAI_TTS_UNSUPPORTED_LANGUAGES", "languages it cannot speak (e.g. `de,nl,pl` for Kokoro); those use the local voice").subset(languages())?,
            searxng_url: src.var("SEARXNG_URL", "base URL of a SearXNG instance (JSON API enabled)").raw(),
            tavily_url: src.var("TAVILY_URL", "address of the Tavily search API").string("https://api.tavily.com"),
            tavily_api_key: src.var("TAVILY_API_KEY", "Tavily search key").secret(),
            brave_url: src.var("BRAVE_URL", "address of the Brave search API").string("https://api.search.brave.com/res/v1"),
            brave_api_key: src.var("BRAVE_API_KEY", "Brave search key").secret(),
    })
}

/// The model menu: the default preset, then `MODEL_PRESETS_FILE`'s or the built-in ones.
pub(super) fn model_presets(src: &Source) -> Result<Vec<presets::Preset>, ConfigError> {
    let file = src
        .var(
            "MODEL_PRESETS_FILE",
            "JSON list of model presets for the admin menu (see README, Operations)",
        )
        .shown("(unset: built-in presets)");
    presets::load(file.raw().as_deref()).map_err(|e| file.error(e))
}

/// A price per million tokens of `var`, finite, from 0 to a million.
fn price(src: &Source, var: &'static str, doc: &'static str) -> Result<f64, ConfigError> {
    let setting = src.var(var, doc);
    let value: f64 = setting.number(0.0)?;
    match value.is_finite() && (0.0..=1_000_000.0).contains(&value) {
        true => Ok(value),
        false => Err(setting.error(format!("{value} is not a price from 0 to 1000000"))),
    }
}
