//! Help by voice: which words are a call for help, and how a person answers the question that follows.
//!
//! A call for help is matched by phrase, never by the word alone (word for word here, through recognition errors
//! in [`super::hearing`]): "Hilfe!", "ich brauche Hilfe" or "I have
//! fallen" are calls; "help me with a recipe" or "kannst du mir helfen" are questions for the model. Two kinds
//! of phrase per language: those that are a call only as the whole utterance (`ALONE`: "help", "ich brauche
//! Hilfe", with words like "please" or "quick" around them and repeats), and those that are a call wherever
//! they stand (`ANYWHERE`: a fall, an ambulance, no air). The gateway then asks whether to alert the contacts;
//! the lists of yes and no words read the answer. The lists are written out in `docs/decisions.md`.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::hearing;
use crate::phrasebook::Words;

/// Phrases of a language, from its `help.sentences` (`locales/en/help.sentences` explains each list).
pub(super) struct Phrases {
    /// Calls for help when they are the whole utterance (with [`Phrases::filler`] words around them).
    pub(super) alone: Vec<String>,
    /// Calls for help wherever they stand in the utterance.
    pub(super) anywhere: Vec<String>,
    /// Words that may stand around an `alone` phrase: "please", "quick", "now".
    pub(super) filler: Vec<String>,
    /// Short words of the phrases that a recogniser drops or swaps ("ich", "have"): see [`super::hearing`].
    pub(super) short: Vec<String>,
    /// Phrases that use the words of a call harmlessly ("fell asleep"): an utterance with one is a call only
    /// as a whole `alone` phrase.
    pub(super) harmless: Vec<String>,
    /// Answers that mean yes.
    yes: Vec<String>,
    /// Answers that mean no.
    no: Vec<String>,
    /// What the second hearing gives the recogniser as the text said before the utterance (OpenAI's
    /// `prompt`), so that it leans towards the words of a call for help ([`super::hearing::hear_again`]).
    prompt: String,
}

impl Phrases {
    /// The phrases of `language`'s files; none when it has no calls for help of its own.
    fn of(language: &str) -> Option<Self> {
        let entries = |name: &str| hearing::entries(language, name).unwrap_or_default();
        let list = |name: &str| entries(name).iter().map(|e| e.lower.clone()).collect::<Vec<_>>();
        let prompt: Vec<&str> = entries("call-prompt").iter().map(|e| e.written.as_str()).collect();
        Some(Self {
            alone: Some(list("call-alone")).filter(|l| !l.is_empty())?,
            anywhere: list("call-anywhere"),
            filler: list("call-filler"),
            short: list("call-short"),
            harmless: list("call-harmless"),
            yes: list("answer-yes"),
            no: list("answer-no"),
            prompt: prompt.join(" "),
        })
    }
}

static PHRASES: OnceLock<BTreeMap<String, Phrases>> = OnceLock::new();

/// The phrases of a language; English's for a language without calls for help of its own.
pub(super) fn phrases(language: &str) -> &'static Phrases {
    let all = PHRASES.get_or_init(|| {
        let languages = hearing::languages().into_iter();
        languages
            .filter_map(|l| Some((l.to_string(), Phrases::of(l)?)))
            .collect()
    });
    let base = language.split(['-', '_']).next().unwrap_or(language);
    all.get(language)
        .or_else(|| all.get(base))
        .or_else(|| all.get("en"))
        .expect("English's calls for help are shipped (tested)")
}

/// Lower case, the words only, apostrophes kept ("I've fallen!" → "i've fallen").
pub(super) fn words(text: &str) -> String {
    let cleaned: String = text
        .to_lowercase()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '\'' || c == '’' || c == '-' {
                c
            } else {
                ' '
            }
        })
        .collect();
    cleaned
        .replace('’', "'")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `phrase` stands in `text` as whole words.
pub(super) fn contains_words(text: &str, phrase: &str) -> bool {
    let (text, phrase) = (format!(" {text} "), format!(" {phrase} "));
    text.contains(&phrase)
}

/// What is left of `text` once every occurrence of the listed phrases (longest first) is taken out.
pub(super) fn without(text: &str, phrases: &[&[String]]) -> String {
    let mut all: Vec<&str> = phrases.iter().flat_map(|p| p.iter().map(String::as_str)).collect();
    all.sort_by_key(|p| std::cmp::Reverse(p.len()));
    let mut rest = format!(" {text} ");
    for phrase in all {
        let needle = format!(" {} ", words(phrase));
        while rest.contains(&needle) {
            rest = rest.replace(&needle, " ");
        }
    }
    rest.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `heard` (as [`words`] gives it) is `alone` phrases with fillers around them, word for word.
pub(super) fn alone_call(heard: &str, p: &Phrases) -> bool {
    p.alone.iter().any(|phrase| contains_words(heard, &words(phrase)))
        && without(heard, &[&p.alone, &p.filler]).is_empty()
}

/// Whether `heard` holds a phrase of `p`, word for word.
pub(super) fn exact_call(heard: &str, p: &Phrases) -> bool {
    p.anywhere.iter().any(|phrase| contains_words(heard, &words(phrase))) || alone_call(heard, p)
}

/// A person's answer to the question: `Some(true)` for yes, `Some(false)` for no, `None` when it is neither.
/// A no wins over a yes in the same answer ("yes, no, don't").
pub fn answer(text: &str, language: &str) -> Option<bool> {
    let heard = words(text);
    let p = phrases(language);
    let says = |list: &[String]| list.iter().any(|phrase| contains_words(&heard, &words(phrase)));
    if says(&p.no) {
        Some(false)
    } else if says(&p.yes) || [p, phrases("en")].iter().any(|p| exact_call(&heard, p)) {
        // Calling for help again is a yes.
        Some(true)
    } else {
        None
    }
}

/// The question, in `language` and the person's form of address.
pub fn question(language: &str, informal: bool) -> String {
    Words::new(language, informal).get("help-question")
}

/// What the second hearing gives the recogniser as the text said before the utterance, in `language`.
pub fn prompt(language: &str) -> &'static str {
    &phrases(language).prompt
}

/// The answer to a no, in `language`.
pub fn declined(language: &str) -> String {
    Words::formal(language).get("help-declined")
}

/// The question again, after an answer that is neither yes nor no.
pub fn again(language: &str, informal: bool) -> String {
    Words::new(language, informal).get("help-again")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_as_yes_no_or_neither() {
        assert_eq!(answer("Ja, bitte!", "de"), Some(true));
        assert_eq!(answer("Nein, alles gut.", "de"), Some(false));
        assert_eq!(answer("Yes please", "en"), Some(true));
        assert_eq!(answer("No, false alarm", "en"), Some(false));
        assert_eq!(answer("Hilfe!", "de"), Some(true));
        assert_eq!(answer("Wie spät ist es?", "de"), None);
        assert_eq!(answer("Oui", "fr"), Some(true));
        assert_eq!(answer("Nie", "pl"), Some(false));
    }

    #[test]
    fn every_language_asks_declines_and_asks_again() {
        for language in crate::config::languages() {
            assert!(
                !question(language, false).is_empty() && !declined(language).is_empty(),
                "{language}"
            );
            for informal in [false, true] {
                assert!(
                    again(language, informal).ends_with(&question(language, informal)),
                    "{language}"
                );
            }
        }
    }
}
