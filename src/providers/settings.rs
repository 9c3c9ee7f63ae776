//! Addresses, models and keys of the providers, as the settings give them (read in `config`).

use secrecy::SecretString;

/// Provider endpoints and credentials (see the provider table of the contract).
#[derive(Debug)]
pub struct ProviderSettings {
    /// `LOCAL_LLM_URL`.
    pub local_llm_url: String,
    /// `LOCAL_LLM_BACKEND`: `ollama` or `llamacpp`.
    pub local_llm_backend: String,
    /// `OLLAMA_URL`: the Ollama server (without `/v1`), used when the local backend is switched to Ollama.
    pub ollama_url: String,
    /// `LLAMACPP_URL`: the llama.cpp server (without `/v1`), used when the local backend is switched to it.
    pub llamacpp_url: String,
    /// `CLOUD_LLM_URL`.
    pub cloud_llm_url: String,
    /// `CLOUD_LLM_API_KEY`.
    pub cloud_llm_api_key: Option<SecretString>,
    /// `CLOUD_LLM_PRICE_INPUT` and `CLOUD_LLM_PRICE_OUTPUT`: per million prompt and answer tokens (0: unknown).
    pub cloud_llm_price: [f64; 2],
    /// `WHISPER_MODEL_PATH`: a Whisper model folder (CTranslate2, as faster-whisper loads it) for the
    /// `whisper` engine, instead of the one the engines fetch.
    pub whisper_model_path: Option<String>,
    /// Where the engines serve the `whisper` engine (`…/v1`), once they started it (not a setting).
    pub whisper_url: Option<String>,
    /// The language model the engines serve as `local`, once they started it (not a setting).
    pub served_model: Option<ServedModel>,
    /// `WHISPER_MODEL`: model size.
    pub whisper_model: String,
    /// `WHISPER_COMPUTE_TYPE`: quantisation of the `whisper` engine on a CPU (a CTranslate2 compute type).
    pub whisper_compute_type: String,
    /// `OPENAI_STT_URL`.
    pub openai_stt_url: String,
    /// `OPENAI_STT_API_KEY`.
    pub openai_stt_api_key: Option<SecretString>,
    /// `OPENAI_STT_MODEL`.
    pub openai_stt_model: String,
    /// `PIPER_VOICE_DIR`: the Piper voices (`.onnx` with `.onnx.json`); the zero-setup engines set it.
    pub piper_voice_dir: Option<String>,
    /// `PIPER_URL`: an OpenAI-compatible speech server with those voices (`…/v1`); the zero-setup engines set it.
    pub piper_url: Option<String>,
    /// `OPENAI_TTS_URL`.
    pub openai_tts_url: String,
    /// `OPENAI_TTS_API_KEY`.
    pub openai_tts_api_key: Option<SecretString>,
    /// `OPENAI_TTS_MODEL`.
    pub openai_tts_model: String,
    /// Whether the OpenAI-compatible TTS was configured (`OPENAI_TTS_URL` set explicitly or a key given).
    pub openai_tts_configured: bool,
    /// `OPENAI_TTS_UNSUPPORTED_LANGUAGES`: languages the OpenAI-compatible TTS cannot speak.
    pub openai_tts_unsupported_languages: Vec<String>,
    /// `SEARXNG_URL`.
    pub searxng_url: Option<String>,
    /// `TAVILY_URL`.
    pub tavily_url: String,
    /// `BRAVE_URL`.
    pub brave_url: String,
    /// `TAVILY_API_KEY`.
    pub tavily_api_key: Option<SecretString>,
    /// `BRAVE_API_KEY`.
    pub brave_api_key: Option<SecretString>,
}

/// The language model the engines started, as `engines/engines.py` describes its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServedModel {
    /// Its name (`SmolLM2-135M-Instruct`).
    pub name: String,
    /// The model name it is served under (`LOCAL_LLM_MODEL`).
    pub alias: String,
    /// The languages it answers in; `None` for a file the engines do not know.
    pub languages: Option<Vec<String>>,
}
