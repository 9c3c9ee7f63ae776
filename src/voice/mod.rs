//! The voice core, the same under every channel (`/ws/voice`, `/ws/chat`, `/v1/realtime`, Wyoming): audio in
//! → voice detector and end of turn → transcription (early, while the end is awaited, and final) → the
//! gateway's turn → sentences → speech out, with barge-in and cancellation. A channel only translates its wire
//! to and from this core:
//! - [`listener`]: hearing one speaker: the detector, Smart Turn, early transcription, barge-in, limits; it
//!   says what it heard ([`listener::Heard`]).
//! - [`conversation`]: the running turn of a connection and the help question; what the channel waits on.
//! - [`turn`]: one voice or text turn as events ([`events`]), spoken sentence by sentence.
//! - [`help`]: calls for help by voice, asked back before the alarm.
//! - [`heard`]: what of an answer was played before the person interrupted it, for the stored answer.
//! - [`stages`]: where the time of each voice turn goes, for `/metrics` and the admin panel.

pub mod conversation;
pub mod events;
pub mod heard;
pub mod help;
pub mod listener;
pub mod phrases;
pub mod recognition;
pub mod stages;
pub mod turn;

pub use conversation::{Conversation, Next};
pub use events::{Options, Out, ServerEvent, Tx, error_event};
pub use listener::{Detection, Heard, Listener, Utterance};
