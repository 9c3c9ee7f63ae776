//! What a voice turn wrote, so that it can be taken back: a question the person went on with after a pause
//! ([`crate::voice::conversation`]) was only half of one, and the whole is asked, counted and stored once.
//! What the provider billed for the half's answer stays billed: the costs shown are what providers charge.
//! Counts are noted once written (taking back a count that was refused would give a request
//! away); messages before, under the ids they are written with (deleting what was never written changes
//! nothing).

use std::sync::{Arc, Mutex};

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
}

/// A turn's ledger; cheap to clone (the turn writes, the conversation takes back).
#[derive(Debug, Clone, Default)]
pub struct Ledger(Arc<Mutex<Writes>>);

impl Ledger {
    fn note(&self, f: impl FnOnce(&mut Writes)) {
        if let Ok(mut writes) = self.0.lock() {
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
        let Ok(writes) = self.0.lock().map(|mut w| std::mem::take(&mut *w)) else {
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
