//! Help in typed text: a call for help typed on any text channel (`/ws/chat`, `POST /api/chat`,
//! `/v1/chat/completions`) is asked about, never sent to the model; only the person's explicit yes (typed, the
//! key typed alone, the help button) alerts the contacts; a no, the dialog's no, or silence sends nothing; a
//! harmless sentence with the same words goes to the model.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{As, throughout};
use crate::emergency::{SMS, Setup, mail_to, profile, setup};
use crate::fakes::{CHAT, Fake};
use crate::smtp::Mode;
use crate::ws::{connect, kinds};

const QUESTION: &str = "Soll ich Ihre Kontaktpersonen alarmieren? Sagen Sie bitte ja oder nein.";

/// Anna's gateway: the mail relay and Twilio work, `llm` answers whatever reaches the model.
async fn typed_setup(llm: &Fake, extra: &[(&str, &str)]) -> Setup {
    let url = llm.v1();
    let mut env = vec![
        ("LOCAL_LLM_URL", url.as_str()),
        ("DEFAULT_LLM_PROVIDER", "local"),
        ("DEFAULT_TTS_PROVIDER", "espeak"),
        ("MEMORY_EXTRACTION_ENABLED", "false"),
        ("WEB_SEARCH_ENABLED", "false"),
        ("FILLER_AFTER_MS", "0"),
    ];
    env.extend_from_slice(extra);
    setup(Some(Mode::Accept), &env, profile()).await
}

fn mails(s: &Setup) -> usize {
    s.smtp.as_ref().unwrap().mails().len()
}

async fn chat(s: &Setup, text: &str) -> Value {
    let body = json!({"text": text, "text_only": true});
    let r = s
        .app
        .call(Method::POST, "/api/chat", As::Bearer(&s.token), Some(body))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

#[tokio::test]
async fn a_call_for_help_typed_on_the_chat_socket_asks_and_only_its_ja_alerts() {
    let llm = Fake::answering(&["Gern, ", "hier ist das Rezept."]).await;
    let s = typed_setup(&llm, &[]).await;
    let mut ws = connect(&s.app, "/ws/chat", &s.token).await;

    // Typed in fright, as the person did.
    ws.send(json!({"text": "Hilfe, ich bin gestürzt!", "language": "de", "stream": true}))
        .await;
    let asked = ws.turn().await;
    assert_eq!(kinds(&asked)[..2], ["help_asked", "ack"], "{asked:?}");
    assert_eq!(asked[0].json()["text"], QUESTION);
    assert_eq!(asked[0].json()["seconds"], 0, "on a text channel silence sends nothing");
    assert!(
        kinds(&asked).contains(&"audio".to_string()),
        "the question is spoken too"
    );
    // Silence: nothing goes out while the person does not answer (the voice channels' window is 20 s; a typed
    // question has none, so a short look suffices to catch an alarm sent at once).
    throughout(
        "no alarm without a yes",
        std::time::Duration::from_millis(500),
        || async { mails(&s) == 0 },
    )
    .await;

    ws.send(json!({"text": "ja", "language": "de", "stream": true})).await;
    let answered = ws.turn().await;
    assert_eq!(answered[0].json()["type"], "help", "{answered:?}");
    assert_eq!(answered[0].json()["status"], "alerted");
    assert_eq!(
        answered[0].json()["message"],
        "Hilfe ist unterwegs: Ihre Kontaktpersonen wurden benachrichtigt."
    );
    mail_to(&s.smtp.as_ref().unwrap().mails(), "tochter@family.example");
    assert_eq!(s.twilio.requests(SMS).len(), 1);

    // The same words in a harmless sense go to the model, and so does a "ja" once the question is answered.
    ws.send(json!({"text": "Kannst du mir beim Rezept helfen?", "language": "de", "stream": true}))
        .await;
    let harmless = ws.turn().await;
    assert!(kinds(&harmless).contains(&"semantic".to_string()), "{harmless:?}");
    assert!(!kinds(&harmless).iter().any(|k| k.starts_with("help")), "{harmless:?}");
    assert_eq!(
        llm.requests(CHAT).len(),
        1,
        "only the harmless question reached the model"
    );
}

#[tokio::test]
async fn on_the_rest_api_a_typed_call_asks_a_no_declines_and_a_1_alerts_though_the_quota_is_spent() {
    let llm = Fake::answering(&["Gern."]).await;
    let s = typed_setup(&llm, &[("DAILY_REQUEST_LIMIT", "1")]).await;
    // The one request of the day goes to the model.
    assert_eq!(chat(&s, "Wie spät ist es?").await["help"], Value::Null);

    // Emergencies bypass the quota: the call is asked about, a no ends it.
    let asked = chat(&s, "hilfe ich komme nicht hoch").await;
    assert_eq!(
        (asked["help"].as_str(), asked["text"].as_str()),
        (Some("asked"), Some(QUESTION)),
        "{asked}"
    );
    let declined = chat(&s, "Nein, doch nicht.").await;
    assert_eq!(declined["help"], "declined", "{declined}");
    assert_eq!(declined["text"], "In Ordnung, ich alarmiere niemanden.");
    assert_eq!(mails(&s), 0);

    // Asked again: the question's key typed alone is a yes.
    assert_eq!(chat(&s, "HILFE!!").await["help"], "asked");
    let alerted = chat(&s, "1").await;
    assert_eq!(alerted["help"], "alerted", "{alerted}");
    crate::common::eventually("the mail", 10, || async { mails(&s) >= 1 }).await;
    assert_eq!(llm.requests(CHAT).len(), 1, "no call for help reached the model");
    // A typed yes is a typed alarm: the log knows how help was asked.
    let press: Vec<(String,)> = voice_gateway::with_pool!(s.app.store, pool => sqlx::query_as(
        "SELECT press FROM emergency_alarms WHERE user_id = $1",
    )
    .bind(&s.id)
    .fetch_all(pool)
    .await
    .unwrap());
    assert!(press[0].0.contains("\"way\":\"typed\""), "{press:?}");
}

#[tokio::test]
async fn the_openai_compatible_api_asks_too_whole_and_streamed() {
    let llm = Fake::answering(&["Sure."]).await;
    let s = typed_setup(&llm, &[]).await;
    let ask = |text: &str, stream: bool| json!({"model": "default", "stream": stream, "messages": [{"role": "user", "content": text}]});

    let whole = s
        .app
        .call(
            Method::POST,
            "/v1/chat/completions",
            As::Bearer(&s.token),
            Some(ask("Ich bin gestürzt", false)),
        )
        .await;
    assert_eq!(whole.status, 200, "{}", whole.body);
    assert_eq!(whole.body["choices"][0]["message"]["content"], QUESTION);

    let streamed = s
        .app
        .request(Method::POST, "/v1/chat/completions", As::Bearer(&s.token))
        .json(&ask("ja", true))
        .send()
        .await
        .unwrap();
    assert_eq!(streamed.status(), 200);
    let body = streamed.text().await.unwrap();
    assert!(
        body.contains("Hilfe ist unterwegs") && body.trim_end().ends_with("data: [DONE]"),
        "{body}"
    );
    assert!(mails(&s) > 0);
    assert!(llm.requests(CHAT).is_empty(), "a call for help never reaches the model");
}

#[tokio::test]
async fn the_button_or_the_dialogs_no_closes_a_typed_question() {
    let llm = Fake::answering(&["Ja, gern."]).await;
    let s = typed_setup(&llm, &[("EMERGENCY_COOLDOWN_MINUTES", "0")]).await;

    // The page's dialog said no: the question is closed, a later "ja" is a question for the model.
    assert_eq!(chat(&s, "Hilfe!").await["help"], "asked");
    let no = s
        .app
        .call(
            Method::DELETE,
            "/api/emergency/question?language=de",
            As::Bearer(&s.token),
            None,
        )
        .await;
    assert_eq!(
        (no.body["was_open"].as_bool(), no.body["message"].as_str()),
        (Some(true), Some("In Ordnung, ich alarmiere niemanden.")),
        "{}",
        no.body
    );
    assert_eq!(chat(&s, "ja").await["help"], Value::Null);
    assert_eq!(llm.requests(CHAT).len(), 1);

    // The dialog's yes is the help button: one alarm, and a "ja" typed after it raises no second one.
    assert_eq!(chat(&s, "Notfall!").await["help"], "asked");
    let pressed = crate::emergency::press(&s, None).await;
    assert_eq!(pressed.body["status"], "alerted");
    assert_eq!(chat(&s, "ja").await["help"], Value::Null);
    assert_eq!(crate::emergency::events(&s.app, &s.id).await, vec!["alerted"]);
}

#[tokio::test]
async fn a_reminder_due_while_the_help_question_waits_is_told_after_it_never_over_it() {
    let stt = Fake::start().await;
    stt.then(
        crate::ws::STT,
        crate::fakes::Reply::Json(json!({"text": "Hilfe! Hilfe!"})),
    );
    stt.then(crate::ws::STT, crate::fakes::Reply::Json(json!({"text": "Nein."})));
    let llm = Fake::answering(&["Gern."]).await;
    let s = crate::ws::help_setup(&stt, &llm, "60").await;
    let mut ws = connect(&s.app, "/ws/voice", &s.token).await;
    ws.send(json!({"type": "start", "language": "de"})).await;
    ws.send_audio(&crate::ws::tone(300)).await;
    ws.send(json!({"type": "end"})).await;
    assert_eq!(kinds(&ws.turn().await)[1], "help_asked");

    // The pill reminder falls due while the question waits for its answer: it is held.
    let reminder = json!({"type": "reminder", "id": "r1", "text": "Tabletten nehmen", "confirm": true,
        "due_at": "2026-11-29T08:00:00+01:00", "said": "Erinnerung: Tabletten nehmen."});
    assert_eq!(
        s.app.app.notify.push(&s.id, &reminder),
        1,
        "the voice connection is subscribed"
    );
    assert!(ws.quiet_for(300).await, "nothing is told over the help question");

    // The answer ends the dialogue; then the reminder comes, spoken.
    ws.send_audio(&crate::ws::tone(300)).await;
    ws.send(json!({"type": "end"})).await;
    let answered = ws.turn().await;
    assert_eq!(answered[1].json()["status"], "declined", "{answered:?}");
    let told = ws.next_of("reminder").await;
    assert_eq!(told["text"], "Tabletten nehmen");
    let spoken = ws.next_of("audio").await;
    assert_eq!(spoken["text"], "Erinnerung: Tabletten nehmen.");
}
