//! The listener and the connections: each connection is a task that reads events and answers them, one
//! request at a time. Connections count in the one budget of every door ([`crate::connections`]: at most
//! `MAX_VOICE_CONNECTIONS`, a quarter of them per address; one more is closed at once); a connection idle for `WS_IDLE_TIMEOUT_SECONDS`, a peer that takes nothing sent for
//! `WRITE_TIMEOUT_SECONDS`, a malformed frame, a wrong length or audio past the buffer budget closes that
//! connection only, and so does a refused speech request, after its `error` event. On shutdown the listener
//! closes, idle connections close, and running requests have [`crate::task::SHUTDOWN_GRACE`] to finish.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;

use super::codec::{Event, Limits, read_event, write_event};
use super::events::Sent;
use super::hear::Hearing;
use super::help::Questions;
use super::speak::{Failed, Streaming};
use super::{handle, info, speak};
use crate::app::App;
use crate::connections::Door;
use crate::deadline::Deadline;
use crate::error::{ApiError, Result};
use crate::listen::budget::{Held, VoiceBudget};
use crate::listen::end_of_turn::Verdict;
use crate::logging::Repeated;
use crate::store::users::User;
use crate::task::AbortOnDrop;
use crate::voice::Utterance;

/// Serves Wyoming on `listener` until `stop` turns true (or its sender is gone).
pub async fn run(listener: TcpListener, app: Arc<App>, mut stop: watch::Receiver<bool>) {
    let bound = listener.local_addr();
    if let Ok(addr) = bound {
        tracing::info!(address = %addr, "Wyoming server listening");
    }
    // Withdrawn when the server stops.
    let _announced = bound
        .ok()
        .and_then(|addr| super::mdns::announce(&app.settings.wyoming, addr));
    if let Err(err) = user(&app).await {
        tracing::warn!(error = %err, "WYOMING_USER: Wyoming requests will be refused");
    }
    let questions = Arc::new(Questions::default());
    let mut connections = JoinSet::new();
    // The connections' copy of the signal (the loop's own is borrowed while it waits).
    let stopped = stop.clone();
    loop {
        tokio::select! {
            () = crate::task::stopped(&mut stop) => break,
            accepted = listener.accept() => {
                let (stream, peer) = match accepted {
                    Ok(accepted) => accepted,
                    Err(err) => {
                        // Out of file descriptors, most likely: wait rather than spin.
                        static FAILED: Repeated = Repeated::new();
                        if let Some(left_out) = FAILED.next() {
                            tracing::warn!(error = %err, left_out, "Wyoming accept failed");
                        }
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                };
                let Some(permit) = app.connections.admit(Door::Wyoming, peer.ip(), &app.metrics) else {
                    continue;
                };
                let (app, stop, questions) = (app.clone(), stopped.clone(), questions.clone());
                connections.spawn(async move {
                    let _permit = permit;
                    let served = crate::task::caught(connection(app.clone(), stream, peer, stop, questions));
                    if let Err(reason) = served.await {
                        app.lines.task_failed(&app.metrics, "wyoming", &reason);
                    }
                });
            }
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);
    let finished = async { while connections.join_next().await.is_some() {} };
    if tokio::time::timeout(crate::task::SHUTDOWN_GRACE, finished)
        .await
        .is_err()
    {
        tracing::warn!("Wyoming requests still running at the end of the shutdown grace; dropped");
    }
}

/// The request in progress on a connection.
enum Request {
    /// None: the next event starts one.
    Idle,
    /// `transcribe`: audio until `audio-stop`.
    Hearing(Box<Hearing>),
    /// `synthesize-start`: text until `synthesize-stop`.
    Streaming(Box<Streaming>),
}

/// What woke a connection.
enum Step {
    /// An event, and its payload's place in the audio budget (given back once it was answered).
    Event(Event, Option<Held>),
    /// Smart Turn's verdict on the pause of the utterance being heard.
    Verdict(Verdict),
}

/// Serves one connection until the peer closes it, it idles, sends a broken frame, or the gateway stops.
async fn connection(
    app: Arc<App>,
    stream: TcpStream,
    peer: SocketAddr,
    mut stop: watch::Receiver<bool>,
    questions: Arc<Questions>,
) {
    let (reader, writer) = stream.into_split();
    // A peer that stops reading is dropped, and with it what waited to be sent.
    let mut writer = Deadline::new(writer, Duration::from_secs(app.settings.limits.write_timeout_secs));
    // Reading a frame is not cancel-safe, and the loop also waits for Smart Turn: the frames come from a task.
    // One frame waits at most, its payload held in the audio budget until it was answered.
    let (frames, mut events) = mpsc::channel(1);
    let budget = app.voice_budget.clone();
    let _reader = AbortOnDrop(tokio::spawn(read_frames(BufReader::new(reader), frames, peer, budget)));
    let idle = Duration::from_secs(app.settings.voice.idle_timeout_secs);
    let mut request = Request::Idle;
    loop {
        let step = tokio::select! {
            event = tokio::time::timeout(idle, events.recv()) => match event {
                Ok(Some((event, held))) => Step::Event(event, held),
                Ok(None) => return,
                Err(_) => {
                    tracing::debug!(%peer, "an idle Wyoming connection is closed");
                    return;
                }
            },
            verdict = verdict(&mut request) => Step::Verdict(verdict),
            () = crate::task::stopped(&mut stop) => return,
        };
        let flow = match step {
            Step::Event(event, _held) => {
                tracing::debug!(%peer, kind = event.kind, "Wyoming event");
                answer(&app, &questions, &mut request, event, &mut writer).await
            }
            Step::Verdict(verdict) => match &mut request {
                Request::Hearing(hearing) => match hearing.decide(verdict) {
                    Some(utterance) => transcribe(&app, hearing, utterance, &mut writer).await,
                    None => Ok(Flow::Open),
                },
                _ => Ok(Flow::Open),
            },
        };
        match flow {
            Ok(Flow::Open) => {}
            Ok(Flow::Close) => return,
            Err(err) => {
                tracing::debug!(%peer, error = %err, "a Wyoming connection failed");
                return;
            }
        }
    }
}

/// Reads the peer's frames until it closes, sends a broken one, or its payloads would pass the audio budget.
async fn read_frames<R: AsyncRead + Unpin>(
    mut reader: BufReader<R>,
    frames: mpsc::Sender<(Event, Option<Held>)>,
    peer: SocketAddr,
    budget: Arc<VoiceBudget>,
) {
    loop {
        match read_event(&mut reader, Limits::default()).await {
            Ok(Some(event)) => {
                let held = match event.payload.len() {
                    0 => None,
                    n => match budget.hold(n) {
                        Some(held) => Some(held),
                        None => {
                            static FULL: Repeated = Repeated::new();
                            if let Some(left_out) = FULL.next() {
                                tracing::warn!(%peer, left_out, "audio buffer budget reached; a Wyoming connection is closed");
                            }
                            return;
                        }
                    },
                };
                if frames.send((event, held)).await.is_err() {
                    return;
                }
            }
            Ok(None) => return,
            Err(err) => {
                static BROKEN: Repeated = Repeated::new();
                if let Some(left_out) = BROKEN.next() {
                    tracing::warn!(%peer, error = %err, left_out, "a broken Wyoming frame; the connection is closed");
                }
                return;
            }
        }
    }
}

/// Waits for Smart Turn's verdict while an utterance is heard; never otherwise.
async fn verdict(request: &mut Request) -> Verdict {
    match request {
        Request::Hearing(hearing) => hearing.verdict().await,
        _ => std::future::pending().await,
    }
}

/// Sends the `transcript` of an utterance (or refuses the request).
async fn transcribe<W: AsyncWrite + Unpin>(
    app: &App,
    hearing: &mut Hearing,
    utterance: Utterance,
    w: &mut W,
) -> std::io::Result<Flow> {
    match hearing.transcript(app, utterance).await {
        Ok(transcript) => {
            write_event(w, &transcript).await?;
            Ok(Flow::Open)
        }
        Err(err) => refuse(w, &err).await,
    }
}

/// The Wyoming user: `WYOMING_USER` by name, else the anonymous user.
async fn user(app: &App) -> Result<User> {
    match &app.settings.wyoming.user {
        Some(name) => app
            .store
            .user_by_name(name)
            .await?
            .ok_or(ApiError::NotFound("WYOMING_USER's user")),
        None => Ok(app.store.ensure_anonymous().await?),
    }
}

/// What becomes of a connection after an event.
#[derive(Debug, PartialEq, Eq)]
enum Flow {
    /// It waits for the next event.
    Open,
    /// It closes: a refused speech request. Home Assistant's speech clients read until `transcript` or
    /// `audio-stop` and pass over `error`, so only the end of the connection ends their wait.
    Close,
}

/// Sends the `error` event of a refused request; the connection closes after it.
async fn refuse<W: AsyncWrite + Unpin>(w: &mut W, err: &ApiError) -> std::io::Result<Flow> {
    let (_, code) = err.status_and_code();
    if let ApiError::Internal(cause) = err {
        tracing::error!(%cause, "internal error in a Wyoming request");
    }
    tracing::info!(code, error = %err, "a Wyoming request was refused");
    let error = Sent::Error {
        text: err.to_string(),
        code,
    };
    write_event(w, &error.into()).await?;
    Ok(Flow::Close)
}

/// Sends the outcome of a speech request: nothing more when it succeeded, an `error` event when it was refused.
async fn finish<W: AsyncWrite + Unpin>(w: &mut W, outcome: Result<(), Failed>) -> std::io::Result<Flow> {
    match outcome {
        Ok(()) => Ok(Flow::Open),
        Err(Failed::Refused(err)) => refuse(w, &err).await,
        Err(Failed::Io(err)) => Err(err),
    }
}

/// Answers one event; an error is the connection's (writing failed).
async fn answer<W: AsyncWrite + Unpin>(
    app: &Arc<App>,
    questions: &Arc<Questions>,
    request: &mut Request,
    event: Event,
    w: &mut W,
) -> std::io::Result<Flow> {
    match event.kind.as_str() {
        "ping" => {
            let pong = Sent::Pong {
                text: event.data.get("text"),
            };
            write_event(w, &pong.into()).await?;
            Ok(Flow::Open)
        }
        "describe" => match app.runtime.effective().await {
            Ok(eff) => {
                write_event(w, &Sent::Info(Box::new(info::info(app, &eff))).into()).await?;
                Ok(Flow::Open)
            }
            Err(err) => refuse(w, &err.into()).await,
        },
        "transcribe" | "audio-start" | "audio-chunk" | "audio-stop" => on_hearing(app, request, &event, w).await,
        "synthesize" | "synthesize-start" | "synthesize-chunk" | "synthesize-stop" => {
            on_speaking(app, request, &event, w).await
        }
        // `not-handled` ends the conversation client's wait: the connection stays open.
        "transcript" => {
            let answered = match user(app).await {
                Ok(user) => handle::handle(app, &user, &event.data, questions).await,
                Err(err) => Event::from(Sent::NotHandled {
                    text: err.to_string(),
                    context: None,
                }),
            };
            write_event(w, &answered).await?;
            Ok(Flow::Open)
        }
        kind => {
            tracing::debug!(kind, "an unknown or unexpected Wyoming event is ignored");
            Ok(Flow::Open)
        }
    }
}

/// The events of a speech-to-text request: `transcribe`, then audio; a `transcript` once the utterance ends.
async fn on_hearing<W: AsyncWrite + Unpin>(
    app: &Arc<App>,
    request: &mut Request,
    event: &Event,
    w: &mut W,
) -> std::io::Result<Flow> {
    match (event.kind.as_str(), request) {
        ("transcribe", request) => match user(app).await {
            Ok(user) => {
                *request = Request::Hearing(Box::new(Hearing::new(app, user, &event.data)));
                Ok(Flow::Open)
            }
            Err(err) => refuse(w, &err).await,
        },
        ("audio-stop", request) => {
            let Request::Hearing(mut hearing) = std::mem::replace(request, Request::Idle) else {
                return Ok(Flow::Open);
            };
            match hearing.stop() {
                Ok(Some(utterance)) => transcribe(app, &mut hearing, utterance, w).await,
                Ok(None) => Ok(Flow::Open),
                Err(err) => refuse(w, &err).await,
            }
        }
        (_, request) => {
            // Audio without `transcribe` is heard too (the language is the user's), as other servers do.
            if matches!(request, Request::Idle) && event.kind == "audio-start" {
                match user(app).await {
                    Ok(user) => *request = Request::Hearing(Box::new(Hearing::new(app, user, &Default::default()))),
                    Err(err) => return refuse(w, &err).await,
                }
            }
            let Request::Hearing(hearing) = request else {
                return Ok(Flow::Open);
            };
            match hearing.audio(event) {
                Ok(Some(utterance)) => transcribe(app, hearing, utterance, w).await,
                Ok(None) => Ok(Flow::Open),
                Err(err) => refuse(w, &err).await,
            }
        }
    }
}

/// The events of a text-to-speech request, whole (`synthesize`) or streamed (`synthesize-start`, chunks,
/// `synthesize-stop`).
async fn on_speaking<W: AsyncWrite + Unpin>(
    app: &Arc<App>,
    request: &mut Request,
    event: &Event,
    w: &mut W,
) -> std::io::Result<Flow> {
    match (event.kind.as_str(), request) {
        // Home Assistant sends the whole text once more inside a streaming request: speaking it would say the
        // answer twice.
        ("synthesize", Request::Streaming(_)) => Ok(Flow::Open),
        ("synthesize", _) => {
            let spoken = async { speak::synthesize(app, &user(app).await?, &event.data, w).await }.await;
            finish(w, spoken).await
        }
        ("synthesize-start", request) => {
            let started = async { Streaming::start(app, &user(app).await?, &event.data).await }.await;
            match started {
                Ok(streaming) => {
                    *request = Request::Streaming(Box::new(streaming));
                    Ok(Flow::Open)
                }
                Err(err) => refuse(w, &err).await,
            }
        }
        ("synthesize-chunk", Request::Streaming(streaming)) => {
            let spoken = streaming.chunk(app, event.text("text").unwrap_or_default(), w).await;
            finish(w, spoken).await
        }
        ("synthesize-stop", request) if matches!(request, Request::Streaming(_)) => {
            let Request::Streaming(streaming) = std::mem::replace(request, Request::Idle) else {
                return Ok(Flow::Open);
            };
            let spoken = streaming.stop(app, w).await;
            finish(w, spoken).await
        }
        _ => Ok(Flow::Open),
    }
}
