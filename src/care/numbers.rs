//! Numbers as people say them, in German and English: digits, words ("zwanzig", "einundzwanzig", "twenty-five")
//! and the fractions of durations ("anderthalb", "a half").

/// German 0–19 and the tens.
const DE_ONES: [&str; 20] = [
    "null",
    "eins",
    "zwei",
    "drei",
    "vier",
    "fünf",
    "sechs",
    "sieben",
    "acht",
    "neun",
    "zehn",
    "elf",
    "zwölf",
    "dreizehn",
    "vierzehn",
    "fünfzehn",
    "sechzehn",
    "siebzehn",
    "achtzehn",
    "neunzehn",
];
const DE_TENS: [(&str, u32); 5] = [
    ("zwanzig", 20),
    ("dreißig", 30),
    ("vierzig", 40),
    ("fünfzig", 50),
    ("sechzig", 60),
];
const EN_ONES: [&str; 20] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];
const EN_TENS: [(&str, u32); 5] = [
    ("twenty", 20),
    ("thirty", 30),
    ("forty", 40),
    ("fifty", 50),
    ("sixty", 60),
];

/// A whole number from digits or one word of `language` ("acht", "einundzwanzig", "twenty-five", "ein").
pub fn whole(word: &str, language: &str) -> Option<u32> {
    if !word.is_empty() && word.len() <= 4 && word.chars().all(|c| c.is_ascii_digit()) {
        return word.parse().ok();
    }
    if language == "de" { german(word) } else { english(word) }
}

fn german(word: &str) -> Option<u32> {
    match word {
        "ein" | "eine" | "einen" | "einer" | "einem" => return Some(1),
        "zwo" => return Some(2),
        _ => {}
    }
    if let Some(n) = DE_ONES.iter().position(|w| *w == word) {
        return Some(n as u32);
    }
    if let Some((_, n)) = DE_TENS.iter().find(|(w, _)| *w == word) {
        return Some(*n);
    }
    // "einundzwanzig": ones "und" tens.
    let (ones, tens) = word.split_once("und")?;
    let ones = if ones == "ein" {
        1
    } else {
        DE_ONES[1..10].iter().position(|w| *w == ones)? as u32 + 1
    };
    let tens = DE_TENS.iter().find(|(w, _)| *w == tens)?.1;
    Some(tens + ones)
}

fn english(word: &str) -> Option<u32> {
    if matches!(word, "a" | "an") {
        return Some(1);
    }
    if let Some(n) = EN_ONES.iter().position(|w| *w == word) {
        return Some(n as u32);
    }
    if let Some((_, n)) = EN_TENS.iter().find(|(w, _)| *w == word) {
        return Some(*n);
    }
    // "twenty-five".
    let (tens, ones) = word.split_once('-')?;
    let tens = EN_TENS.iter().find(|(w, _)| *w == tens)?.1;
    let ones = EN_ONES[1..10].iter().position(|w| *w == ones)? as u32 + 1;
    Some(tens + ones)
}

/// The tens of English said as two words ("twenty five"): the number when `first` is a ten and `second` a one.
pub fn english_pair(first: &str, second: &str) -> Option<u32> {
    let tens = EN_TENS.iter().find(|(w, _)| *w == first)?.1;
    let ones = EN_ONES[1..10].iter().position(|w| *w == second)? as u32 + 1;
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
