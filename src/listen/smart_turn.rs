//! Smart Turn v3: a small model (about 8M parameters, int8 ONNX, BSD-2) that hears from the last 8 s of a turn
//! whether the speaker has finished — by the words and the melody, not by the length of the silence. It lets
//! the gateway answer after a short pause when a question is complete, and wait through a thinking pause when
//! it is not.
//!
//! Its input is Whisper's log-mel spectrogram ([`super::mel`]) of the turn, left-padded with silence to 8 s; its
//! output the probability that the turn is complete. One run takes some 50–100 ms of one core, so it runs on
//! the blocking pool, once per pause.

use std::path::Path;
use std::sync::Arc;

use ort::value::Tensor;

use super::mel;
use super::onnx::Pool;

/// Two sessions: two people pausing at the same moment need not wait for each other.
const SESSIONS: usize = 2;

/// The loaded model.
#[derive(Debug)]
pub struct SmartTurn {
    sessions: Pool,
}

impl SmartTurn {
    /// Loads ONNX Runtime from `lib` (once per process) and the model from `model`.
    pub fn load(lib: &Path, model: &Path) -> Result<Arc<Self>, String> {
        let sessions = Pool::load(lib, model, "Smart Turn model", SESSIONS)?;
        Ok(Arc::new(Self { sessions }))
    }

    /// The probability that the turn whose audio (16 kHz) ends with `samples` is complete: waits for a free
    /// session as a task, then runs on the blocking pool with the features (2 ms of the run's some 80 ms).
    pub async fn judge(self: Arc<Self>, samples: Vec<i16>) -> Result<f32, String> {
        let permit = self.sessions.permit().await;
        let run = tokio::task::spawn_blocking(move || {
            let probability = self.probability(&samples);
            drop(permit);
            probability
        });
        run.await.map_err(|e| format!("the Smart Turn run ended: {e}"))?
    }

    /// The probability that the turn whose audio (16 kHz) ends with `samples` is complete. Blocks for the
    /// model's run: call it off the async runtime.
    pub fn probability(&self, samples: &[i16]) -> Result<f32, String> {
        let tail = &samples[samples.len().saturating_sub(mel::SAMPLES)..];
        let mut audio = vec![0.0f32; mel::SAMPLES - tail.len()];
        audio.extend(tail.iter().map(|&s| f32::from(s) / 32_768.0));
        let features = mel::log_mel(&audio);
        let input = Tensor::from_array(([1usize, mel::MELS, mel::FRAMES], features)).map_err(|e| e.to_string())?;
        let mut session = self.sessions.session()?;
        let outputs = session
            .run(ort::inputs!["input_features" => input])
            .map_err(|e| e.to_string())?;
        let (_, probability) = outputs[0].try_extract_tensor::<f32>().map_err(|e| e.to_string())?;
        probability
            .first()
            .copied()
            .ok_or_else(|| "Smart Turn gave no probability".into())
    }
}
