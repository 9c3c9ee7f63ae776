//! Deployment profiles: a profile only changes defaults; an explicit environment variable always wins.

/// `PROFILE`: which engines are used when nothing else is configured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    /// Everything on this machine: local LLM server, local STT service, espeak-ng; no login required.
    LocalDev,
    /// Local speech, cloud language model with the local one as fallback; login required.
    Hybrid,
    /// Cloud speech and cloud language model, local voice as TTS fallback; login required.
    Cloud,
}

impl Profile {
    /// Parses the spelling used in `PROFILE`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "local-dev" => Some(Self::LocalDev),
            "hybrid" => Some(Self::Hybrid),
            "cloud" => Some(Self::Cloud),
            _ => None,
        }
    }

    /// The spelling used in `PROFILE`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::LocalDev => "local-dev",
            Self::Hybrid => "hybrid",
            Self::Cloud => "cloud",
        }
    }

    /// The profile's default for a variable, below the environment and above the built-in default.
    pub fn default_for(self, var: &str) -> Option<&'static str> {
        let value = match (self, var) {
            (Self::LocalDev, "AUTH_ENABLED") => "false",
            (_, "AUTH_ENABLED") => "true",
            (Self::LocalDev, "DEFAULT_LLM_PROVIDER") => "local",
            (_, "DEFAULT_LLM_PROVIDER") => "cloud",
            (Self::Hybrid, "LLM_FALLBACK") => "local",
            (Self::Cloud, "DEFAULT_TTS_PROVIDER") => "openai",
            (_, "DEFAULT_TTS_PROVIDER") => "espeak",
            (Self::Cloud, "TTS_FALLBACK") => "espeak",
            (Self::Cloud, "OPENAI_STT_URL") => "https://api.openai.com/v1",
            (_, "OPENAI_STT_URL") => "http://127.0.0.1:8090/v1",
            (Self::Cloud, "OPENAI_TTS_URL") => "https://api.openai.com/v1",
            (_, "OPENAI_TTS_URL") => "http://127.0.0.1:8880/v1",
            _ => return None,
        };
        Some(value)
    }
}
