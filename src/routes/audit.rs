//! The admin actions the audit log keeps: each action's name and what it records, as one type, so that the
//! log's names cannot drift and a detail cannot carry what it must not (the system prompt's text, a token).

use serde::Serialize;
use serde_json::{Map, Value};

use crate::app::App;
use crate::auth::Admin;
use crate::error::Result;

/// An admin action and its detail, as the audit log stores them (`action`, `detail`).
#[derive(Debug, Serialize)]
#[serde(tag = "action", content = "detail")]
pub enum Action<'a> {
    /// An admin signed in with their personal link.
    #[serde(rename = "admin.login")]
    Login {},
    #[serde(rename = "user.create")]
    UserCreate {
        name: &'a str,
        is_admin: bool,
        external_id: Option<&'a str>,
    },
    #[serde(rename = "user.rename")]
    UserRename { display_name: &'a str },
    #[serde(rename = "user.export")]
    UserExport {},
    #[serde(rename = "user.delete")]
    UserDelete {},
    #[serde(rename = "user.token_reset")]
    TokenReset {},
    #[serde(rename = "user.memories_preset")]
    MemoriesPreset { count: usize },
    /// A carer set, cancelled or confirmed a person's reminder.
    #[serde(rename = "user.reminder_add")]
    ReminderAdd { id: &'a str },
    #[serde(rename = "user.reminder_cancel")]
    ReminderCancel { id: &'a str },
    #[serde(rename = "user.reminder_confirm")]
    ReminderConfirm { id: &'a str },
    /// An admin named a resident's carers (how many; their ids are in the carers' list).
    #[serde(rename = "user.carers")]
    Carers { carers: usize },
    /// The prefs' keys, not their values.
    #[serde(rename = "user.prefs")]
    Prefs { keys: Vec<&'a str> },
    #[serde(rename = "user.admin_flag")]
    AdminFlag { is_admin: bool },
    #[serde(rename = "user.history_delete")]
    HistoryDelete { sessions: u64 },
    /// An operator ended a person's help cooldown window, so that the next press sends at once.
    #[serde(rename = "user.emergency_cooldown_end")]
    CooldownEnd { was_open: bool },
    /// A carer set a resident's check-in window, days away or time zone.
    #[serde(rename = "user.checkin")]
    Checkin {
        window: bool,
        away_until: bool,
        time_zone: bool,
    },
    /// A carer acknowledged a resident's alarm: they are looking after it.
    #[serde(rename = "alarm.acknowledge")]
    AlarmAcknowledge { alarm_id: &'a str, first: bool },
    /// A carer acknowledged the day a resident left the check-in unanswered: they are looking after it.
    #[serde(rename = "checkin.acknowledge")]
    CheckinAcknowledge { first: bool },
    /// A carer acknowledged a resident's care notice: they are looking after it.
    #[serde(rename = "notice.acknowledge")]
    NoticeAcknowledge { first: bool },
    /// A carer listed a resident's conversations (titles and times), which the resident shares.
    #[serde(rename = "carer.sessions_list")]
    CarerSessions { count: usize },
    /// An admin read a person's conversation.
    #[serde(rename = "conversation.read")]
    ConversationRead { user_id: &'a str },
    #[serde(rename = "config.set")]
    ConfigSet { value: Shown<'a> },
    #[serde(rename = "config.reset")]
    ConfigReset { removed: bool },
    #[serde(rename = "models.select")]
    ModelsSelect { values: &'a Map<String, Value> },
    #[serde(rename = "llm.backend")]
    Backend { backend: &'a str, model: Option<&'a str> },
    #[serde(rename = "llm.backend.rejected")]
    BackendRejected {
        backend: &'a str,
        model: Option<&'a str>,
        rejected: String,
    },
    #[serde(rename = "lexicon.put")]
    LexiconPut { key: &'a str, value: &'a str },
    #[serde(rename = "lexicon.delete")]
    LexiconDelete { key: &'a str },
    #[serde(rename = "db.export")]
    DbExport { bytes: usize },
    #[serde(rename = "gateway.restart")]
    Restart { how: &'a str },
    /// A provider probed on the admin's request (a probe of a cloud provider may cost a little).
    #[serde(rename = "provider.check")]
    ProviderCheck { works: bool },
}

/// A setting's new value as the log keeps it.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Shown<'a> {
    /// The value itself.
    Value(&'a str),
    /// Only the length (the system prompt may be long).
    Length { chars: usize },
}

/// Records an admin action on `target` in the audit log and in the log (target `audit`).
pub async fn audit(app: &App, admin: &Admin, target: &str, action: Action<'_>) -> Result<()> {
    audit_as(app, &admin.actor, target, action).await
}

/// Records an action of `actor` (an admin, or a carer as `carer:{name}`) on `target`.
pub async fn audit_as(app: &App, actor: &str, target: &str, action: Action<'_>) -> Result<()> {
    let entry = serde_json::to_value(&action).unwrap_or_default();
    let name = entry["action"].as_str().unwrap_or_default();
    let detail = &entry["detail"];
    tracing::info!(target: "audit", actor, action = name, target, %detail, "admin action");
    app.store.audit(actor, name, target, &detail.to_string()).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_action_is_its_name_and_its_detail() {
        let entry = serde_json::to_value(Action::ConfigSet {
            value: Shown::Length { chars: 12 },
        })
        .unwrap();
        assert_eq!(
            entry,
            serde_json::json!({"action": "config.set", "detail": {"value": {"chars": 12}}})
        );
        let entry = serde_json::to_value(Action::TokenReset {}).unwrap();
        assert_eq!(entry, serde_json::json!({"action": "user.token_reset", "detail": {}}));
    }
}
