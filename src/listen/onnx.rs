//! ONNX Runtime, loaded at run time from `ONNXRUNTIME_LIB` (the library inside the PyPI `onnxruntime` wheel
//! will do), and the small pools of sessions the neural models of the voice channel run in.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use ort::session::Session;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The ONNX Runtime library, loaded once per process (a second library could not be loaded anyway).
static RUNTIME: OnceLock<Result<ort::environment::Environment, String>> = OnceLock::new();

/// A model's sessions, shared by all connections; a few are enough on a machine of two cores.
pub struct Pool {
    sessions: Vec<Mutex<Session>>,
    /// One permit a session: runs wait for one as tasks of the runtime, not as threads blocked on a lock.
    permits: Arc<Semaphore>,
    /// The session waited for next when all are busy.
    turn: AtomicUsize,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool").field("sessions", &self.sessions.len()).finish()
    }
}

impl Pool {
    /// Loads ONNX Runtime from `lib` (once per process) and `size` sessions of the model at `model`, each
    /// running on one thread. `what` names the model in errors.
    pub fn load(lib: &Path, model: &Path, what: &str, size: usize) -> Result<Self, String> {
        for (name, path) in [("ONNX Runtime library", lib), (what, model)] {
            if !path.is_file() {
                return Err(format!("{name} not found at {}", path.display()));
            }
        }
        let runtime = RUNTIME.get_or_init(|| {
            let builder = ort::init_from(lib).map_err(|e| format!("ONNX Runtime {}: {e}", lib.display()))?;
            builder.build().map_err(|e| format!("ONNX Runtime: {e}"))
        });
        let environment = runtime.clone()?;
        let bytes = std::fs::read(model).map_err(|e| format!("{}: {e}", model.display()))?;
        let sessions: Vec<Mutex<Session>> = (0..size.max(1))
            .map(|_| {
                Session::builder(&environment)
                    .and_then(|b| b.with_intra_threads(1).map_err(Into::into))
                    .and_then(|mut b| b.commit_from_memory(&bytes))
                    .map(Mutex::new)
                    .map_err(|e| format!("{what} {}: {e}", model.display()))
            })
            .collect::<Result<_, _>>()?;
        let permits = Arc::new(Semaphore::new(sessions.len()));
        Ok(Self {
            sessions,
            permits,
            turn: AtomicUsize::new(0),
        })
    }

    /// Waits (as a task) until a session is free; a run holding the permit finds one at once in
    /// [`Pool::session`]. Without it, a hundred people pausing at once made a hundred blocked threads, each
    /// holding its audio, all queued on the first session while the second was free.
    pub async fn permit(&self) -> OwnedSemaphorePermit {
        self.permits
            .clone()
            .acquire_owned()
            .await
            .expect("the pool's semaphore is never closed")
    }

    /// Any free session; when all are busy (only without a permit), waits for the next in turn.
    pub fn session(&self) -> Result<MutexGuard<'_, Session>, String> {
        if let Some(free) = self.sessions.iter().find_map(|s| s.try_lock().ok()) {
            return Ok(free);
        }
        let next = self.turn.fetch_add(1, Ordering::Relaxed) % self.sessions.len();
        self.sessions[next]
            .lock()
            .map_err(|_| "an ONNX session is poisoned".into())
    }
}
