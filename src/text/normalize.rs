//! The TTS normalizer: numbers, dates, times, money, percentages, ranges, phone numbers and units become
//! words in the listener's language; lexicon terms get their pronunciation.
//!
//! Examples (de): `"Am 22.11.2026 um 14:30 Uhr, 3,50 € und 25 %"` →
//! `"Am zweiundzwanzigster November zweitausendsechsundzwanzig um vierzehn Uhr dreißig, drei Euro fünfzig und
//! fünfundzwanzig Prozent"`; (en) `"$5.99 at 3:45 pm, 5 km"` → `"five dollars ninety-nine at three forty-five
//! p m, five kilometers"`. Languages other than de and en only get their lexicon's units and terms.

use super::lexicon::{Lexicon, Section};
use super::numbers::{de_cardinal, de_decimal, de_ordinal, en_cardinal, en_decimal, en_ordinal, en_year};

/// The months' names, January first (also what the reminders say back).
pub const DE_MONTHS: [&str; 12] = [
    "Januar",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
];
pub const EN_MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const DATIVE_BEFORE: [&str; 5] = ["am", "vom", "zum", "im", "Am"];

/// Numbers too long to be quantities are read digit by digit.
const MAX_DIGITS: usize = 15;

#[derive(Clone, Copy, PartialEq)]
enum Lang {
    De,
    En,
    Other,
}

/// Rewrites numbers and terms as the listener should hear them.
pub fn normalize(text: &str, lang: &str, lex: &Lexicon) -> String {
    let lang = match lang {
        "de" => Lang::De,
        "en" => Lang::En,
        _ => Lang::Other,
    };
    // Every number reading starts at a digit: text without one only needs its terms.
    if !text.bytes().any(|b| b.is_ascii_digit()) {
        return terms(text, lex);
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + text.len() / 2);
    let mut i = 0;
    while i < chars.len() {
        let boundary = i == 0 || !chars[i - 1].is_alphanumeric();
        if boundary
            && lang != Lang::Other
            && let Some((spoken, next)) = number_at(&chars, i, lang, lex, &out)
        {
            out.push_str(&spoken);
            i = next;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    let with_units = if lang == Lang::Other {
        units_after_numbers(&out, lex)
    } else {
        out
    };
    terms(&with_units, lex)
}

/// Digits from `i`: (value text, end index).
fn digits_at(chars: &[char], i: usize) -> (String, usize) {
    let end = chars[i..]
        .iter()
        .position(|c| !c.is_ascii_digit())
        .map_or(chars.len(), |n| i + n);
    (chars[i..end].iter().collect(), end)
}

fn cardinal(n: u64, lang: Lang) -> String {
    if lang == Lang::De {
        de_cardinal(n)
    } else {
        en_cardinal(n)
    }
}

fn digit_by_digit(s: &str, lang: Lang) -> String {
    s.chars()
        .filter_map(|c| c.to_digit(10))
        .map(|d| cardinal(u64::from(d), lang))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A number-like thing starting at `i` (a digit, or `+ - € $ £` before one), spoken, and where it ends.
fn number_at(chars: &[char], i: usize, lang: Lang, lex: &Lexicon, before: &str) -> Option<(String, usize)> {
    let c = chars[i];
    let next_is_digit = chars.get(i + 1).is_some_and(char::is_ascii_digit);
    match c {
        '+' if next_is_digit => phone(chars, i, lang),
        '-' | '−' if next_is_digit => {
            let (spoken, end) = quantity(chars, i + 1, lang, lex)?;
            Some((format!("minus {spoken}"), end))
        }
        '€' | '$' | '£' if next_is_digit => {
            let (int, frac, end) = amount(chars, i + 1, lang)?;
            Some((money(int, frac.as_deref(), c, lang), end))
        }
        _ if c.is_ascii_digit() => {
            if let Some(found) = time(chars, i, lang).or_else(|| date(chars, i, lang, before)) {
                return Some(found);
            }
            if let Some(found) = phone(chars, i, lang) {
                return Some(found);
            }
            quantity(chars, i, lang, lex)
        }
        _ => None,
    }
}

/// `14:30`, `14:30 Uhr`, `3:45 pm`.
fn time(chars: &[char], i: usize, lang: Lang) -> Option<(String, usize)> {
    let (h, after_h) = digits_at(chars, i);
    if h.len() > 2 || chars.get(after_h) != Some(&':') {
        return None;
    }
    let (m, after_m) = digits_at(chars, after_h + 1);
    let (hour, minute): (u64, u64) = (h.parse().ok()?, m.parse().ok()?);
    if m.len() != 2 || hour > 24 || minute > 59 {
        return None;
    }
    let rest: String = chars[after_m..].iter().take(6).collect();
    if lang == Lang::De {
        let end = if rest.starts_with(" Uhr") { after_m + 4 } else { after_m };
        let minute_words = if minute == 0 {
            String::new()
        } else {
            format!(" {}", de_cardinal(minute))
        };
        let hour_word = if hour == 1 {
            "ein".to_string()
        } else {
            de_cardinal(hour)
        };
        return Some((format!("{hour_word} Uhr{minute_words}"), end));
    }
    let lower = rest.to_ascii_lowercase();
    let (suffix, skip) = [(" pm", " p m"), (" am", " a m"), (" p.m.", " p m"), (" a.m.", " a m")]
        .iter()
        .find(|(s, _)| lower.starts_with(s) && !rest[s.len()..].starts_with(char::is_alphabetic))
        .map_or(("", 0), |(s, spoken)| (*spoken, s.chars().count()));
    let minute_words = match minute {
        0 if suffix.is_empty() => " hundred".to_string(),
        0 => String::new(),
        1..=9 => format!(" oh {}", en_cardinal(minute)),
        _ => format!(" {}", en_cardinal(minute)),
    };
    Some((format!("{}{minute_words}{suffix}", en_cardinal(hour)), after_m + skip))
}

/// `22.11.2026`, `22.11.`, `2026-11-22`, `22. November` (de ordinal before a month).
fn date(chars: &[char], i: usize, lang: Lang, before: &str) -> Option<(String, usize)> {
    let (a, after_a) = digits_at(chars, i);
    let last_word = before.trim_end().rsplit(char::is_whitespace).next().unwrap_or_default();
    let ending = match last_word {
        w if DATIVE_BEFORE.contains(&w) => "en",
        "der" | "die" | "das" | "Der" | "Die" | "Das" | "des" | "dem" | "den" => "e",
        _ => "er",
    };
    let day_word = |day: u64| match lang {
        Lang::De => de_ordinal(day, ending),
        _ => en_ordinal(day),
    };
    // ISO: 2026-11-22
    if a.len() == 4 && chars.get(after_a) == Some(&'-') {
        let (m, after_m) = digits_at(chars, after_a + 1);
        if m.len() == 2 && chars.get(after_m) == Some(&'-') {
            let (d, after_d) = digits_at(chars, after_m + 1);
            let (year, month, day) = (a.parse().ok()?, m.parse::<usize>().ok()?, d.parse().ok()?);
            if d.len() == 2 && (1..=12).contains(&month) && (1..=31).contains(&day) {
                return Some((spoken_date(day, month, Some(year), lang, &day_word), after_d));
            }
        }
        return None;
    }
    if a.len() > 2 || chars.get(after_a) != Some(&'.') {
        return None;
    }
    let day: u64 = a.parse().ok()?;
    if !(1..=31).contains(&day) {
        return None;
    }
    // 22.11.2026 or 22.11.
    let (m, after_m) = digits_at(chars, after_a + 1);
    if (1..=2).contains(&m.len()) && chars.get(after_m) == Some(&'.') {
        let month: usize = m.parse().ok()?;
        if (1..=12).contains(&month) {
            let (y, after_y) = digits_at(chars, after_m + 1);
            let year = (y.len() == 4).then(|| y.parse().ok()).flatten();
            let end = if year.is_some() { after_y } else { after_m + 1 };
            return Some((spoken_date(day, month, year, lang, &day_word), end));
        }
    }
    // 22. November
    let word: String = chars[after_a + 1..]
        .iter()
        .skip_while(|c| **c == ' ')
        .take_while(|c| c.is_alphabetic())
        .collect();
    let months = if lang == Lang::De { &DE_MONTHS } else { &EN_MONTHS };
    if chars.get(after_a + 1) == Some(&' ') && months.contains(&word.as_str()) {
        return Some((day_word(day), after_a + 1));
    }
    None
}

fn spoken_date(day: u64, month: usize, year: Option<u64>, lang: Lang, day_word: &dyn Fn(u64) -> String) -> String {
    match lang {
        Lang::De => {
            let year = year.map(|y| format!(" {}", de_year(y))).unwrap_or_default();
            format!("{} {}{year}", day_word(day), DE_MONTHS[month - 1])
        }
        _ => {
            let year = year.map(|y| format!(", {}", en_year(y))).unwrap_or_default();
            format!("{} {}{year}", EN_MONTHS[month - 1], day_word(day))
        }
    }
}

/// German years 1100–1999 are read in hundreds: `neunzehnhundertneunundneunzig`.
fn de_year(y: u64) -> String {
    if (1100..2000).contains(&y) {
        let rest = y % 100;
        let tail = if rest == 0 { String::new() } else { de_cardinal(rest) };
        format!("{}hundert{tail}", de_cardinal(y / 100))
    } else {
        de_cardinal(y)
    }
}

/// `+49 170 1234567` or `0170 1234567`: digits read one by one, groups separated by commas.
fn phone(chars: &[char], i: usize, lang: Lang) -> Option<(String, usize)> {
    let plus = chars[i] == '+';
    let mut groups = Vec::new();
    let mut j = if plus { i + 1 } else { i };
    loop {
        let (group, end) = digits_at(chars, j);
        if group.is_empty() {
            break;
        }
        groups.push(group);
        j = end;
        let sep = chars.get(j).is_some_and(|c| matches!(c, ' ' | '-' | '/'));
        if !(sep && chars.get(j + 1).is_some_and(char::is_ascii_digit)) {
            break;
        }
        j += 1;
    }
    let total: usize = groups.iter().map(String::len).sum();
    let looks_like_phone = (plus && total >= 7) || (groups.len() >= 2 && groups[0].starts_with('0') && total >= 7);
    if !looks_like_phone || total > 20 {
        return None;
    }
    let spoken: Vec<String> = groups.iter().map(|g| digit_by_digit(g, lang)).collect();
    let head = if plus { "plus " } else { "" };
    Some((format!("{head}{}", spoken.join(", ")), j))
}

/// An integer or decimal with the language's separators: (integer part, fraction digits, end).
fn amount(chars: &[char], i: usize, lang: Lang) -> Option<(u64, Option<String>, usize)> {
    let (thousands, decimal) = if lang == Lang::De { ('.', ',') } else { (',', '.') };
    let (first, mut end) = digits_at(chars, i);
    let mut int = first;
    // Thousands groups: exactly three digits after the separator.
    while chars.get(end) == Some(&thousands) && int.len() <= MAX_DIGITS {
        let (group, after) = digits_at(chars, end + 1);
        if group.len() != 3 {
            break;
        }
        int.push_str(&group);
        end = after;
    }
    if int.len() > MAX_DIGITS {
        return None;
    }
    let mut frac = None;
    if chars.get(end) == Some(&decimal) && chars.get(end + 1).is_some_and(char::is_ascii_digit) {
        let (f, after) = digits_at(chars, end + 1);
        frac = Some(f);
        end = after;
    }
    Some((int.parse().ok()?, frac, end))
}

fn money(int: u64, frac: Option<&str>, symbol: char, lang: Lang) -> String {
    let cents: u64 = frac.map(|f| format!("{f:0<2}")[..2].parse().unwrap_or(0)).unwrap_or(0);
    let (one, many, cent_word) = match (symbol, lang) {
        ('€', Lang::De) => ("Euro", "Euro", ""),
        ('$', Lang::De) => ("Dollar", "Dollar", ""),
        ('£', Lang::De) => ("Pfund", "Pfund", ""),
        ('€', _) => ("euro", "euros", " cents"),
        ('$', _) => ("dollar", "dollars", " cents"),
        _ => ("pound", "pounds", " pence"),
    };
    let unit = if int == 1 { one } else { many };
    let amount = if lang == Lang::De && int == 1 {
        "ein".to_string()
    } else {
        cardinal(int, lang)
    };
    match cents {
        0 => format!("{amount} {unit}"),
        // English reads "five dollars ninety-nine" like German "drei Euro fünfzig"; "cents" only alone.
        _ if int == 0 && lang != Lang::De => format!("{}{cent_word}", en_cardinal(cents)),
        _ => format!("{amount} {unit} {}", cardinal(cents, lang)),
    }
}

/// A number with what follows it: range, percent, currency after the number, unit, ordinal suffix, year.
fn quantity(chars: &[char], i: usize, lang: Lang, lex: &Lexicon) -> Option<(String, usize)> {
    let (int, frac, end) = amount(chars, i, lang)?;
    let raw_len = end - i;
    let number = match &frac {
        Some(f) if lang == Lang::De => de_decimal(int, f),
        Some(f) => en_decimal(int, f),
        None => cardinal(int, lang),
    };
    let rest: String = chars[end..].iter().take(12).collect();
    // Range: 10-20 or 10–20.
    if rest.starts_with(['-', '–'])
        && chars.get(end + 1).is_some_and(char::is_ascii_digit)
        && let Some((upper, after)) = quantity(chars, end + 1, lang, lex)
    {
        let to = if lang == Lang::De { "bis" } else { "to" };
        return Some((format!("{number} {to} {upper}"), after));
    }
    let trimmed = rest.trim_start_matches(' ');
    let gap = rest.len() - trimmed.len();
    if trimmed.starts_with('%') {
        let word = if lang == Lang::De { "Prozent" } else { "percent" };
        return Some((format!("{number} {word}"), end + gap + 1));
    }
    if let Some(symbol) = trimmed.chars().next().filter(|c| matches!(c, '€' | '$' | '£')) {
        return Some((money(int, frac.as_deref(), symbol, lang), end + gap + 1));
    }
    if lang == Lang::En && frac.is_none() {
        let suffix: String = rest.chars().take(2).collect::<String>().to_ascii_lowercase();
        let after_suffix = chars.get(end + 2).is_none_or(|c| !c.is_alphanumeric());
        if matches!(suffix.as_str(), "st" | "nd" | "rd" | "th") && after_suffix {
            return Some((en_ordinal(int), end + 2));
        }
    }
    if let Some((unit, unit_len)) = unit_after(&rest, lex) {
        let singular = int == 1 && frac.is_none();
        let (one, many) = unit.split_once('|').unwrap_or((unit, unit));
        let name = if singular { one } else { many };
        let amount = match (lang, singular) {
            (Lang::De, true) if one.ends_with('e') => "eine".to_string(),
            (Lang::De, true) => "ein".to_string(),
            _ => number,
        };
        return Some((format!("{amount} {name}"), end + unit_len));
    }
    if frac.is_none() && raw_len == 4 && (1000..2100).contains(&int) {
        let year = if lang == Lang::De { de_year(int) } else { en_year(int) };
        return Some((year, end));
    }
    if frac.is_none() && raw_len > MAX_DIGITS {
        return Some((digit_by_digit(&chars[i..end].iter().collect::<String>(), lang), end));
    }
    Some((number, end))
}

/// The longest lexicon unit at the start of `rest` (after optional spaces), ending at a word boundary:
/// (spoken form, characters consumed including the spaces).
fn unit_after<'a>(rest: &str, lex: &'a Lexicon) -> Option<(&'a str, usize)> {
    let trimmed = rest.trim_start_matches(' ');
    let gap = rest.chars().count() - trimmed.chars().count();
    lex.entries(Section::Units)
        .filter(|(key, _, _)| {
            trimmed.starts_with(key) && trimmed[key.len()..].chars().next().is_none_or(|c| !c.is_alphanumeric())
        })
        .max_by_key(|(key, _, _)| key.len())
        .map(|(key, value, _)| (value, gap + key.chars().count()))
        .filter(|(_, n)| *n > 0)
}

/// Units after plain numbers, for languages without number words.
fn units_after_numbers(text: &str, lex: &Lexicon) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        out.push(chars[i]);
        if chars[i].is_ascii_digit() && !chars.get(i + 1).is_some_and(char::is_ascii_digit) {
            let rest: String = chars[i + 1..].iter().take(12).collect();
            if let Some((unit, len)) = unit_after(&rest, lex) {
                let many = unit.split_once('|').map_or(unit, |(_, m)| m);
                out.push(' ');
                out.push_str(many);
                i += len;
            }
        }
        i += 1;
    }
    out
}

/// Whole-word replacement of lexicon terms.
fn terms(text: &str, lex: &Lexicon) -> String {
    let mut out = text.to_string();
    for (key, value, _) in lex.entries(Section::Terms) {
        if !out.contains(key) {
            continue;
        }
        let mut replaced = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(pos) = rest.find(key) {
            let before_ok = rest[..pos].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
            let after_ok = rest[pos + key.len()..]
                .chars()
                .next()
                .is_none_or(|c| !c.is_alphanumeric());
            replaced.push_str(&rest[..pos]);
            replaced.push_str(if before_ok && after_ok { value } else { key });
            rest = &rest[pos + key.len()..];
        }
        replaced.push_str(rest);
        out = replaced;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn german_numbers_dates_times_money_and_units_are_spoken() {
        let lex = Lexicon::builtin("de");
        let cases = [
            ("Es sind 21 Grad", "Es sind einundzwanzig Grad"),
            ("Im Jahr 2026", "Im Jahr zweitausendsechsundzwanzig"),
            ("Im Jahr 1999", "Im Jahr neunzehnhundertneunundneunzig"),
            ("1,5 Liter", "eins Komma fünf Liter"),
            ("1.000 Leute", "tausend Leute"),
            ("-5 Grad", "minus fünf Grad"),
            ("10-20 Minuten", "zehn bis zwanzig Minuten"),
            ("25 %", "fünfundzwanzig Prozent"),
            ("25%", "fünfundzwanzig Prozent"),
            ("3,50 €", "drei Euro fünfzig"),
            ("1 €", "ein Euro"),
            ("€20", "zwanzig Euro"),
            ("um 14:30 Uhr", "um vierzehn Uhr dreißig"),
            ("um 9:00 Uhr", "um neun Uhr"),
            (
                "am 22.11.2026",
                "am zweiundzwanzigsten November zweitausendsechsundzwanzig",
            ),
            ("Heute ist der 22. November", "Heute ist der zweiundzwanzigste November"),
            ("am 3. Mai", "am dritten Mai"),
            ("2026-11-22", "zweiundzwanzigster November zweitausendsechsundzwanzig"),
            (
                "Ruf +49 170 1234567 an",
                "Ruf plus vier neun, eins sieben null, eins zwei drei vier fünf sechs sieben an",
            ),
            ("5 km", "fünf Kilometer"),
            ("1 km", "ein Kilometer"),
            ("1 h", "eine Stunde"),
            ("3 h", "drei Stunden"),
            ("120 km/h", "hundertzwanzig Kilometer pro Stunde"),
            ("-3 °C", "minus drei Grad Celsius"),
            ("20 m² Fläche", "zwanzig Quadratmeter Fläche"),
            ("WLAN geht", "W-LAN geht"),
            ("Es ist 0 Grad", "Es ist null Grad"),
            ("100 %", "hundert Prozent"),
            ("2,5 kg", "zwei Komma fünf Kilogramm"),
            ("1 kg", "ein Kilogramm"),
            ("am 1. Januar", "am ersten Januar"),
            ("5 min", "fünf Minuten"),
            ("1 min", "eine Minute"),
            ("3 kWh", "drei Kilowattstunden"),
            ("um 12:00", "um zwölf Uhr"),
            ("£5", "fünf Pfund"),
            ("MP3", "MP3"),
        ];
        for (input, want) in cases {
            assert_eq!(normalize(input, "de", &lex), want, "{input}");
        }
    }

    #[test]
    fn english_numbers_dates_times_money_and_units_are_spoken() {
        let lex = Lexicon::builtin("en");
        let cases = [
            ("21 apples", "twenty-one apples"),
            ("in 1999", "in nineteen ninety-nine"),
            ("in 2026", "in twenty twenty-six"),
            ("3.14", "three point one four"),
            ("1,000 people", "one thousand people"),
            ("$5.99", "five dollars ninety-nine"),
            ("£20", "twenty pounds"),
            ("$1", "one dollar"),
            ("at 3:45 pm", "at three forty-five p m"),
            ("at 3:05", "at three oh five"),
            ("the 22nd", "the twenty-second"),
            ("1st place", "first place"),
            ("2026-11-22", "November twenty-second, twenty twenty-six"),
            ("50%", "fifty percent"),
            ("5 km", "five kilometers"),
            ("1 km", "one kilometer"),
            ("10-20", "ten to twenty"),
            ("GitHub rocks", "Git Hub rocks"),
            ("0.5 kg", "zero point five kilograms"),
            ("100%", "one hundred percent"),
            ("-10 °C", "minus ten degrees Celsius"),
            ("the 3rd", "the third"),
            ("12:00 pm", "twelve p m"),
            ("1 h", "one hour"),
            ("2 h", "two hours"),
            ("at 14:30", "at fourteen thirty"),
        ];
        for (input, want) in cases {
            assert_eq!(normalize(input, "en", &lex), want, "{input}");
        }
    }

    #[test]
    fn other_languages_keep_numbers_and_get_lexicon_units() {
        let lex = Lexicon::with_entries("fr", [("units".into(), "km".into(), "kilomètres".into())]);
        assert_eq!(normalize("5 km", "fr", &lex), "5 kilomètres");
    }

    #[test]
    fn odd_input_never_panics() {
        let lex = Lexicon::builtin("de");
        for text in [
            "9999999999999999999999999999",
            "+",
            "-",
            "€",
            "1.",
            "1,",
            "12:",
            "12:7",
            "31.13.",
            "00.00.0000",
            "99:99",
            "2026-13-40",
            "1-",
            "1–2–3",
            "+1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9",
            "5 €€",
            "½ 3⁄4 ٣",
        ] {
            let _ = normalize(text, "de", &lex);
            let _ = normalize(text, "en", &Lexicon::builtin("en"));
        }
    }
}
