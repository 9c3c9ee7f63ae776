//! Help reaches whoever an alarm would reach, and never goes out without the person's yes: a resident whose
//! only contact is her carer's own mail is asked, on every channel, and the carer is mailed only after the
//! yes; while truly nobody can be reached, a call for help is told the 112 advice, and nothing is sent,
//! recorded or held back (a button press right after it sends). The telephone key is in `audiosocket.rs`,
//! Home Assistant's in `wyoming.rs`.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{As, TestApp, eventually, throughout};
use crate::emergency::{Setup, events, mail_to, press, setup};
use crate::fakes::{CHAT, Fake, Reply};
use crate::smtp::Mode;
use crate::ws::{connect, kinds};

const QUESTION: &str = "Soll ich Ihre Kontaktpersonen alarmieren? Sagen Sie bitte ja oder nein.";
const CARER: &str = "anna@heim.example";

/// Erika, who entered no contact of her own, on a gateway whose mail relay works and which has no contact of
/// its own and no telephone: until a carer is named, her help reaches nobody.
pub(crate) fn alone() -> [(&'static str, &'static str); 2] {
    [("EMERGENCY_CONTACT_EMAIL", ""), ("TWILIO_ACCOUNT_SID", "")]
}

pub(crate) fn erika() -> Value {
    json!({"full_name": "Erika Muster", "language": "de"})
}

/// Names Anna, with her own mail address, the carer of `resident`.
pub(crate) async fn name_carer(app: &TestApp, resident: &str) {
    let (anna, _) = app.create_user("schwester-anna").await;
    app.set_prefs(&anna, json!({"email": CARER, "language": "de"})).await;
    let path = format!("/api/admin/users/{resident}/carers");
    let r = app
        .call(Method::PUT, &path, As::AdminKey, Some(json!({"carers": [anna]})))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

/// Mails the relay received.
fn mails(s: &Setup) -> Vec<crate::smtp::Mail> {
    s.smtp.as_ref().unwrap().mails()
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

/// Nothing reaches the relay for a while after a question (a text question has no time limit).
async fn nothing_sent(s: &Setup) {
    throughout("no alarm without a yes", Duration::from_millis(500), || async {
        mails(s).is_empty()
    })
    .await;
}

fn is_112_advice(text: &str) {
    assert!(
        text.starts_with("Ihre Hilfe erreicht noch niemanden") && text.contains("112"),
        "{text}"
    );
}

#[tokio::test]
async fn a_typed_call_for_help_reaching_nobody_gets_112_sends_nothing_and_leaves_the_button_free() {
    let llm = Fake::answering(&["Gern."]).await;
    let url = llm.v1();
    let mut env = vec![("LOCAL_LLM_URL", url.as_str()), ("DEFAULT_LLM_PROVIDER", "local")];
    env.extend(alone());
    let s = setup(Some(Mode::Accept), &env, erika()).await;

    let told = chat(&s, "Hilfe, ich bin gestürzt!").await;

    assert_eq!(told["help"], "no_recipients", "{told}");
    is_112_advice(told["text"].as_str().unwrap());
    assert!(mails(&s).is_empty());
    assert!(events(&s.app, &s.id).await.is_empty(), "no press was recorded");
    assert!(llm.requests(CHAT).is_empty(), "a call for help never reaches the model");
    let banner = |h: Value| h["users_without_working_channel"].clone();
    let health = s.app.get("/api/admin/providers", As::AdminKey).await.body;
    assert_eq!(
        banner(health),
        json!(["anna"]),
        "only she, not the admin or the anonymous user"
    );
    // A carer is named: the banner names nobody (the carer, who only cares, is no person whose help matters),
    // and the button pressed right after is not held back by the call nobody confirmed.
    name_carer(&s.app, &s.id).await;
    let health = s.app.get("/api/admin/providers", As::AdminKey).await.body;
    assert_eq!(banner(health), json!([]));
    let pressed = press(&s, None).await;
    assert_eq!(pressed.body["status"], "alerted", "{}", pressed.body);
    let mail = eventually("the carer's mail", 10, || async {
        mails(&s).iter().find(|m| m.recipients == [CARER]).cloned()
    })
    .await;
    assert!(mail.header("subject").contains("Erika Muster"));
}

#[tokio::test]
async fn a_resident_only_her_carer_reaches_is_asked_when_typing_and_the_carer_mailed_only_after_her_yes() {
    let llm = Fake::answering(&["Gern."]).await;
    let url = llm.v1();
    let mut env = vec![("LOCAL_LLM_URL", url.as_str()), ("DEFAULT_LLM_PROVIDER", "local")];
    env.extend(alone());
    let s = setup(Some(Mode::Accept), &env, erika()).await;
    name_carer(&s.app, &s.id).await;
    let status = s
        .app
        .get("/api/emergency/status?language=de", As::Bearer(&s.token))
        .await;
    assert_eq!(status.body["reach"], "somebody", "{}", status.body);
    assert_eq!(
        status.body["reaches_text"],
        "Ein Hilferuf erreicht jetzt die Pflegekraft per E-Mail."
    );

    // On the REST API: asked, and a no sends nothing.
    let asked = chat(&s, "Hilfe, ich bin gestürzt!").await;
    assert_eq!(
        (asked["help"].as_str(), asked["text"].as_str()),
        (Some("asked"), Some(QUESTION))
    );
    nothing_sent(&s).await;
    assert_eq!(chat(&s, "nein").await["help"], "declined");
    // On the chat socket: asked, and only the yes mails the carer.
    let mut ws = connect(&s.app, "/ws/chat", &s.token).await;
    ws.send(json!({"text": "Hilfe, ich bin gestürzt!", "language": "de"}))
        .await;
    let asked = ws.turn().await;
    assert_eq!(asked[0].json()["type"], "help_asked", "{asked:?}");
    nothing_sent(&s).await;
    ws.send(json!({"text": "ja", "language": "de"})).await;
    let answered = ws.turn().await;
    assert_eq!(answered[0].json()["status"], "alerted", "{answered:?}");
    let mail = eventually("the carer's mail", 10, || async {
        mails(&s).iter().find(|m| m.recipients == [CARER]).cloned()
    })
    .await;
    assert!(mail.header("subject").contains("Erika Muster"));
    assert!(llm.requests(CHAT).is_empty());
}

/// The fake recogniser hears `texts` in turn.
async fn hearing(texts: &[&str]) -> Fake {
    let stt = Fake::start().await;
    for text in texts {
        stt.then("/v1/audio/transcriptions", Reply::Json(json!({"text": text})));
    }
    stt
}

#[tokio::test]
async fn a_spoken_call_for_help_reaching_nobody_is_told_112_and_once_a_carer_is_named_is_asked() {
    let stt = hearing(&["Hilfe! Ich komme nicht mehr hoch.", "Hilfe!", "Ja, bitte."]).await;
    let llm = Fake::answering(&["Gern."]).await;
    let (stt_url, llm_url) = (stt.v1(), llm.v1());
    let mut env = vec![
        ("OPENAI_STT_URL", stt_url.as_str()),
        ("DEFAULT_STT_PROVIDER", "openai"),
        ("LOCAL_LLM_URL", llm_url.as_str()),
        ("DEFAULT_LLM_PROVIDER", "local"),
        ("DEFAULT_TTS_PROVIDER", "espeak"),
        ("HELP_CONFIRM_SECONDS", "20"),
    ];
    env.extend(alone());
    let s = setup(Some(Mode::Accept), &env, erika()).await;
    let mut ws = connect(&s.app, "/ws/voice", &s.token).await;
    ws.send(json!({"type": "start", "language": "de"})).await;

    let told = crate::ws::say(&mut ws).await;
    assert_eq!(kinds(&told), ["transcript", "help", "audio", "binary", "done"]);
    assert_eq!(told[1].json()["status"], "no_recipients");
    is_112_advice(told[1].json()["message"].as_str().unwrap());
    assert!(events(&s.app, &s.id).await.is_empty(), "nothing recorded");

    name_carer(&s.app, &s.id).await;
    let asked = crate::ws::say(&mut ws).await;
    assert_eq!(asked[1].json()["type"], "help_asked", "{asked:?}");
    nothing_sent(&s).await;
    let yes = crate::ws::say(&mut ws).await;
    assert_eq!(yes[1].json()["status"], "alerted", "no window was open: {yes:?}");
    // The mail says she spoke, and her words (the call for help, not the yes).
    let body = mail_to(&mails(&s), CARER).body();
    assert!(
        body.contains("per Sprache") && body.contains("Erika Muster sagte: „Hilfe!“"),
        "{body}"
    );
    assert!(llm.requests(CHAT).is_empty());
}

#[tokio::test]
async fn the_mail_of_a_typed_call_for_help_tells_she_wrote_her_words_and_no_key_without_calls() {
    let llm = Fake::answering(&["Gern."]).await;
    let url = llm.v1();
    let mut env = vec![("LOCAL_LLM_URL", url.as_str()), ("DEFAULT_LLM_PROVIDER", "local")];
    env.extend(alone());
    let s = setup(Some(Mode::Accept), &env, erika()).await;
    name_carer(&s.app, &s.id).await;
    s.app.set_prefs(&s.id, json!({"timezone": "Europe/Berlin"})).await;

    assert_eq!(chat(&s, "Hilfe, ich bin gestürzt!").await["help"], "asked");
    assert_eq!(chat(&s, "ja").await["help"], "alerted");

    let mail = eventually("the carer's mail", 10, || async {
        mails(&s).iter().find(|m| m.recipients == [CARER]).cloned()
    })
    .await;
    let body = mail.body();
    assert!(body.contains("schriftlich Hilfe angefordert"), "{body}");
    assert!(
        body.contains("Erika Muster schrieb: „Hilfe, ich bin gestürzt!“"),
        "{body}"
    );
    assert!(!body.contains("mit der 1"), "no key to press without calls: {body}");
    // The acknowledgement page tells the words and the time on her clock, named.
    // The link names the gateway's default address (no PUBLIC_URL here); the test's gateway listens elsewhere.
    let link = crate::emergency::ack_link(&body);
    let path = &link[link.find("/api/").unwrap()..];
    let page = s.app.client.get(s.app.url(path)).send().await.unwrap();
    let html = page.text().await.unwrap();
    assert!(html.contains("schrieb: „Hilfe, ich bin gestürzt!“"), "{html}");
    assert!(html.contains("(Europe/Berlin)"), "{html}");
}
