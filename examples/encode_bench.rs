//! How fast answers encode and how many bytes speech takes on `/ws/voice`. Speaks a few answer sentences with
//! espeak-ng (22 050 Hz, as the gateway's local voice gives them), then, on one thread:
//! - encodes them in each format `/v1/audio/speech` and `/api/speak` offer, for about a second each: seconds of
//!   audio per second of CPU, and the share of a core one conversation speaking at real time takes;
//! - sends them as `/ws/voice` does: WAV frames (the default) and Ogg Opus frames (`audio_format: "opus"`), a
//!   unit per sentence, in bytes per second of speech;
//! - the microphone's way up: 16-bit PCM at 16 kHz against 20 ms Opus packets at 24 kbit/s (what the page's
//!   WebCodecs encoder sends), and how fast the live decoder takes them.
//!
//! Run: `cargo run --release --example encode_bench` (needs espeak-ng).

use std::process::Command;
use std::time::{Duration, Instant};

use voice_gateway::providers::audio::{Pcm, parse_wav, to_mono};
use voice_gateway::providers::encode::{Format, encode};
use voice_gateway::providers::opus::{LiveDecoder, ogg_opus};

const ANSWERS: [&str; 6] = [
    "Good morning, it is Tuesday the third of March.",
    "The weather in Hamburg is cloudy with some rain in the afternoon.",
    "Take an umbrella if you go to the market.",
    "Your daughter called yesterday and will visit on Sunday.",
    "Remember to take your tablets with breakfast.",
    "Is there anything else I can do for you?",
];

fn spoken(text: &str) -> Pcm {
    let out = Command::new("espeak-ng")
        .args(["-v", "en", "--stdout", text])
        .output()
        .expect("espeak-ng runs");
    to_mono(parse_wav(&out.stdout).expect("espeak-ng gives WAV"))
}

/// Runs `work` over and over for about a second; how many times a second it ran.
fn per_second(mut work: impl FnMut()) -> f64 {
    let (mut runs, started) = (0u32, Instant::now());
    while started.elapsed() < Duration::from_secs(1) {
        work();
        runs += 1;
    }
    f64::from(runs) / started.elapsed().as_secs_f64()
}

fn main() {
    let sentences: Vec<Pcm> = ANSWERS.iter().map(|a| spoken(a)).collect();
    let seconds: f64 = sentences.iter().map(Pcm::duration_secs).sum();
    println!(
        "{} answer sentences, {seconds:.1} s of speech at {} Hz\n",
        sentences.len(),
        sentences[0].sample_rate
    );

    println!("| format | bytes per s of speech | encoded s per CPU s | share of a core at real time |");
    println!("|---|---|---|---|");
    for (name, format) in [
        ("mp3", Format::Mp3),
        ("opus (Ogg)", Format::Opus),
        ("flac", Format::Flac),
        ("wav", Format::Wav),
    ] {
        let bytes: usize = sentences.iter().map(|s| encode(s, format).unwrap().len()).sum();
        let speed = seconds
            * per_second(|| {
                for s in &sentences {
                    encode(s, format).unwrap();
                }
            });
        println!(
            "| {name} | {:.0} | {speed:.0} | {:.2} % |",
            bytes as f64 / seconds,
            100.0 / speed
        );
    }

    // /ws/voice down: one binary frame a sentence (a WebSocket frame adds 2 to 4 bytes of header).
    let frame = |len: usize| len + if len < 126 { 2 } else { 4 };
    let wav: usize = sentences.iter().map(|s| frame(s.to_wav().len())).sum();
    let opus: usize = sentences.iter().map(|s| frame(ogg_opus(s).unwrap().len())).sum();
    println!("\n| /ws/voice | bytes per s of speech | kbit/s |");
    println!("|---|---|---|");
    for (name, bytes) in [("answers, WAV (default)", wav), ("answers, Ogg Opus", opus)] {
        let rate = bytes as f64 / seconds;
        println!("| {name} | {rate:.0} | {:.1} |", rate * 8.0 / 1000.0);
    }

    // /ws/voice up: the page sends 100 ms of PCM a frame, or a 20 ms Opus packet a frame.
    let mic: Vec<i16> = sentences.iter().flat_map(|s| s.resampled(16_000).samples).collect();
    let mic_seconds = mic.len() as f64 / 16_000.0;
    let pcm_up: usize = mic.chunks(1_600).map(|c| frame(c.len() * 2)).sum();
    let mut encoder = ropus::Encoder::builder(16_000, ropus::Channels::Mono, ropus::Application::Voip)
        .bitrate(ropus::Bitrate::Bits(24_000))
        .build()
        .unwrap();
    let mut out = [0u8; 1_500];
    let packets: Vec<Vec<u8>> = mic
        .chunks_exact(320)
        .map(|f| {
            let len = encoder.encode(f, &mut out).unwrap();
            out[..len].to_vec()
        })
        .collect();
    let opus_up: usize = packets.iter().map(|p| frame(p.len())).sum();
    for (name, bytes) in [
        ("microphone, PCM 16 kHz (default)", pcm_up),
        ("microphone, Opus packets", opus_up),
    ] {
        let rate = bytes as f64 / mic_seconds;
        println!("| {name} | {rate:.0} | {:.1} |", rate * 8.0 / 1000.0);
    }
    let mut decoder = LiveDecoder::new(16_000).unwrap();
    let speed = mic_seconds
        * per_second(|| {
            for p in &packets {
                decoder.decode(p).unwrap();
            }
        });
    println!(
        "\nlive Opus decoding (microphone): {speed:.0} s of speech per CPU s, {:.2} % of a core at real time",
        100.0 / speed
    );
}
