//! The effective values of the 16 runtime keys: the override if set, else the environment's (the store-backed
//! cache of overrides is [`crate::overrides`]).

use std::collections::BTreeMap;

use super::env::parse_bool;
use super::keys::Key;
use crate::providers::ProviderId;

/// The effective values of all 16 keys at one moment.
#[derive(Debug, Clone)]
pub struct Effective {
    pub(crate) values: BTreeMap<Key, String>,
}

impl Effective {
    /// The canonical text of a key (every key of [`keys::KEYS`] is present).
    pub fn get(&self, key: Key) -> &str {
        self.values.get(&key).map_or("", String::as_str)
    }

    /// A count key.
    pub fn count(&self, key: Key) -> u32 {
        self.get(key).parse().unwrap_or(0)
    }

    /// A boolean key.
    pub fn flag(&self, key: Key) -> bool {
        parse_bool(self.get(key)).unwrap_or(false)
    }

    /// A provider key of stage `I`. Its value was validated against the registry when it was read, so it
    /// parses; were it not to, the stage's first provider stands in and the log says so.
    pub fn provider<I: ProviderId>(&self, key: Key) -> I {
        I::parse(self.get(key)).unwrap_or_else(|e| {
            tracing::error!(key = key.as_str(), error = %e, "a provider setting does not name a provider");
            I::ALL[0]
        })
    }

    /// A number key.
    pub fn number(&self, key: Key) -> f64 {
        self.get(key).parse().unwrap_or(0.0)
    }
}
