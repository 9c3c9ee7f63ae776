//! The voice core's events: what a turn is asked with ([`Options`]) and what it sends ([`Out`]: JSON events and
//! the audio that follows them). Their JSON is the event frames of `/ws/chat` and `/ws/voice`; the other
//! channels (the Realtime protocol, Wyoming) translate them to their own wire.

use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::providers::TtsId;
use crate::turn::TurnOptions;
use crate::turn::semantic::Semantic;

/// Options of a chat message or of a voice `start`/`end` frame. `None` = not given.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct Options {
    /// Token streaming.
    pub stream: Option<bool>,
    /// Sentence-wise audio.
    pub audio_stream: Option<bool>,
    /// Providers, model, voice and language.
    #[serde(flatten)]
    pub turn: TurnOptions,
    /// Text only: the device speaks.
    pub text_only: Option<bool>,
    /// The session to continue.
    pub session_id: Option<String>,
    /// `/ws/voice`: end utterances by silence detection.
    pub vad: Option<bool>,
    /// `/ws/voice`: sample rate of the PCM frames (default 16000); with Opus input, the rate it is decoded at.
    pub sample_rate: Option<u32>,
    /// The container of the answer audio's binary frames: `wav` (default) or `opus` (one Ogg Opus file each).
    pub audio_format: Option<AudioFormat>,
    /// `/ws/voice`: what the binary frames from the microphone hold: `pcm` (16-bit little-endian, the default)
    /// or `opus` (one raw Opus packet per frame, as WebCodecs' `AudioEncoder` gives them, any frame length).
    pub input_format: Option<InputFormat>,
    /// System text added to the gateway's (the `instructions` of an OpenAI Realtime session); not a frame field.
    #[serde(skip)]
    pub instructions: Option<String>,
    /// A farewell ends the conversation rather than being a question for the model (a phone call, which
    /// hangs up on it); not a frame field.
    #[serde(skip)]
    pub farewell_ends: Option<bool>,
    /// The connection's care dialogue (what reminders it told, a question it asked); not a frame field.
    #[serde(skip)]
    pub care: Option<crate::care::dialogue::Dialogue>,
    /// The words of the call for help whose question waits for its answer, for the contacts; not a frame field.
    #[serde(skip)]
    pub help_said: Option<String>,
    /// How that call for help was made (the help key, or by voice); not a frame field.
    #[serde(skip)]
    pub help_way: crate::emergency::Way,
}

impl Options {
    /// These options with `over`'s given values on top (the end frame wins over the start frame).
    pub fn merged(&self, over: &Options) -> Options {
        fn pick<T: Clone>(over: &Option<T>, base: &Option<T>) -> Option<T> {
            over.clone().or_else(|| base.clone())
        }
        Options {
            stream: pick(&over.stream, &self.stream),
            audio_stream: pick(&over.audio_stream, &self.audio_stream),
            turn: self.turn.merged(&over.turn),
            text_only: pick(&over.text_only, &self.text_only),
            session_id: pick(&over.session_id, &self.session_id),
            vad: pick(&over.vad, &self.vad),
            sample_rate: pick(&over.sample_rate, &self.sample_rate),
            audio_format: pick(&over.audio_format, &self.audio_format),
            input_format: pick(&over.input_format, &self.input_format),
            instructions: pick(&over.instructions, &self.instructions),
            farewell_ends: pick(&over.farewell_ends, &self.farewell_ends),
            care: pick(&over.care, &self.care),
            help_said: pick(&over.help_said, &self.help_said),
            help_way: self.help_way,
        }
    }
}

/// The container of the answer audio on `/ws/chat` and `/ws/voice`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AudioFormat {
    /// 16-bit PCM WAV at the voice's own rate.
    #[default]
    Wav,
    /// Ogg Opus (RFC 7845), 24 kbit/s: a tenth of the WAV's bytes, and what `decodeAudioData` plays.
    Opus,
}

impl AudioFormat {
    /// Its name in `audio` events.
    pub fn name(self) -> &'static str {
        match self {
            Self::Wav => "wav",
            Self::Opus => "opus",
        }
    }
}

/// What the microphone's binary frames hold on `/ws/voice`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum InputFormat {
    /// 16-bit little-endian PCM, mono.
    #[default]
    Pcm,
    /// Raw Opus packets, mono, one per frame.
    Opus,
}

/// What a turn sends to the connection: a JSON event, or the binary frame that follows an `audio` event.
#[derive(Debug)]
pub enum Out {
    /// A JSON event.
    Event(ServerEvent),
    /// Audio bytes (WAV).
    Audio(Vec<u8>),
}

/// The sending side of a turn; an error means the connection or the turn is gone, and the turn stops.
pub type Tx = tokio::sync::mpsc::Sender<Out>;

/// An event the server sends on `/ws/chat` and `/ws/voice` (a JSON text frame with its `type`).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerEvent {
    /// `/ws/voice`: what was heard, before the answer; translated into the turn's language when it was
    /// detected in another.
    Transcript {
        text: String,
        language: String,
        /// The words as heard, when translated.
        #[serde(skip_serializing_if = "Option::is_none")]
        original: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        translated_to: Option<String>,
    },
    /// The turn was accepted.
    Ack {
        session_id: Option<String>,
        language: String,
    },
    /// One LLM token (only with `stream`).
    Token { text: String },
    /// A short reassuring phrase while the first token is late; not part of the answer.
    Filler { text: String },
    /// A friendly system message (a time-sensitive question without web search).
    Notice { text: String },
    /// The structured result of the answer.
    Semantic(Box<Semantic>),
    /// A call for help was heard (`/ws/voice`) or typed (`/ws/chat`). The gateway asks (the question is also
    /// spoken) whether to alert the contacts; the next utterance or text answers. On a voice channel, without
    /// an answer within `seconds` the alarm goes out; after a typed call (`seconds` 0) only a yes sends it.
    HelpAsked {
        text: String,
        seconds: u64,
        /// The words that called for help, kept by the conversation for the contacts; not sent.
        #[serde(skip)]
        said: Option<String>,
    },
    /// What became of a call for help: `alerted`, `no_recipients`, `delivery_failed` or `cooldown`,
    /// as the help button answers, or `declined`; the message is also spoken.
    Help { status: String, message: String },
    /// Speech, followed by one binary frame (WAV, or Ogg Opus when asked). With `audio_stream` one per
    /// sentence, else one for the whole answer.
    Audio {
        /// Counts the audio of a turn from 0, filler included.
        seq: u64,
        /// `wav` or `opus`.
        format: &'static str,
        /// The sentence spoken (sentence-wise audio only).
        #[serde(skip_serializing_if = "Option::is_none")]
        text: Option<String>,
        /// The filler phrase, not the answer.
        filler: bool,
        /// The TTS provider that spoke.
        provider: Option<TtsId>,
        tts_fallback: bool,
    },
    /// The running turn was cancelled.
    Interrupted,
    /// `/ws/voice`: the person went on speaking `gap_ms` after their last word, so what they had said was half
    /// a question: its answer is cancelled (stop and drop its audio and text; nothing of it was stored or
    /// counted). The next `transcript` holds the whole question, which is answered once.
    Continued { gap_ms: u32 },
    /// The turn is over; always the last event of a turn.
    Done,
    /// A failure, with an HTTP-like status (422 for invalid requests, 403, 429, 502).
    Error {
        status: u16,
        code: &'static str,
        /// A short fixed text of the problem (`no speech recognized`, or the status's reason).
        error: &'static str,
        /// What to tell the person.
        message: String,
    },
}

/// The `error` event of an API error: the HTTP-like status, the error code and the message.
pub fn error_event(err: &ApiError) -> ServerEvent {
    let (status, code) = err.status_and_code();
    // On a WebSocket every invalid request is a 422 event (the specification's table); REST keeps 400 for
    // an empty body.
    let status = if status == StatusCode::BAD_REQUEST {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        status
    };
    if let ApiError::Internal(cause) = err {
        tracing::error!(%cause, "internal error in a WebSocket turn");
    }
    ServerEvent::Error {
        status: status.as_u16(),
        code,
        error: status.canonical_reason().unwrap_or("error"),
        message: err.to_string(),
    }
}
