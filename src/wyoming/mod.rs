//! The Wyoming server for Home Assistant (`WYOMING_ADDR`, off by default): the protocol of the `wyoming`
//! library and of Home Assistant's `wyoming` integration over TCP, one event at a time.
//!
//! - [`codec`]: the framing (a JSON header line, data, payload), with limits.
//! - `server`: the listener, one task per connection, the connection limit, shutdown with the gateway; each
//!   event becomes a call into the stages below (a translation table, no turn-taking of its own).
//! - `events`: the events the gateway sends, as types.
//! - `info`: `describe` → `info` (the ASR, TTS and handle programs).
//! - `hear`: `transcribe` + audio → the voice core's listener (detector, Smart Turn) → `transcript`.
//! - `speak`: `synthesize` and its streaming form → audio.
//! - `handle`: `transcript` → the gateway's turn → `handled` / `not-handled`.
//! - [`mdns`]: the announcement by zeroconf, so that Home Assistant discovers the server.
//! - `help`: a call for help among the transcripts is asked back, per conversation, before the alarm.
//!
//! Home Assistant opens a new connection for every request, so a connection holds only the request in
//! progress; conversations live in the store, as gateway sessions of the Wyoming user (`WYOMING_USER`).

pub mod codec;
mod events;
mod handle;
mod hear;
mod help;
mod info;
pub mod mdns;
mod server;
mod speak;

pub use server::run;
