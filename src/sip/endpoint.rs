//! The SIP endpoint: one UDP socket and the TCP connections peers opened ([`super::tcp`]), the client
//! transactions waiting for their responses (RFC 3261 §17.1.2, non-INVITE: over UDP retransmitted from T1
//! doubling to T2 until a final response or 64·T1), and the requests that arrive, handed to whoever serves
//! them. A message to a peer with an open connection goes on that connection (RFC 3261 §18.2.2).
//!
//! The server transactions' memory is here too: the last response sent to each request is kept for 64·T1, so
//! a request sent again (a UDP retransmission, RFC 3261 §17.2) is answered with it again and never served
//! twice: a retransmitted INVITE gets the call's 100 or 200 rather than a second call, a retransmitted BYE its
//! 200 rather than 481.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::net::UdpSocket;
use tokio::sync::mpsc;

use super::Allowed;
use super::message::{MAX_MESSAGE, Message, ParseError};
use crate::logging::Repeated;

/// RFC 3261's timer T1 (the round trip estimate) and T2 (the longest retransmission interval).
pub const T1: Duration = Duration::from_millis(500);
pub const T2: Duration = Duration::from_secs(4);
/// The responses remembered for retransmitted requests, at most (each for 64·T1): a flood of requests cannot
/// grow the memory beyond it.
const REMEMBERED: usize = 2048;

/// Why a client transaction ended without a final response.
#[derive(Debug, thiserror::Error)]
pub enum TransactionError {
    #[error("no answer from {0} within 32 s")]
    Timeout(SocketAddr),
    #[error("sending to {0}: {1}")]
    Io(SocketAddr, std::io::Error),
}

/// A request that arrived, and where from.
pub struct Incoming {
    pub request: Message,
    pub from: SocketAddr,
}

/// The socket, the connections and the transactions in progress.
pub struct Endpoint {
    socket: UdpSocket,
    /// The responses awaited, by the branch and method of the request.
    waiting: Mutex<HashMap<String, mpsc::Sender<Message>>>,
    /// The open TCP connections by their peer's address: what is written to each.
    streams: Mutex<HashMap<SocketAddr, mpsc::Sender<Vec<u8>>>>,
    /// The last response to each request, by its transaction and its sender, until it expires.
    answers: Mutex<HashMap<String, (Vec<u8>, tokio::time::Instant)>>,
    /// Who may talk to the telephone, once known: a stranger's broken request gets 403, not the reason.
    allowed: Mutex<Option<Allowed>>,
    /// Refusals of INVITEs sent over UDP and not yet acknowledged (RFC 3261 §17.2.1, Timer G and H), by
    /// their transaction and peer; `refused` wakes the task that sends them again.
    unacknowledged: Mutex<HashMap<String, Refusal>>,
    refused: tokio::sync::Notify,
}

/// How long an answer waits for room on its peer's connection.
const LATE: std::time::Duration = std::time::Duration::from_secs(5);

/// A final response other than 2xx to an INVITE, sent again until its ACK.
struct Refusal {
    bytes: Vec<u8>,
    to: SocketAddr,
    next: tokio::time::Instant,
    interval: Duration,
    give_up: tokio::time::Instant,
}

impl Endpoint {
    /// Binds `addr` (UDP).
    pub async fn bind(addr: SocketAddr) -> std::io::Result<Arc<Self>> {
        Ok(Arc::new(Self {
            socket: UdpSocket::bind(addr).await?,
            waiting: Mutex::default(),
            streams: Mutex::default(),
            answers: Mutex::default(),
            allowed: Mutex::default(),
            unacknowledged: Mutex::default(),
            refused: tokio::sync::Notify::new(),
        }))
    }

    /// Requests from outside `allowed` are strangers' from now on.
    pub fn admit_only(&self, allowed: Allowed) {
        *self.allowed.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(allowed);
    }

    fn stranger(&self, from: SocketAddr) -> bool {
        let allowed = self.allowed.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        allowed.as_ref().is_some_and(|a| !a.contains(from.ip()))
    }

    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.socket.local_addr()
    }

    /// Sends a message once (a response, an ACK); a response is remembered for its request's retransmissions,
    /// and a refusal of an INVITE over UDP is sent again until its ACK.
    pub async fn send(&self, message: &Message, to: SocketAddr) -> std::io::Result<()> {
        self.send_in(message, to, message.method() == "INVITE").await
    }

    /// [`Self::send`] for a response whose transaction is an INVITE's or not (`invite`): a request refused for
    /// its CSeq may name another method there than its own, and only an INVITE's refusal is sent again.
    async fn send_in(&self, message: &Message, to: SocketAddr, invite: bool) -> std::io::Result<()> {
        let bytes = message.to_bytes();
        if message.code().is_some() {
            self.remember(message, &bytes, to);
        }
        if message.code().is_some_and(|code| code >= 300) && invite && !self.reliable(to) {
            self.until_acknowledged(message, &bytes, to);
        }
        self.send_bytes(&bytes, to).await
    }

    /// Keeps a refusal of an INVITE to be sent again from T1 doubling to T2 until its ACK, for 64·T1 at most
    /// (Timer G and H).
    fn until_acknowledged(&self, refusal: &Message, bytes: &[u8], to: SocketAddr) {
        let mut waiting = self.waiting_refusals();
        if waiting.len() >= REMEMBERED || refusal.code() == Some(403) {
            return;
        }
        let again = Refusal {
            bytes: bytes.to_vec(),
            to,
            next: crate::clock::from_now(T1),
            interval: T1,
            give_up: crate::clock::from_now(T1 * 64),
        };
        waiting.insert(refusal_key(refusal.branch().unwrap_or_default(), to), again);
        self.refused.notify_one();
    }

    /// Sends the unacknowledged refusals again when due, until the endpoint is dropped.
    pub async fn resend_refusals(self: Arc<Self>) {
        loop {
            for (bytes, to) in self.refusals_due() {
                let _ = self.socket.send_to(&bytes, to).await;
            }
            let next = self.waiting_refusals().values().map(|r| r.next.min(r.give_up)).min();
            match next {
                Some(at) => drop(tokio::time::timeout_at(at, self.refused.notified()).await),
                None => self.refused.notified().await,
            }
        }
    }

    /// The refusals to send again now, each next due after twice its interval (at most T2); those 64·T1 old
    /// are given up.
    fn refusals_due(&self) -> Vec<(Vec<u8>, SocketAddr)> {
        let mut waiting = self.waiting_refusals();
        let now = tokio::time::Instant::now();
        waiting.retain(|_, r| r.give_up > now);
        let mut due = Vec::new();
        for refusal in waiting.values_mut().filter(|r| r.next <= now) {
            due.push((refusal.bytes.clone(), refusal.to));
            refusal.interval = (refusal.interval * 2).min(T2);
            refusal.next = crate::clock::after(now, refusal.interval);
        }
        due
    }

    fn waiting_refusals(&self) -> std::sync::MutexGuard<'_, HashMap<String, Refusal>> {
        self.unacknowledged
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Whether `ack` acknowledges a refusal sent again until now: it ends there (RFC 3261 §17.2.1).
    fn acknowledges_refusal(&self, ack: &Message, from: SocketAddr) -> bool {
        let key = refusal_key(ack.branch().unwrap_or_default(), from);
        self.waiting_refusals().remove(&key).is_some()
    }

    /// Keeps `response` (written as `bytes`) to answer its request again for 64·T1.
    fn remember(&self, response: &Message, bytes: &[u8], to: SocketAddr) {
        // Strangers' refusals are not kept: they would fill the memory for the allowed.
        if response.code() == Some(403) || response.branch().is_none() {
            return;
        }
        let mut answers = self.answers.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let now = tokio::time::Instant::now();
        if answers.len() >= REMEMBERED {
            answers.retain(|_, (_, until)| *until > now);
        }
        if answers.len() < REMEMBERED {
            answers.insert(
                answered_key(response, to),
                (bytes.to_vec(), crate::clock::after(now, T1 * 64)),
            );
        }
    }

    /// The last response to `request` from `from`, while it is remembered.
    fn answered_before(&self, request: &Message, from: SocketAddr) -> Option<Vec<u8>> {
        let answers = self.answers.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let (bytes, until) = answers.get(&answered_key(request, from))?;
        (*until > tokio::time::Instant::now()).then(|| bytes.clone())
    }

    /// Sends a message written before (a request sent again): on the peer's connection when it has one.
    pub async fn send_bytes(&self, bytes: &[u8], to: SocketAddr) -> std::io::Result<()> {
        let stream = self.streams().get(&to).cloned();
        match stream {
            Some(stream) => match stream.try_send(bytes.to_vec()) {
                Ok(()) => Ok(()),
                // The peer reads slower than its answers come (its reading is slowed down meanwhile): this one
                // follows as soon as there is room, never dropped while the connection lasts.
                Err(mpsc::error::TrySendError::Full(bytes)) => {
                    tokio::spawn(async move { tokio::time::timeout(LATE, stream.send(bytes)).await });
                    Ok(())
                }
                Err(mpsc::error::TrySendError::Closed(_)) => Err(std::io::Error::new(
                    std::io::ErrorKind::BrokenPipe,
                    "the SIP connection is closed",
                )),
            },
            None => self.socket.send_to(bytes, to).await.map(drop),
        }
    }

    /// Whether `peer` is reached over a connection (TCP), where nothing is sent twice.
    pub fn reliable(&self, peer: SocketAddr) -> bool {
        self.streams().contains_key(&peer)
    }

    /// Messages to `peer` go to `writer` while the connection lasts.
    pub fn attach(self: &Arc<Self>, peer: SocketAddr, writer: mpsc::Sender<Vec<u8>>) -> Attached {
        self.streams().insert(peer, writer);
        Attached(self.clone(), peer)
    }

    fn streams(&self) -> std::sync::MutexGuard<'_, HashMap<SocketAddr, mpsc::Sender<Vec<u8>>>> {
        self.streams.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A non-INVITE client transaction: `request` (whose Via carries a fresh branch) to `to`, retransmitted
    /// until its final response.
    pub async fn request(self: &Arc<Self>, request: &Message, to: SocketAddr) -> Result<Message, TransactionError> {
        let mut responses = self.responses(request);
        let bytes = request.to_bytes();
        let mut interval = T1;
        let deadline = crate::clock::from_now(T1 * 64);
        loop {
            self.send_bytes(&bytes, to)
                .await
                .map_err(|e| TransactionError::Io(to, e))?;
            // Over a connection the request is sent once, and its answer awaited for as long.
            let next = if self.reliable(to) {
                deadline
            } else {
                crate::clock::from_now(interval)
            };
            loop {
                match tokio::time::timeout_at(next.min(deadline), responses.recv()).await {
                    Ok(Some(response)) if response.code().is_some_and(|c| c >= 200) => return Ok(response),
                    Ok(Some(_provisional)) => {}
                    Ok(None) => return Err(TransactionError::Timeout(to)),
                    Err(_) if tokio::time::Instant::now() >= deadline => return Err(TransactionError::Timeout(to)),
                    Err(_) => break,
                }
            }
            interval = (interval * 2).min(T2);
        }
    }

    /// The responses to `request` (by its Via's branch), provisional and final, for as long as the answer is
    /// held: an INVITE's are read until the call ends, as a lost ACK brings its 2xx again.
    pub fn responses(self: &Arc<Self>, request: &Message) -> Responses {
        let branch = transaction(request);
        let (tx, rx) = mpsc::channel(8);
        self.lock().insert(branch.clone(), tx);
        Responses {
            endpoint: self.clone(),
            branch,
            rx,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, mpsc::Sender<Message>>> {
        self.waiting.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Reads datagrams until the socket fails, each one message ([`Self::take`]).
    pub async fn receive(self: Arc<Self>, requests: mpsc::Sender<Incoming>) {
        let mut buf = vec![0u8; MAX_MESSAGE];
        loop {
            let (n, from) = match self.socket.recv_from(&mut buf).await {
                Ok(got) => got,
                // An ICMP "port unreachable" of an earlier send shows up here on Linux: not the socket's end.
                Err(err) if err.kind() == std::io::ErrorKind::ConnectionRefused => continue,
                Err(err) => return tracing::warn!(%err, "the SIP socket failed"),
            };
            let datagram = &buf[..n];
            if datagram.iter().all(|b| b.is_ascii_whitespace()) {
                continue; // a keep-alive (RFC 5626 §4.4.1)
            }
            if !self.take(datagram, from, &requests).await {
                return;
            }
        }
    }

    /// One message from `from`: a response goes to its transaction, a request to `requests` (a broken
    /// request gets 400 here; what is not SIP at all is dropped and counted in the log). False once nobody
    /// takes requests any more.
    pub async fn take(&self, bytes: &[u8], from: SocketAddr, requests: &mpsc::Sender<Incoming>) -> bool {
        match Message::parse(bytes) {
            Ok(message) if message.code().is_some() => self.answered(message),
            Ok(ack) if ack.method() == "ACK" && self.acknowledges_refusal(&ack, from) => {}
            Ok(request) => match request.check_request() {
                Ok(()) => match self.answered_before(&request, from) {
                    // A retransmission: its transaction answers it again, nobody serves it twice.
                    Some(again) => drop(self.send_bytes(&again, from).await),
                    None => return requests.send(Incoming { request, from }).await.is_ok(),
                },
                Err(why) => self.refuse(&request, from, &why).await,
            },
            // What could be read of a broken request is enough to answer it, when it names its Via.
            Err(ParseError::Malformed(why, Some(read))) if read.code().is_none() => {
                self.refuse(&read, from, &why).await;
            }
            Err(ParseError::Malformed(why, _)) => {
                static BROKEN: Repeated = Repeated::new();
                if let Some(left_out) = BROKEN.next() {
                    tracing::warn!(%from, why, left_out, "a broken SIP response; dropped");
                }
            }
            Err(ParseError::Garbage(why)) => {
                static GARBAGE: Repeated = Repeated::new();
                if let Some(left_out) = GARBAGE.next() {
                    tracing::debug!(%from, why, left_out, "not SIP; dropped");
                }
            }
        }
        true
    }

    /// Hands a response to its transaction, when one waits for it.
    fn answered(&self, response: Message) {
        if let Some(waiting) = self.lock().get(&transaction(&response)) {
            let _ = waiting.try_send(response);
        }
    }

    /// A 400 for a broken request, or one that lacks what a transaction needs; a stranger's gets 403 and
    /// learns nothing of the parser.
    async fn refuse(&self, request: &Message, from: SocketAddr, why: &str) {
        if request.header("Via").is_none() {
            return;
        }
        if self.stranger(from) {
            let _ = self.send(&request.response(403, "Forbidden", None), from).await;
            return;
        }
        static BROKEN: Repeated = Repeated::new();
        if let Some(left_out) = BROKEN.next() {
            tracing::warn!(%from, why, left_out, "a SIP request without what it needs; 400");
        }
        // The transaction is the start line's method's, whatever the CSeq says.
        let invite = matches!(&request.start, super::message::Start::Request { method, .. } if method == "INVITE");
        let refusal = request.response(400, &format!("Bad Request ({why})"), None);
        let _ = self.send_in(&refusal, from, invite).await;
    }
}

/// A peer's connection, known to the endpoint until dropped.
pub struct Attached(Arc<Endpoint>, SocketAddr);

impl Drop for Attached {
    fn drop(&mut self) {
        self.0.streams().remove(&self.1);
    }
}

/// The transaction a message belongs to: its branch and method (a CANCEL shares its INVITE's branch).
fn transaction(message: &Message) -> String {
    format!("{} {}", message.branch().unwrap_or_default(), message.method())
}

/// What a response is remembered by: its request's transaction and the peer it went to.
fn answered_key(message: &Message, peer: SocketAddr) -> String {
    format!("{} {peer}", transaction(message))
}

/// What a refusal of an INVITE waits for its ACK by: the INVITE's branch (the ACK of a refusal carries it,
/// RFC 3261 §17.1.1.3) and the peer.
fn refusal_key(branch: &str, peer: SocketAddr) -> String {
    format!("{branch} {peer}")
}

/// The responses to one request, until dropped.
pub struct Responses {
    endpoint: Arc<Endpoint>,
    branch: String,
    rx: mpsc::Receiver<Message>,
}

impl Responses {
    pub async fn recv(&mut self) -> Option<Message> {
        self.rx.recv().await
    }
}

impl Drop for Responses {
    fn drop(&mut self) {
        self.endpoint.lock().remove(&self.branch);
    }
}

/// A fresh branch (RFC 3261's magic cookie first), tag or Call-ID part.
pub fn token(prefix: &str) -> String {
    format!("{prefix}{:016x}", rand::random::<u64>())
}
