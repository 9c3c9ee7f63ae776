//! Counters of what happened (fallbacks, provider errors, quota rejections), kept in memory for `/api/metrics`.
//!
//! A counter is named like a Prometheus series: `name{label="value"}`.

use std::collections::BTreeMap;
use std::sync::Mutex;

/// The gateway's counters.
#[derive(Debug, Default)]
pub struct Metrics {
    counters: Mutex<BTreeMap<String, u64>>,
}

impl Metrics {
    /// Adds one to a counter with one label (`stage`, `provider`, …).
    pub fn incr(&self, name: &str, labels: &[(&str, &str)]) {
        let key = if labels.is_empty() {
            name.to_string()
        } else {
            let inner: Vec<String> = labels.iter().map(|(k, v)| format!("{k}=\"{v}\"")).collect();
            format!("{name}{{{}}}", inner.join(","))
        };
        if let Ok(mut counters) = self.counters.lock() {
            *counters.entry(key).or_default() += 1;
        }
    }

    /// A counter's value (0 when it never counted).
    pub fn get(&self, series: &str) -> u64 {
        self.counters.lock().map_or(0, |c| c.get(series).copied().unwrap_or(0))
    }

    /// All counters, sorted by series.
    pub fn snapshot(&self) -> BTreeMap<String, u64> {
        self.counters.lock().map(|c| c.clone()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn series_are_named_with_their_labels() {
        let m = super::Metrics::default();
        m.incr("fallback_total", &[("stage", "llm"), ("from", "cloud")]);
        m.incr("fallback_total", &[("stage", "llm"), ("from", "cloud")]);
        m.incr("quota_rejections_total", &[]);
        assert_eq!(m.get("fallback_total{stage=\"llm\",from=\"cloud\"}"), 2);
        assert_eq!(m.get("quota_rejections_total"), 1);
        assert_eq!(m.snapshot().len(), 2);
    }
}
