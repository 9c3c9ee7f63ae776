//! Integration tests: each starts the real gateway on port 0 with a fresh SQLite file and talks HTTP to it.

mod alarm_followup;
mod api_fuzz;
mod auth;
mod binary;
mod browser;
mod common;
mod config;
mod deploy;
mod e2e;
mod emergency;
mod errors;
mod fakes;
mod instances;
mod lexicon;
mod limits;
mod me;
mod openapi;
mod operations;
mod sessions;
mod smtp;
mod speech;
mod store;
mod turns;
mod users;
mod voice_detection;
mod ws;
