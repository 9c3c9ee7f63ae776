//! The events the gateway sends, as types: their names and fields as Wyoming's reference library writes
//! them (`wyoming/asr.py`, `audio.py`, `handle.py`, `error.py`, `ping.py`). An [`Event`] is made from one; the
//! data's keys come out sorted either way, so the bytes are those of the hand-built JSON before.

use serde::Serialize;
use serde_json::Value;

use super::codec::Event;
use super::info::Info;

/// An event the gateway sends.
#[derive(Debug, Serialize)]
#[serde(tag = "type", content = "data", rename_all = "kebab-case")]
pub enum Sent<'a> {
    /// The answer to `ping`, with its text.
    Pong { text: Option<&'a Value> },
    /// A refused request: its message and the contract's error code.
    Error { text: String, code: &'static str },
    /// What was heard, in which language.
    Transcript { text: String, language: String },
    /// The conversation's answer.
    Handled { text: String, context: Option<Context> },
    /// The conversation could not answer: why.
    NotHandled { text: String, context: Option<Context> },
    /// Speech begins, in this format.
    AudioStart(Format),
    /// A piece of speech (its samples are the payload), and where it starts in ms.
    AudioChunk {
        #[serde(flatten)]
        format: Format,
        timestamp: u64,
    },
    /// Speech ends.
    AudioStop { timestamp: Option<u64> },
    /// What the gateway offers (`describe`).
    Info(Box<Info>),
}

/// The format of speech: 16-bit samples.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Format {
    pub rate: u32,
    pub width: u16,
    pub channels: u16,
}

impl Format {
    /// Mono 16-bit samples at `rate`.
    pub fn mono(rate: u32) -> Self {
        Self {
            rate,
            width: 2,
            channels: 1,
        }
    }
}

/// The conversation a `handled` belongs to, for Home Assistant to continue it.
#[derive(Debug, Clone, Serialize)]
pub struct Context {
    pub conversation_id: String,
}

impl From<Sent<'_>> for Event {
    fn from(sent: Sent<'_>) -> Self {
        // An enum of structs with a tag serializes as an object with `type` and (but for units) `data`.
        let mut tagged = match serde_json::to_value(&sent) {
            Ok(Value::Object(tagged)) => tagged,
            _ => serde_json::Map::new(),
        };
        let kind = tagged
            .remove("type")
            .and_then(|t| t.as_str().map(String::from))
            .unwrap_or_default();
        match tagged.remove("data") {
            Some(data) => Event::with(&kind, data),
            None => Event::new(&kind),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_carry_wyomings_names_and_fields() {
        let chunk = Event::from(Sent::AudioChunk {
            format: Format::mono(22_050),
            timestamp: 40,
        });
        assert_eq!(chunk.kind, "audio-chunk");
        assert_eq!(
            Value::Object(chunk.data),
            serde_json::json!({"rate": 22050, "width": 2, "channels": 1, "timestamp": 40})
        );
        let handled = Event::from(Sent::NotHandled {
            text: "no".into(),
            context: None,
        });
        assert_eq!(handled.kind, "not-handled");
        assert_eq!(
            Value::Object(handled.data),
            serde_json::json!({"text": "no", "context": null})
        );
        assert_eq!(Event::from(Sent::AudioStop { timestamp: None }).kind, "audio-stop");
    }
}
