//! A request about reminders in a turn, answered by the gateway itself (the offline model cannot call tools):
//! set, list or cancel, in the person's time zone, said back in their words; and the person's answer to a
//! reminder being delivered ("Erledigt") or to the daily check-in's question ("Ja, alles gut").

use jiff::Timestamp;

use super::due::{Rule, due};
use super::say;
use super::spoken::{Asked, read};
use crate::app::App;
use crate::config::REMINDER_TEXT_MAX;
use crate::error::Result;
use crate::prefs::Prefs;
use crate::store::reminders::{NewReminder, StoredReminder};
use crate::store::users::User;

/// The answer to `text` in `language` when it is about reminders or timers (German and English) or a yes to
/// a reminder or the check-in (every shipped language); none for anything else, which goes to the model. `by`
/// names the channel family that set it (`voice`, `user`).
pub async fn answer(
    app: &App,
    user: &User,
    prefs: &Prefs,
    text: &str,
    language: &str,
    by: &str,
) -> Result<Option<String>> {
    if super::spoken::confirms(text, language)
        && let Some(thanks) = confirmed(app, user, prefs.informal(), language).await?
    {
        return Ok(Some(thanks));
    }
    // "Ja" to the daily check-in's question.
    if super::spoken::fine(text, language) == Some(true) && super::checkin::asking(app, &user.id).await {
        super::checkin::signed(app, &user.id, "said").await?;
        return Ok(Some(say::checkin_thanks(language, prefs.informal())));
    }
    // The grammar of requests reads German and English; the yes above is every language's.
    if !matches!(language, "de" | "en") {
        return Ok(None);
    }
    let Some(asked) = read(text, language) else {
        return Ok(None);
    };
    let informal = prefs.informal();
    let tz = super::person_zone(app, prefs);
    let now = Timestamp::now().to_zoned(tz.clone());
    let zone = super::zone_name(&tz);
    let cap = app.settings.care.reminders_max;
    let said = match asked {
        Asked::Set { text, .. } if text.is_empty() => say::missing(language, informal, false),
        Asked::Set { text, .. } if text.chars().count() > REMINDER_TEXT_MAX => say::missing(language, informal, false),
        Asked::Set { text, when } => match due(&when, &now) {
            Err(problem) => say::problem(language, informal, problem),
            Ok(first) => {
                let rule = first.rule.as_ref().map(Rule::to_string);
                let new = NewReminder {
                    text: &text,
                    due_at: first.at.timestamp().as_millisecond(),
                    time_zone: &zone,
                    repeat_rule: rule.as_deref(),
                    confirm: true,
                    timer: false,
                    created_by: by,
                };
                match app.store.add_reminder(&user.id, &new, cap).await? {
                    Some(_) => {
                        app.metrics
                            .incr(crate::metrics::REMINDERS_TOTAL, &[("event", "set"), ("channel", by)]);
                        say::set(language, informal, &text, &first, &now)
                    }
                    None => say::full(language, informal, cap),
                }
            }
        },
        Asked::Timer { seconds: None } => say::missing(language, informal, true),
        Asked::Timer { seconds: Some(seconds) } => {
            let end = now
                .checked_add(jiff::SignedDuration::from_secs(i64::from(seconds)))
                .map_err(|e| crate::error::ApiError::Internal(format!("a timer's end: {e}")))?;
            let new = NewReminder {
                text: "Timer",
                due_at: end.timestamp().as_millisecond(),
                time_zone: &zone,
                repeat_rule: None,
                confirm: false,
                timer: true,
                created_by: by,
            };
            match app.store.add_reminder(&user.id, &new, cap).await? {
                Some(_) => {
                    app.metrics
                        .incr(crate::metrics::REMINDERS_TOTAL, &[("event", "set"), ("channel", by)]);
                    say::timer(language, seconds, &end)
                }
                None => say::full(language, informal, cap),
            }
        }
        Asked::List => {
            let waiting = waiting(app, &user.id).await?;
            let items: Vec<String> = waiting
                .iter()
                .map(|r| {
                    let at = super::local(r.due_at, &r.time_zone);
                    let rule = r.repeat_rule.as_deref().and_then(|r| Rule::parse(r).ok());
                    say::item(language, informal, &r.text, &at, rule.as_ref(), &now)
                })
                .collect();
            say::list(language, informal, &items)
        }
        Asked::Cancel { text } => {
            let waiting = waiting(app, &user.id).await?;
            match chosen(&waiting, &text) {
                Some(r) if app.store.cancel_reminder(&user.id, &r.id).await? => {
                    say::cancelled(language, informal, Some(&r.text), r.timer)
                }
                _ => say::cancelled(language, informal, None, false),
            }
        }
    };
    Ok(Some(said))
}

/// "Erledigt" while a reminder to confirm is being delivered: the latest such reminder is confirmed and the
/// person is thanked; none when there is none (the words go to the model).
async fn confirmed(app: &App, user: &User, informal: bool, language: &str) -> Result<Option<String>> {
    let all = app.store.reminders(&user.id).await?;
    let latest = all
        .iter()
        .filter(|r| r.state == "delivering" && r.confirm)
        .max_by_key(|r| r.due_at);
    let Some(r) = latest else {
        return Ok(None);
    };
    if !super::confirm(app, &user.id, &r.id, "said").await? {
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
