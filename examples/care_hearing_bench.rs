//! What hearing a request for care costs a turn (issue 63): the time `care::spoken::read` takes for each
//! sentence of every language's corpus (`tests/fixtures/care_corpus_<lang>.tsv`), requests and
//! ordinary sentences apart, median and slowest. Every turn of every channel asks it once, so it must cost
//! microseconds.
//!
//! Run: `cargo run --release --example care_hearing_bench -- [--rounds 200]`

// Only its `--rounds` is used here.
#[allow(dead_code)]
#[path = "common/timing.rs"]
mod timing;

use std::time::Instant;

use voice_gateway::care::spoken::read;

fn main() {
    let rounds = timing::rounds(200);
    println!("| corpus | sentences | median µs | slowest µs |\n|---|---|---|---|");
    for language in ["de", "en", "es", "fr", "it", "nl", "pl", "pt"] {
        let path = format!(
            "{}/tests/fixtures/care_corpus_{language}.tsv",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).expect("the corpus");
        let lines: Vec<(&str, &str)> = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(|l| l.split_once('\t'))
            .collect();
        // The first read builds the sentences: not counted.
        let _ = read("warm", language);
        for ordinary in [false, true] {
            let mut times: Vec<u128> = lines
                .iter()
                .filter(|(kind, _)| (*kind == "ordinary") == ordinary)
                .map(|(_, said)| {
                    let mut each: Vec<u128> = (0..rounds)
                        .map(|_| {
                            let start = Instant::now();
                            std::hint::black_box(read(said, language));
                            start.elapsed().as_nanos()
                        })
                        .collect();
                    each.sort_unstable();
                    each[each.len() / 2]
                })
                .collect();
            times.sort_unstable();
            let kind = if ordinary { "ordinary" } else { "requests" };
            println!(
                "| {language} {kind} | {} | {:.1} | {:.1} |",
                times.len(),
                times[times.len() / 2] as f64 / 1000.0,
                times[times.len() - 1] as f64 / 1000.0
            );
        }
    }
}
