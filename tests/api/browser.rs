//! The assistant page in a real browser: Debian's Chromium, driven by `ui-tests/assistant.mjs` (playwright-core),
//! against the gateway with fake LLM, STT and search providers, the real espeak-ng, and the test's SMTP server.
//! Ignored by a plain `cargo test`; `scripts/test.sh` installs Chromium and the driver and runs it.

use std::process::Command;

use reqwest::Method;
use serde_json::json;
use voice_gateway::providers::audio::{Pcm, parse_wav};

use crate::common::{As, eventually, free_port, spawn_app};
use crate::emergency::ack_link;
use crate::fakes::{CHAT, Fake, Reply, tokens, tool_call};
use crate::smtp::{Mode, SmtpServer};

/// A spoken question for the fake microphone: espeak-ng's voice followed by silence, so that voice activity
/// detection ends the utterance before Chromium plays the file again.
fn spoken_question(text: &str, path: &std::path::Path) {
    let raw = tempfile::NamedTempFile::new().unwrap();
    assert!(
        Command::new("espeak-ng")
            .args(["-v", "en", "-w"])
            .arg(raw.path())
            .arg(text)
            .status()
            .unwrap()
            .success()
    );
    let mut pcm = parse_wav(&std::fs::read(raw.path()).unwrap()).unwrap();
    let rate = pcm.sample_rate as usize;
    pcm.samples.splice(0..0, std::iter::repeat_n(0, rate / 2));
    pcm.samples.extend(std::iter::repeat_n(0, rate * 2));
    std::fs::write(path, Pcm { channels: 1, ..pcm }.to_wav()).unwrap();
}

#[tokio::test]
#[ignore = "needs Chromium and node; scripts/test.sh runs it"]
async fn a_person_asks_by_text_and_by_voice_and_calls_for_help_in_the_browser() {
    let llm = Fake::answering(&["In Hamburg it rains.", " Take an umbrella."]).await;
    llm.then(CHAT, tool_call("web_search", r#"{"query": "weather Berlin"}"#));
    llm.then(
        CHAT,
        tokens(&[
            "It is sunny in Berlin.",
            " Enjoy the day, and take a long walk along the river in the afternoon sun.",
        ]),
    );
    let search = Fake::start().await;
    search.always(
        "/search",
        Reply::Json(
            json!({"results": [{"url": "https://wetter.example/berlin", "title": "Berlin", "content": "sunny"}]}),
        ),
    );
    let stt = Fake::start().await;
    stt.always(
        "/v1/audio/transcriptions",
        Reply::Json(json!({"text": "How is the weather in Hamburg?", "language": "en"})),
    );
    let smtp = std::sync::Arc::new(SmtpServer::start(Mode::Accept).await);
    let (llm_url, stt_url, search_url, smtp_port) = (llm.v1(), stt.v1(), search.base.clone(), smtp.port.to_string());
    let app = spawn_app(&[
        ("LOCAL_LLM_URL", &llm_url),
        ("DEFAULT_LLM_PROVIDER", "local"),
        ("OPENAI_STT_URL", &stt_url),
        ("DEFAULT_STT_PROVIDER", "openai"),
        ("WEB_SEARCH_ENABLED", "true"),
        ("SEARXNG_URL", &search_url),
        ("SMTP_HOST", "127.0.0.1"),
        ("SMTP_PORT", &smtp_port),
        ("SMTP_SECURITY", "none"),
        ("MEMORY_EXTRACTION_ENABLED", "false"),
        ("FILLER_AFTER_MS", "0"),
    ])
    .await;
    let (id, token) = app.create_user("oma").await;
    let prefs = json!({"allowed_languages": ["en"], "language": "en", "full_name": "Erna Beispiel",
        "emergency_contacts": ["enkel@family.example"], "location_consent": true});
    app.set_prefs(&id, prefs).await;

    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("question.wav");
    spoken_question("How is the weather in Hamburg?", &wav);
    // The grandchild confirms the alarm from the mail as soon as it arrives; the page must show it.
    let confirmer = {
        let (smtp, client) = (smtp.clone(), app.client.clone());
        tokio::spawn(async move {
            // Within the browser steps' own time: they wait for the page to show the confirmation.
            let mail = eventually("the alarm's mail", 300, || async { smtp.mails().first().cloned() }).await;
            let link = ack_link(&mail.body());
            assert_eq!(client.post(&link).send().await.unwrap().status(), 200);
        })
    };
    ui_steps(
        "assistant.mjs",
        &[
            ("BASE", format!("http://{}", app.addr)),
            ("LINK", format!("/?k={token}")),
            ("MIC_WAV", wav.display().to_string()),
            ("EXPECT_TRANSCRIPT", "Hamburg".into()),
        ],
    )
    .await;

    confirmer.await.unwrap();
    let mails = smtp.mails();
    assert_eq!(mails.len(), 1, "the help button sent the mail");
    assert_eq!(mails[0].recipients, vec!["enkel@family.example"]);
    assert!(
        mails[0].body().contains("53.55"),
        "the browser's position is in the dossier"
    );
    assert!(!stt.requests("/v1/audio/transcriptions").is_empty());
    // The question typed over the answer: the history sent with it holds the sentence that was heard, not the
    // one cut off.
    let typed = llm
        .requests(CHAT)
        .into_iter()
        .map(|r| r.json())
        .find(|asked| asked["messages"].as_array().unwrap().last().unwrap()["content"] == "What else?")
        .expect("the typed question reached the model");
    let answers: Vec<&str> = typed["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "assistant")
        .filter_map(|m| m["content"].as_str())
        .collect();
    assert_eq!(answers, ["It is sunny in Berlin."], "{typed}");
}

#[tokio::test]
#[ignore = "needs Chromium and node; scripts/test.sh runs it"]
async fn an_admin_creates_a_user_in_the_panel_and_sees_the_token_once() {
    // The panel shows the backend that runs (llama.cpp, as the zero-setup engines run it), the latency of a
    // voice turn asked before it opens, and the cloud model that failed in that turn.
    let (stt, llm, cloud) = (Fake::start().await, Fake::start().await, Fake::start().await);
    cloud.always(CHAT, Reply::Status(500, "overloaded".into()));
    stt.always(
        "/v1/audio/transcriptions",
        Reply::Json(json!({"text": "Wie spät ist es?"})),
    );
    llm.always(CHAT, tokens(&["Es ist Mittag."]));
    let (stt_url, llm_url, cloud_url) = (stt.v1(), llm.v1(), cloud.v1());
    // The mail relay is down (nothing listens on its port), and the desk's address is everybody's contact.
    let relay_down = crate::common::free_port().to_string();
    let app = spawn_app(&[
        ("SMTP_HOST", "127.0.0.1"),
        ("SMTP_PORT", &relay_down),
        ("SMTP_SECURITY", "none"),
        ("EMERGENCY_CONTACT_EMAIL", "desk@care.example"),
        ("LOCAL_LLM_BACKEND", "llamacpp"),
        ("OPENAI_STT_URL", &stt_url),
        ("DEFAULT_STT_PROVIDER", "openai"),
        ("LOCAL_LLM_URL", &llm_url),
        ("CLOUD_LLM_URL", &cloud_url),
        ("CLOUD_LLM_API_KEY", "k"),
        ("DEFAULT_LLM_PROVIDER", "cloud"),
        ("LLM_FALLBACK", "local"),
        ("BREAKER_FAILURES", "1"),
        ("DEFAULT_TTS_PROVIDER", "espeak"),
        ("MEMORY_EXTRACTION_ENABLED", "false"),
        ("WEB_SEARCH_ENABLED", "false"),
    ])
    .await;
    voice_turn(&app).await;
    let created = app
        .call(
            Method::POST,
            "/api/admin/users",
            As::AdminKey,
            Some(json!({"name": "chef", "is_admin": true})),
        )
        .await;
    let admin_token = created.body["token"].as_str().unwrap().to_string();
    let (_, user_token) = app.create_user("nobody-special").await;
    let page = app
        .request(Method::GET, "/admin", As::Bearer(&user_token))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 403, "the panel is for admins only");
    assert!(
        page.text()
            .await
            .unwrap()
            .contains("The admin panel is for the people who run"),
        "a page, not JSON"
    );
    // The admin's own link opened at /admin signs in and opens the panel, the token out of the address.
    let linked = app
        .request(Method::GET, &format!("/admin?k={admin_token}"), As::Nobody)
        .send()
        .await
        .unwrap();
    assert_eq!(linked.status(), 303);
    assert_eq!(linked.headers()["location"], "/admin");
    let cookie = linked.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let panel = app
        .request(Method::GET, "/admin", As::Nobody)
        .header("cookie", cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(panel.status(), 200);

    let out = ui_steps(
        "admin.mjs",
        &[
            ("BASE", format!("http://{}", app.addr)),
            ("LINK", format!("/?k={admin_token}")),
        ],
    )
    .await;

    let token = out
        .lines()
        .find_map(|l| l.strip_prefix("token "))
        .expect("the token was shown")
        .trim();
    // The QR code the panel shows is the personal link.
    let qr = out
        .lines()
        .find_map(|l| l.strip_prefix("qr "))
        .expect("the QR code was shown");
    let link = crate::common::read_qr(qr);
    assert!(link.ends_with(&format!("/?k={token}")), "{link}");
    let me = app.get("/api/me", As::Bearer(token)).await;
    assert_eq!(me.body["name"], "neu");
    assert_eq!(me.body["display_name"], "Neue Person");
    assert_eq!(
        me.body["prefs"]["allowed_languages"],
        json!(["de"]),
        "set through the form"
    );
    assert_eq!(me.body["prefs"]["emergency_contacts"], json!(["hilfe@family.example"]));
    assert_eq!(me.body["prefs"]["full_name"], "Neue Person");
    assert_eq!(me.body["carers"][0]["name"], "nobody-special", "named in the editor");
}

/// Runs `ui-tests/<script>` with node and `env` (and `SHOTS`), prints what it said, and answers its output;
/// fails the test when a step failed.
/// One spoken question on `/ws/voice`, ended by the client, answered with speech.
async fn voice_turn(app: &crate::common::TestApp) {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let (_, token) = app.create_user("sprecher").await;
    let url = format!("ws://{}/ws/voice?token={token}", app.addr);
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.expect("handshake");
    let start = json!({"type": "start", "language": "de", "audio_stream": true});
    ws.send(Message::Text(start.to_string().into())).await.unwrap();
    let tone: Vec<u8> = (0..16_000)
        .flat_map(|i| (((f64::from(i) / 16_000.0 * 440.0 * std::f64::consts::TAU).sin() * 8000.0) as i16).to_le_bytes())
        .collect();
    ws.send(Message::Binary(tone.into())).await.unwrap();
    ws.send(Message::Text(json!({"type": "end"}).to_string().into()))
        .await
        .unwrap();
    loop {
        let message = tokio::time::timeout(std::time::Duration::from_secs(10), ws.next())
            .await
            .expect("the turn ends")
            .expect("the connection stays")
            .unwrap();
        if let Message::Text(text) = message
            && serde_json::from_str::<serde_json::Value>(&text).unwrap()["type"] == "done"
        {
            return;
        }
    }
}

#[tokio::test]
#[ignore = "needs Chromium and node; scripts/test.sh runs it"]
async fn a_call_for_help_typed_on_a_phone_in_german_is_asked_and_nothing_covers_it() {
    let llm = Fake::answering(&["Gern."]).await;
    let smtp = SmtpServer::start(Mode::Accept).await;
    let (llm_url, smtp_port) = (llm.v1(), smtp.port.to_string());
    let app = spawn_app(&[
        ("LOCAL_LLM_URL", &llm_url),
        ("DEFAULT_LLM_PROVIDER", "local"),
        ("SMTP_HOST", "127.0.0.1"),
        ("SMTP_PORT", &smtp_port),
        ("SMTP_SECURITY", "none"),
        ("MEMORY_EXTRACTION_ENABLED", "false"),
        ("FILLER_AFTER_MS", "0"),
    ])
    .await;
    let german = |contacts: serde_json::Value| {
        let mut prefs = json!({"allowed_languages": ["de"], "language": "de", "full_name": "Erna Beispiel"});
        prefs
            .as_object_mut()
            .unwrap()
            .extend(contacts.as_object().unwrap().clone());
        prefs
    };
    let (oma, oma_token) = app.create_user("oma").await;
    app.set_prefs(&oma, german(json!({"emergency_contacts": ["enkel@family.example"]})))
        .await;
    // Opa's daughter is entered by phone number only, and the gateway has no Twilio: no channel reaches her.
    let (opa, opa_token) = app.create_user("opa").await;
    app.set_prefs(&opa, german(json!({"emergency_contact_phones": ["+491701234567"]})))
        .await;

    ui_steps(
        "help.mjs",
        &[
            ("BASE", format!("http://{}", app.addr)),
            ("LINK", format!("/?k={oma_token}")),
            ("STRANDED", format!("/?k={opa_token}")),
        ],
    )
    .await;

    let mails = smtp.mails();
    assert_eq!(mails.len(), 1, "the typed call's yes sent one alarm");
    assert_eq!(mails[0].recipients, vec!["enkel@family.example"]);
    assert!(
        llm.requests(CHAT).is_empty(),
        "the call for help never reached the model"
    );
}

pub(crate) async fn ui_steps(script: &str, env: &[(&str, String)]) -> String {
    let root = env!("CARGO_MANIFEST_DIR");
    let run = tokio::process::Command::new("node")
        .arg(format!("ui-tests/{script}"))
        .current_dir(root)
        .envs(env.iter().map(|(k, v)| (*k, v)))
        .env("SHOTS", format!("{root}/target/ui-shots"))
        .output()
        .await
        .expect("node runs (scripts/test.sh installs it)");
    let out = String::from_utf8_lossy(&run.stdout).to_string();
    println!("{out}{}", String::from_utf8_lossy(&run.stderr));
    assert!(run.status.success(), "{script} failed:\n{out}");
    out
}

/// A gateway binary on loopback with the fakes as its providers; dropped, it is killed.
pub(crate) fn gateway_binary(
    dir: &std::path::Path,
    stt: &Fake,
    llm: &Fake,
    extra: &[(&str, String)],
) -> tokio::process::Child {
    let mut run = tokio::process::Command::new(env!("CARGO_BIN_EXE_voice-gateway"));
    run.current_dir(dir)
        .env("ENGINES", "off")
        .env("DB_PATH", dir.join("gateway.db"))
        .env("LOCAL_LLM_URL", llm.v1())
        .env("DEFAULT_LLM_PROVIDER", "local")
        .env("OPENAI_STT_URL", stt.v1())
        .env("DEFAULT_STT_PROVIDER", "openai")
        .env("MEMORY_EXTRACTION_ENABLED", "false")
        .env("FILLER_AFTER_MS", "0")
        .env("WYOMING_ZEROCONF", "false")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true);
    for (key, value) in extra {
        run.env(key, value);
    }
    run.spawn().expect("the gateway binary starts")
}

#[tokio::test]
#[ignore = "needs Chromium, node and certutil; scripts/test.sh runs it"]
async fn a_phone_on_the_network_talks_over_https_once_it_trusts_the_gateway() {
    let stt = Fake::start().await;
    stt.always(
        "/v1/audio/transcriptions",
        Reply::Json(json!({"text": "How is the weather in Hamburg?", "language": "en"})),
    );
    let llm = Fake::answering(&["In Hamburg it rains."]).await;
    let (secure_dir, plain_dir, home) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let (http, https, plain) = (free_port(), free_port(), free_port());
    // Loopback only: the browser maps the machine's name there, as a phone's resolver would map it to the LAN.
    let _secure = gateway_binary(
        secure_dir.path(),
        &stt,
        &llm,
        &[
            ("TLS", "auto".into()),
            ("LISTEN_ADDR", format!("127.0.0.1:{http}")),
            ("HTTPS_ADDR", format!("127.0.0.1:{https}")),
        ],
    );
    let _plain = gateway_binary(
        plain_dir.path(),
        &stt,
        &llm,
        &[("LISTEN_ADDR", format!("127.0.0.1:{plain}"))],
    );
    for port in [http, https, plain] {
        eventually("the gateways to listen", 30, || async {
            std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
        })
        .await;
    }
    let link_file = secure_dir.path().join("admin-link.txt");
    let link = eventually("the admin's link", 10, || async {
        std::fs::read_to_string(&link_file).ok()
    })
    .await;
    let token = link.trim().rsplit("k=").next().unwrap().to_string();

    // The phone trusts the gateway's authority, as the /ca page explains (Chromium reads the NSS store in HOME).
    let nss = home.path().join(".pki/nssdb");
    std::fs::create_dir_all(&nss).unwrap();
    let db = format!("sql:{}", nss.display());
    let ca = secure_dir.path().join("tls/ca.crt");
    for args in [
        vec!["-N", "-d", &db, "--empty-password"],
        vec![
            "-A",
            "-d",
            &db,
            "-t",
            "C,,",
            "-n",
            "voice-gateway",
            "-i",
            ca.to_str().unwrap(),
        ],
    ] {
        let done = Command::new("certutil")
            .args(&args)
            .status()
            .expect("certutil (libnss3-tools)");
        assert!(done.success(), "certutil {args:?}");
    }

    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("question.wav");
    spoken_question("How is the weather in Hamburg?", &wav);
    let out = ui_steps(
        "phone.mjs",
        &[
            ("HOST", crate::common::dot_local()),
            ("HTTP", http.to_string()),
            ("HTTPS", https.to_string()),
            ("PLAIN", plain.to_string()),
            ("LINK", format!("/?k={token}")),
            ("TRUSTED_HOME", home.path().display().to_string()),
            ("MIC_WAV", wav.display().to_string()),
            ("EXPECT_TRANSCRIPT", "Hamburg".into()),
        ],
    )
    .await;
    assert!(!out.contains(&token), "the link's token is not printed");
    // The spoken question reached the recogniser through the HTTPS gateway.
    assert!(!stt.requests("/v1/audio/transcriptions").is_empty());
}

#[tokio::test]
#[ignore = "needs Chromium and node; scripts/test.sh runs it"]
async fn a_carer_sees_who_needs_them_first_on_a_tablet_and_a_phone_acknowledges_an_alarm_with_one_tap_and_sees_the_next_without_reload()
 {
    let app = spawn_app(&[]).await;
    let (carer, carer_token) = app.create_user("schwester-anna").await;
    app.set_prefs(&carer, json!({"language": "de"})).await;
    let mut residents = Vec::new();
    for (name, display) in [
        ("otto", "Otto Meier"),
        ("hans", "Hans Braun"),
        ("erika", "Erika Muster"),
    ] {
        let user = json!({"name": name, "display_name": display});
        let made = app
            .call(Method::POST, "/api/admin/users", As::AdminKey, Some(user))
            .await;
        assert_eq!(made.status, 201, "{}", made.body);
        let (id, token) = (
            made.body["id"].as_str().unwrap().to_string(),
            made.body["token"].as_str().unwrap().to_string(),
        );
        app.set_prefs(&id, json!({"timezone": "Europe/Berlin"})).await;
        let set = format!("/api/admin/users/{id}/carers");
        let r = app
            .call(Method::PUT, &set, As::AdminKey, Some(json!({"carers": [carer]})))
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        residents.push((id, token));
    }
    // Erika (her handset in the house **611) called for help; Hans has a reminder in half an hour; Otto is well.
    app.set_prefs(&residents[2].0, json!({"phone_landline": "**611"})).await;
    let pressed = app
        .call(Method::POST, "/api/emergency", As::Bearer(&residents[2].1), None)
        .await;
    assert!(pressed.status.is_success(), "{}", pressed.body);
    let soon = jiff::Timestamp::now()
        .checked_add(jiff::SignedDuration::from_mins(30))
        .unwrap();
    let body = json!({"text": "die Tabletten", "due_at": soon.to_string()});
    let r = app
        .call(
            Method::POST,
            "/api/me/reminders",
            As::Bearer(&residents[1].1),
            Some(body),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);

    ui_steps(
        "carer.mjs",
        &[
            ("BASE", format!("http://{}", app.addr)),
            ("LINK", format!("/carer?k={carer_token}")),
            ("ORDER", "erika:alarm,hans:soon,otto:well".into()),
            ("AFTER", "erika:looked,hans:soon,otto:well".into()),
            ("RAISE", residents[0].1.clone()),
            ("LIVE", "otto:alarm,erika:looked,hans:soon".into()),
        ],
    )
    .await;
    let log = app.get("/api/admin/audit", As::AdminKey).await.body;
    for action in ["alarm.acknowledge", "user.checkin"] {
        assert!(
            log.as_array()
                .unwrap()
                .iter()
                .any(|e| e["actor"] == "carer:schwester-anna" && e["action"] == action),
            "{action}: {log}"
        );
    }
    let otto = app
        .get(&format!("/api/admin/users/{}/prefs", residents[0].0), As::AdminKey)
        .await
        .body;
    assert_eq!(otto["timezone"], "Europe/Lisbon", "set on the board: {otto}");
}
