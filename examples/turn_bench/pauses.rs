//! `--suite pauses`: issue 40, "a person who pauses mid-sentence is answered after three words and stored as
//! three questions". People who pause in the middle of a sentence, each a new user of the gateway on one
//! `/ws/voice` connection with a microphone that never stops (speech, then silence until they speak again), who
//! ask their questions one after the other, so that what the gateway learns of a speaker's pace shows from their
//! first question to their third. Sets:
//!
//! - `real`: recordings of people ([`REAL`]: LibriVox's *A Tale of Two Cities*, Asterisk's prompts, a Beckett
//!   quote; fetched at run time, never committed), each clip with one pause of 0.5–1.2 s inside a sentence, and
//!   two sentences read without one;
//! - `en`, `de`: espeak-ng and Piper questions with a pause of 0.5, 1.0, 1.5 or 2.0 s after an unfinished phrase
//!   ("I would like to know | the capital of Spain."), one speaker per pause length ([`PAUSED`]);
//! - `complete`: the questions of `questions.tsv` without a pause, for the latency (end of speech → first audio);
//! - `interrupt`: a question, and ≥3 s after its answer's first audio the person says something new ("Stop. What
//!   time is it?"): an interruption, which must never be joined to the question.
//!
//! The client behaves as the web UI does: it plays the answer's audio in real time (simulated), stops it on
//! `interrupted` and on `continued` (the changed gateway's event: the answer to the half question is cancelled,
//! the next `transcript` holds the whole question), and when a `transcript` comes while it still plays it tells
//! the gateway the last piece heard in full (`heard`). A gateway without `continued` is measured the same way: the
//! event simply never comes.
//!
//! Counted per set: answers to half a sentence (a transcript that was not the last of the question and was not
//! followed by `continued`), half answers that had begun to speak, continuations joined (`continued` events),
//! interruptions mistaken for continuations (a `continued` after the interruption began), whether the last
//! transcript is the whole question, the user messages stored per question asked, and the end of speech → first
//! audio; then per speaker and position (first, second, third … question of that speaker); then the gateway's
//! `voice_continuations_total` and `voice_turn_patience*` series.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};
use tokio_tungstenite::tungstenite::Message;

use super::{ADMIN_KEY, errors, questions, resample, speech, voiced};

/// Recordings of people with a pause inside a sentence (see the file's header for sources and spans).
const REAL: &str = include_str!("../real_pauses.tsv");
/// Generated questions with a pause after an unfinished phrase, and the interruptions.
const PAUSED: &str = include_str!("../paused_questions.tsv");
/// The wheel whose `moonshine_voice/assets/` hold the recordings (MIT; *A Tale of Two Cities* is a LibriVox
/// reading, public domain).
const MOONSHINE: &str = "moonshine-voice==0.1.5";
/// After the gateway's last `done`, how long the person waits before asking the next question. Longer than
/// `TURN_RESUME_MS` (about 2 s, counted from the last word), so a new question is never a legitimate
/// continuation of the one before.
const NEXT_QUESTION_AFTER: Duration = Duration::from_millis(1500);
/// How long after the last speech sample a question's turn may still be under way (the transcript of its last
/// part, its answer) before the bench gives up on it.
const TURN_DEADLINE: Duration = Duration::from_secs(30);
/// The least time after the last speech sample before a question counts as answered: the last part's transcript
/// may follow a half's `done`.
const SETTLE: Duration = Duration::from_secs(3);
/// A last transcript with at most this share of wrong words is the whole question.
pub(super) const WHOLE_WER: f64 = 0.25;

/// One thing a speaker says: a question, or a question and what interrupts its answer.
pub struct Item {
    pub(super) set: String,
    pub(super) speaker: String,
    pub(super) lang: String,
    /// The words; a `|` marks the long pause (or separates a question from its interruption).
    pub(super) text: String,
    /// The pause at the `|` (ms); for an interruption, how long after the answer's first audio it comes.
    pub(super) pause: u32,
    /// The question's audio (16 kHz), and the interruption's.
    pub(super) pcm: Vec<i16>,
    pub(super) interruption: Option<Vec<i16>>,
}

/// What became of one item.
struct Outcome {
    transcripts: Vec<String>,
    /// The `gap_ms` of each `continued` event.
    continued: Vec<Option<f64>>,
    /// Transcripts that were not the last of the question and were not followed by `continued`.
    halves: usize,
    /// Of the half transcripts, those whose answer had begun to speak (an `audio` event) before the next one.
    halves_spoken: usize,
    /// `continued` events after the interruption began (interruptions only).
    mistaken: usize,
    /// The last transcript is the whole question.
    whole: bool,
    /// Last speech sample → the first audio after the last transcript (ms).
    first_audio_ms: Option<f64>,
}

/// Reads the sets, fetching the recordings; `sets` filters them (empty: all).
pub fn items(engines: &Path, data: &Path, sets: &[String]) -> Vec<Item> {
    let wanted = |set: &str| sets.is_empty() || sets.iter().any(|s| s == set);
    let mut items = Vec::new();
    if wanted("real") {
        items.extend(real(engines, data));
    }
    for line in PAUSED.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let (set, speaker, lang, voice, wpm, pause, text) = (f[0], f[1], f[2], f[3], f[4], f[5], f[6]);
        if !wanted(set) {
            continue;
        }
        let wpm: u32 = wpm.parse().expect("words per minute");
        let pause: u32 = pause.parse().expect("pause");
        let (pcm, interruption) = if set == "interrupt" {
            let (question, over) = text.split_once('|').expect("question | interruption");
            let say = |t: &str| speech(engines, lang, voice, wpm, t, 0);
            (say(question), Some(say(over)))
        } else {
            (speech(engines, lang, voice, wpm, text, pause), None)
        };
        items.push(Item {
            set: set.into(),
            speaker: speaker.into(),
            lang: lang.into(),
            text: text.into(),
            pause,
            pcm,
            interruption,
        });
    }
    if wanted("complete") {
        for q in questions().into_iter().filter(|q| q.pause == 0) {
            items.push(Item {
                set: "complete".into(),
                speaker: format!("complete-{}", q.lang),
                pcm: speech(engines, &q.lang, &q.voice, q.wpm, &q.text, 0),
                lang: q.lang,
                text: q.text,
                pause: 0,
                interruption: None,
            });
        }
    }
    // Each speaker's items together, in the order they first appear (one connection per speaker).
    let mut order: Vec<String> = Vec::new();
    for item in &items {
        if !order.contains(&item.speaker) {
            order.push(item.speaker.clone());
        }
    }
    items.sort_by_key(|it| order.iter().position(|s| *s == it.speaker));
    items
}

/// The recorded clips, cut and resampled to 16 kHz. The moonshine-voice wheel is fetched once into `data`
/// (`pip download`, the engines' own Python); a Debian file that is not installed skips its clips, named.
fn real(engines: &Path, data: &Path) -> Vec<Item> {
    let assets = data.join("moonshine/moonshine_voice/assets");
    if !assets.join("two_cities.wav").exists() {
        let python = engines.join("venv/bin/python");
        let got = Command::new(&python)
            .args([
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--disable-pip-version-check",
                "-d",
            ])
            .arg(data)
            .arg(MOONSHINE)
            .status()
            .is_ok_and(|s| s.success());
        assert!(got, "pip download {MOONSHINE} (the recordings)");
        let wheel = std::fs::read_dir(data)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .find(|p| p.to_string_lossy().contains("moonshine_voice-") && p.extension().is_some_and(|e| e == "whl"))
            .expect("the moonshine-voice wheel");
        let unpacked = Command::new(&python)
            .args(["-m", "zipfile", "-e"])
            .arg(&wheel)
            .arg(data.join("moonshine"))
            .status()
            .is_ok_and(|s| s.success());
        assert!(unpacked, "unzip {}", wheel.display());
    }
    let mut items = Vec::new();
    for line in REAL.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let (speaker, source, from, to, pause, text) = (f[0], f[1], f[2], f[3], f[4], f[5]);
        let path = match source.strip_prefix("moonshine:") {
            Some(name) => assets.join(name),
            None => PathBuf::from(source),
        };
        let Ok(bytes) = std::fs::read(&path) else {
            println!("(skipped, not installed: {})", path.display());
            continue;
        };
        let wav = voice_gateway::providers::audio::parse_wav(&bytes).expect("a 16-bit WAV");
        let rate = wav.sample_rate as f64;
        let channels = usize::from(wav.channels.max(1));
        let mono: Vec<i16> = wav.samples.chunks(channels).map(|c| c[0]).collect();
        let at = |s: &str| ((s.parse::<f64>().expect("seconds") * rate) as usize).min(mono.len());
        let clip = &mono[at(from)..at(to)];
        items.push(Item {
            set: "real".into(),
            speaker: speaker.into(),
            lang: "en".into(),
            text: text.into(),
            pause: pause.parse().expect("pause"),
            pcm: voiced(&resample(clip, wav.sample_rate, 16_000)).to_vec(),
            interruption: None,
        });
    }
    items
}

/// A new user of the gateway: (id, token).
async fn new_user(port: u16, name: &str) -> (String, String) {
    let user: Value = reqwest::Client::new()
        .post(format!("http://127.0.0.1:{port}/api/admin/users"))
        .header("X-Admin-Key", ADMIN_KEY)
        .json(&json!({"name": name}))
        .send()
        .await
        .and_then(|r| r.error_for_status())
        .expect("a new user")
        .json()
        .await
        .unwrap();
    let field = |k: &str| user[k].as_str().expect("the new user's id and token").to_string();
    (field("id"), field("token"))
}

/// A new conversation of the user with `token`, as the web UI opens one: turns are stored only in a session.
async fn new_session(port: u16, token: &str) -> String {
    let session: Value = reqwest::Client::new()
        .post(format!("http://127.0.0.1:{port}/api/sessions"))
        .bearer_auth(token)
        .send()
        .await
        .and_then(|r| r.error_for_status())
        .expect("a new session")
        .json()
        .await
        .unwrap();
    session["id"].as_str().expect("the session's id").to_string()
}

/// The user messages stored for `user`, over all their sessions (the admin's conversations).
async fn stored_questions(port: u16, user: &str) -> usize {
    let http = reqwest::Client::new();
    let get = |url: String| {
        let request = http.get(url).header("X-Admin-Key", ADMIN_KEY);
        async move { request.send().await.ok()?.json::<Value>().await.ok() }
    };
    let base = format!("http://127.0.0.1:{port}/api/admin/conversations/{user}");
    let Some(sessions) = get(base.clone()).await else {
        return 0;
    };
    let mut count = 0;
    for session in sessions["sessions"].as_array().into_iter().flatten() {
        let id = session["id"].as_str().unwrap_or_default();
        let Some(session) = get(format!("{base}/{id}")).await else {
            continue;
        };
        let messages = session["messages"].as_array().into_iter().flatten();
        count += messages.filter(|m| m["role"] == "user").count();
    }
    count
}

/// An event from the gateway, with the time it came; the binary frame after an `audio` event is `audio-bytes`
/// with its length.
struct Event {
    at: Instant,
    kind: String,
    value: Value,
}

/// What the microphone does next: speak (reporting when its last speech frame went out), or send a JSON frame.
enum Mic {
    Speak(Vec<i16>, oneshot::Sender<Instant>),
    Text(String),
}

/// The answer's playback as a client's player does it, simulated: pieces play one after the other in real time.
#[derive(Default)]
struct Player {
    /// Each piece's `seq` and when it has played in full.
    pieces: Vec<(u64, Instant)>,
    /// The `seq` of the `audio` event whose binary frame comes next.
    next_seq: Option<u64>,
}

impl Player {
    fn busy(&self, now: Instant) -> bool {
        self.pieces.last().is_some_and(|(_, end)| *end > now)
    }

    /// The last piece played in full.
    fn played(&self, now: Instant) -> Option<u64> {
        self.pieces
            .iter()
            .rev()
            .find(|(_, end)| *end <= now)
            .map(|(seq, _)| *seq)
    }
}

/// One speaker's connection: the microphone that never stops, the events, the player.
struct Line {
    mic: mpsc::UnboundedSender<Mic>,
    events: mpsc::UnboundedReceiver<Event>,
    log: Vec<Event>,
    player: Player,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Drop for Line {
    fn drop(&mut self) {
        self.tasks.iter().for_each(|t| t.abort());
    }
}

impl Line {
    async fn open(port: u16, token: &str, session: &str, lang: &str) -> Line {
        let url = format!("ws://127.0.0.1:{port}/ws/voice?token={token}&session_id={session}");
        let (ws, _) = tokio_tungstenite::connect_async(url).await.expect("handshake");
        let (mut tx, mut rx) = ws.split();
        let start = json!({"type": "start", "vad": true, "sample_rate": 16000, "language": lang,
            "stream": true, "audio_stream": true});
        tx.send(Message::Text(start.to_string().into())).await.unwrap();
        let (mic, mut said) = mpsc::unbounded_channel::<Mic>();
        // The microphone: one 20 ms frame every 20 ms, speech when there is some to say, else silence.
        let microphone = tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_millis(20));
            let mut speech: std::collections::VecDeque<Vec<u8>> = Default::default();
            let mut ended: Option<oneshot::Sender<Instant>> = None;
            loop {
                tokio::select! {
                    _ = tick.tick() => {
                        let frame = speech.pop_front().unwrap_or_else(|| vec![0u8; 640]);
                        if tx.send(Message::Binary(frame.into())).await.is_err() {
                            return;
                        }
                        if speech.is_empty() && let Some(t) = ended.take() {
                            let _ = t.send(Instant::now());
                        }
                    }
                    Some(next) = said.recv() => match next {
                        Mic::Speak(pcm, done) => {
                            speech.extend(pcm.chunks(320).map(|f| f.iter().flat_map(|s| s.to_le_bytes()).collect()));
                            ended = Some(done);
                        }
                        Mic::Text(text) => {
                            if tx.send(Message::Text(text.into())).await.is_err() {
                                return;
                            }
                        }
                    },
                }
            }
        });
        let (to_line, events) = mpsc::unbounded_channel();
        let reader = tokio::spawn(async move {
            while let Some(Ok(message)) = rx.next().await {
                let at = Instant::now();
                let (kind, value) = match message {
                    Message::Text(text) => {
                        let value: Value = serde_json::from_str(&text).unwrap_or_default();
                        (value["type"].as_str().unwrap_or_default().to_string(), value)
                    }
                    Message::Binary(bytes) => {
                        let seconds = voice_gateway::providers::audio::parse_wav(&bytes)
                            .map(|p| p.samples.len() as f64 / f64::from(p.sample_rate) / f64::from(p.channels.max(1)))
                            .unwrap_or(0.0);
                        ("audio-bytes".into(), json!(seconds))
                    }
                    _ => continue,
                };
                if to_line.send(Event { at, kind, value }).is_err() {
                    return;
                }
            }
        });
        Line {
            mic,
            events,
            log: Vec::new(),
            player: Player::default(),
            tasks: vec![microphone, reader],
        }
    }

    /// Takes one event as the client does: plays audio, stops on `interrupted` and `continued`, and on a new
    /// `transcript` stops what still plays and says what was heard.
    fn take(&mut self, event: Event) {
        let now = event.at;
        match event.kind.as_str() {
            "audio" => self.player.next_seq = event.value["seq"].as_u64(),
            "audio-bytes" => {
                let start = self.player.pieces.last().map_or(now, |(_, end)| (*end).max(now));
                let length = Duration::from_secs_f64(event.value.as_f64().unwrap_or(0.0));
                if let Some(seq) = self.player.next_seq.take() {
                    self.player.pieces.push((seq, start + length));
                }
            }
            "transcript" if self.player.busy(now) => {
                let heard = json!({"type": "heard", "seq": self.player.played(now)});
                let _ = self.mic.send(Mic::Text(heard.to_string()));
                self.player.pieces.clear();
            }
            "interrupted" | "continued" => self.player.pieces.clear(),
            _ => {}
        }
        self.log.push(event);
    }

    /// Takes events until `until`.
    async fn listen_until(&mut self, until: Instant) {
        while let Ok(Some(event)) = tokio::time::timeout_at(until.into(), self.events.recv()).await {
            self.take(event);
        }
    }

    /// Speaks `pcm`, taking events meanwhile; the time its last frame went out.
    async fn speak(&mut self, pcm: Vec<i16>) -> Instant {
        let (done, mut ended) = oneshot::channel();
        self.mic.send(Mic::Speak(pcm, done)).expect("the microphone");
        loop {
            tokio::select! {
                at = &mut ended => return at.expect("the microphone"),
                Some(event) = self.events.recv() => self.take(event),
            }
        }
    }

    /// Asks one item and waits until its turns are over and the person would speak again.
    async fn ask(&mut self, item: &Item) -> Outcome {
        let from = self.log.len();
        let mut last = self.speak(item.pcm.clone()).await;
        let mut interrupted_at = None;
        if let Some(over) = &item.interruption {
            // The answer plays for `pause` ms after its first audio; then the person speaks over it.
            let deadline = last + TURN_DEADLINE;
            let first_audio = loop {
                if let Some(e) = self.log[from..].iter().find(|e| e.kind == "audio") {
                    break e.at;
                }
                if Instant::now() > deadline {
                    break Instant::now();
                }
                self.listen_until(Instant::now() + Duration::from_millis(50)).await;
            };
            self.listen_until(first_audio + Duration::from_millis(u64::from(item.pause)))
                .await;
            interrupted_at = Some(self.log.len());
            last = self.speak(over.clone()).await;
        }
        // Over: a transcript (or error) after the last speech, the last event is `done`, and enough time passed.
        let deadline = last + TURN_DEADLINE;
        loop {
            let now = Instant::now();
            let events = &self.log[from..];
            let heard = events
                .iter()
                .any(|e| e.at >= last && (e.kind == "transcript" || e.kind == "error"));
            let idle = events.last().is_some_and(|e| e.kind == "done");
            if (heard && idle && now >= last + SETTLE) || now >= deadline {
                break;
            }
            self.listen_until(now + Duration::from_millis(100)).await;
        }
        self.listen_until(Instant::now() + NEXT_QUESTION_AFTER).await;
        outcome(item, &self.log[from..], last, interrupted_at.map(|i| i - from))
    }
}

/// Reads an item's events: `interrupted_at` is the index of the first event after the interruption began.
fn outcome(item: &Item, events: &[Event], last: Instant, interrupted_at: Option<usize>) -> Outcome {
    let mut transcripts = Vec::new();
    let mut continued = Vec::new();
    let (mut halves, mut halves_spoken) = (0, 0);
    // The current transcript: (its answer began to speak, `continued` cancelled it).
    let mut open: Option<(bool, bool)> = None;
    for e in events {
        match e.kind.as_str() {
            "transcript" => {
                if let Some((spoken, joined)) = open {
                    halves += usize::from(!joined);
                    halves_spoken += usize::from(spoken);
                }
                open = Some((false, false));
                transcripts.push(e.value["text"].as_str().unwrap_or_default().trim().to_string());
            }
            "continued" => {
                continued.push(e.value["gap_ms"].as_f64());
                if let Some(o) = open.as_mut() {
                    o.1 = true;
                }
            }
            "audio" => {
                if let Some(o) = open.as_mut() {
                    o.0 = true;
                }
            }
            _ => {}
        }
    }
    let mistaken = interrupted_at.map_or(0, |i| events[i..].iter().filter(|e| e.kind == "continued").count());
    // An interruption's question and the interruption are two transcripts, as they should be.
    if item.interruption.is_some() {
        (halves, halves_spoken) = (0, 0);
    }
    let reference = match item.text.split_once('|') {
        Some((_, over)) if item.interruption.is_some() => over.to_string(),
        _ => item.text.replace('|', " "),
    };
    let whole = transcripts.last().is_some_and(|t| {
        let (wrong, words) = errors(&reference, t);
        (wrong as f64) <= WHOLE_WER * words as f64
    });
    let final_transcript = events.iter().rposition(|e| e.kind == "transcript");
    let first_audio_ms = final_transcript.and_then(|i| {
        let audio = events[i..].iter().find(|e| e.kind == "audio")?;
        Some(audio.at.saturating_duration_since(last).as_secs_f64() * 1000.0)
    });
    Outcome {
        transcripts,
        continued,
        halves,
        halves_spoken,
        mistaken,
        whole,
        first_audio_ms,
    }
}

/// Asks every item, speaker by speaker (each a new user on one connection), and reports.
pub async fn run(port: u16, items: Vec<Item>) {
    println!(
        "| set | speaker | # | pause ms | text | transcripts | continued (gap ms) | half answered | last = whole | first audio ms |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut done: Vec<(usize, Outcome)> = Vec::new();
    // Stored user messages and utterances asked, per set.
    let mut stored: Vec<(String, usize, usize)> = Vec::new();
    let mut i = 0;
    while i < items.len() {
        let speaker = &items[i].speaker;
        let mine = items[i..].iter().take_while(|it| &it.speaker == speaker).count();
        let (id, token) = new_user(port, &format!("bench-{speaker}")).await;
        let session = new_session(port, &token).await;
        let mut line = Line::open(port, &token, &session, &items[i].lang).await;
        let mut asked = 0;
        for (position, item) in items[i..i + mine].iter().enumerate() {
            let o = line.ask(item).await;
            asked += 1 + usize::from(item.interruption.is_some());
            let gaps: Vec<String> = o
                .continued
                .iter()
                .map(|g| g.map_or("?".into(), |g| format!("{g:.0}")))
                .collect();
            println!(
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                item.set,
                item.speaker,
                position + 1,
                item.pause,
                // The pause as ‖: a | would split the table's cell.
                item.text.replace('|', "‖"),
                o.transcripts.join(" ⏐ "),
                if gaps.is_empty() { "–".into() } else { gaps.join(", ") },
                match (item.interruption.is_some(), o.mistaken) {
                    (true, 0) => "interruption kept".to_string(),
                    (true, n) => format!("MISTAKEN ×{n}"),
                    (false, _) => format!("{}", o.halves),
                },
                if o.whole { "yes" } else { "no" },
                o.first_audio_ms.map_or("–".into(), |v| format!("{v:.0}")),
            );
            done.push((i + position, o));
        }
        drop(line);
        // The turns are stored when they end; give the last one a moment.
        tokio::time::sleep(Duration::from_millis(500)).await;
        stored.push((items[i].set.clone(), stored_questions(port, &id).await, asked));
        i += mine;
    }
    report(&items, &done, &stored);
    metrics(port).await;
}

pub(super) fn spread(mut v: Vec<f64>) -> String {
    if v.is_empty() {
        return "–".into();
    }
    v.sort_by(f64::total_cmp);
    let at = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize];
    format!("{:.0} / {:.0}", at(0.5), at(0.9))
}

/// The tables per set, and per speaker and position.
fn report(items: &[Item], done: &[(usize, Outcome)], stored: &[(String, usize, usize)]) {
    println!(
        "\n| set | questions | answers to half a sentence | of them already speaking | continuations joined | interruptions mistaken | last transcript = whole question | user messages stored / utterances | end of speech → first audio, median / p90 ms |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for set in ["real", "en", "de", "complete", "interrupt"] {
        let of_set: Vec<&Outcome> = done
            .iter()
            .filter(|(i, _)| items[*i].set == set)
            .map(|(_, o)| o)
            .collect();
        if of_set.is_empty() {
            continue;
        }
        let sum = |f: &dyn Fn(&Outcome) -> usize| of_set.iter().map(|o| f(o)).sum::<usize>();
        let (kept, asked) = stored
            .iter()
            .filter(|(s, _, _)| s == set)
            .fold((0, 0), |(k, a), (_, sk, sa)| (k + sk, a + sa));
        let mistaken = if set == "interrupt" {
            format!("{} of {}", sum(&|o| o.mistaken), of_set.len())
        } else {
            "–".into()
        };
        println!(
            "| {set} | {} | {} | {} | {} | {mistaken} | {} of {} | {kept} / {asked} | {} |",
            of_set.len(),
            sum(&|o| o.halves),
            sum(&|o| o.halves_spoken),
            sum(&|o| o.continued.len()),
            sum(&|o| usize::from(o.whole)),
            of_set.len(),
            spread(of_set.iter().filter_map(|o| o.first_audio_ms).collect()),
        );
    }
    // Per speaker and position: `half` an answer to half a sentence, `joined` a continuation, `whole` neither.
    let speakers: Vec<&str> = {
        let mut s: Vec<&str> = items
            .iter()
            .filter(|it| it.pause > 0 && it.interruption.is_none())
            .map(|it| it.speaker.as_str())
            .collect();
        s.dedup();
        s
    };
    let most = speakers
        .iter()
        .map(|s| items.iter().filter(|it| it.speaker == *s).count())
        .max()
        .unwrap_or(0);
    let header: Vec<String> = (1..=most).map(|n| format!("question {n}")).collect();
    println!("\n| speaker (pause ms) | {} |", header.join(" | "));
    println!("|---|{}", "---|".repeat(most));
    let (mut target_halves, mut target_asked) = (0, 0);
    for speaker in speakers {
        let mut cells = Vec::new();
        let mut pauses = Vec::new();
        for (position, (i, o)) in done.iter().filter(|(i, _)| items[*i].speaker == speaker).enumerate() {
            let item = &items[*i];
            pauses.push(item.pause);
            cells.push(match (o.halves, o.continued.len()) {
                (0, 0) => "whole".to_string(),
                (0, _) => "joined".to_string(),
                (n, _) => format!("HALF ×{n}"),
            });
            // The target: from a speaker's third question on, no answer to half a sentence for pauses
            // up to 1.5 s.
            if position >= 2 && item.pause > 0 && item.pause <= 1500 {
                target_halves += o.halves;
                target_asked += 1;
            }
        }
        pauses.dedup();
        let pauses: Vec<String> = pauses.iter().map(u32::to_string).collect();
        cells.resize(most, "".into());
        println!("| {speaker} ({}) | {} |", pauses.join(", "), cells.join(" | "));
    }
    println!(
        "\nTarget (pauses up to 1.5 s, from a speaker's third question on): {target_halves} answers to half a sentence in {target_asked} questions (target: 0)."
    );
}

/// The gateway's continuation counter and patience series, as `/api/metrics` shows them.
pub(super) async fn metrics(port: u16) {
    let text = super::prometheus(port).await;
    let series: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("voice_continuations_total") || l.starts_with("voice_turn_patience"))
        .collect();
    println!("\n/api/metrics: voice_continuations_total and voice_turn_patience*:");
    if series.is_empty() {
        println!("(none: this gateway does not join what was cut off)");
    }
    for line in series {
        println!("{line}");
    }
}
