//! One telephone call on the voice core, whatever the line (Twilio, AudioSocket): the caller's 8 kHz audio goes
//! to the listener (raised to 16 kHz, so that Silero and Smart Turn hear it as on every channel), utterances to
//! the conversation, and the answer's sentences to the line as 8 kHz audio, each followed by a mark. The line
//! says which marks were played: barge-in clears what was not, and the stored answer is cut to what was heard.
//!
//! The call greets the caller in their language, says goodbye and hangs up when they do (or after
//! `PHONE_SILENCE_SECONDS` of silence), and takes calls for help by voice: asked once, a yes or no answer raises
//! the alarm, the caller hears what was done and who confirmed it, and the line stays open until they hang up.
//! A call that drops while the question waits raises the alarm.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;

use super::texts;
use crate::app::App;
use crate::lines::Outcome;
use crate::listen::end_of_turn::Verdict;
use crate::phrasebook::{Words, phrase};
use crate::providers::audio::{Pcm, parse_wav, to_mono};
use crate::providers::resample::Resampler;
use crate::store::users::User;
use crate::turn::speech;
use crate::voice::heard::{LastAnswer, Spoke};
use crate::voice::phrases::{Told, is_farewell};
use crate::voice::{Conversation, Detection, Heard, Listener, Next, Options, Out, ServerEvent};

/// The telephone's rate.
pub const RATE: u32 = 8_000;
/// The rate the listener hears at (Smart Turn's).
const HEARING_RATE: u32 = 16_000;
/// How often an alarm's confirmations are looked for while the call lasts.
const ACK_POLL: Duration = Duration::from_secs(2);
/// How long a goodbye may take to be played before the line hangs up anyway (a line that sends no marks).
const GOODBYE_GRACE: Duration = Duration::from_secs(3);

/// What the line's reader and player report.
#[derive(Debug)]
pub enum Inbound {
    /// The caller's audio, mono at the line's rate ([`Line::rate`]).
    Audio(Vec<i16>),
    /// The audio up to this mark was played to the caller.
    Played(u64),
    /// The caller pressed a key (RFC 4733, SIP INFO, AudioSocket's DTMF, Twilio's `dtmf`).
    Key(char),
    /// The caller hung up, or the line broke.
    Hangup,
}

/// The line's sending side.
pub(crate) trait Line {
    /// The rate of the line's audio both ways: the telephone's 8 kHz, or 16 kHz on a wideband line (G.722).
    fn rate(&self) -> u32 {
        RATE
    }
    /// Queues audio at the line's rate for the caller, followed by `mark` (reported by [`Inbound::Played`] once
    /// played).
    async fn play(&mut self, samples: &[i16], mark: u64) -> std::io::Result<()>;
    /// Drops the audio not yet played.
    async fn clear(&mut self) -> std::io::Result<()>;
    /// Ends the call.
    async fn hang_up(&mut self);
}

/// What a mark stands for.
#[derive(Debug, Clone, Copy)]
enum Piece {
    /// Audio `seq` of the running answer.
    Answer(u64),
    /// Words of the line itself (greeting, goodbye).
    Own,
}

/// How the call ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The caller hung up (or the line broke).
    HungUp,
    /// The gateway said goodbye and hung up.
    Goodbye,
}

/// A call in progress.
pub(crate) struct Call {
    app: Arc<App>,
    user: User,
    /// The line's name (`twilio`, `audiosocket`), for the log and the alarm.
    line: &'static str,
    language: String,
    /// The caller's name for the greeting (none for a guest).
    name: Option<String>,
    options: Options,
    listener: Listener,
    /// The line's rate.
    rate: u32,
    hearing: Resampler,
    conversation: Conversation,
    /// The running answer's audio, for the cut at barge-in.
    last: LastAnswer,
    /// The sentence of the audio frame that comes next.
    next_audio: Option<(u64, Spoke)>,
    /// Marks sent and not yet played, oldest first.
    playing: VecDeque<(u64, Piece)>,
    marks: u64,
    /// The answer audio played in full, last first.
    played: Option<u64>,
    /// The caller's last speech, or the end of the last audio played: the silence is counted from it.
    quiet_since: Instant,
    /// When the audio sent so far will have been played, at the earliest.
    played_by: Instant,
    /// The goodbye was said: the line hangs up once it was played, at the latest then.
    hanging_up: Option<Instant>,
    /// An alarm was raised in this call: its id, the confirmations told so far, and when to look again.
    alarm: Option<(String, usize, Instant)>,
    /// The notices told in this call (the model does not speak the language, no web search, another voice):
    /// each is said once, before the answer that brought it.
    told: Told,
    /// The caller chose to be addressed informally.
    informal: bool,
    /// The help question was asked in the running turn: once it is said, the keys that answer it follow.
    keys_to_tell: bool,
    /// The calling number as the line gave it (empty when withheld): the help key is told once a day to each.
    number: String,
    started: Instant,
}

/// What woke the call.
enum Step {
    Inbound(Option<Inbound>),
    Next(Next),
    Verdict(Verdict),
    Silence,
    HangUp,
    Confirmations,
}

impl Call {
    /// A call of `user` from `number` on `line` (whose turns are stored in `session_id`).
    pub(crate) async fn new(
        app: Arc<App>,
        (user, number): (User, String),
        line: &'static str,
        session_id: String,
        rate: u32,
    ) -> crate::error::Result<Self> {
        let (_, prefs, route) = speech::route_alone(&app, &user, Default::default()).await?;
        let name = (!user.is_anonymous)
            .then(|| prefs.full_name.clone().filter(|n| !n.trim().is_empty()))
            .flatten()
            .or_else(|| (!user.is_anonymous && !user.display_name.is_empty()).then(|| user.display_name.clone()));
        let options = Options {
            session_id: Some(session_id.clone()),
            audio_stream: Some(true),
            farewell_ends: Some(true),
            ..Options::default()
        };
        let detection = Some(Detection::standard().answered());
        let listener = Listener::new(app.clone(), user.clone(), options.clone(), HEARING_RATE, detection);
        listener.ready().await;
        Ok(Self {
            conversation: Conversation::new(app.clone(), user.clone(), "phone", true),
            listener,
            rate,
            hearing: Resampler::new(rate, HEARING_RATE),
            last: LastAnswer::new(Some(session_id)),
            language: route.language,
            name,
            options,
            line,
            app,
            user,
            next_audio: None,
            playing: VecDeque::new(),
            marks: 0,
            played: None,
            quiet_since: Instant::now(),
            played_by: Instant::now(),
            hanging_up: None,
            alarm: None,
            told: Told::default(),
            informal: prefs.informal(),
            keys_to_tell: false,
            number,
            started: Instant::now(),
        })
    }

    /// Runs the call until the caller hangs up or the line says goodbye; the call is counted in the user's
    /// usage, and a call for help still waiting for its answer raises the alarm.
    pub(crate) async fn run<L: Line>(mut self, inbound: &mut mpsc::Receiver<Inbound>, line: &mut L) -> Ending {
        let mut greeting = texts::greeting(&self.language, self.name.as_deref());
        // Once a day per calling number, the greeting says which key calls for help at any time.
        match self
            .app
            .store
            .tell_help_key(&self.user.id, &self.number, &crate::store::today())
            .await
        {
            Ok(true) => {
                let key = self.app.settings.phone.help_key;
                greeting = format!("{greeting} {}", texts::help_key(&self.language, self.informal, key));
            }
            Ok(false) => {}
            Err(err) => tracing::warn!(%err, "whether to tell the help key could not be read"),
        }
        let ending = match self.say(line, &greeting).await {
            Ok(()) => self.converse(inbound, line).await,
            Err(_) => Ending::HungUp,
        };
        self.finish(ending).await;
        ending
    }

    async fn converse<L: Line>(&mut self, inbound: &mut mpsc::Receiver<Inbound>, line: &mut L) -> Ending {
        let silence = Duration::from_secs(self.app.settings.phone.silence_secs);
        loop {
            let idle = !self.conversation.answering()
                && self.playing.is_empty()
                && self.hanging_up.is_none()
                && self.alarm.is_none()
                && !self.listener.hears_speech();
            let hang_up_at = self.hanging_up;
            let look_at = self.alarm.as_ref().map(|(_, _, at)| *at);
            let step = tokio::select! {
                received = inbound.recv() => Step::Inbound(received),
                next = self.conversation.next() => Step::Next(next),
                verdict = self.listener.verdict() => Step::Verdict(verdict),
                () = tokio::time::sleep_until(crate::clock::after(self.quiet_since, silence)), if idle => Step::Silence,
                () = sleep_until(hang_up_at) => Step::HangUp,
                () = sleep_until(look_at) => Step::Confirmations,
            };
            if let Step::Inbound(Some(_)) = step {
                self.app.faults.trip(self.line);
            }
            let went = match step {
                Step::Inbound(None | Some(Inbound::Hangup)) => return Ending::HungUp,
                Step::Inbound(Some(Inbound::Audio(samples))) => self.hear(line, &samples).await,
                Step::Inbound(Some(Inbound::Key(key))) => self.on_key(line, key).await,
                Step::Inbound(Some(Inbound::Played(mark))) => {
                    self.on_played(mark);
                    if self.hanging_up.is_some() && self.playing.is_empty() {
                        line.hang_up().await;
                        return Ending::Goodbye;
                    }
                    Ok(())
                }
                Step::Next(next) => self.on_next(line, next).await,
                Step::Verdict(verdict) => match self.listener.decide(verdict, self.speaking()) {
                    Some(heard) => self.on_heard(line, heard).await,
                    None => Ok(()),
                },
                Step::Silence => {
                    tracing::info!(line = self.line, "nobody spoke on the call; it ends with a goodbye");
                    let words = phrase(&self.language, "phone-silence");
                    self.goodbye(line, &words).await
                }
                Step::HangUp => {
                    line.hang_up().await;
                    return Ending::Goodbye;
                }
                Step::Confirmations => self.confirmations(line).await,
            };
            if went.is_err() {
                return Ending::HungUp;
            }
        }
    }

    /// Whether the caller is hearing something the gateway says (speech may interrupt it).
    fn speaking(&self) -> bool {
        self.conversation.answering() || !self.playing.is_empty()
    }

    /// Hears the caller's audio.
    async fn hear<L: Line>(&mut self, line: &mut L, samples: &[i16]) -> std::io::Result<()> {
        let raised = self.hearing.push(samples);
        self.listener.hold_early_answers(self.conversation.help_pending());
        for heard in self.listener.hear(&raised, self.speaking()) {
            self.on_heard(line, heard).await?;
        }
        Ok(())
    }

    /// Acts on what the listener heard: speech interrupts what is played, an utterance is answered.
    async fn on_heard<L: Line>(&mut self, line: &mut L, heard: Heard) -> std::io::Result<()> {
        match heard {
            Heard::SpeechStarted { .. } => {
                self.quiet_since = Instant::now();
                Ok(())
            }
            Heard::Ignored { .. } => Ok(()),
            // The goodbye is not interrupted.
            Heard::BargeIn if self.hanging_up.is_some() => Ok(()),
            Heard::BargeIn => self.interrupt(line).await,
            Heard::Resumed { gap_ms } => {
                if self.hanging_up.is_some() || !self.conversation.resume(gap_ms, self.last.listened()) {
                    return Ok(());
                }
                // The caller goes on with their question: what is played of the answer to its first half
                // stops, and nothing of it is kept.
                self.listener.join();
                self.last = LastAnswer::default();
                self.interrupt(line).await
            }
            Heard::Utterance(utterance) => {
                if self.hanging_up.is_some() {
                    return Ok(());
                }
                self.quiet_since = Instant::now();
                self.interrupt(line).await?;
                self.last = LastAnswer::new(self.options.session_id.clone());
                self.conversation.voice(utterance, self.options.clone());
                Ok(())
            }
            Heard::TooLong { seconds } => {
                // A flooded call repeats this every few seconds: one line a minute, with a count.
                static TOO_LONG: crate::logging::Repeated = crate::logging::Repeated::new();
                if let Some(left_out) = TOO_LONG.next() {
                    tracing::info!(seconds, left_out, "a caller's utterance was too long and was dropped");
                }
                // The caller spoke all along: they are told what happened, not that nobody spoke.
                self.quiet_since = Instant::now();
                if self.hanging_up.is_some() {
                    return Ok(());
                }
                let words = phrase(&self.language, "phone-too-long");
                self.say(line, &words).await
            }
            Heard::OverBudget => {
                static FULL: crate::logging::Repeated = crate::logging::Repeated::new();
                if let Some(left_out) = FULL.next() {
                    tracing::warn!(left_out, "audio buffer budget reached; a call ends");
                }
                let words = phrase(&self.language, "phone-sorry");
                self.goodbye(line, &words).await
            }
        }
    }

    /// A key: the help key starts the help question at once, interrupting what is said; while the question
    /// waits, 1 is yes and 2 is no. Other keys mean nothing in a call with the assistant.
    async fn on_key<L: Line>(&mut self, line: &mut L, key: char) -> std::io::Result<()> {
        use crate::emergency::dialogue::{NO_KEY, YES_KEY};
        let answers = self.conversation.help_pending() && matches!(key, YES_KEY | NO_KEY);
        if self.hanging_up.is_some() || !(key == self.app.settings.phone.help_key || answers) {
            return Ok(());
        }
        // A handset that floods key events writes a line a minute, with how many it left out.
        static KEYS: crate::logging::Repeated = crate::logging::Repeated::new();
        if let Some(left_out) = KEYS.next() {
            tracing::info!(
                line = self.line,
                answers,
                left_out,
                "a key for the help dialogue on a call"
            );
        }
        self.quiet_since = Instant::now();
        self.interrupt(line).await?;
        self.last = LastAnswer::new(self.options.session_id.clone());
        self.conversation.key(key, self.options.clone());
        Ok(())
    }

    /// Stops the running answer and what the caller has not heard yet; the stored answer keeps what they heard.
    async fn interrupt<L: Line>(&mut self, line: &mut L) -> std::io::Result<()> {
        let cancelled = self.conversation.interrupt();
        if self.playing.is_empty() && !cancelled {
            return Ok(());
        }
        if !self.playing.is_empty() {
            line.clear().await?;
            self.playing.clear();
            self.played_by = Instant::now();
        }
        self.next_audio = None;
        self.last.heard(&self.app.store, self.played).await;
        Ok(())
    }

    /// A mark came back: what it followed was played (marks of audio that was cleared are not waited for).
    fn on_played(&mut self, mark: u64) {
        let Some(at) = self.playing.iter().position(|(m, _)| *m == mark) else {
            return;
        };
        for (_, piece) in self.playing.drain(..=at) {
            if let Piece::Answer(seq) = piece {
                self.played = Some(seq);
                self.last.played(seq);
            }
        }
        if self.playing.is_empty() {
            self.quiet_since = Instant::now();
        }
    }

    /// Plays what the running turn sent.
    async fn on_next<L: Line>(&mut self, line: &mut L, next: Next) -> std::io::Result<()> {
        match next {
            Next::HelpUnanswered => {
                self.interrupt(line).await?;
                self.last = LastAnswer::new(self.options.session_id.clone());
                self.conversation.alarm(self.options.clone());
                Ok(())
            }
            Next::Ended => Ok(()),
            Next::Out(Out::Audio(wav)) => {
                let Some((seq, spoke)) = self.next_audio.take() else {
                    return Ok(());
                };
                let answer = !matches!(spoke, Spoke::Other);
                self.last.audio(seq, spoke);
                let piece = if answer { Piece::Answer(seq) } else { Piece::Own };
                self.play(line, &wav, piece).await
            }
            Next::Out(Out::Event(event)) => self.on_event(line, event).await,
        }
    }

    async fn on_event<L: Line>(&mut self, line: &mut L, event: ServerEvent) -> std::io::Result<()> {
        match event {
            ServerEvent::Notice { text } => self.tell(line, &text).await,
            ServerEvent::Audio { seq, text, filler, .. } => {
                let spoke = match text {
                    _ if filler => Spoke::Other,
                    Some(sentence) => Spoke::Sentence(sentence),
                    None => Spoke::Whole,
                };
                self.next_audio = Some((seq, spoke));
                Ok(())
            }
            ServerEvent::Transcript { text, .. } if is_farewell(&text, &self.language) => {
                self.conversation.interrupt();
                let words = phrase(&self.language, "phone-goodbye");
                self.goodbye(line, &words).await
            }
            ServerEvent::Semantic(semantic) => {
                self.last.answered(&semantic.text);
                Ok(())
            }
            ServerEvent::HelpAsked { .. } => {
                self.keys_to_tell = true;
                Ok(())
            }
            // The question was said: the keys that answer it follow.
            ServerEvent::Done if self.keys_to_tell => {
                self.keys_to_tell = false;
                let words = texts::help_keys(&self.language, self.informal);
                self.say(line, &words).await
            }
            ServerEvent::Help { status, .. } => {
                self.keys_to_tell = false;
                tracing::warn!(line = self.line, user = %self.user.name, status, "help on a call");
                // The confirmations of the newest alarm are told from now on (a declined call for help, or
                // one inside the cooldown, raised none: the earlier alarm's are not told twice).
                if status != "declined"
                    && let Ok(Some(alarm)) = self.app.store.latest_alarm(&self.user.id).await
                {
                    let told = self.app.store.acknowledged_by(&alarm.id).await.map_or(0, |a| a.len());
                    self.alarm = Some((alarm.id, told, crate::clock::from_now(ACK_POLL)));
                }
                Ok(())
            }
            ServerEvent::Error { code, message, .. } => {
                tracing::info!(code, %message, "a turn of a call failed");
                let words = phrase(&self.language, "phone-sorry");
                self.say(line, &words).await
            }
            _ => Ok(()),
        }
    }

    /// Says a notice the browser would show, once in the call.
    async fn tell<L: Line>(&mut self, line: &mut L, notice: &str) -> std::io::Result<()> {
        if !self.told.first(notice) {
            return Ok(());
        }
        self.say(line, notice).await
    }

    /// Tells the caller who confirmed the alarm since last time.
    async fn confirmations<L: Line>(&mut self, line: &mut L) -> std::io::Result<()> {
        let Some((id, told, look_at)) = &mut self.alarm else {
            return Ok(());
        };
        *look_at = crate::clock::from_now(ACK_POLL);
        let (id, told) = (id.clone(), *told);
        let confirmed = match self.app.store.acknowledged_by(&id).await {
            Ok(confirmed) => confirmed,
            Err(err) => {
                tracing::error!(%err, "reading an alarm's confirmations failed");
                return Ok(());
            }
        };
        if confirmed.len() <= told {
            return Ok(());
        }
        let who: Vec<&str> = confirmed[told..].iter().map(|a| a.contact.as_str()).collect();
        if let Some((_, told, _)) = &mut self.alarm {
            *told = confirmed.len();
        }
        let words = Words::formal(&self.language).with("help-seen-by", &[("who", who.join(", ").into())]);
        self.say(line, &words).await
    }

    /// Says `words` and hangs up once they were played.
    async fn goodbye<L: Line>(&mut self, line: &mut L, words: &str) -> std::io::Result<()> {
        self.interrupt(line).await?;
        self.say(line, words).await?;
        self.hanging_up = Some(crate::clock::after(self.played_by.max(Instant::now()), GOODBYE_GRACE));
        Ok(())
    }

    /// Says `words` in the caller's language and voice.
    async fn say<L: Line>(&mut self, line: &mut L, words: &str) -> std::io::Result<()> {
        let said = async {
            let (eff, prefs, route) = speech::route_alone(&self.app, &self.user, Default::default()).await?;
            speech::synthesize(&self.app, &eff, &prefs, &route, words).await
        }
        .await;
        match said {
            Ok(said) => self.play(line, &said.speech.audio, Piece::Own).await,
            Err(err) => {
                tracing::error!(%err, "the phone line could not speak");
                Ok(())
            }
        }
    }

    /// Sends WAV audio to the line at its rate, with a mark after it.
    async fn play<L: Line>(&mut self, line: &mut L, wav: &[u8], piece: Piece) -> std::io::Result<()> {
        let pcm = match parse_wav(wav) {
            Ok(pcm) => to_mono(pcm),
            Err(err) => {
                tracing::error!(%err, "answer audio that is not WAV was not played");
                return Ok(());
            }
        };
        let samples = at_rate(pcm, self.rate);
        let length = Duration::from_secs_f64(samples.len() as f64 / f64::from(self.rate));
        self.played_by = crate::clock::after(self.played_by.max(Instant::now()), length);
        self.marks += 1;
        line.play(&samples, self.marks).await?;
        self.playing.push_back((self.marks, piece));
        Ok(())
    }

    /// After the call: a call for help without its answer raises the alarm; the call is counted.
    async fn finish(&mut self, ending: Ending) {
        let seconds = self.started.elapsed().as_secs();
        tracing::info!(line = self.line, seconds, ?ending, "a call ended");
        if self.conversation.help_pending() {
            tracing::warn!(user = %self.user.name, "the call dropped while asking whether to alert the contacts; alerting them");
            let (app, user, line, language) = (self.app.clone(), self.user.clone(), self.line, self.language.clone());
            // How it was asked for (the help key, or by voice) is what the contacts are told.
            let way = self.conversation.help_way();
            // The call is gone; the alarm is not.
            tokio::spawn(async move {
                let platform = format!("phone ({line})");
                if let Err(err) = crate::voice::help::raise(&app, &user, (&platform, way), &language).await {
                    tracing::error!(%err, "the alarm of a dropped call failed");
                }
            });
        }
        let minutes = seconds.div_ceil(60).max(1);
        let cost = minutes as f64 * self.app.settings.phone.cost_per_minute;
        if let Err(err) = self.app.store.add_call(&self.user.id, seconds as i64, cost).await {
            tracing::error!(%err, "counting a call failed");
        }
    }
}

/// Says that the call cannot be taken now, and hangs up.
pub(crate) async fn apologize<L: Line>(app: &App, line: &mut L, inbound: &mut mpsc::Receiver<Inbound>) {
    let language = app.settings.turn.default_language.clone();
    say_and_hang_up(app, line, inbound, &phrase(&language, "phone-sorry")).await;
}

/// Tells a caller whose number is not known that the line is not for them, and hangs up.
pub(crate) async fn refuse<L: Line>(app: &App, line: &mut L, inbound: &mut mpsc::Receiver<Inbound>) -> Outcome {
    let language = app.settings.turn.default_language.clone();
    say_and_hang_up(app, line, inbound, &phrase(&language, "phone-refusal")).await;
    Outcome::Refused("unknown_caller")
}

/// Says `words` in the gateway's default voice and hangs up once they were played (or the caller did).
async fn say_and_hang_up<L: Line>(app: &App, line: &mut L, inbound: &mut mpsc::Receiver<Inbound>, words: &str) {
    let said = async {
        let (eff, prefs, route) = speech::route_default(app).await?;
        speech::synthesize(app, &eff, &prefs, &route, words).await
    }
    .await;
    let samples = match said.map(|said| parse_wav(&said.speech.audio)) {
        Ok(Ok(pcm)) => at_rate(to_mono(pcm), line.rate()),
        Ok(Err(err)) => return tracing::error!(%err, "the phone line's words are not WAV"),
        Err(err) => return tracing::error!(%err, "the phone line could not speak"),
    };
    let length = Duration::from_secs_f64(samples.len() as f64 / f64::from(line.rate()));
    if line.play(&samples, 1).await.is_ok() {
        let played = async {
            while let Some(inbound) = inbound.recv().await {
                if matches!(inbound, Inbound::Played(_) | Inbound::Hangup) {
                    return;
                }
            }
        };
        let _ = tokio::time::timeout(length + GOODBYE_GRACE, played).await;
    }
    line.hang_up().await;
}

/// Audio at the line's rate.
pub(crate) fn at_rate(pcm: Pcm, rate: u32) -> Vec<i16> {
    if pcm.sample_rate == rate {
        pcm.samples
    } else {
        pcm.resampled(rate).samples
    }
}

/// Sleeps until `at`, or forever without one.
async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
