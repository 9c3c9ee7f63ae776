//! voice-gateway: a self-hosted voice assistant gateway.
//!
//! # Layout
//! - [`config`]: settings from the environment, profiles, the 16 runtime-overridable keys.
//! - [`store`]: the database, SQLite or PostgreSQL (migrations in `migrations/`), one file per group of tables.
//! - [`auth`]: who is calling: tokens, cookie, personal link, trusted proxy header, admin key.
//! - [`prefs`]: which user preferences exist and how they are validated.
//! - [`routes`]: the HTTP interface, one module per resource; [`routes::openapi`] describes it.
//! - [`providers`]: STT, LLM, TTS and web-search engines, each speaking its real protocol, registered with a
//!   typed id and capabilities ([`providers::registry`]); speech in and out streams through one interface.
//! - [`turn`]: one conversational turn: route, quota, history, memories, LLM with web search, text pipeline,
//!   TTS, storing, accounting, memory extraction.
//! - [`metrics`]: counters of fallbacks, provider errors and quota rejections.
//! - [`openai`]: the OpenAI-compatible API under `/v1` (models, chat completions, speech, transcription).
//! - [`ws`]: the WebSocket channels `/ws/chat`, `/ws/voice` and the admin live log.
//! - [`listen`]: hearing a speaker: voice detectors, the end-of-turn model, the audio buffer budget.
//! - [`overrides`]: the store-backed cache of the runtime overrides.
//! - [`logging`]: the service log, also broadcast to admins.
//! - [`engines`]: the zero-setup local engines (llama.cpp server, faster-whisper) started when none is configured.
//! - [`emergency`]: the manual help function: cooldown, dossier, e-mail, SMS, call and webhook.
//! - [`text`]: the text pipeline between LLM and TTS, and its pronunciation lexicon.
//! - [`error`]: the one error type and the contract's error body.
//! - [`app`]: the shared state handed to handlers.
//! - [`server`]: the HTTP server: connection limits, header and body timeouts, graceful shutdown.
//!
//! [`serve`] runs the router on a listener until a shutdown signal; tests call it with port 0.
//!
//! No two modules depend on each other, even through others (a test checks it): a module's `crate::` paths
//! name only modules below it.

// The library is safe Rust throughout; the binary's one `unsafe` call gives idle memory back (`main.rs`).
#![forbid(unsafe_code)]

pub mod app;
pub mod auth;
pub mod config;
pub mod emergency;
pub mod engines;
pub mod error;
pub mod listen;
pub mod logging;
pub mod metrics;
pub mod openai;
pub mod overrides;
pub mod prefs;
pub mod providers;
pub mod routes;
pub mod server;
pub mod store;
pub mod text;
pub mod turn;
pub mod ws;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;

pub use app::{App, AppState};
pub use routes::router;

/// Aborts a spawned task when dropped: a background task stops with the server, a turn's speaker with its
/// turn.
pub(crate) struct AbortOnDrop<T = ()>(pub(crate) tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Takes up the stored local backend every `OVERRIDES_REFRESH_SECONDS`.
async fn follow_backend(app: Arc<App>) {
    let mut tick = tokio::time::interval(Duration::from_secs(app.settings.server.overrides_refresh_secs));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        tick.tick().await;
        app.restore_backend().await;
    }
}

/// How long running requests may take to finish after a shutdown signal.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// Serves the gateway on `listener` until `shutdown` completes (or an admin asks for a restart), then lets
/// running requests finish for up to [`SHUTDOWN_GRACE`] before returning.
pub async fn serve(
    listener: TcpListener,
    app: Arc<App>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    app.restore_backend().await;
    // Reminders of unconfirmed alarms are due from the database, so this picks up those of before a restart.
    let _stop_reminders = AbortOnDrop(tokio::spawn(emergency::escalation::run(app.clone())));
    let _stop_checkpoints = AbortOnDrop(tokio::spawn(app.store.clone().run_checkpoints()));
    // An admin may switch the local backend through another instance of the gateway: take it up in time.
    let _follow_backend = AbortOnDrop(tokio::spawn(follow_backend(app.clone())));
    let mut restart = app.restart.subscribe();
    let shutdown = async move {
        tokio::select! {
            () = shutdown => {}
            _ = restart.wait_for(|r| *r) => tracing::info!("restarting on an admin's request"),
        }
    };
    server::run(listener, app, shutdown).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    /// The top-level modules each module's code names through `crate::` (comments and unit tests left out).
    fn dependencies() -> BTreeMap<String, BTreeSet<String>> {
        let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut stack = vec![src.clone()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let rel = path.strip_prefix(&src).unwrap().to_string_lossy().to_string();
                let top = rel.split('/').next().unwrap().trim_end_matches(".rs").to_string();
                if top == "lib" || top == "main" || !rel.ends_with(".rs") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
                for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
                    for part in line.split("crate::").skip(1) {
                        let name: String = part.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                        if name != top {
                            deps.entry(top.clone()).or_default().insert(name);
                        }
                    }
                }
            }
        }
        deps
    }

    #[test]
    fn modules_have_no_cycles() {
        let deps = dependencies();
        assert!(
            deps.contains_key("turn") && deps["routes"].contains("turn"),
            "the scan found the modules"
        );
        // A cycle shows as a module that reaches itself.
        for start in deps.keys() {
            let mut seen = BTreeSet::new();
            let mut todo: Vec<(&str, Vec<&str>)> = vec![(start.as_str(), vec![start.as_str()])];
            while let Some((module, path)) = todo.pop() {
                for next in deps.get(module).into_iter().flatten() {
                    let mut path = path.clone();
                    path.push(next);
                    assert_ne!(next, start, "module cycle: {}", path.join(" -> "));
                    if seen.insert(next.as_str()) {
                        todo.push((next, path));
                    }
                }
            }
        }
    }
}
