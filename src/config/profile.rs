//! Deployment profiles: a profile only changes defaults; an explicit environment variable always wins.

/// `PROFILE`: which engines are used when nothing else is configured. The order of the variants is the order of
/// a setting's per-profile defaults.
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
}
