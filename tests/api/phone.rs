//! Calls through Twilio: the fake of `twilio_media` rings the gateway's webhook signed as Twilio signs it and
//! runs the media stream the TwiML names, in real time. Speech-to-text, the model and the voice are fakes
//! speaking their real protocols; the voice answers tones, so that what the caller hears can be measured.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{As, Stage, TestApp, eventually};
use crate::fakes::{CHAT, Fake, Reply, tokens};
use crate::twilio_media::{
    AUTH_TOKEN, PUBLIC_URL, Seen, TwilioCall, call_fields, phone_env, pieces, post_webhook, question_ulaw, ring,
    signature, stream_of, tone_wav,
};

const STT: &str = "/v1/audio/transcriptions";
const SPEECH: &str = "/v1/audio/speech";
pub(crate) const ANNAS_NUMBER: &str = "+4930123456";
/// Each sentence the voice speaks lasts this long.
const SPOKEN_SECONDS: f64 = 0.6;

/// The fakes of a call: what hears, answers and speaks (tones of `SPOKEN_SECONDS` a sentence).
pub(crate) struct Fakes {
    pub stt: Fake,
    pub llm: Fake,
    pub tts: Fake,
}

impl Fakes {
    pub(crate) async fn start() -> Self {
        let tts = Fake::start().await;
        tts.always(SPEECH, Reply::Bytes("audio/wav", tone_wav(SPOKEN_SECONDS)));
        Self {
            stt: Fake::start().await,
            llm: Fake::start().await,
            tts,
        }
    }

    /// The caller asks for a story (four sentences) and then, speaking over it, for a joke.
    pub(crate) async fn telling_a_story() -> Self {
        let fakes = Self::start().await;
        fakes.hears(&["Tell me a story", "Stop, tell me a joke instead"]);
        fakes.llm.then(
            CHAT,
            tokens(&[
                "Once upon a time there was a lighthouse. ",
                "Its keeper counted the ships every night. ",
                "One winter the lamp went out. ",
                "Nobody knew why.",
            ]),
        );
        fakes.llm.then(CHAT, tokens(&["Why did the chicken cross the road?"]));
        fakes
    }

    /// The caller is heard saying these, one after the other.
    pub(crate) fn hears(&self, texts: &[&str]) {
        for text in texts {
            self.stt.then(STT, Reply::Json(json!({"text": text})));
        }
    }

    /// What the voice was asked to say, in order.
    pub(crate) fn spoken(&self) -> Vec<String> {
        self.tts
            .requests(SPEECH)
            .iter()
            .map(|r| r.json()["input"].as_str().unwrap().to_string())
            .collect()
    }
}

/// What a caller hears before the answer to a question about today while web search is off.
pub(crate) const SEARCH_NOTICE: &str = "Web search is switched off, so my answer may be out of date.";

/// `said` in order, for comparing what was spoken whatever the order the voice was asked in.
pub(crate) fn sorted(said: &[String]) -> Vec<String> {
    let mut said = said.to_vec();
    said.sort();
    said
}

/// The story as stored after the caller spoke over it: what was played, not its end.
pub(crate) async fn stored_story(app: &TestApp, token: &str) -> String {
    let sessions = app.get("/api/sessions", As::Bearer(token)).await.body;
    let id = sessions[0]["id"].as_str().unwrap().to_string();
    let stored = app.get(&format!("/api/sessions/{id}"), As::Bearer(token)).await.body;
    let story = stored["messages"][1]["text"].as_str().unwrap().to_string();
    assert!(
        story.starts_with("Once upon a time there was a lighthouse.") && !story.contains("Nobody knew why."),
        "the stored story is what was played: {story}"
    );
    story
}

/// A gateway Twilio calls, with Anna (English, her number `ANNAS_NUMBER`): the app, her token and id.
pub(crate) async fn gateway(fakes: &Fakes, env: &[(&str, &str)]) -> (TestApp, String, String) {
    let (app, token, id) = TestApp::with()
        .llm(&fakes.llm)
        .stt(&fakes.stt)
        .first(Stage::Tts, &fakes.tts, "")
        .env(&[("FILLER_AFTER_MS", "0")])
        .env(&phone_env())
        .env(env)
        .user("anna")
        .await;
    let prefs = json!({"full_name": "Anna Muster", "language": "en", "caller_numbers": ["+49 30 123456"]});
    app.set_prefs(&id, prefs).await;
    let kept = app
        .get(&format!("/api/admin/users/{id}/prefs"), As::AdminKey)
        .await
        .body;
    assert_eq!(kept["caller_numbers"], json!([ANNAS_NUMBER]), "kept in E.164");
    (app, token, id)
}

/// Whether µ-law audio is sound rather than silence.
fn audible(ulaw: &[u8]) -> bool {
    let loud = ulaw.iter().filter(|&&b| (b & 0x7f) < 0x60).count();
    loud * 2 > ulaw.len()
}

fn closed(seen: &[Seen]) -> bool {
    seen.contains(&Seen::Closed)
}

/// The admin's usage row of `name`.
pub(crate) async fn usage(app: &TestApp, name: &str) -> Value {
    let stats = app.get("/api/admin/stats", As::AdminKey).await.body;
    stats["users"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["name"] == name)
        .cloned()
        .unwrap_or(Value::Null)
}

#[tokio::test]
async fn a_known_caller_is_greeted_answered_sentence_by_sentence_and_a_goodbye_ends_the_call() {
    let fakes = Fakes::start().await;
    fakes.hears(&["How is the weather today?", "Okay, thanks, bye!"]);
    fakes.llm.then(
        CHAT,
        tokens(&["It is sunny in Hamburg today. ", "Later this evening it will rain."]),
    );
    let (app, token, _) = gateway(&fakes, &[]).await;

    let twiml = ring(&app, "CA0001", ANNAS_NUMBER).await;
    let (url, params) = stream_of(&twiml).expect("a bidirectional stream");
    assert_eq!(url, "wss://voice.example.org/api/phone/twilio/stream");
    let param = |name: &str| params.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    assert_eq!(param("caller").as_deref(), Some(ANNAS_NUMBER), "{twiml}");
    assert_eq!(param("call").as_deref(), Some("CA0001"), "{twiml}");
    let call = TwilioCall::connect(&app, &twiml, "CA0001").await;

    // The greeting, by name, then the answer sentence by sentence, each followed by its mark.
    call.until("the greeting played", 10, |s| s.contains(&Seen::Played("1".into())))
        .await;
    assert_eq!(
        fakes.spoken(),
        ["Hello Anna Muster. How can I help? For help, press 0 at any time."]
    );
    call.say(&question_ulaw()).await;
    let seen = call
        .until("the answer played", 20, |s| s.contains(&Seen::Played("4".into())))
        .await;
    // A question about today with web search off: the caller hears why the answer may be out of date, once,
    // before it (the voice may be asked for it after the answer's sentences, which wait their turn).
    assert_eq!(
        sorted(&fakes.spoken()[1..]),
        [
            "It is sunny in Hamburg today.",
            "Later this evening it will rain.",
            SEARCH_NOTICE
        ]
    );
    let heard = pieces(&seen);
    assert_eq!(heard.len(), 4, "greeting, the notice and two sentences");
    for piece in &heard {
        // 0.6 s at 8 kHz, one byte a sample.
        assert!((4_700..=4_900).contains(&piece.len()), "{} bytes", piece.len());
        assert!(audible(piece), "the caller hears the voice");
    }
    // What the recognizer got is the caller's question at 16 kHz, not the call's silence around it.
    let (rate, channels, _, seconds) = fakes.stt.requests(STT)[0].uploaded_wav();
    assert_eq!((rate, channels), (16_000, 1));
    assert!((1.4..3.0).contains(&seconds), "{seconds} s");

    call.say(&question_ulaw()).await;
    let seen = call.until("the goodbye and the hang-up", 20, closed).await;
    assert_eq!(fakes.spoken().last().unwrap(), "Goodbye.");
    let goodbye_mark = seen.iter().rev().find_map(|s| match s {
        Seen::Mark(name) => Some(name.clone()),
        _ => None,
    });
    assert!(
        seen.contains(&Seen::Played(goodbye_mark.unwrap())),
        "the line hung up after the goodbye was played: {:?}",
        seen.iter().filter(|s| !matches!(s, Seen::Media(_))).collect::<Vec<_>>()
    );
    assert_eq!(
        fakes.llm.requests(CHAT).len(),
        1,
        "the goodbye is not a question for the model"
    );

    // The call is Anna's conversation, and counted in her usage.
    let sessions = app.get("/api/sessions", As::Bearer(&token)).await.body;
    let session = sessions
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["title"] == "Phone call")
        .expect("the call's session");
    let stored = app
        .get(
            &format!("/api/sessions/{}", session["id"].as_str().unwrap()),
            As::Bearer(&token),
        )
        .await
        .body;
    let texts: Vec<&str> = stored["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts[..2],
        [
            "How is the weather today?",
            "It is sunny in Hamburg today. Later this evening it will rain."
        ]
    );
    let used = eventually("the call in Anna's usage", 5, || async {
        Some(usage(&app, "anna").await).filter(|u| u["calls_month"] == 1)
    })
    .await;
    assert!(used["call_seconds_month"].as_i64().unwrap() >= 4, "{used}");
}

#[tokio::test]
async fn speech_over_the_answer_clears_twilios_buffer_and_the_stored_answer_keeps_what_was_played() {
    let fakes = Fakes::telling_a_story().await;
    let (app, token, _) = gateway(&fakes, &[]).await;
    let twiml = ring(&app, "CA0002", ANNAS_NUMBER).await;
    let call = TwilioCall::connect(&app, &twiml, "CA0002").await;
    call.until("the greeting played", 10, |s| s.contains(&Seen::Played("1".into())))
        .await;

    call.say(&question_ulaw()).await;
    // The whole story was sent to Twilio; the caller has heard its first sentence when they speak.
    call.until("the story sent", 20, |s| s.contains(&Seen::Mark("5".into())))
        .await;
    call.until("its first sentence played", 10, |s| {
        s.contains(&Seen::Played("2".into()))
    })
    .await;
    assert!(!call.played().contains(&"4".to_string()), "the story is still playing");
    call.say(&question_ulaw()).await;

    let seen = call
        .until("the new answer played", 20, |s| {
            s.iter().filter(|x| matches!(x, Seen::Played(_))).count() >= 6
        })
        .await;
    let clear = seen
        .iter()
        .position(|s| *s == Seen::Clear)
        .expect("a clear on barge-in");
    // After the clear, the story's marks came back at once and the next answer followed.
    let before: Vec<&Seen> = seen[..clear].iter().filter(|s| matches!(s, Seen::Played(_))).collect();
    assert!(
        !before.contains(&&Seen::Played("5".into())),
        "the end of the story was not played before the clear"
    );
    assert_eq!(fakes.spoken().last().unwrap(), "Why did the chicken cross the road?");
    let story = stored_story(&app, &token).await;
    // The model's next question sees the story as the caller heard it.
    let asked = fakes.llm.requests(CHAT)[1].json();
    let history: Vec<&str> = asked["messages"].as_array().unwrap()[1..]
        .iter()
        .map(|m| m["content"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        history,
        ["Tell me a story", story.as_str(), "Stop, tell me a joke instead"]
    );
}

#[tokio::test]
async fn an_unknown_or_withheld_number_is_refused_politely_in_twiml() {
    let fakes = Fakes::start().await;
    let (app, _, _) = gateway(&fakes, &[]).await;

    for from in ["+15005550006", "anonymous", ""] {
        let twiml = ring(&app, "CA0003", from).await;
        assert!(stream_of(&twiml).is_none(), "no stream for {from:?}: {twiml}");
        assert!(
            twiml.contains(
                "<Say language=\"en-US\">This number is not set up for this voice assistant. Goodbye.</Say><Hangup/>"
            ),
            "{twiml}"
        );
    }
    assert!(fakes.stt.all_requests().is_empty() && fakes.llm.all_requests().is_empty());
    assert!(
        app.prometheus()
            .await
            .contains("phone_calls_total{line=\"twilio\",outcome=\"refused\",reason=\"unknown_caller\"} 3"),
        "refused calls are counted"
    );
}

#[tokio::test]
async fn with_guests_allowed_an_unknown_caller_talks_to_the_guest_with_a_small_quota() {
    let fakes = Fakes::start().await;
    fakes.hears(&["How is the weather today?", "And tomorrow?"]);
    fakes.llm.then(CHAT, tokens(&["It is sunny."]));
    fakes.llm.then(CHAT, tokens(&["Rain."]));
    let env = [("PHONE_UNKNOWN_CALLERS", "guest"), ("PHONE_GUEST_DAILY_REQUESTS", "1")];
    let (app, _, _) = gateway(&fakes, &env).await;

    let twiml = ring(&app, "CA0004", "+15005550006").await;
    let call = TwilioCall::connect(&app, &twiml, "CA0004").await;
    call.until("the greeting played", 10, |s| s.contains(&Seen::Played("1".into())))
        .await;
    assert_eq!(
        fakes.spoken(),
        ["Hello. How can I help? For help, press 0 at any time."],
        "a guest is not named"
    );
    call.say(&question_ulaw()).await;
    // The notice (web search is off), then the answer.
    call.until("the answer played", 20, |s| s.contains(&Seen::Played("3".into())))
        .await;
    call.say(&question_ulaw()).await;
    call.until("the second turn's words played", 20, |s| {
        s.contains(&Seen::Played("4".into()))
    })
    .await;

    let asked: Vec<Value> = fakes
        .llm
        .requests(CHAT)
        .iter()
        .map(|r| r.json()["messages"].clone())
        .collect();
    assert_eq!(asked.len(), 1, "the guest's quota was one request: {asked:?}");
    assert_eq!(
        sorted(&fakes.spoken()[1..]),
        [
            "It is sunny.",
            "Sorry, that didn't work. Please try again in a moment.",
            SEARCH_NOTICE
        ]
    );
    call.hang_up();
    let guest = eventually("the guest's call counted", 10, || async {
        Some(usage(&app, "phone-guest").await).filter(|u| u["calls_month"] == 1)
    })
    .await;
    assert_eq!(guest["requests_today"], 1);
}

#[tokio::test]
async fn a_webhook_without_twilios_signature_is_refused_and_without_settings_there_is_no_line() {
    let fakes = Fakes::start().await;
    let (app, _, _) = gateway(&fakes, &[]).await;
    let fields = call_fields("CA0005", ANNAS_NUMBER);
    let url = format!("{PUBLIC_URL}/api/phone/twilio");
    let error = |body: &str| serde_json::from_str::<Value>(body).unwrap()["error"]["code"].clone();

    let (status, _, body) = post_webhook(&app, &fields, None).await;
    assert_eq!((status, error(&body)), (403, json!("forbidden")), "{body}");
    let wrong_key = signature("another-token", &url, &fields);
    let (status, _, _) = post_webhook(&app, &fields, Some(&wrong_key)).await;
    assert_eq!(status, 403);
    let wrong_url = signature(AUTH_TOKEN, "https://elsewhere.example/api/phone/twilio", &fields);
    assert_eq!(post_webhook(&app, &fields, Some(&wrong_url)).await.0, 403);
    let mut changed = fields.clone();
    changed[7] = ("From", "+4930999999");
    assert_eq!(
        post_webhook(&app, &changed, Some(&signature(AUTH_TOKEN, &url, &fields)))
            .await
            .0,
        403
    );
    // Signed, but no call.
    let no_call: Vec<(&str, &str)> = fields.iter().filter(|(k, _)| *k != "CallSid").copied().collect();
    let (status, _, body) = post_webhook(&app, &no_call, Some(&signature(AUTH_TOKEN, &url, &no_call))).await;
    assert_eq!((status, error(&body)), (422, json!("invalid_request")), "{body}");
    assert!(fakes.tts.all_requests().is_empty(), "nothing was answered");

    let unset = TestApp::with().start().await;
    let (status, _, body) = post_webhook(&unset, &fields, Some(&signature(AUTH_TOKEN, &url, &fields))).await;
    assert_eq!((status, error(&body)), (404, json!("not_found")), "{body}");
}

#[tokio::test]
async fn a_stream_the_webhook_did_not_answer_or_that_starts_wrongly_is_closed() {
    let fakes = Fakes::start().await;
    let (app, token, _) = gateway(&fakes, &[]).await;
    let twiml = ring(&app, "CA0006", ANNAS_NUMBER).await;
    let (url, params) = stream_of(&twiml).unwrap();
    let parameters = |change: &dyn Fn(&mut serde_json::Map<String, Value>)| {
        let mut map: serde_json::Map<String, Value> = params.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
        change(&mut map);
        Value::Object(map)
    };

    // Another call's id, another user, a forged token, none, another call's parameters, a format other than
    // µ-law at 8 kHz.
    let cases = [
        ("CA9999", parameters(&|_| {}), "audio/x-mulaw"),
        (
            "CA0006",
            parameters(&|m| {
                m.insert("user".into(), json!("someone-else"));
            }),
            "audio/x-mulaw",
        ),
        (
            "CA0006",
            parameters(&|m| {
                m.insert("token".into(), json!("forged"));
            }),
            "audio/x-mulaw",
        ),
        (
            "CA0006",
            parameters(&|m| {
                m.remove("token");
            }),
            "audio/x-mulaw",
        ),
        (
            "CA0006",
            parameters(&|m| {
                m.insert("call".into(), json!("CA9999"));
            }),
            "audio/x-mulaw",
        ),
        ("CA0006", parameters(&|_| {}), "audio/x-l16"),
    ];
    for (call_sid, parameters, encoding) in cases {
        let call = TwilioCall::open(&app, &url, call_sid, parameters.clone(), encoding).await;
        let seen = call.until("the stream closed", 5, closed).await;
        assert_eq!(
            seen,
            [Seen::Closed],
            "nothing is said on {call_sid} {parameters} {encoding}"
        );
    }

    // Media before start.
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/api/phone/twilio/stream", app.addr))
        .await
        .unwrap();
    use futures_util::{SinkExt, StreamExt};
    let media = json!({"event": "media", "sequenceNumber": "2", "media": {"payload": "////"}, "streamSid": "MZ1"});
    ws.send(tokio_tungstenite::tungstenite::Message::Text(media.to_string().into()))
        .await
        .unwrap();
    let next = tokio::time::timeout(std::time::Duration::from_secs(5), ws.next())
        .await
        .expect("closed at once");
    assert!(
        matches!(
            next,
            None | Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_))) | Some(Err(_))
        ),
        "{next:?}"
    );

    assert!(fakes.tts.all_requests().is_empty(), "no call was answered");
    let sessions = app.get("/api/sessions", As::Bearer(&token)).await.body;
    assert_eq!(sessions, json!([]), "no call's session was opened");
}

#[tokio::test]
async fn a_stream_proof_opens_one_stream_only() {
    let fakes = Fakes::start().await;
    let (app, _, _) = gateway(&fakes, &[]).await;
    let twiml = ring(&app, "CA0032", ANNAS_NUMBER).await;
    let first = TwilioCall::connect(&app, &twiml, "CA0032").await;
    first
        .until("the greeting played", 10, |s| s.contains(&Seen::Played("1".into())))
        .await;

    // The same proof again, as one copied from the webhook's answer would be: closed without a word.
    for _ in 0..3 {
        let again = TwilioCall::connect(&app, &twiml, "CA0032").await;
        assert_eq!(again.until("the copy closed", 5, closed).await, [Seen::Closed]);
    }
    assert_eq!(
        fakes.spoken(),
        ["Hello Anna Muster. How can I help? For help, press 0 at any time."],
        "greeted once"
    );
    assert!(!closed(&first.seen()), "the call itself goes on");
}

#[tokio::test]
async fn malformed_and_out_of_order_media_is_dropped_and_the_call_goes_on() {
    let fakes = Fakes::start().await;
    fakes.hears(&["How is the weather today?"]);
    fakes.llm.then(CHAT, tokens(&["It is sunny."]));
    let (app, _, _) = gateway(&fakes, &[]).await;
    let twiml = ring(&app, "CA0007", ANNAS_NUMBER).await;
    let call = TwilioCall::connect(&app, &twiml, "CA0007").await;
    call.until("the greeting played", 10, |s| s.contains(&Seen::Played("1".into())))
        .await;

    let sid = call.stream_sid.clone();
    // The question replayed with a sequence number long past, payloads that are not base64, not JSON, unknown.
    for frame in question_ulaw().chunks(160) {
        let payload = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, frame);
        call.send_raw(
            json!({"event": "media", "sequenceNumber": "2", "media": {"payload": payload}, "streamSid": sid}),
        );
    }
    call.send_raw(
        json!({"event": "media", "sequenceNumber": "999999999", "media": {"payload": "%%%"}, "streamSid": sid}),
    );
    call.send_raw(json!({"event": "media", "media": {}, "streamSid": sid}));
    call.send_raw(json!("not an event"));
    call.send_raw(json!({"event": "dtmf", "dtmf": {"digit": "1"}, "streamSid": sid}));
    // Long enough a silence for the replay to have ended as an utterance, had it been heard.
    call.say(&[0xff; 8 * 1_500]).await;
    assert!(
        fakes.stt.requests(STT).is_empty(),
        "the replayed question was not heard"
    );
    call.say(&question_ulaw()).await;

    call.until("the answer played", 20, |s| s.contains(&Seen::Played("3".into())))
        .await;
    assert_eq!(sorted(&fakes.spoken()[1..]), ["It is sunny.", SEARCH_NOTICE]);
    let uploads = fakes.stt.requests(STT);
    assert_eq!(uploads.len(), 1, "the replayed audio was no question");
    let (_, _, _, seconds) = uploads[0].uploaded_wav();
    assert!(seconds < 3.0, "only the question was heard: {seconds} s");
}

#[tokio::test]
async fn a_caller_who_never_speaks_hears_a_goodbye_after_the_set_silence() {
    let fakes = Fakes::start().await;
    let (app, _, _) = gateway(&fakes, &[("PHONE_SILENCE_SECONDS", "5")]).await;
    let twiml = ring(&app, "CA0008", ANNAS_NUMBER).await;
    let call = TwilioCall::connect(&app, &twiml, "CA0008").await;

    let seen = call.until("the call ended by the gateway", 15, closed).await;
    assert_eq!(
        fakes.spoken(),
        [
            "Hello Anna Muster. How can I help? For help, press 0 at any time.",
            "I can't hear anything, so I'll hang up now. Call again any time. Goodbye."
        ]
    );
    assert!(
        seen.contains(&Seen::Played("2".into())),
        "the goodbye was played before the hang-up"
    );
    assert!(fakes.stt.all_requests().is_empty());
    eventually("the call counted as ended with a goodbye", 5, || async {
        app.prometheus()
            .await
            .contains("phone_calls_total{line=\"twilio\",outcome=\"ended\",reason=\"goodbye\"} 1")
    })
    .await;
}

#[tokio::test]
async fn a_caller_who_talks_past_the_utterance_limit_is_told_so_not_that_nobody_spoke() {
    let fakes = Fakes::start().await;
    let env = [("MAX_UTTERANCE_SECONDS", "1"), ("PHONE_SILENCE_SECONDS", "5")];
    let (app, _, _) = gateway(&fakes, &env).await;
    let twiml = ring(&app, "CA0031", ANNAS_NUMBER).await;
    let call = TwilioCall::connect(&app, &twiml, "CA0031").await;
    call.until("the greeting played", 10, |s| s.contains(&Seen::Played("1".into())))
        .await;

    // A question of 1.5 s without a pause long enough to end it: longer than the one second allowed.
    call.say(&question_ulaw()).await;
    call.until("the reply played", 15, |s| s.contains(&Seen::Played("2".into())))
        .await;

    assert_eq!(
        fakes.spoken()[1],
        "That was too long for me to take in at once. Please ask again in shorter sentences."
    );
}

/// Anna (German, with her contacts, a mail relay and Twilio's REST API; see `emergency::setup`) on a gateway
/// Twilio calls; she calls from her mobile number. The setup and the fakes.
async fn help_gateway(fakes: &Fakes) -> crate::emergency::Setup {
    let (stt, tts, llm) = (fakes.stt.v1(), fakes.tts.v1(), fakes.llm.v1());
    let mut env = vec![
        ("OPENAI_STT_URL", stt.as_str()),
        ("DEFAULT_STT_PROVIDER", "openai"),
        ("OPENAI_TTS_URL", tts.as_str()),
        ("DEFAULT_TTS_PROVIDER", "openai"),
        ("LOCAL_LLM_URL", llm.as_str()),
        ("DEFAULT_LLM_PROVIDER", "local"),
        ("MEMORY_EXTRACTION_ENABLED", "false"),
        ("WEB_SEARCH_ENABLED", "false"),
        ("FILLER_AFTER_MS", "0"),
        ("HELP_CONFIRM_SECONDS", "60"),
        ("PHONE_SILENCE_SECONDS", "5"),
    ];
    env.extend(phone_env());
    let mut prefs = crate::emergency::profile();
    prefs["caller_numbers"] = json!(["+49 170 1234567"]);
    crate::emergency::setup(Some(crate::smtp::Mode::Accept), &env, prefs).await
}

const ANNAS_MOBILE: &str = "+491701234567";
const QUESTION: &str = "Soll ich Ihre Kontaktpersonen alarmieren? Sagen Sie bitte ja oder nein.";
/// What follows the question on a telephone.
const KEYS: &str = "Drücken Sie die 1 für Ja oder die 2 für Nein.";

/// The acknowledgement link of a mail, on the test's gateway (the mail names it under `PUBLIC_URL`).
fn ack_link(app: &TestApp, mail: &str) -> String {
    let start = mail.find(PUBLIC_URL).expect("a link under PUBLIC_URL");
    let link: String = mail[start..].chars().take_while(|c| !c.is_whitespace()).collect();
    assert!(link.contains("/api/emergency/ack/"), "{link}");
    link.replace(PUBLIC_URL, &format!("http://{}", app.addr))
}

#[tokio::test]
async fn help_by_voice_on_a_call_alerts_the_contacts_and_the_caller_hears_who_confirmed() {
    let fakes = Fakes::start().await;
    fakes.hears(&["Hilfe! Hilfe!", "Ja, bitte."]);
    let s = help_gateway(&fakes).await;
    let twiml = ring(&s.app, "CA0009", ANNAS_MOBILE).await;
    let call = TwilioCall::connect(&s.app, &twiml, "CA0009").await;
    call.until("the greeting played", 10, |x| x.contains(&Seen::Played("1".into())))
        .await;
    assert_eq!(
        fakes.spoken(),
        ["Hallo Anna Muster. Wie kann ich helfen? Für Hilfe drücken Sie jederzeit die 0."]
    );

    call.say(&question_ulaw()).await;
    call.until("the question played", 20, |x| x.contains(&Seen::Played("2".into())))
        .await;
    assert_eq!(fakes.spoken()[1], QUESTION);
    // On a telephone the question is followed by the keys that answer it.
    call.until("the keys told", 20, |x| x.contains(&Seen::Played("3".into())))
        .await;
    assert_eq!(fakes.spoken()[2], KEYS);
    call.say(&question_ulaw()).await;
    call.until("what was done played", 20, |x| x.contains(&Seen::Played("4".into())))
        .await;
    assert_eq!(
        fakes.spoken()[3],
        "Hilfe ist unterwegs: Ihre Kontaktpersonen wurden benachrichtigt."
    );
    let smtp = s.smtp.as_ref().unwrap();
    let mail = eventually("the alarm's mail", 10, || async {
        smtp.mails()
            .into_iter()
            .find(|m| m.recipients == ["tochter@family.example"])
    })
    .await;
    assert!(
        mail.body().contains("Anna Muster") && mail.body().contains("Hauptstraße 5"),
        "the dossier"
    );
    assert!(
        !s.twilio.requests(crate::emergency::SMS).is_empty(),
        "the SMS went out too"
    );

    // The daughter confirms; the caller, still on the line, is told.
    let confirmed = s.app.client.post(ack_link(&s.app, &mail.body())).send().await.unwrap();
    assert_eq!(confirmed.status(), 200);
    call.until("the confirmation told", 10, |x| x.contains(&Seen::Played("5".into())))
        .await;
    assert_eq!(fakes.spoken()[4], "Gesehen und bestätigt von tochter@family.example.");
    // The line stays open, past the silence that ends other calls (PHONE_SILENCE_SECONDS, 5 here), until Anna
    // hangs up.
    let silence = std::time::Duration::from_secs(6);
    crate::common::throughout("the call stays open", silence, || async { !closed(&call.seen()) }).await;
    assert!(
        fakes.llm.all_requests().is_empty(),
        "a call for help never reaches the model"
    );
    call.hang_up();
    eventually("the call counted", 10, || async {
        usage(&s.app, "anna").await["calls_month"] == 1
    })
    .await;
}

#[tokio::test]
async fn a_call_that_drops_while_the_help_question_waits_raises_the_alarm() {
    let fakes = Fakes::start().await;
    fakes.hears(&["Ich bin gestürzt und komme nicht hoch."]);
    let s = help_gateway(&fakes).await;
    let twiml = ring(&s.app, "CA0010", ANNAS_MOBILE).await;
    let call = TwilioCall::connect(&s.app, &twiml, "CA0010").await;
    call.until("the greeting played", 10, |x| x.contains(&Seen::Played("1".into())))
        .await;
    call.say(&question_ulaw()).await;
    call.until("the question sent", 20, |x| x.contains(&Seen::Mark("2".into())))
        .await;
    assert_eq!(fakes.spoken()[1], QUESTION);
    let smtp = s.smtp.as_ref().unwrap();
    assert!(smtp.mails().is_empty(), "nobody is alerted while the question waits");

    // The line breaks: no `stop`, the connection is gone.
    call.drop_line();
    let mail = eventually("the alarm's mail", 10, || async {
        smtp.mails()
            .into_iter()
            .find(|m| m.recipients == ["tochter@family.example"])
    })
    .await;
    assert!(mail.body().contains("Anna Muster"), "the dossier");
    let alarms = eventually("the alarm in the admin's list", 10, || async {
        let alarms = s.app.get("/api/admin/emergencies", As::AdminKey).await.body;
        Some(alarms).filter(|a| a.as_array().is_some_and(|a| !a.is_empty()))
    })
    .await;
    assert_eq!(alarms.as_array().map(Vec::len), Some(1), "one alarm: {alarms}");
    assert_eq!(alarms[0]["user_id"], s.id, "{alarms}");
}

#[tokio::test]
async fn caller_numbers_are_set_by_the_admin_each_is_one_users_and_a_deleted_user_frees_them() {
    let fakes = Fakes::start().await;
    let (app, token, _) = gateway(&fakes, &[]).await;
    let (bob, _) = app.create_user("bob").await;
    let put = |id: &str, body: Value| {
        let path = format!("/api/admin/users/{id}/prefs");
        let app = &app;
        async move { app.call(Method::PUT, &path, As::AdminKey, Some(body)).await }
    };

    // Anna's number, written differently, is still hers.
    let taken = put(&bob, json!({"caller_numbers": ["+49 (30) 123-456"]})).await;
    assert_eq!(taken.error(409), "conflict");
    assert_eq!(
        put(&bob, json!({"caller_numbers": ["0301234"]})).await.error(422),
        "invalid_request"
    );
    let own = app
        .call(
            Method::PUT,
            "/api/me/prefs",
            As::Bearer(&token),
            Some(json!({"caller_numbers": []})),
        )
        .await;
    assert_eq!(
        own.error(403),
        "forbidden",
        "a user does not choose who may call as them"
    );

    // Deleting Anna frees her number for Bob, whose calls it then are.
    let anna = app.get("/api/admin/users", As::AdminKey).await.body;
    let anna_id = anna.as_array().unwrap().iter().find(|u| u["name"] == "anna").unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let deleted = app
        .call(
            Method::DELETE,
            &format!("/api/admin/users/{anna_id}"),
            As::AdminKey,
            None,
        )
        .await;
    assert_eq!(deleted.status, 200, "{}", deleted.body);
    assert_eq!(put(&bob, json!({"caller_numbers": [ANNAS_NUMBER]})).await.status, 200);
    let twiml = ring(&app, "CA0011", ANNAS_NUMBER).await;
    let (_, params) = stream_of(&twiml).expect("a stream");
    assert!(params.contains(&("user".to_string(), bob.clone())), "{params:?}");
}

#[tokio::test]
async fn a_caller_in_a_language_the_model_does_not_speak_hears_why_once_before_the_answer() {
    let fakes = Fakes::start().await;
    // The notice's voice is twice as long as the others, so that the line shows where it was played.
    fakes.tts.when(
        |r| {
            r.json()["input"]
                .as_str()
                .is_some_and(|t| t.starts_with("Het taalmodel"))
        },
        Reply::Bytes("audio/wav", tone_wav(2.0 * SPOKEN_SECONDS)),
    );
    fakes.hears(&["Wat is een tulp?", "En een roos?"]);
    fakes.llm.always(CHAT, tokens(&["A tulip is a flower."]));
    // Llama 3.2, as its preset knows it: no Dutch.
    let (app, _, id) = gateway(&fakes, &[("LOCAL_LLM_MODEL", "llama3.2:3b")]).await;
    app.set_prefs(&id, json!({"language": "nl"})).await;

    let twiml = ring(&app, "CA0051", ANNAS_NUMBER).await;
    let call = TwilioCall::connect(&app, &twiml, "CA0051").await;
    call.until("the greeting played", 10, |s| s.contains(&Seen::Played("1".into())))
        .await;
    call.say(&question_ulaw()).await;
    call.until("the first answer played", 20, |s| s.contains(&Seen::Played("3".into())))
        .await;
    call.say(&question_ulaw()).await;
    let seen = call
        .until("the second answer played", 20, |s| {
            s.contains(&Seen::Played("4".into()))
        })
        .await;

    let notice = "Het taalmodel Llama 3.2 3B (local) spreekt geen Nederlands: het antwoord komt waarschijnlijk in \
                  het Engels of slaat nergens op. Wie de assistent beheert, kan een model installeren dat Nederlands \
                  spreekt.";
    // Spoken (the answer's voice may be asked first, while the notice is played) once ...
    assert_eq!(
        sorted(&fakes.spoken()[1..]),
        ["A tulip is a flower.", "A tulip is a flower.", notice]
    );
    // ... and played after the greeting, before the first answer: the long piece is the second.
    let lengths: Vec<usize> = pieces(&seen).iter().map(Vec::len).collect();
    assert_eq!(lengths.len(), 4, "{lengths:?}");
    assert!(
        lengths[1] > lengths[0] * 3 / 2 && lengths[2] < lengths[1] * 3 / 4,
        "{lengths:?}"
    );
}

/// How the person asked for help, as the alarm keeps it (`way`, `platform`).
pub(crate) async fn asked_by(app: &TestApp, user_id: &str) -> Vec<(String, String)> {
    let rows: Vec<(String,)> = voice_gateway::with_pool!(app.store, pool => sqlx::query_as(
        "SELECT press FROM emergency_alarms WHERE user_id = $1 ORDER BY created_at",
    )
    .bind(user_id)
    .fetch_all(pool)
    .await
    .unwrap());
    rows.iter()
        .map(|(press,)| {
            let press: Value = serde_json::from_str(press).unwrap();
            (
                press["way"].as_str().unwrap_or_default().to_string(),
                press["platform"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn the_help_key_interrupts_the_greeting_asks_at_once_2_calls_it_off_and_1_alerts() {
    let fakes = Fakes::start().await;
    let s = help_gateway(&fakes).await;
    s.app.set_prefs(&s.id, json!({"emergency_cooldown_minutes": "0"})).await;
    let twiml = ring(&s.app, "CA0011", ANNAS_MOBILE).await;
    let call = TwilioCall::connect(&s.app, &twiml, "CA0011").await;
    // The greeting is being played: the key stops it and the question comes at once.
    call.until("the greeting sent", 10, |x| x.contains(&Seen::Mark("1".into())))
        .await;
    call.press('0');
    call.until("the greeting cleared", 10, |x| x.contains(&Seen::Clear))
        .await;
    eventually("the question and its keys", 20, || async { fakes.spoken().len() >= 3 }).await;
    assert_eq!(fakes.spoken()[1..3], [QUESTION, KEYS]);

    // 2 calls it off: nobody is alerted.
    call.press('2');
    eventually("the no said", 20, || async { fakes.spoken().len() >= 4 }).await;
    assert_eq!(fakes.spoken()[3], "In Ordnung, ich alarmiere niemanden.");
    assert!(s.smtp.as_ref().unwrap().mails().is_empty());

    // Asked again, 1 alerts the contacts.
    call.press('0');
    eventually("asked again", 20, || async { fakes.spoken().len() >= 6 }).await;
    call.press('1');
    let smtp = s.smtp.as_ref().unwrap();
    eventually("the alarm's mail", 20, || async {
        smtp.mails()
            .into_iter()
            .find(|m| m.recipients == ["tochter@family.example"])
    })
    .await;
    eventually("what was done said", 20, || async {
        fakes
            .spoken()
            .iter()
            .any(|w| w == "Hilfe ist unterwegs: Ihre Kontaktpersonen wurden benachrichtigt.")
    })
    .await;
    assert_eq!(
        asked_by(&s.app, &s.id).await,
        [("key".to_string(), "telephone".to_string())]
    );
    assert!(fakes.llm.all_requests().is_empty(), "no key reached the model");
    call.hang_up();
}

#[tokio::test]
async fn a_call_whose_task_fails_is_closed_and_counted_and_one_beyond_the_voice_limit_is_rejected_unanswered() {
    let fakes = Fakes::start().await;
    let (app, _, _) = gateway(&fakes, &[("VOICE_CONNECTIONS_PER_USER", "1")]).await;
    let twiml = ring(&app, "CA0101", ANNAS_NUMBER).await;
    let call = TwilioCall::connect(&app, &twiml, "CA0101").await;
    call.until("the greeting played", 10, |s| s.contains(&Seen::Played("1".into())))
        .await;
    // Anna's one place is taken: Twilio is told to reject the next call as busy, never answered.
    let busy = ring(&app, "CA0102", ANNAS_NUMBER).await;
    assert!(
        busy.contains("<Reject reason=\"busy\"/>") && !busy.contains("<Connect>"),
        "{busy}"
    );
    // The first call's task fails: its stream closes, to Twilio a hang-up.
    app.app.faults.arm("twilio");
    call.press('5');
    call.until("the failed call's stream closed", 10, closed).await;
    let metrics = eventually("the failure counted", 10, || async {
        let metrics = app.prometheus().await;
        metrics
            .contains("task_failures_total{door=\"twilio\"} 1")
            .then_some(metrics)
    })
    .await;
    for outcome in [
        "outcome=\"refused\",reason=\"voice_limit\"} 1",
        "outcome=\"failed\",reason=\"task_failed\"} 1",
    ] {
        assert!(
            metrics.contains(&format!("phone_calls_total{{line=\"twilio\",{outcome}")),
            "{metrics}"
        );
    }
    // The place is free again: the next call is connected and greeted.
    let twiml = ring(&app, "CA0103", ANNAS_NUMBER).await;
    let next = TwilioCall::connect(&app, &twiml, "CA0103").await;
    next.until("the next greeting played", 10, |s| {
        s.contains(&Seen::Played("1".into()))
    })
    .await;
}

/// A call from `number` as the guest, until its greeting played: what the greeting said.
async fn guest_greeting(app: &TestApp, fakes: &Fakes, (sid, number): (&str, &str)) -> String {
    let before = fakes.spoken().len();
    let twiml = ring(app, sid, number).await;
    let call = TwilioCall::connect(app, &twiml, sid).await;
    call.until("the greeting played", 10, |s| s.contains(&Seen::Played("1".into())))
        .await;
    call.hang_up();
    fakes.spoken()[before].clone()
}

#[tokio::test]
async fn every_unknown_caller_hears_the_help_key_on_their_first_call_of_the_day() {
    let fakes = Fakes::start().await;
    let (app, _, _) = gateway(&fakes, &[("PHONE_UNKNOWN_CALLERS", "guest")]).await;
    const TOLD: &str = "Hello. How can I help? For help, press 0 at any time.";

    // Two strangers share the guest account; each is told the key on their first call.
    assert_eq!(guest_greeting(&app, &fakes, ("CA0101", "+15005550006")).await, TOLD);
    assert_eq!(guest_greeting(&app, &fakes, ("CA0102", "+15005550007")).await, TOLD);
    // The first calls again the same day: greeted without it.
    let again = guest_greeting(&app, &fakes, ("CA0103", "+15005550006")).await;
    assert_eq!(again, "Hello. How can I help?");
}
