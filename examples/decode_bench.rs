//! How fast uploads decode: each fixture of `tests/fixtures/formats` decoded over and over on one thread for
//! about a second; seconds of audio per second of CPU, and the share of a core one live conversation (speech
//! at real time) would take.
//! Run: `cargo run --release --example decode_bench`

use std::time::{Duration, Instant};

use voice_gateway::providers::decode::decode;

fn main() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/formats");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| !n.ends_with(".md"))
        .collect();
    names.sort();
    println!("| file | bytes | audio s | decoded s per CPU s | share of a core at real time |");
    println!("|---|---|---|---|---|");
    for name in names {
        let bytes = std::fs::read(format!("{dir}/{name}")).unwrap();
        let Ok(pcm) = decode(&bytes, None, 600) else {
            println!("| {name} | {} | not decoded | | |", bytes.len());
            continue;
        };
        let seconds = pcm.duration_secs();
        let (mut runs, started) = (0u32, Instant::now());
        while started.elapsed() < Duration::from_secs(1) {
            decode(&bytes, None, 600).unwrap();
            runs += 1;
        }
        let speed = seconds * f64::from(runs) / started.elapsed().as_secs_f64();
        println!(
            "| {name} | {} | {seconds:.2} | {speed:.0} | {:.3} % |",
            bytes.len(),
            100.0 / speed
        );
    }
}
