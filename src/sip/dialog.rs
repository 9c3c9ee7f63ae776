//! A dialog (RFC 3261 §12): what the gateway keeps of a call to send its own requests in it (the ACK of the
//! 2xx it was answered with, a session refresh, its BYE), whether it took the call or placed it. The other
//! side's requests in it are [`super::session`]'s.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use super::endpoint::{Endpoint, token};
use super::message::{Message, uri_of};

/// The gateway's side of a dialog.
pub struct Dialog {
    call_id: String,
    /// The gateway's From (with its tag) and the other side's To (with theirs).
    local: String,
    remote: String,
    /// Where requests in the dialog go: the other side's Contact, through the routes it recorded.
    target: String,
    routes: Vec<String>,
    next_hop: SocketAddr,
    /// The gateway's address as the other side reaches it (its Via).
    contact: SocketAddr,
    /// The last CSeq the gateway used in the dialog.
    cseq: u32,
    /// `UDP`, or `TCP` for a call that came over a connection (its requests go back on it).
    transport: &'static str,
}

impl Dialog {
    /// The dialog of a call the gateway took: `invite` came from `from` (over a connection when `reliable`),
    /// `ok` answered it.
    pub async fn taken(
        invite: &Message,
        ok: &Message,
        from: SocketAddr,
        contact: SocketAddr,
        reliable: bool,
    ) -> Option<Self> {
        let parts = Parts {
            local: ok.header("To")?,
            remote: invite.header("From")?,
            target: uri_of(invite.header("Contact")?),
            routes: record_routes(invite).collect(),
        };
        let mut dialog = Self::new(invite, parts, from, contact, 0).await?;
        if reliable {
            // The connection the call came on carries the dialog's requests (RFC 5923's reuse, as routers do).
            (dialog.next_hop, dialog.transport) = (from, "TCP");
        }
        Some(dialog)
    }

    /// The dialog of a call the gateway placed: `invite` (CSeq `cseq`) went to `registrar`, `ok` answered it.
    pub async fn placed(
        invite: &Message,
        ok: &Message,
        registrar: SocketAddr,
        contact: SocketAddr,
        cseq: u32,
    ) -> Option<Self> {
        let mut routes: Vec<String> = record_routes(ok).collect();
        // The caller's route set is the Record-Route of the answer, reversed.
        routes.reverse();
        let parts = Parts {
            local: invite.header("From")?,
            remote: ok.header("To")?,
            target: uri_of(ok.header("Contact")?),
            routes,
        };
        Self::new(invite, parts, registrar, contact, cseq).await
    }

    async fn new(
        invite: &Message,
        parts: Parts<'_>,
        fallback: SocketAddr,
        contact: SocketAddr,
        cseq: u32,
    ) -> Option<Self> {
        // Loose routing: the first route is the next hop; without routes, the Contact itself.
        let hop = parts.routes.first().map_or(parts.target, |r| uri_of(r));
        let next_hop = resolve(hop).await.unwrap_or(fallback);
        Some(Self {
            call_id: invite.header("Call-ID")?.to_string(),
            local: parts.local.to_string(),
            remote: parts.remote.to_string(),
            target: parts.target.to_string(),
            routes: parts.routes,
            next_hop,
            contact,
            cseq,
            transport: "UDP",
        })
    }

    /// Where the dialog's requests go.
    pub fn next_hop(&self) -> SocketAddr {
        self.next_hop
    }

    /// The ACK of the 2xx that answered the gateway's INVITE (its CSeq number, a transaction of its own).
    pub fn ack(&self) -> Message {
        self.request("ACK", self.cseq)
    }

    /// The gateway's next request in the dialog (its CSeq one higher).
    pub fn next(&mut self, method: &str) -> Message {
        self.cseq += 1;
        self.request(method, self.cseq)
    }

    /// Ends the call with a BYE, when called (a line's hang-up).
    pub fn hang_up(self, endpoint: Arc<Endpoint>) -> Box<dyn FnOnce() + Send + Sync> {
        Shared::new(self).hang_up(endpoint)
    }

    /// The ACK of the 2xx to the gateway's request `cseq` in the dialog (a re-INVITE of its own).
    pub fn ack_of(&self, cseq: u32) -> Message {
        self.request("ACK", cseq)
    }

    fn request(&self, method: &str, cseq: u32) -> Message {
        let mut request = Message::request(method, &self.target);
        request
            .push(
                "Via",
                format!(
                    "SIP/2.0/{} {};branch={};rport",
                    self.transport,
                    self.contact,
                    token("z9hG4bK")
                ),
            )
            .push("Max-Forwards", "70")
            .push("From", self.local.clone())
            .push("To", self.remote.clone())
            .push("Call-ID", self.call_id.clone())
            .push("CSeq", format!("{cseq} {method}"))
            .push("User-Agent", super::USER_AGENT);
        for route in &self.routes {
            request.push("Route", route.clone());
        }
        request
    }
}

/// What a dialog is made of, from the INVITE and its answer.
struct Parts<'a> {
    local: &'a str,
    remote: &'a str,
    target: &'a str,
    routes: Vec<String>,
}

fn record_routes(message: &Message) -> impl Iterator<Item = String> + '_ {
    message
        .all("Record-Route")
        .flat_map(|v| v.split(','))
        .map(|r| r.trim().to_string())
}

/// The address of a SIP URI's host and port (5060 by default).
async fn resolve(uri: &str) -> Option<SocketAddr> {
    let rest = uri.strip_prefix("sip:")?;
    let host_port = rest.split_once('@').map_or(rest, |(_, h)| h);
    super::lookup(host_port.split(';').next()?).await.ok()
}

/// A dialog its call and the server of its requests share: each of the gateway's requests takes the next
/// CSeq, whoever sends it.
#[derive(Clone)]
pub struct Shared(Arc<Mutex<Dialog>>);

impl Shared {
    pub fn new(dialog: Dialog) -> Self {
        Self(Arc::new(Mutex::new(dialog)))
    }

    /// The gateway's next request in the dialog, and where it goes.
    pub fn next(&self, method: &str) -> (Message, SocketAddr) {
        let mut dialog = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        (dialog.next(method), dialog.next_hop)
    }

    /// The ACK of the 2xx to the gateway's request `cseq`, and where it goes.
    pub fn ack_of(&self, cseq: u32) -> (Message, SocketAddr) {
        let dialog = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        (dialog.ack_of(cseq), dialog.next_hop)
    }

    /// Ends the call with a BYE, when called (a line's hang-up).
    pub fn hang_up(&self, endpoint: Arc<Endpoint>) -> Box<dyn FnOnce() + Send + Sync> {
        let dialog = self.clone();
        Box::new(move || {
            let (bye, to) = dialog.next("BYE");
            tokio::spawn(async move {
                if let Err(err) = endpoint.request(&bye, to).await {
                    tracing::debug!(%err, "the BYE of a SIP call had no answer");
                }
            });
        })
    }
}
