//! The Wyoming protocol for Home Assistant: the protocol of the `wyoming` library and of Home Assistant's
//! `wyoming` integration over TCP, one event at a time.
//!
//! - [`codec`]: the framing (a JSON header line, data, payload), with limits.

pub mod codec;
