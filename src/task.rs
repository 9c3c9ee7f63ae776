//! How spawned work ends: a task that stops with its owner, and how long running work may take to finish
//! after a shutdown signal.

use std::time::Duration;

/// Aborts a spawned task when dropped: a background task stops with the server, a turn's speaker with its
/// turn.
pub(crate) struct AbortOnDrop<T = ()>(pub(crate) tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// How long running requests may take to finish after a shutdown signal.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);
