//! Mutated real files into the upload decoder: every fixture of `tests/fixtures/formats`, with bytes flipped,
//! cut off, spliced or repeated, as a broken or hostile upload would be. Counts what became of them and how many
//! made a decoder panic (the gateway catches those and answers 400, but a panic is a bug to report upstream).
//! Then the live channel's Opus decoder gets as many mutated packets of the sentence, as a broken or hostile
//! microphone would send them.
//! Run: `cargo run --release --example decode_fuzz [INPUTS] [SEED]` (default 100000 inputs of each kind).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use voice_gateway::providers::audio::Pcm;
use voice_gateway::providers::decode::{DecodeError, decode};
use voice_gateway::providers::opus::LiveDecoder;

static PANICS: AtomicUsize = AtomicUsize::new(0);

/// xorshift64*: enough randomness for mutations, and the same run again from the same seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One mutation of `file`: a few flipped bytes, a cut, a spliced run of random bytes, or a repeated piece.
fn mutate(file: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = file.to_vec();
    match rng.below(4) {
        0 => {
            for _ in 0..1 + rng.below(16) {
                let at = rng.below(out.len());
                out[at] ^= 1 << rng.below(8);
            }
        }
        1 => out.truncate(rng.below(out.len())),
        2 => {
            let at = rng.below(out.len());
            let junk: Vec<u8> = (0..1 + rng.below(64)).map(|_| rng.next() as u8).collect();
            out.splice(at..at, junk);
        }
        _ => {
            let (from, len) = (rng.below(out.len()), 1 + rng.below(512));
            let piece = out[from..(from + len).min(out.len())].to_vec();
            let at = rng.below(out.len());
            out.splice(at..at, piece);
        }
    }
    out
}

fn main() {
    let mut args = std::env::args().skip(1);
    let inputs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(6_523_266_403_600);
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/formats");
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x != "md"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().to_string(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    std::panic::set_hook(Box::new(|_| {
        PANICS.fetch_add(1, Ordering::Relaxed);
    }));
    let mut rng = Rng(seed);
    let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
    let started = Instant::now();
    for _ in 0..inputs {
        let (_, file) = &files[rng.below(files.len())];
        let input = mutate(file, &mut rng);
        let outcome = match decode(&input, None, 600) {
            Ok(_) => "decoded",
            Err(DecodeError::Unrecognised) => "unrecognised",
            Err(DecodeError::Mismatch { .. }) => "mismatch",
            Err(DecodeError::Unsupported(_)) => "unsupported",
            Err(DecodeError::Corrupt { .. }) => "broken",
            Err(DecodeError::TooLong(_)) => "too long",
            Err(DecodeError::TooSlow) => "too slow",
            Err(DecodeError::Unfit(_)) => "beyond speech (rate or channels)",
        };
        *outcomes.entry(outcome.to_string()).or_default() += 1;
    }
    println!(
        "{inputs} mutated inputs from {} fixtures, seed {seed}, {:.1} s",
        files.len(),
        started.elapsed().as_secs_f64()
    );
    for (outcome, count) in &outcomes {
        println!("  {outcome:>12}: {count}");
    }
    println!("  decoder panics (caught): {}", PANICS.swap(0, Ordering::Relaxed));
    live_packets(inputs, &mut rng, &files);
}

/// Mutated 20 ms Opus packets of the sentence into one live decoder, as a microphone's frames arrive.
fn live_packets(inputs: usize, rng: &mut Rng, files: &[(String, Vec<u8>)]) {
    let wav = &files
        .iter()
        .find(|(name, _)| name == "sentence.wav")
        .expect("sentence.wav")
        .1;
    let pcm: Pcm = decode(wav, None, 600).unwrap().resampled(16_000);
    let mut encoder = ropus::Encoder::builder(16_000, ropus::Channels::Mono, ropus::Application::Voip)
        .build()
        .unwrap();
    let mut out = [0u8; 1_500];
    let packets: Vec<Vec<u8>> = pcm
        .samples
        .chunks_exact(320)
        .map(|frame| {
            let len = encoder.encode(frame, &mut out).unwrap();
            out[..len].to_vec()
        })
        .collect();
    let mut decoder = LiveDecoder::new(16_000).unwrap();
    let (mut decoded, mut refused) = (0usize, 0usize);
    let started = Instant::now();
    for _ in 0..inputs {
        let packet = mutate(&packets[rng.below(packets.len())], rng);
        match decoder.decode(&packet) {
            Ok(_) => decoded += 1,
            Err(_) => refused += 1,
        }
    }
    println!(
        "{inputs} mutated live Opus packets, {:.1} s: {decoded} decoded, {refused} refused, decoder panics (caught): {}",
        started.elapsed().as_secs_f64(),
        PANICS.load(Ordering::Relaxed)
    );
}
