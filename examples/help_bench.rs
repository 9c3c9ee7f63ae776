//! Calls for help and harmless sentences through the gateway's matcher: the misses (a call for help that would
//! reach the model unasked) and the needless questions (a harmless sentence asked about), per language and line,
//! on the recorded transcripts of `tests/fixtures/help_corpus.json` (made by `scripts/help-corpus.py make` with
//! the engines' Whisper). `phrases only` counts what the exact phrases catch alone (the matcher before
//! tolerance), `one hearing` what the tolerant matcher asks about on the first transcript, and the plain columns
//! what the gateway asks about with its second hearing of an unclear utterance (`again`: the same clip with the
//! help prompt, used as `voice::help::hear_again` uses it). `heard again` counts the utterances that cost a
//! second request.
//!
//! ```sh
//! cargo run --release --example help_bench [-- tests/fixtures/help_corpus.json] [--list]
//! ```

use std::collections::BTreeMap;

use serde_json::Value;
use voice_gateway::emergency::hearing::{Heard, hear, hear_again, worth_hearing_again};

#[derive(Default)]
struct Row {
    calls: usize,
    /// Calls whose transcript keeps most of what was said (letters two thirds alike): a text matcher can hear them.
    kept: usize,
    missed_kept: usize,
    missed_by_phrases: usize,
    missed_once: usize,
    missed: usize,
    harmless: usize,
    asked_by_phrases: usize,
    asked_once: usize,
    asked: usize,
    /// Utterances heard a second time.
    again: usize,
    all: usize,
}

/// An entry's words with their probabilities, under `key`.
fn words(entry: &Value, key: &str) -> Vec<(String, f32)> {
    entry[key]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|w| Some((w[0].as_str()?.to_string(), w[1].as_f64()? as f32)))
        .collect()
}

fn main() {
    // A translator's folder (`LOCALES_DIR`) adds phrases to the shipped ones, as at start.
    voice_gateway::hearing::load(voice_gateway::phrasebook::folder().as_deref()).expect("the hearing files read");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .cloned()
        .unwrap_or_else(|| "tests/fixtures/help_corpus.json".into());
    let list = args.iter().any(|a| a == "--list");
    let corpus: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("the corpus")).expect("JSON");
    let mut rows: BTreeMap<(String, String), Row> = BTreeMap::new();
    for entry in corpus["entries"].as_array().expect("entries") {
        let row = rows
            .entry((text_of(entry, "language"), text_of(entry, "line")))
            .or_default();
        count(row, entry, list);
    }
    print(&rows);
}

fn text_of(entry: &Value, key: &str) -> String {
    entry[key].as_str().unwrap_or_default().to_string()
}

/// Counts one recorded utterance in its row (and lists it with `--list` when it was missed or asked about).
fn count(row: &mut Row, entry: &Value, list: bool) {
    let text = |k: &str| entry[k].as_str().unwrap_or_default().to_string();
    let (language, first) = (text("language"), words(entry, "words"));
    let once = hear(&text("heard"), &first, &language);
    let again = !once.asks() && worth_hearing_again(&text("heard"), &first, &language);
    let heard = if again {
        hear_again(&first, &text("again"), &words(entry, "again_words"), &language)
    } else {
        once
    };
    let phrase = once == Heard::Phrase;
    row.all += 1;
    row.again += usize::from(again);
    if text("kind") == "call" {
        row.calls += 1;
        row.missed_by_phrases += usize::from(!phrase);
        row.missed_once += usize::from(!once.asks());
        row.missed += usize::from(!heard.asks());
        let norm = |t: String| {
            t.to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == ' ')
                .collect::<String>()
        };
        let kept = strsim::normalized_damerau_levenshtein(&norm(text("said")), &norm(text("heard"))) >= 0.66;
        row.kept += usize::from(kept);
        row.missed_kept += usize::from(kept && !heard.asks());
        if list && kept && !heard.asks() {
            println!(
                "MISSED KEPT {}: {:?} heard as {:?}",
                text("voice"),
                text("said"),
                text("heard")
            );
        }
        if list && !heard.asks() {
            println!(
                "missed   {} {}: {:?} heard as {:?}, again {:?}",
                text("voice"),
                text("line"),
                text("said"),
                text("heard"),
                text("again")
            );
        }
    } else {
        row.harmless += 1;
        row.asked_by_phrases += usize::from(phrase);
        row.asked_once += usize::from(once.asks());
        row.asked += usize::from(heard.asks());
        if list && heard.asks() {
            println!(
                "needless {} {}: {:?} heard as {:?}, again {:?} ({once:?} {heard:?})",
                text("voice"),
                text("line"),
                text("said"),
                text("heard"),
                text("again")
            );
        }
    }
}

fn print(rows: &BTreeMap<(String, String), Row>) {
    println!(
        "| language | line | calls | missed (phrases only) | missed (one hearing) | missed | calls kept by the recogniser | of those missed | harmless | asked (phrases only) | asked (one hearing) | asked | heard again |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for ((language, line), r) in rows {
        println!(
            "| {language} | {line} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} of {} |",
            r.calls,
            r.missed_by_phrases,
            r.missed_once,
            r.missed,
            r.kept,
            r.missed_kept,
            r.harmless,
            r.asked_by_phrases,
            r.asked_once,
            r.asked,
            r.again,
            r.all
        );
    }
}
