//! What a voice turn wrote, so that it can be taken back: a question the person went on with after a pause
//! ([`crate::voice::conversation`]) was only half of one, and the whole is asked, counted and stored once.
//! What the provider billed for the half's answer stays billed: the costs shown are what providers charge.
//! Counts are noted once written (taking back a count that was refused would give a request
//! away); messages before, under the ids they are written with (deleting what was never written changes
//! nothing).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;

use crate::app::App;
use crate::store::today;
use crate::store::usage::Counter;

/// The writes of one turn.
#[derive(Debug, Default)]
struct Writes {
    /// The day a request was counted on.
    counted: Option<String>,
    /// The stored messages.
    messages: Vec<String>,
    /// Everything was taken back: the turn was half of a question.
    taken_back: bool,
}

/// A turn's ledger; cheap to clone (the turn writes, the conversation takes back).
#[derive(Debug, Clone, Default)]
pub struct Ledger {
    writes: Arc<Mutex<Writes>>,
    /// Until when speech may still continue the question: its messages are not shown before, and its memory
    /// extraction waits (none: nothing may continue it).
    open_until: Option<Instant>,
}

impl Ledger {
    /// The ledger of a question that speech may continue until `open_until`.
    pub fn open_until(open_until: Instant) -> Self {
        Self {
            open_until: Some(open_until),
            ..Self::default()
        }
    }

    /// How long from now the question may still be continued (none when it may not any more).
    pub fn open_for(&self) -> Option<Duration> {
        self.open_until
            .map(|until| until.saturating_duration_since(Instant::now()))
            .filter(|left| !left.is_zero())
    }

    /// Whether the turn's writes were taken back.
    pub fn taken_back(&self) -> bool {
        self.writes.lock().is_ok_and(|w| w.taken_back)
    }

    fn note(&self, f: impl FnOnce(&mut Writes)) {
        if let Ok(mut writes) = self.writes.lock() {
            f(&mut writes);
        }
    }

    /// A request was counted today.
    pub fn counted(&self) {
        self.note(|w| w.counted = Some(today()));
    }

    /// The turn's messages are about to be stored under these ids.
    pub fn storing(&self, ids: &[String]) {
        self.note(|w| w.messages.extend_from_slice(ids));
    }

    /// Takes back everything noted (each write atomically in the database); call it once the turn's task has
    /// stopped, so that nothing is written after.
    pub async fn take_back(&self, app: &App, user_id: &str) {
        let Ok(writes) = self.writes.lock().map(|mut w| {
            let taken = std::mem::take(&mut *w);
            w.taken_back = true;
            taken
        }) else {
            return;
        };
        let store = &app.store;
        if let Some(day) = &writes.counted
            && let Err(err) = store.uncount(Counter::Requests, user_id, day).await
        {
            tracing::error!(%err, "taking back a request's count failed");
        }
        if !writes.messages.is_empty()
            && let Err(err) = store.delete_messages(&writes.messages).await
        {
            tracing::error!(%err, "taking back a half question's messages failed");
        }
    }
}
