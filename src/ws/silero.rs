//! Silero VAD: a small neural voice detector (ONNX, MIT) run through ONNX Runtime, loaded at run time from
//! `ONNXRUNTIME_LIB` (the library inside the PyPI `onnxruntime` wheel will do). It tells speech from noise
//! where the energy detector hears any loud sound as speech.
//!
//! The model takes windows of 512 samples at 16 kHz (256 at 8 kHz) with the 64 (32) samples before them as
//! context, and carries a recurrent state from window to window; each connection keeps its own context and
//! state, and the loaded model (a small pool of sessions) is shared. A window takes about 0.1 ms of CPU, so it
//! runs inline on the connection's task.

use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use ort::session::Session;
use ort::value::Tensor;

/// Sessions shared by all connections; more would only hold memory on a machine of two cores.
const SESSIONS: usize = 2;
/// Size of the recurrent state (2 × 1 × 128).
const STATE: usize = 256;

/// The loaded model.
pub struct SileroModel {
    sessions: Vec<Mutex<Session>>,
}

impl std::fmt::Debug for SileroModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SileroModel")
            .field("sessions", &self.sessions.len())
            .finish()
    }
}

/// The ONNX Runtime library, loaded once per process (a second library could not be loaded anyway).
static RUNTIME: OnceLock<Result<ort::environment::Environment, String>> = OnceLock::new();

impl SileroModel {
    /// Loads ONNX Runtime from `lib` (once per process) and the model from `model`.
    pub fn load(lib: &Path, model: &Path) -> Result<Arc<Self>, String> {
        for (what, path) in [("ONNX Runtime library", lib), ("Silero VAD model", model)] {
            if !path.is_file() {
                return Err(format!("{what} not found at {}", path.display()));
            }
        }
        let runtime = RUNTIME.get_or_init(|| {
            let builder = ort::init_from(lib).map_err(|e| format!("ONNX Runtime {}: {e}", lib.display()))?;
            builder.build().map_err(|e| format!("ONNX Runtime: {e}"))
        });
        let environment = runtime.clone()?;
        let bytes = std::fs::read(model).map_err(|e| format!("{}: {e}", model.display()))?;
        let mut sessions = Vec::with_capacity(SESSIONS);
        for _ in 0..SESSIONS {
            let session = Session::builder(&environment)
                .and_then(|b| b.with_intra_threads(1).map_err(Into::into))
                .and_then(|mut b| b.commit_from_memory(&bytes))
                .map_err(|e| format!("Silero VAD model {}: {e}", model.display()))?;
            sessions.push(Mutex::new(session));
        }
        Ok(Arc::new(Self { sessions }))
    }

    /// The speech probability of one window (`context` samples followed by the window), carrying `state`.
    fn probability(&self, input: Vec<f32>, state: &mut [f32; STATE], sample_rate: i64) -> Result<f32, String> {
        // Any free session; when both are busy, wait for the first.
        let mut session = self
            .sessions
            .iter()
            .find_map(|s| s.try_lock().ok())
            .or_else(|| self.sessions[0].lock().ok())
            .ok_or("the Silero session is poisoned")?;
        let len = input.len();
        let outputs = session
            .run(ort::inputs![
                "input" => Tensor::from_array(([1usize, len], input)).map_err(|e| e.to_string())?,
                "state" => Tensor::from_array(([2usize, 1, 128], state.to_vec())).map_err(|e| e.to_string())?,
                "sr" => Tensor::from_array((Vec::<usize>::new(), vec![sample_rate])).map_err(|e| e.to_string())?,
            ])
            .map_err(|e| e.to_string())?;
        let (_, probability) = outputs["output"]
            .try_extract_tensor::<f32>()
            .map_err(|e| e.to_string())?;
        let (_, next) = outputs["stateN"]
            .try_extract_tensor::<f32>()
            .map_err(|e| e.to_string())?;
        if next.len() == STATE {
            state.copy_from_slice(next);
        }
        probability.first().copied().ok_or_else(|| "no probability".into())
    }
}

/// One connection's detector: the window size of its rate, the context and the recurrent state.
#[derive(Debug)]
pub struct SileroVad {
    model: Arc<SileroModel>,
    sample_rate: u32,
    context: Vec<f32>,
    state: [f32; STATE],
}

impl SileroVad {
    /// A detector for audio of `sample_rate`; only 8 and 16 kHz are what the model knows.
    pub fn new(model: Arc<SileroModel>, sample_rate: u32) -> Option<Self> {
        let context = match sample_rate {
            16_000 => 64,
            8_000 => 32,
            _ => return None,
        };
        Some(Self {
            model,
            sample_rate,
            context: vec![0.0; context],
            state: [0.0; STATE],
        })
    }

    /// Samples per window: 32 ms.
    pub fn window(&self) -> usize {
        self.sample_rate as usize * 32 / 1000
    }

    /// The speech probability of the next window of exactly [`SileroVad::window`] samples.
    pub fn probability(&mut self, window: &[i16]) -> Result<f32, String> {
        let mut input = Vec::with_capacity(self.context.len() + window.len());
        input.extend_from_slice(&self.context);
        input.extend(window.iter().map(|&s| f32::from(s) / 32_768.0));
        let keep = self.context.len();
        self.context.copy_from_slice(&input[input.len() - keep..]);
        self.model
            .probability(input, &mut self.state, i64::from(self.sample_rate))
    }

    /// Forgets the context and state (a new utterance starts from silence).
    pub fn reset(&mut self) {
        self.context.fill(0.0);
        self.state = [0.0; STATE];
    }
}
