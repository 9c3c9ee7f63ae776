//! The running answer of a Realtime connection: a turn of the gateway started for the user's input, and its
//! frames as the protocol's events (`response.created` … `response.done`).

use axum::extract::ws::WebSocket;
use base64::Engine;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::events::{error, id, message_item, response, server};
use super::{Conn, Input, QUEUE, RATE};
use crate::providers::audio::parse_wav;
use crate::turn::TurnOptions;
use crate::ws::protocol::{Options, ServerEvent};
use crate::ws::turn::{self as voice_turn, Out};

/// The answer being given.
pub(super) struct Answer {
    pub(super) id: String,
    item: String,
    /// The user's spoken item, whose transcript the turn reports.
    heard: Option<String>,
    pub(super) task: JoinHandle<()>,
    pub(super) frames: mpsc::Receiver<Out>,
    text: String,
    failed: bool,
}

impl Conn {
    /// Answers the input with a turn of the gateway, replacing a running answer.
    pub(super) async fn respond(&mut self, socket: &mut WebSocket, input: Input) -> bool {
        if self.answer.is_some() && !self.cancel(socket).await {
            return false;
        }
        let text_only = self.config.text_only;
        let (answer_id, item) = (id("resp_"), id("item_"));
        let created = server(
            "response.created",
            json!({"response": response(&answer_id, "in_progress", json!([]), text_only)}),
        );
        let assistant = message_item(&item, "assistant", "in_progress", json!([]));
        let output = json!({"response_id": answer_id, "output_index": 0, "item": assistant});
        let part = json!({"response_id": answer_id, "item_id": item, "output_index": 0, "content_index": 0,
            "part": if text_only { json!({"type": "text", "text": ""}) } else { json!({"type": "audio", "transcript": ""}) }});
        if !self.send(socket, created).await
            || !self.send(socket, server("response.output_item.added", output)).await
            || !self.added(socket, assistant).await
            || !self.send(socket, server("response.content_part.added", part)).await
        {
            return false;
        }
        let options = Options {
            stream: Some(true),
            audio_stream: Some(!text_only),
            text_only: Some(text_only),
            session_id: Some(self.session_id.clone()),
            instructions: self.config.instructions.clone(),
            turn: TurnOptions {
                voice: self.voice.clone(),
                language: self.config.language.clone(),
                ..self.turn.clone()
            },
            ..Options::default()
        };
        let (tx, frames) = mpsc::channel(QUEUE);
        let (app, user) = (self.app.clone(), self.user.clone());
        let (task, heard) = match input {
            Input::Audio { item, pcm } => (
                tokio::spawn(voice_turn::voice(app, user, pcm, options, None, tx)),
                Some(item),
            ),
            Input::Text(text) => (tokio::spawn(voice_turn::chat(app, user, text, options, tx)), None),
        };
        self.answer = Some(Answer {
            id: answer_id,
            item,
            heard,
            task,
            frames,
            text: String::new(),
            failed: false,
        });
        true
    }

    /// One frame of the running turn, as the protocol's events.
    pub(super) async fn on_frame(&mut self, socket: &mut WebSocket, out: Out) -> bool {
        let text_only = self.config.text_only;
        let Some(answer) = self.answer.as_mut() else {
            return true;
        };
        let at = json!({"response_id": answer.id, "item_id": answer.item, "output_index": 0, "content_index": 0});
        let event = match out {
            Out::Event(ServerEvent::Transcript { text, .. }) => answer.heard.as_ref().map(|item| {
                server(
                    "conversation.item.input_audio_transcription.completed",
                    json!({"item_id": item, "content_index": 0, "transcript": text}),
                )
            }),
            Out::Event(ServerEvent::Token { text }) => {
                answer.text.push_str(&text);
                let kind = if text_only {
                    "response.output_text.delta"
                } else {
                    "response.output_audio_transcript.delta"
                };
                Some(server(kind, with(at, "delta", json!(text))))
            }
            Out::Audio(wav) => {
                // A sentence's conversion takes about a millisecond a second of speech: off the async threads.
                let converted = tokio::task::spawn_blocking(move || {
                    parse_wav(&wav)
                        .map(|pcm| base64::engine::general_purpose::STANDARD.encode(pcm.resampled(RATE).to_le_bytes()))
                })
                .await;
                match converted {
                    Ok(Ok(delta)) => Some(server("response.output_audio.delta", with(at, "delta", json!(delta)))),
                    Ok(Err(err)) => {
                        tracing::error!(%err, "the TTS audio could not be read");
                        None
                    }
                    Err(err) => {
                        tracing::error!(%err, "the TTS audio could not be converted");
                        None
                    }
                }
            }
            Out::Event(ServerEvent::Error {
                status, code, message, ..
            }) => {
                answer.failed = true;
                let kind = match status {
                    429 => "insufficient_quota",
                    s if s >= 500 => "server_error",
                    _ => "invalid_request_error",
                };
                Some(error(kind, code, &message))
            }
            Out::Event(ServerEvent::Done) => return self.finish(socket).await,
            // The acknowledgement, filler text, notices, the semantic result and the audio event's own fields
            // have no counterpart here; the filler's audio is sent like the answer's.
            Out::Event(_) => None,
        };
        match event {
            Some(event) => self.send(socket, event).await,
            None => true,
        }
    }

    /// The running answer is over: its closing events and `response.done`.
    pub(super) async fn finish(&mut self, socket: &mut WebSocket) -> bool {
        let Some(answer) = self.answer.take() else {
            return true;
        };
        let text_only = self.config.text_only;
        let at = json!({"response_id": answer.id, "item_id": answer.item, "output_index": 0, "content_index": 0});
        let part = if text_only {
            json!({"type": "text", "text": answer.text})
        } else {
            json!({"type": "audio", "transcript": answer.text})
        };
        let status = if answer.failed { "failed" } else { "completed" };
        let item = message_item(&answer.item, "assistant", status, json!([part]));
        let mut closing = Vec::new();
        if !answer.failed {
            if text_only {
                closing.push(server(
                    "response.output_text.done",
                    with(at.clone(), "text", json!(answer.text)),
                ));
            } else {
                closing.push(server("response.output_audio.done", at.clone()));
                let transcript = with(at.clone(), "transcript", json!(answer.text));
                closing.push(server("response.output_audio_transcript.done", transcript));
            }
            closing.push(server("response.content_part.done", with(at, "part", part)));
            let done = json!({"response_id": answer.id, "output_index": 0, "item": item});
            closing.push(server("response.output_item.done", done));
        }
        let output = if answer.failed { json!([]) } else { json!([item]) };
        closing.push(server(
            "response.done",
            json!({"response": response(&answer.id, status, output, text_only)}),
        ));
        for event in closing {
            if !self.send(socket, event).await {
                return false;
            }
        }
        true
    }

    /// Stops the running answer (its LLM request and speech with it): `response.done` with `cancelled`.
    pub(super) async fn cancel(&mut self, socket: &mut WebSocket) -> bool {
        let Some(answer) = self.answer.take() else {
            return true;
        };
        answer.task.abort();
        let done = json!({"response": response(&answer.id, "cancelled", json!([]), self.config.text_only)});
        self.send(socket, server("response.done", done)).await
    }
}

/// `value` with one more field.
fn with(mut value: Value, key: &str, field: Value) -> Value {
    value[key] = field;
    value
}
