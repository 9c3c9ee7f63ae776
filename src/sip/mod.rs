//! The house's own telephone (`SIP_REGISTRAR`, `SIP_ADDR`; off by default): a SIP user agent that registers
//! with the home router (a Fritz!Box takes it as an IP telephone with an internal number) and takes requests
//! from it and from `SIP_ALLOWED_FROM`; anybody else gets 403.
//!
//! - [`message`]: reading and writing SIP messages.
//! - [`digest`]: digest authentication.
//! - [`endpoint`]: the UDP socket, the TCP connections ([`tcp`]) and the client transactions.
//! - [`register`]: the registration, kept fresh, its state in `App::lines`.
//! - [`call`]: an incoming call, answered with [`sdp`]'s best codec, its audio by [`media`] over [`rtp`], run
//!   on the voice core as every phone line's calls are; [`dialog`] is what the gateway keeps of a call, and
//!   [`session`] serves the requests in it (re-INVITE, UPDATE, session timers, INFO).
//! - [`dial`]: a call the gateway places through the registrar; [`alarm`] places the help function's calls
//!   and care's calls to the person, whose spoken answers [`answer`] hears.

mod alarm;
mod answer;
mod call;
mod dial;
mod dialog;
pub mod digest;
pub mod endpoint;
mod media;
pub mod message;
mod register;
pub mod rtp;
pub mod sdp;
mod session;
mod tcp;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};

use secrecy::SecretString;
use tokio::net::TcpListener;
use tokio::sync::mpsc;

use self::endpoint::{Endpoint, Incoming};
use self::message::Message;
use crate::app::App;
use crate::connections::Door;
use crate::lines::{LineState, Outcome};
use crate::task::AbortOnDrop;

/// The methods the gateway takes.
pub const ALLOW: &str = "INVITE, ACK, CANCEL, BYE, OPTIONS, INFO, UPDATE";
/// Requests read and waiting for the telephone, from every peer together.
pub const REQUESTS_QUEUE: usize = 64;
/// The requests of a call's dialog waiting for it: one more is answered 503 with `Retry-After`.
pub const CALL_QUEUE: usize = 16;
/// How the gateway names itself.
pub const USER_AGENT: &str = concat!("voice-gateway/", env!("CARGO_PKG_VERSION"));

/// Serves SIP on `endpoint` (UDP) and `tcp` until dropped: registers when a registrar is set, and answers
/// requests.
pub async fn run(app: Arc<App>, endpoint: Arc<Endpoint>, tcp: TcpListener) {
    let (tx, mut requests) = mpsc::channel(REQUESTS_QUEUE);
    let _receive = AbortOnDrop(tokio::spawn(endpoint.clone().receive(tx.clone())));
    let _resend = AbortOnDrop(tokio::spawn(endpoint.clone().resend_refusals()));
    let mut telephone = Telephone {
        allowed: Allowed {
            registrar: None,
            networks: app.settings.sip.allowed_from.clone(),
        },
        app,
        endpoint,
        calls: Calls::default(),
    };
    let _register = telephone.register().await;
    telephone.endpoint.admit_only(telephone.allowed.clone());
    let _tcp = AbortOnDrop(tokio::spawn(tcp::serve(
        telephone.app.clone(),
        telephone.endpoint.clone(),
        tcp,
        telephone.allowed.clone(),
        tx,
    )));
    while let Some(Incoming { request, from }) = requests.recv().await {
        if let Some(response) = telephone.answer(request, from).await {
            let _ = telephone.endpoint.send(&response, from).await;
        }
    }
}

/// The telephone's state while it serves.
struct Telephone {
    app: Arc<App>,
    endpoint: Arc<Endpoint>,
    allowed: Allowed,
    /// The calls in progress, by Call-ID: their later requests go to them.
    calls: Calls,
}

impl Telephone {
    /// Starts keeping the registration when a registrar is set, and makes the line the help function's
    /// dialer; the registrar is then allowed to call.
    async fn register(&mut self) -> Option<AbortOnDrop> {
        let settings = &self.app.settings.sip;
        let (Some(registrar), Some(user), Some(password)) = (&settings.registrar, &settings.user, &settings.password)
        else {
            return None;
        };
        let account = match account(&self.endpoint, registrar, user, password).await {
            Ok(account) => Arc::new(account),
            Err(why) => {
                tracing::warn!(registrar, why, "SIP: the registrar cannot be reached");
                let name = format!("{user}@{registrar}");
                self.app.lines.set("sip", &name, LineState::Failing, why);
                return None;
            }
        };
        tracing::info!(registrar = %account.registrar, user, "SIP: registering with the registrar");
        self.allowed.registrar = Some(account.registrar.ip());
        let line = alarm::HouseLine::new(&self.app, self.endpoint.clone(), account.clone(), self.calls.clone());
        self.app.lines.set_dialer(Arc::new(line));
        let keep = register::keep_registered(self.app.clone(), self.endpoint.clone(), account);
        Some(AbortOnDrop(tokio::spawn(keep)))
    }

    /// The answer to a request from `from`, unless a call takes it (or it is an ACK, never answered).
    async fn answer(&self, request: Message, from: SocketAddr) -> Option<Message> {
        let call = self.calls.get(request.header("Call-ID").unwrap_or_default());
        Some(match request.method() {
            "ACK" if call.is_none() => return None,
            _ if !self.allowed.contains(from.ip()) && request.method() != "ACK" => {
                tracing::debug!(%from, method = request.method(), "SIP request from an unknown address; 403");
                request.response(403, "Forbidden", None)
            }
            _ if call.is_some() => match call.map(|call| call.try_send(request)) {
                // A burst beyond what the call queues: told to come again, never left without an answer.
                Some(Err(mpsc::error::TrySendError::Full(request))) if request.method() != "ACK" => {
                    busy(&request, 503, "Service Unavailable")
                }
                _ => return None,
            },
            // A request of a dialog the gateway does not have (RFC 3261 §12.2.2).
            _ if in_dialog(&request) => request.response(481, "Call/Transaction Does Not Exist", None),
            "INVITE" if self.calls.count() >= self.app.settings.sip.max_calls => {
                let outcome = crate::lines::Outcome::Refused("busy");
                self.app.lines.call_outcome(&self.app.metrics, "sip", outcome);
                busy(&request, 486, "Busy Here")
            }
            "INVITE" => return self.take(request, from).await,
            "OPTIONS" => session::capabilities(&request),
            "BYE" | "CANCEL" | "INFO" | "UPDATE" | "PRACK" => {
                request.response(481, "Call/Transaction Does Not Exist", None)
            }
            _ => request.response(405, "Method Not Allowed", None),
        })
    }

    /// Takes a call, when the connection budget and the address it is answered at allow.
    async fn take(&self, invite: Message, from: SocketAddr) -> Option<Message> {
        // Each call holds two sockets: it counts in the connection budget of every door.
        let refused = |reason| {
            self.app
                .lines
                .call_outcome(&self.app.metrics, "sip", Outcome::Refused(reason))
        };
        let Some(ticket) = self.app.connections.admit(Door::Sip, from.ip(), &self.app.metrics) else {
            refused("connections");
            return Some(busy(&invite, 503, "Service Unavailable"));
        };
        let contact = match local_towards(&self.endpoint, from).await {
            Ok(contact) => contact,
            Err(why) => {
                tracing::warn!(%from, why, "a SIP call cannot be answered");
                refused("unavailable");
                return Some(invite.response(500, "Server Internal Error", None));
            }
        };
        let (tx, rx) = mpsc::channel(CALL_QUEUE);
        self.calls
            .insert(invite.header("Call-ID").unwrap_or_default().to_string(), tx);
        let app = self.app.clone();
        let call = call::take(app.clone(), self.endpoint.clone(), invite, from, rx, contact);
        tokio::spawn(async move {
            // A call whose task fails is ended as a hang-up ends it (its audio sends the BYE as it drops).
            let outcome = crate::task::caught(call).await.unwrap_or_else(|reason| {
                app.lines.task_failed(&app.metrics, "sip", &reason);
                Outcome::Failed
            });
            app.lines.call_outcome(&app.metrics, "sip", outcome);
            drop(ticket);
        });
        None
    }
}

/// A refusal for want of a place: the caller may try again after [`call::RETRY_AFTER`] seconds.
fn busy(invite: &Message, code: u16, reason: &str) -> Message {
    let mut busy = invite.response(code, reason, None);
    busy.push("Retry-After", call::RETRY_AFTER);
    busy
}

/// Whether `request` belongs to a dialog: its To has the tag the other side was given (OPTIONS may carry
/// one outside any dialog, and is answered all the same).
fn in_dialog(request: &Message) -> bool {
    request.method() != "OPTIONS" && request.header("To").and_then(|to| message::param(to, "tag")).is_some()
}

/// Who may talk to the telephone: the registrar and `SIP_ALLOWED_FROM`.
#[derive(Clone)]
pub struct Allowed {
    registrar: Option<IpAddr>,
    networks: Vec<ipnet::IpNet>,
}

impl Allowed {
    pub fn contains(&self, ip: IpAddr) -> bool {
        self.registrar == Some(ip) || self.networks.iter().any(|net| net.contains(&ip))
    }
}

/// The calls in progress, taken and placed, by Call-ID: the requests of their dialogs go to them.
#[derive(Clone, Default)]
pub struct Calls(Arc<Mutex<HashMap<String, mpsc::Sender<message::Message>>>>);

impl Calls {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, mpsc::Sender<message::Message>>> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A call's requests go to `requests` until its receiver is dropped.
    fn insert(&self, call_id: String, requests: mpsc::Sender<message::Message>) {
        self.lock().insert(call_id, requests);
    }

    fn get(&self, call_id: &str) -> Option<mpsc::Sender<message::Message>> {
        self.lock().get(call_id).filter(|call| !call.is_closed()).cloned()
    }

    /// The calls that still last.
    fn count(&self) -> usize {
        let mut calls = self.lock();
        calls.retain(|_, call| !call.is_closed());
        calls.len()
    }
}

/// The IPv4 address of `host[:port]` (SIP's 5060 by default), or why there is none.
async fn lookup(host_port: &str) -> Result<SocketAddr, String> {
    let with_port = if host_port
        .rsplit_once(':')
        .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
    {
        host_port.to_string()
    } else {
        format!("{host_port}:5060")
    };
    tokio::net::lookup_host(&with_port)
        .await
        .map_err(|e| format!("{host_port}: {e}"))?
        .find(SocketAddr::is_ipv4)
        .ok_or_else(|| format!("{host_port} has no IPv4 address"))
}

/// The gateway's SIP address as `peer` reaches it: the address the system would send to `peer` from.
async fn local_towards(endpoint: &Endpoint, peer: SocketAddr) -> Result<SocketAddr, String> {
    let bound = endpoint.local_addr().map_err(|e| e.to_string())?;
    if !bound.ip().is_unspecified() {
        return Ok(bound);
    }
    let probe = tokio::net::UdpSocket::bind(("0.0.0.0", 0))
        .await
        .map_err(|e| e.to_string())?;
    probe.connect(peer).await.map_err(|e| e.to_string())?;
    Ok(SocketAddr::new(
        probe.local_addr().map_err(|e| e.to_string())?.ip(),
        bound.port(),
    ))
}

/// The account of the settings, with the registrar's address and this telephone's as the registrar reaches
/// it.
async fn account(
    endpoint: &Endpoint,
    registrar: &str,
    user: &str,
    password: &SecretString,
) -> Result<register::Account, String> {
    let address = lookup(registrar).await?;
    // Bound to every address: the one the registrar is reached from is the one it must call.
    let contact = local_towards(endpoint, address).await?;
    Ok(register::Account {
        domain: registrar.to_string(),
        registrar: address,
        user: user.to_string(),
        password: password.clone(),
        contact,
        seen: Default::default(),
    })
}
