//! Calls from Asterisk through AudioSocket. The fake here is Asterisk's side, written from the protocol's
//! definition (Asterisk's documentation, "AudioSocket"): each message is a kind byte, a big-endian 16-bit
//! length and the payload; the call's UUID (16 bytes) comes first, then signed linear 16-bit little-endian
//! audio at 8 kHz in 20 ms messages, sent in real time for as long as the call lasts (silence when the caller
//! says nothing); `0x00` hangs up, `0xff` reports an error. What the gateway sends is noted with the time it
//! arrived, since Asterisk plays audio as it comes.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::{mpsc, oneshot};

use crate::common::{As, Stage, TestApp, eventually, free_port};
use crate::fakes::{CHAT, tokens};
use crate::phone::{Fakes, SEARCH_NOTICE, sorted, stored_story};

const STT: &str = "/v1/audio/transcriptions";
/// The dialplan's `AudioSocket(<uuid>,…)` of Anna's extension.
const EXTENSION: &str = "40325ec2-5efd-4bd3-805f-53576e581d13";
/// 20 ms at 8 kHz.
const FRAME: usize = 160;

/// What came from the gateway.
#[derive(Debug, Clone, PartialEq)]
enum Got {
    /// Audio, 8 kHz samples, and when it came.
    Audio(Vec<i16>, Instant),
    /// The gateway hung up.
    Hangup,
    /// The connection closed.
    Closed,
}

enum Command {
    Say(Vec<i16>, oneshot::Sender<()>),
    Send(u8, Vec<u8>),
    Drop,
}

/// Asterisk's side of one call.
struct Asterisk {
    commands: mpsc::UnboundedSender<Command>,
    got: Arc<Mutex<Vec<Got>>>,
    _task: tokio::task::JoinHandle<()>,
}

fn message(kind: u8, payload: &[u8]) -> Vec<u8> {
    let mut bytes = vec![kind];
    bytes.extend_from_slice(&(payload.len() as u16).to_be_bytes());
    bytes.extend_from_slice(payload);
    bytes
}

impl Asterisk {
    /// Dials the gateway's AudioSocket at `port` for the call `uuid`.
    async fn call(port: u16, uuid: &str) -> Self {
        let uuid = uuid::Uuid::parse_str(uuid).unwrap();
        Self::connect(port, message(0x01, uuid.as_bytes())).await
    }

    /// Connects and sends `first` as the first message.
    async fn connect(port: u16, first: Vec<u8>) -> Self {
        let mut stream = TcpStream::connect(("127.0.0.1", port))
            .await
            .expect("the AudioSocket server");
        stream.write_all(&first).await.unwrap();
        let got = Arc::new(Mutex::new(Vec::new()));
        let (commands, rx) = mpsc::unbounded_channel();
        let task = tokio::spawn(run(stream, rx, got.clone()));
        Self {
            commands,
            got,
            _task: task,
        }
    }

    /// The caller says `pcm` (8 kHz) in real time; returns once it was sent.
    async fn say(&self, pcm: &[i16]) {
        let (done, sent) = oneshot::channel();
        let _ = self.commands.send(Command::Say(pcm.to_vec(), done));
        let _ = sent.await;
    }

    fn send(&self, kind: u8, payload: &[u8]) {
        let _ = self.commands.send(Command::Send(kind, payload.to_vec()));
    }

    fn got(&self) -> Vec<Got> {
        self.got.lock().unwrap().clone()
    }

    async fn until(&self, what: &str, seconds: u64, check: impl Fn(&[Got]) -> bool) -> Vec<Got> {
        eventually(what, seconds, || async {
            let got = self.got();
            check(&got).then_some(got)
        })
        .await
    }
}

impl Drop for Asterisk {
    fn drop(&mut self) {
        let _ = self.commands.send(Command::Drop);
    }
}

async fn run(stream: TcpStream, mut commands: mpsc::UnboundedReceiver<Command>, got: Arc<Mutex<Vec<Got>>>) {
    let (mut reader, mut writer) = stream.into_split();
    let note = |g: Got| got.lock().unwrap().push(g);
    let (messages, mut incoming) = mpsc::unbounded_channel();
    // The reader: kind, length, payload.
    tokio::spawn(async move {
        loop {
            let mut header = [0u8; 3];
            if reader.read_exact(&mut header).await.is_err() {
                let _ = messages.send(None);
                return;
            }
            let mut payload = vec![0u8; usize::from(u16::from_be_bytes([header[1], header[2]]))];
            if reader.read_exact(&mut payload).await.is_err() {
                let _ = messages.send(None);
                return;
            }
            let _ = messages.send(Some((header[0], payload)));
        }
    });
    let mut speech: std::collections::VecDeque<i16> = Default::default();
    let mut said: Option<oneshot::Sender<()>> = None;
    let mut tick = tokio::time::interval(Duration::from_millis(20));
    // Once the gateway has closed its side, writing fails; what it sent before (its hang-up) is still read.
    let mut open = true;
    loop {
        tokio::select! {
            _ = tick.tick(), if open => {
                let frame: Vec<u8> = (0..FRAME).flat_map(|_| speech.pop_front().unwrap_or(0).to_le_bytes()).collect();
                if speech.is_empty() && let Some(done) = said.take() {
                    let _ = done.send(());
                }
                open = writer.write_all(&message(0x10, &frame)).await.is_ok();
            }
            command = commands.recv() => match command {
                Some(Command::Say(pcm, done)) => {
                    speech.extend(pcm);
                    said = Some(done);
                }
                Some(Command::Send(kind, payload)) => {
                    let _ = writer.write_all(&message(kind, &payload)).await;
                }
                Some(Command::Drop) | None => return,
            },
            received = incoming.recv() => match received.flatten() {
                Some((0x10, payload)) => {
                    let samples = payload.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
                    note(Got::Audio(samples, Instant::now()));
                }
                Some((0x00, _)) => note(Got::Hangup),
                Some((kind, payload)) => panic!("Asterisk takes no message of kind {kind:#x} ({} bytes)", payload.len()),
                None => {
                    note(Got::Closed);
                    if let Some(done) = said.take() {
                        let _ = done.send(());
                    }
                    return;
                }
            },
        }
    }
}

/// The spoken question at 8 kHz, 16-bit, as Asterisk sends it (made by ffmpeg; `tests/fixtures/formats`).
fn question() -> Vec<i16> {
    include_bytes!("../fixtures/formats/sentence-8k.s16")
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect()
}

/// The audio messages received.
fn audio(got: &[Got]) -> Vec<(&[i16], Instant)> {
    got.iter()
        .filter_map(|g| match g {
            Got::Audio(samples, at) => Some((samples.as_slice(), *at)),
            _ => None,
        })
        .collect()
}

fn ended(got: &[Got]) -> bool {
    got.contains(&Got::Closed)
}

/// A gateway with its AudioSocket server, and Anna; `env` on top. The app, Anna's token, the port.
async fn gateway(fakes: &Fakes, env: &[(&str, &str)]) -> (TestApp, String, u16) {
    let port = free_port();
    let addr = format!("127.0.0.1:{port}");
    let (app, token, id) = TestApp::with()
        .llm(&fakes.llm)
        .stt(&fakes.stt)
        .first(Stage::Tts, &fakes.tts, "")
        .env(&[("FILLER_AFTER_MS", "0"), ("AUDIOSOCKET_ADDR", &addr)])
        .env(env)
        .user("anna")
        .await;
    let prefs = json!({"full_name": "Anna Muster", "language": "en"});
    app.set_prefs(&id, prefs).await;
    eventually("the AudioSocket server listens", 10, || async {
        TcpStream::connect(&addr).await.is_ok()
    })
    .await;
    (app, token, port)
}

/// Samples received in all.
fn received(got: &[Got]) -> usize {
    audio(got).iter().map(|(s, _)| s.len()).sum()
}

#[tokio::test]
async fn an_extension_reaches_the_assistant_which_answers_at_the_pace_asterisk_plays() {
    let fakes = Fakes::start().await;
    fakes.hears(&["How is the weather today?", "Thank you, goodbye."]);
    fakes.llm.then(
        CHAT,
        tokens(&["It is sunny in Hamburg today. ", "Later this evening it will rain."]),
    );
    let env = [("AUDIOSOCKET_USER", "anna"), ("PHONE_COST_PER_MINUTE", "0.05")];
    let (app, token, port) = gateway(&fakes, &env).await;

    let call = Asterisk::call(port, EXTENSION).await;
    let got = call.until("the greeting", 10, |g| received(g) >= 4_800).await;
    assert_eq!(
        fakes.spoken(),
        ["Hello Anna Muster. How can I help? For help, press 0 at any time."]
    );
    // 20 ms messages, written as they are played rather than all at once.
    let greeting = audio(&got);
    assert!(greeting.iter().all(|(s, _)| s.len() == FRAME), "20 ms messages");
    let (first, last) = (greeting[0].1, greeting[greeting.len() - 1].1);
    assert!(last - first >= Duration::from_millis(400), "paced: {:?}", last - first);
    assert!(
        greeting.iter().any(|(s, _)| s.iter().any(|&x| x.abs() > 4_000)),
        "the voice is heard"
    );

    call.say(&question()).await;
    // The web-search notice (a question about today, web search off), then the answer's two sentences.
    call.until("the answer", 20, |g| received(g) >= 4 * 4_800).await;
    assert_eq!(
        sorted(&fakes.spoken()[1..]),
        [
            "It is sunny in Hamburg today.",
            "Later this evening it will rain.",
            SEARCH_NOTICE
        ]
    );
    let (rate, channels, _, seconds) = fakes.stt.requests(STT)[0].uploaded_wav();
    assert_eq!((rate, channels), (16_000, 1));
    assert!((1.4..3.0).contains(&seconds), "{seconds} s");

    call.say(&question()).await;
    let got = call.until("the goodbye and the hang-up", 20, ended).await;
    assert_eq!(fakes.spoken().last().unwrap(), "Goodbye.");
    let hangup = got.iter().position(|g| *g == Got::Hangup).expect("a hang-up message");
    assert_eq!(
        received(&got[..hangup]),
        5 * 4_800,
        "the goodbye was played in full first"
    );
    assert_eq!(fakes.llm.requests(CHAT).len(), 1);

    let sessions = app.get("/api/sessions", As::Bearer(&token)).await.body;
    assert_eq!(sessions[0]["title"], "Phone call", "{sessions}");
    let used = eventually("the call in Anna's usage", 5, || async {
        let stats = app.get("/api/admin/stats", As::AdminKey).await.body;
        let anna = stats["users"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["name"] == "anna")
            .cloned();
        anna.filter(|u| u["calls_month"] == 1)
    })
    .await;
    assert!(used["call_seconds_month"].as_i64().unwrap() >= 4, "{used}");
    // One started minute, in her costs.
    assert!((used["cost_month"].as_f64().unwrap() - 0.05).abs() < 1e-9, "{used}");
    eventually("the call's seat given back", 5, || async {
        app.prometheus().await.contains("ws_connections{channel=\"phone\"} 0")
    })
    .await;
}

#[tokio::test]
async fn speech_over_the_answer_stops_it_at_once_and_the_stored_answer_keeps_what_was_played() {
    let fakes = Fakes::telling_a_story().await;
    let (app, token, port) = gateway(&fakes, &[("AUDIOSOCKET_USER", "anna")]).await;
    let call = Asterisk::call(port, EXTENSION).await;
    call.until("the greeting", 10, |g| received(g) >= 4_800).await;

    call.say(&question()).await;
    // The greeting and the story's first sentence were played: the caller speaks.
    call.until("the story's first sentence", 20, |g| received(g) >= 2 * 4_800)
        .await;
    call.say(&question()).await;
    // The story was stopped while the caller spoke: after that, only the joke is played, then nothing.
    let before_joke = received(&call.got());
    let got = call
        .until("the joke played, then quiet", 20, |g| {
            let quiet = audio(g)
                .last()
                .is_some_and(|(_, at)| at.elapsed() > Duration::from_millis(600));
            quiet && received(g) >= before_joke + 4_800
        })
        .await;
    assert_eq!(
        received(&got),
        before_joke + 4_800,
        "nothing of the story after the caller spoke"
    );
    assert!(received(&got) < 5 * 4_800, "{} samples", received(&got));
    assert_eq!(fakes.spoken().last().unwrap(), "Why did the chicken cross the road?");
    stored_story(&app, &token).await;
}

#[tokio::test]
async fn a_mapped_extension_is_its_users_and_an_unmapped_one_is_refused() {
    let fakes = Fakes::start().await;
    let other = "00000000-0000-4000-8000-000000000001";
    let users = format!("{}=bob", EXTENSION.to_uppercase());
    let (app, _, port) = gateway(&fakes, &[("AUDIOSOCKET_USERS", &users)]).await;
    app.create_user("bob").await;

    let call = Asterisk::call(port, EXTENSION).await;
    call.until("the greeting", 10, |g| received(g) >= 4_800).await;
    assert_eq!(
        fakes.spoken(),
        ["Hello bob. How can I help? For help, press 0 at any time."]
    );
    drop(call);

    let call = Asterisk::call(port, other).await;
    let got = call.until("the refusal and the hang-up", 10, ended).await;
    assert_eq!(
        fakes.spoken().last().unwrap(),
        "This number is not set up for this voice assistant. Goodbye."
    );
    let hangup = got.iter().position(|g| *g == Got::Hangup).expect("a hang-up message");
    assert_eq!(received(&got[..hangup]), 4_800, "the refusal was played in full first");
    assert!(fakes.llm.all_requests().is_empty() && fakes.stt.all_requests().is_empty());
    eventually("the refusal counted", 5, || async {
        app.prometheus()
            .await
            .contains("phone_calls_total{line=\"audiosocket\",outcome=\"refused\",reason=\"unknown_caller\"} 1")
    })
    .await;
}

#[tokio::test]
async fn a_connection_without_its_uuid_first_is_closed_and_bad_messages_do_not_end_a_call() {
    let fakes = Fakes::start().await;
    fakes.hears(&["How is the weather today?"]);
    fakes.llm.then(CHAT, tokens(&["It is sunny."]));
    let (app, _, port) = gateway(&fakes, &[("AUDIOSOCKET_USER", "anna")]).await;

    // Audio before the UUID, and a UUID that is not 16 bytes: closed without a word.
    for first in [message(0x10, &[0; 320]), message(0x01, b"not-a-uuid")] {
        let call = Asterisk::connect(port, first).await;
        let got = call.until("the connection closed", 10, ended).await;
        assert_eq!(got, [Got::Closed]);
    }
    assert!(fakes.spoken().is_empty());

    // Kinds it does not know, audio of an odd length, a DTMF digit: dropped, and the call goes on.
    let call = Asterisk::call(port, EXTENSION).await;
    call.until("the greeting", 10, |g| received(g) >= 4_800).await;
    call.send(0x42, b"what is this");
    call.send(0x10, &[1, 2, 3]);
    call.send(0x03, b"5");
    call.say(&question()).await;
    call.until("the answer", 20, |g| received(g) >= 3 * 4_800).await;
    assert_eq!(sorted(&fakes.spoken()[1..]), ["It is sunny.", SEARCH_NOTICE]);

    // Asterisk reports an error: the call ends and is counted.
    call.send(0xff, &[0x04]);
    call.until("the call ended", 10, ended).await;
    eventually("the call counted as hung up", 10, || async {
        app.prometheus()
            .await
            .contains("phone_calls_total{line=\"audiosocket\",outcome=\"hung_up\",reason=\"caller\"} 1")
    })
    .await;
}

#[tokio::test]
async fn connections_beyond_the_cap_are_closed_at_once_and_health_still_answers() {
    let fakes = Fakes::start().await;
    // One address has a quarter of the door's 8 places.
    let (app, _, port) = gateway(&fakes, &[("AUDIOSOCKET_USER", "anna"), ("MAX_VOICE_CONNECTIONS", "8")]).await;
    let first = Asterisk::call(port, EXTENSION).await;
    let second = Asterisk::call(port, EXTENSION).await;
    for call in [&first, &second] {
        call.until("the greeting", 10, |g| received(g) >= 4_800).await;
    }

    // Twenty more, as a flood would open them: each closed without a word.
    for _ in 0..20 {
        let extra = Asterisk::call(port, EXTENSION).await;
        assert_eq!(extra.until("closed at once", 10, ended).await, [Got::Closed]);
    }
    let health = app.get("/health", As::Nobody).await;
    assert_eq!(health.status, 200);
    assert!(
        app.prometheus()
            .await
            .contains("connections_refused_total{door=\"audiosocket\"} 20")
    );
    // The calls that had their place go on.
    assert!(!ended(&first.got()) && !ended(&second.got()));
}

#[tokio::test]
#[ignore = "needs ONNX Runtime and the Silero and Smart Turn models; scripts/test.sh fetches them"]
async fn with_smart_turn_a_caller_who_pauses_after_an_unfinished_phrase_is_heard_as_one_question() {
    use crate::voice_detection::{COMPLETE, INCOMPLETE, as_env, pcm, smart_turn_settings};
    use voice_gateway::providers::resample::resample;
    const HALF: &str = "I would like to know if the";
    const WHOLE: &str = "I would like to know if the capital of France is Paris.";
    let fakes = Fakes::start().await;
    // The recogniser hears the phrase at its pause, the whole once both parts are there (over 3.5 s).
    fakes.stt.when(
        |r| r.uploaded_wav().3 > 3.5,
        crate::fakes::Reply::Json(json!({"text": WHOLE})),
    );
    fakes.stt.always(STT, crate::fakes::Reply::Json(json!({"text": HALF})));
    fakes.llm.always(CHAT, tokens(&["Yes, it is."]));
    let settings = smart_turn_settings("100");
    let mut env = as_env(&settings);
    env.push(("AUDIOSOCKET_USER", "anna"));
    let (app, _, port) = gateway(&fakes, &env).await;
    let users = app.get("/api/admin/users", As::AdminKey).await.body;
    let anna = users.as_array().unwrap().iter().find(|u| u["name"] == "anna").unwrap();
    let id = anna["id"].as_str().unwrap().to_string();

    let call = Asterisk::call(port, EXTENSION).await;
    call.until("the greeting", 10, |g| received(g) >= 4_800).await;
    // At the telephone's 8 kHz, as Asterisk plays it: the broken-off phrase, 1.5 s of thinking, the rest.
    let narrow = |clip: &[u8]| resample(&pcm(clip), 16_000, 8_000);
    let said = [narrow(INCOMPLETE), vec![0; 12_000], narrow(COMPLETE), vec![0; 24_000]].concat();
    call.say(&said).await;
    eventually("the whole question answered", 20, || async {
        fakes.spoken().iter().any(|s| s == "Yes, it is.").then_some(())
    })
    .await;

    // Smart Turn heard the phrase unfinished on the 8 kHz line: the pause did not end the turn.
    let asked: Vec<String> = fakes.llm.requests(CHAT).iter().map(crate::ws::question_of).collect();
    assert_eq!(asked.last().map(String::as_str), Some(WHOLE), "{asked:?}");
    let answers = fakes.spoken().iter().filter(|s| *s == "Yes, it is.").count();
    assert_eq!(answers, 1, "answered once, not at the pause");
    assert_eq!(
        app.rows_of("messages", &id).await,
        2,
        "one question and its answer stored"
    );
    // Not a turn ended at the pause and joined afterwards: the pause never ended it.
    let metrics = app.prometheus().await;
    assert!(
        !metrics.contains("voice_continuations_total{channel=\"phone\"}"),
        "{metrics}"
    );
    let last = fakes.stt.requests(STT).last().unwrap().uploaded_wav();
    assert!(last.3 > 3.5, "both parts transcribed as one: {} s", last.3);
}

#[tokio::test]
async fn asterisks_dtmf_help_key_asks_and_its_1_alerts_the_contacts() {
    let fakes = Fakes::start().await;
    let smtp = crate::smtp::SmtpServer::start(crate::smtp::Mode::Accept).await;
    let smtp_port = smtp.port.to_string();
    let env = [
        ("AUDIOSOCKET_USER", "anna"),
        ("SMTP_HOST", "127.0.0.1"),
        ("SMTP_PORT", smtp_port.as_str()),
        ("SMTP_SECURITY", "none"),
        ("SMTP_FROM", "gateway@care.example"),
        ("EMERGENCY_CONTACT_EMAIL", "tochter@family.example"),
        ("HELP_KEY", "*"),
    ];
    let (_app, _, port) = gateway(&fakes, &env).await;

    let call = Asterisk::call(port, EXTENSION).await;
    call.until("the greeting", 10, |g| received(g) >= 4_800).await;
    assert!(
        fakes.spoken()[0].ends_with("For help, press the star key at any time."),
        "{:?}",
        fakes.spoken()
    );
    // Another key means nothing; the help key (one ASCII byte, as Asterisk sends it) asks at once.
    call.send(0x03, b"5");
    call.send(0x03, b"*");
    eventually("the question and its keys", 20, || async { fakes.spoken().len() >= 3 }).await;
    assert_eq!(
        fakes.spoken()[1..3],
        [
            "Shall I alert your contacts? Please say yes or no.",
            "Press 1 for yes or 2 for no."
        ]
    );
    assert!(smtp.mails().is_empty(), "nobody is alerted before the answer");
    call.send(0x03, b"1");
    eventually("the alarm's mail", 20, || async {
        (!smtp.mails().is_empty()).then_some(())
    })
    .await;
    eventually("what was done said", 20, || async { fakes.spoken().len() >= 4 }).await;
    assert_eq!(
        fakes.spoken()[3],
        "Help is on the way: your contacts have been notified."
    );
    assert!(fakes.llm.all_requests().is_empty(), "no key reached the model");
}

#[tokio::test]
async fn a_call_whose_task_fails_is_closed_and_counted_and_a_call_beyond_the_voice_limit_is_closed_unanswered() {
    let fakes = Fakes::start().await;
    let env = [("AUDIOSOCKET_USER", "anna"), ("VOICE_CONNECTIONS_PER_USER", "1")];
    let (app, _, port) = gateway(&fakes, &env).await;

    let call = Asterisk::call(port, EXTENSION).await;
    call.until("the greeting", 10, |g| received(g) >= 4_800).await;
    // Anna's one place is taken: a second call is closed before a word is said.
    let second = Asterisk::call(port, EXTENSION).await;
    assert_eq!(second.until("the second call closed", 10, ended).await, [Got::Closed]);
    // The first call's task fails: to Asterisk, a hang-up.
    app.app.faults.arm("audiosocket");
    call.send(0x03, b"5");
    call.until("the failed call closed", 10, ended).await;
    let metrics = eventually("both counted", 10, || async {
        let metrics = app.prometheus().await;
        metrics
            .contains("task_failures_total{door=\"audiosocket\"} 1")
            .then_some(metrics)
    })
    .await;
    for outcome in [
        "outcome=\"refused\",reason=\"voice_limit\"} 1",
        "outcome=\"failed\",reason=\"task_failed\"} 1",
    ] {
        assert!(
            metrics.contains(&format!("phone_calls_total{{line=\"audiosocket\",{outcome}")),
            "{metrics}"
        );
    }
    // Its place is free: the next call is greeted.
    let next = Asterisk::call(port, EXTENSION).await;
    next.until("the next greeting", 10, |g| received(g) >= 4_800).await;
    let health = app.get("/api/admin/providers", As::AdminKey).await.body;
    let calls = &health["calls"][0];
    assert_eq!(
        (
            calls["line"].as_str(),
            calls["refused"].as_u64(),
            calls["failed"].as_u64()
        ),
        (Some("audiosocket"), Some(1), Some(1)),
        "{health}"
    );
    assert_eq!(health["task_failures"][0]["door"], "audiosocket");
}

#[tokio::test]
async fn the_help_key_of_a_caller_nobody_reaches_says_112_and_once_her_carer_is_named_asks_first() {
    let fakes = Fakes::start().await;
    let smtp = crate::smtp::SmtpServer::start(crate::smtp::Mode::Accept).await;
    let smtp_port = smtp.port.to_string();
    let env = [
        ("AUDIOSOCKET_USER", "anna"),
        ("SMTP_HOST", "127.0.0.1"),
        ("SMTP_PORT", smtp_port.as_str()),
        ("SMTP_SECURITY", "none"),
        ("SMTP_FROM", "gateway@care.example"),
        ("EMERGENCY_CONTACT_EMAIL", ""),
        ("HELP_KEY", "*"),
    ];
    let (app, token, port) = gateway(&fakes, &env).await;
    let me = app.get("/api/me", As::Bearer(&token)).await.body;
    let anna = me["id"].as_str().unwrap().to_string();
    let call = Asterisk::call(port, EXTENSION).await;
    call.until("the greeting", 10, |g| received(g) >= 4_800).await;

    call.send(0x03, b"*");
    eventually("the 112 advice", 20, || async { fakes.spoken().len() >= 2 }).await;
    let told = &fakes.spoken()[1];
    assert!(
        told.starts_with("Your help reaches nobody yet") && told.contains("112"),
        "{told}"
    );
    assert!(
        crate::emergency::events(&app, &anna).await.is_empty(),
        "nothing recorded"
    );

    crate::help_reach::name_carer(&app, &anna).await;
    call.send(0x03, b"*");
    eventually("the question and its keys", 20, || async { fakes.spoken().len() >= 4 }).await;
    assert_eq!(fakes.spoken()[2], "Shall I alert your contacts? Please say yes or no.");
    assert!(smtp.mails().is_empty(), "nobody is alerted before the answer");
    call.send(0x03, b"1");
    let mails = eventually("the carer's mail", 20, || async {
        let mails = smtp.mails();
        (!mails.is_empty()).then_some(mails)
    })
    .await;
    crate::emergency::mail_to(&mails, "anna@heim.example");
    eventually("what was done said", 20, || async { fakes.spoken().len() >= 5 }).await;
    assert_eq!(
        fakes.spoken()[4],
        "Help is on the way: your contacts have been notified."
    );
}
