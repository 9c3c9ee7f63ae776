//! The reminder grammar's coverage on a test set of its own, per language: sentences as people say them, each
//! with what it must become at a fixed "now" (Friday, 27 November 2026, 10:00 in Berlin): the local time due,
//! a timer's seconds, a list or a cancel. The set is written apart from the unit tests, with phrasings the
//! grammar was not built from; what it misses is printed.
//!
//! ```sh
//! cargo run --example care_bench
//! ```

use voice_gateway::care::due::due;
use voice_gateway::care::spoken::{Asked, read};

/// What a sentence must become.
enum Want {
    At(&'static str),
    Timer(u32),
    List,
    Cancel,
}

const SET: &[(&str, &str, Want)] = &[
    (
        "de",
        "Erinnere mich morgen früh um sieben an den Arzttermin",
        Want::At("2026-11-28T07:00"),
    ),
    (
        "de",
        "Erinnere mich heute um 15 Uhr an den Kaffee",
        Want::At("2026-11-27T15:00"),
    ),
    (
        "de",
        "Bitte erinnere mich um halb zwölf an das Essen",
        Want::At("2026-11-27T11:30"),
    ),
    (
        "de",
        "Erinnere mich in fünf Minuten an den Herd",
        Want::At("2026-11-27T10:05"),
    ),
    (
        "de",
        "Erinnere mich in einer Stunde an die Wäsche",
        Want::At("2026-11-27T11:00"),
    ),
    (
        "de",
        "Erinnere mich am Sonntag um zehn an den Gottesdienst",
        Want::At("2026-11-29T10:00"),
    ),
    (
        "de",
        "Erinnere mich nächsten Dienstag um 9 Uhr morgens an die Fußpflege",
        Want::At("2026-12-01T09:00"),
    ),
    (
        "de",
        "Erinnere mich übermorgen um Viertel nach zehn an das Rezept",
        Want::At("2026-11-29T10:15"),
    ),
    (
        "de",
        "Erinnere mich jeden Abend um acht an die Tabletten",
        Want::At("2026-11-27T20:00"),
    ),
    (
        "de",
        "Erinnere mich täglich um 7:30 an den Blutdruck",
        Want::At("2026-11-27T19:30"), // 7:30 has passed at 10:00: the next of the two, said back as "um 19:30 Uhr"
    ),
    (
        "de",
        "Erinnere mich dienstags und freitags um 11 an das Einkaufen",
        Want::At("2026-11-27T11:00"),
    ),
    (
        "de",
        "Erinnere mich heute Nachmittag an den Anruf bei Klaus",
        Want::At("2026-11-27T15:00"),
    ),
    (
        "de",
        "Erinnere mich morgen Abend an die Nachrichten",
        Want::At("2026-11-28T19:00"),
    ),
    (
        "de",
        "Erinnere mich um drei viertel elf an die Post",
        Want::At("2026-11-27T10:45"),
    ),
    (
        "de",
        "Kannst du mich in zehn Minuten an den Tee erinnern",
        Want::At("2026-11-27T10:10"),
    ),
    (
        "de",
        "Erinnere mich am Montag an den Müll",
        Want::At("2026-11-30T09:00"),
    ),
    (
        "de",
        "Erinnere mich morgen um 6 Uhr abends an das Abendbrot",
        Want::At("2026-11-28T18:00"),
    ),
    (
        "de",
        "Erinnere mich werktags um 9 vormittags an die Zeitung",
        Want::At("2026-11-30T09:00"),
    ),
    ("de", "Stell einen Timer auf drei Minuten", Want::Timer(180)),
    ("de", "Timer zwanzig Minuten", Want::Timer(1200)),
    (
        "de",
        "Stelle bitte einen Kurzzeitwecker für eine halbe Stunde",
        Want::Timer(1800),
    ),
    ("de", "Welche Erinnerungen habe ich?", Want::List),
    ("de", "Was für Erinnerungen gibt es?", Want::List),
    ("de", "Lösche die Erinnerung an den Müll", Want::Cancel),
    ("de", "Stopp den Timer", Want::Cancel),
    (
        "en",
        "Remind me tomorrow at seven am about the dentist",
        Want::At("2026-11-28T07:00"),
    ),
    (
        "en",
        "Remind me at 3 pm to call my sister",
        Want::At("2026-11-27T15:00"),
    ),
    (
        "en",
        "Please remind me at half past eleven to eat lunch",
        Want::At("2026-11-27T11:30"),
    ),
    (
        "en",
        "Remind me in five minutes to turn off the oven",
        Want::At("2026-11-27T10:05"),
    ),
    (
        "en",
        "Remind me in an hour to check the laundry",
        Want::At("2026-11-27T11:00"),
    ),
    (
        "en",
        "Remind me on Sunday at 10 am to go to church",
        Want::At("2026-11-29T10:00"),
    ),
    (
        "en",
        "Remind me next Tuesday at 9 in the morning about the podiatrist",
        Want::At("2026-12-01T09:00"),
    ),
    (
        "en",
        "Remind me every night at 9 pm to take my pills",
        Want::At("2026-11-27T21:00"),
    ),
    (
        "en",
        "Remind me daily at 7:30 am to check my blood pressure",
        Want::At("2026-11-28T07:30"),
    ),
    (
        "en",
        "Remind me on Tuesdays and Fridays at 11 am to go shopping",
        Want::At("2026-11-27T11:00"),
    ),
    (
        "en",
        "Remind me this afternoon to call Klaus",
        Want::At("2026-11-27T15:00"),
    ),
    (
        "en",
        "Remind me tomorrow evening to watch the news",
        Want::At("2026-11-28T19:00"),
    ),
    (
        "en",
        "Remind me at quarter past four to feed the cat",
        Want::At("2026-11-27T16:15"),
    ),
    (
        "en",
        "Can you remind me in ten minutes about the tea",
        Want::At("2026-11-27T10:10"),
    ),
    (
        "en",
        "Remind me on Monday to put out the bins",
        Want::At("2026-11-30T09:00"),
    ),
    ("en", "Set a timer for three minutes", Want::Timer(180)),
    ("en", "Start a 20 minute timer", Want::Timer(1200)),
    ("en", "Timer for half an hour", Want::Timer(1800)),
    ("en", "What reminders do I have?", Want::List),
    ("en", "List my reminders", Want::List),
    ("en", "Delete the reminder about the bins", Want::Cancel),
    ("en", "Cancel the timer", Want::Cancel),
];

fn main() {
    let now: jiff::Zoned = "2026-11-27T10:00:00+01:00[Europe/Berlin]".parse().expect("now");
    let mut counts = std::collections::BTreeMap::<&str, (usize, usize)>::new();
    for (language, said, want) in SET {
        let read = read(said, language);
        let got = match &read {
            Some(Asked::Set { text, when }) if !text.is_empty() => match due(when, &now) {
                Ok(d) => d.at.datetime().strftime("%Y-%m-%dT%H:%M").to_string(),
                Err(p) => format!("{p:?}"),
            },
            other => format!("{other:?}"),
        };
        let ok = match (want, &read) {
            (Want::At(at), _) => got == *at,
            (Want::Timer(s), Some(Asked::Timer { seconds })) => *seconds == Some(*s),
            (Want::List, Some(Asked::List)) => true,
            (Want::Cancel, Some(Asked::Cancel { .. })) => true,
            _ => false,
        };
        let row = counts.entry(language).or_default();
        row.0 += usize::from(ok);
        row.1 += 1;
        if !ok {
            println!("missed {language}: {said:?} → {got}");
        }
    }
    println!("| language | understood | of |");
    println!("|---|---|---|");
    for (language, (ok, all)) in counts {
        println!("| {language} | {ok} | {all} |");
    }
}
