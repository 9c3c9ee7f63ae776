//! The spoken-language adapter: written style becomes spoken style.
//!
//! List lines become sentences, parentheses become commas, a slash between words becomes "oder"/"or", and
//! lexicon abbreviations are expanded. Example (de): `"Obst (z. B. Äpfel/Birnen)\nGemüse"` →
//! `"Obst, zum Beispiel Äpfel oder Birnen. Gemüse."`.

use super::lexicon::{Lexicon, Section};

/// Rewrites cleaned text in spoken style.
pub fn adapt(text: &str, lang: &str, lex: &Lexicon) -> String {
    let sentences: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|line| {
            let mut line = slashes(&parentheses(&abbreviations(line, lex)), lang, lex);
            if line.ends_with(|c: char| c.is_alphanumeric() || c == ')' || c == '"') {
                line.push('.');
            }
            line
        })
        .collect();
    sentences.join(" ")
}

/// Expands abbreviations, longest first, where they stand as words.
fn abbreviations(line: &str, lex: &Lexicon) -> String {
    let mut keys: Vec<(&str, &str)> = lex.entries(Section::Abbreviations).map(|(k, v, _)| (k, v)).collect();
    if !line.contains('.') && keys.iter().all(|(k, _)| k.contains('.')) {
        return line.to_string();
    }
    keys.sort_by_key(|(k, _)| std::cmp::Reverse(k.len()));
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    'scan: while let Some(c) = rest.chars().next() {
        let at_word_start = out.chars().next_back().is_none_or(|p| !p.is_alphanumeric());
        if at_word_start {
            let first = rest.as_bytes()[0];
            for (key, value) in keys.iter().filter(|(k, _)| k.as_bytes().first() == Some(&first)) {
                if let Some(after) = rest.strip_prefix(key)
                    && after.chars().next().is_none_or(|n| !n.is_alphanumeric())
                {
                    out.push_str(value);
                    rest = after;
                    continue 'scan;
                }
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// `a (b) c` → `a, b, c`; commas are not doubled and none is left before a period.
fn parentheses(line: &str) -> String {
    if !line.contains(['(', ')']) {
        return line.to_string();
    }
    let replaced = line
        .replace(" (", ", ")
        .replace('(', ", ")
        .replace(") ", ", ")
        .replace(')', ",");
    let mut out = replaced.replace(",,", ",").replace(", ,", ",");
    for punct in ['.', ':', ';', '!', '?'] {
        out = out
            .replace(&format!(",{punct}"), &punct.to_string())
            .replace(&format!(", {punct}"), &punct.to_string());
    }
    out = out.trim_start_matches([',', ' ']).to_string();
    while out.ends_with([',', ' ']) {
        out.pop();
    }
    out
}

/// `Äpfel/Birnen` → `Äpfel oder Birnen`; units such as `km/h` and dates or numbers stay.
fn slashes(line: &str, lang: &str, lex: &Lexicon) -> String {
    if !line.contains('/') {
        return line.to_string();
    }
    let or = match lang {
        "de" => "oder",
        "fr" => "ou",
        "es" => "o",
        "it" => "o",
        "nl" => "of",
        "pl" => "lub",
        "pt" => "ou",
        _ => "or",
    };
    let words: Vec<String> = line
        .split(' ')
        .map(|word| {
            let core = word.trim_end_matches(['.', ',', '!', '?', ':', ';']);
            let is_unit = lex.get(Section::Units, core).is_some();
            match core.split_once('/') {
                Some((a, b))
                    if !is_unit
                        && a.chars().all(char::is_alphabetic)
                        && b.chars().all(char::is_alphabetic)
                        && !a.is_empty()
                        && !b.is_empty() =>
                {
                    let tail = &word[core.len()..];
                    if b == or {
                        format!("{a} {or}{tail}")
                    } else {
                        format!("{a} {or} {b}{tail}")
                    }
                }
                _ => word.to_string(),
            }
        })
        .collect();
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_style_becomes_spoken_style() {
        let de = Lexicon::builtin("de");
        let en = Lexicon::builtin("en");
        let cases = [
            (
                "de",
                "Obst (z. B. Äpfel/Birnen)\nGemüse",
                "Obst, zum Beispiel Äpfel oder Birnen. Gemüse.",
            ),
            ("de", "Das geht z.B. so usw.", "Das geht zum Beispiel so und so weiter."),
            ("de", "Brot bzw. Brötchen", "Brot beziehungsweise Brötchen."),
            ("de", "Fahre 50 km/h.", "Fahre 50 km/h."),
            ("de", "Tee und/oder Kaffee", "Tee und oder Kaffee."),
            ("de", "Milch (fettarm).", "Milch, fettarm."),
            (
                "de",
                "Das ist ca. 5 Minuten entfernt.",
                "Das ist circa 5 Minuten entfernt.",
            ),
            ("de", "Am 22.11. um 10/11 Uhr", "Am 22.11. um 10/11 Uhr."),
            ("en", "Fruit, e.g. apples/pears", "Fruit, for example apples or pears."),
            ("en", "Call Dr. Who etc.", "Call Doctor Who et cetera."),
            ("en", "First step\nSecond step!", "First step. Second step!"),
            ("en", "Tip (optional): rest.", "Tip, optional: rest."),
            ("en", "the vs. match", "the versus match."),
            ("en", "No change here.", "No change here."),
        ];
        for (lang, input, want) in cases {
            let lex = if lang == "de" { &de } else { &en };
            assert_eq!(adapt(input, lang, lex), want, "{input}");
        }
    }
}
