//! Silero VAD: a small neural voice detector (ONNX, MIT) run through ONNX Runtime, loaded at run time from
//! `ONNXRUNTIME_LIB` (the library inside the PyPI `onnxruntime` wheel will do). It tells speech from noise
//! where the energy detector hears any loud sound as speech.
//!
//! The model takes windows of 512 samples at 16 kHz (256 at 8 kHz) with the 64 (32) samples before them as
//! context, and carries a recurrent state from window to window; each connection keeps its own context and
//! state, and the loaded model (a small pool of sessions) is shared. A window takes about 0.1 ms of CPU, so it
//! runs inline on the connection's task.

use std::path::Path;
use std::sync::Arc;

use ort::value::Tensor;

use super::onnx::Pool;

/// Sessions shared by all connections.
const SESSIONS: usize = 2;
/// Size of the recurrent state (2 × 1 × 128).
const STATE: usize = 256;

/// The loaded model.
#[derive(Debug)]
pub struct SileroModel {
    sessions: Pool,
}

impl SileroModel {
    /// Loads ONNX Runtime from `lib` (once per process) and the model from `model`.
    pub fn load(lib: &Path, model: &Path) -> Result<Arc<Self>, String> {
        let sessions = Pool::load(lib, model, "Silero VAD model", SESSIONS)?;
        Ok(Arc::new(Self { sessions }))
    }

    /// The speech probability of one window (`context` samples followed by the window), carrying `state`.
    fn probability(&self, input: Vec<f32>, state: &mut [f32; STATE], sample_rate: i64) -> Result<f32, String> {
        let mut session = self.sessions.session()?;
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
