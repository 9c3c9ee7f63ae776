//! The events of OpenAI's Realtime protocol that the gateway speaks: the client's, read tolerantly (unknown
//! fields are ignored, the GA and the older beta names of session fields both work), and the server's, written
//! with the fields the SDKs read.

use serde::Deserialize;
use serde_json::{Value, json};

/// A client event.
#[derive(Debug, Deserialize)]
#[serde(tag = "type")]
pub enum ClientEvent {
    /// `session.update`: the session's settings.
    #[serde(rename = "session.update")]
    SessionUpdate {
        #[serde(default)]
        session: Value,
    },
    /// `input_audio_buffer.append`: base64 PCM16.
    #[serde(rename = "input_audio_buffer.append")]
    Append { audio: String },
    /// `input_audio_buffer.commit`: the buffer becomes a user message.
    #[serde(rename = "input_audio_buffer.commit")]
    Commit,
    /// `input_audio_buffer.clear`.
    #[serde(rename = "input_audio_buffer.clear")]
    Clear,
    /// `conversation.item.create`: a user message as text.
    #[serde(rename = "conversation.item.create")]
    ItemCreate {
        #[serde(default)]
        item: Value,
    },
    /// `response.create`: answer the conversation.
    #[serde(rename = "response.create")]
    ResponseCreate,
    /// `response.cancel`: stop the running answer.
    #[serde(rename = "response.cancel")]
    ResponseCancel,
}

/// The session's settings the gateway uses.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The model as named at the handshake (`?model=`).
    pub model: String,
    /// Added to the gateway's system message.
    pub instructions: Option<String>,
    /// `["text"]`: answers without audio.
    pub text_only: bool,
    /// Turns end by the gateway's voice detector (`server_vad`); `None` (`turn_detection: null`): by commit.
    pub server_vad: Option<ServerVad>,
    /// A voice of the user's TTS engine (OpenAI's names are used by the `openai` engine only).
    pub voice: Option<String>,
    /// The language spoken (`transcription.language`).
    pub language: Option<String>,
}

/// `turn_detection` of type `server_vad`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerVad {
    /// Silence that ends a turn; `None`: the gateway's `VAD_SILENCE_MS`.
    pub silence_ms: Option<u32>,
    /// Answer by itself when a turn ends (`create_response`, default true).
    pub create_response: bool,
    /// New speech interrupts a running answer (`interrupt_response`, default true).
    pub interrupt_response: bool,
}

impl Config {
    /// A new session's settings: audio answers, server VAD, as OpenAI starts a session.
    pub fn new(model: String) -> Self {
        Self {
            model,
            instructions: None,
            text_only: false,
            server_vad: Some(ServerVad {
                silence_ms: None,
                create_response: true,
                interrupt_response: true,
            }),
            voice: None,
            language: None,
        }
    }

    /// Applies a `session.update`; a field not given keeps its value. An audio format other than 24 kHz PCM16
    /// or a detector other than `server_vad` is refused, and then nothing changes.
    pub fn update(&mut self, session: &Value) -> Result<(), String> {
        let mut next = self.clone();
        next.apply(session)?;
        *self = next;
        Ok(())
    }

    fn apply(&mut self, session: &Value) -> Result<(), String> {
        let input = &session["audio"]["input"];
        for format in [
            &input["format"],
            &session["input_audio_format"],
            &session["audio"]["output"]["format"],
        ] {
            check_format(format)?;
        }
        if let Some(text) = session["instructions"].as_str() {
            self.instructions = Some(text.to_string()).filter(|t| !t.trim().is_empty());
        }
        let modalities = session.get("output_modalities").or_else(|| session.get("modalities"));
        if let Some(list) = modalities.and_then(Value::as_array) {
            self.text_only = !list.iter().any(|m| m == "audio");
        }
        let detection = input.get("turn_detection").or_else(|| session.get("turn_detection"));
        match detection {
            None => {}
            Some(Value::Null) => self.server_vad = None,
            Some(d) if d["type"] == "server_vad" || d["type"] == "semantic_vad" || d.get("type").is_none() => {
                let flag = |name: &str| d[name].as_bool().unwrap_or(true);
                let silence = d["silence_duration_ms"].as_u64().map(|ms| ms.clamp(100, 10_000) as u32);
                self.server_vad = Some(ServerVad {
                    silence_ms: silence,
                    create_response: flag("create_response"),
                    interrupt_response: flag("interrupt_response"),
                });
            }
            Some(d) => {
                return Err(format!(
                    "turn_detection {} is not supported; use server_vad or null",
                    d["type"]
                ));
            }
        }
        let voice = session["audio"]["output"]["voice"]
            .as_str()
            .or_else(|| session["voice"].as_str());
        if let Some(voice) = voice {
            self.voice = Some(voice.to_string()).filter(|v| !v.trim().is_empty());
        }
        let transcription = input
            .get("transcription")
            .or_else(|| session.get("input_audio_transcription"));
        if let Some(language) = transcription.and_then(|t| t["language"].as_str()) {
            self.language = Some(language.to_string()).filter(|l| !l.trim().is_empty());
        }
        Ok(())
    }

    /// The session object of `session.created` and `session.updated`.
    pub fn session(&self, id: &str) -> Value {
        let pcm = json!({"type": "audio/pcm", "rate": super::RATE});
        let detection = self.detection();
        json!({
            "type": "realtime", "object": "realtime.session", "id": id, "model": self.model,
            "output_modalities": [if self.text_only { "text" } else { "audio" }],
            "instructions": self.instructions.clone().unwrap_or_default(),
            "audio": {
                "input": {"format": pcm, "turn_detection": detection,
                    "transcription": {"model": "gateway", "language": self.language}},
                "output": {"format": pcm, "voice": self.voice},
            },
        })
    }
}

impl Config {
    /// `turn_detection` as the session objects show it.
    fn detection(&self) -> Value {
        self.server_vad.map_or(Value::Null, |vad| {
            json!({"type": "server_vad", "silence_duration_ms": vad.silence_ms, "create_response": vad.create_response,
                "interrupt_response": vad.interrupt_response})
        })
    }

    /// The session object in the beta protocol's shape.
    pub fn beta_session(&self, id: &str) -> Value {
        let detection = self.detection();
        json!({
            "id": id, "object": "realtime.session", "model": self.model,
            "modalities": if self.text_only { json!(["text"]) } else { json!(["audio", "text"]) },
            "instructions": self.instructions.clone().unwrap_or_default(), "voice": self.voice,
            "input_audio_format": "pcm16", "output_audio_format": "pcm16", "turn_detection": detection,
            "input_audio_transcription": {"model": "gateway", "language": self.language},
        })
    }
}

/// The beta protocol's name of a GA server event, where it differs.
pub fn beta_name(ga: &str) -> Option<&'static str> {
    Some(match ga {
        "response.output_audio.delta" => "response.audio.delta",
        "response.output_audio.done" => "response.audio.done",
        "response.output_audio_transcript.delta" => "response.audio_transcript.delta",
        "response.output_audio_transcript.done" => "response.audio_transcript.done",
        "response.output_text.delta" => "response.text.delta",
        "response.output_text.done" => "response.text.done",
        _ => return None,
    })
}

/// Only PCM16 at 24 kHz (GA `audio/pcm`, beta `pcm16`) is taken; an absent format is that.
fn check_format(format: &Value) -> Result<(), String> {
    let ok = match format {
        Value::Null => true,
        Value::String(name) => name == "pcm16",
        other => other["type"] == "audio/pcm" && other["rate"].as_u64().is_none_or(|r| r == u64::from(super::RATE)),
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "audio format {format} is not supported; use audio/pcm at 24000 Hz"
        ))
    }
}

/// The text of a `conversation.item.create` user message (`input_text` parts joined).
pub fn user_text(item: &Value) -> Result<String, String> {
    if item["type"] != "message" || item["role"] != "user" {
        return Err("only user messages can be added (type message, role user)".into());
    }
    let parts = item["content"].as_array().cloned().unwrap_or_default();
    let texts: Vec<&str> = parts
        .iter()
        .filter(|p| p["type"] == "input_text" || p["type"] == "text")
        .filter_map(|p| p["text"].as_str())
        .collect();
    let text = texts.join("\n");
    if text.trim().is_empty() {
        return Err("the message has no input_text".into());
    }
    Ok(text)
}

/// A new id with a prefix (`event_`, `item_`, `resp_`, `sess_`).
pub fn id(prefix: &str) -> String {
    format!("{prefix}{}", uuid::Uuid::now_v7().simple())
}

/// A server event of a type with its fields.
pub fn server(kind: &str, mut fields: Value) -> Value {
    fields["type"] = json!(kind);
    fields["event_id"] = json!(id("event_"));
    fields
}

/// The `error` event: OpenAI's error types, the gateway's code and message.
pub fn error(kind: &str, code: &str, message: &str) -> Value {
    server(
        "error",
        json!({"error": {"type": kind, "code": code, "message": message, "param": null, "event_id": null}}),
    )
}

/// A message item of the conversation.
pub fn message_item(id: &str, role: &str, status: &str, content: Value) -> Value {
    json!({"id": id, "object": "realtime.item", "type": "message", "role": role, "status": status, "content": content})
}

/// The response object of `response.created` and `response.done`.
pub fn response(id: &str, status: &str, output: Value, text_only: bool) -> Value {
    json!({
        "id": id, "object": "realtime.response", "status": status, "output": output,
        "output_modalities": [if text_only { "text" } else { "audio" }],
        "status_details": if status == "completed" || status == "in_progress" { Value::Null }
            else { json!({"type": status, "reason": if status == "cancelled" { "client_cancelled" } else { "error" }}) },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_update_in_ga_or_beta_form_sets_the_same_things() {
        let mut ga = Config::new("default".into());
        ga.update(
            &json!({"type": "realtime", "instructions": "Be brief.", "output_modalities": ["text"],
            "audio": {"input": {"format": {"type": "audio/pcm", "rate": 24000}, "turn_detection": null,
                "transcription": {"model": "whisper-1", "language": "de"}}, "output": {"voice": "alloy"}}}),
        )
        .unwrap();
        let mut beta = Config::new("default".into());
        beta.update(
            &json!({"instructions": "Be brief.", "modalities": ["text"], "input_audio_format": "pcm16",
            "turn_detection": null, "input_audio_transcription": {"language": "de"}, "voice": "alloy"}),
        )
        .unwrap();
        assert_eq!(ga, beta);
        assert!(ga.text_only && ga.server_vad.is_none());
        assert_eq!(ga.language.as_deref(), Some("de"));
    }

    #[test]
    fn other_audio_formats_and_detectors_are_refused() {
        let mut config = Config::new("default".into());
        assert!(config.update(&json!({"input_audio_format": "g711_ulaw"})).is_err());
        assert!(
            config
                .update(&json!({"audio": {"input": {"format": {"type": "audio/pcm", "rate": 16000}}}}))
                .is_err()
        );
        assert!(
            config
                .update(&json!({"turn_detection": {"type": "push_to_talk"}}))
                .is_err()
        );
        assert_eq!(
            config,
            Config::new("default".into()),
            "a refused update changes nothing"
        );
    }
}
