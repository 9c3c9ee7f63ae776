//! A language a translator adds as a folder (`LOCALES_DIR/tr/*.ftl`): the real binary reads it at start,
//! accepts it as a person's language, and its words reach the person on the help button, in a turn and on
//! the telephone; what the folder lacks is said in English.

use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio_tungstenite::connect_async;

use crate::common::{eventually, free_port};
use crate::fakes::{Fake, Reply, wav};
use crate::smtp::{Mode, SmtpServer};
use crate::ws::Client;

/// Turkish as a translator starts it: the help button's answer, the request to speak again, the
/// telephone's greeting, a reminder due, the page's help button, two ways to ask for a reminder (its time
/// in digits, which every language reads, and a day and an hour in Turkish words), and a call for help with
/// its yes; nothing else yet.
const TURKISH: [(&str, &str); 9] = [
    (
        "help.sentences",
        "{call-alone} = yardım\n{call-alone} = yardım edin\n{call-anywhere} = düştüm\n\
         {call-anywhere} = ambulans çağırın\n{answer-yes} = evet\n{answer-no} = hayır\n\
         {call-prompt} = Yardım edin! Düştüm, kalkamıyorum.\n",
    ),
    (
        "care.sentences",
        "set: [lütfen] bana saat {clock} {text} hatırlat\nset: [lütfen] [bana] {when} {text} hatırlat\n\
         yes: (evet|tamam|aldım)\n",
    ),
    (
        "times.sentences",
        "{hour} 8 = (sekiz|sekizde)\n{hour} 9 = (dokuz|dokuzda)\ntomorrow: yarın\nclock: saat {hour}\n",
    ),
    ("page.ftl", "page-help = Yardım\n"),
    ("language.ftl", "language-name = Türkçe\n"),
    (
        "help.ftl",
        "help-no-recipients = Henüz kimse bilgilendirilmek üzere kayıtlı değil. Lütfen 112'yi kendiniz arayın.\n",
    ),
    (
        "turn.ftl",
        "turn-speak-again = Hiçbir şey anlayamadım. Lütfen tekrar söyleyin.\n",
    ),
    ("care.ftl", "care-due = Hatırlatma: { $text }.\n"),
    (
        "phone.ftl",
        "phone-greeting-named = Merhaba { $name }. Size nasıl yardımcı olabilirim?\n",
    ),
];

struct Gateway {
    _child: tokio::process::Child,
    base: String,
    http: reqwest::Client,
}

impl Gateway {
    async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        auth: (&str, &str),
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.base))
            .header(auth.0, auth.1);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("the gateway answers");
        let status = response.status();
        (status, response.json().await.unwrap_or(Value::Null))
    }
}

/// The admin key of the Turkish gateway.
const ADMIN: (&str, &str) = ("X-Admin-Key", "languages-admin-key");

/// The real binary with the Turkish folder, its fakes and mail relay.
struct Turkish {
    gateway: Gateway,
    tts: Fake,
    smtp: SmtpServer,
    port: u16,
    audiosocket: u16,
    _kept: (Fake, Fake, tempfile::TempDir, tempfile::TempDir),
}

/// Ayşe, whose language is Turkish: her id and bearer token.
struct Ayse {
    id: String,
    token: String,
    bearer: String,
}

impl Ayse {
    fn me(&self) -> (&str, &str) {
        ("Authorization", self.bearer.as_str())
    }
}

async fn turkish_gateway() -> Turkish {
    let locales = tempfile::tempdir().unwrap();
    std::fs::create_dir(locales.path().join("tr")).unwrap();
    for (file, text) in TURKISH {
        std::fs::write(locales.path().join("tr").join(file), text).unwrap();
    }
    let stt = Fake::start().await;
    stt.always("/v1/audio/transcriptions", Reply::Json(json!({"text": " "})));
    let llm = Fake::answering(&["Tamam."]).await;
    let tts = Fake::start().await;
    tts.always("/v1/audio/speech", Reply::Bytes("audio/wav", wav(2400)));
    let data = tempfile::tempdir().unwrap();
    let smtp = SmtpServer::start(Mode::Accept).await;
    let smtp_port = smtp.port.to_string();
    let (port, audiosocket) = (free_port(), free_port());
    let child = crate::browser::gateway_binary(
        data.path(),
        &stt,
        &llm,
        &[
            ("LOCALES_DIR", locales.path().display().to_string()),
            ("LISTEN_ADDR", format!("127.0.0.1:{port}")),
            ("ADMIN_API_KEY", "languages-admin-key".into()),
            ("OPENAI_TTS_URL", tts.v1()),
            ("DEFAULT_TTS_PROVIDER", "openai".into()),
            ("AUDIOSOCKET_ADDR", format!("127.0.0.1:{audiosocket}")),
            ("AUDIOSOCKET_USER", "ayse".into()),
            ("SMTP_HOST", "127.0.0.1".into()),
            ("SMTP_PORT", smtp_port),
            ("SMTP_FROM", "gateway@care.example".into()),
            ("SMTP_SECURITY", "none".into()),
        ],
    );
    let gateway = Gateway {
        _child: child,
        base: format!("http://127.0.0.1:{port}"),
        http: reqwest::Client::new(),
    };
    eventually("the gateway is up", 30, || async {
        let r = gateway
            .http
            .get(format!("{}/api/config", gateway.base))
            .send()
            .await
            .ok()?;
        r.status().is_success().then_some(())
    })
    .await;
    Turkish {
        gateway,
        tts,
        smtp,
        port,
        audiosocket,
        _kept: (stt, llm, locales, data),
    }
}

#[tokio::test]
async fn a_language_added_as_a_folder_reaches_the_person_and_what_it_lacks_is_said_in_english() {
    let t = turkish_gateway().await;
    let ayse = turkish_menus_and_ayse(&t).await;
    help_button_and_speech_in_turkish(&t, &ayse).await;
    let mut page = reminders_on_the_turkish_page(&t, &ayse).await;
    a_turkish_call_for_help_and_its_yes(&t, &ayse, &mut page).await;
    the_page_reads_turkish_files(&t.gateway).await;
    a_call_is_greeted_in_turkish(&t).await;
}

/// The page offers Turkish beside the shipped languages, and a person may choose it.
async fn turkish_menus_and_ayse(t: &Turkish) -> Ayse {
    let (gateway, admin) = (&t.gateway, ADMIN);
    let (_, config) = gateway.call(reqwest::Method::GET, "/api/config", admin, None).await;
    let offered: Vec<&str> = config["available"]["languages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        offered.contains(&"tr") && offered.contains(&"de") && offered.contains(&"en"),
        "{config}"
    );
    // Each by its own name in the menus: the folder names Turkish.
    assert_eq!(config["available"]["language_names"]["tr"], "Türkçe", "{config}");
    assert_eq!(config["available"]["language_names"]["de"], "Deutsch", "{config}");
    let (status, user) = gateway
        .call(
            reqwest::Method::POST,
            "/api/admin/users",
            admin,
            Some(json!({"name": "ayse", "display_name": "Ayşe"})),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{user}");
    let (id, token) = (
        user["id"].as_str().unwrap(),
        user["token"].as_str().unwrap().to_string(),
    );
    let (status, prefs) = gateway
        .call(
            reqwest::Method::PUT,
            &format!("/api/admin/users/{id}/prefs"),
            admin,
            Some(json!({"language": "tr"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{prefs}");
    Ayse {
        id: id.to_string(),
        bearer: format!("Bearer {token}"),
        token,
    }
}

async fn help_button_and_speech_in_turkish(t: &Turkish, ayse: &Ayse) {
    let (gateway, me, port, token) = (&t.gateway, ayse.me(), t.port, &ayse.token);
    // The help button: nobody to tell, said in Turkish; the page's warning the folder lacks, in English.
    let (_, pressed) = gateway
        .call(reqwest::Method::POST, "/api/emergency", me, Some(json!({})))
        .await;
    assert_eq!(pressed["status"], "no_recipients", "{pressed}");
    assert_eq!(
        pressed["message"],
        "Henüz kimse bilgilendirilmek üzere kayıtlı değil. Lütfen 112'yi kendiniz arayın."
    );
    let (_, status) = gateway
        .call(reqwest::Method::GET, "/api/emergency/status", me, None)
        .await;
    assert!(
        status["warning"]
            .as_str()
            .unwrap_or_default()
            .starts_with("Help reaches nobody yet"),
        "{status}"
    );

    // A turn whose speech was not understood asks again in Turkish.
    let url = format!("ws://127.0.0.1:{port}/ws/voice?token={token}");
    let (ws, _) = connect_async(url).await.expect("handshake");
    let mut ws = Client::new(ws);
    ws.send(json!({"type": "start", "text_only": true})).await;
    ws.send_audio(&[0i16; 4800]).await;
    ws.send(json!({"type": "end"})).await;
    let error = ws.next_of("error").await;
    assert_eq!(
        error["message"], "Hiçbir şey anlayamadım. Lütfen tekrar söyleyin.",
        "{error}"
    );
}

async fn reminders_on_the_turkish_page(t: &Turkish, ayse: &Ayse) -> Client {
    let (gateway, me, port, token) = (&t.gateway, ayse.me(), t.port, &ayse.token);
    // A reminder due reaches the open page in Turkish; the timer's end, which the folder lacks, in English.
    let url = format!("ws://127.0.0.1:{port}/ws/chat?token={token}");
    let (page, _) = connect_async(url).await.expect("handshake");
    let mut page = Client::new(page);
    let soon = jiff::Timestamp::now()
        .checked_add(jiff::SignedDuration::from_secs(1))
        .unwrap()
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string();
    for body in [json!({"text": "ilaçlar", "due_at": soon}), json!({"in_seconds": 1})] {
        let (status, set) = gateway
            .call(reqwest::Method::POST, "/api/me/reminders", me, Some(body))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{set}");
    }
    let mut said = vec![
        page.next_of("reminder").await["said"].clone(),
        page.next_of("reminder").await["said"].clone(),
    ];
    said.sort_by_key(Value::to_string);
    assert_eq!(said, ["Hatırlatma: ilaçlar.", "Time is up: your timer has finished."]);
    // The folder's sentence sets a reminder (said back in English, which the folder lacks); the same words
    // without the sentence's shape go to the model.
    page.send(json!({"text": "Lütfen bana saat 20:30 ilaçlarımı hatırlat", "text_only": true}))
        .await;
    let set = page.next_of("semantic").await;
    assert!(
        set["text"].as_str().unwrap().starts_with("OK, I'll remind you"),
        "{set}"
    );
    // A Turkish day and hour, from the folder's times.sentences.
    page.send(json!({"text": "yarın saat sekizde ilaçlarımı hatırlat", "text_only": true}))
        .await;
    let set = page.next_of("semantic").await;
    assert!(set["text"].as_str().unwrap().contains("tomorrow"), "{set}");
    let (_, listed) = gateway.call(reqwest::Method::GET, "/api/me/reminders", me, None).await;
    let texts: Vec<&Value> = listed["reminders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["text"])
        .collect();
    assert_eq!(texts.iter().filter(|t| **t == "ilaçlarımı").count(), 2, "{listed}");
    page.send(json!({"text": "Hatırlat bana, Casablanca kimin filmi?", "text_only": true}))
        .await;
    assert_eq!(page.next_of("semantic").await["text"], "Tamam.");
    page
}

async fn a_turkish_call_for_help_and_its_yes(t: &Turkish, ayse: &Ayse, page: &mut Client) {
    let (gateway, admin, id) = (&t.gateway, ADMIN, &ayse.id);
    // A Turkish call for help, typed: with nobody to tell, she is told so in Turkish at once.
    page.send(json!({"text": "Yardım edin, düştüm!", "text_only": true}))
        .await;
    let help = page.next_of("help").await;
    assert_eq!(help["status"], "no_recipients", "{help}");
    // With her daughter entered, it is asked about, and her "evet" is the yes: the alarm reaches her.
    let contacts = json!({"language": "tr", "emergency_contacts": ["kizi@family.example"]});
    let path = format!("/api/admin/users/{id}/prefs");
    let (status, _) = gateway.call(reqwest::Method::PUT, &path, admin, Some(contacts)).await;
    assert_eq!(status, StatusCode::OK);
    // The press that reached nobody opened the wait; the operator ends it, as the answer says one may.
    let wait = format!("/api/admin/users/{id}/emergency/cooldown");
    let (status, _) = gateway.call(reqwest::Method::DELETE, &wait, admin, None).await;
    assert!(status.is_success(), "{status}");
    page.send(json!({"text": "Yardım edin, düştüm!", "text_only": true}))
        .await;
    assert!(page.next_of("help_asked").await["text"].is_string());
    page.send(json!({"text": "evet", "text_only": true})).await;
    let help = page.next_of("help").await;
    assert_eq!(help["status"], "alerted", "{help}");
    let mails = eventually("the alarm mail", 10, || async {
        let mails = t.smtp.mails();
        (!mails.is_empty()).then_some(mails)
    })
    .await;
    crate::emergency::mail_to(&mails, "kizi@family.example");
}

async fn the_page_reads_turkish_files(gateway: &Gateway) {
    // The page reads Turkish's file (its help button), English for the rest; only the pages' areas are served.
    let file = |path: String| {
        let http = gateway.http.clone();
        async move {
            let r = http.get(path).send().await.unwrap();
            (r.status(), r.text().await.unwrap())
        }
    };
    let (status, page) = file(format!("{}/ui/locales/tr/page.ftl", gateway.base)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("page-help = Yardım"), "{page}");
    let (status, _) = file(format!("{}/ui/locales/tr/help.ftl", gateway.base)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = file(format!("{}/ui/locales/xx/page.ftl", gateway.base)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

async fn a_call_is_greeted_in_turkish(t: &Turkish) {
    let (audiosocket, tts) = (t.audiosocket, &t.tts);
    // A call over AudioSocket is greeted in Turkish: the words the voice was asked to say.
    let mut call = tokio::net::TcpStream::connect(("127.0.0.1", audiosocket))
        .await
        .unwrap();
    let mut hello = vec![0x01, 0x00, 0x10];
    hello.extend_from_slice(uuid::Uuid::from_u128(0x5eed).as_bytes());
    call.write_all(&hello).await.unwrap();
    // (The page's reminders were spoken too: the greeting is among what the voice was asked to say.)
    // The help key, which the folder does not say, in English after it (told once a day).
    let greeting = "Merhaba Ayşe. Size nasıl yardımcı olabilirim? For help, press 0 at any time.";
    eventually("the greeting is spoken", 10, || async {
        tts.requests("/v1/audio/speech")
            .iter()
            .any(|r| r.json()["input"] == greeting)
            .then_some(())
    })
    .await;
}
