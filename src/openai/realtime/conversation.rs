//! The conversation as the Realtime events show it: its items (the user's and the assistant's messages and
//! their parts), and the response object of an answer.

use serde::Serialize;
use utoipa::ToSchema;

/// Where in an answer a delta or part belongs: the answer's one item and its one content part.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = RealtimeContentAt)]
pub struct At {
    /// The answer.
    pub response_id: String,
    /// The assistant's item.
    pub item_id: String,
    /// Always 0.
    pub output_index: u32,
    /// Always 0.
    pub content_index: u32,
}

impl At {
    /// The one content part of the answer `response_id`, item `item_id`.
    pub fn part(response_id: &str, item_id: &str) -> Self {
        Self {
            response_id: response_id.to_string(),
            item_id: item_id.to_string(),
            output_index: 0,
            content_index: 0,
        }
    }
}

/// A message of the conversation.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = RealtimeItem)]
pub struct Item {
    /// `item_…`.
    pub id: String,
    /// `realtime.item`.
    pub object: &'static str,
    /// `message`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Who speaks.
    pub role: Role,
    /// Whether the message is complete.
    pub status: ItemStatus,
    /// Its parts.
    pub content: Vec<ContentPart>,
}

impl Item {
    /// A message item of the conversation.
    pub fn message(id: &str, role: Role, status: ItemStatus, content: Vec<ContentPart>) -> Self {
        Self {
            id: id.to_string(),
            object: "realtime.item",
            kind: "message",
            role,
            status,
            content,
        }
    }
}

/// Who speaks a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = RealtimeRole)]
pub enum Role {
    /// The user, by voice or text.
    User,
    /// The gateway's answer.
    Assistant,
    /// What the gateway tells the person beside the answer (the model does not speak their language, no web
    /// search, another voice), as the browser shows it.
    System,
}

/// Whether a message is complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = RealtimeItemStatus)]
pub enum ItemStatus {
    /// The answer is being given.
    InProgress,
    /// Complete.
    Completed,
}

/// A part of a message, told apart by `type`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
#[schema(as = RealtimeContentPart)]
pub enum ContentPart {
    /// The user's typed text.
    InputText {
        /// The text.
        text: String,
    },
    /// The user's speech; its transcript follows in its own event.
    InputAudio {
        /// Always null here.
        transcript: Option<String>,
    },
    /// A text-only answer.
    Text {
        /// The answer's text.
        text: String,
    },
    /// A spoken answer.
    Audio {
        /// What is spoken.
        transcript: String,
    },
}

/// The response object of `response.created` and `response.done`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = RealtimeResponse)]
pub struct ResponseObject {
    /// `resp_…`.
    pub id: String,
    /// `realtime.response`.
    pub object: &'static str,
    /// Where the answer is.
    pub status: ResponseStatus,
    /// The assistant's item, once complete.
    pub output: Vec<Item>,
    /// `["text"]` or `["audio"]`.
    pub output_modalities: Vec<Modality>,
    /// Why a cancelled or failed answer ended; null otherwise.
    pub status_details: Option<StatusDetails>,
}

impl ResponseObject {
    /// The answer `id` in `status`, with its output.
    pub fn new(id: &str, status: ResponseStatus, output: Vec<Item>, text_only: bool) -> Self {
        let reason = match status {
            ResponseStatus::InProgress | ResponseStatus::Completed => None,
            ResponseStatus::Cancelled => Some("client_cancelled"),
            ResponseStatus::Failed => Some("error"),
        };
        Self {
            id: id.to_string(),
            object: "realtime.response",
            status,
            output,
            output_modalities: vec![Modality::of(text_only)],
            status_details: reason.map(|reason| StatusDetails { kind: status, reason }),
        }
    }
}

/// Where an answer is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = RealtimeResponseStatus)]
pub enum ResponseStatus {
    /// Being given.
    InProgress,
    /// Given in full.
    Completed,
    /// Stopped by the client or by new speech.
    Cancelled,
    /// Ended by an error (an `error` event came before).
    Failed,
}

/// Why an answer ended early.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = RealtimeStatusDetails)]
pub struct StatusDetails {
    /// The answer's status again.
    #[serde(rename = "type")]
    pub kind: ResponseStatus,
    /// `client_cancelled` or `error`.
    pub reason: &'static str,
}

/// What an answer consists of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = RealtimeModality)]
pub enum Modality {
    /// Text only.
    Text,
    /// Speech, with its transcript.
    Audio,
}

impl Modality {
    /// The output of a text-only or a spoken answer.
    pub fn of(text_only: bool) -> Self {
        if text_only { Self::Text } else { Self::Audio }
    }
}
