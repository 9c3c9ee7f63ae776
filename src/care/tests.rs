//! The grammar with "now" fixed: Friday, 27 November 2026, 10:00 in Berlin, unless a test says otherwise.

use jiff::Zoned;

use super::due::{Problem, Rule, due};
use super::say;
use super::spoken::{Asked, read};

fn at(text: &str) -> Zoned {
    text.parse().unwrap()
}

fn friday() -> Zoned {
    at("2026-11-27T10:00:00+01:00[Europe/Berlin]")
}

/// What `said` sets, at `now`: the text, the first time due (RFC 3339 with offset) and the rule.
fn set(said: &str, language: &str, now: &Zoned) -> (String, String, Option<String>) {
    let Some(Asked::Set { text, when }) = read(said, language) else {
        panic!("{said}: not a reminder: {:?}", read(said, language));
    };
    let due = due(&when, now).unwrap_or_else(|p| panic!("{said}: {p:?} from {when:?}"));
    (text, due.at.timestamp().to_string(), due.rule.map(|r| r.to_string()))
}

/// Just the local time due, "2026-11-28T08:00".
fn local(said: &str, language: &str, now: &Zoned) -> String {
    let Some(Asked::Set { when, .. }) = read(said, language) else {
        panic!("{said}: not a reminder");
    };
    let due = due(&when, now).unwrap_or_else(|p| panic!("{said}: {p:?} from {when:?}"));
    due.at.datetime().strftime("%Y-%m-%dT%H:%M").to_string()
}

#[test]
fn the_issues_sentences_are_understood_and_said_back() {
    let now = friday();
    let Some(Asked::Set { text, when }) = read("Erinnere mich morgen um acht an meine Tabletten", "de") else {
        panic!()
    };
    assert_eq!(text, "meine Tabletten");
    let due = due(&when, &now).unwrap();
    assert_eq!(due.at.to_string(), "2026-11-28T08:00:00+01:00[Europe/Berlin]");
    assert_eq!(
        say::set("de", false, &text, &due, &now),
        "Gut, ich erinnere Sie morgen, Samstag, um 8 Uhr an Ihre Tabletten."
    );
    assert_eq!(
        say::set("de", true, &text, &due, &now),
        "Gut, ich erinnere dich morgen, Samstag, um 8 Uhr an deine Tabletten."
    );
    assert_eq!(
        read("Stell einen Timer auf zehn Minuten", "de"),
        Some(Asked::Timer { seconds: Some(600) })
    );
    let (text, first, rule) = set("Remind me every day at 8 pm to water the plants", "en", &now);
    assert_eq!(
        (text.as_str(), first.as_str()),
        ("water the plants", "2026-11-27T19:00:00Z")
    );
    assert_eq!(rule.as_deref(), Some("FREQ=DAILY"));
    assert_eq!(read("Welche Erinnerungen habe ich?", "de"), Some(Asked::List));
    assert_eq!(read("What reminders do I have?", "en"), Some(Asked::List));
    assert_eq!(
        read("Lösch die Erinnerung für die Tabletten", "de"),
        Some(Asked::Cancel {
            text: "tabletten".into()
        })
    );
    assert_eq!(
        read("Cancel the reminder about the plants", "en"),
        Some(Asked::Cancel { text: "plants".into() })
    );
    assert_eq!(read("Wie wird das Wetter morgen?", "de"), None);
}

#[test]
fn german_clock_times_in_words_and_digits() {
    let now = friday();
    for (said, expected) in [
        ("Erinnere mich morgen um 8 Uhr an den Müll", "2026-11-28T08:00"),
        ("Erinnere mich morgen um 8:30 an den Müll", "2026-11-28T08:30"),
        ("Erinnere mich morgen um 8.30 Uhr an den Müll", "2026-11-28T08:30"),
        (
            "Erinnere mich morgen um acht Uhr dreißig an den Müll",
            "2026-11-28T08:30",
        ),
        ("Erinnere mich morgen um halb neun an den Müll", "2026-11-28T08:30"),
        ("Erinnere mich morgen Viertel nach acht an den Müll", "2026-11-28T08:15"),
        (
            "Erinnere mich morgen um Viertel vor neun an den Müll",
            "2026-11-28T08:45",
        ),
        (
            "Erinnere mich morgen um dreiviertel neun an den Müll",
            "2026-11-28T08:45",
        ),
        ("Erinnere mich morgen um zehn nach acht an den Müll", "2026-11-28T08:10"),
        (
            "Erinnere mich morgen um zwanzig vor neun an den Müll",
            "2026-11-28T08:40",
        ),
        ("Erinnere mich morgen um 20 Uhr an den Müll", "2026-11-28T20:00"),
        ("Erinnere mich morgen abends um acht an den Müll", "2026-11-28T20:00"),
        ("Erinnere mich morgen um 3 nachmittags an den Müll", "2026-11-28T15:00"),
        ("Erinnere mich morgen früh an den Müll", "2026-11-28T08:00"),
        ("Erinnere mich heute Abend an den Müll", "2026-11-27T19:00"),
        ("Erinnere mich heute Nachmittag um vier an den Müll", "2026-11-27T16:00"),
        ("Erinnere mich übermorgen um neun an den Müll", "2026-11-29T09:00"),
        ("Erinnere mich am Montag um 10 an den Müll", "2026-11-30T10:00"),
        ("Erinnere mich nächsten Freitag um 9 an den Müll", "2026-12-04T09:00"),
        ("Erinnere mich am Freitag um 18 Uhr an den Müll", "2026-11-27T18:00"),
        ("Erinnere mich um Mitternacht an den Müll", "2026-11-28T00:00"),
        ("Erinnere mich nachts um drei an den Müll", "2026-11-28T03:00"),
    ] {
        assert_eq!(local(said, "de", &now), expected, "{said}");
    }
}

#[test]
fn spans_from_now_and_timers() {
    let now = friday();
    for (said, expected) in [
        ("Erinnere mich in zwanzig Minuten an den Tee", "2026-11-27T10:20"),
        ("Erinnere mich in anderthalb Stunden an den Kuchen", "2026-11-27T11:30"),
        ("Erinnere mich in einer halben Stunde an den Kuchen", "2026-11-27T10:30"),
        (
            "Erinnere mich in 2 Stunden und 10 Minuten an den Kuchen",
            "2026-11-27T12:10",
        ),
        ("Erinnere mich in zweieinhalb Stunden an den Kuchen", "2026-11-27T12:30"),
        ("Remind me in twenty minutes to call Anna", "2026-11-27T10:20"),
        ("Remind me in an hour and a half to call Anna", "2026-11-27T11:30"),
        ("Remind me in half an hour to call Anna", "2026-11-27T10:30"),
        ("Remind me in a quarter of an hour to call Anna", "2026-11-27T10:15"),
        ("Remind me in 1.5 hours to call Anna", "2026-11-27T11:30"),
    ] {
        assert_eq!(
            local(said, if said.starts_with("Remind") { "en" } else { "de" }, &now),
            expected,
            "{said}"
        );
    }
    for (said, language, seconds) in [
        ("Stell einen Timer auf fünf Minuten", "de", 300),
        ("Timer für 90 Sekunden", "de", 90),
        ("Stell bitte einen Timer für eine Stunde", "de", 3600),
        ("Set a timer for ten minutes", "en", 600),
        ("Set a timer for twenty five minutes", "en", 1500),
        ("timer for an hour and a half", "en", 5400),
    ] {
        assert_eq!(
            read(said, language),
            Some(Asked::Timer { seconds: Some(seconds) }),
            "{said}"
        );
    }
    assert_eq!(read("Stell einen Timer", "de"), Some(Asked::Timer { seconds: None }));
    let end = now.checked_add(jiff::SignedDuration::from_secs(600)).unwrap();
    assert_eq!(
        say::timer("de", 600, &end),
        "Der Timer läuft: 10 Minuten, bis 10:10 Uhr."
    );
    assert_eq!(
        say::timer("en", 5400, &end),
        "Timer set: 1 hour and 30 minutes, until 10:10 am."
    );
}

#[test]
fn english_clock_times_days_and_parts() {
    let now = friday();
    for (said, expected) in [
        (
            "Remind me tomorrow at half past eight to take my pills",
            "2026-11-28T08:30",
        ),
        (
            "Remind me tomorrow at quarter to nine to take my pills",
            "2026-11-28T08:45",
        ),
        (
            "Remind me tomorrow at ten past eight to take my pills",
            "2026-11-28T08:10",
        ),
        ("Remind me tomorrow at 8 pm to take my pills", "2026-11-28T20:00"),
        ("Remind me tomorrow at 8pm to take my pills", "2026-11-28T20:00"),
        ("Remind me tomorrow at 8:30 am to take my pills", "2026-11-28T08:30"),
        (
            "Remind me tomorrow at eight thirty to take my pills",
            "2026-11-28T08:30",
        ),
        (
            "Remind me tomorrow at 7 o'clock in the evening to take my pills",
            "2026-11-28T19:00",
        ),
        ("Remind me tomorrow morning to take my pills", "2026-11-28T08:00"),
        ("Remind me tonight to take my pills", "2026-11-27T19:00"),
        (
            "Remind me the day after tomorrow at nine am to take my pills",
            "2026-11-29T09:00",
        ),
        ("Remind me on Monday at noon to take my pills", "2026-11-30T12:00"),
        ("Remind me next Friday at 10 am to take my pills", "2026-12-04T10:00"),
        ("Remind me at midnight to take my pills", "2026-11-28T00:00"),
    ] {
        assert_eq!(local(said, "en", &now), expected, "{said}");
    }
    let (text, _, _) = set("Remind me tomorrow at 9 am about my doctor's appointment", "en", &now);
    assert_eq!(text, "my doctor's appointment");
}

#[test]
fn a_time_that_could_mean_two_takes_the_next_and_says_which() {
    let Some(Asked::Set { text, when }) = read("Erinnere mich um 8 an die Blumen", "de") else {
        panic!()
    };
    let morning = at("2026-11-27T07:00:00+01:00[Europe/Berlin]");
    let due_morning = due(&when, &morning).unwrap();
    assert_eq!(due_morning.at.datetime().to_string(), "2026-11-27T08:00:00");
    let ten = friday();
    let due_evening = due(&when, &ten).unwrap();
    assert_eq!(due_evening.at.datetime().to_string(), "2026-11-27T20:00:00");
    assert!(due_evening.chose);
    assert_eq!(
        say::set("de", false, &text, &due_evening, &ten),
        "Gut, ich erinnere Sie heute um 20 Uhr an die Blumen."
    );
    let late = at("2026-11-27T21:00:00+01:00[Europe/Berlin]");
    assert_eq!(
        due(&when, &late).unwrap().at.datetime().to_string(),
        "2026-11-28T08:00:00"
    );
    // A time that can only be one, passed today: said so.
    let Some(Asked::Set { when, .. }) = read("Erinnere mich heute um 07:00 an die Blumen", "de") else {
        panic!()
    };
    assert_eq!(due(&when, &ten), Err(Problem::Passed));
    let Some(Asked::Set { when, .. }) = read("Erinnere mich an die Blumen", "de") else {
        panic!()
    };
    assert_eq!(due(&when, &ten), Err(Problem::NoTime));
    assert_eq!(
        say::problem("de", false, Problem::NoTime),
        "Wann soll ich Sie erinnern? Sagen Sie zum Beispiel: morgen um 8 Uhr."
    );
}

#[test]
fn a_day_without_its_time_is_asked_not_guessed() {
    let ten = friday();
    for (said, language) in [
        ("Erinnere mich morgen an den Arzttermin", "de"),
        ("Erinnere mich am Montag an die Fußpflege", "de"),
        ("Erinnere mich jeden Tag an die Tabletten", "de"),
        ("Remind me the day after tomorrow to call Anna", "en"),
    ] {
        let Some(Asked::Set { when, .. }) = read(said, language) else {
            panic!("{said}")
        };
        assert_eq!(due(&when, &ten), Err(Problem::NoClock), "{said}");
    }
    assert_eq!(
        say::problem("de", true, Problem::NoClock),
        "Um wie viel Uhr? Sag zum Beispiel: um halb zehn."
    );
}

#[test]
fn repeating_reminders_and_their_rules() {
    let now = friday();
    for (said, language, first, rule) in [
        (
            "Erinnere mich jeden Tag um 20 Uhr an die Tabletten",
            "de",
            "2026-11-27T20:00",
            "FREQ=DAILY",
        ),
        (
            "Erinnere mich täglich um acht an die Tabletten",
            "de",
            "2026-11-27T20:00",
            "FREQ=DAILY",
        ),
        (
            "Erinnere mich jeden Morgen an die Tabletten",
            "de",
            "2026-11-28T08:00",
            "FREQ=DAILY",
        ),
        (
            "Erinnere mich werktags um 8 Uhr morgens an die Zeitung",
            "de",
            "2026-11-30T08:00",
            "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
        ),
        (
            "Erinnere mich montags und donnerstags um 9 an die Gymnastik",
            "de",
            "2026-11-30T09:00",
            "FREQ=WEEKLY;BYDAY=MO,TH",
        ),
        (
            "Erinnere mich jeden Freitag um 18 Uhr an den Müll",
            "de",
            "2026-11-27T18:00",
            "FREQ=WEEKLY;BYDAY=FR",
        ),
        (
            "Remind me every weekday at 7:30 am to take the bus",
            "en",
            "2026-11-30T07:30",
            "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
        ),
        (
            "Remind me on Mondays and Thursdays at 9 am to do my exercises",
            "en",
            "2026-11-30T09:00",
            "FREQ=WEEKLY;BYDAY=MO,TH",
        ),
        (
            "Remind me every evening to lock the door",
            "en",
            "2026-11-27T19:00",
            "FREQ=DAILY",
        ),
    ] {
        let Some(Asked::Set { when, .. }) = read(said, language) else {
            panic!("{said}")
        };
        let due = due(&when, &now).unwrap_or_else(|p| panic!("{said}: {p:?}"));
        assert_eq!(
            due.at.datetime().strftime("%Y-%m-%dT%H:%M").to_string(),
            first,
            "{said}"
        );
        assert_eq!(due.rule.unwrap().to_string(), rule, "{said}");
    }
}

#[test]
fn a_repeating_reminder_is_said_back_with_its_first_day_and_keeps_its_time() {
    let now = friday();
    let Some(Asked::Set { text, when }) = read("Erinnere mich montags und donnerstags um 9 an meine Gymnastik", "de")
    else {
        panic!()
    };
    let due = due(&when, &now).unwrap();
    assert_eq!(
        say::set("de", false, &text, &due, &now),
        "Gut, ich erinnere Sie montags und donnerstags um 9 Uhr an Ihre Gymnastik, zum ersten Mal am Montag."
    );
    // The next time after Monday is Thursday, at the same local time.
    let (next, _) = due.rule.as_ref().unwrap().next(&due.at).unwrap();
    assert_eq!(next.datetime().to_string(), "2026-12-03T09:00:00");
}

#[test]
fn rules_are_read_and_refused_clearly() {
    assert_eq!(
        Rule::parse("FREQ=WEEKLY;BYDAY=TH,MO").unwrap().to_string(),
        "FREQ=WEEKLY;BYDAY=MO,TH"
    );
    assert_eq!(
        Rule::parse("RRULE:FREQ=DAILY;INTERVAL=1").unwrap().to_string(),
        "FREQ=DAILY"
    );
    assert!(Rule::parse("FREQ=MONTHLY").unwrap_err().contains("DAILY or WEEKLY"));
    assert!(Rule::parse("FREQ=WEEKLY").unwrap_err().contains("BYDAY"));
    assert!(Rule::parse("FREQ=WEEKLY;BYDAY=XX").unwrap_err().contains("XX"));
    assert!(Rule::parse("FREQ=DAILY;COUNT=3").unwrap_err().contains("COUNT"));
    assert!(Rule::parse("nonsense").is_err());
}

#[test]
fn daylight_saving_days_move_a_skipped_time_and_keep_the_wall_clock() {
    // Clocks go forward in Berlin on 28 March 2027 at 2:00: 2:30 does not exist.
    let saturday = at("2027-03-27T10:00:00+01:00[Europe/Berlin]");
    let Some(Asked::Set { text, when }) = read("Erinnere mich morgen nachts um halb drei an die Uhr", "de") else {
        panic!()
    };
    let due = due(&when, &saturday).unwrap();
    assert_eq!(due.at.to_string(), "2027-03-28T03:30:00+02:00[Europe/Berlin]");
    assert!(due.skipped.is_some());
    let said = say::set("de", false, &text, &due, &saturday);
    assert!(
        said.ends_with("2:30 Uhr gibt es an dem Tag nicht, die Uhren werden vorgestellt; es wird um 3:30 Uhr."),
        "{said}"
    );
    // A daily reminder at 8:00 stays at 8:00 on the wall clock across the change.
    let Some(Asked::Set { when, .. }) = read("Erinnere mich jeden Tag um 8 Uhr morgens an die Tabletten", "de") else {
        panic!()
    };
    let first = super::due::due(&when, &saturday).unwrap();
    assert_eq!(first.at.to_string(), "2027-03-28T08:00:00+02:00[Europe/Berlin]");
    let (next, _) = first.rule.unwrap().next(&first.at).unwrap();
    assert_eq!(next.to_string(), "2027-03-29T08:00:00+02:00[Europe/Berlin]");
    // Clocks go back on 25 October 2026: 2:30 comes twice; the first is taken.
    let before = at("2026-10-24T12:00:00+02:00[Europe/Berlin]");
    let Some(Asked::Set { when, .. }) = read("Erinnere mich morgen um 2:30 nachts an die Uhr", "de") else {
        panic!()
    };
    assert_eq!(
        super::due::due(&when, &before).unwrap().at.to_string(),
        "2026-10-25T02:30:00+02:00[Europe/Berlin]"
    );
}

#[test]
fn the_reminders_words_are_kept_and_turned_to_the_person() {
    let now = friday();
    let (text, _, _) = set("Erinnere mich daran, um 18 Uhr die Blumen zu gießen", "de", &now);
    assert_eq!(text, "die Blumen zu gießen");
    let Some(Asked::Set { text, when }) = read("Erinnere mich um 18 Uhr daran, die Blumen zu gießen", "de") else {
        panic!()
    };
    let first = due(&when, &now).unwrap();
    assert_eq!(
        say::set("de", false, &text, &first, &now),
        "Gut, ich erinnere Sie heute um 18 Uhr daran, die Blumen zu gießen."
    );
    let (text, _, _) = set(
        "Kannst du mich bitte morgen um 9 an meinen Arzttermin erinnern?",
        "de",
        &now,
    );
    assert_eq!(text, "meinen Arzttermin");
    assert_eq!(say::turned("my pills", "en", false), "your pills");
    let Some(Asked::Set { text, when }) = read("Stell einen Wecker für sieben Uhr", "de") else {
        panic!()
    };
    assert_eq!(text, "Wecker");
    assert_eq!(
        due(&when, &now).unwrap().at.datetime().to_string(),
        "2026-11-27T19:00:00"
    );
}

#[test]
fn a_confirmation_is_the_whole_utterance() {
    use super::spoken::confirms;
    for (text, language) in [
        ("Erledigt!", "de"),
        ("Ja, hab ich.", "de"),
        ("Done.", "en"),
        ("I took them", "en"),
    ] {
        assert!(confirms(text, language), "{text}");
    }
    for (text, language) in [
        ("Ist der Müll erledigt?", "de"),
        ("Erledigt", "en"),
        ("Yes, what time is it?", "en"),
    ] {
        assert!(!confirms(text, language), "{text}");
    }
    assert_eq!(
        say::confirmed("de", false, "meine Tabletten"),
        "Danke, erledigt: Ihre Tabletten."
    );
}

#[test]
fn the_check_in_answer_is_fine_not_fine_or_neither_and_a_call_for_help_is_not_fine() {
    use super::spoken::fine;
    for (text, language) in [
        ("Ja.", "de"),
        ("Ja, alles gut.", "de"),
        ("Mir geht es gut, danke.", "de"),
        ("Alles in Ordnung", "de"),
        ("Yes, I'm fine.", "en"),
        ("All good", "en"),
    ] {
        assert_eq!(fine(text, language), Some(true), "{text}");
    }
    for (text, language) in [
        ("Nein.", "de"),
        ("Nicht gut.", "de"),
        ("Mir geht es nicht gut", "de"),
        ("Ich bin gestürzt", "de"),
        ("Hilfe, ich bin bestützt", "de"),
        ("No, not really.", "en"),
        ("I have fallen and I can't get up", "en"),
    ] {
        assert_eq!(fine(text, language), Some(false), "{text}");
    }
    for (text, language) in [("Wie spät ist es?", "de"), ("What's the weather like?", "en")] {
        assert_eq!(fine(text, language), None, "{text}");
    }
}

#[test]
fn the_check_in_is_asked_by_the_time_of_day_and_the_notice_says_what_happened() {
    let morning: Zoned = "2026-11-28T10:00:00+01:00[Europe/Berlin]".parse().unwrap();
    let evening: Zoned = "2026-11-28T19:00:00+01:00[Europe/Berlin]".parse().unwrap();
    assert_eq!(
        say::checkin_question("de", false, &morning),
        "Guten Morgen! Ist bei Ihnen alles in Ordnung?"
    );
    assert_eq!(
        say::checkin_question("de", true, &evening),
        "Guten Abend! Ist bei dir alles in Ordnung?"
    );
    assert_eq!(
        say::checkin_question("en", false, &evening),
        "Good evening! Is everything all right?"
    );
    let (subject, body) = say::checkin_notice("de", "Erika Muster", &morning, false);
    assert_eq!(
        subject,
        "Hinweis (kein Notruf): Erika Muster hat sich heute nicht gemeldet"
    );
    assert!(
        body.contains("bis 10:00 Uhr nicht gemeldet und war auch auf Nachfrage nicht zu erreichen"),
        "{body}"
    );
    let (_, body) = say::checkin_notice("en", "Erika", &morning, true);
    assert!(
        body.contains("has not checked in today by 10 am and did not answer when asked"),
        "{body}"
    );
}

#[test]
fn care_speaks_each_shipped_language_from_the_phrasebook() {
    let morning: Zoned = "2026-11-28T08:05:00+01:00[Europe/Berlin]".parse().unwrap();
    // What reaches every person, whatever their language: the reminder, the thanks, the check-in, the call's
    // key, the notice to the contacts.
    assert_eq!(
        say::due_now("fr", false, "prendre les comprimés", false),
        "Rappel : prendre les comprimés."
    );
    assert_eq!(
        say::due_now("it", false, "", true),
        "Il tempo è scaduto: il suo timer è finito."
    );
    assert_eq!(say::confirmed("nl", false, "pillen"), "Dank u, gedaan: pillen.");
    assert_eq!(
        say::checkin_question("pl", false, &morning),
        "Dzień dobry! Czy wszystko w porządku?"
    );
    assert_eq!(say::call_ask("es", false), "Diga sí o pulse el 1.");
    assert_eq!(say::goodbye("pt"), "Adeus.");
    assert_eq!(
        say::missed_while_down("fr", false, "arroser les fleurs", &morning),
        "Pendant que l'assistant était arrêté, votre rappel de 8 heures 5 n'a pas pu être donné : arroser les fleurs."
    );
    let (subject, body) = say::care_notice("es", "Ana", "pastillas", &morning, 3);
    assert_eq!(
        subject,
        "Aviso (no es una alarma): Ana no ha confirmado un recordatorio"
    );
    assert_eq!(
        body,
        "Esto no es una alarma de emergencia.\n\nAna no ha confirmado el recordatorio «pastillas» de las 8:05, \
         aunque llegó 3 veces.\n\nPuede que todo esté bien. Por favor, póngase en contacto con Ana.\n"
    );
    // Polish counts in three forms.
    let words = crate::phrasebook::Words::formal("pl");
    assert_eq!(
        say::length(2 * 3600 + 5 * 60 + 1, words),
        "2 godziny, 5 minut i 1 sekunda"
    );
    // English lists and counts whole.
    let english = crate::phrasebook::Words::formal("en");
    assert_eq!(
        say::length(3600 + 30 * 60 + 5, english),
        "1 hour, 30 minutes and 5 seconds"
    );
    let rule = Rule::parse("FREQ=WEEKLY;BYDAY=MO,WE,FR").unwrap();
    let friday = friday();
    assert_eq!(
        say::item("en", false, "take my pills", &morning, Some(&rule), &friday),
        "on Mondays, Wednesdays and Fridays at 8:05 am to take your pills"
    );
    assert_eq!(
        say::item("de", true, "meine Tabletten", &morning, Some(&rule), &friday),
        "montags, mittwochs und freitags um 8:05 Uhr an deine Tabletten"
    );
    let later: Zoned = "2026-12-07T20:30:00+01:00[Europe/Berlin]".parse().unwrap();
    assert_eq!(
        say::day(&later, &friday, crate::phrasebook::Words::formal("de")),
        "am Montag, dem 7. Dezember,"
    );
    let items = ["a".to_string(), "b".to_string()];
    assert_eq!(say::list("en", false, &items), "You have 2 reminders: a; b.");
    assert_eq!(say::list("de", true, &[]), "Du hast keine Erinnerungen.");
    assert_eq!(
        say::full("en", false, 1),
        "You have 1 reminder already. Please cancel one first."
    );
}

#[test]
fn french_portuguese_and_polish_times_are_written_as_they_are_said() {
    let evening: Zoned = "2026-11-28T20:30:00+01:00[Europe/Berlin]".parse().unwrap();
    let one: Zoned = "2026-11-28T01:00:00+01:00[Europe/Berlin]".parse().unwrap();
    let fr = crate::phrasebook::Words::formal("fr");
    let pt = crate::phrasebook::Words::formal("pt");
    assert_eq!(say::clock(&evening, fr), "à 20 heures 30");
    assert_eq!(say::clock(&one, fr), "à 1 heure");
    assert_eq!(say::clock(&evening, pt), "às 20 horas e 30");
    assert_eq!(say::clock(&one, pt), "à 1 hora");
    // Polish says the hour's ordinal.
    let pl = crate::phrasebook::Words::formal("pl");
    assert_eq!(say::clock(&evening, pl), "o dwudziestej 30");
    assert_eq!(say::clock(&one, pl), "o pierwszej");
    let midnight: Zoned = "2026-11-28T00:05:00+01:00[Europe/Berlin]".parse().unwrap();
    assert_eq!(say::clock(&midnight, pl), "o 0:05");
    // Written for the contacts, the usual short form.
    let (_, body) = say::care_notice("fr", "Anne", "comprimés", &evening, 2);
    assert!(
        body.contains("« comprimés » de 20 h 30, bien qu'il soit venu 2 fois"),
        "{body}"
    );
}

#[test]
fn the_yes_a_call_asks_for_is_heard_in_every_shipped_language() {
    use super::spoken::{confirms, fine};
    // "Dites oui ou appuyez sur la touche 1": the oui confirms, a longer sentence with it does not.
    for (text, language) in [
        ("Oui, merci.", "fr"),
        ("Sí.", "es"),
        ("Sì, grazie", "it"),
        ("Ja", "nl"),
        ("Tak, dziękuję.", "pl"),
        ("Sim", "pt"),
    ] {
        assert!(confirms(text, language), "{text}");
    }
    assert!(!confirms("Oui, mais plus tard", "fr"));
    assert!(!confirms("Non", "fr"));
    // The check-in's question: fine, not fine (a not-fine word wins over the fine word it holds), or neither.
    for (text, language, answer) in [
        ("Oui, ça va", "fr", Some(true)),
        ("Non, pas bien", "fr", Some(false)),
        ("Estoy bien", "es", Some(true)),
        ("No estoy bien", "es", Some(false)),
        ("Sì, tutto bene", "it", Some(true)),
        ("Non sto bene", "it", Some(false)),
        ("Het gaat goed", "nl", Some(true)),
        ("Wszystko w porządku", "pl", Some(true)),
        ("Nie", "pl", Some(false)),
        ("Não estou bem", "pt", Some(false)),
        ("Quel temps fait-il ?", "fr", None),
    ] {
        assert_eq!(fine(text, language), answer, "{text}");
    }
}

#[test]
fn no_ordinary_sentence_of_the_corpus_is_taken_for_a_request_and_the_requests_are_read() {
    // Per language (issue 76): at least 100 requests and 100 ordinary sentences with the same words, no
    // misfire at all, at most 5 % of the requests missed (the figures: docs/decisions.md, issue 76).
    for language in ["de", "en", "es", "fr", "it", "nl", "pl", "pt"] {
        let super::corpus::Figures {
            requests,
            ordinary,
            missed,
            misfired,
        } = super::corpus::shipped(language).unwrap();
        println!(
            "{language}: {requests} requests, {} missed, {} misfired",
            missed.len(),
            misfired.len()
        );
        for line in missed.iter().chain(&misfired) {
            println!("  {line}");
        }
        assert!(
            requests >= 100 && ordinary >= 100,
            "{language}: {requests} requests, {ordinary} ordinary"
        );
        assert!(misfired.is_empty(), "{language}: {misfired:#?}");
        assert!(missed.len() * 20 <= requests, "{language}: {missed:#?}");
    }
}
