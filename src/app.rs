//! The shared application state handed to every handler.

use std::ops::Deref;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::Value;

use crate::config::Settings;
use crate::config::runtime::RuntimeConfig;
use crate::metrics::Metrics;
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
    pub config_cache: Mutex<Option<(Instant, Value)>>,
    /// When the process started, for `/health`.
    pub started_at: Instant,
    /// Pronunciation lexicons per language (flushed after every lexicon write).
    pub lexicons: LexiconCache,
    /// The STT, LLM, TTS and web-search engines.
    pub providers: Providers,
    /// Counters for `/api/metrics`.
    pub metrics: Metrics,
}

impl App {
    /// Builds the state from settings and an opened store.
    pub fn new(settings: Settings, store: Store) -> Self {
        let runtime = RuntimeConfig::new(store.clone(), settings.runtime_env.clone());
        Self {
            providers: Providers::from_settings(&settings),
            metrics: Metrics::default(),
            settings,
            store,
            runtime,
            config_cache: Mutex::new(None),
            started_at: Instant::now(),
            lexicons: LexiconCache::default(),
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

    /// Drops the cached `/api/config` body (after a runtime override changed).
    pub fn invalidate_config(&self) {
        if let Ok(mut cache) = self.config_cache.lock() {
            *cache = None;
        }
    }
}

/// The axum state: a cheap clone of the shared `App`.
#[derive(Clone)]
pub struct AppState(pub Arc<App>);

impl Deref for AppState {
    type Target = App;

    fn deref(&self) -> &App {
        &self.0
    }
}
