//! What the person is told back, in words they can check: "Gut, ich erinnere Sie morgen, Samstag, um 8 Uhr an
//! Ihre Tabletten." The reminder's own words are turned to the person ("meine" → "Ihre", "my" → "your");
//! German says "Sie" unless the person chose "du".

use jiff::Zoned;
use jiff::civil::Weekday;

use super::due::{Due, Problem, Rule};
use crate::text::normalize::{DE_MONTHS, EN_MONTHS};

const DE_WEEKDAYS: [&str; 7] = [
    "Montag",
    "Dienstag",
    "Mittwoch",
    "Donnerstag",
    "Freitag",
    "Samstag",
    "Sonntag",
];
const EN_WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

fn weekday(day: Weekday, de: bool) -> &'static str {
    let i = day.to_monday_zero_offset() as usize;
    if de { DE_WEEKDAYS[i] } else { EN_WEEKDAYS[i] }
}

/// "um 8 Uhr", "um 20:30 Uhr", "at 8 am", "at 8:30 pm".
pub fn clock(at: &Zoned, de: bool) -> String {
    let (h, m) = (at.hour(), at.minute());
    if de {
        return if m == 0 {
            format!("um {h} Uhr")
        } else {
            format!("um {h}:{m:02} Uhr")
        };
    }
    let (h12, half) = match h {
        0 => (12, "am"),
        1..=11 => (h, "am"),
        12 => (12, "pm"),
        _ => (h - 12, "pm"),
    };
    if m == 0 {
        format!("at {h12} {half}")
    } else {
        format!("at {h12}:{m:02} {half}")
    }
}

/// The day of `at` seen from `now`: "heute", "morgen, Samstag,", "am Montag", "am Montag, dem 7. Dezember".
pub fn day(at: &Zoned, now: &Zoned, de: bool) -> String {
    let days = (at.date() - now.date()).get_days();
    let name = weekday(at.weekday(), de);
    match (days, de) {
        (0, true) => "heute".into(),
        (0, false) => "today".into(),
        (1, true) => format!("morgen, {name},"),
        (1, false) => format!("tomorrow, {name},"),
        (2, true) => format!("übermorgen, {name},"),
        (2, false) => format!("the day after tomorrow, {name},"),
        (3..=6, true) => format!("am {name}"),
        (3..=6, false) => format!("on {name}"),
        (_, true) => format!("am {name}, dem {}. {},", at.day(), DE_MONTHS[at.month() as usize - 1]),
        (_, false) => format!("on {name}, {} {},", at.day(), EN_MONTHS[at.month() as usize - 1]),
    }
}

/// "jeden Tag", "werktags", "montags und donnerstags", "every day", "every weekday", "on Mondays and Thursdays".
fn repeats(rule: &Rule, de: bool) -> String {
    if rule.is_daily() {
        return if de { "jeden Tag" } else { "every day" }.into();
    }
    let days = rule.days();
    if days.len() == 5 && !days.contains(&Weekday::Saturday) && !days.contains(&Weekday::Sunday) {
        return if de { "werktags" } else { "every weekday" }.into();
    }
    let names: Vec<String> = days
        .iter()
        .map(|d| {
            if de {
                format!("{}s", weekday(*d, true).to_lowercase())
            } else {
                format!("{}s", weekday(*d, false))
            }
        })
        .collect();
    let listed = match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} {} {last}", rest.join(", "), if de { "und" } else { "and" }),
        None => String::new(),
    };
    if de { listed } else { format!("on {listed}") }
}

/// The reminder's words turned to the person: "meine Tabletten" → "Ihre Tabletten", "my plants" → "your plants".
pub fn turned(text: &str, de: bool, informal: bool) -> String {
    let swap = |word: &str| -> Option<&'static str> {
        Some(match (de, informal, word.to_lowercase().as_str()) {
            (true, false, "mein") => "Ihr",
            (true, false, "meine") => "Ihre",
            (true, false, "meinen") => "Ihren",
            (true, false, "meinem") => "Ihrem",
            (true, false, "meiner") => "Ihrer",
            (true, false, "mich") => "sich",
            (true, true, "mein") => "dein",
            (true, true, "meine") => "deine",
            (true, true, "meinen") => "deinen",
            (true, true, "meinem") => "deinem",
            (true, true, "meiner") => "deiner",
            (true, true, "mich") => "dich",
            (false, _, "my") => "your",
            (false, _, "me") => "you",
            (false, _, "i") => "you",
            (false, _, "mine") => "yours",
            _ => return None,
        })
    };
    text.split(' ')
        .map(|w| swap(w).map_or_else(|| w.to_string(), String::from))
        .collect::<Vec<_>>()
        .join(" ")
}

/// How the reminder's words join the sentence: "an Ihre Tabletten", "daran, die Blumen zu gießen", "to water
/// the plants", "about your appointment".
fn of_text(text: &str, de: bool, informal: bool) -> String {
    let turned = turned(text, de, informal);
    let first = text.split(' ').next().unwrap_or_default().to_lowercase();
    if de {
        if text.contains(" zu ") || text.starts_with("zu ") {
            format!("daran, {turned}")
        } else {
            format!("an {turned}")
        }
    } else if ["my", "the", "a", "an", "your", "his", "her", "our", "their"].contains(&first.as_str()) {
        format!("about {turned}")
    } else {
        format!("to {turned}")
    }
}

/// The answer to a reminder set.
pub fn set(language: &str, informal: bool, text: &str, due: &Due, now: &Zoned) -> String {
    let de = language == "de";
    let you = match (de, informal) {
        (true, false) => "Sie",
        (true, true) => "dich",
        _ => "you",
    };
    let what = of_text(text, de, informal);
    let time = clock(&due.at, de);
    let mut said = match (&due.rule, de) {
        (Some(rule), true) => {
            format!(
                "Gut, ich erinnere {you} {} {time} {what}, zum ersten Mal {}.",
                repeats(rule, true),
                day(&due.at, now, true)
            )
        }
        (Some(rule), false) => {
            format!(
                "OK, I'll remind you {} {time} {what}, first {}.",
                repeats(rule, false),
                day(&due.at, now, false)
            )
        }
        (None, true) => format!("Gut, ich erinnere {you} {} {time} {what}.", day(&due.at, now, true)),
        (None, false) => format!("OK, I'll remind you {} {time} {what}.", day(&due.at, now, false)),
    };
    said = said.replace(",,", ",").replace(", .", ".").replace(",.", ".");
    if let Some(skipped) = due.skipped {
        let (h, m) = (skipped.hour(), skipped.minute());
        said.push(' ');
        said.push_str(&if de {
            format!(
                "{h}:{m:02} Uhr gibt es an dem Tag nicht, die Uhren werden vorgestellt; es wird {}.",
                clock(&due.at, true)
            )
        } else {
            format!(
                "{h}:{m:02} does not exist that day, the clocks go forward; it will be {}.",
                clock(&due.at, false)
            )
        });
    }
    said
}

/// A length in words: "10 Minuten", "1 Stunde und 30 Minuten", "an hour and 30 minutes".
pub fn length(seconds: u32, de: bool) -> String {
    let (h, m, s) = (seconds / 3600, seconds % 3600 / 60, seconds % 60);
    let unit = |n: u32, de_one: &str, de_many: &str, en: &str| {
        if de {
            format!("{n} {}", if n == 1 { de_one } else { de_many })
        } else {
            format!("{n} {en}{}", if n == 1 { "" } else { "s" })
        }
    };
    let parts: Vec<String> = [
        (h, unit(h, "Stunde", "Stunden", "hour")),
        (m, unit(m, "Minute", "Minuten", "minute")),
        (s, unit(s, "Sekunde", "Sekunden", "second")),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(_, p)| p)
    .collect();
    parts.join(if de { " und " } else { " and " })
}

/// The answer to a timer set.
pub fn timer(language: &str, seconds: u32, at: &Zoned) -> String {
    let de = language == "de";
    let until = clock(at, de);
    if de {
        format!(
            "Der Timer läuft: {}, bis {}.",
            length(seconds, true),
            until.trim_start_matches("um ")
        )
    } else {
        format!(
            "Timer set: {}, until {}.",
            length(seconds, false),
            until.trim_start_matches("at ")
        )
    }
}

/// The answer when no reminder could be set.
pub fn problem(language: &str, informal: bool, problem: Problem) -> &'static str {
    match (language == "de", informal, problem) {
        (true, false, Problem::NoTime) => "Wann soll ich Sie erinnern? Sagen Sie zum Beispiel: morgen um 8 Uhr.",
        (true, true, Problem::NoTime) => "Wann soll ich dich erinnern? Sag zum Beispiel: morgen um 8 Uhr.",
        (true, false, Problem::Passed) => "Diese Zeit ist schon vorbei. Wann soll ich Sie erinnern?",
        (true, true, Problem::Passed) => "Diese Zeit ist schon vorbei. Wann soll ich dich erinnern?",
        (false, _, Problem::NoTime) => "When shall I remind you? Say, for example: tomorrow at 8 am.",
        (false, _, Problem::Passed) => "That time has passed. When shall I remind you?",
    }
}

/// The answer when a reminder has no words or a timer no length.
pub fn missing(language: &str, informal: bool, timer: bool) -> &'static str {
    match (language == "de", informal, timer) {
        (true, _, true) => "Wie lange soll der Timer laufen?",
        (true, false, false) => "Woran soll ich Sie erinnern?",
        (true, true, false) => "Woran soll ich dich erinnern?",
        (false, _, true) => "How long shall the timer run?",
        (false, _, false) => "What shall I remind you of?",
    }
}

/// One waiting reminder in a list: "morgen, Samstag, um 8 Uhr an Ihre Tabletten", "jeden Tag um 20 Uhr an …".
pub fn item(language: &str, informal: bool, text: &str, at: &Zoned, rule: Option<&Rule>, now: &Zoned) -> String {
    let de = language == "de";
    let when = match rule {
        Some(rule) => format!("{} {}", repeats(rule, de), clock(at, de)),
        None => format!("{} {}", day(at, now, de).trim_end_matches(','), clock(at, de)),
    };
    format!("{when} {}", of_text(text, de, informal))
}

/// The answer to "which reminders do I have?".
pub fn list(language: &str, informal: bool, items: &[String]) -> String {
    let de = language == "de";
    match (items, de, informal) {
        ([], true, false) => "Sie haben keine Erinnerungen.".into(),
        ([], true, true) => "Du hast keine Erinnerungen.".into(),
        ([], false, _) => "You have no reminders.".into(),
        ([one], true, false) => format!("Sie haben eine Erinnerung: {one}."),
        ([one], true, true) => format!("Du hast eine Erinnerung: {one}."),
        ([one], false, _) => format!("You have one reminder: {one}."),
        (many, true, false) => format!("Sie haben {} Erinnerungen: {}.", many.len(), many.join("; ")),
        (many, true, true) => format!("Du hast {} Erinnerungen: {}.", many.len(), many.join("; ")),
        (many, false, _) => format!("You have {} reminders: {}.", many.len(), many.join("; ")),
    }
}

/// The answer to a cancelled reminder, or to one not found.
pub fn cancelled(language: &str, informal: bool, text: Option<&str>, timer: bool) -> String {
    let de = language == "de";
    match (text, de, timer) {
        (Some(_), true, true) => "Gut, der Timer ist gestoppt.".into(),
        (Some(_), false, true) => "OK, the timer is stopped.".into(),
        (Some(t), true, false) => format!("Gut, die Erinnerung {} ist gelöscht.", of_text(t, true, informal)),
        (Some(t), false, false) => format!("OK, the reminder {} is cancelled.", of_text(t, false, informal)),
        (None, true, _) => "Ich habe keine passende Erinnerung gefunden.".into(),
        (None, false, _) => "I found no reminder like that.".into(),
    }
}

/// The answer when the person has as many reminders waiting as they may.
pub fn full(language: &str, informal: bool, cap: u32) -> String {
    match (language == "de", informal) {
        (true, false) => format!("Sie haben schon {cap} Erinnerungen. Bitte löschen Sie zuerst eine."),
        (true, true) => format!("Du hast schon {cap} Erinnerungen. Bitte lösch zuerst eine."),
        (false, _) => format!("You have {cap} reminders already. Please cancel one first."),
    }
}

/// What is said when a reminder is due: "Erinnerung: Ihre Tabletten.", "Die Zeit ist um: Ihr Timer ist
/// abgelaufen.", "Reminder: water the plants."
pub fn due_now(language: &str, informal: bool, text: &str, timer: bool) -> String {
    let de = language == "de";
    match (de, timer, informal) {
        (true, true, false) => "Die Zeit ist um: Ihr Timer ist abgelaufen.".into(),
        (true, true, true) => "Die Zeit ist um: dein Timer ist abgelaufen.".into(),
        (false, true, _) => "Time is up: your timer has finished.".into(),
        (true, false, _) => format!("Erinnerung: {}.", turned(text, true, informal)),
        (false, false, _) => format!("Reminder: {}.", turned(text, false, informal)),
    }
}

/// The thanks for a reminder confirmed by voice or text: "Danke, erledigt: Ihre Tabletten."
pub fn confirmed(language: &str, informal: bool, text: &str) -> String {
    if language == "de" {
        format!("Danke, erledigt: {}.", turned(text, true, informal))
    } else {
        format!("Thank you, done: {}.", turned(text, false, informal))
    }
}

/// The care notice to the contacts (subject, body), clearly not an alarm.
pub fn care_notice(language: &str, name: &str, text: &str, at: &Zoned, delivered: i64) -> (String, String) {
    let (h, m) = (at.hour(), at.minute());
    if language == "de" {
        (
            format!("Hinweis (kein Notruf): {name} hat eine Erinnerung nicht bestätigt"),
            format!(
                "Dies ist kein Notruf.\n\n{name} hat die Erinnerung „{text}“ von {h}:{m:02} Uhr nicht bestätigt, \
                 obwohl sie {delivered}-mal kam.\n\nVielleicht ist alles in Ordnung. Bitte melden Sie sich bei {name}.\n"
            ),
        )
    } else {
        let when = clock(at, false);
        (
            format!("Notice (not an alarm): {name} did not confirm a reminder"),
            format!(
                "This is not an emergency alarm.\n\n{name} did not confirm the reminder \"{text}\" {when}, though it \
                 came {delivered} times.\n\nAll may be well. Please check on {name}.\n"
            ),
        )
    }
}

/// The check-in's question, greeting by the time of day: "Guten Morgen! Ist alles in Ordnung?"
pub fn checkin_question(language: &str, informal: bool, now: &Zoned) -> String {
    let part = match now.hour() {
        5..=10 => 0,
        11..=17 => 1,
        _ => 2,
    };
    if language == "de" {
        let greeting = ["Guten Morgen!", "Guten Tag!", "Guten Abend!"][part];
        let question = if informal {
            "Ist bei dir alles in Ordnung?"
        } else {
            "Ist bei Ihnen alles in Ordnung?"
        };
        format!("{greeting} {question}")
    } else {
        let greeting = ["Good morning!", "Hello!", "Good evening!"][part];
        format!("{greeting} Is everything all right?")
    }
}

/// On care's call, after the words: how to answer.
pub fn call_ask(language: &str, informal: bool) -> String {
    match (language == "de", informal) {
        (true, false) => "Sagen Sie ja oder drücken Sie die 1.",
        (true, true) => "Sag ja oder drück die 1.",
        (false, _) => "Say yes or press 1.",
    }
    .into()
}

/// On a call, after the help function's question: how to say yes by key.
pub fn press_1(language: &str, informal: bool) -> String {
    match (language == "de", informal) {
        (true, false) => "Drücken Sie die 1 für ja.",
        (true, true) => "Drück die 1 für ja.",
        (false, _) => "Press 1 for yes.",
    }
    .into()
}

/// On care's call for a reminder that asks no confirmation, after the words.
pub fn goodbye(language: &str) -> String {
    if language == "de" {
        "Auf Wiederhören."
    } else {
        "Goodbye."
    }
    .into()
}

/// The answer to a yes to the check-in.
pub fn checkin_thanks(language: &str, informal: bool) -> String {
    match (language == "de", informal) {
        (true, false) => "Schön, das freut mich. Ich wünsche Ihnen einen guten Tag.",
        (true, true) => "Schön, das freut mich. Ich wünsche dir einen guten Tag.",
        (false, _) => "Good to hear. Have a good day.",
    }
    .into()
}

/// The care notice of a missed check-in (subject, body), clearly not an alarm. `asked`: whether the person
/// was asked at all (a page or a call reached them).
pub fn checkin_notice(language: &str, name: &str, until: &Zoned, asked: bool) -> (String, String) {
    let (h, m) = (until.hour(), until.minute());
    if language == "de" {
        let then = if asked {
            "und auf die Nachfrage nicht geantwortet"
        } else {
            "und war auch auf Nachfrage nicht zu erreichen"
        };
        (
            format!("Hinweis (kein Notruf): {name} hat sich heute nicht gemeldet"),
            format!(
                "Dies ist kein Notruf.\n\n{name} hat sich heute bis {h}:{m:02} Uhr nicht gemeldet {then}.\n\n\
                 Vielleicht ist alles in Ordnung. Bitte melden Sie sich bei {name}.\n"
            ),
        )
    } else {
        let then = if asked {
            "and did not answer when asked"
        } else {
            "and could not be reached either"
        };
        let clock = clock(until, false);
        let when = clock.trim_start_matches("at ");
        (
            format!("Notice (not an alarm): {name} has not checked in today"),
            format!(
                "This is not an emergency alarm.\n\n{name} has not checked in today by {when} {then}.\n\n\
                 All may be well. Please check on {name}.\n"
            ),
        )
    }
}

/// A reminder missed while the gateway was down, told on the person's next contact.
pub fn missed_while_down(language: &str, informal: bool, text: &str, at: &Zoned) -> String {
    let (h, m) = (at.hour(), at.minute());
    match (language == "de", informal) {
        (true, false) => format!(
            "Während der Assistent nicht lief, ist Ihre Erinnerung von {h}:{m:02} Uhr ausgefallen: {}.",
            turned(text, true, false)
        ),
        (true, true) => format!(
            "Während der Assistent nicht lief, ist deine Erinnerung von {h}:{m:02} Uhr ausgefallen: {}.",
            turned(text, true, true)
        ),
        (false, _) => format!(
            "While the assistant was not running, your reminder {} was missed: {}.",
            clock(at, false),
            turned(text, false, false)
        ),
    }
}
