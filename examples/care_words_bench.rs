//! Benchmark of care's words: what saying them costs, the same calls before and after they moved to the
//! phrasebook (the answer to a repeating reminder set, with its day, time and turned words; a reminder due; the
//! check-in's question; the care notice's subject and body; a timer's answer).
//!
//! Run: `cargo run --release --example care_words_bench -- [--rounds 100000]`

use std::time::Instant;

use jiff::Zoned;
use voice_gateway::care::due::due;
use voice_gateway::care::say;
use voice_gateway::care::spoken::{Asked, read};

/// One way of saying, timed.
type Say<'a> = Box<dyn FnMut() -> String + 'a>;

/// The median of `rounds` timings of `say`, in nanoseconds, after a warm-up.
fn median_ns(rounds: usize, mut say: impl FnMut() -> String) -> u128 {
    let mut total = 0;
    for _ in 0..rounds / 10 {
        total += say().len();
    }
    let mut times: Vec<u128> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            total += std::hint::black_box(say()).len();
            start.elapsed().as_nanos()
        })
        .collect();
    assert!(total > 0);
    times.sort_unstable();
    times[times.len() / 2]
}

fn main() {
    let rounds = std::env::args()
        .skip_while(|a| a != "--rounds")
        .nth(1)
        .and_then(|r| r.parse().ok())
        .unwrap_or(100_000);
    let now: Zoned = "2026-11-27T10:00:00+01:00[Europe/Berlin]".parse().unwrap();
    let Some(Asked::Set { text, when }) = read("Erinnere mich jeden Tag um 8 an meine Tabletten", "de") else {
        panic!("the grammar reads the request")
    };
    let first = due(&when, &now).expect("a time");
    let at = first.at.clone();
    println!("{}", say::set("de", false, &text, &first, &now));
    let rows: [(&str, Say); 5] = [
        (
            "a repeating reminder set (say::set)",
            Box::new(|| say::set("de", false, &text, &first, &now)),
        ),
        (
            "a reminder due (say::due_now)",
            Box::new(|| say::due_now("de", false, "meine Tabletten", false)),
        ),
        (
            "the check-in's question (say::checkin_question)",
            Box::new(|| say::checkin_question("de", false, &now)),
        ),
        (
            "the care notice, subject and body (say::care_notice)",
            Box::new(|| {
                let (subject, body) = say::care_notice("de", "Erika Muster", "Tabletten", &at, 3);
                subject + &body
            }),
        ),
        (
            "a timer's answer (say::timer)",
            Box::new(|| say::timer("en", 5400, &at)),
        ),
    ];
    println!("| words | median ns |");
    println!("|---|---|");
    for (what, mut say) in rows {
        println!("| {what} | {} |", median_ns(rounds, &mut say));
    }
}
