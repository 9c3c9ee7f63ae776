//! The conversation of one connection, whatever the channel: at most one turn runs, and a new one (or an
//! interrupt, or barge-in) cancels it at once, its LLM request and speech with it. The channel waits on
//! [`Conversation::next`] beside its own input and translates what comes to its wire.
//!
//! It also keeps the help question: when a turn asked "shall I alert your contacts?", the next utterance is
//! the answer, and without one within `HELP_CONFIRM_SECONDS` the alarm goes out ([`Next::HelpUnanswered`]).

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;

use super::events::{Options, Out, ServerEvent};
use super::help::Help;
use super::listener::Utterance;
use super::stages::{Clock, Stage};
use super::turn;
use crate::AbortOnDrop;
use crate::app::App;
use crate::store::users::User;

/// Events a turn may have queued for a slow channel before it waits.
const QUEUE: usize = 32;

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
    _task: AbortOnDrop<()>,
    events: mpsc::Receiver<Out>,
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
        }
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
        let until = self.help_until;
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
            Next::Out(Out::Event(ServerEvent::HelpAsked { seconds, .. })) => {
                self.help_until = Some(Instant::now() + Duration::from_secs(*seconds));
            }
            Next::Out(Out::Event(ServerEvent::Help { .. })) | Next::HelpUnanswered => self.help_until = None,
            // `done` ends the turn for the client, which may ask the next question at once: the turn is over
            // here too, even if its task has not quite returned, so that the question interrupts nothing.
            Next::Out(Out::Event(ServerEvent::Done)) | Next::Ended => self.running = None,
            Next::Out(_) => {}
        }
        next
    }

    /// Answers an utterance (or, after the help question, takes it as the answer); true when a running turn
    /// was cancelled for it.
    pub fn voice(&mut self, utterance: Utterance, options: Options) -> bool {
        let help = match (self.help_by_voice, self.help_until.is_some()) {
            (false, _) => Help::Off,
            (true, false) => Help::Listening,
            (true, true) => Help::Asked,
        };
        let (app, user) = (self.app.clone(), self.user.clone());
        let clock = Clock::start(app.clone(), self.channel, utterance.silence);
        clock.mark(Stage::EndOfTurn, None);
        let spoken = turn::Spoken {
            audio: utterance.audio,
            early: utterance.early,
        };
        self.begin(move |tx| turn::voice(app, user, spoken, options, help, clock, tx))
    }

    /// Answers a text; true when a running turn was cancelled for it.
    pub fn chat(&mut self, text: String, options: Options) -> bool {
        let (app, user) = (self.app.clone(), self.user.clone());
        self.begin(move |tx| turn::chat(app, user, text, options, tx))
    }

    /// Raises the alarm of an unanswered call for help; true when a running turn was cancelled for it.
    pub fn alarm(&mut self, options: Options) -> bool {
        let (app, user) = (self.app.clone(), self.user.clone());
        self.begin(move |tx| turn::help_unanswered(app, user, options, tx))
    }

    /// Cancels the running turn; true when one ran. Nothing more of it comes.
    pub fn interrupt(&mut self) -> bool {
        self.running.take().is_some()
    }

    fn begin<F, Fut>(&mut self, start: F) -> bool
    where
        F: FnOnce(mpsc::Sender<Out>) -> Fut,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let cancelled = self.interrupt();
        let (tx, events) = mpsc::channel(QUEUE);
        let task = AbortOnDrop(tokio::spawn(start(tx)));
        self.running = Some(Running { _task: task, events });
        cancelled
    }
}
