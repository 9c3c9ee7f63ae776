//! A dialog (RFC 3261 §12): what the gateway keeps of a call to send its own requests in it (the ACK of the
//! 2xx it was answered with, its BYE), whether it took the call or placed it, and the other side's requests
//! served while the call lasts (a BYE ends it, an INFO may carry a keypress).

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::sync::mpsc;

use super::endpoint::{Endpoint, token};
use super::message::{Message, uri_of};
use crate::phone::call::Inbound;

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

    /// The BYE that ends the call.
    pub fn bye(&mut self) -> Message {
        self.cseq += 1;
        self.request("BYE", self.cseq)
    }

    /// Ends the call with a BYE, when called (a line's hang-up).
    pub fn hang_up(mut self, endpoint: Arc<Endpoint>) -> Box<dyn FnOnce() + Send + Sync> {
        Box::new(move || {
            tokio::spawn(async move {
                if let Err(err) = endpoint.request(&self.bye(), self.next_hop).await {
                    tracing::debug!(%err, "the BYE of a SIP call had no answer");
                }
            });
        })
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

/// The other side's requests in the call: a BYE ends it, an INFO is taken (and its keypress, RFC 2976 as
/// telephones send it, goes to `keys`), a re-INVITE is declined.
pub async fn serve(
    endpoint: Arc<Endpoint>,
    mut requests: mpsc::Receiver<Message>,
    inbound: mpsc::Sender<Inbound>,
    keys: mpsc::Sender<char>,
    to: SocketAddr,
) {
    while let Some(request) = requests.recv().await {
        let response = match request.method() {
            "ACK" => continue,
            "BYE" => {
                let _ = endpoint.send(&request.response(200, "OK", None), to).await;
                let _ = inbound.send(Inbound::Hangup).await;
                return;
            }
            "INFO" => {
                if let Some(key) = key_of(&request) {
                    let _ = keys.try_send(key);
                }
                request.response(200, "OK", None)
            }
            "OPTIONS" => request.response(200, "OK", None),
            // Hold and codec changes are not followed: the call goes on as agreed.
            "INVITE" => request.response(488, "Not Acceptable Here", None),
            _ => request.response(405, "Method Not Allowed", None),
        };
        let _ = endpoint.send(&response, to).await;
    }
}

/// The key an INFO carries: `application/dtmf-relay` (`Signal=1`) or `application/dtmf` (`1`).
fn key_of(info: &Message) -> Option<char> {
    let kind = info
        .header("Content-Type")?
        .split(';')
        .next()?
        .trim()
        .to_ascii_lowercase();
    let body = String::from_utf8_lossy(&info.body);
    let signal = match kind.as_str() {
        "application/dtmf-relay" => body
            .lines()
            .find_map(|l| {
                l.split_once('=')
                    .filter(|(k, _)| k.trim().eq_ignore_ascii_case("Signal"))
            })
            .map(|(_, v)| v.trim().to_string())?,
        "application/dtmf" => body.trim().to_string(),
        _ => return None,
    };
    let mut chars = signal.chars();
    match (chars.next(), chars.next()) {
        (Some(key), None) if key.is_ascii_digit() || matches!(key, '*' | '#' | 'A'..='D') => Some(key),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(kind: &str, body: &str) -> Message {
        let mut info = Message::request("INFO", "sip:620@192.168.178.20");
        info.push("Content-Type", kind);
        info.body = body.as_bytes().to_vec();
        info
    }

    #[test]
    fn an_info_carries_a_keypress_in_either_form() {
        assert_eq!(
            key_of(&info("application/dtmf-relay", "Signal=1\r\nDuration=160\r\n")),
            Some('1')
        );
        assert_eq!(key_of(&info("application/dtmf-relay", "Signal= #\r\n")), Some('#'));
        assert_eq!(key_of(&info("application/dtmf", "1")), Some('1'));
        assert_eq!(key_of(&info("application/dtmf-relay", "Signal=11\r\n")), None);
        assert_eq!(key_of(&info("text/plain", "1")), None);
    }
}
