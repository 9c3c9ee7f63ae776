//! Calls for help and harmless sentences through the gateway's matcher: the misses (a call for help that would
//! reach the model unasked) and the needless questions (a harmless sentence asked about), per language and line,
//! on the recorded transcripts of `tests/fixtures/help_corpus.json` (made by `scripts/help-corpus.py make` with
//! the engines' Whisper). `phrase` counts what the exact phrases catch alone (the matcher before tolerance),
//! `heard` what the whole matcher asks about.
//!
//! ```sh
//! cargo run --release --example help_bench [-- tests/fixtures/help_corpus.json] [--list]
//! ```

use std::collections::BTreeMap;

use serde_json::Value;
use voice_gateway::emergency::hearing::{Heard, hear};

#[derive(Default)]
struct Row {
    calls: usize,
    /// Calls whose transcript keeps most of what was said (letters two thirds alike): a text matcher can hear them.
    kept: usize,
    missed_kept: usize,
    missed_by_phrases: usize,
    missed: usize,
    harmless: usize,
    asked_by_phrases: usize,
    asked: usize,
}

fn main() {
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
        let text = |k: &str| entry[k].as_str().unwrap_or_default().to_string();
        let words: Vec<(String, f32)> = entry["words"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|w| Some((w[0].as_str()?.to_string(), w[1].as_f64()? as f32)))
            .collect();
        let heard = hear(&text("heard"), &words, &text("language"));
        let phrase = heard == Heard::Phrase;
        let row = rows.entry((text("language"), text("line"))).or_default();
        if text("kind") == "call" {
            row.calls += 1;
            row.missed_by_phrases += usize::from(!phrase);
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
                    "missed   {}: {:?} heard as {:?}",
                    text("voice"),
                    text("said"),
                    text("heard")
                );
            }
        } else {
            row.harmless += 1;
            row.asked_by_phrases += usize::from(phrase);
            row.asked += usize::from(heard.asks());
            if list && heard.asks() {
                println!(
                    "needless {}: {:?} heard as {:?} ({heard:?})",
                    text("voice"),
                    text("said"),
                    text("heard")
                );
            }
        }
    }
    println!(
        "| language | line | calls | missed (phrases only) | missed | calls kept by the recogniser | of those missed | harmless | asked (phrases only) | asked |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for ((language, line), r) in &rows {
        println!(
            "| {language} | {line} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.calls, r.missed_by_phrases, r.missed, r.kept, r.missed_kept, r.harmless, r.asked_by_phrases, r.asked
        );
    }
}
