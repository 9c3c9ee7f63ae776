//! The streaming sentence splitter: fed LLM tokens one by one, it emits each sentence as soon as it is
//! certainly complete, so speech synthesis can start while the model is still writing.
//!
//! Rules (also in `docs/decisions.md`):
//! - A sentence ends at `.`, `!` or `?` (with any closing quotes or brackets after it) followed by
//!   whitespace, and at a line break.
//! - After a plain word (letters only, two or more, with a vowel; not a title or lexicon abbreviation) and
//!   outside quotes and brackets, the mark ends the sentence at once, whatever follows, so it is spoken a
//!   token earlier; the rest of an ellipsis or of `?!` is dropped from the next sentence. A bare domain name
//!   (`example.com`) is therefore split after its first part. Everywhere else the decision waits until the
//!   next non-space character is known.
//! - A `.` is no end when the next word starts lower-case, after a single letter (`z. B.`, initials), after a
//!   lexicon abbreviation or a title (`Dr.`, `e.g.`), in an ellipsis (`...`, `…`), after a German number
//!   (ordinals: `22. November`, `am 3. Mai`) or an English number followed by a month name.
//! - `3.5`, URLs and `z.B.` never split, since no whitespace follows their dots.
//! - Nothing splits inside quotes (`„…“`, `“…”`, `"…"`, `«…»`).
//! - A sentence longer than `max_len` characters is cut at its last clause boundary (`,` `;` `:` or a dash),
//!   else at its last space; the rest is flushed at the end of the stream.
//! - With `first_clause_words` (speech only), the answer's first sentence is cut at its first `,` `;` or `:`
//!   followed by a space once that many words precede it, so the first audio does not wait for a long
//!   sentence to end ("Paris is the capital of France," is spoken while the model writes the rest).
//!
//! Example: tokens `["Es ist 22", ". November. Wi", "e geht's?"]` give `"Es ist 22. November."` with the
//! second token and `"Wie geht's?"` with the third.

use crate::text::lexicon::{Lexicon, Section};

/// Default length at which a long sentence is cut at a clause boundary.
pub const DEFAULT_MAX_LEN: usize = 200;

const TITLES: &[&str] = &[
    "Dr", "Mr", "Mrs", "Ms", "Prof", "St", "Nr", "Hr", "Fr", "vs", "ca", "bzw", "usw", "etc",
];
const MONTHS: &[&str] = &[
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
    "Jan",
    "Feb",
    "Mar",
    "Apr",
    "Jun",
    "Jul",
    "Aug",
    "Sep",
    "Sept",
    "Oct",
    "Nov",
    "Dec",
];
/// Vowels of the Latin alphabets: a word without any is an abbreviation (`bzw`, `Mr`) or a sound (`Hmm`).
const VOWELS: &str = "aeiouyäöüàáâãåèéêëìíîïòóôõøùúûæœ";
const CLOSERS: &[char] = &['"', '\'', ')', ']', '”', '’', '»', '“'];

/// Splits a stream of text into sentences.
pub struct SentenceSplitter {
    german: bool,
    max_len: usize,
    abbreviations: Vec<String>,
    buf: String,
    /// Byte offset where the current sentence starts (emitted text before it is dropped once per push).
    start: usize,
    /// Byte offset up to which `buf` has been scanned.
    scan: usize,
    /// Characters of the current sentence up to `scan`.
    chars: usize,
    /// Open quotes up to `scan`.
    quotes: Vec<char>,
    /// Words before a clause boundary that cut the first sentence (0: never).
    first_clause_words: usize,
    /// Nothing was emitted yet: the current sentence is the first.
    first: bool,
}

/// What a `.`, `!` or `?` at some position turned out to be.
enum Verdict {
    End(usize),
    NoEnd,
    NeedMore,
}

impl SentenceSplitter {
    /// A splitter for a language, cutting long sentences after `max_len` characters.
    pub fn new(lang: &str, max_len: usize, lexicon: &Lexicon) -> Self {
        let abbreviations = lexicon
            .entries(Section::Abbreviations)
            .filter_map(|(key, _, _)| key.strip_suffix('.'))
            .map(|k| k.rsplit([' ', '.']).next().unwrap_or(k).to_string())
            .collect();
        Self {
            german: lang == "de",
            max_len: max_len.max(20),
            abbreviations,
            buf: String::new(),
            start: 0,
            scan: 0,
            chars: 0,
            quotes: Vec::new(),
            first_clause_words: 0,
            first: true,
        }
    }

    /// Cuts the first sentence at its first clause boundary after `words` words (0: never).
    pub fn first_clause(mut self, words: usize) -> Self {
        self.first_clause_words = words;
        self
    }

    /// Adds a token and returns the sentences it completed.
    pub fn push(&mut self, token: &str) -> Vec<String> {
        self.buf.push_str(token);
        self.run(false)
    }

    /// Bytes pushed that no sentence returned yet.
    pub fn pending(&self) -> usize {
        self.buf.len()
    }

    /// Ends the stream: returns the remaining complete sentences and the rest.
    pub fn finish(&mut self) -> Vec<String> {
        let mut out = self.run(true);
        out.extend(nonblank(&self.buf));
        self.buf.clear();
        self.scan = 0;
        self.chars = 0;
        out
    }

    /// Emits `buf[start..end]`; the next sentence starts at `end`.
    fn emit(&mut self, end: usize, out: &mut Vec<String>) {
        out.extend(nonblank(&self.buf[self.start..end]));
        self.first &= out.is_empty();
        self.start = end;
        self.scan = end;
        self.chars = 0;
    }

    fn run(&mut self, at_end: bool) -> Vec<String> {
        let mut out = Vec::new();
        self.scan_sentences(at_end, &mut out);
        // Drop emitted text once per call, not once per sentence, so a large input stays linear.
        self.buf.drain(..self.start);
        self.scan -= self.start;
        self.start = 0;
        out
    }

    fn scan_sentences(&mut self, at_end: bool, out: &mut Vec<String>) {
        while let Some(c) = self.buf[self.scan..].chars().next() {
            let at = self.scan;
            match c {
                '\n' => {
                    self.emit(at + 1, out);
                    self.quotes.clear();
                    continue;
                }
                '.' | '!' | '?' if self.quotes.is_empty() => match self.ending(at, c, at_end) {
                    Verdict::End(end) => {
                        self.emit(end, out);
                        continue;
                    }
                    Verdict::NeedMore => return,
                    Verdict::NoEnd => {}
                },
                ',' | ';' | ':' if self.first && self.first_clause_words > 0 && self.quotes.is_empty() => {
                    match self.buf[at + c.len_utf8()..].chars().next() {
                        // Whether a space follows (`3,5` is a number) is known with the next token.
                        None if !at_end => return,
                        Some(next)
                            if next.is_whitespace()
                                && self.buf[self.start..at].split_whitespace().count() >= self.first_clause_words =>
                        {
                            self.emit(at + c.len_utf8(), out);
                            continue;
                        }
                        _ => {}
                    }
                }
                _ => {
                    let before = self.quotes.clone();
                    self.track_quote(c);
                    // A closing quote right after . ! ? may end the sentence it closes.
                    let closed = !before.is_empty() && self.quotes.is_empty();
                    let punct = self.buf[..at]
                        .chars()
                        .next_back()
                        .filter(|p| matches!(p, '.' | '!' | '?'));
                    if let (true, Some(p)) = (closed, punct) {
                        match self.verdict(at - p.len_utf8(), p, at_end) {
                            Verdict::End(end) => {
                                self.emit(end, out);
                                continue;
                            }
                            Verdict::NeedMore => {
                                self.quotes = before;
                                return;
                            }
                            Verdict::NoEnd => {}
                        }
                    }
                }
            }
            self.scan += c.len_utf8();
            self.chars += 1;
            if self.chars > self.max_len {
                // Text without any space (a pathological token run) is cut hard, so scanning stays linear.
                let scanned = self.scan;
                let cut = clause_cut(&self.buf[self.start..scanned]).map_or(scanned, |rel| self.start + rel);
                let rest_chars = self.buf[cut..scanned].chars().count();
                self.emit(cut, out);
                self.scan = scanned;
                self.chars = rest_chars;
            }
        }
    }

    fn track_quote(&mut self, c: char) {
        let open = self.quotes.last().copied();
        match (c, open) {
            ('„', _) | ('«', None) => self.quotes.push(c),
            ('“', Some('„')) | ('”', Some('“')) | ('»', Some('«')) | ('"', Some('"')) => {
                self.quotes.pop();
            }
            ('“' | '"', _) => self.quotes.push(c),
            _ => {}
        }
    }

    /// Decides about `.`, `!` or `?` outside quotes: at once when settled, else by what follows.
    fn ending(&self, at: usize, c: char, at_end: bool) -> Verdict {
        if self.settled(at, c) {
            Verdict::End(at + c.len_utf8())
        } else {
            self.verdict(at, c, at_end)
        }
    }

    /// Whether the punctuation `c` at byte `at` ends its sentence whatever follows, so the sentence can be
    /// spoken at once instead of a token later: the word before it is a plain word (letters, at least two and
    /// a vowel among them: no number, initial, URL or consonant cluster such as `bzw`), not a title or an
    /// abbreviation of the lexicon, and no bracket is open. Only the sentence itself is looked at, so the
    /// answer is the same however the text was chunked.
    fn settled(&self, at: usize, c: char) -> bool {
        let sentence = &self.buf[self.start..at];
        if sentence.matches(['(', '[']).count() > sentence.matches([')', ']']).count() {
            return false;
        }
        let word = sentence.rsplit(char::is_whitespace).next().unwrap_or_default();
        let word = word.trim_start_matches(['(', '[', '"', '„', '“', '«', '\'']);
        let plain = word
            .chars()
            .all(|ch| ch.is_alphabetic() || matches!(ch, '-' | '\'' | '’'))
            && word.chars().filter(|ch| ch.is_alphabetic()).count() >= 2
            && word.chars().flat_map(char::to_lowercase).any(|ch| VOWELS.contains(ch));
        plain && (c != '.' || !self.no_end_after(word))
    }

    /// Decides whether the punctuation `c` at byte `at` ends a sentence, looking at what follows.
    fn verdict(&self, at: usize, c: char, at_end: bool) -> Verdict {
        let after = &self.buf[at + c.len_utf8()..];
        let closers = after.len() - after.trim_start_matches(CLOSERS).len();
        let rest = &after[closers..];
        let end = at + c.len_utf8() + closers;
        let Some(first) = rest.chars().next() else {
            return if at_end { Verdict::End(end) } else { Verdict::NeedMore };
        };
        if !first.is_whitespace() {
            return Verdict::NoEnd;
        }
        let next_word = rest.trim_start();
        let Some(next) = next_word.chars().next() else {
            return if at_end { Verdict::End(end) } else { Verdict::NeedMore };
        };
        if c != '.' {
            return Verdict::End(end);
        }
        let word = self.buf[..at].rsplit(char::is_whitespace).next().unwrap_or_default();
        let word = word.trim_start_matches(['(', '"', '„', '“', '\'']);
        if next.is_lowercase() || self.no_end_after(word) {
            return Verdict::NoEnd;
        }
        if word.chars().all(|ch| ch.is_ascii_digit()) && !word.is_empty() {
            let next_token: String = next_word.chars().take_while(|ch| ch.is_alphabetic()).collect();
            if self.german {
                return Verdict::NoEnd;
            }
            if next_token.len() == next_word.len() && !at_end {
                return Verdict::NeedMore;
            }
            if MONTHS.contains(&next_token.as_str()) {
                return Verdict::NoEnd;
            }
        }
        Verdict::End(end)
    }

    fn no_end_after(&self, word: &str) -> bool {
        let letters = word.chars().filter(|ch| ch.is_alphabetic()).count();
        let last = word.rsplit('.').next().unwrap_or(word);
        word.ends_with('.')
            || word.ends_with('…')
            || (letters == 1 && word.chars().count() == 1)
            || TITLES.contains(&last)
            || self.abbreviations.iter().any(|a| a == last || a == word)
    }
}

/// The text before the last clause boundary (`, ` `; ` `: ` ` – ` ` - `), else before the last space.
fn clause_cut(text: &str) -> Option<usize> {
    let clause = [", ", "; ", ": ", " – ", " — ", " - "]
        .iter()
        .filter_map(|sep| text.rfind(sep).map(|i| i + sep.len()))
        .max();
    clause.or_else(|| text.rfind(' ').map(|i| i + 1)).filter(|&i| i > 0)
}

/// The sentence without surrounding space and without the rest of a `...`, `?!` or `!!!` whose first mark
/// ended the sentence before it.
fn nonblank(s: &str) -> Option<String> {
    let t = s
        .trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '.' | '!' | '?'))
        .trim_end();
    (!t.is_empty()).then(|| t.to_string())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn split(lang: &str, text: &str) -> Vec<String> {
        let mut s = SentenceSplitter::new(lang, DEFAULT_MAX_LEN, &Lexicon::builtin(lang));
        let mut out = s.push(text);
        out.extend(s.finish());
        out
    }

    /// The sentences of `text` pushed in pieces of the given sizes (cycled), as an LLM streams tokens.
    fn split_chunked(lang: &str, text: &str, sizes: &[usize]) -> Vec<String> {
        let mut s = SentenceSplitter::new(lang, DEFAULT_MAX_LEN, &Lexicon::builtin(lang));
        let mut out = Vec::new();
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        for n in sizes.iter().cycle() {
            if i >= chars.len() {
                break;
            }
            let token: String = chars[i..(i + n).min(chars.len())].iter().collect();
            out.extend(s.push(&token));
            i += n;
        }
        out.extend(s.finish());
        out
    }

    #[test]
    fn the_first_sentence_is_cut_at_its_first_clause_after_enough_words_and_no_other_is() {
        let lexicon = Lexicon::builtin("en");
        let mut s = SentenceSplitter::new("en", DEFAULT_MAX_LEN, &lexicon).first_clause(4);
        let mut out = Vec::new();
        for token in [
            "Yes, Paris is",
            " the capital of France",
            ",",
            " and it is",
            " large, old. It has 3,5",
            " million, more or less.",
        ] {
            out.push(s.push(token));
        }
        out.push(s.finish());
        assert_eq!(
            out,
            [
                vec![],
                vec![],
                vec![],
                // The comma is a boundary once a space follows it; "Yes," had too few words before it.
                vec!["Yes, Paris is the capital of France,".to_string()],
                vec!["and it is large, old.".to_string()],
                vec!["It has 3,5 million, more or less.".to_string()],
                vec![],
            ]
        );
        let mut off = SentenceSplitter::new("en", DEFAULT_MAX_LEN, &lexicon);
        assert_eq!(
            off.push("Yes, Paris is the capital of France, and it is large. "),
            ["Yes, Paris is the capital of France, and it is large."]
        );
    }

    /// Text of the characters that matter to the splitter: ends, quotes, brackets, digits, odd Unicode.
    fn text() -> impl Strategy<Value = String> {
        let alphabet: Vec<char> = "aZ 9.!?\n\"„“”«»()…,;:-é😀ß\u{301}\u{202e}".chars().collect();
        prop::collection::vec(prop::sample::select(alphabet), 0..300).prop_map(String::from_iter)
    }

    /// Token sizes of 1 to 6 characters.
    fn sizes() -> impl Strategy<Value = Vec<usize>> {
        prop::collection::vec(1usize..=6, 1..20)
    }

    #[test]
    fn sentences_end_where_a_listener_expects_and_nowhere_else() {
        let cases: &[(&str, &str, &[&str])] = &[
            ("de", "Hallo. Wie geht es?", &["Hallo.", "Wie geht es?"]),
            ("de", "Das ist z. B. gut. Ja!", &["Das ist z. B. gut.", "Ja!"]),
            ("de", "Das ist z.B. gut. Ja!", &["Das ist z.B. gut.", "Ja!"]),
            (
                "de",
                "Heute ist der 22. November. Schön.",
                &["Heute ist der 22. November.", "Schön."],
            ),
            (
                "de",
                "Am 3. Mai kommt Dr. Weber. Gut.",
                &["Am 3. Mai kommt Dr. Weber.", "Gut."],
            ),
            ("de", "Pi ist 3.14 etwa. Genau.", &["Pi ist 3.14 etwa.", "Genau."]),
            (
                "de",
                "Er sagte: „Komm. Jetzt.“ Dann ging er.",
                &["Er sagte: „Komm. Jetzt.“", "Dann ging er."],
            ),
            (
                "de",
                "Siehe https://example.org/a.b. Danach.",
                &["Siehe https://example.org/a.b.", "Danach."],
            ),
            ("de", "Warte… Ich denke nach. Ok.", &["Warte… Ich denke nach.", "Ok."]),
            (
                "en",
                "It costs $5.99 today. Buy it!",
                &["It costs $5.99 today.", "Buy it!"],
            ),
            ("en", "Use e.g. salt. Then stir.", &["Use e.g. salt.", "Then stir."]),
            (
                "en",
                "On 22. November we meet. Fine.",
                &["On 22. November we meet.", "Fine."],
            ),
            (
                "en",
                "The answer is 42. Next question?",
                &["The answer is 42.", "Next question?"],
            ),
            (
                "en",
                "He said \"Stop. Now.\" Then left.",
                &["He said \"Stop. Now.\"", "Then left."],
            ),
            ("en", "- first item\n- second item", &["- first item", "- second item"]),
            ("en", "(This is it.) Yes.", &["(This is it.)", "Yes."]),
            ("en", "No end here", &["No end here"]),
            ("en", "   ", &[]),
        ];
        for (lang, text, want) in cases {
            assert_eq!(split(lang, text), *want, "{text}");
        }
    }

    #[test]
    fn a_sentence_is_emitted_at_its_period_when_the_word_before_is_plain() {
        let mut s = SentenceSplitter::new("en", DEFAULT_MAX_LEN, &Lexicon::builtin("en"));
        assert_eq!(s.push("Hello there."), ["Hello there."], "no wait for the next token");
        assert_eq!(
            s.push(".. Really?"),
            ["Really?"],
            "the rest of an ellipsis is not a sentence"
        );
        assert_eq!(s.push("! Ok"), Vec::<String>::new());
        assert_eq!(s.finish(), ["Ok"]);
    }

    #[test]
    fn an_ambiguous_period_waits_for_the_next_word() {
        let cases: &[(&str, &str, &str, &[&str])] = &[
            ("en", "I saw Dr.", " Weber.", &["I saw Dr. Weber."]),
            ("de", "Am 3.", " Mai.", &["Am 3. Mai."]),
            ("en", "Page 3.", " Next.", &["Page 3.", "Next."]),
            ("de", "Das ist z.", " B. gut.", &["Das ist z. B. gut."]),
            ("de", "Er kommt bzw.", " sie kommt.", &["Er kommt bzw. sie kommt."]),
            ("en", "Call J.", " Smith.", &["Call J. Smith."]),
            ("en", "(See the note.", ") Yes.", &["(See the note.)", "Yes."]),
        ];
        for (lang, first, second, want) in cases {
            let mut s = SentenceSplitter::new(lang, DEFAULT_MAX_LEN, &Lexicon::builtin(lang));
            assert!(s.push(first).is_empty(), "{first} waits");
            let mut out = s.push(second);
            out.extend(s.finish());
            assert_eq!(out, *want, "{first}{second}");
        }
    }

    #[test]
    fn a_long_sentence_is_cut_at_a_clause_boundary() {
        let mut s = SentenceSplitter::new("en", 40, &Lexicon::builtin("en"));
        let out = s.push("This is a long sentence without an end, which goes on and on and on");
        assert_eq!(out, ["This is a long sentence without an end,"]);
        assert_eq!(s.finish(), ["which goes on and on and on"]);
    }

    proptest! {
        /// However the tokens fall, the sentences are the same, and none is empty or padded with spaces.
        #[test]
        fn chunking_never_changes_the_sentences(text in text(), sizes in sizes(), english in any::<bool>()) {
            let lang = if english { "en" } else { "de" };
            let whole = split(lang, &text);
            prop_assert_eq!(split_chunked(lang, &text, &sizes), whole.clone());
            for sentence in &whole {
                prop_assert!(!sentence.is_empty() && sentence.trim() == sentence, "{:?}", sentence);
            }
        }
    }

    #[test]
    fn token_by_token_gives_the_same_sentences_as_all_at_once() {
        let texts = [
            "Es ist 22. November 2026. Heute scheint z. B. die Sonne! Wirklich? Ja. „Gut. Sehr gut.“ Ende",
            "Dr. Smith said: \"Call me.\" I did. It was 3.5 km away... Then (finally) home. e.g. this. OK",
            "Eins, zwei, drei, vier, fünf, sechs, sieben, acht, neun, zehn, elf, zwölf, dreizehn, vierzehn, \
             fünfzehn, sechzehn, siebzehn, achtzehn, neunzehn, zwanzig, einundzwanzig, zweiundzwanzig. Fertig.",
            "- Punkt eins\n- Punkt zwei\n\nAbsatz. On 3. May it rains. Über 42. Under 7.",
        ];
        for text in texts {
            for lang in ["de", "en"] {
                let whole = split(lang, text);
                proptest!(|(sizes in sizes())| {
                    prop_assert_eq!(split_chunked(lang, text, &sizes), whole.clone());
                });
            }
        }
    }
}
