//! Hearing a speaker: the voice detectors (energy and Silero), the end-of-turn model (Smart Turn on Whisper's
//! log-mel spectrogram), the budget of audio the voice connections may buffer, and each person's pace (how long
//! their pauses may be). The voice channels use these; they hold no connection state of their own.

pub mod budget;
pub mod end_of_turn;
pub mod mel;
mod onnx;
pub mod pace;
pub mod silero;
pub mod smart_turn;
pub mod vad;
pub mod words;
