//! What the listener heard of an answer, on every channel: the answer's audio pieces, each at the position
//! where it ends, and the sentence each spoke. What was played (a `/ws/chat` or `/ws/voice` client's `heard`
//! frame and the marks of a phone line, by frame `seq`; Realtime's `conversation.item.truncate`, by ms of
//! audio) cuts the stored answer, and with it the next turn's history, to the sentences played in full. What
//! was played to its end while the answer went on (a client's `played` frames, a phone line's marks) says the
//! person listened to it: speech then interrupts the answer rather than continuing the question.

use crate::store::{Store, StoreError};

/// The last answer's audio, sentence by sentence.
#[derive(Debug, Default)]
pub struct LastAnswer {
    /// The session it is stored in (none: the turn was not stored).
    session_id: Option<String>,
    /// Where each piece of audio ends (its frame's `seq`, or ms of audio sent) and what it spoke.
    audio: Vec<(u64, Spoke)>,
    /// The answer as stored, once the turn gave it.
    stored: Option<String>,
    /// A piece of the answer was played in full ([`Self::played`]).
    listened: bool,
}

/// What an audio frame spoke.
#[derive(Debug, Clone)]
pub enum Spoke {
    /// A sentence of the answer.
    Sentence(String),
    /// The whole answer in one piece.
    Whole,
    /// Something that is not the answer (a filler).
    Other,
}

impl LastAnswer {
    /// A new answer in `session_id`.
    pub fn new(session_id: Option<String>) -> Self {
        Self {
            session_id,
            ..Self::default()
        }
    }

    /// A piece of the answer's audio was sent, ending at `position` (positions grow).
    pub fn audio(&mut self, position: u64, spoke: Spoke) {
        self.audio.push((position, spoke));
    }

    /// The audio up to `position` was played in full: when a piece of the answer (not a filler) was among
    /// it, the person [listened](Self::listened) to the answer.
    pub fn played(&mut self, position: u64) {
        let answer = |(end, spoke): &(u64, Spoke)| *end <= position && !matches!(spoke, Spoke::Other);
        self.listened |= self.audio.iter().any(answer);
    }

    /// Whether a piece of the answer was played in full: speech now interrupts it.
    pub fn listened(&self) -> bool {
        self.listened
    }

    /// The turn's answer text, as it is stored.
    pub fn answered(&mut self, text: &str) {
        self.stored = Some(text.trim().to_string());
    }

    /// What was heard when the audio up to `position` was played (none played: `None`).
    fn kept(&self, position: Option<u64>) -> Option<String> {
        let played = self
            .audio
            .iter()
            .filter(|(s, _)| position.is_some_and(|last| *s <= last));
        let mut sentences = Vec::new();
        for (_, spoke) in played {
            match spoke {
                Spoke::Sentence(text) => sentences.push(text.trim()),
                Spoke::Whole => return self.stored.clone(),
                Spoke::Other => {}
            }
        }
        Some(sentences.join(" "))
    }

    /// Cuts the stored answer to what was heard when the audio up to `position` was played; true when it was
    /// cut. Nothing to do when the turn was not stored, is not over, or was heard whole.
    pub async fn cut(&mut self, store: &Store, position: Option<u64>) -> Result<bool, StoreError> {
        let (Some(session_id), Some(stored)) = (&self.session_id, &self.stored) else {
            return Ok(false);
        };
        let Some(kept) = self.kept(position) else {
            return Ok(false);
        };
        if kept == *stored {
            return Ok(false);
        }
        if !store.trim_answer(session_id, stored, &kept).await? {
            tracing::warn!("the answer to cut was not found in its session");
            return Ok(false);
        }
        self.stored = Some(kept);
        Ok(true)
    }

    /// [`Self::cut`] for channels that tell nobody of a failure: it is logged.
    pub async fn heard(&mut self, store: &Store, position: Option<u64>) {
        if let Err(err) = self.cut(store, position).await {
            tracing::error!(%err, "cutting an answer failed");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cut_keeps_the_sentences_played_in_full() {
        let mut answer = LastAnswer::new(Some("s".into()));
        answer.audio(0, Spoke::Other);
        answer.audio(1, Spoke::Sentence("Es ist sonnig.".into()));
        answer.audio(2, Spoke::Sentence("Später regnet es.".into()));
        answer.answered("Es ist sonnig. Später regnet es.");
        assert_eq!(answer.kept(None).as_deref(), Some(""));
        assert_eq!(answer.kept(Some(0)).as_deref(), Some(""));
        assert_eq!(answer.kept(Some(1)).as_deref(), Some("Es ist sonnig."));
        assert_eq!(
            answer.kept(Some(2)).as_deref(),
            Some("Es ist sonnig. Später regnet es.")
        );
        let mut whole = LastAnswer::new(None);
        whole.audio(0, Spoke::Whole);
        whole.answered("All of it.");
        assert_eq!(whole.kept(Some(0)).as_deref(), Some("All of it."));
        assert_eq!(whole.kept(None).as_deref(), Some(""));
    }

    #[test]
    fn an_answer_is_listened_to_once_a_piece_of_it_was_played_not_a_filler() {
        let mut answer = LastAnswer::new(Some("s".into()));
        answer.audio(0, Spoke::Other);
        answer.audio(1, Spoke::Sentence("Es ist sonnig.".into()));
        answer.played(0);
        assert!(!answer.listened(), "the filler alone is not the answer");
        answer.played(1);
        assert!(answer.listened());
        let mut early = LastAnswer::new(None);
        early.played(3);
        assert!(!early.listened(), "a mark of audio not (yet) sent says nothing");
    }

    #[test]
    fn positions_may_be_milliseconds_of_audio_as_realtime_counts_them() {
        let mut answer = LastAnswer::new(Some("s".into()));
        // A filler (time, no text), then two sentences ending at 1,400 and 2,900 ms of audio.
        answer.audio(400, Spoke::Other);
        answer.audio(1400, Spoke::Sentence("Hello Anna.".into()));
        answer.audio(2900, Spoke::Sentence("It is three degrees.".into()));
        answer.answered("Hello Anna. It is three degrees.");
        assert_eq!(answer.kept(Some(300)).as_deref(), Some(""));
        assert_eq!(answer.kept(Some(1399)).as_deref(), Some(""));
        assert_eq!(answer.kept(Some(1400)).as_deref(), Some("Hello Anna."));
        assert_eq!(
            answer.kept(Some(10_000)).as_deref(),
            Some("Hello Anna. It is three degrees.")
        );
    }
}
