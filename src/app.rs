//! The shared application state handed to every handler.

use std::collections::HashMap;
use std::ops::Deref;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::config::Settings;
use crate::listen::budget::VoiceBudget;
use crate::listen::silero::SileroModel;
use crate::listen::smart_turn::SmartTurn;
use crate::metrics::Metrics;
use crate::overrides::RuntimeConfig;
use crate::providers::Providers;
use crate::store::{Store, StoreError};
use crate::text::lexicon::{Lexicon, LexiconCache};

/// Everything a request may need, built once at start.
pub struct App {
    /// Settings read from the environment at start.
    pub settings: Settings,
    /// The database.
    pub store: Store,
    /// Effective values of the runtime-overridable keys.
    pub runtime: RuntimeConfig,
    /// The body of `/api/config` and when it was built (cached 30 s, dropped on override writes).
    pub config_cache: Mutex<Option<(Instant, crate::config::public::PublicConfig)>>,
    /// When the process started, for `/health`.
    pub started_at: Instant,
    /// Pronunciation lexicons per language (flushed after every lexicon write).
    pub lexicons: LexiconCache,
    /// The STT, LLM, TTS and web-search engines.
    pub providers: Providers,
    /// Counters for `/api/metrics`.
    pub metrics: Metrics,
    /// Every provider's circuit breaker and recent calls on this instance.
    pub breakers: crate::providers::breakers::Breakers,
    /// The stages of the last day's voice turns, for the admin panel.
    pub recent: crate::latency::Recent,
    /// Live model lists of the LLM providers and when they were fetched (cached 10 minutes).
    pub model_lists: Mutex<HashMap<String, (Instant, Value)>>,
    /// This instance's name among the gateway's instances (`INSTANCE_ID`).
    pub instance: String,
    /// Set when an admin asked for a restart; `serve` stops and `main` starts the gateway again.
    pub restart: tokio::sync::watch::Sender<bool>,
    /// The stop, told to every event stream, socket and call that holds it (see [`crate::task::Stop`]).
    pub stop: crate::task::Stop,
    /// Each allowed address's share of the SIP door's TCP connections, and the refusals.
    pub sip_share: Arc<crate::sip_share::Share>,
    /// The phone lines the gateway keeps itself (its SIP registration).
    pub lines: crate::lines::Lines,
    /// Failures the test suite injects into live calls (see [`crate::task::Faults`]).
    pub faults: crate::task::Faults,
    /// Failed credentials per client address, and the addresses that wait for guessing.
    pub guesses: crate::guesses::Guesses,
    /// The looks at people's records this instance recorded in the last hour (one a reader and kind).
    pub looks: crate::store::access::Looks,
    /// The people whose export is being written: one at a time each.
    pub exports: crate::task::OneAtATime,
    /// Events for each person's open connections here (a reminder that is due).
    pub notify: Arc<crate::notify::Notify>,
    /// Open connections of every door: one budget, shared by address.
    pub connections: Arc<crate::connections::Connections>,
    /// Voice connections and the audio they buffer.
    pub voice_budget: Arc<VoiceBudget>,
    /// The pace of each person with a voice connection open here, shared by all of theirs.
    pub paces: crate::listen::pace::Paces,
    /// The neural voice detector, or why the energy detector runs instead.
    pub silero: Result<Arc<SileroModel>, String>,
    /// The semantic end-of-turn model, or why the fixed silence ends turns instead.
    pub smart_turn: Result<Arc<SmartTurn>, String>,
    /// The gateway itself, for work that outlives the request that started it (an alarm's slow channels).
    me: std::sync::Weak<App>,
}

impl App {
    /// Builds the state from settings and an opened store.
    pub fn new(settings: Settings, store: Store) -> Arc<Self> {
        Arc::new_cyclic(|me| Self::build(settings, store, me.clone()))
    }

    /// The shared gateway of this `&App`, for a task of its own.
    pub fn shared(&self) -> Arc<App> {
        self.me.upgrade().expect("the gateway lives while it is borrowed")
    }

    fn build(settings: Settings, store: Store, me: std::sync::Weak<App>) -> Self {
        let runtime = RuntimeConfig::new(
            store.clone(),
            settings.runtime_env.clone(),
            Duration::from_secs(settings.server.overrides_refresh_secs),
        );
        let ws = &settings.voice;
        let voice_budget = Arc::new(VoiceBudget::new(
            ws.max_voice_connections,
            ws.voice_connections_per_user,
            ws.audio_buffer_budget_bytes,
        ));
        let budget = crate::connections::Budget::from_descriptors(
            settings.server.max_connections,
            settings.server.max_connections_per_client,
            ws.max_voice_connections,
            crate::connections::descriptor_limit(),
            &crate::connections::open_doors(&settings),
        );
        let connections = crate::connections::Connections::new(budget, settings.auth.trusted_proxy_ips.clone());
        let metrics = Metrics::default();
        let info = [
            ("instance", settings.server.instance_id.as_str()),
            ("version", env!("CARGO_PKG_VERSION")),
        ];
        metrics.gauge_add(crate::metrics::GATEWAY_INFO, &info, 1);
        let providers = Providers::new(
            &settings.providers,
            std::time::Duration::from_secs(settings.limits.provider_timeout_secs),
            crate::config::languages(),
        );
        // Every provider's breaker is closed at start; the gauge shows it before anything fails.
        for info in providers.list() {
            let labels = [("stage", info.stage.as_str()), ("provider", info.id)];
            metrics.gauge_set(crate::metrics::PROVIDER_STATE, &labels, 0);
        }
        let silero = load_silero(ws);
        let smart_turn = load_smart_turn(ws);
        Self {
            lines: Default::default(),
            faults: Default::default(),
            guesses: crate::guesses::Guesses::new(settings.auth.failures_per_minute),
            looks: Default::default(),
            exports: Default::default(),
            notify: Default::default(),
            connections,
            silero,
            smart_turn,
            voice_budget,
            paces: Default::default(),
            providers,
            metrics,
            breakers: crate::providers::breakers::Breakers::new(
                settings.limits.breaker_failures,
                Duration::from_secs(settings.limits.breaker_cooldown_secs),
            ),
            recent: Default::default(),
            model_lists: Mutex::new(HashMap::new()),
            instance: settings.server.instance_id.clone(),
            restart: tokio::sync::watch::channel(false).0,
            stop: crate::task::Stop::default(),
            sip_share: crate::sip_share::Share::new(settings.sip.connections_per_address),
            settings,
            store,
            runtime,
            config_cache: Mutex::new(None),
            started_at: Instant::now(),
            lexicons: LexiconCache::default(),
            me,
        }
    }

    /// The lexicon of a language: built-in defaults overlaid with stored entries, cached until the next write.
    pub async fn lexicon(&self, lang: &str) -> Result<Arc<Lexicon>, StoreError> {
        if let Some(lexicon) = self.lexicons.cached(lang) {
            return Ok(lexicon);
        }
        let entries = self.store.lexicon_entries(lang).await?;
        Ok(self.lexicons.remember(lang, Lexicon::with_entries(lang, entries)))
    }

    /// Takes up the local backend an admin chose before the last restart (kept in the override table).
    pub async fn restore_backend(&self) {
        if let Ok(overrides) = self.store.overrides().await
            && let Some(backend) = overrides.get(LOCAL_BACKEND_KEY)
            && crate::providers::llm::local::BACKENDS.contains(&backend.as_str())
        {
            self.providers.local.set(backend);
        }
    }

    /// Drops the cached `/api/config` body (after a runtime override changed).
    pub fn invalidate_config(&self) {
        if let Ok(mut cache) = self.config_cache.lock() {
            *cache = None;
        }
    }
}

/// The Silero model as `VAD_ENGINE` asks, or why the energy detector runs.
fn load_silero(ws: &crate::config::VoiceSettings) -> Result<Arc<SileroModel>, String> {
    let names = ("voice detection", "Silero VAD", "the energy detector");
    neural(
        names,
        ("VAD_ENGINE", &ws.vad_engine, "energy"),
        &ws.silero_vad_model,
        || SileroModel::load(&ws.onnxruntime_lib, &ws.silero_vad_model),
    )
}

/// The Smart Turn model as `TURN_ENGINE` asks, or why the fixed silence ends turns.
fn load_smart_turn(ws: &crate::config::VoiceSettings) -> Result<Arc<SmartTurn>, String> {
    let names = ("end of turn", "Smart Turn", "the fixed silence");
    neural(
        names,
        ("TURN_ENGINE", &ws.turn_engine, "silence"),
        &ws.smart_turn_model,
        || SmartTurn::load(&ws.onnxruntime_lib, &ws.smart_turn_model),
    )
}

/// A neural model of the voice channel as its setting `(variable, value, off value)` asks, or why its
/// fallback runs; logs which of `(stage, model, fallback)` runs, with a warning when the model was required.
fn neural<M>(
    (stage, name, fallback): (&str, &str, &str),
    (var, setting, off): (&str, &str, &str),
    model: &std::path::Path,
    load: impl FnOnce() -> Result<Arc<M>, String>,
) -> Result<Arc<M>, String> {
    if setting == off {
        return Err(format!("{var}={off}"));
    }
    let loaded = load();
    match &loaded {
        Ok(_) => tracing::info!(model = %model.display(), "{stage}: {name}"),
        Err(why) if setting != "auto" => tracing::warn!(%why, "{var}={setting}, but {fallback} runs"),
        Err(why) => tracing::info!(%why, "{stage}: {fallback}"),
    }
    loaded
}

/// Override-table key of the switched local backend (not one of the 16 runtime keys).
pub const LOCAL_BACKEND_KEY: &str = "local_llm_backend";

/// The axum state: a cheap clone of the shared `App`.
#[derive(Clone)]
pub struct AppState(pub Arc<App>);

impl Deref for AppState {
    type Target = App;

    fn deref(&self) -> &App {
        &self.0
    }
}
