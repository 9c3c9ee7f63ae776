//! What streaming speech buys: for espeak-ng, the time to the first audio chunk through the stage's stream
//! against the time to the whole file, per sentence length.
//! Run: `cargo run --release --example tts_bench`

use std::time::{Duration, Instant};

use voice_gateway::config::{Settings, languages};
use voice_gateway::providers::tts::{self, SpeechRequest};
use voice_gateway::providers::{Providers, TtsId};

const TEXTS: [(&str, &str); 3] = [
    ("short", "It is three degrees outside."),
    (
        "medium",
        "Tomorrow it will be sunny in the morning, with clouds coming in from the west in the afternoon and a \
         light wind.",
    ),
    (
        "long",
        "Tomorrow it will be sunny in the morning, with clouds coming in from the west in the afternoon and a \
         light wind. In the evening there may be some rain, so take an umbrella if you go out after dinner, and \
         remember that the bus to the city centre leaves at a quarter past seven from the stop by the church.",
    ),
];
const RUNS: usize = 10;

#[tokio::main]
async fn main() {
    let settings = Settings::from_lookup(&|_| None).expect("default settings");
    let providers = Providers::new(&settings.providers, Duration::from_secs(30), languages());
    let engine = providers.tts.get(TtsId::Espeak);
    println!("| text | chars | first chunk (median) | whole file (median) | audio |");
    println!("|---|---|---|---|---|");
    for (name, text) in TEXTS {
        let request = SpeechRequest {
            text,
            language: "en",
            voice: None,
            gender: None,
        };
        let (mut first, mut whole, mut seconds) = (Vec::new(), Vec::new(), 0.0);
        for _ in 0..RUNS {
            let started = Instant::now();
            let mut stream = tts::open(engine, "espeak", &request).await.expect("espeak-ng speaks");
            let chunk = stream.next().await.expect("a chunk").expect("audio");
            first.push(started.elapsed());
            let mut samples = chunk.len();
            while let Some(chunk) = stream.next().await {
                samples += chunk.expect("audio").len();
            }
            seconds = samples as f64 / f64::from(stream.sample_rate);
            let started = Instant::now();
            engine.speak(&request).await.expect("espeak-ng speaks");
            whole.push(started.elapsed());
        }
        println!(
            "| {name} | {} | {:.1} ms | {:.1} ms | {seconds:.1} s |",
            text.len(),
            median(&mut first),
            median(&mut whole)
        );
    }
}

fn median(times: &mut [Duration]) -> f64 {
    times.sort();
    times[times.len() / 2].as_secs_f64() * 1000.0
}
