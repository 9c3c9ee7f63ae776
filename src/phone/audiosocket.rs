//! Asterisk's AudioSocket (`AUDIOSOCKET_ADDR`, off by default): a TCP server for the dialplan's
//! `AudioSocket(uuid,host:port)`. Every message is a kind (one byte), a length (two bytes, big-endian) and
//! that many bytes: `0x01` the call's UUID (first), `0x10` audio (16-bit signed linear, little-endian, 8 kHz,
//! mono, 20 ms a message), `0x03` a DTMF digit, `0x00` hang-up, `0xff` an error. The gateway sends audio in
//! 20 ms messages at the pace it is played (Asterisk plays what arrives), and `0x00` to hang up.
//!
//! A call is `AUDIOSOCKET_USERS`' user of its UUID, else `AUDIOSOCKET_USER`'s, else an unknown caller's
//! (`PHONE_UNKNOWN_CALLERS`).

// Numbers from the wire are read here: no arithmetic may overflow or panic, whatever they are.
#![deny(clippy::arithmetic_side_effects)]

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;

use super::call::{self, Inbound, Line};
use super::callers::{self, Caller};
use crate::app::App;
use crate::connections::Door;
use crate::logging::Repeated;
use crate::task::AbortOnDrop;

/// The kinds of message.
pub mod kind {
    pub const HANGUP: u8 = 0x00;
    pub const UUID: u8 = 0x01;
    pub const SILENCE: u8 = 0x02;
    pub const DTMF: u8 = 0x03;
    pub const AUDIO: u8 = 0x10;
    pub const ERROR: u8 = 0xff;
}

/// Samples in one audio message (20 ms at 8 kHz).
const FRAME: usize = 160;
/// How long Asterisk may take to send the call's UUID.
const UUID_TIMEOUT: Duration = Duration::from_secs(5);

/// Serves AudioSocket on `listener` until `stop` turns true; calls in progress end with the server.
pub async fn run(listener: TcpListener, app: Arc<App>, mut stop: watch::Receiver<bool>) {
    if let Ok(addr) = listener.local_addr() {
        tracing::info!(address = %addr, "AudioSocket server listening");
    }
    let mut calls = JoinSet::new();
    loop {
        tokio::select! {
            () = crate::task::stopped(&mut stop) => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    // Each call holds a descriptor and a voice connection's memory: it counts in the budget.
                    let Some(permit) = app.connections.admit(Door::AudioSocket, peer.ip(), &app.metrics) else {
                        continue;
                    };
                    let app = app.clone();
                    calls.spawn(async move {
                        let _permit = permit;
                        // A failed call's socket closes as it unwinds: to the PBX, a hang-up.
                        if let Err(reason) = crate::task::caught(connection(app.clone(), stream, peer)).await {
                            app.lines.task_failed(&app.metrics, "audiosocket", &reason);
                app.lines.call_outcome(&app.metrics, "audiosocket", crate::lines::Outcome::Failed);
                        }
                    });
                }
                Err(err) => {
                    static FAILED: Repeated = Repeated::new();
                    if let Some(left_out) = FAILED.next() {
                        tracing::warn!(error = %err, left_out, "AudioSocket accept failed");
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
            Some(_) = calls.join_next(), if !calls.is_empty() => {}
        }
    }
}

/// One message.
#[derive(Debug, PartialEq, Eq)]
pub struct Message {
    pub kind: u8,
    pub payload: Vec<u8>,
}

/// Reads one message; `None` at the end of the stream.
pub async fn read_message<R: AsyncRead + Unpin>(reader: &mut R) -> std::io::Result<Option<Message>> {
    let mut header = [0u8; 3];
    match reader.read_exact(&mut header).await {
        Ok(_) => {}
        Err(err) if err.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(err) => return Err(err),
    }
    let length = usize::from(u16::from_be_bytes([header[1], header[2]]));
    let mut payload = vec![0; length];
    reader.read_exact(&mut payload).await?;
    Ok(Some(Message {
        kind: header[0],
        payload,
    }))
}

/// Writes one message.
pub async fn write_message<W: AsyncWrite + Unpin>(writer: &mut W, kind: u8, payload: &[u8]) -> std::io::Result<()> {
    let length = u16::try_from(payload.len()).map_err(|_| std::io::Error::other("AudioSocket payload too long"))?;
    let mut bytes = Vec::with_capacity(payload.len().saturating_add(3));
    bytes.push(kind);
    bytes.extend_from_slice(&length.to_be_bytes());
    bytes.extend_from_slice(payload);
    writer.write_all(&bytes).await
}

/// Serves one call.
async fn connection(app: Arc<App>, stream: TcpStream, peer: SocketAddr) {
    let _ = stream.set_nodelay(true);
    let (reader, writer) = stream.into_split();
    let mut reader = BufReader::new(reader);
    let uuid = match tokio::time::timeout(UUID_TIMEOUT, read_message(&mut reader)).await {
        Ok(Ok(Some(Message {
            kind: kind::UUID,
            payload,
        }))) if payload.len() == 16 => uuid::Uuid::from_slice(&payload).unwrap_or_default(),
        _ => {
            static NO_UUID: Repeated = Repeated::new();
            if let Some(left_out) = NO_UUID.next() {
                tracing::warn!(%peer, left_out, "an AudioSocket call did not begin with its 16-byte UUID; closed");
            }
            return;
        }
    };
    let phone = &app.settings.phone;
    let name = phone
        .audiosocket_users
        .get(&uuid.to_string())
        .or(phone.audiosocket_user.as_ref());
    let caller = match callers::by_name(&app, name.map(String::as_str)).await {
        Ok(caller) => caller,
        Err(err) => return tracing::error!(%err, "the user of an AudioSocket call could not be read"),
    };
    tracing::info!(%uuid, caller = caller.kind(), "an AudioSocket call");
    // A call beyond the voice connections' limits is closed before a word is said.
    let seated = match caller {
        Caller::Refused => None,
        Caller::Known(user) | Caller::Guest(user) => match super::seat(&app, &user, "audiosocket") {
            // AudioSocket passes no calling number: the help key is told once a day per user, as before.
            Ok(seat) => Some((user, seat, String::new())),
            Err(refused) => return app.lines.call_outcome(&app.metrics, "audiosocket", refused),
        },
    };
    let (tx, mut inbound) = mpsc::channel(64);
    let writer = crate::deadline::Deadline::new(writer, Duration::from_secs(app.settings.limits.write_timeout_secs));
    let mut player = Player::start(writer, tx.clone());
    let _reader = AbortOnDrop(tokio::spawn(read(reader, tx)));
    let outcome = match seated {
        None => call::refuse(&app, &mut player, &mut inbound).await,
        Some(seated) => super::answer(app.clone(), seated, "audiosocket", &mut inbound, &mut player).await,
    };
    player.hang_up().await;
    app.lines.call_outcome(&app.metrics, "audiosocket", outcome);
}

/// Turns Asterisk's messages into the call's input until it hangs up; audio of an odd length and messages of
/// unknown kinds are dropped and counted in the log.
async fn read<R: AsyncRead + Unpin>(mut reader: BufReader<R>, tx: mpsc::Sender<Inbound>) {
    let mut malformed = 0u64;
    let last = loop {
        let message = match read_message(&mut reader).await {
            Ok(Some(message)) => message,
            Ok(None) => break Inbound::Hangup,
            Err(err) => {
                tracing::debug!(error = %err, "an AudioSocket connection broke");
                break Inbound::Hangup;
            }
        };
        let inbound = match message.kind {
            kind::AUDIO if !message.payload.is_empty() && message.payload.len() % 2 == 0 => Inbound::Audio(
                message
                    .payload
                    .chunks_exact(2)
                    .map(|b| i16::from_le_bytes([b[0], b[1]]))
                    .collect(),
            ),
            kind::HANGUP => break Inbound::Hangup,
            kind::ERROR => {
                let code = message.payload.first().copied().unwrap_or(0);
                tracing::warn!(code, "Asterisk reported an AudioSocket error; the call ends");
                break Inbound::Hangup;
            }
            // One ASCII digit (Asterisk 20 and later): the help key, or the help question's answer.
            kind::DTMF => match message.payload.as_slice() {
                [key] if key.is_ascii_digit() || matches!(key, b'*' | b'#') => Inbound::Key(char::from(*key)),
                _ => {
                    malformed = malformed.saturating_add(1);
                    continue;
                }
            },
            kind::UUID | kind::SILENCE => continue,
            _ => {
                malformed = malformed.saturating_add(1);
                continue;
            }
        };
        if tx.send(inbound).await.is_err() {
            break Inbound::Hangup;
        }
    };
    if malformed > 0 {
        tracing::warn!(malformed, "an AudioSocket call sent messages that were dropped");
    }
    let _ = tx.send(last).await;
}

/// What the player is asked.
enum Command {
    Play(Vec<i16>, u64),
    Clear,
    HangUp,
}

/// The sending side: a task that writes the audio at the pace it is played and reports the marks it passed.
struct Player {
    commands: mpsc::UnboundedSender<Command>,
    task: Option<tokio::task::JoinHandle<()>>,
}

/// A frame of audio, or a mark the audio before it reaches.
enum Queued {
    Frame(Vec<u8>),
    Mark(u64),
}

impl Player {
    fn start<W: AsyncWrite + Unpin + Send + 'static>(writer: W, played: mpsc::Sender<Inbound>) -> Self {
        let (commands, rx) = mpsc::unbounded_channel();
        let task = tokio::spawn(pace(writer, rx, played));
        Self {
            commands,
            task: Some(task),
        }
    }

    fn send(&self, command: Command) -> std::io::Result<()> {
        self.commands
            .send(command)
            .map_err(|_| std::io::Error::other("the AudioSocket connection is closed"))
    }
}

impl Line for Player {
    async fn play(&mut self, samples: &[i16], mark: u64) -> std::io::Result<()> {
        self.send(Command::Play(samples.to_vec(), mark))
    }

    async fn clear(&mut self) -> std::io::Result<()> {
        self.send(Command::Clear)
    }

    async fn hang_up(&mut self) {
        let _ = self.send(Command::HangUp);
        if let Some(task) = self.task.take() {
            let _ = tokio::time::timeout(crate::socket::SEND_TIMEOUT, task).await;
        }
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        if let Some(task) = &self.task {
            task.abort();
        }
    }
}

/// Writes one frame every 20 ms while there is audio, and reports each mark once the audio before it was
/// written; a clear drops what is queued (its marks are not reported).
async fn pace<W: AsyncWrite + Unpin>(
    mut writer: W,
    mut commands: mpsc::UnboundedReceiver<Command>,
    played: mpsc::Sender<Inbound>,
) {
    let mut queue: VecDeque<Queued> = VecDeque::new();
    let mut tick = tokio::time::interval(Duration::from_millis(20));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            command = commands.recv() => match command {
                Some(Command::Play(samples, mark)) => {
                    for frame in samples.chunks(FRAME) {
                        queue.push_back(Queued::Frame(frame.iter().flat_map(|s| s.to_le_bytes()).collect()));
                    }
                    queue.push_back(Queued::Mark(mark));
                }
                Some(Command::Clear) => queue.clear(),
                Some(Command::HangUp) | None => {
                    let _ = write_message(&mut writer, kind::HANGUP, &[]).await;
                    let _ = writer.shutdown().await;
                    return;
                }
            },
            _ = tick.tick(), if !queue.is_empty() => {
                if let Some(Queued::Frame(frame)) = queue.pop_front()
                    && write_message(&mut writer, kind::AUDIO, &frame).await.is_err()
                {
                    return;
                }
                while let Some(Queued::Mark(mark)) = queue.front() {
                    let _ = played.send(Inbound::Played(*mark)).await;
                    queue.pop_front();
                }
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_message_is_its_kind_length_and_payload() {
        let mut bytes = Vec::new();
        write_message(&mut bytes, kind::AUDIO, &[1, 2, 3, 4]).await.unwrap();
        assert_eq!(bytes, [0x10, 0x00, 0x04, 1, 2, 3, 4]);
        let mut reader = bytes.as_slice();
        let message = read_message(&mut reader).await.unwrap().unwrap();
        assert_eq!(
            message,
            Message {
                kind: kind::AUDIO,
                payload: vec![1, 2, 3, 4]
            }
        );
        assert!(
            read_message(&mut reader).await.unwrap().is_none(),
            "the end of the stream"
        );
        let mut short: &[u8] = &[0x10, 0x00, 0x04, 1];
        assert!(
            read_message(&mut short).await.is_err(),
            "a message cut short is an error"
        );
    }
}
