//! The cleaner: removes what must not be spoken.
//!
//! Markdown (headings, emphasis, list markers, tables, block quotes, code fences with their content), links
//! keep their text, emoji, bare URLs (citations travel separately), citation markers such as `[1]`, HTML tags
//! and stray symbols; whitespace is collapsed, lines are kept as sentence boundaries.
//!
//! Example: `"## Tipps\n- **Viel** trinken [1] 💧 https://x.org"` → `"Tipps\nViel trinken"`.
//!
//! Every step only removes or replaces text, never lengthens it, and [`clean`] repeats the steps until the
//! text no longer changes, so `clean(clean(x)) == clean(x)`.

/// Most passes [`clean`] makes; real text settles after one or two.
const MAX_PASSES: usize = 16;

/// Returns the text a listener should hear.
pub fn clean(text: &str) -> String {
    let mut current = pass(text);
    if is_settled(&current) {
        return current;
    }
    for _ in 1..MAX_PASSES {
        let next = pass(&current);
        if next == current {
            break;
        }
        current = next;
    }
    current
}

/// True when a pass could not change `text`, so the confirming second pass can be skipped (most sentences).
fn is_settled(text: &str) -> bool {
    let ci = |needle: &[u8]| {
        text.as_bytes()
            .windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle))
    };
    if ci(b"http") || ci(b"www.") {
        return false;
    }
    text.split('\n').all(|line| {
        !line.is_empty()
            && line == line.trim()
            && !is_table_rule(line)
            && block_prefix(line).len() == line.len()
            && !line.contains("  ")
            && ![" .", " ,", " !", " ?", " ;", " :"].iter().any(|p| line.contains(p))
            && !line.chars().any(|c| (c.is_whitespace() && c != ' ') || is_unspoken(c))
    })
}

fn pass(text: &str) -> String {
    let mut lines = Vec::new();
    let mut in_fence = false;
    for raw in text.lines() {
        let line = raw.trim();
        if line.starts_with("```") || line.starts_with("~~~") {
            // An unterminated fence drops the rest: code is never read out.
            in_fence = !in_fence;
            continue;
        }
        if in_fence || is_table_rule(line) {
            continue;
        }
        let spoken = collapse(&inline(block_prefix(line)));
        if !spoken.is_empty() {
            lines.push(spoken);
        }
    }
    lines.join("\n")
}

/// `|---|:--:|` rows of a table.
fn is_table_rule(line: &str) -> bool {
    line.contains('-') && line.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ' | '+'))
}

/// Strips heading marks, block-quote marks and list markers at the start of a line.
fn block_prefix(line: &str) -> &str {
    let mut rest = line.trim_start_matches(['#', '>']).trim_start();
    for marker in ["- ", "* ", "+ ", "• "] {
        if let Some(r) = rest.strip_prefix(marker) {
            rest = r;
        }
    }
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if (1..=3).contains(&digits) {
        let after = &rest[digits..];
        if let Some(r) = after.strip_prefix(". ").or_else(|| after.strip_prefix(") ")) {
            rest = r;
        }
    }
    rest
}

/// Inline markup: links, images, code spans, citations, URLs, tags, emphasis, emoji, stray symbols.
fn inline(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '!' && chars.get(i + 1) == Some(&'[') {
            i += 1;
            continue;
        }
        if c == '[' {
            if let Some(end) = citation_end(&chars, i) {
                i = end;
                continue;
            }
            if let Some((text_end, link_end)) = link_ends(&chars, i) {
                out.extend(&chars[i + 1..text_end]);
                i = link_end;
                continue;
            }
        }
        if c == '<'
            && chars.get(i + 1).is_some_and(|n| n.is_ascii_alphabetic() || *n == '/')
            && let Some(len) = chars[i..].iter().position(|&ch| ch == '>').filter(|&n| n < 200)
        {
            i += len + 1;
            continue;
        }
        if starts_url(&chars[i..]) && (i == 0 || !chars[i - 1].is_alphanumeric()) {
            let mut end = i;
            while end < chars.len() && !chars[end].is_whitespace() {
                end += 1;
            }
            // Punctuation right after a URL belongs to the sentence, not to the address.
            while end > i && matches!(chars[end - 1], '.' | ',' | '!' | '?' | ';' | ':' | ')') {
                end -= 1;
            }
            i = end.max(i + 1);
            continue;
        }
        if c == '_' && is_word(chars.get(i.wrapping_sub(1))) && is_word(chars.get(i + 1)) {
            out.push(' ');
        } else if !is_unspoken(c) {
            out.push(c);
        }
        i += 1;
    }
    out
}

fn is_word(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric())
}

/// `[1]`, `[12]`, `[^3]`: the end index after the marker.
fn citation_end(chars: &[char], start: usize) -> Option<usize> {
    let mut j = start + 1;
    if chars.get(j) == Some(&'^') {
        j += 1;
    }
    let digits_from = j;
    while chars.get(j).is_some_and(char::is_ascii_alphanumeric) && j - digits_from < 4 {
        j += 1;
    }
    let numeric = chars[digits_from..j].iter().all(char::is_ascii_digit) || chars.get(start + 1) == Some(&'^');
    (j > digits_from && numeric && chars.get(j) == Some(&']')).then_some(j + 1)
}

/// `[text](url)`: the index of `]` and the index after `)`.
fn link_ends(chars: &[char], start: usize) -> Option<(usize, usize)> {
    let close = start + chars[start..].iter().take(500).position(|&c| c == ']')?;
    if chars.get(close + 1) != Some(&'(') {
        return None;
    }
    let paren = close + 1 + chars[close + 1..].iter().take(2000).position(|&c| c == ')')?;
    Some((close, paren + 1))
}

fn starts_url(chars: &[char]) -> bool {
    // Called for every character: compare in place instead of building a string.
    let starts = |prefix: &str| {
        prefix.len() <= chars.len() && prefix.chars().zip(chars).all(|(p, c)| c.to_ascii_lowercase() == p)
    };
    matches!(chars.first(), Some('h' | 'H' | 'w' | 'W')) && (starts("http://") || starts("https://") || starts("www."))
}

/// Characters never spoken: markup symbols, emoji and their joiners, selectors and flags.
fn is_unspoken(c: char) -> bool {
    matches!(
        c,
        '*' | '`' | '#' | '|' | '~' | '^' | '\\' | '{' | '}' | '<' | '>' | '[' | ']' | '_'
    ) || matches!(c as u32,
            0x1F000..=0x1FAFF   // pictographs, emoticons, transport, symbols, flags
            | 0x2600..=0x27BF   // miscellaneous symbols and dingbats
            | 0x2B00..=0x2BFF   // arrows and stars such as ⭐
            | 0xFE00..=0xFE0F   // variation selectors
            | 0x200D            // zero-width joiner
            | 0x20E3            // combining keycap
            | 0xE0000..=0xE007F) // tag characters
}

/// Collapses runs of whitespace to one space, drops spaces before punctuation (left where a citation or
/// emoji was removed) and trims.
fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut pending_space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            pending_space = !out.is_empty();
            continue;
        }
        if pending_space && !matches!(c, '.' | ',' | '!' | '?' | ';' | ':') {
            out.push(' ');
        }
        pending_space = false;
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn markup_and_unspoken_things_are_removed() {
        let cases = [
            ("## Tipps für heute", "Tipps für heute"),
            ("**Wichtig:** viel _trinken_", "Wichtig: viel trinken"),
            ("- erstens\n- zweitens", "erstens\nzweitens"),
            ("1. Schritt eins\n2) Schritt zwei", "Schritt eins\nSchritt zwei"),
            (
                "Siehe [die Seite](https://example.org/x) dazu.",
                "Siehe die Seite dazu.",
            ),
            ("Quelle [1] und [2][3] sowie [^4].", "Quelle und sowie."),
            (
                "Mehr unter https://example.org/a?b=c und www.test.de heute",
                "Mehr unter und heute",
            ),
            ("Gute Nacht 🌙✨ 👨‍👩‍👧", "Gute Nacht"),
            ("Code:\n```python\nprint(1)\n```\nFertig", "Code:\nFertig"),
            ("Start\n```\nnever closed\nstill code", "Start"),
            ("| Stadt | Grad |\n|---|---|\n| Bonn | 12 |", "Stadt Grad\nBonn 12"),
            ("> Zitat hier", "Zitat hier"),
            ("Nimm `ls -la` dafür", "Nimm ls -la dafür"),
            ("a <b>fett</b> b", "a fett b"),
            ("wenn a < b und c > d", "wenn a b und c d"),
            ("snake_case_name", "snake case name"),
            ("![Bild](x.png) Text", "Bild Text"),
            ("   viel    Platz   ", "viel Platz"),
            ("Preis: 5 € (ca. 3 $)", "Preis: 5 € (ca. 3 $)"),
        ];
        for (input, want) in cases {
            assert_eq!(clean(input), want, "{input:?}");
        }
    }

    proptest! {
        /// Markup, links and emoji in any mix: cleaned text is clean.
        #[test]
        fn cleaning_twice_changes_nothing(chars in prop::collection::vec(
            prop::sample::select("ab 1[]()*_`#|~^<>!-.:\n hxtps:/w 😀\u{200d}\u{fe0f}é".chars().collect::<Vec<_>>()),
            0..60,
        )) {
            let once = clean(&String::from_iter(chars));
            prop_assert_eq!(clean(&once), once);
        }
    }

    #[test]
    fn tricky_markup_is_cleaned_once_and_for_all() {
        for tricky in ["h*ttp://x.org", "[[1]]", "[a](b)(c)", "```\n```", "*[1]*", "w*ww.x"] {
            let once = clean(tricky);
            assert_eq!(clean(&once), once, "{tricky:?}");
        }
    }
}
