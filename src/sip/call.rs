//! An incoming call: the INVITE answered with the best codec offered (RFC 3261 §13.3, the 2xx sent again
//! until its ACK), then the call on the voice core as on every phone line, and its end by a BYE either way.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;

use super::endpoint::{Endpoint, token};
use super::media::{self, Media};
use super::message::{Message, uri_of, user_of};
use super::sdp::Offer;
use crate::app::App;
use crate::phone::call::{self, Inbound};
use crate::phone::callers::{self, Caller};

/// RFC 3261's T1 and T2, for sending the 2xx again until it is acknowledged.
const T1: Duration = Duration::from_millis(500);
const T2: Duration = Duration::from_secs(4);

/// The dialog's side the gateway keeps: enough to send its BYE.
struct Dialog {
    call_id: String,
    /// The gateway's From (the INVITE's To with the gateway's tag) and the caller's To (the INVITE's From).
    local: String,
    remote: String,
    /// Where in-dialog requests go: the caller's Contact, through the routes the INVITE recorded.
    target: String,
    routes: Vec<String>,
    next_hop: SocketAddr,
    /// The gateway's address as the caller reaches it (its Via).
    contact: SocketAddr,
}

impl Dialog {
    fn bye(&self) -> Message {
        let mut bye = Message::request("BYE", &self.target);
        bye.push(
            "Via",
            format!("SIP/2.0/UDP {};branch={};rport", self.contact, token("z9hG4bK")),
        )
        .push("Max-Forwards", "70")
        .push("From", self.local.clone())
        .push("To", self.remote.clone())
        .push("Call-ID", self.call_id.clone())
        .push("CSeq", "1 BYE")
        .push("User-Agent", super::USER_AGENT);
        for route in &self.routes {
            bye.push("Route", route.clone());
        }
        bye
    }
}

/// Takes the call `invite` (from `from`, whose later requests of the dialog come on `requests`) with the
/// gateway reached at `contact`.
pub async fn take(
    app: Arc<App>,
    endpoint: Arc<Endpoint>,
    invite: Message,
    from: SocketAddr,
    mut requests: mpsc::Receiver<Message>,
    contact: SocketAddr,
) {
    let _ = endpoint.send(&invite.response(100, "Trying", None), from).await;
    let offer = match Offer::parse(&String::from_utf8_lossy(&invite.body)) {
        Ok(offer) => offer,
        Err(why) => {
            let mut refusal = invite.response(488, "Not Acceptable Here", None);
            refusal.push("Warning", format!("304 voice-gateway \"{why}\""));
            return drop(endpoint.send(&refusal, from).await);
        }
    };
    let (rtp, rtcp) = match media::bind(contact.ip(), &app.settings.sip.rtp_ports).await {
        Ok(sockets) => sockets,
        Err(err) => {
            tracing::warn!(%err, "a SIP call found no RTP port; 503");
            return drop(
                endpoint
                    .send(&invite.response(503, "Service Unavailable", None), from)
                    .await,
            );
        }
    };
    let local_media = SocketAddr::new(contact.ip(), rtp.local_addr().map_or(0, |a| a.port()));
    let tag = token("");
    let mut ok = invite.response(200, "OK", Some(&tag));
    let user = invite
        .header("To")
        .map(uri_of)
        .and_then(user_of)
        .unwrap_or("assistant")
        .to_string();
    ok.push("Contact", format!("<sip:{user}@{contact}>"))
        .push("Allow", super::ALLOW)
        .push("Content-Type", "application/sdp");
    ok.body = offer.answer(local_media, rand::random::<u32>().into()).into_bytes();
    if !acknowledged(&endpoint, &ok, from, &mut requests).await {
        return;
    }
    let Some(dialog) = dialog(&invite, &ok, from, contact).await else {
        return tracing::warn!("a SIP call without a usable Contact; ended");
    };
    let number = invite.header("From").map(uri_of).and_then(user_of);
    let caller = match callers::by_number(&app, number).await {
        Ok(caller) => caller,
        Err(err) => return tracing::error!(%err, "the caller of a SIP call could not be read"),
    };
    tracing::info!(caller = caller.kind(), codec = offer.codec.name(), "a SIP call");
    let (tx, mut inbound) = mpsc::channel(64);
    let (keys, _keys) = mpsc::channel(16);
    let hang_up: Box<dyn FnOnce() + Send + Sync> = {
        let endpoint = endpoint.clone();
        Box::new(move || {
            tokio::spawn(async move {
                if let Err(err) = endpoint.request(&dialog.bye(), dialog.next_hop).await {
                    tracing::debug!(%err, "the BYE of a SIP call had no answer");
                }
            });
        })
    };
    let mut line = Media::start(rtp, rtcp, &offer, from.ip(), tx.clone(), keys, hang_up);
    let in_dialog = crate::AbortOnDrop(tokio::spawn(serve_dialog(endpoint, requests, tx, from)));
    match caller {
        Caller::Refused => call::refuse(&app, &mut line, &mut inbound, "sip").await,
        Caller::Known(user) | Caller::Guest(user) => {
            crate::phone::answer(app, user, "sip", &mut inbound, &mut line).await;
        }
    }
    // A caller who hung up first is not sent a BYE.
    if !in_dialog.0.is_finished() {
        crate::phone::call::Line::hang_up(&mut line).await;
    }
}

/// Sends the 2xx until its ACK (or the caller's BYE or CANCEL) comes; `false` when the call ended first.
async fn acknowledged(
    endpoint: &Endpoint,
    ok: &Message,
    to: SocketAddr,
    requests: &mut mpsc::Receiver<Message>,
) -> bool {
    let mut interval = T1;
    let deadline = tokio::time::Instant::now() + T1 * 64;
    loop {
        if endpoint.send(ok, to).await.is_err() {
            return false;
        }
        let wait = tokio::time::sleep(interval);
        tokio::pin!(wait);
        loop {
            tokio::select! {
                () = &mut wait => break,
                request = requests.recv() => match request.as_ref().map(Message::method) {
                    Some("ACK") => return true,
                    Some("BYE" | "CANCEL") => {
                        let request = request.unwrap_or_else(|| ok.clone());
                        let _ = endpoint.send(&request.response(200, "OK", None), to).await;
                        return false;
                    }
                    Some(_) => {}
                    None => return false,
                },
            }
        }
        if tokio::time::Instant::now() >= deadline {
            tracing::warn!("a SIP call's answer was never acknowledged; ended");
            return false;
        }
        interval = (interval * 2).min(T2);
    }
}

/// The dialog the INVITE and its 2xx made.
async fn dialog(invite: &Message, ok: &Message, from: SocketAddr, contact: SocketAddr) -> Option<Dialog> {
    let target = uri_of(invite.header("Contact")?).to_string();
    let routes: Vec<String> = invite
        .all("Record-Route")
        .flat_map(|v| v.split(','))
        .map(|r| r.trim().to_string())
        .collect();
    // Loose routing: the first route is the next hop; without routes, the Contact itself.
    let hop = routes.first().map_or(target.as_str(), |r| uri_of(r));
    let next_hop = resolve(hop).await.unwrap_or(from);
    Some(Dialog {
        call_id: invite.header("Call-ID")?.to_string(),
        local: ok.header("To")?.to_string(),
        remote: invite.header("From")?.to_string(),
        target,
        routes,
        next_hop,
        contact,
    })
}

/// The address of a SIP URI's host and port (5060 by default).
async fn resolve(uri: &str) -> Option<SocketAddr> {
    let rest = uri.strip_prefix("sip:")?;
    let host_port = rest.split_once('@').map_or(rest, |(_, h)| h);
    super::lookup(host_port.split(';').next()?).await.ok()
}

/// The caller's requests in the call: a BYE ends it, INFO and a re-INVITE are taken as they are.
async fn serve_dialog(
    endpoint: Arc<Endpoint>,
    mut requests: mpsc::Receiver<Message>,
    inbound: mpsc::Sender<Inbound>,
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
            "INFO" | "OPTIONS" => request.response(200, "OK", None),
            // Hold and codec changes are not followed: the call goes on as agreed.
            "INVITE" => request.response(488, "Not Acceptable Here", None),
            _ => request.response(405, "Method Not Allowed", None),
        };
        let _ = endpoint.send(&response, to).await;
    }
}
