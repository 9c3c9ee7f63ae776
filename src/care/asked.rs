//! A request about reminders in a turn, answered by the gateway itself (the offline model cannot call tools):
//! set, list or cancel, in the person's time zone, said back in their words, with a question for a missing
//! part whose answer completes it; and the person's answer to a reminder told on their connection
//! ("Erledigt") or to the daily check-in's question ("Ja, alles gut").

use std::time::Duration;

use jiff::Timestamp;

use super::dialogue::Dialogue;
use super::due::{Problem, Rule, due};
use super::say;
use super::spoken::{Asked, When, read};
use crate::app::App;
use crate::config::REMINDER_TEXT_MAX;
use crate::error::Result;
use crate::hearing::Intent;
use crate::prefs::Prefs;
use crate::store::reminders::{NewReminder, StoredReminder};
use crate::store::users::User;

/// Who asks, and where: the person, their prefs, the channel family that sets (`voice`, `user`) and the
/// connection's care dialogue (none: a request without a connection, such as `POST /api/chat`).
pub struct Asker<'a> {
    pub user: &'a User,
    pub prefs: &'a Prefs,
    pub by: &'a str,
    pub dialogue: Option<&'a Dialogue>,
}

/// The answer to `text` in `language` when it is a request about reminders or timers (as the language's
/// sentences have it), the answer to a question for a missing part of one, a yes to a reminder told on this
/// connection, or a yes to the check-in; none for anything else, which goes to the model.
pub async fn answer(app: &App, asker: &Asker<'_>, text: &str, language: &str) -> Result<Option<String>> {
    let informal = asker.prefs.informal();
    if let Some(dialogue) = asker.dialogue {
        let told = dialogue.told_within(Duration::from_millis(app.settings.care.answer_ms));
        if !told.is_empty()
            && super::spoken::confirms(text, language)
            && let Some(thanks) = confirmed(app, asker.user, &told, informal, language).await?
        {
            return Ok(Some(thanks));
        }
    }
    // "Ja" to the daily check-in's question.
    if super::spoken::fine(text, language) == Some(true) && super::checkin::asking(app, &asker.user.id).await {
        super::checkin::signed(app, &asker.user.id, "said").await?;
        return Ok(Some(say::checkin_thanks(language, informal)));
    }
    let question = asker.dialogue.and_then(Dialogue::take_question);
    let completed = question.and_then(|(missing, partial)| {
        super::spoken::completes(text, language, missing).map(|answer| partial.completed(answer))
    });
    let Some(asked) = completed.or_else(|| read(text, language)) else {
        return Ok(None);
    };
    let said = match asked {
        Asked::Set { text, when } => set(app, asker, language, text, when).await?,
        Asked::Timer { seconds } => timer(app, asker, language, seconds).await?,
        Asked::List => list(app, asker, language).await?,
        Asked::Cancel { text } => cancel(app, asker, language, &text).await?,
    };
    Ok(Some(said))
}

/// Sets a reminder of `text` at `when`, or asks for what is missing.
async fn set(app: &App, asker: &Asker<'_>, language: &str, text: String, when: When) -> Result<String> {
    let informal = asker.prefs.informal();
    let tz = super::person_zone(app, asker.prefs);
    let now = Timestamp::now().to_zoned(tz.clone());
    if text.is_empty() || text.chars().count() > REMINDER_TEXT_MAX {
        ask(
            asker,
            Intent::What,
            Asked::Set {
                text: String::new(),
                when,
            },
        );
        return Ok(say::missing(language, informal, false));
    }
    let first = match due(&when, &now).or_else(|p| match p {
        Problem::NoClock => at_usual_time(asker.prefs, &when, &now).ok_or(p),
        p => Err(p),
    }) {
        Err(problem @ (Problem::NoTime | Problem::NoClock)) => {
            ask(asker, Intent::When, Asked::Set { text, when });
            return Ok(say::problem(language, informal, problem));
        }
        Err(problem) => return Ok(say::problem(language, informal, problem)),
        Ok(first) => first,
    };
    let rule = first.rule.as_ref().map(Rule::to_string);
    let new = NewReminder {
        text: &text,
        due_at: first.at.timestamp().as_millisecond(),
        time_zone: &super::zone_name(&tz),
        repeat_rule: rule.as_deref(),
        confirm: true,
        timer: false,
        created_by: asker.by,
    };
    let said = add(app, asker, &new)
        .await?
        .then(|| say::set(language, informal, &text, &first, &now));
    Ok(said.unwrap_or_else(|| say::full(language, informal, app.settings.care.reminders_max)))
}

/// A day said without its time, at the time of day the person chose for that (`reminder_time`); none when she
/// chose none: then the time is asked, never guessed.
fn at_usual_time(prefs: &Prefs, when: &When, now: &jiff::Zoned) -> Option<super::due::Due> {
    let at = jiff::civil::Time::strptime("%H:%M", Prefs::text(&prefs.reminder_time)).ok()?;
    let clock = super::spoken::Clock {
        hour: at.hour() as u8,
        minute: at.minute() as u8,
        sure: true,
    };
    let when = When {
        clock: Some(clock),
        ..when.clone()
    };
    due(&when, now).ok()
}

/// Sets a timer of `seconds`, or asks how long.
async fn timer(app: &App, asker: &Asker<'_>, language: &str, seconds: Option<u32>) -> Result<String> {
    let informal = asker.prefs.informal();
    let Some(seconds) = seconds else {
        ask(asker, Intent::Length, Asked::Timer { seconds: None });
        return Ok(say::missing(language, informal, true));
    };
    let tz = super::person_zone(app, asker.prefs);
    let end = Timestamp::now()
        .to_zoned(tz.clone())
        .checked_add(jiff::SignedDuration::from_secs(i64::from(seconds)))
        .map_err(|e| crate::error::ApiError::Internal(format!("a timer's end: {e}")))?;
    let new = NewReminder {
        text: "Timer",
        due_at: end.timestamp().as_millisecond(),
        time_zone: &super::zone_name(&tz),
        repeat_rule: None,
        confirm: false,
        timer: true,
        created_by: asker.by,
    };
    let said = add(app, asker, &new)
        .await?
        .then(|| say::timer(language, seconds, &end));
    Ok(said.unwrap_or_else(|| say::full(language, informal, app.settings.care.reminders_max)))
}

/// Adds `new` for the asker, counted; false when they have as many waiting as they may.
async fn add(app: &App, asker: &Asker<'_>, new: &NewReminder<'_>) -> Result<bool> {
    let cap = app.settings.care.reminders_max;
    let added = app.store.add_reminder(&asker.user.id, new, cap).await?.is_some();
    if added {
        app.metrics.incr(
            crate::metrics::REMINDERS_TOTAL,
            &[("event", "set"), ("channel", asker.by)],
        );
        crate::carers::changed(app, &asker.user.id).await;
    }
    Ok(added)
}

/// The reminders still to come, said.
async fn list(app: &App, asker: &Asker<'_>, language: &str) -> Result<String> {
    let now = Timestamp::now().to_zoned(super::person_zone(app, asker.prefs));
    let informal = asker.prefs.informal();
    let waiting = waiting(app, &asker.user.id).await?;
    let items: Vec<String> = waiting
        .iter()
        .map(|r| {
            let at = super::local(r.due_at, &r.time_zone);
            let rule = r.repeat_rule.as_deref().and_then(|r| Rule::parse(r).ok());
            say::item(language, informal, &r.text, &at, rule.as_ref(), &now)
        })
        .collect();
    Ok(say::list(language, informal, &items))
}

/// Cancels the reminder named `text` (empty: the next one).
async fn cancel(app: &App, asker: &Asker<'_>, language: &str, text: &str) -> Result<String> {
    let informal = asker.prefs.informal();
    let waiting = waiting(app, &asker.user.id).await?;
    Ok(match chosen(&waiting, text) {
        Some(r) if app.store.cancel_reminder(&asker.user.id, &r.id).await? => {
            crate::carers::changed(app, &asker.user.id).await;
            say::cancelled(language, informal, Some(&r.text), r.timer)
        }
        _ => say::cancelled(language, informal, None, false),
    })
}

/// The connection remembers the question for `missing` (without one, the question is asked all the same: the
/// person may ask again whole).
fn ask(asker: &Asker<'_>, missing: Intent, asked: Asked) {
    if let Some(dialogue) = asker.dialogue {
        dialogue.ask(missing, asked);
    }
}

/// "Erledigt" after a reminder to confirm was told on this connection (`told`, the latest first): the latest
/// of them still waiting for its confirmation is confirmed and the person is thanked; none when there is none
/// (the words go to the model).
async fn confirmed(app: &App, user: &User, told: &[String], informal: bool, language: &str) -> Result<Option<String>> {
    let all = app.store.reminders(&user.id).await?;
    let waiting = told
        .iter()
        .find_map(|id| all.iter().find(|r| r.id == *id && r.state == "delivering" && r.confirm));
    let Some(r) = waiting else {
        return Ok(None);
    };
    if !super::confirm(app, &user.id, &r.id, super::By::Person("said")).await? {
        return Ok(None);
    }
    Ok(Some(say::confirmed(language, informal, &r.text)))
}

/// The person's reminders still to come, the next first.
async fn waiting(app: &App, user_id: &str) -> Result<Vec<StoredReminder>> {
    let all = app.store.reminders(user_id).await?;
    Ok(all
        .into_iter()
        .filter(|r| matches!(r.state.as_str(), "scheduled" | "delivering"))
        .collect())
}

/// The reminder a cancel names: the first whose text holds every word said ("Tabletten" for "meine
/// Tabletten"), a timer for "Timer", or the next one when nothing was said.
pub(super) fn chosen<'a>(waiting: &'a [StoredReminder], said: &str) -> Option<&'a StoredReminder> {
    let words: Vec<String> = said.split_whitespace().map(str::to_lowercase).collect();
    if words.is_empty() {
        return waiting.first();
    }
    if words.iter().any(|w| w == "timer") {
        return waiting.iter().find(|r| r.timer);
    }
    waiting.iter().find(|r| {
        let text = r.text.to_lowercase();
        words
            .iter()
            .all(|w| text.split(|c: char| !c.is_alphanumeric()).any(|t| t == w))
    })
}
