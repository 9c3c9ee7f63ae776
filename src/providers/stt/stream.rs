//! One interface for every recogniser: audio is pushed as it arrives, interim transcripts come out when asked
//! for, the final one when the audio ends. Engines that take whole clips are wrapped by a task that keeps the
//! audio and transcribes it at each flush and at the end; a final transcript over the same audio as the last
//! interim one is that interim one, not a second call.

use std::sync::Arc;

use tokio::sync::mpsc;

use super::{Stt, Transcript};
use crate::providers::ProviderError;
use crate::providers::audio::Pcm;

/// What a recognition reports.
#[derive(Debug, Clone, PartialEq)]
pub enum SpeechEvent {
    /// The text of the audio so far (it may still change).
    Interim(Transcript),
    /// The text of all the audio; nothing follows it.
    Final(Transcript),
}

/// What a caller sends into a recognition.
#[derive(Debug)]
pub enum Input {
    /// More samples (mono, 16-bit, at the stream's rate).
    Audio(Vec<i16>),
    /// Asks for an interim transcript of everything so far.
    Flush,
}

/// A running recognition. Dropping it ends the recognition and any call it runs.
pub struct SttStream {
    input: Option<mpsc::UnboundedSender<Input>>,
    events: mpsc::Receiver<Result<SpeechEvent, ProviderError>>,
}

impl SttStream {
    /// A stream fed by `input` and answered through `events` (an engine's own task sits between them).
    pub fn new(
        input: mpsc::UnboundedSender<Input>,
        events: mpsc::Receiver<Result<SpeechEvent, ProviderError>>,
    ) -> Self {
        Self {
            input: Some(input),
            events,
        }
    }

    /// Adds samples.
    pub fn push(&self, samples: &[i16]) {
        self.send(Input::Audio(samples.to_vec()));
    }

    /// Asks for an interim transcript of the audio so far.
    pub fn flush(&self) {
        self.send(Input::Flush);
    }

    /// No more audio: the final transcript follows.
    pub fn end(&mut self) {
        self.input = None;
    }

    /// The next event; `None` after the final transcript or an error.
    pub async fn next(&mut self) -> Option<Result<SpeechEvent, ProviderError>> {
        self.events.recv().await
    }

    /// Ends the audio and waits for the final transcript, passing over interim ones.
    pub async fn finish(mut self) -> Result<Transcript, ProviderError> {
        self.end();
        while let Some(event) = self.next().await {
            if let SpeechEvent::Final(transcript) = event? {
                return Ok(transcript);
            }
        }
        Err(ProviderError::Unusable(
            "the recognition ended without a transcript".into(),
        ))
    }

    fn send(&self, input: Input) {
        if let Some(tx) = &self.input {
            let _ = tx.send(input);
        }
    }
}

/// Starts a recognition with `engine`: its own stream where it has one, else the batching adapter.
pub fn open(engine: &Arc<dyn Stt>, sample_rate: u32, language: Option<&str>) -> SttStream {
    if let Some(stream) = engine.stream(sample_rate, language) {
        return stream;
    }
    let (input, mut audio_in) = mpsc::unbounded_channel();
    let (events, rx) = mpsc::channel(4);
    let engine = engine.clone();
    let language = language.map(String::from);
    tokio::spawn(async move {
        let mut audio = Pcm {
            sample_rate,
            samples: Vec::new(),
            channels: 1,
        };
        // The last interim transcript and how many samples it covered.
        let mut last: Option<(usize, Transcript)> = None;
        loop {
            let input = tokio::select! {
                input = audio_in.recv() => input,
                // The caller dropped the stream: stop, and drop any call with it.
                () = events.closed() => return,
            };
            let flush = match input {
                Some(Input::Audio(samples)) => {
                    audio.samples.extend_from_slice(&samples);
                    continue;
                }
                Some(Input::Flush) => true,
                None => false,
            };
            let transcript = match &last {
                Some((covered, transcript)) if *covered == audio.samples.len() => Ok(transcript.clone()),
                _ => tokio::select! {
                    result = engine.transcribe(&audio, language.as_deref()) => result,
                    () = events.closed() => return,
                },
            };
            let event = match transcript {
                Ok(t) if flush => {
                    last = Some((audio.samples.len(), t.clone()));
                    Ok(SpeechEvent::Interim(t))
                }
                Ok(t) => Ok(SpeechEvent::Final(t)),
                Err(e) => Err(e),
            };
            let failed = event.is_err();
            if events.send(event).await.is_err() || failed || !flush {
                return;
            }
        }
    });
    SttStream::new(input, rx)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use async_trait::async_trait;

    use super::*;
    use crate::providers::registry::{Capabilities, Cost, Engine, Setup};

    /// A recogniser that reports how many samples it was given, and counts its calls.
    #[derive(Default)]
    struct Counting(AtomicUsize);

    impl Engine for Counting {
        fn capabilities(&self) -> Capabilities {
            Capabilities {
                configured: true,
                streaming: false,
                local: true,
                languages: Vec::new(),
                voices: Vec::new(),
                sample_rates: vec![16_000],
                cost: Cost::Free,
            }
        }
        fn setup(&self) -> Setup {
            Setup::default()
        }
    }

    #[async_trait]
    impl Stt for Counting {
        async fn transcribe(&self, audio: &Pcm, _: Option<&str>) -> Result<Transcript, ProviderError> {
            self.0.fetch_add(1, Ordering::SeqCst);
            Ok(Transcript {
                text: audio.samples.len().to_string(),
                language: None,
                words: Vec::new(),
            })
        }
    }

    #[tokio::test]
    async fn a_batch_engine_streams_interim_and_final_transcripts_without_a_second_call_for_the_same_audio() {
        let counting = Arc::new(Counting::default());
        let engine: Arc<dyn Stt> = counting.clone();
        let mut stream = open(&engine, 16_000, Some("de"));
        stream.push(&[0; 100]);
        stream.flush();
        assert!(matches!(stream.next().await, Some(Ok(SpeechEvent::Interim(t))) if t.text == "100"));
        // Nothing came after the interim transcript: the final one is the same, without another call.
        assert_eq!(stream.finish().await.unwrap().text, "100");
        assert_eq!(counting.0.load(Ordering::SeqCst), 1);

        let mut stream = open(&engine, 16_000, None);
        stream.push(&[0; 100]);
        stream.flush();
        assert!(matches!(stream.next().await, Some(Ok(SpeechEvent::Interim(_)))));
        stream.push(&[0; 60]);
        assert_eq!(
            stream.finish().await.unwrap().text,
            "160",
            "the final covers the audio after it"
        );
        assert_eq!(counting.0.load(Ordering::SeqCst), 3);
    }
}
