//! Help from a satellite: a call for help heard by a Home Assistant voice device reaches the gateway as the text
//! of a `transcript` to handle. As on the other voice channels it does not go to the model: the answer is the
//! question whether to alert the contacts, and the next request of that conversation answers it. Home
//! Assistant opens a connection per request, so the question is remembered here, per conversation, with a
//! timer that raises the alarm when no answer comes within `HELP_CONFIRM_SECONDS`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::app::App;
use crate::store::users::User;
use crate::voice::help;

/// The conversations whose help question waits for its answer, each with the number of its latest question.
#[derive(Debug, Default)]
pub struct Questions {
    asked: Mutex<HashMap<String, u64>>,
    count: AtomicU64,
}

impl Questions {
    /// Whether conversation `key` waits for the answer to the help question.
    pub fn asked(&self, key: &str) -> bool {
        self.lock().contains_key(key)
    }

    /// The question was asked in conversation `key`: without an answer in time, the alarm goes out.
    pub fn ask(self: &Arc<Self>, app: Arc<App>, user: User, key: String, language: String) {
        let number = self.count.fetch_add(1, Ordering::Relaxed);
        self.lock().insert(key.clone(), number);
        let this = self.clone();
        let wait = Duration::from_secs(app.settings.voice.help_confirm_secs);
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            // Answered, or asked again since: that question's own timer decides.
            let unanswered = {
                let mut asked = this.lock();
                let still = asked.get(&key) == Some(&number);
                if still {
                    asked.remove(&key);
                }
                still
            };
            if !unanswered {
                return;
            }
            tracing::warn!(user = %user.name, "a call for help from Home Assistant was not answered; alerting the contacts");
            match help::raise(&app, &user, ("wyoming", crate::emergency::Way::Spoken), &language).await {
                Ok((status, _)) => tracing::info!(%status, "the unanswered call for help raised the alarm"),
                Err(err) => tracing::error!(%err, "the unanswered call for help could not raise the alarm"),
            }
        });
    }

    /// The question of conversation `key` was answered.
    pub fn settle(&self, key: &str) {
        self.lock().remove(key);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, u64>> {
        // A panic elsewhere while holding the lock leaves a plain map: go on with it.
        self.asked.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
