//! Short localized phrases of the voice channels, and the notices each connection has told.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Mutex, OnceLock};

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

/// Conversations whose told notices are kept: beyond it, the one told a notice longest ago is forgotten
/// (and may be told its notice once more).
const CONVERSATIONS_KEPT: usize = 4096;

/// The notices told in the conversations of the REST channels (`POST /api/chat` with a `session_id`): each
/// once per conversation, as on a connection; kept by this instance.
#[derive(Debug, Default)]
pub struct ToldIn {
    order: VecDeque<String>,
    told: HashMap<String, Told>,
}

impl ToldIn {
    /// Whether `notice` is new in `conversation` (it is remembered as told there).
    pub fn first(&mut self, conversation: &str, notice: &str) -> bool {
        if !self.told.contains_key(conversation) {
            if self.order.len() == CONVERSATIONS_KEPT
                && let Some(oldest) = self.order.pop_front()
            {
                self.told.remove(&oldest);
            }
            self.order.push_back(conversation.to_string());
        }
        self.told.entry(conversation.to_string()).or_default().first(notice)
    }
}

/// Whether `notice` is new in the REST conversation `conversation`, in this process.
pub fn first_in(conversation: &str, notice: &str) -> bool {
    static TOLD: OnceLock<Mutex<ToldIn>> = OnceLock::new();
    let told = TOLD.get_or_init(Mutex::default);
    told.lock()
        .unwrap_or_else(|p| p.into_inner())
        .first(conversation, notice)
}

/// Farewells that end a call, and words that may come with them ("okay, thanks, bye"), from the language's
/// `phone.sentences` (`{farewell}`, `{farewell-filler}`); English's for a language without farewells.
fn farewells(language: &str) -> (Vec<&'static str>, Vec<&'static str>) {
    let own = |list: &str, lang: &str| {
        let entries = crate::hearing::entries(lang, list).unwrap_or_default();
        entries.iter().map(|e| e.lower.as_str()).collect::<Vec<_>>()
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
        if !fillers.contains(first) {
            return false;
        }
        rest = &rest[1..];
    }
    said
}
