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
//! - [`latency`]: the last day's voice turns stage by stage, for the admin panel.
//! - [`openai`]: the OpenAI-compatible API under `/v1` (models, chat completions, speech, transcription).
//! - [`voice`]: the voice core every channel runs on: hearing (detector, end of turn, early transcription),
//!   the running turn with barge-in and cancellation, help by voice, and the events a turn sends.
//! - [`ws`]: the WebSocket channels `/ws/chat`, `/ws/voice` and the admin live log.
//! - [`socket`]: what the WebSocket channels share: sending with a deadline, close codes, the origin check.
//! - [`deadline`]: writes that give up when a raw connection's peer stops reading (Wyoming, AudioSocket).
//! - [`listen`]: hearing a speaker: voice detectors, the end-of-turn model, the audio buffer budget.
//! - [`overrides`]: the store-backed cache of the runtime overrides.
//! - [`logging`]: the service log, also broadcast to admins.
//! - [`engines`]: the zero-setup local engines (llama.cpp server, faster-whisper) started when none is configured.
//! - [`emergency`]: the manual help function: cooldown, dossier, e-mail, SMS, call and webhook.
//! - [`text`]: the text pipeline between LLM and TTS, and its pronunciation lexicon.
//! - [`error`]: the one error type and the contract's error body.
//! - [`app`]: the shared state handed to handlers.
//! - [`connections`]: one connection budget for every door, derived from the descriptor limit, shared by address.
//! - [`server`]: the HTTP server: the overflow lane, header and body timeouts, graceful shutdown.
//! - [`wyoming`]: the Wyoming server for Home Assistant (`WYOMING_ADDR`): speech in and out, the conversation.
//! - [`phone`]: the phone line: Twilio Media Streams and Asterisk AudioSocket (`AUDIOSOCKET_ADDR`) calls.
//! - [`sip`]: the house's own telephone: registration with the home router (`SIP_REGISTRAR`).
//! - [`lines`]: the state of the lines the gateway keeps itself, for the admin panel.
//!
//! [`serve`] runs the router on a listener until a shutdown signal; tests call it with port 0.
//!
//! No two modules depend on each other, even through others, whether top-level modules or the modules inside
//! one (a test checks it): a module's `crate::` and `super::` paths name only modules below it.

// The library is safe Rust throughout; the binary's one `unsafe` call gives idle memory back (`main.rs`).
#![forbid(unsafe_code)]

pub mod app;
pub mod auth;
pub mod config;
pub mod connections;
pub mod deadline;
pub mod emergency;
pub mod engines;
pub mod error;
pub mod files;
pub mod latency;
pub mod lines;
pub mod links;
pub mod listen;
pub mod logging;
pub mod metrics;
pub mod openai;
pub mod overrides;
pub mod phone;
pub mod prefs;
pub mod probes;
pub mod providers;
pub mod routes;
pub mod server;
pub mod sip;
pub mod socket;
pub mod store;
pub mod text;
pub mod tls;
pub mod traces;
pub mod turn;
pub mod voice;
pub mod ws;
pub mod wyoming;

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
    serve_with_https(listener, None, app, shutdown).await
}

/// [`serve`], and HTTPS on `https`'s listener with its certificate (kept fresh meanwhile); HTTP then sends
/// other machines' requests to HTTPS.
pub async fn serve_with_https(
    listener: TcpListener,
    https: Option<(TcpListener, Arc<tls::Tls>)>,
    app: Arc<App>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    app.restore_backend().await;
    // Reminders of unconfirmed alarms are due from the database, so this picks up those of before a restart.
    let _stop_reminders = AbortOnDrop(tokio::spawn(emergency::escalation::run(app.clone())));
    let _stop_checkpoints = AbortOnDrop(tokio::spawn(app.store.clone().run_checkpoints()));
    // An admin may switch the local backend through another instance of the gateway: take it up in time.
    let _follow_backend = AbortOnDrop(tokio::spawn(follow_backend(app.clone())));
    // Failing providers are probed when their breaker's cooldown has passed.
    let _probes = AbortOnDrop(tokio::spawn(probes::run(app.clone())));
    // The help path is checked at start and then every HELP_CHECK_SECONDS, sending nothing.
    let _help_checks = AbortOnDrop(tokio::spawn(emergency::checks::run(app.clone())));
    // The Wyoming server, when `WYOMING_ADDR` is set, stops with the HTTP server.
    let (stopping, stop) = tokio::sync::watch::channel(false);
    let _wyoming = match app.settings.wyoming.addr {
        Some(addr) => {
            let listener = TcpListener::bind(addr)
                .await
                .map_err(|e| std::io::Error::new(e.kind(), format!("WYOMING_ADDR {addr}: {e}")))?;
            Some(AbortOnDrop(tokio::spawn(wyoming::run(
                listener,
                app.clone(),
                stop.clone(),
            ))))
        }
        None => None,
    };
    // The AudioSocket server for Asterisk, when `AUDIOSOCKET_ADDR` is set, too.
    let _audiosocket = match app.settings.phone.audiosocket_addr {
        Some(addr) => {
            let listener = TcpListener::bind(addr)
                .await
                .map_err(|e| std::io::Error::new(e.kind(), format!("AUDIOSOCKET_ADDR {addr}: {e}")))?;
            Some(AbortOnDrop(tokio::spawn(phone::audiosocket::run(
                listener,
                app.clone(),
                stop,
            ))))
        }
        None => None,
    };
    // The house's telephone, when `SIP_REGISTRAR` or `SIP_ADDR` is set.
    let _sip = match app.settings.sip.listen() {
        Some(addr) => {
            let named = |e: std::io::Error| std::io::Error::new(e.kind(), format!("SIP_ADDR {addr}: {e}"));
            let endpoint = sip::endpoint::Endpoint::bind(addr).await.map_err(named)?;
            // TCP on the port UDP got (SIP_ADDR may ask for any port).
            let tcp = TcpListener::bind(endpoint.local_addr()?).await.map_err(named)?;
            Some(AbortOnDrop(tokio::spawn(sip::run(app.clone(), endpoint, tcp))))
        }
        None => None,
    };
    let mut restart = app.restart.subscribe();
    let shutdown = async move {
        tokio::select! {
            () = shutdown => {}
            _ = restart.wait_for(|r| *r) => tracing::info!("restarting on an admin's request"),
        }
        let _ = stopping.send(true);
    };
    let mut doors = vec![server::Door {
        listener,
        tls: None,
        https_port: None,
    }];
    let _keep_fresh = match https {
        Some((listener, tls)) => {
            doors[0].https_port = Some(listener.local_addr()?.port());
            doors.push(server::Door {
                listener,
                tls: Some(tls.acceptor()),
                https_port: None,
            });
            Some(AbortOnDrop(tokio::spawn(tls.keep_fresh())))
        }
        None => None,
    };
    server::run(doors, app, shutdown).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    /// The module a source file is: `["routes", "login"]` for `routes/login.rs`, `["routes"]` for `routes/mod.rs`.
    fn module_of(rel: &Path) -> Vec<String> {
        let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().to_string()).collect();
        let file = parts.pop().unwrap_or_default();
        if file != "mod.rs" {
            parts.push(file.trim_end_matches(".rs").to_string());
        }
        parts
    }

    /// The leading `ident::ident…` of `text`, and what follows it.
    fn idents(text: &str) -> (Vec<String>, &str) {
        let mut names = Vec::new();
        let mut rest = text;
        loop {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            if end == 0 {
                return (names, rest);
            }
            names.push(rest[..end].to_string());
            match rest[end..].strip_prefix("::") {
                Some(more) => rest = more,
                None => return (names, &rest[end..]),
            }
        }
    }

    /// The paths the code of module `here` names through `crate::`, `super::` and `self::`, made absolute (a
    /// `use super::{a, b}` group, on one line or several, gives one path per member).
    fn named_paths(code: &str, here: &[String]) -> Vec<Vec<String>> {
        let mut found = Vec::new();
        for (at, _) in code
            .match_indices("crate::")
            .chain(code.match_indices("super::"))
            .chain(code.match_indices("self::"))
        {
            if code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
                continue; // the middle of a longer path (`super::super::`, `voice_gateway::self_`)
            }
            let (mut base, mut rest) = (Vec::new(), &code[at..]);
            if let Some(r) = rest.strip_prefix("crate::") {
                rest = r;
            } else {
                base = here.to_vec();
                while let Some(r) = rest.strip_prefix("super::") {
                    base.pop();
                    rest = r;
                }
                rest = rest.strip_prefix("self::").unwrap_or(rest);
            }
            let (names, after) = idents(rest);
            base.extend(names);
            match after.strip_prefix('{') {
                Some(group) => {
                    let group = &group[..group.find('}').unwrap_or(group.len())];
                    for member in group.split(',') {
                        let (names, _) = idents(member.trim());
                        found.push(base.iter().cloned().chain(names).collect());
                    }
                }
                None => found.push(base),
            }
        }
        found
    }

    /// For every module, the siblings it names (its own code or its sub-modules'): the crate's top-level
    /// modules among themselves (`routes` → `turn`), and the modules inside one module among themselves
    /// (`routes::login` → `routes::ui`). Comments and unit tests are left out.
    fn dependencies() -> BTreeMap<String, BTreeSet<String>> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        let mut stack = vec![src.clone()];
        while let Some(dir) = stack.pop() {
            for path in std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()) {
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    files.push(path);
                }
            }
        }
        let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(f.strip_prefix(&src).unwrap())).collect();
        let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for file in &files {
            let here = module_of(file.strip_prefix(&src).unwrap());
            if here == ["lib"] || here == ["main"] {
                continue;
            }
            let text = std::fs::read_to_string(file).unwrap();
            let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
            let code: Vec<&str> = code.lines().filter(|l| !l.trim_start().starts_with("//")).collect();
            for named in named_paths(&code.join("\n"), &here) {
                // The two modules below the deepest module both lie in.
                let common = here.iter().zip(&named).take_while(|(a, b)| a == b).count();
                if common < here.len() && common < named.len() && modules.contains(&named[..=common]) {
                    deps.entry(here[..=common].join("::"))
                        .or_default()
                        .insert(named[..=common].join("::"));
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
            "the scan found the top-level modules"
        );
        assert!(
            deps["routes::login"].contains("routes::openapi"),
            "the scan found the modules inside them"
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
