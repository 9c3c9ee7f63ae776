//! A question the person went on with after a pause (issue 40): the answer to its first half stops, nothing
//! of it is kept, and the whole is answered, counted and stored once; an answer listened to for a while is
//! still interrupted; each person's pace is learned and used on every channel.

use serde_json::{Value, json};

use crate::common::{As, TestApp, eventually, turn_taking_env};
use crate::fakes::{CHAT, Fake, Recorded, Reply, held, tokens, tokens_with_usage};
use crate::openai::realtime;
use crate::phone::usage;
use crate::ws::{Client, Frame, connect, kinds, question_of, silence, tone, uploaded_seconds};

const STT: &str = "/v1/audio/transcriptions";
const HALF: &str = "I would like to know";
const WHOLE: &str = "I would like to know the capital of Spain.";

/// A recogniser that hears the half of the question in short audio and the whole in the joined audio (both
/// tones together are longer than 1.4 s).
async fn recogniser() -> Fake {
    let stt = Fake::start().await;
    stt.when(
        |r: &Recorded| uploaded_seconds(r) > 1.4,
        Reply::Json(json!({"text": WHOLE})),
    );
    stt.always(STT, Reply::Json(json!({"text": HALF})));
    stt
}

/// Anna's voice socket in a session, with `vad`, on a gateway with `llm`: the app, her token, the session.
async fn anna(stt: &Fake, llm: &Fake, extra: &[(&str, &str)]) -> (TestApp, String, String, Client) {
    let mut env = vec![("FILLER_AFTER_MS", "0"), ("MEMORY_EXTRACTION_ENABLED", "false")];
    env.extend_from_slice(extra);
    let (app, token, _) = TestApp::with().llm(llm).stt(stt).env(&env).user("anna").await;
    let session = app.new_session(&token).await;
    let mut ws = connect(&app, "/ws/voice", &token).await;
    let start = json!({"type": "start", "vad": true, "language": "en", "session_id": session});
    ws.send(start).await;
    (app, token, session, ws)
}

/// The frames up to `done` that come after `kind`.
async fn after(ws: &mut Client, kind: &str) -> Vec<Frame> {
    loop {
        if ws.next().await.kind() == kind {
            return ws.turn().await;
        }
    }
}

/// The session's messages once they are one question and its answer (the half is taken back after its turn
/// stopped).
async fn one_question_stored(app: &TestApp, session: &str, token: &str) -> Vec<String> {
    app.shown_texts(session, token, 2).await
}

/// Anna's id.
async fn anna_id(app: &TestApp) -> String {
    anna_view(app).await["id"].as_str().unwrap().to_string()
}

/// Anna's user view in the admin list.
async fn anna_view(app: &TestApp) -> Value {
    let users = app.get("/api/admin/users", As::AdminKey).await;
    let users = users.body.as_array().unwrap().clone();
    users.into_iter().find(|u| u["name"] == "anna").unwrap()
}

#[tokio::test]
async fn a_question_continued_after_a_pause_is_answered_once_counted_once_and_stored_once() {
    let stt = recogniser().await;
    let llm = Fake::start().await;
    // Each answer costs 0.03, as OpenRouter reports it.
    let billed = json!({"prompt_tokens": 20, "completion_tokens": 4, "cost": 0.03});
    llm.always(CHAT, tokens_with_usage(&["It is Madrid."], billed));
    let (app, token, session, mut ws) = anna(&stt, &llm, &[]).await;

    // "I would like to know" — a pause of a second, in which the detector ends the turn and the half is
    // answered and stored ...
    ws.speak([tone(700), silence(1000)].concat()).await;
    let first = ws.turn().await;
    assert_eq!(first[0].json()["text"], HALF, "{:?}", kinds(&first));
    // Stored, but not shown on her other devices while she may still go on with it.
    assert!(
        app.stored_texts(&session, &token).await.is_empty(),
        "the half is not shown"
    );
    assert_eq!(app.rows_of("messages", &anna_id(&app).await).await, 2, "yet kept");
    // ... "the capital of Spain": the person goes on, and the half question's answer is called off.
    ws.speak([tone(700), silence(1000)].concat()).await;
    let continued = loop {
        let frame = ws.next().await;
        if frame.kind() == "continued" {
            break frame;
        }
        assert_ne!(
            frame.kind(),
            "transcript",
            "the rest was taken for a question of its own"
        );
    };
    let gap = continued.json()["gap_ms"].as_u64().unwrap();
    assert!((900..=1300).contains(&gap), "the pause from the last word: {gap} ms");

    let whole = ws.turn().await;
    assert_eq!(whole[0].kind(), "transcript", "{:?}", kinds(&whole));
    assert_eq!(whole[0].json()["text"], WHOLE);
    assert!(kinds(&whole).contains(&"semantic".to_string()), "{:?}", kinds(&whole));
    // The recogniser heard both halves as one; the model was asked the whole question.
    let heard = stt.requests(STT);
    assert!(uploaded_seconds(heard.last().unwrap()) > 1.4);
    let asked: Vec<String> = llm.requests(CHAT).iter().map(question_of).collect();
    assert_eq!(asked.last().unwrap(), WHOLE, "{asked:?}");

    // One question in the history, one request counted.
    let stored = one_question_stored(&app, &session, &token).await;
    assert_eq!(stored, [WHOLE, "It is Madrid."]);
    let anna = usage(&app, "anna").await;
    assert_eq!(anna["requests_today"], 1);
    assert!(
        (anna["cost_month"].as_f64().unwrap() - 0.06).abs() < 1e-9,
        "both answers billed, as the provider charged them: {anna}"
    );

    // Anna's patience grew to wait out such a pause, and the operator sees it and the continuation.
    let pace = eventually("the pace learned", 5, || async {
        let pace = anna_view(&app).await["pace"].clone();
        (pace["joined"] == 1).then_some(pace)
    })
    .await;
    assert_eq!(pace["setting"], "auto");
    assert!(pace["patience_ms"].as_u64().unwrap() >= gap + 300, "{pace}");
    let metrics = app.prometheus().await;
    assert!(
        metrics.contains("voice_continuations_total{channel=\"voice\"} 1"),
        "{metrics}"
    );
}

#[tokio::test]
async fn speech_over_an_answer_sentence_the_person_listened_to_is_an_interruption_not_a_continuation() {
    let stt = recogniser().await;
    let llm = Fake::start().await;
    let (reply, _gate, closed) = held(&["The capital of Spain is Madrid. "], &["It is lovely."]);
    llm.then(CHAT, reply);
    llm.always(CHAT, tokens(&["Sure."]));
    let (app, token, session, mut ws) = anna(&stt, &llm, &[]).await;

    ws.speak([tone(700), silence(1000)].concat()).await;
    // The first sentence is spoken, and played to its end (the page says so as each piece ends) ...
    let mut seq = None;
    loop {
        match ws.next().await {
            Frame::Event(event) if event["type"] == "audio" => seq = event["seq"].as_u64(),
            Frame::Audio(_) => break,
            _ => {}
        }
    }
    ws.send(json!({"type": "played", "seq": seq.expect("the audio event's seq")}))
        .await;
    // ... when the person says something new, a second after their last word: well within the pause and the
    // time of listening after which speech may still go on with the question, by the clock.
    ws.speak([tone(700), silence(1000)].concat()).await;
    let mut seen = Vec::new();
    loop {
        let frame = ws.next().await;
        seen.push(frame.kind());
        if frame.kind() == "done" {
            break;
        }
    }
    assert!(seen.contains(&"interrupted".to_string()), "{seen:?}");
    assert!(!seen.contains(&"continued".to_string()), "{seen:?}");
    assert_eq!(seen[1], "transcript", "{seen:?}");
    assert!(
        closed.load(std::sync::atomic::Ordering::SeqCst),
        "the first answer's request was dropped"
    );
    // A question of its own: both were counted.
    assert_eq!(usage(&app, "anna").await["requests_today"], 2);
    // Shown once it can no longer be continued.
    eventually("the new question's answer shown", 10, || async {
        let stored = app.stored_texts(&session, &token).await;
        (stored.last().map(String::as_str) == Some("Sure.")).then_some(())
    })
    .await;
    assert_eq!(anna_view(&app).await["pace"]["joined"], 0);
}

#[tokio::test]
async fn the_answer_to_the_help_question_is_never_continued() {
    let stt = Fake::start().await;
    stt.then(STT, Reply::Json(json!({"text": "Help me, I have fallen!"})));
    stt.always(STT, Reply::Json(json!({"text": "No, thank you."})));
    let llm = Fake::answering(&["Hello."]).await;
    // A mail relay and a desk to alert: the question is asked only of a person whose help reaches somebody.
    let smtp = crate::smtp::SmtpServer::start(crate::smtp::Mode::Accept).await;
    let port = smtp.port.to_string();
    let mail = [
        ("SMTP_HOST", "127.0.0.1"),
        ("SMTP_PORT", port.as_str()),
        ("SMTP_SECURITY", "none"),
        ("EMERGENCY_CONTACT_EMAIL", "desk@care.example"),
    ];
    let (app, _, _, mut ws) = anna(&stt, &llm, &mail).await;

    ws.speak([tone(700), silence(1000)].concat()).await;
    let asked = ws.turn().await;
    assert!(kinds(&asked).contains(&"help_asked".to_string()), "{:?}", kinds(&asked));
    // "No" ... and a second later "thank you": two answers to the question, never one continued.
    ws.speak([tone(700), silence(1000)].concat()).await;
    let declined = ws.turn().await;
    assert!(kinds(&declined).contains(&"help".to_string()), "{:?}", kinds(&declined));
    ws.speak([tone(700), silence(1000)].concat()).await;
    let next = ws.turn().await;
    assert!(!kinds(&next).contains(&"continued".to_string()), "{:?}", kinds(&next));
    assert!(llm.requests(CHAT).iter().all(|r| !question_of(r).contains("Help")));
    assert_eq!(anna_view(&app).await["pace"]["joined"], 0);
}

#[tokio::test]
async fn a_realtime_client_sees_the_half_answer_cancelled_and_one_response_to_the_whole() {
    let stt = recogniser().await;
    let llm = Fake::start().await;
    let (reply, _gate, closed) = held(&["Let me see. "], &["Something."]);
    llm.then(CHAT, reply);
    llm.always(CHAT, tokens(&["It is Madrid."]));
    let (app, token, _) = TestApp::with()
        .llm(&llm)
        .stt(&stt)
        .env(&[("FILLER_AFTER_MS", "0"), ("MEMORY_EXTRACTION_ENABLED", "false")])
        .user("anna")
        .await;
    let (mut ws, _) = realtime::connect(&app, &token, "", &[]).await;
    let append = |seconds, loud| json!({"type": "input_audio_buffer.append", "audio": realtime::audio(seconds, loud)});
    realtime::send(&mut ws, append(0.7, true)).await;
    realtime::send(&mut ws, append(1.0, false)).await;
    let mut half_item = None;
    loop {
        let event = realtime::next_event(&mut ws).await;
        if event["type"] == "input_audio_buffer.committed" {
            half_item = event["item_id"].as_str().map(String::from);
        }
        if event["type"] == "response.output_audio.delta" {
            break;
        }
    }
    // The rest of the question, a second after its first half.
    realtime::send(&mut ws, append(0.7, true)).await;
    realtime::send(&mut ws, append(1.0, false)).await;
    let mut events = Vec::new();
    let answered = loop {
        let event = realtime::next_event(&mut ws).await;
        events.push(event.clone());
        if event["type"] == "response.done" && event["response"]["status"] == "completed" {
            break event;
        }
    };
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    let cancelled = events
        .iter()
        .position(|e| e["type"] == "response.done" && e["response"]["status"] == "cancelled");
    assert!(cancelled.is_some(), "{types:?}");
    let deleted: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "conversation.item.deleted")
        .collect();
    assert!(
        deleted.iter().any(|e| e["item_id"].as_str() == half_item.as_deref()),
        "the half question's item is deleted: {types:?}"
    );
    let transcripts: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "conversation.item.input_audio_transcription.completed")
        .collect();
    assert_eq!(transcripts.len(), 1, "{types:?}");
    assert_eq!(transcripts[0]["transcript"], WHOLE);
    assert_eq!(
        answered["response"]["output"][0]["content"][0]["transcript"],
        "It is Madrid."
    );
    assert!(
        closed.load(std::sync::atomic::Ordering::SeqCst),
        "the half answer's request was dropped"
    );
    assert_eq!(usage(&app, "anna").await["requests_today"], 1);
}

#[tokio::test]
#[ignore = "needs ONNX Runtime and the Silero and Smart Turn models; scripts/test.sh fetches them"]
async fn with_smart_turn_a_continued_question_teaches_a_patience_used_on_another_channel() {
    let complete = crate::voice_detection::pcm(crate::voice_detection::COMPLETE);
    let stt = Fake::start().await;
    // Smart Turn hears the clip complete and its words sound so: a quick turn, answered at the pause.
    stt.when(
        |r: &Recorded| uploaded_seconds(r) > 4.0,
        Reply::Json(json!({"text": WHOLE})),
    );
    stt.always(STT, Reply::Json(json!({"text": "And so, my fellow Americans."})));
    let llm = Fake::answering(&["Indeed."]).await;
    let mut env = turn_taking_env();
    // Smart Turn hears the clip complete but, at 0.7, not sure (0.85) of it: within a person's patience only the
    // patience ends the turn. (ONNX Runtime quantizes on the fly by what the CPU offers: the clip, said over
    // Realtime, is 0.84 on a CPU with AVX-512 VNNI and 0.75 on an AVX2 one; 0.7 holds on both.)
    env.push(("TURN_COMPLETE_PROBABILITY", "0.7".into()));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (app, token, session, mut ws) = anna(&stt, &llm, &env).await;

    // Spoken, a pause of 1.2 s in which the turn ends and is answered, and the rest.
    ws.speak([complete.clone(), silence(1200)].concat()).await;
    assert_eq!(ws.next().await.kind(), "transcript", "the turn ended in the pause");
    ws.speak([complete.clone(), silence(1500)].concat()).await;
    let whole = after(&mut ws, "continued").await;
    assert_eq!(whole[0].json()["text"], WHOLE, "{:?}", kinds(&whole));
    let stored = one_question_stored(&app, &session, &token).await;
    assert_eq!(stored[0], WHOLE);
    let patience = eventually("the pace learned", 5, || async {
        let pace = anna_view(&app).await["pace"].clone();
        (pace["joined"] == 1).then(|| pace["patience_ms"].as_u64().unwrap())
    })
    .await;
    assert!(patience >= 1500, "{patience}");
    drop(ws);
    patience_holds_on_realtime(&app, (&llm, &stt), &env, &token, complete).await;
}

/// What Smart Turn said so far: the sum and the count of its numbers (`turn_check_probability`).
async fn said_so_far(app: &TestApp) -> (f64, u64) {
    let metrics = app.get("/api/metrics", As::AdminKey).await.body;
    let series = &metrics["histograms"]["turn_check_probability"];
    (
        series["sum"].as_f64().unwrap_or(0.0),
        series["count"].as_u64().unwrap_or(0),
    )
}

/// On another channel (Realtime), the pause of 1.2 s that ends a new user's turn is waited out for Anna, whose
/// patience is longer; a gateway started afresh on the same database does so too; a turn Smart Turn is sure
/// of ends at once. The model's number for this clip moves with the CPU's instructions (0.75 with AVX2, 0.84
/// with Intel's AVX-512 VNNI, 0.87 on an AMD EPYC): the threshold is set just under what it says here, so that
/// the clip is complete at the threshold but not sure before the patience.
async fn patience_holds_on_realtime(
    app: &TestApp,
    fakes: (&Fake, &Fake),
    env: &[(&str, &str)],
    token: &str,
    complete: Vec<i16>,
) {
    let (llm, stt) = fakes;
    let clip = [complete, silence(1200)].concat();
    let (_, bert) = app.create_user("bert").await;
    let before = said_so_far(app).await;
    assert!(
        realtime_turn_ends(app, &bert, &clip).await,
        "a new user's turn ends at the pause"
    );
    let after = said_so_far(app).await;
    let said = (after.0 - before.0) / (after.1 - before.1).max(1) as f64;
    let threshold = format!("{:.3}", said - 0.03);
    let mut tuned = env[..env.len() - 1].to_vec();
    tuned.push(("TURN_COMPLETE_PROBABILITY", &threshold));
    let start = |env: Vec<(&str, &str)>| TestApp::with().llm(llm).stt(stt).env(&env).beside(app).start();
    let here = start(tuned.clone()).await;
    let (_, carl) = here.create_user("carl").await;
    assert!(
        realtime_turn_ends(&here, &carl, &clip).await,
        "a new user's turn ends at {threshold}"
    );
    assert!(
        !realtime_turn_ends(&here, token, &clip).await,
        "Anna's patience waits it out ({said:.3} said)"
    );
    drop(here);
    let again = start(tuned).await;
    assert!(!realtime_turn_ends(&again, token, &clip).await, "after a restart too");
    // Where Smart Turn is sure of the turn (at 0.4), her patience does not hold up a question that is clearly
    // complete.
    let mut sure = env[..env.len() - 1].to_vec();
    sure.push(("TURN_COMPLETE_PROBABILITY", "0.4"));
    let quick = start(sure).await;
    assert!(
        realtime_turn_ends(&quick, token, &clip).await,
        "a sure turn ends at once"
    );
}

/// Whether the clip (16 kHz) said on `/v1/realtime` with `semantic_vad` ends a turn (within 2.5 s).
async fn realtime_turn_ends(app: &TestApp, token: &str, clip: &[i16]) -> bool {
    use base64::Engine;
    let (mut rt, _) = realtime::connect(app, token, "", &[]).await;
    let semantic = json!({"type": "session.update", "session": {"type": "realtime",
        "audio": {"input": {"turn_detection": {"type": "semantic_vad"}}}}});
    realtime::send(&mut rt, semantic).await;
    // 24 kHz: each pair of samples becomes three.
    let pcm24: Vec<u8> = clip
        .chunks(2)
        .flat_map(|p| {
            let (a, b) = (p[0], *p.get(1).unwrap_or(&p[0]));
            [a, ((i32::from(a) + i32::from(b)) / 2) as i16, b]
        })
        .flat_map(i16::to_le_bytes)
        .collect();
    // In 20 ms appends, as a microphone sends them.
    for frame in pcm24.chunks(960) {
        let audio = base64::engine::general_purpose::STANDARD.encode(frame);
        realtime::send(&mut rt, json!({"type": "input_audio_buffer.append", "audio": audio})).await;
    }
    tokio::time::timeout(std::time::Duration::from_millis(2500), async {
        while realtime::next_event(&mut rt).await["type"] != "input_audio_buffer.speech_stopped" {}
    })
    .await
    .is_ok()
}

#[tokio::test]
async fn a_caller_who_goes_on_after_a_pause_is_answered_once_for_the_whole_question() {
    use crate::phone::{ANNAS_NUMBER, Fakes, gateway};
    use crate::twilio_media::{Seen, TwilioCall, question_ulaw, ring};
    let fakes = Fakes::start().await;
    fakes.stt.when(
        |r: &Recorded| uploaded_seconds(r) > 2.5,
        Reply::Json(json!({"text": WHOLE})),
    );
    fakes.stt.always(STT, Reply::Json(json!({"text": HALF})));
    // The answer to the half is slow to come: nothing of it is played before the caller goes on.
    let (reply, _gate, closed) = held(&["Let me see"], &[" now."]);
    fakes.llm.then(CHAT, reply);
    fakes.llm.always(CHAT, tokens(&["It is Madrid."]));
    let (app, token, _) = gateway(&fakes, &[]).await;

    let twiml = ring(&app, "CA0040", ANNAS_NUMBER).await;
    let call = TwilioCall::connect(&app, &twiml, "CA0040").await;
    call.until("the greeting played", 10, |s| s.contains(&Seen::Played("1".into())))
        .await;
    // A phrase, a second's pause (µ-law silence), the rest, and silence.
    let pause = vec![0xff; 8000];
    let said = [question_ulaw(), pause.clone(), question_ulaw(), pause.clone(), pause].concat();
    call.say(&said).await;
    call.until("the whole question's answer played", 20, |_| {
        fakes.spoken().iter().any(|s| s == "It is Madrid.")
    })
    .await;

    let asked: Vec<String> = fakes.llm.requests(CHAT).iter().map(question_of).collect();
    assert_eq!(asked, [HALF, WHOLE], "the half was asked, then the whole");
    assert!(
        closed.load(std::sync::atomic::Ordering::SeqCst),
        "the half's answer was called off"
    );
    let heard = fakes.stt.requests(STT);
    assert!(
        uploaded_seconds(heard.last().unwrap()) > 2.5,
        "both parts transcribed as one"
    );
    assert!(
        !fakes.spoken().iter().any(|s| s.contains("Let me see")),
        "nothing of the half was said"
    );
    let sessions = app.get("/api/sessions", As::Bearer(&token)).await.body;
    let session = sessions[0]["id"].as_str().unwrap().to_string();
    let stored = one_question_stored(&app, &session, &token).await;
    assert_eq!(stored, [WHOLE, "It is Madrid."]);
    assert_eq!(usage(&app, "anna").await["requests_today"], 1);
    let metrics = app.prometheus().await;
    assert!(
        metrics.contains("voice_continuations_total{channel=\"phone\"} 1"),
        "{metrics}"
    );
}

#[tokio::test]
async fn a_person_who_set_four_seconds_keeps_a_three_second_pause_inside_one_question() {
    let stt = recogniser().await;
    let llm = Fake::answering(&["It is Madrid."]).await;
    let (app, token, session, mut ws) = anna(&stt, &llm, &[]).await;
    let set = app
        .call(
            reqwest::Method::PUT,
            "/api/me/prefs",
            As::Bearer(&token),
            Some(json!({"turn_patience": 4000})),
        )
        .await;
    assert_eq!(set.status, 200, "{}", set.body);
    // A new connection reads the patience she set.
    drop(ws);
    ws = connect(&app, "/ws/voice", &token).await;
    let start = json!({"type": "start", "vad": true, "language": "en", "session_id": session});
    ws.send(start).await;

    // "I would like to know" — three seconds of thinking — "the capital of Spain".
    ws.speak([tone(700), silence(3000), tone(700), silence(4500)].concat())
        .await;
    let turn = ws.turn().await;
    assert_eq!(turn[0].kind(), "transcript", "{:?}", kinds(&turn));
    assert_eq!(turn[0].json()["text"], WHOLE, "one question, not its half");
    assert!(!kinds(&turn).contains(&"continued".to_string()), "{:?}", kinds(&turn));
    // The whole was answered. The half may have been asked during the pause (the answer started early, when
    // its words came back before the speech went on; in real time they always do) and then dropped unheard.
    let asked: Vec<String> = llm.requests(CHAT).iter().map(question_of).collect();
    assert_eq!(asked.last().unwrap(), WHOLE, "{asked:?}");
    assert!(asked[..asked.len() - 1].iter().all(|q| q == HALF), "{asked:?}");
    assert_eq!(one_question_stored(&app, &session, &token).await[0], WHOLE);
    let anna = usage(&app, "anna").await;
    assert_eq!(anna["requests_today"], 1, "one question counted");
}

/// Anna on a gateway whose cloud model is first (one unit a million prompt tokens, a million units a million
/// answer tokens: one per answer token) with `extra` settings: its first answer sends one token and then
/// nothing until it is called off (no usage ever comes; `closed` says when it was), the next ones report their
/// tokens (12 and 1) but no cost, as OpenAI does.
async fn priced_cloud(
    stt: &Fake,
    cloud: &Fake,
    extra: &[(&str, &str)],
) -> (TestApp, String, std::sync::Arc<std::sync::atomic::AtomicBool>) {
    let (first, _gate, closed) = held(&["Let me see"], &[" now."]);
    cloud.then(CHAT, first);
    cloud.always(CHAT, tokens(&["It is Madrid."]));
    let local = Fake::answering(&["unused"]).await;
    let mut env = vec![
        ("FILLER_AFTER_MS", "0"),
        ("MEMORY_EXTRACTION_ENABLED", "false"),
        ("CLOUD_LLM_PRICE_INPUT", "1"),
        ("CLOUD_LLM_PRICE_OUTPUT", "1000000"),
    ];
    env.extend_from_slice(extra);
    let (app, token, _) = TestApp::with()
        .llm(&local)
        .stt(stt)
        .first(crate::common::Stage::Llm, cloud, "local")
        .env(&env)
        .user("anna")
        .await;
    (app, token, closed)
}

/// Anna's costs once both answers are billed: (estimated, counted).
async fn both_billed(app: &TestApp) -> (f64, f64, Value) {
    let anna = eventually("both answers billed", 5, || async {
        let anna = usage(app, "anna").await;
        (anna["cost_month"].as_f64().unwrap_or_default() >= 2.0).then_some(anna)
    })
    .await;
    let estimated = anna["cost_estimated_month"].as_f64().unwrap();
    (estimated, anna["cost_month"].as_f64().unwrap() - estimated, anna)
}

#[tokio::test]
async fn an_answer_cut_by_the_persons_going_on_is_billed_for_what_the_cloud_model_sent() {
    let stt = recogniser().await;
    let cloud = Fake::start().await;
    // The half's own turn asks the model, and is the held answer (an early answer never used is the next
    // test's).
    let (app, token, closed) = priced_cloud(&stt, &cloud, &[("PREEMPTIVE_GENERATION", "false")]).await;
    let session = app.new_session(&token).await;
    let mut ws = connect(&app, "/ws/voice", &token).await;
    ws.send(json!({"type": "start", "vad": true, "language": "en", "session_id": session}))
        .await;

    ws.speak([tone(700), silence(1000)].concat()).await;
    eventually("the half's answer sent its token", 5, || async {
        !cloud.requests(CHAT).is_empty()
    })
    .await;
    ws.speak([tone(700), silence(1000)].concat()).await;
    let whole = after(&mut ws, "continued").await;
    assert_eq!(whole[0].json()["text"], WHOLE, "{:?}", kinds(&whole));
    assert!(
        closed.load(std::sync::atomic::Ordering::SeqCst),
        "the half's request was dropped"
    );

    let (estimated, counted, anna) = both_billed(&app).await;
    // The half: its one token counted, its prompt (about a few hundred tokens) at one unit a million.
    assert!((1.0..1.01).contains(&estimated), "{anna}");
    // The whole: its reported 12 and 1 tokens at the prices.
    assert!((counted - 1.000012).abs() < 1e-9, "{anna}");
}

#[tokio::test]
async fn an_answer_started_early_and_never_used_is_billed_for_what_the_cloud_model_sent() {
    let stt = recogniser().await;
    let cloud = Fake::start().await;
    // The half is transcribed and asked 200 ms into the pause (the held answer); the turn ends only after
    // 1.5 s.
    let early = [("STT_EARLY_MS", "200"), ("VAD_SILENCE_MS", "1500")];
    let (app, token, closed) = priced_cloud(&stt, &cloud, &early).await;
    let mut ws = connect(&app, "/ws/voice", &token).await;
    ws.send(json!({"type": "start", "vad": true, "language": "en"})).await;

    ws.speak([tone(700), silence(500)].concat()).await;
    eventually("the model asked during the pause", 5, || async {
        !cloud.requests(CHAT).is_empty()
    })
    .await;
    assert!(ws.quiet_for(300).await, "the early answer is held back");
    // Anna goes on: the early answer is never used, the whole question is asked and answered.
    ws.speak([tone(700), silence(1700)].concat()).await;
    let frames = ws.turn().await;
    assert_eq!(frames[0].json()["text"], WHOLE, "{:?}", kinds(&frames));
    eventually("the early request closing", 5, || async {
        closed.load(std::sync::atomic::Ordering::SeqCst)
    })
    .await;
    assert_eq!(cloud.requests(CHAT).len(), 2);

    let (estimated, counted, anna) = both_billed(&app).await;
    // The early answer: its one token, its prompt at one unit a million tokens, estimated.
    assert!((1.0..1.01).contains(&estimated), "{anna}");
    // The whole: its reported 12 and 1 tokens at the prices.
    assert!((counted - 1.000012).abs() < 1e-9, "{anna}");
}

#[tokio::test]
async fn the_half_of_a_continued_question_is_never_read_for_memories() {
    let stt = recogniser().await;
    let llm = Fake::start().await;
    llm.always(CHAT, tokens(&["It is Madrid."]));
    // Memories after every turn: the half's store alone would start an extraction.
    let env = [
        ("MEMORY_EXTRACTION_ENABLED", "true"),
        ("MEMORY_EXTRACTION_EVERY_N_TURNS", "1"),
    ];
    let (app, token, session, mut ws) = anna(&stt, &llm, &env).await;

    ws.speak([tone(700), silence(1000)].concat()).await;
    ws.turn().await;
    ws.speak([tone(700), silence(1000)].concat()).await;
    let whole = after(&mut ws, "continued").await;
    assert_eq!(whole[0].json()["text"], WHOLE);

    // The whole is read once its window passed; the half never was: when the next question's reading comes,
    // the whole's was the only one before it.
    assert_eq!(one_question_stored(&app, &session, &token).await[0], WHOLE);
    let extractions = || async {
        let found: Vec<String> = llm
            .all_requests()
            .iter()
            .filter(|r| r.is_extraction())
            .map(|r| String::from_utf8_lossy(&r.body).to_string())
            .collect();
        found
    };
    let first = eventually("the whole's extraction", 10, || async {
        extractions().await.first().cloned()
    })
    .await;
    assert!(first.contains("the capital of Spain"), "{first}");
    // Long after the whole's window, a new question (ended by a longer pause: Anna's patience grew when she
    // went on after one second).
    stt.always(STT, Reply::Json(json!({"text": "Where is Spain?"})));
    ws.speak([silence(4000), tone(700), silence(2500)].concat()).await;
    let next = ws.turn().await;
    assert_eq!(next[0].json()["text"], "Where is Spain?", "{:?}", kinds(&next));
    let all = eventually("the next question's extraction", 10, || async {
        let all = extractions().await;
        (all.len() >= 2).then_some(all)
    })
    .await;
    assert_eq!(all.len(), 2, "the half read too: {all:?}");
    assert!(all[1].contains("Where is Spain?"), "{}", all[1]);
}
