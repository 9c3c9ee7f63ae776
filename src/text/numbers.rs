//! Number words in German and English: cardinals, ordinals, decimals and years.
//!
//! No crate writes German number words, so they are written here: `21` → `einundzwanzig`,
//! `2026` → `zweitausendsechsundzwanzig`, `1,5` → `eins Komma fünf`, `22.` before a month → `zweiundzwanzigster`.
//! English: `21` → `twenty-one`, year `1999` → `nineteen ninety-nine`, `22nd` → `twenty-second`.

const DE_UNITS: [&str; 20] = [
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
const DE_TENS: [&str; 10] = [
    "", "zehn", "zwanzig", "dreißig", "vierzig", "fünfzig", "sechzig", "siebzig", "achtzig", "neunzig",
];
const EN_UNITS: [&str; 20] = [
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
const EN_TENS: [&str; 10] = [
    "", "ten", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];

/// German words for 1..=999 inside a compound; `final_one` decides `eins` (at the end) or `ein` (before
/// `tausend`).
fn de_below_thousand(n: u64, final_one: bool) -> String {
    let (hundreds, rest) = (n / 100, n % 100);
    let mut out = String::new();
    if hundreds > 0 {
        if hundreds > 1 {
            out.push_str(DE_UNITS[hundreds as usize]);
        }
        out.push_str("hundert");
    }
    match rest {
        0 => {}
        1 => out.push_str(if final_one { "eins" } else { "ein" }),
        2..=19 => out.push_str(DE_UNITS[rest as usize]),
        _ => {
            let (tens, ones) = (rest / 10, rest % 10);
            if ones > 0 {
                out.push_str(if ones == 1 { "ein" } else { DE_UNITS[ones as usize] });
                out.push_str("und");
            }
            out.push_str(DE_TENS[tens as usize]);
        }
    }
    out
}

/// A German cardinal: `einundzwanzig`, `zwei Millionen dreihunderttausend`.
pub fn de_cardinal(n: u64) -> String {
    if n == 0 {
        return "null".into();
    }
    let big = [
        (1_000_000_000_000_000_000u64, "Trillion", "Trillionen"),
        (1_000_000_000_000_000, "Billiarde", "Billiarden"),
        (1_000_000_000_000, "Billion", "Billionen"),
        (1_000_000_000, "Milliarde", "Milliarden"),
        (1_000_000, "Million", "Millionen"),
    ];
    let mut words: Vec<String> = Vec::new();
    let mut rest = n;
    for (size, one, many) in big {
        let count = rest / size;
        if count > 0 {
            let head = if count == 1 {
                "eine".to_string()
            } else {
                de_cardinal(count)
            };
            words.push(format!("{head} {}", if count == 1 { one } else { many }));
            rest %= size;
        }
    }
    if rest > 0 {
        let (thousands, below) = (rest / 1000, rest % 1000);
        let mut word = String::new();
        if thousands > 0 {
            if thousands > 1 {
                word.push_str(&de_below_thousand(thousands, false));
            }
            word.push_str("tausend");
        }
        if below > 0 {
            word.push_str(&de_below_thousand(below, true));
        }
        words.push(word);
    }
    words.join(" ")
}

/// A German ordinal with its ending: `"en"` after `am` (`am dritten Mai`), `"e"` after an article
/// (`der dritte Mai`), `"er"` on its own (`dritter Mai`).
pub fn de_ordinal(n: u64, ending: &str) -> String {
    let stem = match n {
        1 => "erst".to_string(),
        3 => "dritt".to_string(),
        7 => "siebt".to_string(),
        8 => "acht".to_string(),
        0..=19 => format!("{}t", de_cardinal(n)),
        _ => format!("{}st", de_cardinal(n)),
    };
    format!("{stem}{ending}")
}

/// Digits after a decimal separator, read one by one: `05` → `null fünf`.
fn digits(s: &str, words: &[&str; 20]) -> String {
    s.chars()
        .filter_map(|c| c.to_digit(10))
        .map(|d| words[d as usize])
        .collect::<Vec<_>>()
        .join(" ")
}

/// German decimal from integer and fraction digits: `1`, `5` → `eins Komma fünf`.
pub fn de_decimal(int: u64, frac: &str) -> String {
    format!("{} Komma {}", de_cardinal(int), digits(frac, &DE_UNITS))
}

fn en_below_thousand(n: u64) -> String {
    let (hundreds, rest) = (n / 100, n % 100);
    let mut parts = Vec::new();
    if hundreds > 0 {
        parts.push(format!("{} hundred", EN_UNITS[hundreds as usize]));
    }
    match rest {
        0 => {}
        1..=19 => parts.push(EN_UNITS[rest as usize].to_string()),
        _ if rest % 10 == 0 => parts.push(EN_TENS[(rest / 10) as usize].to_string()),
        _ => parts.push(format!(
            "{}-{}",
            EN_TENS[(rest / 10) as usize],
            EN_UNITS[(rest % 10) as usize]
        )),
    }
    parts.join(" ")
}

/// An English cardinal: `twenty-one`, `two million three hundred thousand`.
pub fn en_cardinal(n: u64) -> String {
    if n == 0 {
        return "zero".into();
    }
    let scales = [
        (1_000_000_000_000_000_000u64, "quintillion"),
        (1_000_000_000_000_000, "quadrillion"),
        (1_000_000_000_000, "trillion"),
        (1_000_000_000, "billion"),
        (1_000_000, "million"),
        (1_000, "thousand"),
    ];
    let mut parts = Vec::new();
    let mut rest = n;
    for (size, name) in scales {
        if rest >= size {
            parts.push(format!("{} {name}", en_cardinal(rest / size)));
            rest %= size;
        }
    }
    if rest > 0 {
        parts.push(en_below_thousand(rest));
    }
    parts.join(" ")
}

/// An English ordinal: `first`, `twenty-second`, `one hundredth`.
pub fn en_ordinal(n: u64) -> String {
    let cardinal = en_cardinal(n);
    let (head, last) = match cardinal.rfind([' ', '-']) {
        Some(i) => cardinal.split_at(i + 1),
        None => ("", cardinal.as_str()),
    };
    let last = match last {
        "one" => "first".to_string(),
        "two" => "second".to_string(),
        "three" => "third".to_string(),
        "five" => "fifth".to_string(),
        "eight" => "eighth".to_string(),
        "nine" => "ninth".to_string(),
        "twelve" => "twelfth".to_string(),
        w if w.ends_with('y') => format!("{}ieth", &w[..w.len() - 1]),
        w => format!("{w}th"),
    };
    format!("{head}{last}")
}

/// An English year: `1999` → `nineteen ninety-nine`, `2005` → `two thousand five`, `2026` → `twenty twenty-six`.
pub fn en_year(n: u64) -> String {
    let (century, rest) = (n / 100, n % 100);
    match (n, rest) {
        (2000..=2009, _) | (0..=999, _) | (10_000.., _) => en_cardinal(n),
        (_, 0) => format!("{} hundred", en_cardinal(century)),
        (_, 1..=9) => format!("{} oh {}", en_cardinal(century), en_cardinal(rest)),
        _ => format!("{} {}", en_cardinal(century), en_cardinal(rest)),
    }
}

/// English decimal: `3`, `14` → `three point one four`.
pub fn en_decimal(int: u64, frac: &str) -> String {
    format!("{} point {}", en_cardinal(int), digits(frac, &EN_UNITS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn german_cardinals_are_spelled_as_in_the_dictionary() {
        let cases = [
            (0, "null"),
            (1, "eins"),
            (11, "elf"),
            (16, "sechzehn"),
            (17, "siebzehn"),
            (21, "einundzwanzig"),
            (30, "dreißig"),
            (99, "neunundneunzig"),
            (100, "hundert"),
            (101, "hunderteins"),
            (111, "hundertelf"),
            (256, "zweihundertsechsundfünfzig"),
            (1000, "tausend"),
            (1001, "tausendeins"),
            (2026, "zweitausendsechsundzwanzig"),
            (21_000, "einundzwanzigtausend"),
            (101_000, "hunderteintausend"),
            (999_999, "neunhundertneunundneunzigtausendneunhundertneunundneunzig"),
            (1_000_000, "eine Million"),
            (2_500_000, "zwei Millionen fünfhunderttausend"),
            (1_000_000_001, "eine Milliarde eins"),
            (3_000_000_000_000, "drei Billionen"),
        ];
        for (n, want) in cases {
            assert_eq!(de_cardinal(n), want, "{n}");
        }
        assert_eq!(de_decimal(1, "5"), "eins Komma fünf");
        assert_eq!(de_decimal(0, "05"), "null Komma null fünf");
    }

    #[test]
    fn german_ordinals_take_the_ending_of_their_case() {
        let cases = [
            (1, "er", "erster"),
            (3, "en", "dritten"),
            (7, "er", "siebter"),
            (8, "en", "achten"),
            (19, "er", "neunzehnter"),
            (22, "er", "zweiundzwanzigster"),
            (22, "e", "zweiundzwanzigste"),
            (31, "en", "einunddreißigsten"),
            (100, "er", "hundertster"),
        ];
        for (n, ending, want) in cases {
            assert_eq!(de_ordinal(n, ending), want, "{n}");
        }
    }

    #[test]
    fn english_numbers_years_and_ordinals() {
        let cardinals = [
            (0, "zero"),
            (13, "thirteen"),
            (21, "twenty-one"),
            (40, "forty"),
            (101, "one hundred one"),
            (1_000, "one thousand"),
            (12_345, "twelve thousand three hundred forty-five"),
            (2_000_000, "two million"),
        ];
        for (n, want) in cardinals {
            assert_eq!(en_cardinal(n), want, "{n}");
        }
        let years = [
            (1999, "nineteen ninety-nine"),
            (2005, "two thousand five"),
            (2026, "twenty twenty-six"),
            (1900, "nineteen hundred"),
            (1905, "nineteen oh five"),
            (2000, "two thousand"),
        ];
        for (n, want) in years {
            assert_eq!(en_year(n), want, "{n}");
        }
        let ordinals = [
            (1, "first"),
            (2, "second"),
            (3, "third"),
            (12, "twelfth"),
            (20, "twentieth"),
            (22, "twenty-second"),
            (100, "one hundredth"),
            (101, "one hundred first"),
        ];
        for (n, want) in ordinals {
            assert_eq!(en_ordinal(n), want, "{n}");
        }
        assert_eq!(en_decimal(3, "14"), "three point one four");
    }

    #[test]
    fn the_largest_numbers_do_not_panic() {
        assert!(de_cardinal(u64::MAX).starts_with("achtzehn Trillionen"));
        assert!(en_cardinal(u64::MAX).starts_with("eighteen quintillion"));
        assert!(!en_ordinal(u64::MAX).is_empty());
        assert!(!en_year(u64::MAX).is_empty());
    }
}
