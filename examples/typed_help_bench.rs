//! Typed calls for help and harmless sentences through the help dialogue's matcher, as every text channel now
//! hears them (`emergency::typed`): per language, the calls for help that would still reach the model (missed)
//! and the harmless sentences that would be asked about. Before issue 62 no text channel listened: every typed
//! call reached the model.
//!
//! [LOCALES_DIR=my-locales] cargo run --release --example typed_help_bench [-- tests/fixtures/help_typed.tsv] [--list]

use std::collections::BTreeMap;

use voice_gateway::emergency::hearing::is_call_for_help;

fn main() {
    // A translator's folder (`LOCALES_DIR`) adds phrases to the shipped ones, as at start.
    voice_gateway::hearing::load(voice_gateway::phrasebook::folder().as_deref()).expect("the hearing files read");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let list = args.iter().any(|a| a == "--list");
    let path = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .cloned()
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/help_typed.tsv").to_string());
    let corpus = std::fs::read_to_string(&path).expect("the corpus");
    // language → (calls, missed, harmless, asked)
    let mut counts: BTreeMap<String, (usize, usize, usize, usize)> = BTreeMap::new();
    for line in corpus.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let [kind, language, text] = line.splitn(3, '\t').collect::<Vec<_>>()[..] else {
            panic!("not kind, language, text: {line}");
        };
        let heard = is_call_for_help(text, language);
        let row = counts.entry(language.to_string()).or_default();
        match kind {
            "call" => {
                row.0 += 1;
                if !heard {
                    row.1 += 1;
                    if list {
                        println!("missed   {language}: {text}");
                    }
                }
            }
            _ => {
                row.2 += 1;
                if heard {
                    row.3 += 1;
                    if list {
                        println!("asked    {language}: {text}");
                    }
                }
            }
        }
    }
    println!("| language | typed calls | missed before | missed now | harmless | asked before | asked now |");
    println!("|---|---|---|---|---|---|---|");
    for (language, (calls, missed, harmless, asked)) in counts {
        println!("| {language} | {calls} | {calls} | {missed} | {harmless} | 0 | {asked} |");
    }
}
