//! Reminder tools for a model that calls tools, for what the gateway's own grammar does not read (other
//! languages, odd phrasings): `set_reminder` (a time as RFC 3339, or a timer in seconds, and a repetition),
//! `list_reminders` and `cancel_reminder`. They do what the REST API does for the person (the same limits),
//! and answer JSON the model words in the person's language. The gateway's grammar still answers German and
//! English requests before any model is asked.

use jiff::Timestamp;
use serde::Deserialize;
use serde_json::{Value, json};

use super::due::Rule;
use crate::app::App;
use crate::config::REMINDER_TEXT_MAX;
use crate::providers::llm::Tool;
use crate::store::reminders::NewReminder;
use crate::store::users::User;

const SET: &str = "set_reminder";
const LIST: &str = "list_reminders";
const CANCEL: &str = "cancel_reminder";
/// The farthest ahead a reminder may be set, in days (as the REST API).
const MAX_AHEAD_DAYS: i64 = 366;

/// The tools.
pub fn tools() -> Vec<Tool> {
    vec![
        Tool {
            name: SET,
            description: "Set a reminder or a timer for the user. Give `text` and `due_at` (RFC 3339 with the \
                          user's offset), or `in_seconds` for a timer; `repeat` is FREQ=DAILY or \
                          FREQ=WEEKLY;BYDAY=MO,TH (optional).",
            parameters: json!({
                "type": "object",
                "properties": {
                    "text": {"type": "string", "description": "what to remind of, in the user's words"},
                    "due_at": {"type": "string", "description": "when, RFC 3339 with offset"},
                    "in_seconds": {"type": "integer", "description": "a timer: seconds from now"},
                    "repeat": {"type": "string", "description": "FREQ=DAILY or FREQ=WEEKLY;BYDAY=MO,TH"}
                },
            }),
        },
        Tool {
            name: LIST,
            description: "List the user's reminders and timers still to come.",
            parameters: json!({"type": "object", "properties": {}}),
        },
        Tool {
            name: CANCEL,
            description: "Cancel the user's reminder whose text holds these words (the next one if empty).",
            parameters: json!({
                "type": "object",
                "properties": {"text": {"type": "string", "description": "words of the reminder's text"}},
            }),
        },
    ]
}

/// Whether `name` is one of these tools.
pub fn is_tool(name: &str) -> bool {
    [SET, LIST, CANCEL].contains(&name)
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Args {
    text: String,
    due_at: Option<String>,
    in_seconds: Option<i64>,
    repeat: Option<String>,
}

/// Runs the tool `name` with the model's `arguments` for `user`: the JSON the model reads (an `error` field
/// for what was wrong, so the model can say so or try again).
pub async fn run(app: &App, user: &User, name: &str, arguments: &str) -> String {
    let args: Args = serde_json::from_str(arguments).unwrap_or_default();
    let done = match name {
        SET => set(app, user, args).await,
        LIST => list(app, user).await,
        _ => cancel(app, user, &args.text).await,
    };
    done.unwrap_or_else(|error| json!({"error": error})).to_string()
}

async fn set(app: &App, user: &User, args: Args) -> Result<Value, String> {
    let prefs = app.store.prefs(&user.id).await.map_err(|e| e.to_string())?;
    let zone = super::person_zone_name(app, &prefs);
    let now = Timestamp::now().as_millisecond();
    let text = args.text.trim();
    let (due_at, timer) = match (args.due_at.as_deref(), args.in_seconds) {
        (_, Some(seconds)) if (1..=86_400).contains(&seconds) => (now + seconds * 1000, true),
        (_, Some(_)) => return Err("in_seconds must be 1 to 86400".into()),
        (Some(at), None) => {
            let at: Timestamp = at.parse().map_err(|_| "due_at must be RFC 3339 with an offset")?;
            let ms = at.as_millisecond();
            if ms < now - 60_000 || ms > now + MAX_AHEAD_DAYS * 86_400_000 {
                return Err(format!("due_at must be between now and {MAX_AHEAD_DAYS} days ahead"));
            }
            (ms, false)
        }
        (None, None) => return Err("give due_at or in_seconds".into()),
    };
    if (text.is_empty() && !timer) || text.chars().count() > REMINDER_TEXT_MAX {
        return Err(format!("text must be 1 to {REMINDER_TEXT_MAX} characters"));
    }
    let rule = match args.repeat.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
        Some(_) if timer => return Err("a timer does not repeat".into()),
        Some(rule) => Some(Rule::parse(rule)?.to_string()),
        None => None,
    };
    let new = NewReminder {
        text: if text.is_empty() { "Timer" } else { text },
        due_at,
        time_zone: &zone,
        repeat_rule: rule.as_deref(),
        confirm: !timer,
        timer,
        created_by: "voice",
    };
    let cap = app.settings.care.reminders_max;
    let stored = app
        .store
        .add_reminder(&user.id, &new, cap)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("{cap} reminders are waiting already; cancel one first"))?;
    app.metrics.incr(
        crate::metrics::REMINDERS_TOTAL,
        &[("event", "set"), ("channel", "tool")],
    );
    crate::carers::changed(app, &user.id).await;
    Ok(
        json!({"set": {"text": stored.text, "due_at": super::rfc3339(stored.due_at, &zone), "repeat": rule,
        "timer": timer}}),
    )
}

async fn list(app: &App, user: &User) -> Result<Value, String> {
    let all = app.store.reminders(&user.id).await.map_err(|e| e.to_string())?;
    let waiting: Vec<Value> = all
        .iter()
        .filter(|r| matches!(r.state.as_str(), "scheduled" | "delivering"))
        .map(|r| json!({"text": r.text, "due_at": super::rfc3339(r.due_at, &r.time_zone), "repeat": r.repeat_rule}))
        .collect();
    Ok(json!({"reminders": waiting}))
}

async fn cancel(app: &App, user: &User, words: &str) -> Result<Value, String> {
    let all = app.store.reminders(&user.id).await.map_err(|e| e.to_string())?;
    let waiting: Vec<_> = all
        .into_iter()
        .filter(|r| matches!(r.state.as_str(), "scheduled" | "delivering"))
        .collect();
    let Some(r) = super::asked::chosen(&waiting, words) else {
        return Err("no such reminder".into());
    };
    if !app
        .store
        .cancel_reminder(&user.id, &r.id)
        .await
        .map_err(|e| e.to_string())?
    {
        return Err("no such reminder".into());
    }
    crate::carers::changed(app, &user.id).await;
    Ok(json!({"cancelled": {"text": r.text}}))
}
