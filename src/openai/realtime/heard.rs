//! What the listener heard of each answer: its sentences and where each ends in the audio sent, so that
//! `conversation.item.truncate` can cut the stored answer, and with it the history the next turn sends to the
//! model, to what was played. The cut falls at the last sentence that ended at or before the position.

use std::collections::VecDeque;

use axum::extract::ws::WebSocket;

use super::Conn;
use super::events::ServerEvent;

/// Answers remembered for truncation: a client truncates the one it is playing, rarely an older one.
const REMEMBERED: usize = 16;

/// The sentences of one answer with the end of each in its audio.
#[derive(Debug, Default)]
pub(super) struct Spoken {
    sentences: Vec<(String, u64)>,
    /// The sentence whose audio comes next (`None` for a filler's).
    next: Option<String>,
    /// Audio sent so far, in ms.
    ms: u64,
}

impl Spoken {
    /// The text of the audio that comes next; `None` for audio that is not part of the answer (a filler).
    pub(super) fn announce(&mut self, sentence: Option<String>) {
        self.next = sentence;
    }

    /// Audio of `ms` milliseconds was sent.
    pub(super) fn sent(&mut self, ms: u64) {
        self.ms += ms;
        if let Some(sentence) = self.next.take() {
            self.sentences.push((sentence, self.ms));
        }
    }

    /// The sentences whose audio ended by `audio_end_ms`, as one text.
    pub(super) fn heard_by(&self, audio_end_ms: u64) -> String {
        let heard: Vec<&str> = self
            .sentences
            .iter()
            .take_while(|(_, end)| *end <= audio_end_ms)
            .map(|(text, _)| text.trim())
            .collect();
        heard.join(" ")
    }
}

/// A finished answer: its item, what it said, and what was stored for it.
#[derive(Debug)]
pub(super) struct Played {
    item: String,
    spoken: Spoken,
    /// The answer as the turn stored it; `None` when nothing was stored (a cancelled answer).
    stored: Option<String>,
}

/// The last answers of a connection.
#[derive(Debug, Default)]
pub(super) struct Heard {
    answers: VecDeque<Played>,
}

impl Heard {
    /// Remembers an answer.
    pub(super) fn keep(&mut self, item: String, spoken: Spoken, stored: Option<String>) {
        if self.answers.len() == REMEMBERED {
            self.answers.pop_front();
        }
        self.answers.push_back(Played { item, spoken, stored });
    }
}

impl Conn {
    /// `conversation.item.truncate`: the stored answer keeps what was played, and `conversation.item.truncated`
    /// confirms it.
    pub(super) async fn truncate(
        &mut self,
        socket: &mut WebSocket,
        item_id: String,
        content_index: u32,
        audio_end_ms: u64,
    ) -> bool {
        let Some(played) = self.heard.answers.iter_mut().find(|p| p.item == item_id) else {
            let problem = format!("{item_id:?} is not an answer of this conversation with audio");
            return self.fail(socket, "invalid_item_id", &problem).await;
        };
        if content_index != 0 {
            return self
                .fail(socket, "invalid_content_index", "an answer has one content part, 0")
                .await;
        }
        let kept = played.spoken.heard_by(audio_end_ms);
        if let Some(stored) = played.stored.take() {
            match self.app.store.trim_answer(&self.session_id, &stored, &kept).await {
                Ok(true) => tracing::debug!(item = %item_id, audio_end_ms, "the answer was cut to what was heard"),
                Ok(false) => tracing::warn!(item = %item_id, "the answer to cut was not found in the session"),
                Err(err) => {
                    tracing::error!(%err, "cutting an answer failed");
                    played.stored = Some(stored);
                    return self.fail(socket, "internal", "the answer could not be cut").await;
                }
            }
            played.stored = Some(kept);
        }
        let truncated = ServerEvent::ItemTruncated {
            item_id,
            content_index,
            audio_end_ms,
        };
        self.send(socket, truncated).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cut_falls_at_the_last_sentence_played() {
        let mut spoken = Spoken::default();
        spoken.announce(None); // a filler: time, no text
        spoken.sent(400);
        spoken.announce(Some("Hello Anna.".into()));
        spoken.sent(1000);
        spoken.announce(Some("It is three degrees.".into()));
        spoken.sent(1500);
        assert_eq!(spoken.heard_by(300), "");
        assert_eq!(spoken.heard_by(1399), "");
        assert_eq!(spoken.heard_by(1400), "Hello Anna.");
        assert_eq!(spoken.heard_by(2000), "Hello Anna.");
        assert_eq!(spoken.heard_by(10_000), "Hello Anna. It is three degrees.");
    }
}
