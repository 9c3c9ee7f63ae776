//! Each language's care corpus (`tests/fixtures/care_corpus_<lang>.tsv`) as the gateway hears it, with the
//! sentences of `LOCALES_DIR` added to the shipped ones (as at start): a translator tunes a folder's
//! sentences with it without building anything again.
//!
//! LOCALES_DIR=my-locales cargo run --example care_corpus -- [fr es …] [--list]

use voice_gateway::care::corpus;
use voice_gateway::hearing;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let list = args.iter().any(|a| a == "--list");
    hearing::load(voice_gateway::phrasebook::folder().as_deref()).expect("the sentences read");
    let all = ["de", "en", "es", "fr", "it", "nl", "pl", "pt"].map(String::from);
    let wanted: Vec<String> = args.into_iter().filter(|a| !a.starts_with("--")).collect();
    println!("| language | requests | missed | ordinary | misfired |\n|---|---|---|---|---|");
    for language in if wanted.is_empty() { &all[..] } else { &wanted[..] } {
        let f = corpus::shipped(language).expect("the corpus");
        println!(
            "| {language} | {} | {} | {} | {} |",
            f.requests,
            f.missed.len(),
            f.ordinary,
            f.misfired.len()
        );
        if list {
            f.missed.iter().chain(&f.misfired).for_each(|line| println!("  {line}"));
        }
    }
}
