//! An incoming call: the INVITE answered with the best codec offered (RFC 3261 §13.3, the 2xx sent again
//! until its ACK), then the call on the voice core as on every phone line, and its end by a BYE either way.

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::sync::mpsc;

use super::dialog::{self, Dialog};
use super::endpoint::{Endpoint, T1, T2, token};
use super::media::{self, Media};
use super::message::{Message, uri_of, user_of};
use super::sdp::Offer;
use crate::app::App;
use crate::phone::call;
use crate::phone::callers::{self, Caller};

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
    let reliable = endpoint.reliable(from);
    let transport = if reliable { ";transport=tcp" } else { "" };
    ok.push("Contact", format!("<sip:{user}@{contact}{transport}>"))
        .push("Allow", super::ALLOW)
        .push("Content-Type", "application/sdp");
    ok.body = offer.answer(local_media, rand::random::<u32>().into()).into_bytes();
    if !acknowledged(&endpoint, &ok, from, &mut requests).await {
        return;
    }
    let Some(dialog) = Dialog::taken(&invite, &ok, from, contact, reliable).await else {
        return tracing::warn!("a SIP call without a usable Contact; ended");
    };
    let number = invite.header("From").map(uri_of).and_then(user_of);
    let caller = match callers::by_number(&app, number).await {
        Ok(caller) => caller,
        Err(err) => return tracing::error!(%err, "the caller of a SIP call could not be read"),
    };
    let transport = if reliable { "tcp" } else { "udp" };
    tracing::info!(
        caller = caller.kind(),
        codec = offer.codec.name(),
        transport,
        "a SIP call"
    );
    let (tx, mut inbound) = mpsc::channel(64);
    // Keys in a call to the assistant mean nothing yet; an alarm call listens for them.
    let (keys, _keys) = mpsc::channel(16);
    let hang_up = dialog.hang_up(endpoint.clone());
    let mut line = Media::start(rtp, rtcp, &offer, from.ip(), tx.clone(), keys.clone(), hang_up);
    let in_dialog = crate::task::AbortOnDrop(tokio::spawn(dialog::serve(endpoint, requests, tx, keys, from)));
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
