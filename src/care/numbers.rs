//! Numbers as people say them, in German and English: digits, words ("zwanzig", "einundzwanzig", "twenty-five")
//! and the fractions of durations ("anderthalb", "a half").

use crate::text::numbers::{de_cardinal, en_cardinal};

/// The largest number read from a word: minutes and hours need no more.
const MAX_WORD: u64 = 60;

/// A whole number from digits or one word of `language` ("acht", "einundzwanzig", "twenty-five", "ein").
pub fn whole(word: &str, language: &str) -> Option<u32> {
    if !word.is_empty() && word.len() <= 4 && word.chars().all(|c| c.is_ascii_digit()) {
        return word.parse().ok();
    }
    if language == "de" { german(word) } else { english(word) }
}

/// The number `word` is, as the text pipeline writes numbers out (one source of the number words).
fn spelled(word: &str, cardinal: fn(u64) -> String) -> Option<u32> {
    (0..=MAX_WORD).find(|n| cardinal(*n) == word).map(|n| n as u32)
}

fn german(word: &str) -> Option<u32> {
    match word {
        "ein" | "eine" | "einen" | "einer" | "einem" => Some(1),
        "zwo" => Some(2),
        _ => spelled(word, de_cardinal),
    }
}

fn english(word: &str) -> Option<u32> {
    match word {
        "a" | "an" => Some(1),
        _ => spelled(word, en_cardinal),
    }
}

/// The tens of English said as two words ("twenty five"): the number when `first` is a ten and `second` a one.
pub fn english_pair(first: &str, second: &str) -> Option<u32> {
    let tens = english(first).filter(|t| *t >= 20 && t % 10 == 0)?;
    let ones = english(second).filter(|o| (1..10).contains(o))?;
    Some(tens + ones)
}

/// An amount in sixtieths (so that "anderthalb" Stunden are 90 minutes exactly): a number, a decimal ("1,5",
/// "1.5") or a fraction word ("anderthalb", "eineinhalb", "zweieinhalb", "halbe", "half").
pub fn amount(word: &str, language: &str) -> Option<u32> {
    if let Some(n) = whole(word, language) {
        return Some(n * 60);
    }
    match word {
        "anderthalb" | "eineinhalb" => return Some(90),
        "halbe" | "halben" | "half" => return Some(30),
        "dreiviertel" => return Some(45),
        "viertel" | "quarter" => return Some(15),
        _ => {}
    }
    if let Some(whole) = word.strip_suffix("einhalb") {
        return Some(german(whole)? * 60 + 30);
    }
    let (units, tenths) = word.split_once([',', '.'])?;
    let (units, tenths): (u32, u32) = (units.parse().ok()?, tenths.parse().ok()?);
    (tenths < 10 && units < 1000).then_some(units * 60 + tenths * 6)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_in_words_and_digits() {
        assert_eq!(whole("acht", "de"), Some(8));
        assert_eq!(whole("einundzwanzig", "de"), Some(21));
        assert_eq!(whole("fünfundvierzig", "de"), Some(45));
        assert_eq!(whole("zwölf", "de"), Some(12));
        assert_eq!(whole("20", "de"), Some(20));
        assert_eq!(whole("twenty-five", "en"), Some(25));
        assert_eq!(whole("an", "en"), Some(1));
        assert_eq!(english_pair("twenty", "five"), Some(25));
        assert_eq!(whole("tabletten", "de"), None);
        assert_eq!(whole("12345", "de"), None);
    }

    #[test]
    fn amounts_keep_their_fractions() {
        assert_eq!(amount("anderthalb", "de"), Some(90));
        assert_eq!(amount("zweieinhalb", "de"), Some(150));
        assert_eq!(amount("1,5", "de"), Some(90));
        assert_eq!(amount("1.5", "en"), Some(90));
        assert_eq!(amount("zehn", "de"), Some(600));
        assert_eq!(amount("half", "en"), Some(30));
    }
}
