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

/// How long the stop waits for what it told to end (a socket's close, a call's BYE and its answer) before the
/// process ends: a stop with boards, pages and calls open is over within three seconds.
pub const STOP_WAIT: Duration = Duration::from_secs(2);

/// The gateway's stop as long-lived work sees it (an event stream, a WebSocket, a call): each holds a
/// [`Stop::hold`], ends as soon as the stop begins (the stream ends, the socket closes with 1001, the call
/// sends its BYE), and the stop waits until every hold is dropped, for at most [`STOP_WAIT`].
pub struct Stop(tokio::sync::watch::Sender<bool>);

impl Default for Stop {
    fn default() -> Self {
        Self(tokio::sync::watch::channel(false).0)
    }
}

impl Stop {
    /// A hold on the stop: [`stopped`] on it completes when the stop begins; the stop waits for its drop.
    pub fn hold(&self) -> tokio::sync::watch::Receiver<bool> {
        self.0.subscribe()
    }

    /// Tells every hold that the gateway stops.
    pub fn begin(&self) {
        self.0.send_replace(true);
    }

    /// Waits until every hold is dropped, for at most `within`: whether they all were.
    pub async fn drained(&self, within: Duration) -> bool {
        tokio::time::timeout(within, self.0.closed()).await.is_ok()
    }
}

/// Completes once the gateway stops (or its signal is gone).
pub async fn stopped(hold: &mut tokio::sync::watch::Receiver<bool>) {
    // The guard `wait_for` gives is not held across an await: dropped here.
    let _ = hold.wait_for(|stopping| *stopping).await;
}

/// Runs `work`, catching its panic: the panic's message as the error. A call's, a connection's or a turn's
/// task that fails this way is ended as a hang-up would end it, and counted, while the rest goes on.
pub async fn caught<F: std::future::Future>(work: F) -> Result<F::Output, String> {
    use futures_util::FutureExt;
    std::panic::AssertUnwindSafe(work)
        .catch_unwind()
        .await
        .map_err(|payload| panic_message(payload.as_ref()))
}

/// What a panic said.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

/// Work of which each key runs once at a time (a person's export): a second start while one runs is refused.
#[derive(Default)]
pub struct OneAtATime(std::sync::Arc<std::sync::Mutex<std::collections::HashSet<String>>>);

/// The running work of a key, until dropped.
pub struct Running {
    keys: std::sync::Arc<std::sync::Mutex<std::collections::HashSet<String>>>,
    key: String,
}

impl OneAtATime {
    /// Starts the work of `key`; `None` while it runs already.
    pub fn start(&self, key: &str) -> Option<Running> {
        let mut keys = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        keys.insert(key.to_string()).then(|| Running {
            keys: self.0.clone(),
            key: key.to_string(),
        })
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let mut keys = self.keys.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        keys.remove(&self.key);
    }
}

/// Failures injected by tests into live calls and connections, by door: the next turn of a call (or the next
/// frame of a connection) on an armed door panics once. Nothing on the wire or in the settings arms it; only
/// code holding the `App` can, which in practice is the test suite.
#[derive(Default)]
pub struct Faults {
    /// Whether any door is armed: every frame of every call asks, and is answered without a lock.
    armed: std::sync::atomic::AtomicBool,
    doors: std::sync::Mutex<Vec<&'static str>>,
}

impl Faults {
    /// The next [`Self::trip`] on `door` panics.
    pub fn arm(&self, door: &'static str) {
        self.lock().push(door);
        self.armed.store(true, std::sync::atomic::Ordering::Release);
    }

    /// Panics when `door` was armed (once per arming).
    pub fn trip(&self, door: &str) {
        if !self.armed.load(std::sync::atomic::Ordering::Acquire) {
            return;
        }
        let tripped = {
            let mut doors = self.lock();
            let tripped = doors.iter().position(|d| *d == door).map(|at| doors.remove(at));
            self.armed
                .store(!doors.is_empty(), std::sync::atomic::Ordering::Release);
            tripped
        };
        if tripped.is_some() {
            panic!("a failure injected into the {door} door");
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<&'static str>> {
        self.doors.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_at_a_time_refuses_a_second_start_of_a_key_until_the_first_ends() {
        let running = OneAtATime::default();
        let first = running.start("anna").expect("the first");
        assert!(running.start("anna").is_none());
        assert!(running.start("bob").is_some(), "another key");
        drop(first);
        assert!(running.start("anna").is_some());
    }

    #[tokio::test]
    async fn a_panic_is_caught_with_its_message_and_an_armed_fault_trips_once() {
        assert_eq!(caught(async { 7 }).await, Ok(7));
        let faults = Faults::default();
        faults.arm("sip");
        faults.trip("twilio");
        let failed = caught(async { faults.trip("sip") }).await;
        assert_eq!(failed, Err("a failure injected into the sip door".into()));
        assert_eq!(caught(async { faults.trip("sip") }).await, Ok(()));
        let formatted = caught(async { panic!("{} overflow", 2) }).await;
        assert_eq!(formatted, Err("2 overflow".into()));
    }
}
