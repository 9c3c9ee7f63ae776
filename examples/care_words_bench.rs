//! Benchmark of care's words: what saying them costs, the same calls before and after they moved to the
//! phrasebook (the answer to a repeating reminder set, with its day, time and turned words; a reminder due; the
//! check-in's question; the care notice's subject and body; a timer's answer).
//!
//! Run: `cargo run --release --example care_words_bench -- [--rounds 100000]`

#[path = "common/timing.rs"]
mod timing;

use jiff::Zoned;
use voice_gateway::care::due::due;
use voice_gateway::care::say;
use voice_gateway::care::spoken::{Asked, read};

/// One way of saying, timed.
type Say<'a> = Box<dyn FnMut() -> String + 'a>;

fn main() {
    let rounds = timing::rounds(100_000);
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
        println!("| {what} | {} |", timing::median_ns(rounds, &mut say));
    }
}
