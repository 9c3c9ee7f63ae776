//! voice-gateway: a self-hosted voice assistant gateway.
//!
//! # Layout
//! Grouped from the ground up. No two modules depend on each other, even through others (top-level modules,
//! and the modules inside one); no module names the crate root, which is only this map; and the voice core
//! (`turn`, `listen`, `voice`) reaches no channel. The `architecture` tests check all three.
//!
//! **Foundations**
//! - [`error`]: the one error type and the contract's error body; [`guesses`]: failed credentials per client
//!   address, and the addresses that wait for guessing.
//! - [`config`]: settings from the environment by area, profiles, the 16 runtime-overridable keys.
//! - [`store`]: the database, SQLite or PostgreSQL (migrations in `migrations/`), one file per group of tables.
//! - [`logging`]: the service log, also broadcast to admins; [`traces`]: turns exported as OpenTelemetry spans.
//! - [`metrics`]: counters of fallbacks, provider errors and quota rejections; [`latency`]: the last day's
//!   voice turns stage by stage, for the admin panel.
//! - [`task`]: spawned work that stops with its owner; [`deadline`]: writes that give up when a raw
//!   connection's peer stops reading; [`files`]: files written for the owner only; [`hours`]: daily spans of
//!   wall-clock time (a check-in window, quiet hours); [`clock`]: moments that cannot overflow, however long
//!   the wait a peer asked for.
//! - [`connections`]: one connection budget for every door, derived from the descriptor limit, shared by address.
//! - [`notify`]: events pushed to a person's open connections (a reminder that is due).
//! - [`lines`]: the lines the gateway keeps itself (the house's telephone): their state, and the dialer of alarm
//!   calls and care's calls.
//!
//! **The assistant**
//! - [`providers`]: STT, LLM, TTS and web-search engines, each speaking its real protocol, registered with a
//!   typed id and capabilities ([`providers::registry`]); speech in and out streams through one interface.
//! - [`retention`]: what is older than its kind's retention is purged every hour, by one instance.
//! - [`probes`]: failing providers tried again when their breaker's cooldown has passed.
//! - [`engines`]: the zero-setup local engines (llama.cpp's server, faster-whisper, Piper) started when none is
//!   configured.
//! - [`auth`]: who is calling: tokens, cookie, personal link, trusted proxy header, admin key.
//! - [`prefs`]: which user preferences exist and how they are validated; [`overrides`]: the store-backed cache of
//!   the runtime overrides.
//! - [`text`]: the text pipeline between LLM and TTS, and its pronunciation lexicon.
//! - [`hearing`]: what the gateway listens for, as each language's data (`locales/<lang>/*.sentences`): care's
//!   sentences, the words of a time, calls for help, yes and no, farewells, a turn's unfinished words.
//! - [`care`]: reminders and timers: what people ask of them, when they fall in the person's time zone, what is
//!   said back.
//! - [`carers`]: a resident's care changed: their carers' open boards are told, here or on another instance.
//! - [`emergency`]: the manual help function: cooldown, dossier, e-mail, SMS, calls (Twilio or the house's
//!   telephone), webhook, acknowledgements, reminders, the watched help path.
//! - [`app`]: the shared state handed to handlers.
//! - [`turn`]: one conversational turn: route, quota, history, memories, LLM with web search, text pipeline,
//!   TTS, storing, accounting, memory extraction.
//! - [`listen`]: hearing a speaker: voice detectors, the end-of-turn model, each person's pace, the audio budget.
//! - [`voice`]: the voice core every channel runs on: hearing (detector, end of turn, early transcription),
//!   the running turn with barge-in and cancellation, what was heard of an answer, help by voice, the events a
//!   turn sends.
//!
//! **The channels** (none imports another)
//! - [`socket`]: what the WebSocket channels share: sending with a deadline, close codes, the origin check.
//! - [`ws`]: the WebSocket channels `/ws/chat`, `/ws/voice` and the admin live log.
//! - [`openai`]: the OpenAI-compatible API under `/v1` (models, chat completions, speech, transcription) and the
//!   Realtime protocol (`/v1/realtime`).
//! - [`wyoming`]: the Wyoming server for Home Assistant (`WYOMING_ADDR`): speech in and out, the conversation.
//! - [`zones`]: a person's time zone and times on their clock.
//! - [`phone`]: the phone line: Twilio Media Streams and Asterisk AudioSocket (`AUDIOSOCKET_ADDR`) calls.
//! - [`sip`]: the house's own telephone: registration with the home router (`SIP_REGISTRAR`), calls over UDP and
//!   TCP in G.722 and G.711, alarm calls out.
//! - [`links`]: personal links as QR codes; [`routes`]: the HTTP interface, one module per resource
//!   ([`routes::openapi`] describes it).
//!
//! **Running it**
//! - [`tls`]: HTTPS on the home network (a local authority, files, ACME).
//! - [`hosts`]: the host names the gateway answers to (a DNS-rebinding page's is refused).
//! - [`server`]: the HTTP server: the overflow lane, header and body timeouts, graceful shutdown.
//! - [`serve`]: every door and background task until a shutdown signal; tests call it with port 0.

// The library is safe Rust throughout; the binary's one `unsafe` call gives idle memory back (`main.rs`).
#![forbid(unsafe_code)]

pub mod admins;
pub mod app;
#[cfg(test)]
mod architecture;
pub mod auth;
pub mod bus;
pub mod care;
pub mod carers;
pub mod clock;
pub mod config;
pub mod connections;
pub mod deadline;
pub mod emergency;
pub mod engines;
pub mod error;
pub mod files;
pub mod guesses;
pub mod hearing;
pub mod hosts;
pub mod hours;
pub mod latency;
pub mod lines;
pub mod links;
pub mod listen;
pub mod logging;
pub mod metrics;
pub mod notify;
pub mod openai;
pub mod overrides;
pub mod phone;
pub mod phrasebook;
pub mod prefs;
pub mod probes;
pub mod providers;
pub mod retention;
pub mod routes;
pub mod serve;
pub mod server;
pub mod sip;
pub mod sip_share;
pub mod socket;
pub mod store;
pub mod task;
pub mod text;
pub mod tls;
pub mod traces;
pub mod turn;
pub mod voice;
pub mod ws;
pub mod wyoming;
pub mod zones;

pub use app::{App, AppState};
pub use routes::router;
pub use serve::{serve, serve_with_https};
