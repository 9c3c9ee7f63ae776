//! ONNX Runtime, loaded at run time from `ONNXRUNTIME_LIB` (the library inside the PyPI `onnxruntime` wheel
//! will do), and the small pools of sessions the neural models of the voice channel run in.

use std::path::Path;
use std::sync::{Mutex, MutexGuard, OnceLock};

use ort::session::Session;

/// The ONNX Runtime library, loaded once per process (a second library could not be loaded anyway).
static RUNTIME: OnceLock<Result<ort::environment::Environment, String>> = OnceLock::new();

/// A model's sessions, shared by all connections; a few are enough on a machine of two cores.
pub struct Pool {
    sessions: Vec<Mutex<Session>>,
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
        let sessions = (0..size.max(1))
            .map(|_| {
                Session::builder(&environment)
                    .and_then(|b| b.with_intra_threads(1).map_err(Into::into))
                    .and_then(|mut b| b.commit_from_memory(&bytes))
                    .map(Mutex::new)
                    .map_err(|e| format!("{what} {}: {e}", model.display()))
            })
            .collect::<Result<_, _>>()?;
        Ok(Self { sessions })
    }

    /// Any free session; when all are busy, waits for the first.
    pub fn session(&self) -> Result<MutexGuard<'_, Session>, String> {
        self.sessions
            .iter()
            .find_map(|s| s.try_lock().ok())
            .or_else(|| self.sessions[0].lock().ok())
            .ok_or_else(|| "an ONNX session is poisoned".into())
    }
}
