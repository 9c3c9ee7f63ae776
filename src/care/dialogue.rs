//! What one connection's care dialogue has said (a page's `/ws/chat` or `/ws/voice`, a call): the reminders
//! told on it, so that a bare "Ja" confirms only a reminder the person was told there, and a question that
//! asked for a missing part of a request ("Wann soll ich Sie erinnern?"), so that the next utterance completes
//! the request when it is the answer. Held by the connection's conversation and given to each of its turns.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;

use super::spoken::{Asked, Completes};
use crate::hearing::Intent;

/// Reminders remembered as told: more are never waiting for an answer at once.
const TOLD_KEPT: usize = 16;
/// How long a question for a missing part waits for its answer.
pub const QUESTION_OPEN: Duration = Duration::from_secs(120);

/// A connection's care dialogue; cheap to clone (the connection tells, its turns read).
#[derive(Debug, Clone, Default)]
pub struct Dialogue(Arc<Mutex<State>>);

#[derive(Debug, Default)]
struct State {
    /// Reminder ids told, the latest last, with when.
    told: VecDeque<(String, Instant)>,
    /// The question asked for a missing part: what is missing, the request so far, when it was asked.
    question: Option<(Intent, Asked, Instant)>,
}

impl Dialogue {
    fn with<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        f(&mut self.0.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// The reminder `id` was shown or spoken on this connection.
    pub fn told(&self, id: &str) {
        self.with(|s| {
            s.told.retain(|(told, _)| told != id);
            if s.told.len() == TOLD_KEPT {
                s.told.pop_front();
            }
            s.told.push_back((id.to_string(), Instant::now()));
        });
    }

    /// The reminders told within `window`, the latest first.
    pub fn told_within(&self, window: Duration) -> Vec<String> {
        self.with(|s| {
            s.told
                .iter()
                .rev()
                .filter(|(_, at)| at.elapsed() <= window)
                .map(|(id, _)| id.clone())
                .collect()
        })
    }

    /// A question for `missing` of `asked` was asked.
    pub fn ask(&self, missing: Intent, asked: Asked) {
        self.with(|s| s.question = Some((missing, asked, Instant::now())));
    }

    /// Whether a question waits for its answer.
    pub fn asking(&self) -> bool {
        self.with(|s| {
            s.question
                .as_ref()
                .is_some_and(|(_, _, at)| at.elapsed() <= QUESTION_OPEN)
        })
    }

    /// The question that waits, taken: whatever comes next, it is not asked any more.
    pub fn take_question(&self) -> Option<(Intent, Asked)> {
        self.with(|s| s.question.take())
            .filter(|(_, _, at)| at.elapsed() <= QUESTION_OPEN)
            .map(|(missing, asked, _)| (missing, asked))
    }
}

impl Asked {
    /// The request with the missing part it was asked for.
    pub fn completed(self, answer: Completes) -> Asked {
        match (self, answer) {
            // "Um halb zehn" after "morgen": the day said before stays.
            (Asked::Set { text, when: before }, Completes::When(when)) => Asked::Set {
                text,
                when: when.or(before),
            },
            (Asked::Set { when, .. }, Completes::What(text)) => Asked::Set { text, when },
            (Asked::Timer { .. }, Completes::Length(seconds)) => Asked::Timer { seconds: Some(seconds) },
            (asked, _) => asked,
        }
    }
}
