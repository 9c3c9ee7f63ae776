//! Voice activity detection: frames are classified as speech or not, and an utterance ends when at least
//! `min_speech` of speech was followed by `silence` of quiet.
//!
//! Two classifiers: the energy one (20 ms frames whose RMS level is above a threshold) always works; the
//! neural one ([`super::silero`], 32 ms windows with a speech probability) tells speech from noise and is used
//! when its runtime and model are there. Should the model fail on a connection, that connection goes on with
//! the energy classifier.

use std::sync::Arc;

use super::silero::{SileroModel, SileroVad};
use crate::config::VoiceSettings;

/// Silence kept before the first speech frame, so the first syllable is not cut.
const PRE_ROLL_MS: u32 = 300;
/// Below the speech probability by this much a window is silence; in between it keeps the last decision.
const HYSTERESIS: f32 = 0.15;

/// The detector's tuning.
#[derive(Debug, Clone, Copy)]
pub struct VadConfig {
    /// RMS level above which a frame is speech.
    pub threshold: f64,
    /// Speech needed before an utterance may end, in ms.
    pub min_speech_ms: u32,
    /// Trailing silence that ends an utterance, in ms.
    pub silence_ms: u32,
    /// Speech probability at which a neural window counts as speech.
    pub speech_probability: f32,
}

impl From<&VoiceSettings> for VadConfig {
    fn from(s: &VoiceSettings) -> Self {
        Self {
            threshold: f64::from(s.vad_threshold),
            min_speech_ms: s.vad_min_speech_ms,
            silence_ms: s.vad_silence_ms,
            speech_probability: s.vad_speech_probability,
        }
    }
}

/// How a frame is judged.
#[derive(Debug)]
enum Classifier {
    Energy,
    Neural { model: Box<SileroVad>, speaking: bool },
}

/// Follows one utterance at a time through the samples the caller buffers.
#[derive(Debug)]
pub struct Vad {
    config: VadConfig,
    classifier: Classifier,
    sample_rate: u32,
    frame_ms: u32,
    frame_len: usize,
    /// Samples of the caller's buffer already analysed.
    analysed: usize,
    /// Speech in the utterance being followed, and the silence since its last speech, in ms (kept in ms, not
    /// frames, so a switch to the energy classifier's shorter frames keeps counting right).
    speech_ms: u32,
    silence_ms: u32,
    /// Speech of the last utterance that ended, in ms.
    last_speech_ms: u32,
    last_silence_ms: u32,
}

/// What the caller should do with its buffer after new samples.
#[derive(Debug, PartialEq, Eq)]
pub enum VadEvent {
    /// Nothing yet.
    Listening,
    /// No speech so far: the first `n` samples are old silence and may be dropped.
    DropSilence(usize),
    /// The utterance ended: the first `n` samples hold it.
    Utterance(usize),
}

impl Vad {
    /// An energy detector for audio of `sample_rate`.
    pub fn new(config: VadConfig, sample_rate: u32) -> Self {
        Self {
            config,
            classifier: Classifier::Energy,
            sample_rate,
            frame_ms: 20,
            frame_len: (sample_rate * 20 / 1000).max(1) as usize,
            analysed: 0,
            speech_ms: 0,
            silence_ms: 0,
            last_speech_ms: 0,
            last_silence_ms: 0,
        }
    }

    /// A neural detector when the model knows the rate (8 or 16 kHz), else an energy one.
    pub fn neural(config: VadConfig, sample_rate: u32, model: &Arc<SileroModel>) -> Self {
        let Some(model) = SileroVad::new(model.clone(), sample_rate) else {
            return Self::new(config, sample_rate);
        };
        Self {
            frame_len: model.window(),
            classifier: Classifier::Neural {
                model: Box::new(model),
                speaking: false,
            },
            frame_ms: 32,
            ..Self::new(config, sample_rate)
        }
    }

    /// Sets the trailing silence that ends an utterance (a person's patience may lengthen it while they speak).
    pub fn set_silence_ms(&mut self, ms: u32) {
        self.config.silence_ms = ms;
    }

    /// Speech heard so far in the utterance being followed, in ms.
    pub fn speech_ms(&self) -> u32 {
        self.speech_ms
    }

    /// Silence since the last speech of the utterance being followed, in ms (0 while speech goes on).
    pub fn silence_ms(&self) -> u32 {
        self.silence_ms
    }

    /// Samples of the caller's buffer analysed so far.
    pub fn analysed(&self) -> usize {
        self.analysed
    }

    /// Whether the utterance being followed has had enough speech to end at the next long silence.
    pub fn has_enough_speech(&self) -> bool {
        self.speech_ms() >= self.config.min_speech_ms
    }

    /// Speech in the utterance that [`VadEvent::Utterance`] reported last, in ms.
    pub fn last_speech_ms(&self) -> u32 {
        self.last_speech_ms
    }

    /// Silence after the utterance that ended last (by [`VadEvent::Utterance`] or [`Vad::finish`]), in ms.
    pub fn last_silence_ms(&self) -> u32 {
        self.last_silence_ms
    }

    /// Ends the utterance being followed now (the end-of-turn model heard it complete); returns how many samples
    /// of the caller's buffer hold it.
    pub fn finish(&mut self) -> usize {
        let end = self.analysed;
        self.last_speech_ms = self.speech_ms;
        self.last_silence_ms = self.silence_ms;
        self.reset();
        end
    }

    /// Starts over (after the caller took an utterance or cleared its buffer).
    pub fn reset(&mut self) {
        self.analysed = 0;
        self.speech_ms = 0;
        self.silence_ms = 0;
    }

    /// Analyses the new whole frames of `buffer` (everything the caller holds since the last reset).
    pub fn update(&mut self, buffer: &[i16]) -> VadEvent {
        while self.analysed + self.frame_len <= buffer.len() {
            let frame = &buffer[self.analysed..self.analysed + self.frame_len];
            self.analysed += self.frame_len;
            let frame_ms = self.frame_ms;
            if self.is_speech(frame) {
                self.speech_ms += frame_ms;
                self.silence_ms = 0;
            } else if self.speech_ms > 0 {
                self.silence_ms += frame_ms;
            }
            if self.silence_ms >= self.config.silence_ms {
                if self.has_enough_speech() {
                    return VadEvent::Utterance(self.finish());
                }
                // A click or cough too short to be speech: forget it.
                self.speech_ms = 0;
                self.silence_ms = 0;
            }
        }
        let pre_roll = self.frame_len * (PRE_ROLL_MS / self.frame_ms) as usize;
        if self.speech_ms == 0 && self.analysed > pre_roll * 2 {
            let drop = self.analysed - pre_roll;
            self.analysed -= drop;
            return VadEvent::DropSilence(drop);
        }
        VadEvent::Listening
    }
}

impl Vad {
    /// Whether a frame is speech; a neural model that fails hands the connection to the energy classifier.
    fn is_speech(&mut self, frame: &[i16]) -> bool {
        let threshold = self.config.speech_probability;
        let Classifier::Neural { model, speaking } = &mut self.classifier else {
            return rms(frame) >= self.config.threshold;
        };
        match model.probability(frame) {
            Ok(p) => {
                if p >= threshold {
                    *speaking = true;
                } else if p < threshold - HYSTERESIS {
                    *speaking = false;
                }
                *speaking
            }
            Err(err) => {
                tracing::warn!(%err, "the Silero detector failed; this connection goes on with the energy one");
                let energy = Self::new(self.config, self.sample_rate);
                (self.classifier, self.frame_ms, self.frame_len) =
                    (energy.classifier, energy.frame_ms, energy.frame_len);
                rms(frame) >= self.config.threshold
            }
        }
    }
}

/// Root mean square level of a frame.
fn rms(frame: &[i16]) -> f64 {
    if frame.is_empty() {
        return 0.0;
    }
    let sum: f64 = frame.iter().map(|&s| f64::from(s) * f64::from(s)).sum();
    (sum / frame.len() as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    const RATE: u32 = 16_000;

    fn config() -> VadConfig {
        VadConfig {
            threshold: 500.0,
            min_speech_ms: 200,
            silence_ms: 600,
            speech_probability: 0.5,
        }
    }

    fn silence(ms: u32) -> Vec<i16> {
        vec![0; (RATE * ms / 1000) as usize]
    }

    fn tone(ms: u32) -> Vec<i16> {
        (0..(RATE * ms / 1000))
            .map(|i| ((f64::from(i) / f64::from(RATE) * 440.0 * std::f64::consts::TAU).sin() * 6000.0) as i16)
            .collect()
    }

    /// Feeds audio in 100 ms pieces the way a client sends it, applying the detector's instructions.
    fn run(audio: &[i16]) -> Vec<usize> {
        let mut vad = Vad::new(config(), RATE);
        let mut buffer = Vec::new();
        let mut utterances = Vec::new();
        for piece in audio.chunks(1600) {
            buffer.extend_from_slice(piece);
            match vad.update(&buffer) {
                VadEvent::Utterance(n) => {
                    utterances.push(n);
                    buffer.drain(..n);
                    vad.reset();
                    // The rest of the buffer is analysed with the next piece.
                }
                VadEvent::DropSilence(n) => {
                    buffer.drain(..n);
                }
                VadEvent::Listening => {}
            }
        }
        utterances
    }

    #[test]
    fn silence_tone_silence_is_one_utterance() {
        let audio = [silence(500), tone(1000), silence(1000)].concat();
        let found = run(&audio);
        assert_eq!(found.len(), 1);
        // Pre-roll (up to 300 ms) + 1 s tone + 600 ms silence, within a frame and a piece.
        let seconds = found[0] as f64 / f64::from(RATE);
        assert!((1.5..=2.1).contains(&seconds), "{seconds}");
    }

    #[test]
    fn silence_alone_never_ends_an_utterance_and_does_not_pile_up() {
        let mut vad = Vad::new(config(), RATE);
        let mut buffer = Vec::new();
        for _ in 0..100 {
            buffer.extend(silence(100));
            if let VadEvent::DropSilence(n) = vad.update(&buffer) {
                buffer.drain(..n);
            }
        }
        assert!(buffer.len() <= (RATE as usize) * 7 / 10, "{}", buffer.len());
    }

    #[test]
    fn a_click_is_not_speech_and_two_utterances_are_found() {
        let click = [silence(300), tone(40), silence(1000)].concat();
        assert!(run(&click).is_empty());
        let two = [tone(500), silence(800), tone(400), silence(800)].concat();
        assert_eq!(run(&two).len(), 2);
    }
}
