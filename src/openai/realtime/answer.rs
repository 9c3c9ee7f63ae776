//! The running answer of a Realtime connection: a turn of the gateway started for the user's input, and its
//! frames as the protocol's events (`response.created` … `response.done`).

use axum::extract::ws::WebSocket;
use base64::Engine;

use super::conversation::{At, ContentPart, Item, ItemStatus, ResponseObject, ResponseStatus, Role};
use super::events::{ErrorType, ServerEvent, id};
use super::{Conn, Input};
use crate::providers::audio::parse_wav;
use crate::turn::TurnOptions;
use crate::voice::heard::{LastAnswer, Spoke};
use crate::voice::{Options, Out, ServerEvent as TurnEvent};

/// The answer being given (its turn runs in the connection's [`crate::voice::Conversation`]).
pub(super) struct Answer {
    pub(super) id: String,
    item: String,
    /// The user's spoken item, whose transcript the turn reports.
    heard: Option<String>,
    text: String,
    failed: bool,
    /// Its sentences and where each ends in the audio sent (ms).
    spoken: LastAnswer,
    /// What the next audio speaks (a sentence, or a filler's words that are not the answer).
    next: Spoke,
    /// Audio sent so far, in ms.
    ms: u64,
}

impl Conn {
    /// Answers the input with a turn of the gateway, replacing a running answer.
    pub(super) async fn respond(&mut self, socket: &mut WebSocket, input: Input) -> bool {
        if self.conversation.answering() && !self.cancel(socket).await {
            return false;
        }
        self.answered.clear();
        let text_only = self.config.text_only;
        let (answer_id, item) = (id("resp_"), id("item_"));
        let created = ServerEvent::ResponseCreated {
            response: ResponseObject::new(&answer_id, ResponseStatus::InProgress, Vec::new(), text_only),
        };
        let assistant = Item::message(&item, Role::Assistant, ItemStatus::InProgress, Vec::new());
        let output = ServerEvent::OutputItemAdded {
            response_id: answer_id.clone(),
            output_index: 0,
            item: assistant.clone(),
        };
        let part = ServerEvent::ContentPartAdded {
            at: At::part(&answer_id, &item),
            part: answer_part(text_only, String::new()),
        };
        if !self.send(socket, created).await
            || !self.send(socket, output).await
            || !self.added(socket, assistant).await
            || !self.send(socket, part).await
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
        let heard = match input {
            Input::Audio { item, utterance } => {
                self.conversation.voice(utterance, options);
                Some(item)
            }
            Input::Text(text) => {
                self.conversation.chat(text, options);
                None
            }
            Input::Alarm => {
                self.conversation.alarm(options);
                None
            }
        };
        self.answer = Some(Answer {
            id: answer_id,
            item,
            heard,
            text: String::new(),
            failed: false,
            spoken: LastAnswer::new(Some(self.session_id.clone())),
            next: Spoke::Other,
            ms: 0,
        });
        true
    }

    /// One frame of the running turn, as the protocol's events.
    pub(super) async fn on_frame(&mut self, socket: &mut WebSocket, out: Out) -> bool {
        let text_only = self.config.text_only;
        if let Out::Event(TurnEvent::Notice { text }) = out {
            // A system item in the conversation, once in the session, as the browser shows a notice.
            if self.answer.is_none() || !self.told.first(&text) {
                return true;
            }
            let part = ContentPart::InputText { text };
            let item = Item::message(&id("item_"), Role::System, ItemStatus::Completed, vec![part]);
            return self.added(socket, item).await;
        }
        let Some(answer) = self.answer.as_mut() else {
            return true;
        };
        let at = At::part(&answer.id, &answer.item);
        let event = match out {
            Out::Event(TurnEvent::Transcript { text, .. }) => {
                answer.heard.as_ref().map(|item| ServerEvent::TranscriptionCompleted {
                    item_id: item.clone(),
                    content_index: 0,
                    transcript: text,
                })
            }
            // The help dialogue's words are the answer's too: spoken, and their transcript.
            Out::Event(
                TurnEvent::Token { text } | TurnEvent::HelpAsked { text, .. } | TurnEvent::Help { message: text, .. },
            ) => {
                answer.text.push_str(&text);
                Some(if text_only {
                    ServerEvent::TextDelta { at, delta: text }
                } else {
                    ServerEvent::AudioTranscriptDelta { at, delta: text }
                })
            }
            Out::Event(TurnEvent::Audio { text, filler, .. }) => {
                answer.next = text.filter(|_| !filler).map_or(Spoke::Other, Spoke::Sentence);
                None
            }
            Out::Audio(wav) => audio_delta(answer, self.config.output, wav, at).await,
            Out::Event(TurnEvent::Error {
                status, code, message, ..
            }) => {
                answer.failed = true;
                Some(ServerEvent::error(ErrorType::of_status(status), code, message))
            }
            Out::Event(TurnEvent::Done) => return self.finish(socket).await,
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
        let mut closing = Vec::new();
        let mut output = Vec::new();
        if !answer.failed {
            let at = At::part(&answer.id, &answer.item);
            if text_only {
                let text = answer.text.clone();
                closing.push(ServerEvent::TextDone { at: at.clone(), text });
            } else {
                closing.push(ServerEvent::AudioDone { at: at.clone() });
                let transcript = answer.text.clone();
                closing.push(ServerEvent::AudioTranscriptDone {
                    at: at.clone(),
                    transcript,
                });
            }
            let part = answer_part(text_only, answer.text.clone());
            let item = Item::message(&answer.item, Role::Assistant, ItemStatus::Completed, vec![part.clone()]);
            closing.push(ServerEvent::ContentPartDone { at, part });
            closing.push(ServerEvent::OutputItemDone {
                response_id: answer.id.clone(),
                output_index: 0,
                item: item.clone(),
            });
            output.push(item);
        }
        if let Some(question) = &answer.heard {
            self.answered = vec![question.clone(), answer.item.clone()];
        }
        // The turn stored the answer when it ended well (a text-only answer has no audio to cut).
        if !text_only {
            let mut spoken = answer.spoken;
            if !answer.failed {
                spoken.answered(&answer.text);
            }
            self.heard.keep(answer.item.clone(), spoken);
        }
        let status = if answer.failed {
            ResponseStatus::Failed
        } else {
            ResponseStatus::Completed
        };
        closing.push(ServerEvent::ResponseDone {
            response: ResponseObject::new(&answer.id, status, output, text_only),
        });
        for event in closing {
            if !self.send(socket, event).await {
                return false;
            }
        }
        true
    }

    /// Stops the running answer (its LLM request and speech with it): `response.done` with `cancelled`.
    pub(super) async fn cancel(&mut self, socket: &mut WebSocket) -> bool {
        self.conversation.interrupt();
        let Some(answer) = self.answer.take() else {
            return true;
        };
        // Nothing of a cancelled answer was stored; what was sent of it may still be cut for the client.
        self.heard.keep(answer.item.clone(), answer.spoken);
        let response = ResponseObject::new(&answer.id, ResponseStatus::Cancelled, Vec::new(), self.config.text_only);
        self.send(socket, ServerEvent::ResponseDone { response }).await
    }
}

impl Conn {
    /// The person went on with the question the running (or just finished) answer was for, and the two are
    /// one question now: the answer is cancelled (`response.done` with `cancelled`, as on barge-in; its audio
    /// should be dropped) and the half question's item and the answer's are deleted, so that the client keeps
    /// one item with the whole question and one response to it.
    pub(super) async fn continued(&mut self, socket: &mut WebSocket) -> bool {
        let mut gone = std::mem::take(&mut self.answered);
        if let Some(answer) = &self.answer {
            gone = answer.heard.iter().chain([&answer.item]).cloned().collect();
            if !self.cancel(socket).await {
                return false;
            }
        }
        for item_id in gone {
            if !self.send(socket, ServerEvent::ItemDeleted { item_id }).await {
                return false;
            }
        }
        true
    }
}

/// The answer's one content part: its text, or the transcript of its speech.
fn answer_part(text_only: bool, text: String) -> ContentPart {
    if text_only {
        ContentPart::Text { text }
    } else {
        ContentPart::Audio { transcript: text }
    }
}

/// A sentence's speech as an `audio.delta` in the session's encoding, counted into what the answer has said
/// (for a barge-in's truncation); none when it cannot be read.
async fn audio_delta(
    answer: &mut Answer,
    encoding: super::session::Encoding,
    wav: Vec<u8>,
    at: At,
) -> Option<ServerEvent> {
    // A sentence's conversion takes about a millisecond a second of speech: off the async threads.
    let converted = tokio::task::spawn_blocking(move || {
        parse_wav(&wav).map(|pcm| {
            let rate = encoding.rate();
            let pcm = pcm.resampled(rate);
            let ms = pcm.samples.len() as u64 * 1000 / u64::from(rate);
            let bytes = encoding.encode(&pcm.samples);
            (base64::engine::general_purpose::STANDARD.encode(bytes), ms)
        })
    })
    .await;
    match converted {
        Ok(Ok((delta, ms))) => {
            answer.ms += ms;
            let spoke = std::mem::replace(&mut answer.next, Spoke::Other);
            answer.spoken.audio(answer.ms, spoke);
            Some(ServerEvent::AudioDelta { at, delta })
        }
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
