//! A look's claim on what it delivers (reminders, check-ins): renewed while the delivery runs, so that no
//! other look or instance takes it up however long a call rings; a look that stops renews nothing.

use std::sync::Arc;
use std::time::Duration;

use super::LEASE_MS;
use crate::app::App;
use crate::store::now_ms;

/// Renews a look's claim (its reminders and check-ins) every twelfth of a lease (five seconds; two indexed
/// statements) until dropped.
pub struct Renewing(tokio::task::JoinHandle<()>);

impl Renewing {
    /// Starts renewing `claim` on `app`'s store.
    pub fn start(app: Arc<App>, claim: String) -> Self {
        Self(tokio::spawn(async move {
            let every = Duration::from_millis(LEASE_MS as u64 / 12);
            loop {
                tokio::time::sleep(every).await;
                if let Err(err) = app.store.renew_care_claims(&claim, now_ms() + LEASE_MS).await {
                    tracing::warn!(%err, "a reminder's claim could not be renewed");
                }
            }
        }))
    }
}

impl Drop for Renewing {
    fn drop(&mut self) {
        self.0.abort();
    }
}
