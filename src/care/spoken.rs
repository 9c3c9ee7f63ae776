//! What a person asks of their reminders and timers, read from what they said or typed, deterministically (the
//! offline model cannot call tools): the language's sentences ([`crate::hearing`]) say which request it is,
//! this reads its slots: "Erinnere mich morgen um acht an meine Tabletten",
//! "Stell einen Timer auf zehn Minuten", "Remind me every weekday at half past eight to water the plants",
//! "Welche Erinnerungen habe ich?", "Lösch die Erinnerung für die Tabletten".
//!
//! The words are read into the pieces of a time ([`When`]: a day, a clock time, a part of the day, a span from
//! now, a repetition); what is left is what to be reminded of. When the time falls is worked out in
//! [`super::due`], with the person's time zone and "now".

use crate::hearing::grammar::Filled;
use crate::hearing::times::Reader;
pub use crate::hearing::times::{Clock, Day, Part, Repeat, When};
use crate::hearing::{self, Intent};

/// What was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    /// A reminder of `text` at `when`.
    Set { text: String, when: When },
    /// A timer of `seconds` (none when no length was heard).
    Timer { seconds: Option<u32> },
    /// Which reminders there are.
    List,
    /// Cancel the reminder (or timer) whose text is like `text` (empty: the next one).
    Cancel { text: String },
}

/// The requests heard.
const REQUESTS: &[Intent] = &[
    Intent::Set,
    Intent::Alarm,
    Intent::Timer,
    Intent::List,
    Intent::Cancel,
    Intent::CancelTimer,
    Intent::CancelAlarm,
];

/// Reads `text` in `language`: a request about reminders or timers when one of the language's sentences
/// ([`crate::hearing`]) is the whole of it; none for anything else.
pub fn read(text: &str, language: &str) -> Option<Asked> {
    let words = hearing::Words::of(text);
    let reader = Reader::new(&words.normal, hearing::own(language).map(|l| &l.lexicon));
    let (intent, filled) = hearing::hear(&words, language, REQUESTS, &reader)?;
    let slot = |name: &str| slot(&filled, name);
    let alarm = || crate::phrasebook::phrase(language, "care-alarm-text");
    Some(match intent {
        Intent::Set | Intent::Alarm => {
            let text = match (intent, slot("text")) {
                (Intent::Alarm, _) => alarm(),
                (_, Some((from, to))) => words.written[from..to].join(" "),
                (_, None) => String::new(),
            };
            Asked::Set {
                text,
                when: reader.when_of(&filled),
            }
        }
        Intent::Timer => Asked::Timer {
            seconds: slot("span").and_then(|(from, to)| reader.span(from, to)),
        },
        Intent::List => Asked::List,
        Intent::CancelTimer => Asked::Cancel { text: "timer".into() },
        Intent::CancelAlarm => Asked::Cancel {
            text: alarm().to_lowercase(),
        },
        _ => Asked::Cancel {
            text: slot("text").map_or_else(String::new, |(from, to)| reader.named(from, to)),
        },
    })
}

/// The answer to a question that asked for a missing part of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completes {
    /// "Morgen um acht": the time of a reminder.
    When(When),
    /// "An meine Tabletten": what to be reminded of.
    What(String),
    /// "Zehn Minuten": a timer's length.
    Length(u32),
}

/// `text` as the answer to the question for `missing` ([`Intent::When`], [`Intent::What`] or
/// [`Intent::Length`]); none when it is not one (it goes on as any utterance does).
pub fn completes(text: &str, language: &str, missing: Intent) -> Option<Completes> {
    let words = hearing::Words::of(text);
    let reader = Reader::new(&words.normal, hearing::own(language).map(|l| &l.lexicon));
    let (_, filled) = hearing::hear(&words, language, &[missing], &reader)?;
    let slot = |name: &str| slot(&filled, name);
    match missing {
        Intent::When => {
            Some(Completes::When(reader.when_of(&filled))).filter(|c| c != &Completes::When(When::default()))
        }
        Intent::What => slot("text").map(|(from, to)| Completes::What(words.written[from..to].join(" "))),
        Intent::Length => slot("span")
            .and_then(|(from, to)| reader.span(from, to))
            .map(Completes::Length),
        _ => None,
    }
}

/// Where slot `name` was filled (`{todo}` fills `{text}`).
fn slot(filled: &Filled, name: &str) -> Option<(usize, usize)> {
    filled
        .iter()
        .find(|(n, _, _)| n == name || (name == "text" && n == "todo"))
        .map(|(_, a, b)| (*a, *b))
}

/// Whether `text` is, as a whole, a person saying that they did what a reminder asked ("Erledigt", "Hab ich",
/// "Done", "I took them", "Oui, merci"): it confirms a reminder told to them.
pub fn confirms(text: &str, language: &str) -> bool {
    let words = hearing::Words::of(text);
    let reader = Reader::new(&words.normal, hearing::own(language).map(|l| &l.lexicon));
    hearing::hear(&words, language, &[Intent::Yes], &reader).is_some()
}

/// The person's answer to the check-in's question ("Ist alles in Ordnung?"): `Some(true)` for fine ("Ja",
/// "Mir geht es gut", "All good"), `Some(false)` for not fine ("Nein", "Nicht gut", or any call for help the
/// help function hears, near misses included), `None` when it is neither.
pub fn fine(text: &str, language: &str) -> Option<bool> {
    let words = hearing::Words::of(text);
    let reader = Reader::new(&words.normal, hearing::own(language).map(|l| &l.lexicon));
    match hearing::hear(&words, language, &[Intent::NotFine, Intent::Fine], &reader) {
        Some((Intent::NotFine, _)) => Some(false),
        _ if crate::emergency::hearing::hear(text, &[], language).asks() => Some(false),
        Some(_) => Some(true),
        None => None,
    }
}
