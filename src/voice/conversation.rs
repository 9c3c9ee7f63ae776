//! The conversation of one connection, whatever the channel: at most one turn runs, and a new one (or an
//! interrupt, or barge-in) cancels it at once, its LLM request and speech with it. The channel waits on
//! [`Conversation::next`] beside its own input and translates what comes to its wire.
//!
//! It also keeps the help question: when a turn asked "shall I alert your contacts?", the next utterance is
//! the answer, and without one within `HELP_CONFIRM_SECONDS` the alarm goes out ([`Next::HelpUnanswered`]).
//!
//! And it keeps the last question asked by voice while the person may still be in the middle of it: speech
//! that begins soon after its last word ([`Conversation::resume`]) may continue it, and then its answer
//! stops and everything it wrote (the request's count, its messages, its cost) is taken back, so that the
//! whole question is answered, counted and stored once.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;

use super::events::{Options, Out, ServerEvent};
use super::help::Help;
use super::listener::Utterance;
use super::stages::{Clock, Stage};
use super::turn;
use crate::app::App;
use crate::listen::pace::Pace;
use crate::listen::words;
use crate::store::users::User;
use crate::task::AbortOnDrop;
use crate::turn::ledger::Ledger;

/// Events a turn may have queued for a slow channel before it waits.
const QUEUE: usize = 32;

/// An answer heard longer than this was listened to: speech over it is an interruption, not the rest of the
/// question (twice as long after an unfinished phrase, which the person is likelier to go on with).
const HEARD_MS: u64 = 1000;

/// What the conversation has for the channel.
#[derive(Debug)]
pub enum Next {
    /// An event or audio of the running turn; after [`ServerEvent::Done`] no turn runs.
    Out(Out),
    /// The running turn ended without `done` (it failed to start, or its task stopped).
    Ended,
    /// The help question was not answered in time: the channel raises the alarm ([`Conversation::alarm`]).
    HelpUnanswered,
}

/// The running turn: its task (aborted when dropped) and its events.
struct Running {
    task: AbortOnDrop<()>,
    events: mpsc::Receiver<Out>,
}

/// The last question asked by voice, while speech that follows may continue it.
struct Asked {
    /// What its turn wrote.
    ledger: Ledger,
    /// When its answer's first audio (or, without audio, its text) was sent.
    first_audio: Option<Instant>,
    /// Its words and their language, once transcribed.
    words: Option<(String, String)>,
    /// The speaker's pace, which learns from it.
    pace: Pace,
}

/// One connection's turns.
pub struct Conversation {
    app: Arc<App>,
    user: User,
    running: Option<Running>,
    /// The channel, for the turns' stages (`voice`, `chat`, `realtime`).
    channel: &'static str,
    /// Calls for help by voice are listened for.
    help_by_voice: bool,
    /// Until when the help question waits for its answer.
    help_until: Option<Instant>,
    /// The words of the call for help the question waits on (what the person said), for the contacts.
    help_said: Option<String>,
    /// The question was asked because the help key was pressed (no words): its alarm says the key.
    help_by_key: bool,
    /// The running turn is the help question's answer: its time stands still until the turn says what became
    /// of it (a yes that is raising the alarm must not be overtaken by a second alarm of the timer).
    help_answering: bool,
    /// The last question asked by voice.
    asked: Option<Asked>,
    /// What care said on this connection: the reminders it told, a question it asked.
    care: crate::care::dialogue::Dialogue,
}

impl Conversation {
    /// The conversation of `user` on `channel`; with `help_by_voice`, a call for help in an utterance is asked
    /// back.
    pub fn new(app: Arc<App>, user: User, channel: &'static str, help_by_voice: bool) -> Self {
        Self {
            app,
            user,
            channel,
            running: None,
            help_by_voice,
            help_until: None,
            help_said: None,
            help_by_key: false,
            help_answering: false,
            asked: None,
            care: crate::care::dialogue::Dialogue::default(),
        }
    }

    /// The reminder `id` was shown or spoken on this connection: a bare yes here confirms it.
    pub fn told(&self, id: &str) {
        self.care.told(id);
    }

    /// Whether a turn is running.
    pub fn answering(&self) -> bool {
        self.running.is_some()
    }

    /// Whether the help question was asked and waits for its answer (a channel that ends now raises the alarm).
    pub fn help_pending(&self) -> bool {
        self.help_until.is_some()
    }

    /// Waits for the running turn's next event or the end of the help question's time; cancel-safe.
    pub async fn next(&mut self) -> Next {
        let until = self.help_until.filter(|_| !self.help_answering);
        let help_deadline = async move {
            match until {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        let events = async {
            match &mut self.running {
                Some(running) => running.events.recv().await,
                None => std::future::pending().await,
            }
        };
        let next = tokio::select! {
            out = events => out.map_or(Next::Ended, Next::Out),
            () = help_deadline => Next::HelpUnanswered,
        };
        match &next {
            Next::Out(Out::Event(ServerEvent::HelpAsked { seconds, said, .. })) => {
                // A call for help is no question to continue.
                self.asked = None;
                // A typed call for help (no time given) waits for a typed yes, and silence sends nothing: the
                // question is kept in the store, not here ([`crate::emergency::typed`]).
                self.help_until = (*seconds > 0).then(|| Instant::now() + Duration::from_secs(*seconds));
                self.help_answering = false;
                // The words that called for help (not a later "wie bitte?" that asked again).
                if self.help_said.is_none() {
                    self.help_said = said.clone();
                }
                // Words that called for help make it a spoken call, whatever key came before.
                self.help_by_key &= self.help_said.is_none();
            }
            // The unanswered question's words stay for the alarm that follows ([`Conversation::alarm`]).
            Next::Out(Out::Event(ServerEvent::Help { .. })) | Next::HelpUnanswered => {
                self.asked = None;
                self.help_until = None;
                self.help_answering = false;
                if matches!(next, Next::Out(_)) {
                    self.help_said = None;
                    self.help_by_key = false;
                }
            }
            Next::Out(Out::Event(ServerEvent::Transcript { text, language, .. })) => {
                if let Some(asked) = &mut self.asked {
                    asked.words = Some((text.clone(), language.clone()));
                }
            }
            // The answer reaches the person with its first audio, or, for a device that speaks it itself
            // (`text_only`), with its whole text.
            Next::Out(Out::Event(ServerEvent::Audio { filler: false, .. } | ServerEvent::Semantic(_))) => {
                if let Some(asked) = self.asked.as_mut().filter(|a| a.first_audio.is_none()) {
                    asked.first_audio = Some(Instant::now());
                }
            }
            // `done` ends the turn for the client, which may ask the next question at once: the turn is over
            // here too, even if its task has not quite returned, so that the question interrupts nothing.
            // A help answer's turn that ended without saying what became of it gives the question its time
            // back: when that is up, the alarm goes out.
            Next::Out(Out::Event(ServerEvent::Done)) | Next::Ended => {
                self.running = None;
                self.help_answering = false;
            }
            Next::Out(_) => {}
        }
        next
    }

    /// Answers an utterance (or, after the help question, takes it as the answer); true when a running turn
    /// was cancelled for it.
    pub fn voice(&mut self, utterance: Utterance, mut options: Options) -> bool {
        options.care = Some(self.care.clone());
        let help = match (self.help_by_voice, self.help_until.is_some()) {
            (false, _) => Help::Off,
            (true, false) => Help::Listening,
            (true, true) => Help::Asked,
        };
        self.settle();
        // Speech may continue the question for as long as the conversation's rule allows at most (half again
        // the window, after an unfinished phrase): until then its messages are not shown.
        let resume_ms = self.app.settings.voice.turn_resume_ms;
        let ledger = match &utterance.pace {
            Some(pace) if resume_ms > 0 => {
                let window = u64::from(pace.resume_window_ms(resume_ms)) * 3 / 2;
                Ledger::open_until(tokio::time::Instant::now() + Duration::from_millis(window))
            }
            _ => Ledger::default(),
        };
        self.asked = utterance.pace.map(|pace| Asked {
            ledger: ledger.clone(),
            first_audio: None,
            words: None,
            pace,
        });
        options.help_said = self.help_said.clone().filter(|_| help == Help::Asked);
        let (app, user) = (self.app.clone(), self.user.clone());
        let clock = Clock::start(app.clone(), self.channel, utterance.silence);
        clock.mark(Stage::EndOfTurn, None);
        let spoken = turn::Spoken {
            audio: utterance.audio,
            early: utterance.early,
            ledger,
        };
        let cancelled = self.begin(move |tx| turn::voice(app, user, spoken, options, help, clock, tx));
        self.help_answering = help == Help::Asked;
        cancelled
    }

    /// Answers a text; true when a running turn was cancelled for it.
    pub fn chat(&mut self, text: String, mut options: Options) -> bool {
        options.care = Some(self.care.clone());
        self.settle();
        let (app, user) = (self.app.clone(), self.user.clone());
        let channel = self.channel;
        self.begin(move |tx| turn::chat(app, user, (channel, text), options, tx))
    }

    /// A key pressed on a telephone for the help dialogue (the help key, or 1 and 2 while the question waits);
    /// true when a running turn was cancelled for it.
    pub fn key(&mut self, key: char, mut options: Options) -> bool {
        let help = if self.help_until.is_some() {
            Help::Asked
        } else {
            Help::Listening
        };
        self.settle();
        options.help_said = self.help_said.clone().filter(|_| help == Help::Asked);
        // The help key asks the question: its alarm, answered or not, says the key.
        self.help_by_key |= help == Help::Listening;
        let (app, user) = (self.app.clone(), self.user.clone());
        let cancelled = self.begin(move |tx| turn::key(app, user, key, help, options, tx));
        self.help_answering = help == Help::Asked;
        cancelled
    }

    /// How the call for help whose question waits was made: by the help key (no words), else by voice.
    pub fn help_way(&self) -> crate::emergency::Way {
        match self.help_by_key && self.help_said.is_none() {
            true => crate::emergency::Way::Key,
            false => crate::emergency::Way::Spoken,
        }
    }

    /// Raises the alarm of an unanswered call for help; true when a running turn was cancelled for it.
    pub fn alarm(&mut self, mut options: Options) -> bool {
        self.settle();
        options.help_way = self.help_way();
        options.help_said = self.help_said.take();
        self.help_by_key = false;
        let (app, user) = (self.app.clone(), self.user.clone());
        self.begin(move |tx| turn::help_unanswered(app, user, options, tx))
    }

    /// The person called the help question off (the page's button): nothing is sent when its time is up.
    pub fn decline_help(&mut self) {
        self.help_until = None;
        self.help_said = None;
        self.help_answering = false;
    }

    /// Cancels the running turn; true when one ran. Nothing more of it comes.
    pub fn interrupt(&mut self) -> bool {
        self.help_answering = false;
        self.running.take().is_some()
    }

    /// Speech began `gap_ms` after the last word of the last question ([`super::Heard::Resumed`]): true when it
    /// continues that question. Then the question's answer stops at once (nothing more of it comes) and what
    /// its turn wrote is taken back; the channel [joins](super::Listener::join) the speech to the question and
    /// tells its client to drop the answer. The rule (`docs/decisions.md`): within `TURN_RESUME_MS` of the last
    /// word (for a person of long patience, the patience and half of it: [`Pace::resume_window_ms`]), while the
    /// answer has been heard for at most [`HEARD_MS`]; half again as long a pause and twice as
    /// much answer after an unfinished phrase; never for the help question or its answer.
    ///
    /// `listened`: the channel knows that the person heard a whole sentence of the answer (a phone line's
    /// marks): an interruption, whatever the clock says.
    pub fn resume(&mut self, gap_ms: u32, listened: bool) -> bool {
        let voice = &self.app.settings.voice;
        let Some(asked) = &self.asked else {
            return false;
        };
        // The help question waits (`help_until`) until its answer's turn says what became of it, which also
        // ends what may be continued: a yes or no is never continued.
        if voice.turn_resume_ms == 0 || listened || self.help_until.is_some() {
            return false;
        }
        let unfinished = asked
            .words
            .as_ref()
            .is_some_and(|(text, language)| words::unfinished(text, language));
        // A person who pauses long (their patience) may go on after a longer pause.
        let resume_ms = asked.pace.resume_window_ms(voice.turn_resume_ms);
        let (window, heard_limit) = match unfinished {
            true => (resume_ms.saturating_mul(3) / 2, 2 * HEARD_MS),
            false => (resume_ms, HEARD_MS),
        };
        // Heard until the person began to speak again (they have spoken VAD_MIN_SPEECH_MS since).
        let speaking = Duration::from_millis(voice.vad_min_speech_ms.into());
        let heard = asked
            .first_audio
            .map_or(Duration::ZERO, |at| at.elapsed().saturating_sub(speaking));
        if gap_ms > window || heard > Duration::from_millis(heard_limit) {
            return false;
        }
        let Some(asked) = self.asked.take() else {
            return false;
        };
        tracing::debug!(
            gap_ms,
            heard_ms = heard.as_millis() as u64,
            unfinished,
            "the question goes on"
        );
        let running = self.running.take();
        let (app, user_id) = (self.app.clone(), self.user.id.clone());
        tokio::spawn(async move {
            if let Some(mut running) = running {
                // Taken back once the turn stopped, so that it writes nothing after.
                running.task.0.abort();
                let _ = (&mut running.task.0).await;
            }
            asked.ledger.take_back(&app, &user_id).await;
        });
        asked.pace.joined(gap_ms);
        let channel = [("channel", self.channel)];
        self.app
            .metrics
            .incr(crate::metrics::VOICE_CONTINUATIONS_TOTAL, &channel);
        true
    }

    /// The last question was not continued: its turn ended cleanly, a lesson for the speaker's pace.
    fn settle(&mut self) {
        if let Some(asked) = self.asked.take() {
            asked.pace.clean();
        }
    }

    fn begin<F, Fut>(&mut self, start: F) -> bool
    where
        F: FnOnce(mpsc::Sender<Out>) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let cancelled = self.interrupt();
        let (tx, events) = mpsc::channel(QUEUE);
        let (app, door, errors) = (self.app.clone(), self.channel, tx.clone());
        // A turn that fails (a panic: a bug) ends with an error event and is counted; the connection goes on.
        let task = AbortOnDrop(tokio::spawn(async move {
            let turn = async {
                app.faults.trip(door);
                start(tx).await;
            };
            if let Err(reason) = crate::task::caught(turn).await {
                app.lines.task_failed(&app.metrics, door, &reason);
                let err = crate::error::ApiError::Internal(format!("a {door} turn failed"));
                // As every failed turn: its error, then `done`.
                if errors.send(Out::Event(super::events::error_event(&err))).await.is_ok() {
                    let _ = errors.send(Out::Event(ServerEvent::Done)).await;
                }
            }
        }));
        self.running = Some(Running { task, events });
        cancelled
    }
}
