//! One interface for every synthesiser: speech comes out as mono 16-bit PCM chunks while it is produced.
//! Engines that produce a whole file are wrapped: the file becomes one chunk.

use std::sync::Arc;

use tokio::sync::mpsc;

use super::{SpeechRequest, Tts};
use crate::providers::ProviderError;
use crate::providers::audio::{Pcm, parse_wav, to_mono};

/// Speech as it is produced. Dropping it stops the synthesis.
pub struct SpeechStream {
    /// Samples per second of every chunk.
    pub sample_rate: u32,
    chunks: mpsc::Receiver<Result<Vec<i16>, ProviderError>>,
}

impl SpeechStream {
    /// A stream of chunks at `sample_rate`, fed by an engine's task.
    pub fn new(sample_rate: u32, chunks: mpsc::Receiver<Result<Vec<i16>, ProviderError>>) -> Self {
        Self { sample_rate, chunks }
    }

    /// The next chunk of samples; `None` when the speech is complete.
    pub async fn next(&mut self) -> Option<Result<Vec<i16>, ProviderError>> {
        self.chunks.recv().await
    }

    /// All of the speech.
    pub async fn collect(mut self) -> Result<Pcm, ProviderError> {
        let mut samples = Vec::new();
        while let Some(chunk) = self.next().await {
            samples.extend_from_slice(&chunk?);
        }
        Ok(Pcm {
            sample_rate: self.sample_rate,
            samples,
            channels: 1,
        })
    }
}

/// Starts speaking with `engine`: its own stream where it has one, else its whole file as one chunk.
pub async fn open(engine: &Arc<dyn Tts>, id: &str, request: &SpeechRequest<'_>) -> Result<SpeechStream, ProviderError> {
    if let Some(stream) = engine.stream(request).await {
        return stream;
    }
    let speech = engine.speak(request).await?;
    let pcm = parse_wav(&speech.audio).map_err(|e| ProviderError::failed(id, e.to_string()))?;
    let pcm = to_mono(pcm);
    let (tx, rx) = mpsc::channel(1);
    // The channel has room for the one chunk, so this send does not wait.
    let _ = tx.try_send(Ok(pcm.samples));
    Ok(SpeechStream::new(pcm.sample_rate, rx))
}
