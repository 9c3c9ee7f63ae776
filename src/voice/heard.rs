//! What the listener heard of the last answer: its audio frames by `seq` and the sentence each spoke, so that
//! what was played in full (a `/ws/chat` or `/ws/voice` client's `heard` frame, the marks of a phone line)
//! cuts the stored answer, and with it the next turn's history, to what was played when the person
//! interrupted.

use crate::store::Store;

/// The last answer's audio, sentence by sentence.
#[derive(Debug, Default)]
pub struct LastAnswer {
    /// The session it is stored in (none: the turn was not stored).
    session_id: Option<String>,
    /// Each audio frame's `seq` and its sentence (`None` for a filler; the whole answer for one piece).
    audio: Vec<(u64, Spoke)>,
    /// The answer as stored, once the turn gave it.
    stored: Option<String>,
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

    /// An audio frame of the answer was sent.
    pub fn audio(&mut self, seq: u64, spoke: Spoke) {
        self.audio.push((seq, spoke));
    }

    /// The turn's answer text, as it is stored.
    pub fn answered(&mut self, text: &str) {
        self.stored = Some(text.trim().to_string());
    }

    /// What was heard when the audio up to `seq` was played (none played: `None`).
    fn kept(&self, seq: Option<u64>) -> Option<String> {
        let played = self.audio.iter().filter(|(s, _)| seq.is_some_and(|last| *s <= last));
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

    /// Cuts the stored answer to what was heard; nothing to do when the turn was not stored or is not over.
    pub async fn heard(&mut self, store: &Store, seq: Option<u64>) {
        let (Some(session_id), Some(stored)) = (&self.session_id, &self.stored) else {
            return;
        };
        let Some(kept) = self.kept(seq) else {
            return;
        };
        if kept == *stored {
            return;
        }
        match store.trim_answer(session_id, stored, &kept).await {
            Ok(true) => self.stored = Some(kept),
            Ok(false) => tracing::warn!("the answer to cut was not found in its session"),
            Err(err) => tracing::error!(%err, "cutting an answer failed"),
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
}
