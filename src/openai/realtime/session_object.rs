//! The session object of a Realtime connection as `session.created` and `session.updated` show it: in the
//! GA protocol's shape, or the beta protocol's (`OpenAI-Beta: realtime=v1`).

use serde::Serialize;
use utoipa::ToSchema;

use super::conversation::Modality;

/// The session object, in the shape of the client's protocol.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(untagged)]
#[schema(as = RealtimeSessionObject)]
pub enum SessionObject {
    /// The GA protocol's.
    Ga(Session),
    /// The beta protocol's (`OpenAI-Beta: realtime=v1`).
    Beta(BetaSession),
}

/// The GA session object.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = RealtimeSession)]
pub struct Session {
    /// `realtime`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// `realtime.session`.
    pub object: &'static str,
    /// `sess_…`.
    pub id: String,
    /// The model as named at the handshake.
    pub model: String,
    /// `["text"]` or `["audio"]`.
    pub output_modalities: Vec<Modality>,
    /// The client's system text; empty when none.
    pub instructions: String,
    /// The audio settings.
    pub audio: SessionAudio,
}

/// The GA session's audio settings.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = RealtimeSessionAudio)]
pub struct SessionAudio {
    /// The user's audio.
    pub input: SessionInput,
    /// The answer's audio.
    pub output: SessionOutput,
}

/// The GA session's input audio.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = RealtimeSessionInput)]
pub struct SessionInput {
    /// PCM16 at 24 kHz.
    pub format: PcmFormat,
    /// The detector; null: turns end by the client's commit.
    pub turn_detection: Option<ServerVadSettings>,
    /// The transcription (the user's STT engine).
    pub transcription: TranscriptionSettings,
}

/// The GA session's output audio.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = RealtimeSessionOutput)]
pub struct SessionOutput {
    /// PCM16 at 24 kHz.
    pub format: PcmFormat,
    /// The voice asked for; null: the user's.
    pub voice: Option<String>,
}

/// GA's audio format object.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[schema(as = RealtimePcmFormat)]
pub struct PcmFormat {
    /// `audio/pcm`, `audio/pcmu` or `audio/pcma`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// 24000 for `audio/pcm`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate: Option<u32>,
}

/// The voice detector's settings as the session shows them.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = RealtimeServerVad)]
pub struct ServerVadSettings {
    /// `server_vad` or `semantic_vad`: the detector that runs.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// `semantic_vad`'s eagerness.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eagerness: Option<Eagerness>,
    /// Silence that ends a turn; null: the gateway's setting.
    pub silence_duration_ms: Option<u32>,
    /// Whether a turn's end starts an answer.
    pub create_response: bool,
    /// Whether new speech interrupts an answer.
    pub interrupt_response: bool,
}

/// The transcription settings as the session shows them.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = RealtimeTranscriptionSettings)]
pub struct TranscriptionSettings {
    /// `gateway`: the user's STT engine transcribes.
    pub model: &'static str,
    /// The language spoken; null: detected.
    pub language: Option<String>,
}

/// The beta protocol's session object.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = RealtimeBetaSession)]
pub struct BetaSession {
    /// `sess_…`.
    pub id: String,
    /// `realtime.session`.
    pub object: &'static str,
    /// The model as named at the handshake.
    pub model: String,
    /// `["text"]` or `["audio", "text"]`.
    pub modalities: Vec<Modality>,
    /// The client's system text; empty when none.
    pub instructions: String,
    /// The voice asked for; null: the user's.
    pub voice: Option<String>,
    /// `pcm16`, `g711_ulaw` or `g711_alaw`.
    pub input_audio_format: &'static str,
    /// As the input's.
    pub output_audio_format: &'static str,
    /// The detector; null: turns end by the client's commit.
    pub turn_detection: Option<ServerVadSettings>,
    /// The transcription (the user's STT engine).
    pub input_audio_transcription: TranscriptionSettings,
}

/// `semantic_vad`'s eagerness: how long a pause ends a turn that Smart Turn found incomplete. OpenAI gives
/// these longest waits (8, 4 and 2 s; `auto` is `medium`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = RealtimeEagerness)]
pub enum Eagerness {
    Low,
    Medium,
    High,
    Auto,
}

impl Eagerness {
    /// The eagerness named (none: `auto`).
    pub(super) fn parse(name: Option<&str>) -> Result<Self, String> {
        Ok(match name.unwrap_or("auto") {
            "low" => Self::Low,
            "medium" => Self::Medium,
            "high" => Self::High,
            "auto" => Self::Auto,
            other => return Err(format!("eagerness {other:?} is not one of low, medium, high, auto")),
        })
    }

    /// The longest pause of an incomplete turn.
    pub fn max_silence_ms(self) -> u32 {
        match self {
            Self::Low => 8_000,
            Self::Medium | Self::Auto => 4_000,
            Self::High => 2_000,
        }
    }
}
