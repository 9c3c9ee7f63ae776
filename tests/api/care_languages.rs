//! Care heard in every shipped language (issue 76): typed on `POST /api/chat`, a daily reminder with its clock
//! time in words, a timer, the list and a cancel are done by the gateway itself, in the person's language,
//! without the model; and a day said without its time is asked for, not guessed.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{As, TestApp};
use crate::fakes::{CHAT, Fake};
use crate::reminders::{answer_on, reminders, tomorrow_in_berlin};
use crate::ws::connect;

/// Per language: a daily reminder at 8:30 in words, a ten-minute timer, the list, and the cancel of the first.
const SAID: [(&str, [&str; 4]); 8] = [
    (
        "de",
        [
            "Erinnere mich jeden Tag um halb neun an meine Tabletten",
            "Stell einen Timer auf zehn Minuten",
            "Welche Erinnerungen habe ich?",
            "Lösch die Erinnerung an meine Tabletten",
        ],
    ),
    (
        "en",
        [
            "Remind me every day at half past eight to take my pills",
            "Set a timer for ten minutes",
            "What reminders do I have?",
            "Cancel the reminder about my pills",
        ],
    ),
    (
        "fr",
        [
            "Rappelle-moi tous les jours à huit heures et demie de prendre mes médicaments",
            "Mets un minuteur de dix minutes",
            "Quels sont mes rappels ?",
            "Supprime le rappel de prendre mes médicaments",
        ],
    ),
    (
        "es",
        [
            "Recuérdame todos los días a las ocho y media que tome las pastillas",
            "Pon un temporizador de diez minutos",
            "¿Qué recordatorios tengo?",
            "Borra el recordatorio de las pastillas",
        ],
    ),
    (
        "it",
        [
            "Ricordami ogni giorno alle otto e mezza di prendere le medicine",
            "Imposta un timer di dieci minuti",
            "Quali promemoria ho?",
            "Cancella il promemoria di prendere le medicine",
        ],
    ),
    (
        "nl",
        [
            "Herinner me elke dag om half negen aan mijn medicijnen",
            "Zet een timer van tien minuten",
            "Welke herinneringen heb ik?",
            "Verwijder de herinnering aan mijn medicijnen",
        ],
    ),
    (
        "pl",
        [
            "Przypominaj mi codziennie o wpół do dziewiątej o lekach",
            "Ustaw minutnik na dziesięć minut",
            "Jakie mam przypomnienia?",
            "Usuń przypomnienie o lekach",
        ],
    ),
    (
        "pt",
        [
            "Lembra-me todos os dias às oito e meia de tomar os comprimidos",
            "Põe um temporizador de dez minutos",
            "Que lembretes tenho?",
            "Apaga o lembrete de tomar os comprimidos",
        ],
    ),
];

async fn say(app: &TestApp, token: &str, language: &str, text: &str) -> String {
    let body = json!({"text": text, "language": language, "text_only": true});
    let r = app.call(Method::POST, "/api/chat", As::Bearer(token), Some(body)).await;
    assert_eq!(r.status, 200, "{text}: {}", r.body);
    r.body["text"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_daily_reminder_in_words_a_timer_the_list_and_a_cancel_are_heard_in_all_eight_languages() {
    let llm = Fake::answering(&["The model should never say this."]).await;
    let (app, token, id) = TestApp::with().llm(&llm).user("erika").await;
    for (language, [daily, timer, list, cancel]) in SAID {
        app.set_prefs(&id, json!({"timezone": "Europe/Berlin", "language": language}))
            .await;
        let set = say(&app, &token, language, daily).await;
        let timer_set = say(&app, &token, language, timer).await;
        let held = reminders(&app, &token).await;
        let daily_one: Vec<&Value> = held.iter().filter(|r| r["repeat"] == "FREQ=DAILY").collect();
        assert_eq!(daily_one.len(), 1, "{language}: {set} / {held:#?}");
        assert!(
            daily_one[0]["due_at"].as_str().unwrap()[10..].starts_with("T08:30:00"),
            "{language}: {held:#?}"
        );
        assert_eq!(
            held.iter().filter(|r| r["timer"] == true).count(),
            1,
            "{language}: {timer_set}"
        );
        // The list says the daily one's time as the language writes it ("8:30", "8 heures 30", "ósmej 30").
        let listed = say(&app, &token, language, list).await;
        assert!(listed.contains("30"), "{language}: {listed}");
        let cancelled = say(&app, &token, language, cancel).await;
        let left = reminders(&app, &token).await;
        assert!(
            left.iter().all(|r| r["repeat"] != "FREQ=DAILY"),
            "{language}: {cancelled} / {left:#?}"
        );
        // The timer goes too, for the next language's count.
        for r in left {
            let path = format!("/api/me/reminders/{}", r["id"].as_str().unwrap());
            assert_eq!(
                app.call(Method::DELETE, &path, As::Bearer(&token), None).await.status,
                204
            );
        }
    }
    assert!(llm.requests(CHAT).is_empty(), "the model was never asked");
}

#[tokio::test]
async fn a_day_without_its_time_is_asked_for_and_the_answer_keeps_the_day() {
    let (app, token, id) = TestApp::with().user("erika").await;
    app.set_prefs(&id, json!({"timezone": "Europe/Berlin"})).await;
    let mut page = connect(&app, "/ws/chat", &token).await;
    let mut ask = async |text: &str| answer_on(&mut page, text).await;
    assert_eq!(
        ask("Erinnere mich morgen an den Arzttermin").await,
        "Um wie viel Uhr? Sagen Sie zum Beispiel: um halb zehn."
    );
    assert!(reminders(&app, &token).await.is_empty(), "nothing guessed");
    let set = ask("um halb zehn").await;
    assert!(set.ends_with("um 9:30 Uhr an den Arzttermin."), "{set}");
    let held = reminders(&app, &token).await;
    assert_eq!(
        held[0]["due_at"].as_str().unwrap()[..19],
        format!("{}T09:30:00", tomorrow_in_berlin())
    );
    // A bare hour answers it too.
    assert!(
        ask("Erinnere mich übermorgen an die Post")
            .await
            .starts_with("Um wie viel Uhr?")
    );
    assert!(ask("9").await.ends_with("um 9 Uhr an die Post."));
    // With her usual time chosen, it is used and said.
    app.set_prefs(&id, json!({"timezone": "Europe/Berlin", "reminder_time": "10:15"}))
        .await;
    let set = ask("Erinnere mich morgen an den Friseur").await;
    assert!(set.ends_with("um 10:15 Uhr an den Friseur."), "{set}");
    assert_eq!(reminders(&app, &token).await.len(), 3);
}
