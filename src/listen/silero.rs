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

/// Sessions shared by all connections: one a thread of the async runtime (which runs the windows inline), so
/// that a window never waits for another connection's.
fn sessions() -> usize {
    std::thread::available_parallelism().map_or(2, usize::from).max(2)
}
/// The level (RMS of 16-bit samples, about -58 dBFS) under which a window is taken for silence unheard: a
/// quiet room through a microphone, or a telephone line's comfort noise; speech at a microphone is some 30 dB
/// louder, and the energy detector's `VAD_THRESHOLD` starts at 500.
pub const QUIET_RMS: f64 = 40.0;
/// Quiet windows the model still hears before the rest are skipped: its state settles on the quiet it heard,
/// and keeps that until speech comes (so it hears an onset as it would after the whole silence). Eight, a
/// quarter of a second: with six or more no window of the reference fixture is judged otherwise than without
/// skipping; with four one is, and with none the first word's onset is heard late.
const SETTLE: u32 = 8;
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
        let sessions = Pool::load(lib, model, "Silero VAD model", sessions())?;
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
    /// Quiet windows in a row.
    quiet: u32,
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
            quiet: 0,
        })
    }

    /// Samples per window: 32 ms.
    pub fn window(&self) -> usize {
        self.sample_rate as usize * 32 / 1000
    }

    /// The speech probability of the next window of exactly [`SileroVad::window`] samples. After [`SETTLE`]
    /// windows quieter than [`QUIET_RMS`], the next quiet ones are silence without asking the model: between
    /// a person's sentences and while they listen most windows are such, and the model was a third of the
    /// gateway's work per talker.
    pub fn probability(&mut self, window: &[i16]) -> Result<f32, String> {
        let energy: f64 = window.iter().map(|&s| f64::from(s) * f64::from(s)).sum();
        let quiet = energy < QUIET_RMS * QUIET_RMS * window.len() as f64;
        self.quiet = if quiet { self.quiet.saturating_add(1) } else { 0 };
        if self.quiet > SETTLE {
            let keep = self.context.len();
            for (c, &s) in self.context.iter_mut().zip(&window[window.len() - keep..]) {
                *c = f32::from(s) / 32_768.0;
            }
            return Ok(0.0);
        }
        self.model_probability(window)
    }

    /// The model's speech probability of the next window, however quiet.
    pub fn model_probability(&mut self, window: &[i16]) -> Result<f32, String> {
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
        self.quiet = 0;
    }
}
