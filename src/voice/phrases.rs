//! Short localized phrases of the voice channels, and the notices each connection has told.

use std::collections::HashSet;

/// The notices a connection (a call, a Realtime session) has told: each is told once, not before every
/// answer.
#[derive(Debug, Default)]
pub struct Told(HashSet<String>);

impl Told {
    /// Whether `notice` is new here (it is remembered as told).
    pub fn first(&mut self, notice: &str) -> bool {
        self.0.insert(notice.to_string())
    }
}

/// Farewells that end a call, and words that may come with them ("okay, thanks, bye"), from the language's
/// `phone.sentences` (`{farewell}`, `{farewell-filler}`); English's for a language without farewells.
fn farewells(language: &str) -> (Vec<String>, Vec<String>) {
    let own = |list: &str, lang: &str| {
        let phrases = crate::hearing::phrases(lang, list).unwrap_or_default();
        phrases.into_iter().map(|p| p.to_lowercase()).collect::<Vec<_>>()
    };
    let lang = if own("farewell", language).is_empty() {
        "en"
    } else {
        language
    };
    (own("farewell", lang), own("farewell-filler", lang))
}

/// Whether an utterance says goodbye (on the phone it ends the call): a farewell, with at most words of thanks and agreement beside it (a
/// question about a goodbye is not one).
pub fn is_farewell(text: &str, language: &str) -> bool {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .collect();
    let (farewells, fillers) = farewells(language);
    let mut rest = words.as_slice();
    let mut said = false;
    'words: while let Some(first) = rest.first() {
        for farewell in &farewells {
            let parts: Vec<&str> = farewell.split(' ').collect();
            if rest.len() >= parts.len() && rest[..parts.len()] == parts[..] {
                rest = &rest[parts.len()..];
                said = true;
                continue 'words;
            }
        }
        if !fillers.iter().any(|f| f == first) {
            return false;
        }
        rest = &rest[1..];
    }
    said
}
