//! The details of the care log and of a reminder's deliveries as data: a kind (a stable code) with its values,
//! stored as the English record the `detail` field has always carried ("no page or voice connection open",
//! "1 connection(s)"), so that clients reading `detail` and the rows stored before keep working. The admin panel
//! says each kind in the reader's language from the phrasebook (`admin-note-<code>`, with the values as
//! arguments); [`Note::read`] finds a stored record's kind and values again, and a record of no kind (a server's
//! error, a recipient, a row from before a kind existed) stays text of its own, shown as it is.

use serde_json::{Map, Value};

/// One kind of detail: its code and its English record, `{name}` marking each value. A value named `count`
/// or `minutes` is a whole number, `clock` a time of day (`HH:MM`, the person's zone), `date` a
/// `YYYY-MM-DD`; any other is text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kind {
    /// The stable code: the phrasebook's `admin-note-<code>`, and the API's `detail_code`.
    pub code: &'static str,
    english: &'static str,
}

const fn kind(code: &'static str, english: &'static str) -> Kind {
    Kind { code, english }
}

/// Quiet hours held a call back.
pub const QUIET_HOURS: Kind = kind("quiet-hours", "quiet hours");
/// No channel of the person's was left to try.
pub const NO_CHANNEL: Kind = kind("no-channel", "no channel: no page open and no internal number");
/// The page: none open.
pub const NO_PAGE_OPEN: Kind = kind("no-page-open", "no page or voice connection open");
/// The page: taken by `count` connections.
pub const CONNECTIONS: Kind = kind("connections", "{count} connection(s)");
/// The page: taken by `count` connections, none of which said it showed it within `seconds`.
pub const NOT_SHOWN: Kind = kind(
    "not-shown",
    "{count} connection(s) took it, none showed it within {seconds} s",
);
/// The house line: no number to call.
pub const NO_LANDLINE: Kind = kind("no-landline", "no phone_landline");
/// The house line: the person picked up at `number`.
pub const ANSWERED_AT: Kind = kind("answered-at", "answered at {number}");
/// The house line: the call was not set up in time.
pub const CALL_SLOW: Kind = kind("call-slow", "the call took too long to set up");
/// Home Assistant: no satellite named.
pub const NO_SATELLITE: Kind = kind("no-satellite", "no ha_satellite");
/// Home Assistant: announced on `entity`.
pub const ANNOUNCED: Kind = kind("announced", "announced on {entity}");
/// The mobile: no number.
pub const NO_MOBILE: Kind = kind("no-mobile", "no phone_mobile");
/// The mobile: Twilio took the call to `number`.
pub const CALLED_MOBILE: Kind = kind("called-mobile", "called {number} through Twilio");
/// The mobile: Twilio did not answer.
pub const TWILIO_SLOW: Kind = kind("twilio-slow", "Twilio did not answer in time");
/// The check-in: a sign of life at `clock`.
pub const SIGN_OF_LIFE: Kind = kind("sign-of-life", "a sign of life at {clock}");
/// The check-in: the person is away through `date`.
pub const AWAY_UNTIL: Kind = kind("away-until", "away until {date}");
/// The check-in: the gateway was down when the window ended at `clock`.
pub const DOWN_AT_WINDOW_END: Kind = kind("down-at-window-end", "the gateway was not running at {clock}");
/// The check-in: asked `count` times without an answer.
pub const NO_ANSWER: Kind = kind("no-answer", "no answer {count} times");
/// A reminder: not confirmed after `count` deliveries.
pub const NOT_CONFIRMED: Kind = kind("not-confirmed", "not confirmed after {count} deliveries");
/// A reminder: `minutes` late, the gateway was down.
pub const LATE_WHILE_DOWN: Kind = kind("late-while-down", "{minutes} minutes late: the gateway was not running");
/// A care notice: the person has no e-mail contact.
pub const NO_MAIL_CONTACT: Kind = kind("no-mail-contact", "the person has no e-mail contact");
/// Done on the person's behalf by a carer, named by display name.
pub const BY_CARER: Kind = kind("by-carer", "by the carer {carer}");
/// Done on the person's behalf by an administrator, named by display name.
pub const BY_ADMIN: Kind = kind("by-admin", "by the administrator {admin}");

/// Every kind, in the order a stored record is tried against them.
pub const KINDS: &[Kind] = &[
    QUIET_HOURS,
    NO_CHANNEL,
    NO_PAGE_OPEN,
    NOT_SHOWN,
    CONNECTIONS,
    NO_LANDLINE,
    ANSWERED_AT,
    CALL_SLOW,
    NO_SATELLITE,
    ANNOUNCED,
    NO_MOBILE,
    CALLED_MOBILE,
    TWILIO_SLOW,
    SIGN_OF_LIFE,
    AWAY_UNTIL,
    DOWN_AT_WINDOW_END,
    NO_ANSWER,
    NOT_CONFIRMED,
    LATE_WHILE_DOWN,
    NO_MAIL_CONTACT,
    BY_CARER,
    BY_ADMIN,
];

/// A detail: a kind with its values and its English record, or a text of its own.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    kind: Option<Kind>,
    values: Vec<(&'static str, Value)>,
    text: String,
}

impl Kind {
    /// The note of this kind with `values` (each `{name}` of the record).
    pub fn with(self, values: &[(&'static str, Value)]) -> Note {
        let mut text = self.english.to_string();
        for (name, value) in values {
            let shown = value.as_str().map_or_else(|| value.to_string(), str::to_string);
            text = text.replace(&format!("{{{name}}}"), &shown);
        }
        Note {
            kind: Some(self),
            values: values.to_vec(),
            text,
        }
    }

    /// The values of `stored` when it is this kind's record.
    fn values_of(self, stored: &str) -> Option<Vec<(&'static str, Value)>> {
        let mut parts = self.english.split('{');
        let mut rest = stored.strip_prefix(parts.next()?)?;
        let mut values = Vec::new();
        for part in parts {
            let (name, literal) = part.split_once('}')?;
            // A value runs to the literal after it (the first one: the values hold no such words), or to the end.
            let end = if literal.is_empty() {
                rest.len()
            } else {
                rest.find(literal)?
            };
            values.push((name, typed(name, &rest[..end])?));
            rest = &rest[end + literal.len()..];
        }
        rest.is_empty().then_some(values)
    }
}

/// `text` as the value named `name`, when it has that value's shape.
fn typed(name: &str, text: &str) -> Option<Value> {
    match name {
        "count" | "minutes" => text.parse::<i64>().ok().map(Value::from),
        "clock" => is_clock(text).then(|| Value::from(text)),
        "date" => text.parse::<jiff::civil::Date>().ok().map(|_| Value::from(text)),
        _ => (!text.is_empty()).then(|| Value::from(text)),
    }
}

/// Whether `text` is a time of day as `HH:MM`.
fn is_clock(text: &str) -> bool {
    let Some((hour, minute)) = text.split_once(':') else {
        return false;
    };
    let number = |part: &str, below: u8| part.len() == 2 && part.parse::<u8>().is_ok_and(|n| n < below);
    number(hour, 24) && number(minute, 60)
}

impl Note {
    /// A text of its own (an error a server gave, a recipient): shown as it is.
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            kind: None,
            values: Vec::new(),
            text: text.into(),
        }
    }

    /// The note a stored record is: the first kind whose record it is, else text of its own.
    pub fn read(stored: &str) -> Self {
        KINDS
            .iter()
            .find_map(|kind| {
                kind.values_of(stored).map(|values| Self {
                    kind: Some(*kind),
                    values,
                    text: stored.to_string(),
                })
            })
            .unwrap_or_else(|| Self::text(stored))
    }

    /// The English record, as stored and as the API's `detail`.
    pub fn english(&self) -> &str {
        &self.text
    }

    /// The kind's code; none for a text of its own.
    pub fn code(&self) -> Option<&'static str> {
        self.kind.map(|k| k.code)
    }

    /// The values by name (empty for a text of its own).
    pub fn args(&self) -> Map<String, Value> {
        self.values.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
    }
}

impl From<Kind> for Note {
    fn from(kind: Kind) -> Self {
        kind.with(&[])
    }
}

impl From<String> for Note {
    fn from(text: String) -> Self {
        Self::text(text)
    }
}

impl From<&str> for Note {
    fn from(text: &str) -> Self {
        Self::text(text)
    }
}

#[cfg(test)]
mod tests {
    use fluent_bundle::FluentValue;
    use serde_json::json;

    use super::*;
    use crate::phrasebook::{Words, own};

    /// Each kind with values of the shapes it takes.
    fn samples() -> Vec<Note> {
        KINDS
            .iter()
            .map(|kind| {
                let values: Vec<(&'static str, Value)> = kind
                    .english
                    .split('{')
                    .skip(1)
                    .filter_map(|part| part.split_once('}'))
                    .map(|(name, _)| {
                        let value = match name {
                            "count" | "minutes" => json!(3),
                            "clock" => json!("09:05"),
                            "date" => json!("2026-03-01"),
                            _ => json!("+4930 1234"),
                        };
                        (name, value)
                    })
                    .collect();
                kind.with(&values)
            })
            .collect()
    }

    #[test]
    fn every_kind_is_read_back_from_its_record_with_its_values() {
        for note in samples() {
            assert_eq!(Note::read(note.english()), note, "{}", note.english());
        }
        assert_eq!(CONNECTIONS.with(&[("count", json!(1))]).english(), "1 connection(s)");
        let read = Note::read("1 connection(s)");
        assert_eq!(
            (read.code(), read.args()),
            (Some("connections"), json!({"count": 1}).as_object().cloned().unwrap())
        );
    }

    #[test]
    fn a_record_of_no_kind_stays_text_of_its_own() {
        for stored in [
            "tochter@family.example",
            "SMTP relay refused: 554",
            // A row from before: the clock said in English words is no `HH:MM`.
            "a sign of life at at 9:12 am",
            "no answer many times",
            "",
        ] {
            let note = Note::read(stored);
            assert_eq!((note.code(), note.english()), (None, stored));
            assert!(note.args().is_empty());
        }
    }

    #[test]
    fn every_kind_is_in_the_panels_phrasebook_in_english_and_german_with_its_values() {
        for note in samples() {
            let id = format!("admin-note-{}", note.code().unwrap());
            let args: Vec<(String, FluentValue)> = note
                .args()
                .into_iter()
                .map(|(k, v)| {
                    let value = match v.as_i64() {
                        Some(n) => FluentValue::from(n),
                        None => FluentValue::from(v.as_str().unwrap().to_string()),
                    };
                    (k, value)
                })
                .collect();
            let args: Vec<(&str, FluentValue)> = args.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
            for lang in ["en", "de"] {
                assert!(own(lang, &id).is_some(), "{lang} lacks {id}");
                let said = Words::formal(lang).with(&id, &args);
                assert!(said != id && !said.contains('{'), "{lang} {id}: {said}");
                for (_, v) in note.args() {
                    let shown = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                    assert!(said.contains(&shown), "{lang} {id} leaves out {shown}: {said}");
                }
            }
            assert_ne!(
                Words::formal("de").with(&id, &args),
                Words::formal("en").with(&id, &args),
                "{id} is German in German"
            );
        }
    }
}
