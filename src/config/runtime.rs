//! The effective values of the 16 runtime keys: the override if set, else the environment's (the store-backed
//! cache of overrides is [`crate::overrides`]). Each value is parsed once, when the effective set is made,
//! into the type its key's kind gives; readers get that type, never a re-parse with a fallback.

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

use super::env::parse_bool;
use super::keys::{Key, KeySpec, Kind};
use crate::providers::ProviderId;

/// A runtime key's value as its kind types it.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A provider id, a model or voice name, a text.
    Text(String),
    /// A temperature.
    Number(f64),
    /// A count or minutes.
    Count(u32),
    /// A switch.
    Flag(bool),
}

impl Value {
    /// Parses a canonical value of a key's kind (see [`KeySpec::validate`]).
    pub fn parse(spec: &KeySpec, raw: &str) -> Result<Self, String> {
        let canonical = spec.validate(raw)?;
        Ok(match spec.kind {
            Kind::Provider(_) | Kind::Name | Kind::Text => Self::Text(canonical),
            Kind::Temperature => Self::Number(
                canonical
                    .parse()
                    .map_err(|_| format!("{canonical:?} is not a number"))?,
            ),
            Kind::Count | Kind::Minutes => {
                Self::Count(canonical.parse().map_err(|_| format!("{canonical:?} is not a count"))?)
            }
            Kind::Bool => Self::Flag(parse_bool(&canonical).ok_or_else(|| format!("{canonical:?} is not a switch"))?),
        })
    }

    /// The canonical text.
    pub fn text(&self) -> String {
        match self {
            Self::Text(t) => t.clone(),
            Self::Number(n) => n.to_string(),
            Self::Count(n) => n.to_string(),
            Self::Flag(b) => b.to_string(),
        }
    }
}

/// A stored override that no longer passes its key's rules (after an upgrade tightened them, or a hand edit of
/// the database): it is not used, the environment's value is, and the admin status and the log say so.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct InvalidOverride {
    /// The override key.
    pub key: &'static str,
    /// The stored value.
    pub value: String,
    /// Why it does not pass.
    pub problem: String,
}

/// The effective values of all 16 keys at one moment, typed.
#[derive(Debug, Clone)]
pub struct Effective {
    values: BTreeMap<Key, Value>,
    /// Stored overrides that were passed over.
    pub invalid: Vec<InvalidOverride>,
}

impl Effective {
    /// The effective set from each key's value (every key of [`super::keys::KEYS`] must be present).
    pub fn new(values: BTreeMap<Key, Value>, invalid: Vec<InvalidOverride>) -> Self {
        debug_assert_eq!(values.len(), super::keys::KEYS.len());
        Self { values, invalid }
    }

    fn value(&self, key: Key) -> Option<&Value> {
        let value = self.values.get(&key);
        if value.is_none() {
            tracing::error!(key = key.as_str(), "a runtime key has no effective value");
        }
        value
    }

    /// A text key (provider, model, voice, prompt).
    pub fn get(&self, key: Key) -> &str {
        match self.value(key) {
            Some(Value::Text(t)) => t,
            other => mismatch(key, other, ""),
        }
    }

    /// A count or minutes key.
    pub fn count(&self, key: Key) -> u32 {
        match self.value(key) {
            Some(Value::Count(n)) => *n,
            other => mismatch(key, other, 0),
        }
    }

    /// A switch key.
    pub fn flag(&self, key: Key) -> bool {
        match self.value(key) {
            Some(Value::Flag(b)) => *b,
            other => mismatch(key, other, false),
        }
    }

    /// A number key.
    pub fn number(&self, key: Key) -> f64 {
        match self.value(key) {
            Some(Value::Number(n)) => *n,
            other => mismatch(key, other, 0.0),
        }
    }

    /// A provider key of stage `I`. Its value passed the registry when the set was made, so it parses.
    pub fn provider<I: ProviderId>(&self, key: Key) -> I {
        I::parse(self.get(key)).unwrap_or_else(|e| mismatch(key, Some(&Value::Text(e.to_string())), I::ALL[0]))
    }

    /// The canonical text of any key, as the admin endpoints show it.
    pub fn text(&self, key: Key) -> String {
        self.value(key).map(Value::text).unwrap_or_default()
    }
}

/// A key read as the wrong kind: a mistake in the code (the unit test of the accessors catches it), logged
/// rather than a panic in a running gateway.
#[cold]
fn mismatch<T>(key: Key, found: Option<&Value>, stand_in: T) -> T {
    tracing::error!(key = key.as_str(), ?found, "a runtime key was read as another kind");
    stand_in
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::keys::KEYS;

    #[test]
    fn every_key_is_read_as_its_kind() {
        let values = KEYS
            .iter()
            .map(|spec| (spec.id, Value::parse(spec, spec.default).unwrap()))
            .collect();
        let eff = Effective::new(values, Vec::new());
        for spec in &KEYS {
            let text = match spec.kind {
                Kind::Provider(_) | Kind::Name | Kind::Text => eff.get(spec.id).to_string(),
                Kind::Temperature => eff.number(spec.id).to_string(),
                Kind::Count | Kind::Minutes => eff.count(spec.id).to_string(),
                Kind::Bool => eff.flag(spec.id).to_string(),
            };
            assert_eq!(text, eff.text(spec.id), "{}", spec.key);
        }
        assert_eq!(eff.count(Key::DailyRequestLimit), 500);
        assert!(eff.flag(Key::SttForceLanguage));
    }
}
