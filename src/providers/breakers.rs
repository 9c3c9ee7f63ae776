//! What this instance knows of each provider's health: a circuit breaker per provider and its calls of the
//! last hour. `BREAKER_FAILURES` failed calls in a row (errors, time-outs, answers that broke off) open the
//! breaker: the fallback walk skips the provider at once instead of waiting for it, until a cheap probe after
//! `BREAKER_COOLDOWN_SECONDS` finds it working again ([`crate::probes`]). A caller's mistake (a voice or
//! language the provider cannot use) and a missing setting say nothing about its health and are not counted.
//! Each instance keeps its own breakers: another instance learns of a dead provider by its own calls.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use serde::Serialize;
use utoipa::ToSchema;

use super::Stage;

/// Calls remembered per provider, for the latency and error rate of the last hour.
const KEPT_CALLS: usize = 1000;
const HOUR: Duration = Duration::from_secs(3600);

/// A breaker's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BreakerState {
    /// Calls go to the provider.
    Closed,
    /// The provider failed too often: calls skip it until a probe succeeds.
    Open,
    /// A probe is under way; calls still skip it.
    HalfOpen,
}

impl BreakerState {
    /// The gauge's value: 0 closed, 1 half open, 2 open.
    pub fn gauge(self) -> i64 {
        match self {
            Self::Closed => 0,
            Self::HalfOpen => 1,
            Self::Open => 2,
        }
    }
}

/// One call's outcome.
struct Call {
    at: Instant,
    took: Duration,
    ok: bool,
}

/// One provider's record.
struct Record {
    state: BreakerState,
    failures_in_row: u32,
    last_error: Option<String>,
    since: SystemTime,
    /// When an open breaker's probe is due.
    probe_at: Option<Instant>,
    calls: VecDeque<Call>,
    /// When a call or probe last succeeded: until one has, nobody knows that the provider works.
    verified: Option<SystemTime>,
}

impl Default for Record {
    fn default() -> Self {
        Self {
            state: BreakerState::Closed,
            failures_in_row: 0,
            last_error: None,
            since: SystemTime::now(),
            probe_at: None,
            calls: VecDeque::new(),
            verified: None,
        }
    }
}

impl Record {
    fn set(&mut self, state: BreakerState) {
        if self.state != state {
            self.state = state;
            self.since = SystemTime::now();
        }
    }

    fn remember(&mut self, took: Duration, ok: bool) {
        let now = Instant::now();
        while self.calls.len() >= KEPT_CALLS || self.calls.front().is_some_and(|c| now - c.at > HOUR) {
            self.calls.pop_front();
        }
        self.calls.push_back(Call { at: now, took, ok });
    }
}

/// What a provider's health looks like now, for the admin.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HealthReport {
    /// `closed`, `open` or `half_open`.
    pub state: BreakerState,
    /// The last failure's message.
    pub last_error: Option<String>,
    /// When the state began (RFC 3339); the start of the process for a provider never failed.
    pub since: String,
    /// Seconds until the next probe of an open breaker.
    pub retry_in_seconds: Option<u64>,
    /// Median and 90th percentile of the last hour's calls, in ms (none without calls).
    pub latency_ms: Option<[u64; 2]>,
    /// Failed calls of the last hour, as a fraction of all (none without calls).
    pub error_rate: Option<f64>,
    /// Calls of the last hour.
    pub calls: usize,
    /// When a call or probe to it last succeeded on this instance (RFC 3339); none: it was not tried yet, and
    /// nobody knows whether it works.
    pub verified_at: Option<String>,
}

/// Every provider's breaker on this instance, and the checks of the help path (`mail`, `twilio`, `webhook`):
/// closed while the last check passed, open while it failed (a check is no call of a turn, so it has no
/// threshold and no probe of its own: the next check decides).
pub struct Breakers {
    records: Mutex<HashMap<(Stage, &'static str), Record>>,
    checks: Mutex<HashMap<&'static str, Record>>,
    failures: u32,
    cooldown: Duration,
}

impl Breakers {
    /// Breakers that open after `failures` failures in a row and probe after `cooldown`.
    pub fn new(failures: u32, cooldown: Duration) -> Self {
        Self {
            records: Mutex::new(HashMap::new()),
            checks: Mutex::new(HashMap::new()),
            failures: failures.max(1),
            cooldown,
        }
    }

    fn with<T>(&self, stage: Stage, name: &'static str, f: impl FnOnce(&mut Record) -> T) -> T {
        let mut records = self.records.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        f(records.entry((stage, name)).or_default())
    }

    /// When a call may go to the provider: `None` now, else the time until its breaker's next probe.
    pub fn closed_in(&self, stage: Stage, name: &'static str) -> Option<Duration> {
        self.with(stage, name, |r| match r.state {
            BreakerState::Closed => None,
            BreakerState::Open | BreakerState::HalfOpen => {
                let at = r.probe_at.unwrap_or_else(Instant::now);
                Some(at.saturating_duration_since(Instant::now()))
            }
        })
    }

    /// A call succeeded after `took`.
    pub fn succeeded(&self, stage: Stage, name: &'static str, took: Duration) {
        self.with(stage, name, |r| {
            r.remember(took, true);
            r.failures_in_row = 0;
            r.verified = Some(SystemTime::now());
        });
    }

    /// A call failed after `took` with `error`; true when this opened the breaker.
    pub fn failed(&self, stage: Stage, name: &'static str, took: Duration, error: &str) -> bool {
        let (failures, cooldown) = (self.failures, self.cooldown);
        self.with(stage, name, |r| {
            r.remember(took, false);
            r.failures_in_row += 1;
            r.last_error = Some(error.to_string());
            let opens = r.state == BreakerState::Closed && r.failures_in_row >= failures;
            if opens {
                r.set(BreakerState::Open);
                r.probe_at = Some(Instant::now() + cooldown);
            }
            opens
        })
    }

    /// The open breakers whose probe is due, now half open: the prober takes them.
    pub fn due(&self) -> Vec<(Stage, &'static str)> {
        let now = Instant::now();
        let mut records = self.records.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        records
            .iter_mut()
            .filter(|(_, r)| r.state == BreakerState::Open && r.probe_at.is_some_and(|at| at <= now))
            .map(|(key, r)| {
                r.set(BreakerState::HalfOpen);
                *key
            })
            .collect()
    }

    /// A probe's outcome: closes the breaker, or opens it for another cooldown.
    pub fn probed(&self, stage: Stage, name: &'static str, result: Result<(), String>) {
        let cooldown = self.cooldown;
        self.with(stage, name, |r| match result {
            Ok(()) => {
                r.failures_in_row = 0;
                r.probe_at = None;
                r.verified = Some(SystemTime::now());
                r.set(BreakerState::Closed);
            }
            Err(error) => {
                r.last_error = Some(error);
                r.probe_at = Some(Instant::now() + cooldown);
                r.set(BreakerState::Open);
            }
        });
    }

    /// A check of the help path passed or failed after `took`; `Some(true)` when it began failing now,
    /// `Some(false)` when it works again.
    pub fn checked(&self, name: &'static str, took: Duration, result: Result<(), String>) -> Option<bool> {
        let mut checks = self.checks.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let r = checks.entry(name).or_default();
        r.remember(took, result.is_ok());
        let was = r.state;
        match result {
            Ok(()) => {
                r.verified = Some(SystemTime::now());
                r.set(BreakerState::Closed);
            }
            Err(error) => {
                r.last_error = Some(error);
                r.set(BreakerState::Open);
            }
        }
        (was != r.state).then_some(r.state == BreakerState::Open)
    }

    /// The help path's checks that ran, by name, with their health.
    pub fn checks(&self) -> Vec<(&'static str, HealthReport)> {
        let checks = self.checks.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut all: Vec<_> = checks.iter().map(|(name, r)| (*name, r.report())).collect();
        all.sort_by_key(|(name, _)| *name);
        all
    }

    /// Whether the check `name` failed last time (never run: no).
    pub fn check_failing(&self, name: &str) -> bool {
        let checks = self.checks.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        checks.get(name).is_some_and(|r| r.state != BreakerState::Closed)
    }

    /// The provider's health now.
    pub fn report(&self, stage: Stage, name: &'static str) -> HealthReport {
        self.with(stage, name, |r| r.report())
    }
}

impl Record {
    /// Its health now.
    fn report(&self) -> HealthReport {
        let now = Instant::now();
        let recent: Vec<&Call> = self.calls.iter().filter(|c| now - c.at <= HOUR).collect();
        let mut took: Vec<u64> = recent.iter().map(|c| c.took.as_millis() as u64).collect();
        took.sort_unstable();
        let at = |q: f64| took[((took.len() - 1) as f64 * q).round() as usize];
        let failed = recent.iter().filter(|c| !c.ok).count();
        HealthReport {
            state: self.state,
            last_error: self.last_error.clone(),
            since: chrono::DateTime::<chrono::Utc>::from(self.since).to_rfc3339(),
            retry_in_seconds: self
                .probe_at
                .filter(|_| self.state != BreakerState::Closed)
                .map(|at| at.saturating_duration_since(now).as_secs()),
            latency_ms: (!took.is_empty()).then(|| [at(0.5), at(0.9)]),
            error_rate: (!recent.is_empty()).then(|| failed as f64 / recent.len() as f64),
            calls: recent.len(),
            verified_at: self
                .verified
                .map(|at| chrono::DateTime::<chrono::Utc>::from(at).to_rfc3339()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_in_a_row_open_the_breaker_and_a_success_between_them_does_not() {
        let breakers = Breakers::new(3, Duration::from_secs(30));
        let ms = Duration::from_millis(5);
        assert!(!breakers.failed(Stage::Llm, "local", ms, "down"));
        assert!(!breakers.failed(Stage::Llm, "local", ms, "down"));
        breakers.succeeded(Stage::Llm, "local", ms);
        assert!(!breakers.failed(Stage::Llm, "local", ms, "down"));
        assert!(!breakers.failed(Stage::Llm, "local", ms, "down"));
        assert_eq!(breakers.closed_in(Stage::Llm, "local"), None);
        assert!(breakers.failed(Stage::Llm, "local", ms, "down"));
        let wait = breakers.closed_in(Stage::Llm, "local").expect("open");
        assert!(wait > Duration::from_secs(29));
        let report = breakers.report(Stage::Llm, "local");
        assert_eq!(report.state, BreakerState::Open);
        assert_eq!(report.last_error.as_deref(), Some("down"));
        assert_eq!(report.calls, 6);
        assert_eq!(report.error_rate, Some(5.0 / 6.0));
        assert_eq!(
            breakers.closed_in(Stage::Tts, "local"),
            None,
            "each provider has its own"
        );
    }

    #[test]
    fn a_due_probe_half_opens_and_its_outcome_closes_or_reopens() {
        let breakers = Breakers::new(1, Duration::ZERO);
        assert!(breakers.failed(Stage::Stt, "openai", Duration::ZERO, "refused"));
        assert_eq!(breakers.due(), [(Stage::Stt, "openai")]);
        assert_eq!(breakers.report(Stage::Stt, "openai").state, BreakerState::HalfOpen);
        assert!(breakers.due().is_empty(), "one probe at a time");
        breakers.probed(Stage::Stt, "openai", Err("still refused".into()));
        assert_eq!(breakers.report(Stage::Stt, "openai").state, BreakerState::Open);
        assert_eq!(breakers.due().len(), 1);
        breakers.probed(Stage::Stt, "openai", Ok(()));
        assert_eq!(breakers.closed_in(Stage::Stt, "openai"), None);
        assert_eq!(breakers.report(Stage::Stt, "openai").state, BreakerState::Closed);
    }
}
