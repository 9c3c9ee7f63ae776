//! The client's events of OpenAI's Realtime protocol that the gateway takes, read tolerantly: unknown fields are
//! ignored, the GA and the older beta names of session fields both work, and a field of another type than
//! expected counts as absent (as an unknown field would), so that a client of a newer protocol version still
//! gets its session. An event of an unknown `type`, or one that is not JSON, is an `invalid_event`.

use serde::de::{DeserializeOwned, Deserializer};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

/// A client event.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(tag = "type")]
#[schema(as = RealtimeClientEvent)]
pub enum ClientEvent {
    /// `session.update`: the session's settings.
    #[serde(rename = "session.update")]
    SessionUpdate {
        /// The settings to change; those not given keep their value.
        #[serde(default, deserialize_with = "lenient")]
        session: Option<Box<SessionUpdate>>,
    },
    /// `input_audio_buffer.append`: base64 PCM16 at 24 kHz.
    #[serde(rename = "input_audio_buffer.append")]
    Append {
        /// The audio, base64.
        audio: String,
    },
    /// `input_audio_buffer.commit`: the buffer becomes a user message.
    #[serde(rename = "input_audio_buffer.commit")]
    Commit,
    /// `input_audio_buffer.clear`.
    #[serde(rename = "input_audio_buffer.clear")]
    Clear,
    /// `conversation.item.create`: a user message as text.
    #[serde(rename = "conversation.item.create")]
    ItemCreate {
        /// The message.
        #[serde(default, deserialize_with = "lenient")]
        item: Option<NewItem>,
    },
    /// `response.create`: answer the conversation.
    #[serde(rename = "response.create")]
    ResponseCreate,
    /// `response.cancel`: stop the running answer.
    #[serde(rename = "response.cancel")]
    ResponseCancel,
    /// `conversation.item.truncate`: the listener heard an answer's audio only up to `audio_end_ms`.
    #[serde(rename = "conversation.item.truncate")]
    Truncate {
        /// The assistant's item.
        item_id: String,
        /// Its content part.
        #[serde(default)]
        content_index: u32,
        /// Where the listener stopped hearing it, in ms of its audio.
        audio_end_ms: u64,
    },
}

/// The `session` of a `session.update`, in GA form (`audio.input…`, `output_modalities`) or beta form
/// (`input_audio_format`, `turn_detection`, `voice`, `modalities` at the top); where both are given, GA wins.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(as = RealtimeSessionUpdate)]
pub struct SessionUpdate {
    /// Added to the gateway's system message; empty removes it.
    #[serde(default, deserialize_with = "lenient")]
    pub instructions: Option<String>,
    /// GA: `["text"]` for answers without audio, `["audio"]`.
    #[serde(default, deserialize_with = "lenient")]
    pub output_modalities: Option<Vec<String>>,
    /// Beta: `["text"]`, or with `audio`.
    #[serde(default, deserialize_with = "lenient")]
    pub modalities: Option<Vec<String>>,
    /// GA: the audio settings.
    #[serde(default, deserialize_with = "lenient")]
    pub audio: Option<AudioUpdate>,
    /// Beta: the input format, `pcm16`, `g711_ulaw` or `g711_alaw`.
    #[serde(default, deserialize_with = "lenient")]
    pub input_audio_format: Option<AudioFormat>,
    /// Beta: the answer's audio format, as the input's.
    #[serde(default, deserialize_with = "lenient")]
    pub output_audio_format: Option<AudioFormat>,
    /// Beta: how turns end; null: by the client's commit.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<TurnDetection>)]
    pub turn_detection: Option<Detection>,
    /// Beta: the voice.
    #[serde(default, deserialize_with = "lenient")]
    pub voice: Option<String>,
    /// Beta: the transcription of the input.
    #[serde(default, deserialize_with = "lenient")]
    pub input_audio_transcription: Option<Transcription>,
}

/// GA: `session.audio`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(as = RealtimeAudioUpdate)]
pub struct AudioUpdate {
    /// The user's audio.
    #[serde(default, deserialize_with = "lenient")]
    pub input: Option<InputUpdate>,
    /// The answer's audio.
    #[serde(default, deserialize_with = "lenient")]
    pub output: Option<OutputUpdate>,
}

/// GA: `session.audio.input`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(as = RealtimeInputUpdate)]
pub struct InputUpdate {
    /// `{"type": "audio/pcm", "rate": 24000}`.
    #[serde(default, deserialize_with = "lenient")]
    pub format: Option<AudioFormat>,
    /// How turns end; null: by the client's commit.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<TurnDetection>)]
    pub turn_detection: Option<Detection>,
    /// The transcription of the input.
    #[serde(default, deserialize_with = "lenient")]
    pub transcription: Option<Transcription>,
}

/// GA: `session.audio.output`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(as = RealtimeOutputUpdate)]
pub struct OutputUpdate {
    /// `{"type": "audio/pcm", "rate": 24000}`.
    #[serde(default, deserialize_with = "lenient")]
    pub format: Option<AudioFormat>,
    /// A voice of the user's TTS engine.
    #[serde(default, deserialize_with = "lenient")]
    pub voice: Option<String>,
}

/// The transcription settings; only the language is used (the user's STT engine transcribes).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(as = RealtimeTranscription)]
pub struct Transcription {
    /// The language spoken.
    #[serde(default, deserialize_with = "lenient")]
    pub language: Option<String>,
}

/// An audio format: GA's object or beta's name. Only PCM16 at 24 kHz is taken.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(untagged)]
#[schema(as = RealtimeAudioFormat)]
pub enum AudioFormat {
    /// Beta: `pcm16`.
    Name(String),
    /// GA: `{"type": "audio/pcm", "rate": 24000}`, `{"type": "audio/pcmu"}` or `{"type": "audio/pcma"}`.
    Spec {
        /// The sample rate; absent is 24000.
        #[serde(default, deserialize_with = "lenient", skip_serializing_if = "Option::is_none")]
        rate: Option<u64>,
        /// `audio/pcm`.
        #[serde(
            rename = "type",
            default,
            deserialize_with = "lenient",
            skip_serializing_if = "Option::is_none"
        )]
        kind: Option<String>,
    },
    /// Anything else, kept only to be quoted back in the refusal.
    Other(Value),
}

impl AudioFormat {
    /// Whether this is PCM16 at `rate`.
    pub fn is_pcm16(&self, rate: u32) -> bool {
        match self {
            Self::Name(name) => name == "pcm16",
            Self::Spec { rate: given, kind } => {
                kind.as_deref() == Some("audio/pcm") && given.is_none_or(|r| r == u64::from(rate))
            }
            Self::Other(_) => false,
        }
    }
}

impl std::fmt::Display for AudioFormat {
    /// The format as the client sent it, in JSON.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&serde_json::to_string(self).map_err(|_| std::fmt::Error)?)
    }
}

/// `turn_detection`: null turns the gateway's detector off (the client commits); an object turns it on.
#[derive(Debug)]
pub enum Detection {
    /// `null`.
    Off,
    /// `{"type": "server_vad", …}`.
    On(TurnDetection),
}

impl<'de> Deserialize<'de> for Detection {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match Value::deserialize(deserializer)? {
            Value::Null => Self::Off,
            // Read as the gateway always has: a value that is not an object is a detector of no named type.
            value => Self::On(TurnDetection::deserialize(value).unwrap_or_default()),
        })
    }
}

/// The settings of a turn detector.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(as = RealtimeTurnDetection)]
pub struct TurnDetection {
    /// `server_vad` (the silence rule) or `semantic_vad` (Smart Turn); absent is `server_vad`.
    #[serde(rename = "type", default, deserialize_with = "lenient")]
    pub kind: Option<String>,
    /// Silence that ends a turn, clamped to 100 ms … 10 s.
    #[serde(default, deserialize_with = "lenient")]
    pub silence_duration_ms: Option<u64>,
    /// `semantic_vad`: how soon a pause ends the turn (`low`, `medium`, `high`, `auto`).
    #[serde(default, deserialize_with = "lenient")]
    pub eagerness: Option<String>,
    /// Answer by itself when a turn ends (default true).
    #[serde(default, deserialize_with = "lenient")]
    pub create_response: Option<bool>,
    /// New speech interrupts a running answer (default true).
    #[serde(default, deserialize_with = "lenient")]
    pub interrupt_response: Option<bool>,
}

/// The `item` of a `conversation.item.create`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(as = RealtimeNewItem)]
pub struct NewItem {
    /// `message`.
    #[serde(rename = "type", default, deserialize_with = "lenient")]
    pub kind: Option<String>,
    /// `user`.
    #[serde(default, deserialize_with = "lenient")]
    pub role: Option<String>,
    /// Its parts; `input_text` (or `text`) parts are taken, others ignored.
    #[serde(default, deserialize_with = "lenient_list")]
    pub content: Vec<InputPart>,
}

/// A part of a new item.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = RealtimeInputPart)]
pub struct InputPart {
    /// `input_text`.
    #[serde(rename = "type", default, deserialize_with = "lenient")]
    pub kind: Option<String>,
    /// The text.
    #[serde(default, deserialize_with = "lenient")]
    pub text: Option<String>,
}

impl NewItem {
    /// The text of a user message (its `input_text` parts joined).
    pub fn user_text(&self) -> Result<String, String> {
        if self.kind.as_deref() != Some("message") || self.role.as_deref() != Some("user") {
            return Err("only user messages can be added (type message, role user)".into());
        }
        let texts: Vec<&str> = self
            .content
            .iter()
            .filter(|p| matches!(p.kind.as_deref(), Some("input_text" | "text")))
            .filter_map(|p| p.text.as_deref())
            .collect();
        let text = texts.join("\n");
        if text.trim().is_empty() {
            return Err("the message has no input_text".into());
        }
        Ok(text)
    }
}

/// A field as the gateway reads it: null, or a value of another type than expected, is absent.
fn lenient<'de, D: Deserializer<'de>, T: DeserializeOwned>(deserializer: D) -> Result<Option<T>, D::Error> {
    Ok(match Value::deserialize(deserializer)? {
        Value::Null => None,
        value => T::deserialize(value).ok(),
    })
}

/// A list whose elements of another type than expected are left out; not a list is an empty one.
fn lenient_list<'de, D: Deserializer<'de>, T: DeserializeOwned>(deserializer: D) -> Result<Vec<T>, D::Error> {
    Ok(match Value::deserialize(deserializer)? {
        Value::Array(values) => values.into_iter().filter_map(|v| T::deserialize(v).ok()).collect(),
        _ => Vec::new(),
    })
}

/// A field whose null means something (`turn_detection: null`): given is `Some`, even when null.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(deserializer: D) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn event(value: Value) -> ClientEvent {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn fields_of_another_type_are_ignored_and_null_detection_is_kept() {
        let ClientEvent::SessionUpdate { session: Some(session) } = event(json!({"type": "session.update",
            "session": {"instructions": 5, "voice": "alloy", "turn_detection": null, "modalities": "text"}}))
        else {
            panic!("a session update");
        };
        assert_eq!(session.instructions, None);
        assert_eq!(session.voice.as_deref(), Some("alloy"));
        assert!(matches!(session.turn_detection, Some(Detection::Off)));
        assert_eq!(session.modalities, None);
        assert!(matches!(
            event(json!({"type": "session.update", "session": "x"})),
            ClientEvent::SessionUpdate { session: None }
        ));
    }

    #[test]
    fn a_user_message_is_its_text_parts() {
        let item: NewItem = serde_json::from_value(json!({"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "Hello"}, "odd", {"type": "input_image"}, {"type": "text", "text": "there"}]}))
        .unwrap();
        assert_eq!(item.user_text().unwrap(), "Hello\nthere");
        assert!(NewItem::default().user_text().is_err());
    }

    #[test]
    fn audio_formats_other_than_24_khz_pcm16_are_told_apart_and_quoted() {
        let format = |v: Value| serde_json::from_value::<AudioFormat>(v).unwrap();
        assert!(format(json!("pcm16")).is_pcm16(24_000));
        assert!(format(json!({"type": "audio/pcm"})).is_pcm16(24_000));
        assert!(!format(json!({"type": "audio/pcm", "rate": 16000})).is_pcm16(24_000));
        assert!(!format(json!(7)).is_pcm16(24_000));
        assert_eq!(
            format(json!({"type": "audio/pcm", "rate": 16000})).to_string(),
            r#"{"rate":16000,"type":"audio/pcm"}"#
        );
        assert_eq!(format(json!("g711_ulaw")).to_string(), r#""g711_ulaw""#);
    }
}
