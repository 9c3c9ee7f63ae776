//! Benchmark of the phrasebook: what saying a message costs, in the words a person is told on the help path
//! (an answer without arguments, the cooldown's answer with a plural and a list, the SMS with three
//! arguments), against the tables it replaced (a `&'static str` with its `{name}` places filled by
//! `str::replace`, as `emergency::texts::fill` did), and the first message (the shipped files parsed).
//!
//! Run: `cargo run --release --example phrase_bench -- [--rounds 200000]`

use std::time::Instant;

#[path = "common/timing.rs"]
mod timing;

use fluent_bundle::FluentValue;
use voice_gateway::phrasebook::Words;

/// The former way: a template from a table, its places filled one after the other.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (key, value) in values {
        out = out.replace(&format!("{{{key}}}"), value);
    }
    out
}

fn main() {
    let rounds = timing::rounds(200_000);
    let start = Instant::now();
    let first = Words::formal("de").get("help-alerted");
    let first_ms = start.elapsed().as_secs_f64() * 1000.0;
    assert!(first.contains("unterwegs"));

    let de = Words::new("de", true);
    let old_alerted = "Hilfe ist unterwegs: deine Kontaktpersonen wurden benachrichtigt.";
    let old_cooldown = "Der Alarm wurde vor {minutes} Minuten ausgelöst und hat {who} erreicht. Wenn es dringend ist, ruf den Notruf 112 an.";
    let old_sms = "NOTFALL: {name} braucht Hilfe. Adresse: {address}. Tel: {phones}.";
    let who = "anna@example.org (E-Mail), +4915112345678 (SMS, Anruf)";
    let address = "Lindenweg 4, 12345 Musterstadt";
    let rows = [
        (
            "an answer without arguments (help-alerted)",
            timing::median_ns(rounds, || old_alerted.to_string()),
            timing::median_ns(rounds, || de.get("help-alerted")),
        ),
        (
            "the cooldown's answer: a plural, a list (help-cooldown-reached)",
            timing::median_ns(rounds, || fill(old_cooldown, &[("minutes", "3"), ("who", who)])),
            timing::median_ns(rounds, || {
                de.with(
                    "help-cooldown-reached",
                    &[("minutes", FluentValue::from(3)), ("who", who.into())],
                )
            }),
        ),
        (
            "the SMS: three arguments (help-sms)",
            timing::median_ns(rounds, || {
                fill(
                    old_sms,
                    &[
                        ("name", "Erna Schmidt"),
                        ("address", address),
                        ("phones", "+4915112345678"),
                    ],
                )
            }),
            timing::median_ns(rounds, || {
                de.with(
                    "help-sms",
                    &[
                        ("name", "Erna Schmidt".into()),
                        ("address", address.into()),
                        ("phones", "+4915112345678".into()),
                    ],
                )
            }),
        ),
    ];
    println!("| message | table + replace, median ns | phrasebook, median ns |");
    println!("|---|---|---|");
    for (what, before, after) in rows {
        println!("| {what} | {before} | {after} |");
    }
    println!("\nthe first message (every shipped file parsed): {first_ms:.1} ms");
}
