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

/// Farewells that end a call, and words that may come with them ("okay, thanks, bye").
fn farewells(language: &str) -> (&'static [&'static str], &'static [&'static str]) {
    match language {
        "de" => (
            &[
                "tschüss",
                "tschüs",
                "auf wiederhören",
                "auf wiedersehen",
                "ciao",
                "bis dann",
                "bis bald",
                "servus",
            ],
            &[
                "okay", "ok", "gut", "danke", "vielen", "dank", "also", "dann", "na", "ja", "schön", "dir", "ihnen",
            ],
        ),
        "fr" => (
            &["au revoir", "salut", "à bientôt", "bonne journée", "bonne soirée"],
            &["ok", "d'accord", "merci", "bien", "alors", "beaucoup", "bon", "oui"],
        ),
        "es" => (
            &["adiós", "hasta luego", "hasta pronto", "chao"],
            &["vale", "ok", "gracias", "muchas", "bueno", "pues", "sí"],
        ),
        "it" => (
            &["arrivederci", "ciao", "a presto", "buona giornata"],
            &["ok", "va", "bene", "grazie", "mille", "allora", "sì"],
        ),
        "nl" => (
            &["tot ziens", "doei", "dag", "tot straks", "tot later"],
            &["oké", "ok", "goed", "dank", "je", "u", "wel", "bedankt", "ja"],
        ),
        "pl" => (
            &["do widzenia", "do usłyszenia", "cześć", "pa"],
            &["dobrze", "ok", "okej", "dziękuję", "dzięki", "to", "tak"],
        ),
        "pt" => (
            &["adeus", "tchau", "até logo", "até já", "até breve"],
            &["ok", "obrigado", "obrigada", "muito", "então", "bem", "sim"],
        ),
        _ => (
            &["goodbye", "good bye", "bye bye", "bye", "see you", "talk to you later"],
            &[
                "okay", "ok", "thanks", "thank", "you", "very", "much", "so", "well", "alright", "then", "yes",
                "that's", "all",
            ],
        ),
    }
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
        for farewell in farewells {
            let parts: Vec<&str> = farewell.split(' ').collect();
            if rest.len() >= parts.len() && rest[..parts.len()] == parts[..] {
                rest = &rest[parts.len()..];
                said = true;
                continue 'words;
            }
        }
        if !fillers.contains(first) {
            return false;
        }
        rest = &rest[1..];
    }
    said
}
