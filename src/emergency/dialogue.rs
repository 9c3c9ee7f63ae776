//! The help dialogue, the same for every channel: a call for help (heard in speech or read in typed text, by
//! the tolerant matcher of [`super::hearing`]) is answered with the question whether to alert the contacts;
//! the answer to the question (a yes, a no, a key) decides. Each channel only hands it the person's words or
//! keys and says its reply: voice channels in [`crate::voice::help`], text turns in [`super::typed`].

use super::checks::{self, Reach};
use super::hearing::{self, Heard};
use super::reach::Reachable;
use super::spoken;
use crate::app::App;
use crate::phrasebook::Words;
use crate::prefs::Prefs;

/// Where a conversation stands with a call for help.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Help {
    /// The channel does not take calls for help (every utterance goes to the model).
    Off,
    /// A call for help is listened for.
    Listening,
    /// The question was asked; the words are the answer.
    Asked,
}

/// What the help dialogue says to the person's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// A call for help (or an unclear answer to the question): ask whether to alert the contacts.
    Ask(String),
    /// A yes: raise the alarm.
    Alarm,
    /// A no: nobody is alerted; the words say so.
    Declined(String),
    /// A call for help while nobody at all can be reached (no contact of theirs, no carer, no
    /// `EMERGENCY_CONTACT_EMAIL` on a channel that is set up): the words say so and to call 112. Nothing is sent
    /// or recorded, and no cooldown window opens: a call for help nobody confirmed is no press.
    Nobody(String),
}

/// What the dialogue knows of the person: their language, form of address and how far their help reaches
/// (everybody an alarm would reach counts: [`super::reach`]).
#[derive(Debug, Clone)]
pub struct Person<'a> {
    pub language: &'a str,
    pub informal: bool,
    pub reach: Reach,
    /// While their help reaches nobody: why, and the 112 advice.
    pub nobody: String,
}

impl<'a> Person<'a> {
    /// The person `user_id` with `prefs`, spoken to in `language`.
    pub async fn of(app: &App, user_id: &str, prefs: &Prefs, language: &'a str) -> Self {
        let r = Reachable::of(app, user_id, prefs).await;
        let reach = checks::reach(app, &r);
        let nobody = match reach {
            Reach::Nobody => super::nobody_message(app, &r, Words::new(language, prefs.informal())),
            _ => String::new(),
        };
        Self {
            language,
            informal: prefs.informal(),
            reach,
            nobody,
        }
    }
}

/// The key that answers yes to the question on a telephone (and typed alone, in text).
pub const YES_KEY: char = '1';
/// The key that answers no.
pub const NO_KEY: char = '2';

/// The answer in `text`: a yes, a no, or neither. The question's keys count too, typed alone ("1", "2").
pub fn answer(text: &str, language: &str) -> Option<bool> {
    let trimmed = text.trim().trim_end_matches(['.', '!']);
    if trimmed.len() == 1 {
        match trimmed.chars().next() {
            Some(YES_KEY) => return Some(true),
            Some(NO_KEY) => return Some(false),
            _ => {}
        }
    }
    spoken::answer(text, language)
}

/// Whether `text` is for the help dialogue at all (the answer to its question, or a call for help): only then
/// does a caller ask the store whom help reaches ([`Person::of`]), not for every turn.
pub fn concerns_help(text: &str, words: &[(String, f32)], language: &str, help: Help) -> bool {
    match help {
        Help::Asked => true,
        Help::Listening => hearing::hear(text, words, language).asks(),
        Help::Off => false,
    }
}

/// The help dialogue's reply to `text` (with the recogniser's `words` and their probabilities, where it gave
/// them; none for typed text), where the conversation stands at `help`; none when the text is a question for
/// the model.
pub fn reply(text: &str, words: &[(String, f32)], person: Person<'_>, help: Help) -> Option<Reply> {
    let (language, informal) = (person.language, person.informal);
    match help {
        Help::Asked => Some(match answer(text, language) {
            Some(true) => Reply::Alarm,
            Some(false) => Reply::Declined(spoken::declined(language)),
            None => Reply::Ask(spoken::again(language, informal)),
        }),
        Help::Listening => {
            let heard = hearing::hear(text, words, language);
            if !heard.asks() {
                return None;
            }
            if heard == Heard::Near {
                tracing::info!(text, "a call for help heard through recognition or typing errors");
            }
            Some(ask(person))
        }
        Help::Off => None,
    }
}

/// The reply to a call for help: the question, or what the person must know first.
pub fn ask(person: Person<'_>) -> Reply {
    let Person {
        language,
        informal,
        reach,
        nobody,
    } = person;
    let question = spoken::question(language, informal);
    match reach {
        Reach::Nobody => Reply::Nobody(nobody),
        // The alarm may still get through; the person hears that it may not.
        Reach::Failing => Reply::Ask(format!(
            "{} {question}",
            Words::new(language, informal).get("help-path-none")
        )),
        Reach::Somebody => Reply::Ask(question),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keys_answer_typed_alone_and_words_as_spoken() {
        assert_eq!(answer("1", "de"), Some(true));
        assert_eq!(answer(" 2. ", "fr"), Some(false));
        assert_eq!(answer("12", "de"), None);
        assert_eq!(answer("Ja", "de"), Some(true));
        assert_eq!(answer("nein danke", "de"), Some(false));
    }
}
