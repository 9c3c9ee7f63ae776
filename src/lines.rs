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
