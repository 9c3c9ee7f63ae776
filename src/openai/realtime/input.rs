//! The input audio of a Realtime connection: appended, heard by the voice core's listener (speech started
//! and stopped, barge-in, a person who goes on with the question), committed as the user's spoken item and,
//! with `server_vad`'s `create_response`, answered.

use axum::extract::ws::WebSocket;
use base64::Engine;

use super::conversation::{ContentPart, Item, ItemStatus, Role};
use super::events::{ServerEvent, id};
use super::{Conn, HEARING_RATE, Input};
use crate::providers::audio::Pcm;
use crate::providers::resample::Resampler;
use crate::socket::close;
use crate::voice::{Heard, Utterance};

impl Conn {
    /// Takes PCM16 at 24 kHz; with server VAD, a finished utterance is committed and answered.
    pub(super) async fn append(&mut self, socket: &mut WebSocket, audio: &str) -> bool {
        let bytes = match base64::engine::general_purpose::STANDARD.decode(audio.trim()) {
            Ok(bytes) => bytes,
            Err(_) => return self.fail(socket, "invalid_audio", "audio is not base64").await,
        };
        let pcm = match self.config.input.decode(&bytes) {
            Ok(pcm) => pcm,
            Err(err) => return self.fail(socket, "invalid_audio", &err).await,
        };
        let heard = self.hearing.push(&pcm.samples);
        self.listener.hold_early_answers(self.conversation.help_pending());
        for heard in self.listener.hear(&heard, self.conversation.answering()) {
            if !self.on_heard(socket, heard).await {
                return false;
            }
        }
        true
    }

    /// Acts on what the detector heard: the speech's item begins and ends, speech interrupts the answer, an
    /// utterance is committed and, with `create_response`, answered.
    pub(super) async fn on_heard(&mut self, socket: &mut WebSocket, heard: Heard) -> bool {
        let vad = self.config.server_vad;
        match heard {
            Heard::SpeechStarted { at_ms } => {
                let item = id("item_");
                self.speech_item = Some(item.clone());
                let started = ServerEvent::SpeechStarted {
                    audio_start_ms: at_ms,
                    item_id: item,
                };
                self.send(socket, started).await
            }
            Heard::Resumed { gap_ms } => {
                if !self.conversation.resume(gap_ms, false) {
                    return true;
                }
                self.listener.join();
                self.continued(socket).await
            }
            Heard::BargeIn if vad.is_some_and(|v| v.interrupt_response) => self.cancel(socket).await,
            Heard::BargeIn => true,
            Heard::Ignored { end_ms } => {
                let item = self.speech_item.take().unwrap_or_else(|| id("item_"));
                let stopped = ServerEvent::SpeechStopped {
                    audio_end_ms: end_ms,
                    item_id: item,
                };
                self.send(socket, stopped).await
            }
            Heard::Utterance(utterance) => {
                let item = self.speech_item.clone().unwrap_or_else(|| id("item_"));
                let stopped = ServerEvent::SpeechStopped {
                    audio_end_ms: utterance.end_ms,
                    item_id: item,
                };
                if !self.send(socket, stopped).await || !self.commit(socket, utterance).await {
                    return false;
                }
                match self.pending.take() {
                    Some(input) if vad.is_some_and(|v| v.create_response) => self.respond(socket, input).await,
                    other => {
                        self.pending = other;
                        true
                    }
                }
            }
            Heard::TooLong { seconds } => {
                self.drop_input();
                let message = format!("audio longer than {seconds} s was dropped");
                self.fail(socket, "input_audio_too_long", &message).await
            }
            Heard::OverBudget => {
                static FULL: crate::logging::Repeated = crate::logging::Repeated::new();
                if let Some(left_out) = FULL.next() {
                    tracing::warn!(left_out, "audio buffer budget reached; a realtime connection is closed");
                }
                let _ = self
                    .fail(socket, "overloaded", "the gateway holds too much audio right now")
                    .await;
                let _ = close(socket, 1008, "audio budget reached").await;
                false
            }
        }
    }

    /// Everything heard so far, the converter's held samples too; the input starts afresh.
    pub(super) fn take_input(&mut self) -> Option<Utterance> {
        let tail = self.hearing.finish();
        self.hearing = Resampler::new(self.config.input.rate(), HEARING_RATE);
        let mut utterance = self.listener.take_all();
        match &mut utterance {
            Some(utterance) => utterance.audio.samples.extend(tail),
            None if !tail.is_empty() => {
                utterance = Some(Utterance {
                    audio: Pcm {
                        sample_rate: HEARING_RATE,
                        samples: tail,
                        channels: 1,
                    },
                    early: None,
                    end_ms: 0,
                    silence: std::time::Duration::ZERO,
                    pace: None,
                });
            }
            None => {}
        }
        utterance
    }

    /// Forgets the input heard so far (a clear, or audio over the length limit).
    pub(super) fn drop_input(&mut self) {
        self.take_input();
        self.speech_item = None;
    }

    /// The utterance becomes the user's next spoken item.
    pub(super) async fn commit(&mut self, socket: &mut WebSocket, utterance: Utterance) -> bool {
        let item = self.speech_item.take().unwrap_or_else(|| id("item_"));
        let committed = ServerEvent::Committed {
            item_id: item.clone(),
            previous_item_id: self.last_item.clone(),
        };
        if !self.send(socket, committed).await {
            return false;
        }
        self.pending = Some(Input::Audio {
            item: item.clone(),
            utterance,
        });
        let content = vec![ContentPart::InputAudio { transcript: None }];
        self.added(socket, Item::message(&item, Role::User, ItemStatus::Completed, content))
            .await
    }
}
