//! The phone lines the gateway keeps itself (its SIP registration): their state, for the admin panel, and the
//! dialer that places alarm calls over them. The help function (below the lines) calls through [`Dialer`];
//! the SIP line (above it) sets one when it registers with a registrar.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use utoipa::ToSchema;

/// Where a line stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LineState {
    /// Asking the registrar.
    Registering,
    /// The registrar took the registration; calls can come and go.
    Registered,
    /// The registrar refused or did not answer; tried again after a pause.
    Failing,
}

/// One line's state.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LineStatus {
    /// The line (`sip`).
    pub line: &'static str,
    /// The account, `user@registrar`.
    pub account: String,
    pub state: LineState,
    /// The registrar's answer or why there was none (`401 Unauthorized …`), or how long it is registered for.
    pub detail: String,
    /// Since when the line is in this state (RFC 3339).
    pub since: String,
    /// Registrations the registrar took since the start (refreshes included).
    pub registrations: u64,
    /// Calls the gateway ended since the start because their other side was gone (no audio, no ACK, a session
    /// timer run out), and the reason of the last.
    pub calls_ended: u64,
    pub last_ended: Option<String>,
}

/// A call to place: the message said in the person's language and voice, then "press 1", as often as the
/// callee needs to hear it: an alarm to a contact, or care's call to the person (a reminder, the check-in).
pub struct AlarmCall {
    /// The number to dial: E.164 (`+49…`) or an internal number of the house (`**613`, `13`).
    pub to: String,
    /// The person whose alarm it is (their voice speaks).
    pub user: crate::store::users::User,
    /// The language of the words.
    pub language: String,
    /// What happened and where.
    pub message: String,
    /// "Press 1 to confirm".
    pub ask: String,
    /// Said after a 1.
    pub thanks: String,
    /// What a 1 (or, where the call listens, a spoken yes) confirms; none: the call only tells.
    pub confirms: Option<Confirm>,
    /// How long the call may ring before it counts as not answered.
    pub ring: Duration,
}

/// What the callee confirms on a call.
#[derive(Debug, Clone)]
pub enum Confirm {
    /// The alarm's acknowledgement of this contact (by its id): a 1.
    Alarm(String),
    /// The person's own reminder (by its id): a 1 or a spoken yes ("ja", "erledigt").
    Reminder(String),
    /// The person's daily check-in: a 1 or a spoken yes; a spoken no or a call for help starts the help
    /// function's question on the call.
    Checkin,
}

/// Places alarm calls over a line: answers once the callee picked up (the call goes on meanwhile), or why
/// nobody did (busy, rejected, no answer, the line's own failure), as the contact's delivery.
pub trait Dialer: Send + Sync {
    fn dial(&self, call: AlarmCall) -> Pin<Box<dyn Future<Output = Result<(), String>> + Send + '_>>;
}

/// Every line's state, and the dialer of the line that can call out.
#[derive(Default)]
pub struct Lines {
    states: Mutex<BTreeMap<&'static str, LineStatus>>,
    dialer: Mutex<Option<Arc<dyn Dialer>>>,
    failures: Mutex<BTreeMap<&'static str, TaskFailures>>,
    calls: Mutex<BTreeMap<&'static str, CallOutcomes>>,
}

/// How a call ended: each call has exactly one (`phone_calls_total{line, outcome, reason}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Never answered, or told it may not call (`busy`, `voice_limit`, `unknown_caller`, …).
    Refused(&'static str),
    /// Its task failed; the call was ended as a hang-up ends it.
    Failed,
    /// The caller hung up.
    HungUp,
    /// The gateway ended it (`goodbye`, `no_audio`, `no_ack`, `session_expired`, `unavailable`).
    Ended(&'static str),
}

impl Outcome {
    fn labels(self) -> (&'static str, &'static str) {
        match self {
            Self::Refused(reason) => ("refused", reason),
            Self::Failed => ("failed", "task_failed"),
            Self::HungUp => ("hung_up", "caller"),
            Self::Ended(reason) => ("ended", reason),
        }
    }
}

/// The calls of one line since the start, by how they ended, for the admin panel.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct CallOutcomes {
    /// The line (`sip`, `audiosocket`, `twilio`).
    pub line: &'static str,
    pub refused: u64,
    pub failed: u64,
    pub hung_up: u64,
    pub ended: u64,
    /// The reason of the last refusal, and of the last call the gateway ended.
    pub last_refused: Option<String>,
    pub last_ended: Option<String>,
}

/// The tasks of one door (a telephone line, a voice protocol) that failed since the start: each ended its
/// call or connection as a hang-up would, and the rest went on.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TaskFailures {
    /// The door (`sip`, `audiosocket`, `twilio`, `wyoming`).
    pub door: &'static str,
    pub failures: u64,
    /// What the last one said, and when (RFC 3339).
    pub last_reason: String,
    pub last_at: String,
}

impl Lines {
    /// The dialer, while a line can place calls: set, and registered now (else why not).
    pub fn dialer(&self) -> Result<Arc<dyn Dialer>, String> {
        let dialer = self
            .dialer
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
            .ok_or("the house's telephone (SIP_REGISTRAR) is not set up")?;
        match self.status("sip") {
            Some(line) if line.state == LineState::Registered => Ok(dialer),
            Some(line) => Err(format!("the house's telephone is not registered ({})", line.detail)),
            None => Err("the house's telephone is not registered yet".into()),
        }
    }

    /// Sets the dialer of the line that calls out (the SIP line, when it has a registrar).
    pub fn set_dialer(&self, dialer: Arc<dyn Dialer>) {
        *self.dialer.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(dialer);
    }

    /// Sets `line`'s state; `since` moves only when the state changes.
    pub fn set(&self, line: &'static str, account: &str, state: LineState, detail: String) {
        let mut lines = self.states.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let now = chrono::Utc::now().to_rfc3339();
        let entry = lines.entry(line).or_insert_with(|| LineStatus {
            line,
            account: account.to_string(),
            state,
            detail: String::new(),
            since: now.clone(),
            registrations: 0,
            calls_ended: 0,
            last_ended: None,
        });
        if entry.state != state {
            entry.since = now;
        }
        if state == LineState::Registered {
            entry.registrations += 1;
        }
        entry.state = state;
        entry.detail = detail;
    }

    /// Counts a call of `line` the gateway ended because its other side was gone (`reason`), where the line
    /// has a state.
    pub fn call_ended(&self, line: &str, reason: &str) {
        let mut lines = self.states.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(entry) = lines.get_mut(line) {
            entry.calls_ended += 1;
            entry.last_ended = Some(reason.to_string());
        }
    }

    /// Counts a task of `door` that failed (`reason`: its panic's message), in the metrics and for the admin
    /// panel, and logs it once.
    pub fn task_failed(&self, metrics: &crate::metrics::Metrics, door: &'static str, reason: &str) {
        tracing::error!(door, reason, "a task failed; its call or connection is ended");
        metrics.incr(crate::metrics::TASK_FAILURES_TOTAL, &[("door", door)]);
        let mut failures = self.failures.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let entry = failures.entry(door).or_insert_with(|| TaskFailures {
            door,
            failures: 0,
            last_reason: String::new(),
            last_at: String::new(),
        });
        entry.failures += 1;
        entry.last_reason = reason.chars().take(200).collect();
        entry.last_at = chrono::Utc::now().to_rfc3339();
    }

    /// Counts how a call of `line` ended, in the metrics and for the admin panel.
    pub fn call_outcome(&self, metrics: &crate::metrics::Metrics, line: &'static str, outcome: Outcome) {
        let (label, reason) = outcome.labels();
        let labels = [("line", line), ("outcome", label), ("reason", reason)];
        metrics.incr(crate::metrics::PHONE_CALLS_TOTAL, &labels);
        let mut calls = self.calls.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let entry = calls.entry(line).or_insert_with(|| CallOutcomes {
            line,
            ..Default::default()
        });
        match outcome {
            Outcome::Refused(reason) => {
                entry.refused += 1;
                entry.last_refused = Some(reason.into());
            }
            Outcome::Failed => entry.failed += 1,
            Outcome::HungUp => entry.hung_up += 1,
            Outcome::Ended(reason) => {
                entry.ended += 1;
                entry.last_ended = Some(reason.into());
            }
        }
    }

    /// Each line's calls since the start, by how they ended.
    pub fn calls(&self) -> Vec<CallOutcomes> {
        let calls = self.calls.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        calls.values().cloned().collect()
    }

    /// The doors whose tasks failed since the start.
    pub fn failures(&self) -> Vec<TaskFailures> {
        let failures = self.failures.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        failures.values().cloned().collect()
    }

    /// One line's state, once it has one.
    pub fn status(&self, line: &str) -> Option<LineStatus> {
        let lines = self.states.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        lines.get(line).cloned()
    }

    pub fn list(&self) -> Vec<LineStatus> {
        let lines = self.states.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        lines.values().cloned().collect()
    }
}
