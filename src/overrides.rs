//! Runtime overrides of the 16 keys: effective value = override if set, else the environment's.
//!
//! Overrides are read from the store at most every `OVERRIDES_REFRESH_SECONDS` (30) (so several gateways on one
//! database converge), and a write through this process is visible at once because it drops the cache.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::config::keys::{self, Key, KeySpec};
use crate::config::runtime::{Effective, InvalidOverride, Value};
use crate::store::{Store, StoreError};

/// Environment values plus cached overrides.
pub struct RuntimeConfig {
    store: Store,
    /// The environment's value of every key, parsed once at start-up.
    env: BTreeMap<Key, Value>,
    cache: Mutex<Option<(Instant, HashMap<String, String>)>>,
    /// How long overrides read from the store are reused (`OVERRIDES_REFRESH_SECONDS`).
    ttl: Duration,
}

impl RuntimeConfig {
    /// Wraps the environment's values of the runtime keys.
    pub fn new(store: Store, env: BTreeMap<Key, String>, ttl: Duration) -> Self {
        let env = keys::KEYS
            .iter()
            .map(|spec| (spec.id, env_or_default(spec, env.get(&spec.id))))
            .collect();
        Self {
            store,
            env,
            cache: Mutex::new(None),
            ttl,
        }
    }

    /// The environment's value of a key, as text.
    pub fn env_value(&self, key: Key) -> Option<String> {
        self.env.get(&key).map(Value::text)
    }

    /// The stored overrides, from the cache when it is fresh.
    pub async fn overrides(&self) -> Result<HashMap<String, String>, StoreError> {
        if let Some((at, map)) = self.cache.lock().map_err(poisoned)?.as_ref()
            && at.elapsed() < self.ttl
        {
            return Ok(map.clone());
        }
        let map = self.store.overrides().await?;
        for (key, raw) in &map {
            if let Some(spec) = keys::find(key)
                && let Err(problem) = Value::parse(spec, raw)
            {
                tracing::warn!(key = %key, value = %raw, problem = %problem, "a stored override no longer passes its rules; the environment's value is used");
            }
        }
        *self.cache.lock().map_err(poisoned)? = Some((Instant::now(), map.clone()));
        Ok(map)
    }

    /// Effective values of all keys.
    pub async fn effective(&self) -> Result<Effective, StoreError> {
        let overrides = self.overrides().await?;
        let mut invalid = Vec::new();
        let values = keys::KEYS
            .iter()
            .map(|spec| {
                // An override that no longer validates (a key's rules tightened) is passed over and reported,
                // not fatal: the environment's value holds.
                let stored = overrides.get(spec.key).and_then(|raw| match Value::parse(spec, raw) {
                    Ok(value) => Some(value),
                    Err(problem) => {
                        invalid.push(InvalidOverride {
                            key: spec.key,
                            value: raw.clone(),
                            problem,
                        });
                        None
                    }
                });
                let value = stored.or_else(|| self.env.get(&spec.id).cloned());
                let value = value.unwrap_or_else(|| env_or_default(spec, None));
                (spec.id, value)
            })
            .collect();
        Ok(Effective::new(values, invalid))
    }

    /// Stores a validated override and drops the cache.
    pub async fn set(&self, spec: &KeySpec, value: &str, actor: &str) -> Result<(), StoreError> {
        self.store.set_override(spec.key, value, actor).await?;
        self.invalidate();
        Ok(())
    }

    /// Removes an override and drops the cache; false when none was set.
    pub async fn reset(&self, spec: &KeySpec) -> Result<bool, StoreError> {
        let removed = self.store.delete_override(spec.key).await?;
        self.invalidate();
        Ok(removed)
    }

    fn invalidate(&self) {
        if let Ok(mut cache) = self.cache.lock() {
            *cache = None;
        }
    }
}

fn poisoned<T>(_: std::sync::PoisonError<T>) -> StoreError {
    StoreError::Setup("override cache lock poisoned".into())
}

/// A key's environment value (validated when the settings were read), else its built-in default.
fn env_or_default(spec: &KeySpec, raw: Option<&String>) -> Value {
    raw.and_then(|raw| Value::parse(spec, raw).ok())
        .or_else(|| Value::parse(spec, spec.default).ok())
        .unwrap_or_else(|| Value::Text(spec.default.to_string()))
}
