//! The loop of one WebSocket connection: it reads the client's frames and writes the events of the running
//! turn, whichever comes first. At most one turn runs; new input or an interrupt cancels it at once.
//!
//! Limits: JSON frames up to [`MAX_TEXT_FRAME`], audio frames up to [`MAX_BINARY_FRAME`], an utterance up to
//! `MAX_UTTERANCE_SECONDS`; beyond them an error event, and the connection stays open. Without frames and
//! without a running turn the connection is closed after `WS_IDLE_TIMEOUT_SECONDS`. A client that stops reading
//! blocks its own turn (the channel to it is bounded) and is dropped after [`SEND_TIMEOUT`].

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};
use futures_util::SinkExt;

use super::protocol::{ChatFrame, ClientFrame, MAX_BINARY_FRAME, MAX_TEXT_FRAME, Options, parse};
use crate::app::App;
use crate::error::ApiError;
use crate::listen::budget::{Refusal, Seat};
use crate::listen::end_of_turn::Verdict;
use crate::providers::audio::{Pcm, parse_wav};
use crate::providers::encode::{self, Format};
use crate::providers::opus::{self, LiveDecoder};
use crate::socket::{SEND_TIMEOUT, close, close_code, send};
use crate::store::users::User;
use crate::voice::events::{AudioFormat, InputFormat};
use crate::voice::heard::{LastAnswer, Spoke};
use crate::voice::{Conversation, Detection, Heard, Listener, Next, Out, ServerEvent, error_event};

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

struct Conn {
    app: Arc<App>,
    user: User,
    channel: Channel,
    /// Options of the handshake (`session_id`), under every frame's options.
    base: Options,
    conversation: Conversation,
    /// The utterance being heard on `/ws/voice` (its options are the start frame's).
    listener: Listener,
    /// The last answer's audio, for a `heard` frame.
    last: LastAnswer,
    /// The container of the running turn's audio.
    answer: AudioFormat,
    /// The microphone's Opus decoder, when the start frame asked for Opus input (boxed: its 5 KiB of state
    /// would be in every connection's task).
    mic: Option<Box<LiveDecoder>>,
    /// The place of a voice connection in the budget.
    _seat: Option<Seat>,
    /// Events the gateway pushes to the person (a reminder that is due).
    notices: crate::notify::Subscription,
    /// Pushed events held while a turn runs or the help question waits for its answer: nothing covers or
    /// talks over help, and a reminder due meanwhile is told when it ends (at most [`HELD_NOTICES`]).
    held: std::collections::VecDeque<serde_json::Value>,
    /// The receipts of the events sent here, newest last: a `shown` frame counts only for one of them.
    receipts: std::collections::VecDeque<String>,
    /// The notices told here (the model's language, web search, the voice): each once a connection, and again
    /// only when it says something else.
    told: crate::voice::phrases::Told,
}

/// How many pushed events a connection holds while busy; beyond, the oldest is told at once.
const HELD_NOTICES: usize = 16;
/// The receipts a connection keeps of the events it was sent (more than are ever waited on at once).
const RECEIPTS: usize = 16;

/// What woke the loop.
enum Step {
    Incoming(Option<Result<Message, axum::Error>>),
    Next(Next),
    Verdict(Verdict),
    Notice(serde_json::Value),
    Idle,
    Stopping,
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
    let name = if channel == Channel::Chat { "chat" } else { "voice" };
    let label = [("channel", name)];
    app.metrics.gauge_add(crate::metrics::WS_CONNECTIONS, &label, 1);
    let notices = app.notify.subscribe(&user.id);
    // The person is here: what they missed while the gateway was down is told now.
    tokio::spawn(crate::care::schedule::tell_missed(app.clone(), user.id.clone()));
    let mut conn = Conn {
        listener: Listener::new(app.clone(), user.clone(), base.clone(), DEFAULT_RATE, None),
        conversation: Conversation::new(app.clone(), user.clone(), name, channel == Channel::Voice),
        app: app.clone(),
        user,
        channel,
        base,
        last: LastAnswer::default(),
        answer: AudioFormat::Wav,
        mic: None,
        _seat: seat,
        notices,
        held: std::collections::VecDeque::new(),
        receipts: std::collections::VecDeque::new(),
        told: crate::voice::phrases::Told::default(),
    };
    let mut socket = socket;
    // A connection that fails (a panic: a bug) says so, closes as a server error and is counted; no other
    // connection notices.
    if let Err(reason) = crate::task::caught(conn.run(&mut socket)).await {
        app.lines.task_failed(&app.metrics, name, &reason);
        if reject(&mut socket, ApiError::Internal(format!("the {name} connection failed"))).await {
            let _ = close(&mut socket, 1011, "internal error").await;
        }
    }
    drop(conn);
    app.metrics.gauge_add(crate::metrics::WS_CONNECTIONS, &label, -1);
}

impl Conn {
    async fn run(&mut self, socket: &mut WebSocket) {
        let idle = Duration::from_secs(self.app.settings.voice.idle_timeout_secs);
        let mut stop = self.app.stop.hold();
        loop {
            let answering = self.conversation.answering();
            let busy = answering || self.conversation.help_pending();
            if !busy && let Some(notice) = self.held.pop_front() {
                if !Box::pin(self.on_notice(socket, notice, false)).await {
                    return;
                }
                continue;
            }
            let step = tokio::select! {
                incoming = socket.recv() => Step::Incoming(incoming),
                next = self.conversation.next() => Step::Next(next),
                verdict = self.listener.verdict() => Step::Verdict(verdict),
                Some(notice) = self.notices.next() => Step::Notice(notice),
                () = tokio::time::sleep(idle), if !answering => Step::Idle,
                () = crate::task::stopped(&mut stop) => Step::Stopping,
            };
            let keep_going = match step {
                Step::Incoming(Some(Ok(message))) => self.on_message(socket, message).await,
                Step::Incoming(Some(Err(err))) => {
                    // A frame the WebSocket layer refused: say why in the close code.
                    if let Some((code, reason)) = close_code(err) {
                        let _ = close(socket, code, reason).await;
                    }
                    false
                }
                Step::Incoming(None) => false,
                Step::Next(Next::HelpUnanswered) => {
                    let cancelled = self.conversation.alarm(self.listener.options().clone());
                    self.said_interrupted(socket, cancelled).await
                }
                Step::Next(Next::Out(Out::Event(event))) => self.on_event(socket, event).await,
                Step::Next(Next::Out(Out::Audio(wav))) => match self.answer_audio(wav).await {
                    Ok(bytes) => send(socket, Message::Binary(bytes.into())).await,
                    Err(err) => reject(socket, err).await,
                },
                Step::Next(Next::Ended) => true,
                Step::Notice(notice) if busy => {
                    self.held.push_back(notice);
                    match self.held.len() > HELD_NOTICES {
                        true => {
                            let oldest = self.held.pop_front().unwrap_or_default();
                            Box::pin(self.on_notice(socket, oldest, true)).await
                        }
                        false => true,
                    }
                }
                Step::Notice(notice) => Box::pin(self.on_notice(socket, notice, false)).await,
                Step::Verdict(verdict) => match self.listener.decide(verdict, answering) {
                    Some(heard) => self.on_heard(socket, heard).await,
                    None => true,
                },
                Step::Idle => {
                    let _ = close(socket, 1000, "idle timeout").await;
                    false
                }
                // A turn still running is cancelled: the page reconnects and asks again.
                Step::Stopping => {
                    let _ = close(socket, 1001, "the gateway stops").await;
                    false
                }
            };
            if !keep_going {
                return;
            }
        }
    }

    /// A pushed event (a reminder that is due): sent as it is; a voice connection between turns also hears its
    /// `said` (held while a turn runs or help is asked: see [`Conn::held`]). Called boxed, as rare as a frame.
    async fn on_notice(&mut self, socket: &mut WebSocket, notice: serde_json::Value, answering: bool) -> bool {
        if !send(socket, Message::Text(notice.to_string().into())).await {
            return false;
        }
        if let Some(receipt) = notice["receipt"].as_str() {
            if self.receipts.len() >= RECEIPTS {
                self.receipts.pop_front();
            }
            self.receipts.push_back(receipt.to_string());
        }
        // A reminder to confirm, now told here: a bare yes on this connection confirms it.
        if notice["type"] == "reminder"
            && notice["confirm"] == true
            && let Some(id) = notice["id"].as_str()
        {
            self.conversation.told(id);
        }
        let Some(said) = notice["said"]
            .as_str()
            .filter(|_| self.channel == Channel::Voice && !answering)
        else {
            return true;
        };
        let layer = crate::config::route::RouteLayer::default();
        let spoken = match crate::turn::speech::route_alone(&self.app, &self.user, layer).await {
            Ok((eff, prefs, route)) => crate::turn::speech::synthesize(&self.app, &eff, &prefs, &route, said).await,
            Err(err) => Err(err),
        };
        let said_audio = match spoken {
            Ok(s) => s,
            Err(err) => {
                tracing::warn!(%err, "a reminder could not be spoken");
                return true;
            }
        };
        let frame = ServerEvent::Audio {
            seq: 0,
            format: self.answer.name(),
            text: Some(said.to_string()),
            filler: false,
            provider: Some(said_audio.provider),
            tts_fallback: said_audio.language_fallback,
        };
        if !send_event(socket, frame).await {
            return false;
        }
        match self.answer_audio(said_audio.speech.audio).await {
            Ok(bytes) => send(socket, Message::Binary(bytes.into())).await,
            Err(err) => reject(socket, err).await,
        }
    }

    /// The page's buttons answered the help question: a yes alerts the contacts as a spoken yes would (when a
    /// question waits); a no calls it off, by voice and typed alike, and says so.
    async fn help_answer(&mut self, socket: &mut WebSocket, yes: bool) -> bool {
        let typed = match crate::emergency::typed::settle(&self.app, &self.user.id).await {
            Ok(open) => open.is_some(),
            Err(err) => return reject(socket, err).await,
        };
        let asked = typed || self.conversation.help_pending();
        if yes {
            if !asked {
                return true;
            }
            let cancelled = self.conversation.alarm(self.listener.options().clone());
            return self.said_interrupted(socket, cancelled).await;
        }
        self.conversation.decline_help();
        let prefs = match self.app.store.prefs(&self.user.id).await {
            Ok(prefs) => prefs,
            Err(err) => return reject(socket, err.into()).await,
        };
        let asked_in = self.listener.options().turn.language.clone();
        let language = crate::emergency::language(&self.app, &prefs, asked_in.as_deref());
        let declined = ServerEvent::Help {
            status: "declined".into(),
            message: crate::emergency::spoken::declined(&language),
        };
        send_event(socket, declined).await
    }

    /// The answer audio (WAV from the voice core) in the container the turn asked for.
    async fn answer_audio(&self, wav: Vec<u8>) -> Result<Vec<u8>, ApiError> {
        if self.answer == AudioFormat::Wav {
            return Ok(wav);
        }
        let pcm = parse_wav(&wav).map_err(|e| ApiError::Internal(format!("answer audio: {e}")))?;
        encode::speech(pcm, Format::Opus)
            .await
            .map_err(|e| ApiError::Internal(format!("answer audio as Opus: {e}")))
    }

    /// Sends one event of the running turn; a notice told here before is left out.
    async fn on_event(&mut self, socket: &mut WebSocket, mut event: ServerEvent) -> bool {
        self.track(&event);
        if let ServerEvent::Audio { format, .. } = &mut event {
            *format = self.answer.name();
        }
        if let ServerEvent::Notice { text } = &event
            && !self.told.first(text)
        {
            return true;
        }
        send_event(socket, event).await
    }

    /// Notes what the last answer spoke, for a `heard` frame.
    fn track(&mut self, event: &ServerEvent) {
        match event {
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
                // Boxed: a frame (start, a typed question, help's answer) is rare, and its handler's state is
                // most of the connection task's size, which every idle connection would otherwise hold.
                Ok(frame) => Box::pin(self.on_frame(socket, frame)).await,
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
            (_, ClientFrame::Interrupt) => {
                let cancelled = self.conversation.interrupt();
                self.said_interrupted(socket, cancelled).await
            }
            (_, ClientFrame::HelpAnswer { yes }) => self.help_answer(socket, yes).await,
            (_, ClientFrame::Heard { seq }) => {
                self.last.heard(&self.app.store, seq).await;
                true
            }
            (_, ClientFrame::Played { seq }) => {
                self.last.played(seq);
                true
            }
            (_, ClientFrame::Shown { receipt }) => {
                // Only a receipt of an event sent on this connection counts, once.
                if let Some(at) = self.receipts.iter().position(|r| *r == receipt) {
                    self.receipts.remove(at);
                    crate::bus::shown(&self.app, &self.user.id, &receipt).await;
                }
                true
            }
            (Channel::Chat, ClientFrame::Chat(ChatFrame { text, options })) => {
                let options = self.base.merged(&options);
                self.last = LastAnswer::new(options.session_id.clone());
                self.answer = options.audio_format.unwrap_or_default();
                let cancelled = self.conversation.chat(text, options);
                self.said_interrupted(socket, cancelled).await
            }
            (Channel::Voice, ClientFrame::Start(options)) => {
                let rate = options.sample_rate.unwrap_or(DEFAULT_RATE);
                if !(8_000..=48_000).contains(&rate) {
                    return reject(socket, ApiError::invalid("sample_rate", "expected 8000 to 48000")).await;
                }
                self.mic = match options.input_format.unwrap_or_default() {
                    InputFormat::Pcm => None,
                    InputFormat::Opus if !opus::RATES.contains(&rate) => {
                        let problem = "Opus input is decoded at 8000, 12000, 16000, 24000 or 48000";
                        return reject(socket, ApiError::invalid("sample_rate", problem)).await;
                    }
                    InputFormat::Opus => match LiveDecoder::new(rate) {
                        Ok(decoder) => Some(Box::new(decoder)),
                        Err(err) => return reject(socket, ApiError::Internal(err)).await,
                    },
                };
                let detection = options.vad.unwrap_or(false).then(|| Detection::standard().answered());
                let options = self.base.merged(&options);
                self.listener = Listener::new(self.app.clone(), self.user.clone(), options, rate, detection);
                self.listener.ready().await;
                true
            }
            (Channel::Voice, ClientFrame::End(options)) => {
                let options = self.listener.options().merged(&options);
                let Some(utterance) = self.listener.take_all() else {
                    let err = ApiError::BadRequest {
                        code: "empty_audio",
                        message: "no audio was received before end".into(),
                    };
                    return reject(socket, err).await;
                };
                self.last = LastAnswer::new(options.session_id.clone());
                self.answer = options.audio_format.unwrap_or_default();
                let cancelled = self.conversation.voice(utterance, options);
                self.said_interrupted(socket, cancelled).await
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

    /// Hears PCM or an Opus packet; with VAD, an utterance that ended is answered at once.
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
        let samples = match &mut self.mic {
            Some(decoder) => decoder.decode(bytes).map(<[i16]>::to_vec),
            None => Pcm::from_le_bytes(bytes, self.listener.rate())
                .map(|pcm| pcm.samples)
                .map_err(|e| e.to_string()),
        };
        let samples = match samples {
            Ok(samples) => samples,
            Err(err) => return reject(socket, ApiError::invalid("audio", err)).await,
        };
        self.listener.hold_early_answers(self.conversation.help_pending());
        for heard in self.listener.hear(&samples, self.conversation.answering()) {
            if !self.on_heard(socket, heard).await {
                return false;
            }
        }
        true
    }

    /// Acts on what the listener heard: barge-in interrupts the answer, an utterance is answered.
    async fn on_heard(&mut self, socket: &mut WebSocket, heard: Heard) -> bool {
        match heard {
            Heard::SpeechStarted { .. } | Heard::Ignored { .. } => true,
            Heard::Resumed { gap_ms } => {
                if !self.conversation.resume(gap_ms, self.last.listened()) {
                    return true;
                }
                self.listener.join();
                self.last = LastAnswer::default();
                send_event(socket, ServerEvent::Continued { gap_ms }).await
            }
            Heard::BargeIn => {
                let cancelled = self.conversation.interrupt();
                self.said_interrupted(socket, cancelled).await
            }
            Heard::Utterance(utterance) => {
                let options = self.listener.options().clone();
                self.last = LastAnswer::new(options.session_id.clone());
                self.answer = options.audio_format.unwrap_or_default();
                let cancelled = self.conversation.voice(utterance, options);
                self.said_interrupted(socket, cancelled).await
            }
            Heard::TooLong { seconds } => {
                let err = ApiError::BadRequest {
                    code: "utterance_too_long",
                    message: format!("utterance longer than {seconds} s was dropped"),
                };
                reject(socket, err).await
            }
            Heard::OverBudget => {
                // Everybody's audio together is at the budget: this connection ends rather than the process.
                static FULL: crate::logging::Repeated = crate::logging::Repeated::new();
                if let Some(left_out) = FULL.next() {
                    tracing::warn!(left_out, "audio buffer budget reached; a voice connection is closed");
                }
                let err =
                    ApiError::Overloaded("the gateway holds too much audio right now; try again in a moment".into());
                let _ = reject(socket, err).await;
                let _ = close(socket, 1008, "audio budget reached").await;
                false
            }
        }
    }

    /// Says that the running turn was cancelled (its LLM request and speech with it), when one was.
    async fn said_interrupted(&mut self, socket: &mut WebSocket, cancelled: bool) -> bool {
        !cancelled || send_event(socket, ServerEvent::Interrupted).await
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
