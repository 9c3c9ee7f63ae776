//! A call's audio over RTP: the caller's packets in order and decoded into the call's input, the gateway's
//! audio encoded and sent every 20 ms at the pace it is played (silence between answers, as telephones
//! expect a steady stream), RTCP sender reports every 5 s. Packets from another address than the caller's
//! are dropped: the caller's is the one its offer names, or its offer's port on the address the call came
//! from (a router that relays a handset's audio sends it from itself, whatever the handset's offer said).
//!
//! The caller's side ([`Remote`]) may change while the call lasts (a re-INVITE: hold, resume, a new address):
//! nothing is sent to a caller on hold, and a caller who should send audio and sends none for
//! `RTP_TIMEOUT_SECONDS` has vanished (a handset out of range, a router restarted): the call ends.

use std::collections::VecDeque;
use std::net::{IpAddr, SocketAddr};
use std::ops::RangeInclusive;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::UdpSocket;
use tokio::sync::mpsc;

use tokio::sync::watch;

use super::rtp::{Coder, Packet, Reorder, event_end, sender_report};
use super::sdp::{Direction, Offer};
use crate::phone::call::{Inbound, Line};
use crate::task::AbortOnDrop;

/// How often RTCP reports are sent.
const REPORT_EVERY: Duration = Duration::from_secs(5);

/// An even RTP port of `ports` on `ip` and the odd RTCP port above it, the first pair free.
pub async fn bind(ip: IpAddr, ports: &RangeInclusive<u16>) -> std::io::Result<(UdpSocket, UdpSocket)> {
    let first = ports.start().saturating_add(*ports.start() % 2);
    for port in (first..*ports.end()).step_by(2) {
        if let Ok(rtp) = UdpSocket::bind((ip, port)).await
            && let Ok(rtcp) = UdpSocket::bind((ip, port.saturating_add(1))).await
        {
            return Ok((rtp, rtcp));
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::AddrInUse,
        "every port of SIP_RTP_PORTS is taken",
    ))
}

/// The caller's side of the audio, as last agreed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Remote {
    /// Where its audio goes.
    pub media: SocketAddr,
    /// The address its signalling came from (a router relaying the audio sends it from there).
    pub peer: IpAddr,
    /// Which way the caller wants audio to flow.
    pub direction: Direction,
}

impl Remote {
    pub fn of(offer: &Offer, peer: IpAddr) -> Self {
        Self {
            media: offer.media,
            peer,
            direction: offer.direction,
        }
    }

    /// The addresses the caller's audio may come from.
    fn callers(&self) -> [SocketAddr; 2] {
        [self.media, SocketAddr::new(self.peer, self.media.port())]
    }
}

/// What the line is told.
enum Command {
    Play(Vec<i16>, u64),
    Clear,
    Stop,
}

/// The sending side of a call's audio, and the tasks that carry it.
pub struct Media {
    commands: mpsc::UnboundedSender<Command>,
    rate: u32,
    /// Ends the call the SIP way (a BYE), once the audio stopped.
    hang_up: Option<Box<dyn FnOnce() + Send + Sync>>,
    /// The caller sent no audio for the timeout.
    vanished: Arc<std::sync::atomic::AtomicBool>,
    _receive: AbortOnDrop,
    _send: AbortOnDrop,
}

impl Media {
    /// Starts the audio of a call answered with `offer`'s codec, with the caller's side `remote` (which the
    /// call's dialog may change): the caller's audio (and `Hangup` when the sockets fail, or when no audio
    /// came for `timeout`) goes to `inbound`, keypresses to `keys`.
    #[allow(clippy::too_many_arguments)]
    pub fn start(
        (rtp, rtcp): (UdpSocket, UdpSocket),
        offer: &Offer,
        remote: watch::Receiver<Remote>,
        timeout: Duration,
        inbound: mpsc::Sender<Inbound>,
        keys: mpsc::Sender<char>,
        hang_up: Box<dyn FnOnce() + Send + Sync>,
    ) -> Self {
        let rtp = Arc::new(rtp);
        let (commands, rx) = mpsc::unbounded_channel();
        let vanished = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let heard = Heard {
            remote: remote.clone(),
            timeout,
            vanished: vanished.clone(),
        };
        let receive = tokio::spawn(receive(rtp.clone(), offer.clone(), heard, inbound.clone(), keys));
        let send = tokio::spawn(send(rtp, rtcp, offer.clone(), remote, rx, inbound));
        Self {
            commands,
            rate: offer.codec.audio_rate(),
            hang_up: Some(hang_up),
            vanished,
            _receive: AbortOnDrop(receive),
            _send: AbortOnDrop(send),
        }
    }

    /// Whether the call ended because the caller sent no audio.
    pub fn vanished(&self) -> bool {
        self.vanished.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn command(&self, command: Command) -> std::io::Result<()> {
        self.commands
            .send(command)
            .map_err(|_| std::io::Error::other("the call's audio stopped"))
    }
}

impl Line for Media {
    fn rate(&self) -> u32 {
        self.rate
    }

    async fn play(&mut self, samples: &[i16], mark: u64) -> std::io::Result<()> {
        self.command(Command::Play(samples.to_vec(), mark))
    }

    async fn clear(&mut self) -> std::io::Result<()> {
        self.command(Command::Clear)
    }

    async fn hang_up(&mut self) {
        let _ = self.command(Command::Stop);
        if let Some(hang_up) = self.hang_up.take() {
            hang_up();
        }
    }
}

impl Drop for Media {
    /// A call whose task fails drops its audio while it unwinds: the caller is sent the BYE a hang-up sends
    /// (the ports close with the tasks).
    fn drop(&mut self) {
        if std::thread::panicking()
            && let Some(hang_up) = self.hang_up.take()
        {
            hang_up();
        }
    }
}

/// Whom the caller's audio comes from, and how long it may stay away.
struct Heard {
    remote: watch::Receiver<Remote>,
    timeout: Duration,
    /// Set when the caller vanished.
    vanished: Arc<std::sync::atomic::AtomicBool>,
}

/// The caller's packets: in order, decoded, as the call's input; telephone events as keys. A caller who
/// should send and sends nothing for the timeout ends the call (`Hangup`).
async fn receive(
    rtp: Arc<UdpSocket>,
    offer: Offer,
    heard: Heard,
    inbound: mpsc::Sender<Inbound>,
    keys: mpsc::Sender<char>,
) {
    let mut coder = Coder::new(offer.codec);
    let mut reorder = Reorder::new();
    let mut last_event: Option<u32> = None;
    let mut strangers = 0u64;
    let mut buf = vec![0u8; 2048];
    // Only the caller's own packets count as its being there.
    let mut last_heard = tokio::time::Instant::now();
    // Whether the caller sends may change (hold): looked at every second, the timer counting only while it
    // should. One timer for the call, not one a packet.
    let mut check = tokio::time::interval(Duration::from_secs(1).min(heard.timeout));
    check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let (n, from) = tokio::select! {
            got = rtp.recv_from(&mut buf) => match got {
                Ok(got) => got,
                Err(err) if err.kind() == std::io::ErrorKind::ConnectionRefused => continue,
                Err(_) => break,
            },
            _ = check.tick() => {
                if !heard.remote.borrow().direction.sends() {
                    last_heard = tokio::time::Instant::now();
                } else if last_heard.elapsed() >= heard.timeout {
                    tracing::info!(seconds = heard.timeout.as_secs(), "a SIP caller sent no audio; the call is ended");
                    heard.vanished.store(true, std::sync::atomic::Ordering::Relaxed);
                    let _ = inbound.send(Inbound::Hangup).await;
                    return;
                }
                continue;
            }
        };
        let callers = heard.remote.borrow().callers();
        if !callers.contains(&from) {
            strangers += 1;
            if strangers == 1 {
                tracing::warn!(%from, expected = %offer.media, "RTP from another address than the call's; dropped");
            }
            continue;
        }
        let Some(packet) = Packet::parse(&buf[..n]) else {
            continue;
        };
        last_heard = tokio::time::Instant::now();
        if Some(packet.payload_type) == offer.events {
            // The end of an event is sent three times with the same timestamp.
            if let Some(key) = event_end(&packet.payload)
                && last_event != Some(packet.timestamp)
            {
                last_event = Some(packet.timestamp);
                let _ = keys.try_send(key);
            }
            continue;
        }
        if packet.payload_type != offer.payload_type {
            continue;
        }
        for packet in reorder.push(packet) {
            if inbound
                .send(Inbound::Audio(coder.decode(&packet.payload)))
                .await
                .is_err()
            {
                return;
            }
        }
    }
    if strangers > 1 {
        tracing::warn!(strangers, "RTP packets from other addresses were dropped in this call");
    }
}

/// A frame of audio, or a mark the audio before it reaches.
enum Queued {
    Frame(Vec<i16>),
    Mark(u64),
}

/// Sends one 20 ms packet every 20 ms, what is queued or silence, reports each mark once the audio before it
/// was sent, and an RTCP sender report every 5 s; to a caller on hold nothing is sent (what is queued plays
/// on, unheard, so that the call's turns go on).
async fn send(
    rtp: Arc<UdpSocket>,
    rtcp: UdpSocket,
    offer: Offer,
    remote: watch::Receiver<Remote>,
    mut commands: mpsc::UnboundedReceiver<Command>,
    played: mpsc::Sender<Inbound>,
) {
    let frame = (offer.codec.audio_rate() / 50) as usize;
    let mut coder = Coder::new(offer.codec);
    let mut queue: VecDeque<Queued> = VecDeque::new();
    let ssrc: u32 = rand::random();
    let (mut sequence, mut timestamp): (u16, u32) = (rand::random(), rand::random());
    let (mut packets, mut octets) = (0u32, 0u32);
    let mut talking = false;
    let mut tick = tokio::time::interval(Duration::from_millis(20));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut report = tokio::time::interval(REPORT_EVERY);
    let cname = format!(
        "voice-gateway@{}",
        rtp.local_addr().map(|a| a.ip().to_string()).unwrap_or_default()
    );
    let silence = vec![0i16; frame];
    loop {
        tokio::select! {
            command = commands.recv() => match command {
                Some(Command::Play(samples, mark)) => {
                    queue.extend(samples.chunks(frame).map(|c| Queued::Frame(c.to_vec())));
                    queue.push_back(Queued::Mark(mark));
                }
                Some(Command::Clear) => queue.clear(),
                Some(Command::Stop) | None => return,
            },
            _ = tick.tick() => {
                let samples = match queue.pop_front() {
                    Some(Queued::Frame(mut samples)) => {
                        samples.resize(frame, 0);
                        samples
                    }
                    _ => silence.clone(),
                };
                let speaking = samples.iter().any(|&s| s != 0);
                let packet = Packet {
                    payload_type: offer.payload_type,
                    // The first packet of a talkspurt (RFC 3551 §4.1).
                    marker: speaking && !talking,
                    sequence,
                    timestamp,
                    ssrc,
                    payload: coder.encode(&samples),
                };
                talking = speaking;
                let to = *remote.borrow();
                if to.direction.receives() && rtp.send_to(&packet.to_bytes(), to.media).await.is_err() {
                    let _ = played.send(Inbound::Hangup).await;
                    return;
                }
                (sequence, timestamp) = (sequence.wrapping_add(1), timestamp.wrapping_add(160));
                (packets, octets) = (packets.wrapping_add(1), octets.wrapping_add(packet.payload.len() as u32));
                while let Some(Queued::Mark(mark)) = queue.front() {
                    let _ = played.send(Inbound::Played(*mark)).await;
                    queue.pop_front();
                }
            }
            _ = report.tick() => {
                let media = remote.borrow().media;
                // RTCP goes to the port above the audio's; an offer of port 65535 has none.
                if let Some(port) = media.port().checked_add(1) {
                    let report = sender_report(ssrc, timestamp, packets, octets, &cname);
                    let _ = rtcp.send_to(&report, SocketAddr::new(media.ip(), port)).await;
                }
            }
        }
    }
}
