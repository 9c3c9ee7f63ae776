//! The server's events of OpenAI's Realtime protocol, as the gateway writes them: one enum tagged by `type`
//! (GA names), with the fields the SDKs read. A client of the beta protocol gets the same events, a few under
//! their older names ([`ServerEvent::beta_name`]).

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::conversation::{At, ContentPart, Item, ResponseObject};
use super::session_object::SessionObject;

/// A server event. On the wire each also carries its own `event_id` (`event_…`).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(tag = "type")]
#[schema(as = RealtimeServerEvent)]
pub enum ServerEvent {
    /// The session as it starts.
    #[serde(rename = "session.created")]
    SessionCreated {
        /// The session's settings.
        session: SessionObject,
    },
    /// The session after a `session.update`.
    #[serde(rename = "session.updated")]
    SessionUpdated {
        /// The session's settings.
        session: SessionObject,
    },
    /// A client event was refused, or the answer failed; the connection stays open.
    #[serde(rename = "error")]
    Error {
        /// What went wrong.
        error: ErrorDetail,
    },
    /// The input audio was dropped (`input_audio_buffer.clear`).
    #[serde(rename = "input_audio_buffer.cleared")]
    InputCleared,
    /// Server VAD heard speech begin.
    #[serde(rename = "input_audio_buffer.speech_started")]
    SpeechStarted {
        /// Where the speech began, in ms of the connection's input.
        audio_start_ms: u64,
        /// The item the speech will become.
        item_id: String,
    },
    /// Server VAD heard speech end.
    #[serde(rename = "input_audio_buffer.speech_stopped")]
    SpeechStopped {
        /// Where the speech ended, in ms of the connection's input.
        audio_end_ms: u64,
        /// The item the speech becomes.
        item_id: String,
    },
    /// The input audio became a user item.
    #[serde(rename = "input_audio_buffer.committed")]
    Committed {
        /// The new item.
        item_id: String,
        /// The item before it, if any.
        previous_item_id: Option<String>,
    },
    /// An answer was cut to what the listener heard (`conversation.item.truncate`).
    #[serde(rename = "conversation.item.truncated")]
    ItemTruncated {
        /// The assistant's item.
        item_id: String,
        /// Its content part (0).
        content_index: u32,
        /// Where the listener stopped hearing it, in ms of its audio.
        audio_end_ms: u64,
    },
    /// An item left the conversation: the half of a question the person went on with, and its answer.
    #[serde(rename = "conversation.item.deleted")]
    ItemDeleted {
        /// The item.
        item_id: String,
    },
    /// An item joined the conversation (GA).
    #[serde(rename = "conversation.item.added")]
    ItemAdded {
        /// The item.
        item: Item,
        /// The item before it, if any.
        previous_item_id: Option<String>,
    },
    /// An item joined the conversation (the beta protocol's name; sent to every client, as OpenAI does).
    #[serde(rename = "conversation.item.created")]
    ItemCreated {
        /// The item.
        item: Item,
        /// The item before it, if any.
        previous_item_id: Option<String>,
    },
    /// What the user said in a spoken item.
    #[serde(rename = "conversation.item.input_audio_transcription.completed")]
    TranscriptionCompleted {
        /// The spoken item.
        item_id: String,
        /// Always 0: the item's one part.
        content_index: u32,
        /// The words heard.
        transcript: String,
    },
    /// An answer began.
    #[serde(rename = "response.created")]
    ResponseCreated {
        /// The answer, `in_progress`.
        response: ResponseObject,
    },
    /// The answer's item began.
    #[serde(rename = "response.output_item.added")]
    OutputItemAdded {
        /// The answer.
        response_id: String,
        /// Always 0: an answer has one item.
        output_index: u32,
        /// The assistant's item, `in_progress`.
        item: Item,
    },
    /// The answer's content part began.
    #[serde(rename = "response.content_part.added")]
    ContentPartAdded {
        /// Where in the answer.
        #[serde(flatten)]
        at: At,
        /// The part, still empty.
        part: ContentPart,
    },
    /// Text of a text-only answer.
    #[serde(rename = "response.output_text.delta")]
    TextDelta {
        /// Where in the answer.
        #[serde(flatten)]
        at: At,
        /// The next text.
        delta: String,
    },
    /// The transcript of a spoken answer (beta: `response.audio_transcript.delta`).
    #[serde(rename = "response.output_audio_transcript.delta")]
    AudioTranscriptDelta {
        /// Where in the answer.
        #[serde(flatten)]
        at: At,
        /// The next text.
        delta: String,
    },
    /// A spoken sentence: base64 PCM16 at 24 kHz (beta: `response.audio.delta`).
    #[serde(rename = "response.output_audio.delta")]
    AudioDelta {
        /// Where in the answer.
        #[serde(flatten)]
        at: At,
        /// The audio, base64.
        delta: String,
    },
    /// The whole text of a text-only answer (beta: `response.text.done`).
    #[serde(rename = "response.output_text.done")]
    TextDone {
        /// Where in the answer.
        #[serde(flatten)]
        at: At,
        /// The whole text.
        text: String,
    },
    /// The answer's audio is over (beta: `response.audio.done`).
    #[serde(rename = "response.output_audio.done")]
    AudioDone {
        /// Where in the answer.
        #[serde(flatten)]
        at: At,
    },
    /// The whole transcript of a spoken answer (beta: `response.audio_transcript.done`).
    #[serde(rename = "response.output_audio_transcript.done")]
    AudioTranscriptDone {
        /// Where in the answer.
        #[serde(flatten)]
        at: At,
        /// The whole transcript.
        transcript: String,
    },
    /// The answer's content part is complete.
    #[serde(rename = "response.content_part.done")]
    ContentPartDone {
        /// Where in the answer.
        #[serde(flatten)]
        at: At,
        /// The whole part.
        part: ContentPart,
    },
    /// The answer's item is complete.
    #[serde(rename = "response.output_item.done")]
    OutputItemDone {
        /// The answer.
        response_id: String,
        /// Always 0: an answer has one item.
        output_index: u32,
        /// The assistant's item, `completed`.
        item: Item,
    },
    /// The answer is over: completed, cancelled or failed; always its last event.
    #[serde(rename = "response.done")]
    ResponseDone {
        /// The answer.
        response: ResponseObject,
    },
}

impl ServerEvent {
    /// The beta protocol's name of this event, where it differs from the GA name it is tagged with.
    pub fn beta_name(&self) -> Option<&'static str> {
        Some(match self {
            Self::AudioDelta { .. } => "response.audio.delta",
            Self::AudioDone { .. } => "response.audio.done",
            Self::AudioTranscriptDelta { .. } => "response.audio_transcript.delta",
            Self::AudioTranscriptDone { .. } => "response.audio_transcript.done",
            Self::TextDelta { .. } => "response.text.delta",
            Self::TextDone { .. } => "response.text.done",
            _ => return None,
        })
    }

    /// The `error` event: OpenAI's error type, the gateway's code and message.
    pub fn error(kind: ErrorType, code: &'static str, message: impl Into<String>) -> Self {
        Self::Error {
            error: ErrorDetail {
                kind,
                code,
                message: message.into(),
                param: None,
                event_id: None,
            },
        }
    }

    /// The event as one text frame, with a new `event_id`, under its beta name for a client of the beta
    /// protocol.
    pub fn to_frame(&self, beta: bool) -> serde_json::Result<String> {
        let sent = Sent {
            event_id: id("event_"),
            event: self,
        };
        match self.beta_name().filter(|_| beta) {
            // The tag is the GA name; only these few events are renamed, so the finished object is patched.
            Some(name) => {
                let mut value = serde_json::to_value(&sent)?;
                value["type"] = Value::from(name);
                serde_json::to_string(&value)
            }
            None => serde_json::to_string(&sent),
        }
    }
}

/// An event on the wire: every event carries its own id.
#[derive(Serialize)]
struct Sent<'a> {
    event_id: String,
    #[serde(flatten)]
    event: &'a ServerEvent,
}

/// The `error` of an `error` event.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = RealtimeError)]
pub struct ErrorDetail {
    /// OpenAI's error type.
    #[serde(rename = "type")]
    pub kind: ErrorType,
    /// The gateway's code (`invalid_event`, `input_audio_buffer_commit_empty`, `provider_failed`, …).
    pub code: &'static str,
    /// A text for people.
    pub message: String,
    /// Always null: no single field is named.
    pub param: Option<String>,
    /// Always null: the client event at fault is not named.
    pub event_id: Option<String>,
}

/// OpenAI's error types, by which the SDKs tell failures apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = RealtimeErrorType)]
pub enum ErrorType {
    /// The client's event or input is wrong.
    InvalidRequestError,
    /// The daily quota is used up.
    InsufficientQuota,
    /// The gateway or a provider failed.
    ServerError,
}

impl ErrorType {
    /// The type of a failed turn's HTTP-like status.
    pub fn of_status(status: u16) -> Self {
        match status {
            429 => Self::InsufficientQuota,
            s if s >= 500 => Self::ServerError,
            _ => Self::InvalidRequestError,
        }
    }
}

/// A new id with a prefix (`event_`, `item_`, `resp_`, `sess_`).
pub fn id(prefix: &str) -> String {
    format!("{prefix}{}", uuid::Uuid::now_v7().simple())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::openai::realtime::conversation::{ItemStatus, ResponseStatus, Role};

    fn sent(event: &ServerEvent, beta: bool) -> Value {
        serde_json::from_str(&event.to_frame(beta).unwrap()).unwrap()
    }

    #[test]
    fn an_event_carries_its_type_an_id_and_its_fields() {
        let delta = ServerEvent::AudioDelta {
            at: At::part("resp_1", "item_1"),
            delta: "AAAA".into(),
        };
        let mut ga = sent(&delta, false);
        assert!(ga["event_id"].as_str().unwrap().starts_with("event_"));
        ga["event_id"] = Value::Null;
        assert_eq!(
            ga,
            json!({"type": "response.output_audio.delta", "event_id": null, "response_id": "resp_1",
                "item_id": "item_1", "output_index": 0, "content_index": 0, "delta": "AAAA"})
        );
        assert_eq!(sent(&delta, true)["type"], "response.audio.delta");
        let cleared = sent(&ServerEvent::InputCleared, true);
        assert_eq!(cleared["type"], "input_audio_buffer.cleared", "not renamed");
    }

    #[test]
    fn errors_and_responses_have_openais_shape() {
        let mut error = sent(
            &ServerEvent::error(ErrorType::InvalidRequestError, "invalid_event", "no"),
            false,
        );
        error["event_id"] = Value::Null;
        assert_eq!(
            error,
            json!({"type": "error", "event_id": null, "error": {"type": "invalid_request_error",
                "code": "invalid_event", "message": "no", "param": null, "event_id": null}})
        );
        let cancelled = ResponseObject::new("resp_1", ResponseStatus::Cancelled, Vec::new(), true);
        assert_eq!(
            serde_json::to_value(cancelled).unwrap(),
            json!({"id": "resp_1", "object": "realtime.response", "status": "cancelled", "output": [],
                "output_modalities": ["text"], "status_details": {"type": "cancelled", "reason": "client_cancelled"}})
        );
        let item = Item::message(
            "item_1",
            Role::User,
            ItemStatus::Completed,
            vec![ContentPart::InputAudio { transcript: None }],
        );
        assert_eq!(
            serde_json::to_value(item).unwrap(),
            json!({"id": "item_1", "object": "realtime.item", "type": "message", "role": "user",
                "status": "completed", "content": [{"type": "input_audio", "transcript": null}]})
        );
    }
}
