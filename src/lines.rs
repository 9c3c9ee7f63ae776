//! The phone lines the gateway keeps itself (its SIP registration): their state, for the admin panel.

use std::collections::BTreeMap;
use std::sync::Mutex;

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
}

/// Every line's state.
#[derive(Default)]
pub struct Lines(Mutex<BTreeMap<&'static str, LineStatus>>);

impl Lines {
    /// Sets `line`'s state; `since` moves only when the state changes.
    pub fn set(&self, line: &'static str, account: &str, state: LineState, detail: String) {
        let mut lines = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let now = chrono::Utc::now().to_rfc3339();
        let entry = lines.entry(line).or_insert_with(|| LineStatus {
            line,
            account: account.to_string(),
            state,
            detail: String::new(),
            since: now.clone(),
            registrations: 0,
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

    pub fn list(&self) -> Vec<LineStatus> {
        let lines = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        lines.values().cloned().collect()
    }
}
