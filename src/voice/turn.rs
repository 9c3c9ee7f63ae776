//! One turn of the voice core: the gateway's turn events become the core's events (ack, token*, semantic, audio, done, plus
//! transcript, filler, notice and error), and with `audio_stream` every finished sentence is spoken at once by
//! a speaker task, in order, while the LLM writes on. Dropping the turn's task (an interrupt) drops the LLM
//! request and the speaker with it.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;
use tracing::Instrument;

use super::events::{Options, Out, ServerEvent, Tx, error_event};
use super::help::{self, Help};
use super::phrases;
use super::stages::{Clock, Stage};
use crate::app::App;
use crate::config::languages;
use crate::config::route::{Route, RouteLayer};
use crate::config::runtime::Effective;
use crate::emergency::hearing;
use crate::error::{ApiError, Result};
use crate::prefs::Prefs;
use crate::providers::ProviderId;
use crate::providers::audio::Pcm;
use crate::providers::llm::ChatMessage;
use crate::providers::stt::Transcript;
use crate::store::sessions::Session;
use crate::store::users::User;
use crate::task::AbortOnDrop;
use crate::turn::ledger::Ledger;
use crate::turn::prefetch::Prefetch;
use crate::turn::semantic::Semantic;
use crate::turn::translate::translate;
use crate::turn::{self, TurnEvent, TurnOutcome, TurnRequest, owned, quota, route_for, speech};

/// Stops when the receiver is gone.
struct Gone;

async fn send(tx: &Tx, out: Out) -> Result<(), Gone> {
    tx.send(out).await.map_err(|_| Gone)
}

/// The session named by the options: 404 when unknown, 403 when another user's.
async fn session_of(app: &App, user: &User, options: &Options) -> Result<Option<Session>> {
    match &options.session_id {
        Some(id) => Ok(Some(owned(app, user, id).await?)),
        None => Ok(None),
    }
}

/// Runs a text turn and sends its events; errors become an `error` event.
pub async fn chat(app: Arc<App>, user: User, (channel, text): (&'static str, String), options: Options, tx: Tx) {
    let result = async {
        let session = session_of(&app, &user, &options).await?;
        let request = TurnRequest {
            text,
            session,
            layer: options.turn.layer()?,
            text_only: options.text_only.unwrap_or(false),
            precharged: false,
            context: instructions(&options),
            typed: Some(channel),
            care: options.care.clone(),
            ..TurnRequest::default()
        };
        drive(&app, &user, request, &options, None, &tx).await
    }
    .await;
    fail(result, &tx).await;
}

/// A transcription started while the utterance was spoken ([`super::recognition`]), with the answer started
/// on it when one was; the turn uses them instead of transcribing and asking again. Dropping it cancels both.
#[derive(Debug)]
pub struct EarlyTranscript(JoinHandle<Result<(Transcript, Option<Prefetch>)>>);

impl EarlyTranscript {
    pub(super) fn new(task: JoinHandle<Result<(Transcript, Option<Prefetch>)>>) -> Self {
        Self(task)
    }

    /// Its transcript and early answer; none when it failed or was cut short (the caller transcribes the whole
    /// utterance then).
    pub async fn result(mut self) -> Option<(Transcript, Option<Prefetch>)> {
        match (&mut self.0).await {
            Ok(Ok(heard)) => Some(heard),
            Ok(Err(err)) => {
                tracing::warn!(%err, "transcribing the whole utterance instead");
                None
            }
            Err(_) => None,
        }
    }
}

impl Drop for EarlyTranscript {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// What was said: its audio, and its transcription if one started while it was spoken.
pub struct Spoken {
    pub audio: Pcm,
    pub early: Option<EarlyTranscript>,
    /// Notes what the turn writes, to take back if the person goes on with the question.
    pub ledger: Ledger,
}

/// What a voice turn resolves before it listens: session, request layer, settings, prefs and route.
pub(super) struct VoiceContext {
    session: Option<Session>,
    layer: RouteLayer,
    pub(super) eff: Effective,
    prefs: Prefs,
    pub(super) route: Route,
}

impl VoiceContext {
    pub(super) async fn of(app: &App, user: &User, options: &Options) -> Result<Self> {
        let session = session_of(app, user, options).await?;
        let layer = options.turn.layer()?;
        let eff = app.runtime.effective().await?;
        let prefs = app.store.prefs(&user.id).await?;
        let probe = TurnRequest {
            session: session.clone(),
            layer: layer.clone(),
            ..TurnRequest::default()
        };
        let route = route_for(app, &eff, &prefs, &probe);
        Ok(Self {
            session,
            layer,
            eff,
            prefs,
            route,
        })
    }

    /// The model's turn for `text`, asked with `options`.
    fn question(&self, text: String, options: &Options) -> TurnRequest {
        TurnRequest {
            text,
            session: self.session.clone(),
            layer: self.layer.clone(),
            text_only: options.text_only.unwrap_or(false),
            context: instructions(options),
            spoken: true,
            care: options.care.clone(),
            ..TurnRequest::default()
        }
    }

    /// The language `heard` was spoken in when it is not the turn's (and the recogniser may say so): the
    /// words are translated before the model hears them.
    fn foreign(&self, heard: &Transcript) -> Option<String> {
        let forced = crate::turn::speech::forced_language(&self.eff, &self.route).is_some();
        heard
            .language
            .clone()
            .filter(|l| !forced && languages().contains(&l.as_str()) && *l != self.route.language)
    }

    /// Starts the answer to what was heard up to a pause, before the turn is known to end there; none for
    /// what is not a plain question (nothing heard, words to translate first, a call for help, a reminder the
    /// gateway sets itself, a farewell that ends the call).
    pub(super) fn answer_early(
        &self,
        app: &Arc<App>,
        user: &User,
        options: &Options,
        heard: &Transcript,
    ) -> Option<Prefetch> {
        let language = &self.route.language;
        let farewell = options.farewell_ends == Some(true) && phrases::is_farewell(&heard.text, language);
        let plain = !heard.text.trim().is_empty()
            && self.foreign(heard).is_none()
            && !hearing::hear(&heard.text, &heard.words, language).asks()
            && crate::care::spoken::read(&heard.text, language).is_none()
            && !options
                .care
                .as_ref()
                .is_some_and(crate::care::dialogue::Dialogue::asking)
            && !farewell;
        plain.then(|| Prefetch::start(app.clone(), user.clone(), self.question(heard.text.clone(), options)))
    }
}

/// Runs a voice turn: transcribe (or take the early transcript), translate when needed, send the transcript,
/// then answer (counted against the quota) or, for a call for help, ask or alert (never counted). `clock`
/// measures its stages.
pub async fn voice(app: Arc<App>, user: User, spoken: Spoken, options: Options, help: Help, clock: Arc<Clock>, tx: Tx) {
    let span = tracing::info_span!(target: crate::traces::TARGET, "voice_turn", channel = clock.channel());
    let result = async {
        crate::traces::end_of_turn(clock.since_speech());
        let cx = VoiceContext::of(&app, &user, &options).await?;
        let Spoken { audio, early, ledger } = spoken;
        let (heard, prefetch) = transcribed(&app, &cx, &audio, early).await?;
        clock.mark(Stage::Transcription, Some(cx.route.stt.name()));
        if heard.text.is_empty() {
            nothing_heard(&cx.route, &tx).await;
            return Ok(());
        }
        let Some((text, words)) = transcript(&app, &cx, &heard, &tx).await? else {
            return Ok(());
        };
        // The answer starts while the second hearing runs, and is dropped if it finds a call for help.
        let prefetch = prefetch.or_else(|| {
            let again = help == Help::Listening && hearing::worth_hearing_again(&text, words, &cx.route.language);
            again.then(|| cx.answer_early(&app, &user, &options, &heard)).flatten()
        });
        let asked = (help, options.help_said.as_deref());
        if for_help(&app, &user, &cx, (&text, words, &audio), asked, &tx).await? {
            return Ok(());
        }
        if options.farewell_ends == Some(true) && phrases::is_farewell(&text, &cx.route.language) {
            // The channel says goodbye itself: a farewell is no question, and not counted.
            let _ = send(&tx, Out::Event(ServerEvent::Done)).await;
            return Ok(());
        }
        // Counted once it is a question for the model: a call for help never is.
        quota::charge_request(&app, &user.id, &cx.prefs, &cx.eff).await?;
        ledger.counted();
        let request = TurnRequest {
            precharged: true,
            prefetch,
            ledger: Some(ledger),
            ..cx.question(text, &options)
        };
        drive(&app, &user, request, &options, Some(clock), &tx).await
    }
    .instrument(span)
    .await;
    fail(result, &tx).await;
}

/// The utterance transcribed, or the transcript (and the answer) started while it was spoken.
async fn transcribed(
    app: &Arc<App>,
    cx: &VoiceContext,
    audio: &Pcm,
    early: Option<EarlyTranscript>,
) -> Result<(Transcript, Option<Prefetch>)> {
    let route = &cx.route;
    let audio_ms = audio.samples.len() as u64 * 1000 / u64::from(audio.sample_rate.max(1));
    let transcription = tracing::info_span!(target: crate::traces::TARGET, "transcription",
        provider = route.stt.as_str(), audio_ms, early = early.is_some());
    async {
        let early = match early {
            Some(early) => early.result().await,
            None => None,
        };
        Ok(match early {
            Some(early) => early,
            None => (speech::transcribe(app, &cx.eff, route, audio).await?.0, None),
        })
    }
    .instrument(transcription)
    .await
}

/// Nothing was heard: the person is asked to speak again, and the turn ends.
async fn nothing_heard(route: &Route, tx: &Tx) {
    let message = crate::phrasebook::phrase(&route.language, "turn-speak-again");
    let frame = ServerEvent::Error {
        status: 422,
        code: "no_speech",
        error: "no speech recognized",
        message,
    };
    if send(tx, Out::Event(frame)).await.is_ok() {
        let _ = send(tx, Out::Event(ServerEvent::Done)).await;
    }
}

/// The words of the turn, translated when spoken in another language, sent as the transcript, with the
/// recogniser's words and how sure it was of them (none for a translation); none when the connection is gone.
async fn transcript<'h>(
    app: &Arc<App>,
    cx: &VoiceContext,
    heard: &'h Transcript,
    tx: &Tx,
) -> Result<Option<(String, &'h [(String, f32)])>> {
    let route = &cx.route;
    let foreign = cx.foreign(heard);
    let (text, original, translated_to) = match &foreign {
        Some(spoken) => {
            let translated = translate(app, &cx.eff, route, &heard.text, spoken).await?;
            (translated, Some(heard.text.clone()), Some(route.language.clone()))
        }
        None => (heard.text.clone(), None, None),
    };
    let words: &[(String, f32)] = if translated_to.is_none() { &heard.words } else { &[] };
    let transcript = ServerEvent::Transcript {
        text: text.clone(),
        language: foreign.unwrap_or_else(|| route.language.clone()),
        original,
        translated_to,
    };
    Ok(send(tx, Out::Event(transcript)).await.is_ok().then_some((text, words)))
}

/// Whether the help dialogue took the utterance: a call for help (heard once more when the recogniser was
/// unsure), the answer to its question, or a no to the daily check-in's "Ist alles in Ordnung?".
async fn for_help(
    app: &Arc<App>,
    user: &User,
    cx: &VoiceContext,
    (text, words, audio): (&str, &[(String, f32)], &Pcm),
    (help, asked): (Help, Option<&str>),
    tx: &Tx,
) -> Result<bool> {
    let voice = (&cx.eff, &cx.prefs, &cx.route);
    let again = match help {
        Help::Listening => help::hear_again(app, &cx.route, audio, (text, words)).await,
        _ => None,
    };
    let said = again
        .as_ref()
        .map_or((text, words), |t| (t.text.as_str(), t.words.as_slice()));
    if help::heard(app, user, said, voice, (help, asked), tx).await? {
        return Ok(true);
    }
    Ok(help == Help::Listening
        && crate::care::spoken::fine(text, &cx.route.language) == Some(false)
        && crate::care::checkin::asking(app, &user.id).await
        && help::not_fine(app, user, voice, tx).await?)
}

/// A call for help was not answered in time: the alarm goes out (see [`help`]).
pub async fn help_unanswered(app: Arc<App>, user: User, options: Options, tx: Tx) {
    tracing::warn!(user = %user.name, "a call for help was not answered; alerting the contacts");
    let result = async {
        let cx = VoiceContext::of(&app, &user, &options).await?;
        let said = options.help_said.as_deref();
        help::alarm(
            &app,
            &user,
            (&cx.eff, &cx.prefs, &cx.route),
            (options.help_way, said),
            &tx,
        )
        .await
    }
    .await;
    fail(result, &tx).await;
}

/// A key pressed on a telephone, for the help dialogue where the conversation stands at `help` (see
/// [`help::keyed`]).
pub async fn key(app: Arc<App>, user: User, key: char, help: Help, options: Options, tx: Tx) {
    let result = async {
        let cx = VoiceContext::of(&app, &user, &options).await?;
        let asked = (help, options.help_said.as_deref());
        help::keyed(&app, &user, key, (&cx.eff, &cx.prefs, &cx.route), asked, &tx).await
    }
    .await;
    fail(result, &tx).await;
}

/// The client's system text, as the turn's context.
fn instructions(options: &Options) -> Vec<ChatMessage> {
    options
        .instructions
        .iter()
        .filter(|text| !text.trim().is_empty())
        .map(|text| ChatMessage::new("system", text.as_str()))
        .collect()
}

/// Ends a failed turn as every turn ends: its error event, then `done`, so a client waits for one event.
async fn fail(result: Result<()>, tx: &Tx) {
    if let Err(err) = result
        && !tx.is_closed()
        && send(tx, Out::Event(error_event(&err))).await.is_ok()
    {
        let _ = send(tx, Out::Event(ServerEvent::Done)).await;
    }
}

/// Runs the turn, turning its events into frames as they come; a voice turn's `clock` hears of its first
/// token, sentence and audio.
async fn drive(
    app: &Arc<App>,
    user: &User,
    mut request: TurnRequest,
    options: &Options,
    clock: Option<Arc<Clock>>,
    tx: &Tx,
) -> Result<()> {
    let stream = options.stream.unwrap_or(false);
    let server_speech = !request.text_only;
    let sentence_audio = server_speech && options.audio_stream.unwrap_or(app.settings.turn.audio_stream_default);
    request.audio_stream = sentence_audio;
    let session_id = request.session.as_ref().map(|s| s.id.clone());
    let (events_tx, mut events) = mpsc::unbounded_channel();
    let turn = turn::run(app, user, request, Some(events_tx));
    tokio::pin!(turn);

    let filler_after = app.settings.voice.filler_after_ms;
    let filler_at = Instant::now() + Duration::from_millis(filler_after);
    let mut state = Flow {
        tx,
        stream,
        speaker: None,
        server_speech,
        sentence_audio,
        route: None,
        first_token: false,
        filler_sent: filler_after == 0,
        clock,
    };
    let outcome = loop {
        let waiting_for_filler = !state.first_token && !state.filler_sent && state.route.is_some();
        tokio::select! {
            biased;
            Some(ev) = events.recv() => state.on_event(app, user, ev, &session_id).await?,
            result = &mut turn => break result,
            () = tokio::time::sleep_until(filler_at), if waiting_for_filler => state.filler(app, user).await?,
        }
    };
    while let Ok(ev) = events.try_recv() {
        state.on_event(app, user, ev, &session_id).await?;
    }
    let outcome = outcome?;
    finish(app, state, &outcome).await
}

/// The per-turn state of the frame writer.
struct Flow<'a> {
    tx: &'a Tx,
    stream: bool,
    speaker: Option<Speaker>,
    /// The server speaks the answer (not `text_only`).
    server_speech: bool,
    /// ... sentence by sentence (`audio_stream`), else as one piece after `semantic`.
    sentence_audio: bool,
    route: Option<Route>,
    first_token: bool,
    filler_sent: bool,
    clock: Option<Arc<Clock>>,
}

impl Flow<'_> {
    async fn on_event(
        &mut self,
        app: &Arc<App>,
        user: &User,
        ev: TurnEvent,
        session_id: &Option<String>,
    ) -> Result<()> {
        let out = match ev {
            TurnEvent::Accepted(route) => {
                if self.sentence_audio {
                    self.speaker = Some(Speaker::start(
                        app.clone(),
                        user.clone(),
                        route.clone(),
                        self.clock.clone(),
                        self.tx.clone(),
                    ));
                }
                let ack = ServerEvent::Ack {
                    session_id: session_id.clone(),
                    language: route.language.clone(),
                };
                self.route = Some(route);
                Some(ack)
            }
            TurnEvent::Token(text) => {
                self.first_token = true;
                if let Some(clock) = &self.clock {
                    clock.mark(Stage::FirstToken, self.route.as_ref().map(|r| r.llm.name()));
                }
                self.stream.then_some(ServerEvent::Token { text })
            }
            TurnEvent::Sentence(sentence) => {
                if let Some(clock) = &self.clock {
                    clock.mark(Stage::FirstSentence, None);
                }
                if let Some(speaker) = self.speaker.as_ref().filter(|_| self.sentence_audio) {
                    speaker.say(sentence, false);
                }
                None
            }
            TurnEvent::Notice(text) => Some(ServerEvent::Notice { text }),
            TurnEvent::Help(said) if said.status == "asked" => Some(ServerEvent::HelpAsked {
                text: said.text,
                seconds: 0,
                said: None,
            }),
            TurnEvent::Help(said) => Some(ServerEvent::Help {
                status: said.status,
                message: said.text,
            }),
        };
        match out {
            Some(frame) => send(self.tx, Out::Event(frame)).await.map_err(|_| cancelled()),
            None => Ok(()),
        }
    }

    /// The first token is late: say something reassuring (spoken too, as sentence zero, with server speech;
    /// without `audio_stream` a speaker is started for it alone, and the whole answer follows as sentence one).
    async fn filler(&mut self, app: &Arc<App>, user: &User) -> Result<()> {
        self.filler_sent = true;
        let language = self.route.as_ref().map_or("en", |r| r.language.as_str());
        let phrase = crate::phrasebook::phrase(language, "turn-filler");
        if self.speaker.is_none()
            && self.server_speech
            && let Some(route) = &self.route
        {
            self.speaker = Some(Speaker::start(
                app.clone(),
                user.clone(),
                route.clone(),
                None,
                self.tx.clone(),
            ));
        }
        if let Some(speaker) = &self.speaker {
            speaker.say(phrase.to_string(), true);
        }
        let filler = ServerEvent::Filler {
            text: phrase.to_string(),
        };
        send(self.tx, Out::Event(filler)).await.map_err(|_| cancelled())
    }
}

/// The connection is gone: stop quietly (no error event can be delivered anyway).
fn cancelled() -> ApiError {
    ApiError::Internal("connection closed during the turn".into())
}

/// semantic, the audio (sentence-wise: wait for the speaker; else the whole answer), done.
async fn finish(app: &App, flow: Flow<'_>, outcome: &TurnOutcome) -> Result<()> {
    let (tx, clock) = (flow.tx, flow.clock.clone());
    let tts_fallback = if flow.sentence_audio {
        speech::language_fallback(app, &outcome.route)
    } else {
        outcome.tts_fallback
    };
    let semantic = ServerEvent::Semantic(Box::new(Semantic::of(outcome, tts_fallback)));
    send(tx, Out::Event(semantic)).await.map_err(|_| cancelled())?;
    let spoken = match flow.speaker {
        Some(speaker) => speaker.finish().await,
        None => 0,
    };
    if !flow.sentence_audio
        && let Some(speech) = &outcome.audio
    {
        let frame = ServerEvent::Audio {
            seq: spoken,
            format: speech.format,
            text: None,
            filler: false,
            provider: outcome.tts_provider,
            tts_fallback: outcome.tts_fallback,
        };
        send(tx, Out::Event(frame)).await.map_err(|_| cancelled())?;
        send(tx, Out::Audio(speech.audio.clone()))
            .await
            .map_err(|_| cancelled())?;
        if let Some(clock) = clock {
            clock.mark(Stage::FirstAudio, outcome.tts_provider.map(|p| p.name()));
        }
    }
    send(tx, Out::Event(ServerEvent::Done)).await.map_err(|_| cancelled())
}

/// Speaks sentences one after another as they are handed over; each `audio` event (with its `seq`) is followed
/// by its binary frame. Synthesis of the next sentence overlaps the sending of the previous one; the order
/// never changes because one task does both in turn.
struct Speaker {
    queue: mpsc::UnboundedSender<(String, bool)>,
    task: AbortOnDrop<u64>,
}

impl Speaker {
    /// A speaker of the route's voice; `clock` hears of the first answer audio sent (a filler's is not).
    fn start(app: Arc<App>, user: User, route: Route, clock: Option<Arc<Clock>>, tx: Tx) -> Self {
        let (queue, mut sentences) = mpsc::unbounded_channel::<(String, bool)>();
        // Its speech belongs to the turn's trace.
        let turn = tracing::Span::current();
        let task = tokio::spawn(
            async move {
                let (Ok(eff), Ok(prefs)) = (app.runtime.effective().await, app.store.prefs(&user.id).await) else {
                    return 0;
                };
                let mut seq = 0u64;
                while let Some((sentence, filler)) = sentences.recv().await {
                    match speech::synthesize(&app, &eff, &prefs, &route, &sentence).await {
                        Ok(said) => {
                            let frame = ServerEvent::Audio {
                                seq,
                                format: said.speech.format,
                                text: Some(sentence),
                                filler,
                                provider: Some(said.provider),
                                tts_fallback: said.language_fallback,
                            };
                            seq += 1;
                            if send(&tx, Out::Event(frame)).await.is_err()
                                || send(&tx, Out::Audio(said.speech.audio)).await.is_err()
                            {
                                return seq;
                            }
                            if let Some(clock) = clock.as_ref().filter(|_| !filler) {
                                clock.mark(Stage::FirstAudio, Some(said.provider.name()));
                            }
                        }
                        Err(err) => {
                            // The text still arrives; the user is told once that speech failed.
                            let _ = send(&tx, Out::Event(error_event(&err))).await;
                            return seq;
                        }
                    }
                }
                seq
            }
            .instrument(turn),
        );
        Self {
            queue,
            task: AbortOnDrop(task),
        }
    }

    fn say(&self, sentence: String, filler: bool) {
        let _ = self.queue.send((sentence, filler));
    }

    /// Waits until every handed-over sentence was spoken and sent; the `seq` of the next audio.
    async fn finish(self) -> u64 {
        let Self { queue, mut task } = self;
        drop(queue);
        (&mut task.0).await.unwrap_or(0)
    }
}
