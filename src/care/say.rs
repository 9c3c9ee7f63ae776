//! What the person is told back, in words they can check: "Gut, ich erinnere Sie morgen, Samstag, um 8 Uhr an
//! Ihre Tabletten." The sentences are the phrasebook's (`locales/<lang>/care.ftl`); the reminder's own words
//! are turned to the person here ("meine" → "Ihre", "my" → "your"), as the grammar that reads them
//! (`spoken.rs`) is German and English.

use fluent_bundle::FluentValue;
use jiff::Zoned;
use jiff::civil::{DateTime, Weekday};

use super::due::{Due, Problem, Rule};
use crate::phrasebook::Words;

type Args = Vec<(&'static str, FluentValue<'static>)>;

/// The parts of a time of day every message with one is offered.
fn time_args(at: DateTime) -> Args {
    let (h, m) = (at.hour(), at.minute());
    let (hour12, half) = match h {
        0 => (12, "am"),
        1..=11 => (h, "am"),
        12 => (12, "pm"),
        _ => (h - 12, "pm"),
    };
    vec![
        ("hour", h.into()),
        ("hour12", hour12.into()),
        ("half", half.into()),
        ("minute", m.into()),
        ("mm", format!("{m:02}").into()),
    ]
}

/// Message `id` with the parts of `at` and `args`.
fn at_time(words: Words, id: &str, at: DateTime, args: Args) -> String {
    let mut all = time_args(at);
    all.extend(args);
    words.with(id, &all)
}

/// "8 Uhr", "20:30 Uhr", "8 am", "8:30 pm".
pub fn time(at: &Zoned, words: Words) -> String {
    at_time(words, "care-time", at.datetime(), vec![])
}

/// "um 8 Uhr", "um 20:30 Uhr", "at 8 am", "at 8:30 pm".
pub fn clock(at: &Zoned, words: Words) -> String {
    at_time(words, "care-at", at.datetime(), vec![])
}

fn day_number(day: Weekday) -> i8 {
    day.to_monday_one_offset()
}

/// The day of `at` seen from `now`: "heute", "morgen, Samstag,", "am Montag", "am Montag, dem 7. Dezember,".
pub fn day(at: &Zoned, now: &Zoned, words: Words) -> String {
    let when = match (at.date() - now.date()).get_days() {
        ..=0 => "today",
        1 => "tomorrow",
        2 => "after-tomorrow",
        3..=6 => "this-week",
        _ => "later",
    };
    let weekday = words.with("care-weekday", &[("day", day_number(at.weekday()).into())]);
    let month = words.with("care-month", &[("month", at.month().into())]);
    words.with(
        "care-day",
        &[
            ("when", when.into()),
            ("weekday", weekday.into()),
            ("date", at.day().into()),
            ("month", month.into()),
        ],
    )
}

/// "a, b und c", "a, b and c".
fn listed(items: &[String], words: Words) -> String {
    match items.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => words.with(
            "care-and",
            &[("first", rest.join(", ").into()), ("last", last.clone().into())],
        ),
        None => String::new(),
    }
}

/// "jeden Tag", "werktags", "montags und donnerstags", "every day", "every weekday", "on Mondays and Thursdays".
fn repeats(rule: &Rule, words: Words) -> String {
    if rule.is_daily() {
        return words.get("care-every-day");
    }
    let days = rule.days();
    if days.len() == 5 && !days.contains(&Weekday::Saturday) && !days.contains(&Weekday::Sunday) {
        return words.get("care-every-weekday");
    }
    let names: Vec<String> = days
        .iter()
        .map(|d| words.with("care-weekdays", &[("day", day_number(*d).into())]))
        .collect();
    words.with("care-on-days", &[("days", listed(&names, words).into())])
}

/// The reminder's words turned to the person: "meine Tabletten" → "Ihre Tabletten", "my plants" → "your plants"
/// (German and English, the languages whose reminders the gateway reads; others are said as they are).
pub fn turned(text: &str, language: &str, informal: bool) -> String {
    let swap = |word: &str| -> Option<&'static str> {
        Some(match (language, informal, word.to_lowercase().as_str()) {
            ("de", false, "mein") => "Ihr",
            ("de", false, "meine") => "Ihre",
            ("de", false, "meinen") => "Ihren",
            ("de", false, "meinem") => "Ihrem",
            ("de", false, "meiner") => "Ihrer",
            ("de", false, "mich") => "sich",
            ("de", true, "mein") => "dein",
            ("de", true, "meine") => "deine",
            ("de", true, "meinen") => "deinen",
            ("de", true, "meinem") => "deinem",
            ("de", true, "meiner") => "deiner",
            ("de", true, "mich") => "dich",
            ("en", _, "my") => "your",
            ("en", _, "me") => "you",
            ("en", _, "i") => "you",
            ("en", _, "mine") => "yours",
            _ => return None,
        })
    };
    text.split(' ')
        .map(|w| swap(w).map_or_else(|| w.to_string(), String::from))
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the reminder's words are, for how they join a sentence (`care-of`): an infinitive ("die Blumen zu
/// gießen": "daran, …"), a thing ("my appointment": "about …", "meine Tabletten": "an …"), an action ("water
/// the plants": "to …"), or other (a language whose reminders the gateway does not read).
fn kind(text: &str, language: &str) -> &'static str {
    let first = text.split(' ').next().unwrap_or_default().to_lowercase();
    match language {
        "de" if text.contains(" zu ") || text.starts_with("zu ") => "infinitive",
        "de" => "thing",
        "en" if ["my", "the", "a", "an", "your", "his", "her", "our", "their"].contains(&first.as_str()) => "thing",
        "en" => "action",
        _ => "other",
    }
}

/// How the reminder's words join the sentence: "an Ihre Tabletten", "daran, die Blumen zu gießen", "to water
/// the plants", "about your appointment".
fn of_text(text: &str, words: Words) -> String {
    let turned = turned(text, words.lang, words.informal());
    words.with(
        "care-of",
        &[("kind", kind(text, words.lang).into()), ("text", turned.into())],
    )
}

/// Drops the comma that closes an apposition ("morgen, Samstag,") where the sentence ends or another follows.
fn tidy(said: String) -> String {
    said.replace(",,", ",").replace(", .", ".").replace(",.", ".")
}

/// The answer to a reminder set.
pub fn set(language: &str, informal: bool, text: &str, due: &Due, now: &Zoned) -> String {
    let words = Words::new(language, informal);
    let at = clock(&due.at, words);
    let mut args: Args = vec![
        ("day", day(&due.at, now, words).into()),
        ("at", at.clone().into()),
        ("what", of_text(text, words).into()),
    ];
    let mut said = match &due.rule {
        Some(rule) => {
            args.push(("repeats", repeats(rule, words).into()));
            tidy(words.with("care-set-repeating", &args))
        }
        None => tidy(words.with("care-set-once", &args)),
    };
    if let Some(skipped) = due.skipped {
        said.push(' ');
        said.push_str(&at_time(words, "care-skipped", skipped, vec![("at", at.into())]));
    }
    said
}

/// A length in words: "10 Minuten", "1 Stunde und 30 Minuten", "1 hour and 30 minutes".
pub fn length(seconds: u32, words: Words) -> String {
    let parts: Vec<String> = [
        (seconds / 3600, "care-hours"),
        (seconds % 3600 / 60, "care-minutes"),
        (seconds % 60, "care-seconds"),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, id)| words.with(id, &[("count", n.into())]))
    .collect();
    listed(&parts, words)
}

/// The answer to a timer set.
pub fn timer(language: &str, seconds: u32, at: &Zoned) -> String {
    let words = Words::formal(language);
    let args = vec![
        ("length", length(seconds, words).into()),
        ("time", time(at, words).into()),
    ];
    at_time(words, "care-timer", at.datetime(), args)
}

/// The answer when no reminder could be set.
pub fn problem(language: &str, informal: bool, problem: Problem) -> String {
    Words::new(language, informal).get(match problem {
        Problem::NoTime => "care-no-time",
        Problem::NoClock => "care-no-clock",
        Problem::Passed => "care-passed",
    })
}

/// The answer when a reminder has no words or a timer no length.
pub fn missing(language: &str, informal: bool, timer: bool) -> String {
    Words::new(language, informal).get(if timer {
        "care-timer-how-long"
    } else {
        "care-remind-of-what"
    })
}

/// One waiting reminder in a list: "morgen, Samstag, um 8 Uhr an Ihre Tabletten", "jeden Tag um 20 Uhr an …".
pub fn item(language: &str, informal: bool, text: &str, at: &Zoned, rule: Option<&Rule>, now: &Zoned) -> String {
    let words = Words::new(language, informal);
    let when = match rule {
        Some(rule) => repeats(rule, words),
        None => day(at, now, words).trim_end_matches(',').to_string(),
    };
    let args = vec![
        ("when", when.into()),
        ("at", clock(at, words).into()),
        ("what", of_text(text, words).into()),
    ];
    at_time(words, "care-item", at.datetime(), args)
}

/// The answer to "which reminders do I have?".
pub fn list(language: &str, informal: bool, items: &[String]) -> String {
    Words::new(language, informal).with(
        "care-list",
        &[("count", items.len().into()), ("items", items.join("; ").into())],
    )
}

/// The answer to a cancelled reminder, or to one not found.
pub fn cancelled(language: &str, informal: bool, text: Option<&str>, timer: bool) -> String {
    let words = Words::new(language, informal);
    match (text, timer) {
        (Some(_), true) => words.get("care-timer-stopped"),
        (Some(t), false) => words.with("care-cancelled", &[("what", of_text(t, words).into())]),
        (None, _) => words.get("care-not-found"),
    }
}

/// The answer when the person has as many reminders waiting as they may.
pub fn full(language: &str, informal: bool, cap: u32) -> String {
    Words::new(language, informal).with("care-full", &[("count", cap.into())])
}

/// What is said when a reminder is due: "Erinnerung: Ihre Tabletten.", "Die Zeit ist um: Ihr Timer ist
/// abgelaufen.", "Reminder: water the plants."
pub fn due_now(language: &str, informal: bool, text: &str, timer: bool) -> String {
    let words = Words::new(language, informal);
    if timer {
        return words.get("care-timer-done");
    }
    words.with("care-due", &[("text", turned(text, language, informal).into())])
}

/// The thanks for a reminder confirmed by voice or text: "Danke, erledigt: Ihre Tabletten."
pub fn confirmed(language: &str, informal: bool, text: &str) -> String {
    Words::new(language, informal).with("care-done", &[("text", turned(text, language, informal).into())])
}

/// A notice's body: not an alarm, what happened, and the request to check on the person.
fn notice_body(words: Words, name: &str, what: String) -> String {
    let not_alarm = words.get("care-notice-not-alarm");
    let check = words.with("care-notice-check", &[("name", name.to_string().into())]);
    format!("{not_alarm}\n\n{what}\n\n{check}\n")
}

/// The care notice to the contacts (subject, body), clearly not an alarm.
pub fn care_notice(language: &str, name: &str, text: &str, at: &Zoned, delivered: i64) -> (String, String) {
    let words = Words::formal(language);
    let named = || ("name", FluentValue::from(name.to_string()));
    let args = vec![
        named(),
        ("text", text.to_string().into()),
        ("at", clock(at, words).into()),
        ("count", delivered.into()),
    ];
    let what = at_time(words, "care-notice-missed", at.datetime(), args);
    (
        words.with("care-notice-subject", &[named()]),
        notice_body(words, name, what),
    )
}

/// The check-in's question, greeting by the time of day: "Guten Morgen! Ist alles in Ordnung?"
pub fn checkin_question(language: &str, informal: bool, now: &Zoned) -> String {
    let part = match now.hour() {
        5..=10 => "morning",
        11..=17 => "day",
        _ => "evening",
    };
    Words::new(language, informal).with("care-checkin-question", &[("part", part.into())])
}

/// On care's call, after the words: how to answer.
pub fn call_ask(language: &str, informal: bool) -> String {
    Words::new(language, informal).get("care-call-ask")
}

/// On a call, after the help function's question: how to say yes by key.
pub fn press_1(language: &str, informal: bool) -> String {
    Words::new(language, informal).get("care-press-1")
}

/// On care's call for a reminder that asks no confirmation, after the words.
pub fn goodbye(language: &str) -> String {
    Words::formal(language).get("phone-goodbye")
}

/// The answer to a yes to the check-in.
pub fn checkin_thanks(language: &str, informal: bool) -> String {
    Words::new(language, informal).get("care-checkin-thanks")
}

/// The care notice of a missed check-in (subject, body), clearly not an alarm. `asked`: whether the person
/// was asked at all (a page or a call reached them).
pub fn checkin_notice(language: &str, name: &str, until: &Zoned, asked: bool) -> (String, String) {
    let words = Words::formal(language);
    let named = || ("name", FluentValue::from(name.to_string()));
    let args = vec![
        named(),
        ("time", time(until, words).into()),
        ("asked", if asked { "yes" } else { "no" }.into()),
    ];
    let what = at_time(words, "care-checkin-missed", until.datetime(), args);
    (
        words.with("care-checkin-subject", &[named()]),
        notice_body(words, name, what),
    )
}

/// A reminder missed while the gateway was down, told on the person's next contact.
pub fn missed_while_down(language: &str, informal: bool, text: &str, at: &Zoned) -> String {
    let words = Words::new(language, informal);
    let args = vec![
        ("text", turned(text, language, informal).into()),
        ("at", clock(at, words).into()),
    ];
    at_time(words, "care-missed-while-down", at.datetime(), args)
}
