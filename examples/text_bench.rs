//! Throughput of the text pipeline and per-token cost of the streaming splitter.
//! Run: `cargo run --release --example text_bench`

use std::sync::Arc;
use std::time::Instant;

use voice_gateway::text::adapt::adapt;
use voice_gateway::text::clean::clean;
use voice_gateway::text::lexicon::Lexicon;
use voice_gateway::text::normalize::normalize;
use voice_gateway::text::pipeline::Pipeline;
use voice_gateway::text::split::{DEFAULT_MAX_LEN, SentenceSplitter};

const SAMPLE: &str = "## Wetter heute\nAm 22.11.2026 wird es **sonnig** mit bis zu 12 °C [1]. Um 14:30 Uhr kommt \
    Dr. Weber (ca. 10 Min. zu Fuß), z. B. mit 5 km/h. Das kostet 3,50 € bzw. 25 % weniger.\n- Schirm: nein\n\
    - Jacke/Mantel: ja 🌤️\nMehr unter https://wetter.example/bonn. It costs $5.99 at 3:45 pm, e.g. 1,000 people \
    came on the 22nd. Call +49 170 1234567 or see www.example.org for details!\n";

fn main() {
    let text = SAMPLE.repeat(1_000_000 / SAMPLE.len() + 1);
    let megabytes = text.len() as f64 / 1e6;
    for lang in ["de", "en"] {
        let pipeline = Pipeline::new(lang, Arc::new(Lexicon::builtin(lang)), true);
        let started = Instant::now();
        let sentences = pipeline.split_all(&text);
        let secs = started.elapsed().as_secs_f64();
        println!(
            "pipeline {lang}: {megabytes:.2} MB in {secs:.3} s = {:.1} MB/s ({} sentences)",
            megabytes / secs,
            sentences.len()
        );
    }
    // Where the time goes: each step over the raw sentences of the German text.
    let lexicon = Lexicon::builtin("de");
    let raw = {
        let mut s = SentenceSplitter::new("de", DEFAULT_MAX_LEN, &lexicon);
        let mut v = s.push(&text);
        v.extend(s.finish());
        v
    };
    let started = Instant::now();
    let cleaned: Vec<String> = raw.iter().map(|s| clean(s)).collect();
    let t_clean = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let adapted: Vec<String> = cleaned.iter().map(|s| adapt(s, "de", &lexicon)).collect();
    let t_adapt = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let spoken: usize = adapted.iter().map(|s| normalize(s, "de", &lexicon).len()).sum();
    let t_norm = started.elapsed().as_secs_f64();
    println!("steps de: clean {t_clean:.3} s, adapt {t_adapt:.3} s, normalize {t_norm:.3} s ({spoken} bytes spoken)");

    let mut splitter = SentenceSplitter::new("de", DEFAULT_MAX_LEN, &lexicon);
    let chars: Vec<char> = text.chars().collect();
    let tokens: Vec<String> = chars.chunks(4).map(|c| c.iter().collect()).collect();
    let started = Instant::now();
    let mut sentences = 0;
    for token in &tokens {
        sentences += splitter.push(token).len();
    }
    sentences += splitter.finish().len();
    let per_token = started.elapsed().as_secs_f64() * 1e6 / tokens.len() as f64;
    println!(
        "splitter: {} tokens of 4 characters, {per_token:.3} µs per token ({sentences} sentences)",
        tokens.len()
    );
}
