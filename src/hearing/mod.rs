//! What the gateway hears for care, as data: `locales/<lang>/care.sentences`, beside the phrasebook, holds the
//! sentences of each request and answer as [templates](grammar). The shipped files are built in; the
//! phrasebook's folder (`LOCALES_DIR`, or `locales` beside the binary) adds sentences to a language, or a
//! language's hearing as a new folder. A file's line:
//!
//! ```text
//! # a comment
//! <polite> = (kannst du|können sie) [bitte]     a rule, usable in the lines after it
//! set: <polite> mich {when} an {text} erinnern  an intent and one of its sentences
//! ```
//!
//! The intents are [`Intent`]'s; the slots are read by the code ([`crate::care::spoken`]): `{when}` a time,
//! `{clock}` a bare clock time, `{span}` a length of time, `{text}` what to be reminded of, `{todo}` the same
//! as an infinitive with "zu". An utterance is an intent's when one of its
//! sentences is the whole utterance.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::OnceLock;

pub mod grammar;
pub mod times;

use grammar::{Filled, Slots, Template, normal};
use times::{Entry, Lexicon};

/// What a sentence says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intent {
    /// Set a reminder: `{text}` at `{when}` (either may be missing: then it is asked for).
    Set,
    /// Set an alarm clock: a reminder at `{when}` whose text is the phrasebook's `care-alarm-text`.
    Alarm,
    /// Set a timer of `{span}` (missing: asked for).
    Timer,
    /// Which reminders there are.
    List,
    /// Cancel the reminder of `{text}` (none: the next one).
    Cancel,
    /// Cancel the timer.
    CancelTimer,
    /// Cancel the alarm clock.
    CancelAlarm,
    /// Yes, done: the answer to a reminder being delivered.
    Yes,
    /// Fine: the answer to the check-in's question.
    Fine,
    /// Not fine.
    NotFine,
    /// A time alone: the answer to "Wann soll ich Sie erinnern?".
    When,
    /// What to be reminded of alone: the answer to "Woran soll ich Sie erinnern?".
    What,
    /// A length alone: the answer to "Wie lange soll der Timer laufen?".
    Length,
}

impl Intent {
    fn named(name: &str) -> Option<Self> {
        Some(match name {
            "set" => Self::Set,
            "alarm" => Self::Alarm,
            "timer" => Self::Timer,
            "list" => Self::List,
            "cancel" => Self::Cancel,
            "cancel-timer" => Self::CancelTimer,
            "cancel-alarm" => Self::CancelAlarm,
            "yes" => Self::Yes,
            "fine" => Self::Fine,
            "not-fine" => Self::NotFine,
            "when" => Self::When,
            "what" => Self::What,
            "length" => Self::Length,
            _ => return None,
        })
    }
}

/// The sentences of one language, in the order of its files.
#[derive(Default)]
pub struct Language {
    sentences: Vec<(Intent, Template)>,
    rules: HashMap<String, Template>,
    /// The words of a time ([`times`]).
    pub lexicon: Lexicon,
}

/// Every language's sentences.
pub struct Hearing {
    languages: BTreeMap<String, Language>,
}

static HEARING: OnceLock<Hearing> = OnceLock::new();

/// Reads the shipped sentences and those of the folder `dir`; done once, at start. A line that does not read
/// is an error naming its file and line, as the phrasebook's are.
pub fn load(dir: Option<&Path>) -> Result<(), String> {
    let hearing = Hearing::read(dir)?;
    HEARING
        .set(hearing)
        .map_err(|_| "the care sentences were read already".to_string())
}

fn hearing() -> &'static Hearing {
    HEARING.get_or_init(|| Hearing::read(None).expect("the shipped care sentences read (tested)"))
}

/// Longest utterance heard, in words: a request is a sentence, and the work stays bounded.
pub const MAX_WORDS: usize = 60;

/// An utterance as its words: as written (for what to be reminded of), and as compared.
pub struct Words {
    pub written: Vec<String>,
    pub normal: Vec<String>,
}

impl Words {
    /// The words of `text`, at most [`MAX_WORDS`].
    pub fn of(text: &str) -> Self {
        let (mut written, mut normal_words) = (Vec::new(), Vec::new());
        for word in text.split_whitespace().flat_map(apart) {
            let n = normal(word);
            if n.is_empty() {
                continue;
            }
            if written.len() == MAX_WORDS {
                break;
            }
            written.push(word.trim_matches(|c: char| !c.is_alphanumeric()).to_string());
            normal_words.push(n);
        }
        Self {
            written,
            normal: normal_words,
        }
    }
}

/// A word as two when it is digits followed by letters ("8pm", "20h"): the number and its mark.
fn apart(word: &str) -> Vec<&str> {
    let letters = word.trim_start_matches(|c: char| c.is_ascii_digit());
    match letters.len() < word.len() && !letters.is_empty() && letters.chars().all(char::is_alphabetic) {
        true => vec![&word[..word.len() - letters.len()], letters],
        false => vec![word],
    }
}

/// The first of `wanted`'s sentences of `language` that is the whole of `words`: its intent and slots.
/// `language`'s own sentences only (a region's, then its base language's): no language hears another's.
pub fn hear(words: &Words, language: &str, wanted: &[Intent], slots: &dyn Slots) -> Option<(Intent, Filled)> {
    own(language)?
        .sentences
        .iter()
        .filter(|(intent, _)| wanted.contains(intent))
        .find_map(|(intent, template)| template.matches(&words.normal, slots).map(|filled| (*intent, filled)))
}

/// The words of `language` (a region's, then its base language's).
pub fn own(language: &str) -> Option<&'static Language> {
    let all = &hearing().languages;
    let base = language.split(['-', '_']).next().unwrap_or(language);
    all.get(language).or_else(|| all.get(base))
}

/// The entries of `list` in `language`'s own files (a region's, then its base language's); none when it has
/// none. Read at start: a phrase is compared as [`Entry::lower`], nothing is copied.
pub fn entries(language: &str, list: &str) -> Option<&'static [Entry]> {
    own(language)?.lexicon.lists.get(list).map(Vec::as_slice)
}

/// The languages whose hearing was read, shipped and added.
pub fn languages() -> Vec<&'static str> {
    hearing().languages.keys().map(String::as_str).collect()
}

impl Hearing {
    fn read(dir: Option<&Path>) -> Result<Self, String> {
        let mut languages: BTreeMap<String, Language> = BTreeMap::new();
        for (lang, file, text) in crate::phrasebook::shipped_sentences() {
            let name = format!("locales/{lang}/{file} (built in)");
            read_file(languages.entry(lang.to_string()).or_default(), &name, text)?;
        }
        if let Some(dir) = dir {
            for (lang, name, _, text) in crate::phrasebook::read_folder(dir, "sentences")? {
                read_file(languages.entry(lang).or_default(), &name, &text)?;
            }
        }
        Ok(Self { languages })
    }
}

/// Reads one file's lines into `language`.
fn read_file(language: &mut Language, name: &str, text: &str) -> Result<(), String> {
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |e: String| format!("{name}: line {}: {e}", n + 1);
        if let Some((rule, template)) = line.strip_prefix('<').and_then(|l| l.split_once("> =")) {
            let template = Template::parse(template, &language.rules).map_err(at)?;
            language.rules.insert(rule.trim().to_string(), template);
            continue;
        }
        if let Some((list, entry)) = line.strip_prefix('{').and_then(|l| l.split_once('}')) {
            let (value, words) = entry
                .split_once('=')
                .ok_or_else(|| at("expected `{list} value = words`".into()))?;
            let entry = Entry {
                value: value.trim().to_string(),
                words: Template::parse(words, &language.rules).map_err(at)?,
                written: words.trim().to_string(),
                lower: words.trim().to_lowercase(),
            };
            language
                .lexicon
                .lists
                .entry(list.trim().to_string())
                .or_default()
                .push(entry);
            continue;
        }
        let (name, template) = line
            .split_once(':')
            .ok_or_else(|| at("expected `intent: sentence`, `<rule> = sentence` or `{list} value = words`".into()))?;
        let template = Template::parse(template, &language.rules).map_err(at)?;
        match (Intent::named(name.trim()), times::atoms(name.trim())) {
            (Some(intent), _) => language.sentences.push((intent, template)),
            (None, Some(atoms)) => language.lexicon.pieces.push((atoms, template)),
            (None, None) => return Err(at(format!("no intent or piece of a time {:?}", name.trim()))),
        }
    }
    Ok(())
}
