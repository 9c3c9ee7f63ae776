//! The loop of one WebSocket connection: it reads the client's frames and writes the events of the running
//! turn, whichever comes first. At most one turn runs; new input or an interrupt cancels it at once.
//!
//! Limits: JSON frames up to [`MAX_TEXT_FRAME`], audio frames up to [`MAX_BINARY_FRAME`], an utterance up to
//! `MAX_UTTERANCE_SECONDS`; beyond them an error event, and the connection stays open. Without frames and
//! without a running turn the connection is closed after `WS_IDLE_TIMEOUT_SECONDS`. A client that stops reading
//! blocks its own turn (the channel to it is bounded) and is dropped after [`SEND_TIMEOUT`].

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::SinkExt;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::heard::{LastAnswer, Spoke};
use super::help::Help;
use super::protocol::{
    ChatFrame, ClientFrame, MAX_BINARY_FRAME, MAX_TEXT_FRAME, Options, ServerEvent, error_event, parse,
};
use super::turn::{self, EarlyTranscript, Out};
use crate::app::App;
use crate::error::ApiError;
use crate::listen::budget::{AudioBuffer, Refusal, Seat};
use crate::listen::end_of_turn::{TurnCheck, Verdict};
use crate::listen::smart_turn::SmartTurn;
use crate::listen::vad::{Vad, VadConfig, VadEvent};
use crate::providers::audio::Pcm;
use crate::store::users::User;

/// A client that does not take a frame within this time is disconnected.
pub(crate) const SEND_TIMEOUT: Duration = Duration::from_secs(30);
/// Frames a turn may have queued for a client before it waits.
const QUEUE: usize = 32;
/// Sample rate of `/ws/voice` PCM unless the start frame says otherwise.
const DEFAULT_RATE: u32 = 16_000;

/// Which channel a connection serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    /// `/ws/chat`.
    Chat,
    /// `/ws/voice`.
    Voice,
}

/// The running turn: its task and the frames it sends.
struct Running {
    task: JoinHandle<()>,
    frames: mpsc::Receiver<Out>,
}

/// The utterance being recorded on `/ws/voice`.
struct Recording {
    options: Options,
    rate: u32,
    samples: AudioBuffer,
    vad: Option<Vad>,
    /// A transcription started when the silence began; dropped when the person speaks on.
    early: Option<EarlyTranscript>,
    /// Smart Turn's check of the current pause; dropped when the person speaks on.
    check: Option<TurnCheck>,
    /// The model that decides the end of turns, when it runs and knows the rate (16 kHz only).
    turn_model: Option<Arc<SmartTurn>>,
}

impl Recording {
    /// A recording without voice detection (the start frame adds it).
    fn new(app: &App, options: Options, rate: u32) -> Self {
        Self {
            options,
            rate,
            samples: AudioBuffer::new(app.voice_budget.clone()),
            vad: None,
            early: None,
            check: None,
            turn_model: app.smart_turn.as_ref().ok().filter(|_| rate == 16_000).cloned(),
        }
    }
}

struct Conn {
    app: Arc<App>,
    user: User,
    channel: Channel,
    /// Options of the handshake (`session_id`), under every frame's options.
    base: Options,
    running: Option<Running>,
    recording: Recording,
    /// Until when a call for help waits for its answer (`/ws/voice`); then the alarm goes out.
    help_until: Option<Instant>,
    /// The last answer's audio, for a `heard` frame.
    last: LastAnswer,
    /// The place of a voice connection in the budget.
    _seat: Option<Seat>,
}

/// What woke the loop.
enum Step {
    Incoming(Option<Result<Message, axum::Error>>),
    Frame(Option<Out>),
    Verdict(Verdict),
    /// A call for help was not answered in time.
    HelpUnanswered,
    Idle,
}

/// Waits until the help question's time is up; forever when none was asked.
async fn help_deadline(until: Option<Instant>) {
    match until {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// Serves one connection until the client leaves, idles out, or stops reading.
pub async fn serve(socket: WebSocket, app: Arc<App>, user: User, channel: Channel, session_id: Option<String>) {
    let base = Options {
        session_id,
        ..Options::default()
    };
    let seat = match channel {
        Channel::Voice => match app.voice_budget.seat(&user.id) {
            Ok(seat) => Some(seat),
            Err(refusal) => return refuse(socket, refusal).await,
        },
        Channel::Chat => None,
    };
    let label = [("channel", if channel == Channel::Chat { "chat" } else { "voice" })];
    app.metrics.gauge_add(crate::metrics::WS_CONNECTIONS, &label, 1);
    let metrics_app = app.clone();
    let mut conn = Conn {
        recording: Recording::new(&app, base.clone(), DEFAULT_RATE),
        app,
        user,
        channel,
        base,
        running: None,
        help_until: None,
        last: LastAnswer::default(),
        _seat: seat,
    };
    conn.run(socket).await;
    if let Some(running) = conn.running.take() {
        running.task.abort();
    }
    metrics_app
        .metrics
        .gauge_add(crate::metrics::WS_CONNECTIONS, &label, -1);
}

async fn next_frame(running: &mut Option<Running>) -> Option<Out> {
    match running {
        Some(r) => r.frames.recv().await,
        None => std::future::pending().await,
    }
}

impl Conn {
    async fn run(&mut self, mut socket: WebSocket) {
        let idle = Duration::from_secs(self.app.settings.voice.idle_timeout_secs);
        loop {
            let step = tokio::select! {
                incoming = socket.recv() => Step::Incoming(incoming),
                frame = next_frame(&mut self.running) => Step::Frame(frame),
                verdict = TurnCheck::decided(&mut self.recording.check) => Step::Verdict(verdict),
                () = help_deadline(self.help_until) => Step::HelpUnanswered,
                () = tokio::time::sleep(idle), if self.running.is_none() => Step::Idle,
            };
            let keep_going = match step {
                Step::Incoming(Some(Ok(message))) => self.on_message(&mut socket, message).await,
                Step::Incoming(Some(Err(err))) => {
                    // A frame the WebSocket layer refused: say why in the close code.
                    if let Some((code, reason)) = close_code(err) {
                        let _ = close(&mut socket, code, reason).await;
                    }
                    false
                }
                Step::Incoming(None) => false,
                Step::HelpUnanswered => {
                    self.help_until = None;
                    let (app, user, options) = (self.app.clone(), self.user.clone(), self.recording.options.clone());
                    self.begin(&mut socket, move |tx| turn::help_unanswered(app, user, options, tx))
                        .await
                }
                Step::Frame(Some(Out::Event(event))) => {
                    match &event {
                        ServerEvent::HelpAsked { seconds, .. } => {
                            self.help_until = Some(Instant::now() + Duration::from_secs(*seconds));
                        }
                        ServerEvent::Help { .. } => self.help_until = None,
                        ServerEvent::Audio { seq, text, filler, .. } => {
                            let spoke = match text {
                                _ if *filler => Spoke::Other,
                                Some(sentence) => Spoke::Sentence(sentence.clone()),
                                None => Spoke::Whole,
                            };
                            self.last.audio(*seq, spoke);
                        }
                        ServerEvent::Semantic(semantic) => self.last.answered(&semantic.text),
                        _ => {}
                    }
                    // `done` ends the turn for the client, which may ask the next question at once: the turn
                    // is over here too, even if its task has not quite returned, so that question interrupts
                    // nothing.
                    if matches!(event, ServerEvent::Done) {
                        self.running = None;
                    }
                    send_event(&mut socket, event).await
                }
                Step::Frame(Some(Out::Audio(bytes))) => send(&mut socket, Message::Binary(bytes.into())).await,
                Step::Frame(None) => {
                    self.running = None;
                    true
                }
                Step::Verdict(Verdict::Complete) => match self.recording.vad.as_mut().map(Vad::finish) {
                    Some(end) => self.end_utterance(&mut socket, end).await,
                    None => true,
                },
                Step::Verdict(_) => true,
                Step::Idle => {
                    let _ = close(&mut socket, 1000, "idle timeout").await;
                    false
                }
            };
            if !keep_going {
                return;
            }
        }
    }

    /// Handles one client frame; false ends the connection.
    async fn on_message(&mut self, socket: &mut WebSocket, message: Message) -> bool {
        match message {
            Message::Text(text) if text.len() > MAX_TEXT_FRAME => {
                reject(
                    socket,
                    ApiError::Validation(format!("frame longer than {MAX_TEXT_FRAME} bytes")),
                )
                .await
            }
            Message::Text(text) => match parse(&text) {
                Ok(frame) => self.on_frame(socket, frame).await,
                Err(err) => reject(socket, err).await,
            },
            Message::Binary(bytes) => self.on_audio(socket, &bytes).await,
            Message::Close(_) => {
                // The close reply is queued by the WebSocket layer; it leaves with this flush.
                let _ = tokio::time::timeout(SEND_TIMEOUT, socket.flush()).await;
                false
            }
            Message::Ping(_) | Message::Pong(_) => true,
        }
    }

    async fn on_frame(&mut self, socket: &mut WebSocket, frame: ClientFrame) -> bool {
        match (self.channel, frame) {
            (_, ClientFrame::Interrupt) => self.interrupt(socket).await,
            (_, ClientFrame::Heard { seq }) => {
                self.last.heard(&self.app.store, seq).await;
                true
            }
            (Channel::Chat, ClientFrame::Chat(ChatFrame { text, options })) => {
                let options = self.base.merged(&options);
                self.last = LastAnswer::new(options.session_id.clone());
                let (app, user) = (self.app.clone(), self.user.clone());
                self.begin(socket, move |tx| turn::chat(app, user, text, options, tx))
                    .await
            }
            (Channel::Voice, ClientFrame::Start(options)) => {
                let rate = options.sample_rate.unwrap_or(DEFAULT_RATE);
                if !(8_000..=48_000).contains(&rate) {
                    return reject(socket, ApiError::invalid("sample_rate", "expected 8000 to 48000")).await;
                }
                let mut recording = Recording::new(&self.app, self.base.merged(&options), rate);
                let ws = &self.app.settings.voice;
                let mut config: VadConfig = ws.into();
                if recording.turn_model.is_some() {
                    // The model ends complete turns early; the detector's silence is the longest pause.
                    config.silence_ms = ws.turn_max_silence_ms;
                }
                recording.vad = options.vad.unwrap_or(false).then(|| match &self.app.silero {
                    Ok(model) => Vad::neural(config, rate, model),
                    Err(_) => Vad::new(config, rate),
                });
                self.recording = recording;
                true
            }
            (Channel::Voice, ClientFrame::End(options)) => {
                if self.recording.samples.is_empty() {
                    let err = ApiError::BadRequest {
                        code: "empty_audio",
                        message: "no audio was received before end".into(),
                    };
                    return reject(socket, err).await;
                }
                let options = self.recording.options.merged(&options);
                let samples = self.recording.samples.take_all();
                if let Some(vad) = &mut self.recording.vad {
                    vad.reset();
                }
                self.recording.early = None;
                self.recording.check = None;
                self.answer_utterance(socket, samples, options, None).await
            }
            (_, other) => {
                let what = match other {
                    ClientFrame::Chat(_) => "a chat message (use /ws/chat)",
                    _ => "start/end (use /ws/voice)",
                };
                reject(
                    socket,
                    ApiError::Validation(format!("this channel does not take {what}")),
                )
                .await
            }
        }
    }

    /// Buffers PCM; with VAD, an utterance that ended is answered at once.
    async fn on_audio(&mut self, socket: &mut WebSocket, bytes: &[u8]) -> bool {
        if self.channel != Channel::Voice {
            return reject(socket, ApiError::Validation("this channel takes no audio".into())).await;
        }
        if bytes.len() > MAX_BINARY_FRAME {
            return reject(
                socket,
                ApiError::Validation(format!("audio frame longer than {MAX_BINARY_FRAME} bytes")),
            )
            .await;
        }
        let pcm = match Pcm::from_le_bytes(bytes, self.recording.rate) {
            Ok(pcm) => pcm,
            Err(err) => return reject(socket, ApiError::invalid("audio", err)).await,
        };
        let rec = &mut self.recording;
        let limit = self.app.settings.voice.max_utterance_secs as usize * rec.rate as usize;
        if rec.samples.samples().len() + pcm.samples.len() > limit {
            rec.samples.clear();
            if let Some(vad) = &mut rec.vad {
                vad.reset();
            }
            let message = format!("utterance longer than {} s was dropped", limit / rec.rate as usize);
            return reject(socket, ApiError::Validation(message)).await;
        }
        if !rec.samples.extend(&pcm.samples) {
            // Everybody's audio together is at the budget: this connection ends rather than the process.
            tracing::warn!("audio buffer budget reached; a voice connection is closed");
            let err = ApiError::Overloaded("the gateway holds too much audio right now; try again in a moment".into());
            let _ = reject(socket, err).await;
            let _ = close(socket, 1008, "audio budget reached").await;
            return false;
        }
        let Some(vad) = &mut rec.vad else {
            return true;
        };
        let ws = &self.app.settings.voice;
        let (barge_in_ms, early_ms, check_ms) = (ws.barge_in_min_speech_ms, ws.stt_early_ms, ws.turn_check_ms);
        let fixed_silence_ms = ws.vad_silence_ms;
        let answering = self.running.is_some();
        match vad.update(rec.samples.samples()) {
            VadEvent::Listening => {
                let (silence, heard) = (vad.silence_ms(), vad.analysed());
                if silence == 0 {
                    // The person speaks on: a transcription or a check started at a pause would miss the rest.
                    rec.early = None;
                    rec.check = None;
                } else if vad.has_enough_speech() {
                    if early_ms > 0 && rec.early.is_none() && silence >= early_ms {
                        // The silence began: transcribe now, while waiting to know whether the turn is over.
                        let audio = Pcm {
                            sample_rate: rec.rate,
                            samples: rec.samples.samples()[..heard].to_vec(),
                            channels: 1,
                        };
                        let (app, user) = (self.app.clone(), self.user.clone());
                        rec.early = Some(turn::transcribe_early(app, user, audio, rec.options.clone()));
                    }
                    if let Some(model) = rec
                        .turn_model
                        .as_ref()
                        .filter(|_| rec.check.is_none() && silence >= check_ms)
                    {
                        let samples = rec.samples.samples()[..heard].to_vec();
                        let threshold = ws.turn_complete_probability;
                        rec.check = Some(TurnCheck::start(model.clone(), samples, threshold));
                    }
                    let failed = rec.check.as_ref().and_then(TurnCheck::verdict) == Some(Verdict::Unknown);
                    if failed && silence >= fixed_silence_ms {
                        let end = vad.finish();
                        return self.end_utterance(socket, end).await;
                    }
                }
                // Barge-in: enough speech during an answer stops it at once; the speech goes on being recorded
                // and becomes the next question when it ends.
                if answering && barge_in_ms > 0 && vad.speech_ms() >= barge_in_ms {
                    return self.interrupt(socket).await;
                }
                true
            }
            VadEvent::DropSilence(n) => {
                rec.samples.drop_front(n);
                true
            }
            VadEvent::Utterance(n) => self.end_utterance(socket, n).await,
        }
    }

    /// The utterance in the first `n` samples ended: it becomes the next question, unless it was a short sound
    /// (a cough, an "mhm") while an answer is spoken, which is neither an interruption nor a question.
    async fn end_utterance(&mut self, socket: &mut WebSocket, n: usize) -> bool {
        let rec = &mut self.recording;
        rec.check = None;
        let barge_in_ms = self.app.settings.voice.barge_in_min_speech_ms;
        let speech_ms = rec.vad.as_ref().map_or(u32::MAX, Vad::last_speech_ms);
        if self.running.is_some() && barge_in_ms > 0 && speech_ms < barge_in_ms {
            rec.samples.drop_front(n);
            rec.early = None;
            return true;
        }
        let utterance: Vec<i16> = rec.samples.take_front(n);
        let options = rec.options.clone();
        let early = rec.early.take();
        self.answer_utterance(socket, utterance, options, early).await
    }

    async fn answer_utterance(
        &mut self,
        socket: &mut WebSocket,
        samples: Vec<i16>,
        options: Options,
        early: Option<EarlyTranscript>,
    ) -> bool {
        let audio = Pcm {
            sample_rate: self.recording.rate,
            samples,
            channels: 1,
        };
        self.last = LastAnswer::new(options.session_id.clone());
        let (app, user) = (self.app.clone(), self.user.clone());
        let help = if self.help_until.is_some() {
            Help::Asked
        } else {
            Help::Listening
        };
        self.begin(socket, move |tx| {
            turn::voice(app, user, audio, options, early, help, tx)
        })
        .await
    }

    /// Starts a turn, cancelling the running one first.
    async fn begin<F, Fut>(&mut self, socket: &mut WebSocket, start: F) -> bool
    where
        F: FnOnce(mpsc::Sender<Out>) -> Fut,
        Fut: std::future::Future<Output = ()> + Send + 'static,
    {
        if !self.interrupt(socket).await {
            return false;
        }
        let (tx, frames) = mpsc::channel(QUEUE);
        let task = tokio::spawn(start(tx));
        self.running = Some(Running { task, frames });
        true
    }

    /// Cancels the running turn (its LLM request and speech with it) and says so; nothing else of it is sent.
    async fn interrupt(&mut self, socket: &mut WebSocket) -> bool {
        match self.running.take() {
            Some(running) => {
                running.task.abort();
                drop(running.frames);
                send_event(socket, ServerEvent::Interrupted).await
            }
            None => true,
        }
    }
}

/// Refuses a voice connection over its limits: an error event, then close 1008 (policy).
async fn refuse(mut socket: WebSocket, refusal: Refusal) {
    let err = match refusal {
        Refusal::User => ApiError::TooManyRequests("too many voice connections of this user are open".into()),
        Refusal::Everybody => ApiError::Overloaded("too many voice connections are open; try again in a moment".into()),
    };
    if reject(&mut socket, err).await {
        let _ = close(&mut socket, 1008, "too many voice connections").await;
    }
}

/// The close code for a frame the WebSocket layer refused: 1009 for one above [`super::PROTOCOL_MESSAGE_LIMIT`],
/// 1002 for a protocol error, 1007 for text that is not UTF-8; none when the connection is simply gone.
pub(crate) fn close_code(err: axum::Error) -> Option<(u16, &'static str)> {
    use tungstenite::Error;
    let inner = err.into_inner();
    match inner.downcast_ref::<Error>()? {
        Error::Capacity(_) => Some((1009, "message too big")),
        Error::Protocol(_) => Some((1002, "protocol error")),
        Error::Utf8(_) => Some((1007, "text is not UTF-8")),
        _ => None,
    }
}

/// Sends a close frame with a code and reason.
pub(crate) async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) -> bool {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    send(socket, Message::Close(Some(frame))).await
}

/// Sends an error event for a bad frame; the connection stays open.
async fn reject(socket: &mut WebSocket, err: ApiError) -> bool {
    send_event(socket, error_event(&err)).await
}

async fn send_event(socket: &mut WebSocket, event: ServerEvent) -> bool {
    match serde_json::to_string(&event) {
        Ok(text) => send(socket, Message::Text(text.into())).await,
        Err(err) => {
            tracing::error!(%err, "an event could not be written");
            true
        }
    }
}

/// Sends a frame; false when the client is gone or too slow.
pub(crate) async fn send(socket: &mut WebSocket, message: Message) -> bool {
    matches!(
        tokio::time::timeout(SEND_TIMEOUT, socket.send(message)).await,
        Ok(Ok(()))
    )
}
