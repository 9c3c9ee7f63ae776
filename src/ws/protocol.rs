//! Frames of the WebSocket channels: the client's commands. The server's events and the options are the voice
//! core's ([`crate::voice::events`]).

use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::error::ApiError;
pub use crate::voice::events::Options;

/// Longest JSON frame a client may send.
pub const MAX_TEXT_FRAME: usize = 64 * 1024;
/// Longest binary (audio) frame a client may send: one second of 48 kHz 16-bit PCM is 96 KiB.
pub const MAX_BINARY_FRAME: usize = 1024 * 1024;

/// A JSON frame from the client, told apart by `type`; a frame without one is a chat message.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientFrame {
    /// `/ws/chat`: a message to answer (`type` `chat`, `message` or none).
    #[serde(alias = "message", alias = "")]
    Chat(ChatFrame),
    /// `/ws/voice`: start of an utterance (options kept for the following ones).
    Start(Options),
    /// `/ws/voice`: end of an utterance; transcribe and answer (these options win over the start's).
    End(Options),
    /// Cancel the running turn.
    Interrupt,
    /// The playback of the last answer stopped (the person interrupted it): `seq` is the last audio frame
    /// played in full (none: nothing was). The stored answer keeps the sentences heard.
    Heard {
        /// The last `seq` played in full.
        #[serde(default)]
        seq: Option<u64>,
    },
    /// The audio frame `seq` of the answer played to its end (sent as each ends): the person listened to it,
    /// so speech now is an interruption, never the rest of the question (a phone line's marks say the same).
    Played {
        /// The frame played in full.
        seq: u64,
    },
    /// The page's buttons answered the help question (asked by voice, or after a typed call for help): a yes
    /// alerts the contacts as a spoken yes would, a no calls it off.
    HelpAnswer {
        /// Yes: alert the contacts (without it, a no).
        #[serde(default)]
        yes: bool,
    },
    /// The page showed (or the voice client spoke) a pushed reminder or check-in question: its `receipt`. Only
    /// this counts as delivered; without it the gateway tries the person's next channel.
    Shown {
        /// The event's `receipt`.
        #[serde(default)]
        receipt: String,
    },
}

/// The `type`s [`ClientFrame`] takes; another is refused by name before the frame is read.
const FRAME_TYPES: [&str; 10] = [
    "chat",
    "message",
    "",
    "start",
    "end",
    "interrupt",
    "heard",
    "played",
    "help_answer",
    "shown",
];

/// A chat message: `{"text", options}`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ChatFrame {
    /// The user's words.
    pub text: String,
    /// Its options.
    #[serde(flatten)]
    pub options: Options,
}

/// Reads a JSON frame; the error says what is wrong, for an error event.
pub fn parse(text: &str) -> Result<ClientFrame, ApiError> {
    /// The frame's `type` alone; one that is not a string is no type (a chat message), as it always was.
    #[derive(Deserialize)]
    struct Kind {
        #[serde(rename = "type", default)]
        kind: Value,
    }
    let Kind { kind } =
        serde_json::from_str(text).map_err(|e| ApiError::Validation(format!("frame is not JSON: {e}")))?;
    let frame = match kind.as_str() {
        None => serde_json::from_str::<ChatFrame>(text).map(ClientFrame::Chat),
        Some(kind) if FRAME_TYPES.contains(&kind) => serde_json::from_str::<ClientFrame>(text),
        Some(other) => return Err(ApiError::invalid("type", format!("unknown frame type {other:?}"))),
    };
    frame.map_err(|e| ApiError::Validation(format!("frame: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_read_by_type() {
        assert!(matches!(parse(r#"{"type":"interrupt"}"#), Ok(ClientFrame::Interrupt)));
        let Ok(ClientFrame::Chat(ChatFrame { text, options })) = parse(r#"{"text":"hi","stream":true}"#) else {
            panic!("chat frame expected");
        };
        assert_eq!(text, "hi");
        assert_eq!(options.stream, Some(true));
        for kind in FRAME_TYPES {
            let frame = format!(r#"{{"type":"{kind}","text":"hi","seq":0}}"#);
            assert!(parse(&frame).is_ok(), "{frame}");
        }
        assert!(matches!(
            parse(r#"{"type":"message","text":"hi","language":"de"}"#),
            Ok(ClientFrame::Chat(ChatFrame { options, .. })) if options.turn.language.as_deref() == Some("de")
        ));
        assert!(parse(r#"{"type":"dance"}"#).is_err());
        assert!(parse("not json").is_err());
        assert!(parse(r#"{"text": 5}"#).is_err());
        assert!(parse(r#"{"type":"start","vad":"yes"}"#).is_err());
        assert!(matches!(
            parse(r#"{"type":"played","seq":3}"#),
            Ok(ClientFrame::Played { seq: 3 })
        ));
        assert!(parse(r#"{"type":"played"}"#).is_err(), "a played frame names its piece");
        assert!(parse(r#"{"type":"played","seq":-1}"#).is_err());
    }

    #[test]
    fn the_end_frame_wins_over_the_start_frame() {
        let Ok(ClientFrame::Start(start)) = parse(r#"{"type":"start","language":"de","voice":"de","vad":true}"#) else {
            panic!("start frame expected");
        };
        let Ok(ClientFrame::End(end)) = parse(r#"{"type":"end","llm_provider":"cloud","language":"en"}"#) else {
            panic!("end frame expected");
        };
        let merged = start.merged(&end);
        assert_eq!(merged.turn.language.as_deref(), Some("en"));
        assert_eq!(merged.turn.voice.as_deref(), Some("de"));
        assert_eq!(
            merged.turn.provider.as_deref(),
            Some("cloud"),
            "llm_provider is the provider"
        );
        assert_eq!(merged.vad, Some(true));
    }
}
