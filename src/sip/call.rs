//! An incoming call: the INVITE answered with the best codec offered (RFC 3261 §13.3, the 2xx sent again
//! until its ACK, and the call ended with a BYE when none comes), then the call on the voice core as on every
//! phone line while [`super::session`] serves its dialog, and its end by a BYE either way.

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::sync::{mpsc, watch};

use super::dialog::{Dialog, Shared};
use super::endpoint::{Endpoint, T1, T2, token};
use super::media::{self, Media, Remote};
use super::message::{Message, uri_of, user_of};
use super::sdp::Offer;
use super::session::{self, Agreed, Session, Timer};
use crate::app::App;
use crate::lines::Outcome;
use crate::listen::budget::Seat;
use crate::phone::call;
use crate::phone::callers::{self, Caller};

/// Takes the call `invite` (from `from`, whose later requests of the dialog come on `requests`) with the
/// gateway reached at `contact`: how the call ended. A call the gateway cannot take is refused before it is
/// answered.
pub async fn take(
    app: Arc<App>,
    endpoint: Arc<Endpoint>,
    invite: Message,
    from: SocketAddr,
    mut requests: mpsc::Receiver<Message>,
    contact: SocketAddr,
) -> Outcome {
    let _ = endpoint.send(&invite.response(100, "Trying", None), from).await;
    let refused = |(refusal, reason): Refusal| {
        let endpoint = endpoint.clone();
        async move {
            let _ = endpoint.send(&refusal, from).await;
            Outcome::Refused(reason)
        }
    };
    let (timer, offer) = match acceptable(&invite) {
        Ok(acceptable) => acceptable,
        Err(refusal) => return refused(refusal).await,
    };
    let (caller, seat) = match seated(&app, &invite).await {
        Ok(seated) => seated,
        Err(refusal) => return refused(refusal).await,
    };
    let Some(sockets) = ports(&app, &endpoint, &invite, from, contact).await else {
        return Outcome::Refused("no_port");
    };
    let local_media = SocketAddr::new(contact.ip(), sockets.0.local_addr().map_or(0, |a| a.port()));
    let reliable = endpoint.reliable(from);
    let answer = Answer::of(&invite, &offer, (contact, local_media, reliable), timer.as_ref());
    let Some(dialog) = Dialog::taken(&invite, &answer.ok, from, contact, reliable).await else {
        tracing::warn!("a SIP call without a usable Contact; refused");
        let refusal = invite.response(400, "Bad Request (no usable Contact)", None);
        return refused((Box::new(refusal), "bad_request")).await;
    };
    let dialog = Shared::new(dialog);
    match acknowledged(&endpoint, &answer.ok, from, &mut requests).await {
        Acknowledged::Yes => {}
        Acknowledged::Ended => return Outcome::HungUp,
        Acknowledged::Never => {
            tracing::warn!("a SIP call's answer was never acknowledged; ended with a BYE");
            session::ended(&app, "no_ack");
            dialog.hang_up(endpoint)();
            return Outcome::Ended("no_ack");
        }
    }
    tracing::info!(
        caller = caller.kind(),
        codec = offer.codec.name(),
        transport = if reliable { "tcp" } else { "udp" },
        "a SIP call"
    );
    let taken = Taken {
        endpoint,
        dialog,
        from,
        sockets,
        offer,
        local_media,
        answer,
        timer,
        remote_cseq: invite.cseq().map_or(0, |(n, _)| n),
        number: invite
            .header("From")
            .map(uri_of)
            .and_then(user_of)
            .unwrap_or_default()
            .to_string(),
    };
    converse(app, taken, (caller, seat), requests).await
}

/// A refusal to send, and its reason for the count.
type Refusal = (Box<Message>, &'static str);

/// How long a caller turned away for want of a place is asked to wait (seconds, RFC 3261 §20.33).
pub const RETRY_AFTER: &str = "60";

/// The INVITE's session timer and offer, when the gateway can take them; else the refusal: 420 for an
/// extension it lacks, 400 for a session interval that is no number, 422 for one too short, 488 for an offer
/// it cannot answer.
fn acceptable(invite: &Message) -> Result<(Option<Timer>, Offer), Refusal> {
    if let Some(refusal) = session::unsupported(invite) {
        return Err((Box::new(refusal), "extension"));
    }
    let timer = Timer::asked(invite).map_err(|refusal| {
        let reason = if refusal.code() == Some(422) {
            "interval"
        } else {
            "bad_request"
        };
        (refusal, reason)
    })?;
    match Offer::parse(&String::from_utf8_lossy(&invite.body)) {
        Ok(offer) => Ok((timer, offer)),
        Err(why) => {
            let mut refusal = invite.response(488, "Not Acceptable Here", None);
            refusal.push("Warning", format!("304 voice-gateway \"{why}\""));
            Err((Box::new(refusal), "offer"))
        }
    }
}

/// Whose call it is and, for a caller who may call, their place among the voice connections: a call beyond
/// the limits gets 486 with `Retry-After` before anything is answered.
async fn seated(app: &App, invite: &Message) -> Result<(Caller, Option<Seat>), Refusal> {
    let number = invite.header("From").map(uri_of).and_then(user_of);
    let caller = callers::by_number(app, number).await.map_err(|err| {
        tracing::error!(%err, "the caller of a SIP call could not be read");
        (Box::new(super::busy(invite, 503, "Service Unavailable")), "unavailable")
    })?;
    let seat = match &caller {
        Caller::Refused => None,
        Caller::Known(user) | Caller::Guest(user) => {
            let seat = crate::phone::seat(app, user, "sip")
                .map_err(|_| (Box::new(super::busy(invite, 486, "Busy Here")), "voice_limit"))?;
            Some(seat)
        }
    };
    Ok((caller, seat))
}

/// The call's RTP and RTCP sockets; none when the range is used up (503 sent).
async fn ports(
    app: &App,
    endpoint: &Endpoint,
    invite: &Message,
    from: SocketAddr,
    contact: SocketAddr,
) -> Option<(tokio::net::UdpSocket, tokio::net::UdpSocket)> {
    match media::bind(contact.ip(), &app.settings.sip.rtp_ports).await {
        Ok(sockets) => Some(sockets),
        Err(err) => {
            // Callers can repeat this as fast as they can send INVITEs: one line a minute, with a count.
            static NO_PORT: crate::logging::Repeated = crate::logging::Repeated::new();
            if let Some(left_out) = NO_PORT.next() {
                tracing::warn!(%err, left_out, "a SIP call found no RTP port; 503");
            }
            let _ = endpoint
                .send(&super::busy(invite, 503, "Service Unavailable"), from)
                .await;
            None
        }
    }
}

/// The 200 OK that takes the call, with what it agreed.
struct Answer {
    ok: Message,
    /// The SDP answer sent, its origin and the gateway's Contact.
    description: String,
    origin: (u64, u64),
    contact: String,
}

impl Answer {
    /// The answer to `invite` with `offer`'s best codec, the gateway reached at `contact` with its media at
    /// `local_media` (`reliable`: over TCP), agreeing to `timer`.
    fn of(
        invite: &Message,
        offer: &Offer,
        (contact, local_media, reliable): (SocketAddr, SocketAddr, bool),
        timer: Option<&Timer>,
    ) -> Self {
        let mut ok = invite.response(200, "OK", Some(&token("")));
        let user = invite
            .header("To")
            .map(uri_of)
            .and_then(user_of)
            .unwrap_or("assistant")
            .to_string();
        let transport = if reliable { ";transport=tcp" } else { "" };
        let own_contact = format!("<sip:{user}@{contact}{transport}>");
        let origin: (u64, u64) = (rand::random::<u32>().into(), 1);
        let description = offer.answer(local_media, origin);
        ok.push("Contact", own_contact.clone())
            .push("Allow", super::ALLOW)
            .push("Supported", session::SUPPORTED)
            .push("Content-Type", "application/sdp");
        if let Some(timer) = timer {
            timer.agree(&mut ok);
        }
        ok.body = description.clone().into_bytes();
        Self {
            ok,
            description,
            origin,
            contact: own_contact,
        }
    }
}

/// A call taken and acknowledged, about to be talked in.
struct Taken {
    endpoint: Arc<Endpoint>,
    dialog: Shared,
    from: SocketAddr,
    sockets: (tokio::net::UdpSocket, tokio::net::UdpSocket),
    offer: Offer,
    local_media: SocketAddr,
    answer: Answer,
    timer: Option<Timer>,
    remote_cseq: u32,
    /// The calling number (the From URI's user part; empty when there is none).
    number: String,
}

/// The call on the voice core (or refused, for a caller who may not call) while its dialog is served; its
/// end by a BYE when the gateway ends it, and how it ended.
async fn converse(
    app: Arc<App>,
    taken: Taken,
    (caller, seat): (Caller, Option<Seat>),
    requests: mpsc::Receiver<Message>,
) -> Outcome {
    let (tx, mut inbound) = mpsc::channel(64);
    let number = taken.number.clone();
    let (keys, _keys) = keys_as_input(tx.clone());
    let hang_up = taken.dialog.hang_up(taken.endpoint.clone());
    let (remote, heard) = watch::channel(Remote::of(&taken.offer, taken.from.ip()));
    let timeout = app.settings.sip.rtp_timeout;
    let mut line = Media::start(
        taken.sockets,
        &taken.offer,
        heard,
        timeout,
        tx.clone(),
        keys.clone(),
        hang_up,
    );
    let session = Session {
        app: app.clone(),
        endpoint: taken.endpoint,
        dialog: taken.dialog,
        peer: taken.from,
        inbound: tx,
        keys,
        audio: Agreed {
            remote,
            local: taken.local_media,
            offer: taken.offer,
            origin: taken.answer.origin,
            sent: taken.answer.description,
            contact: taken.answer.contact,
        },
        timer: taken.timer,
        remote_cseq: taken.remote_cseq,
    };
    let mut in_dialog = crate::task::AbortOnDrop(tokio::spawn(serve_or_hang_up(app.clone(), session, requests)));
    let outcome = match (caller, seat) {
        (Caller::Known(user) | Caller::Guest(user), Some(seat)) => {
            crate::phone::answer(app.clone(), (user, seat, number), "sip", &mut inbound, &mut line).await
        }
        _ => call::refuse(&app, &mut line, &mut inbound).await,
    };
    let outcome = if line.vanished() {
        session::ended(&app, "no_audio");
        Outcome::Ended("no_audio")
    } else {
        outcome
    };
    if !in_dialog.0.is_finished() {
        crate::phone::call::Line::hang_up(&mut line).await;
        return outcome;
    }
    // A caller who hung up first is not sent a BYE; a session the gateway ended says why.
    match (&mut in_dialog.0).await {
        Ok(Some(ended)) => ended,
        _ => outcome,
    }
}

/// Serves the call's dialog; when that fails, the call is ended as the gateway ends it (a BYE, the call told)
/// and the failure counted.
async fn serve_or_hang_up(app: Arc<App>, session: Session, requests: mpsc::Receiver<Message>) -> Option<Outcome> {
    let (dialog, endpoint, inbound) = (
        session.dialog.clone(),
        session.endpoint.clone(),
        session.inbound.clone(),
    );
    match crate::task::caught(session.serve(requests)).await {
        Ok(ended) => ended.map(Outcome::Ended),
        Err(reason) => {
            app.lines.task_failed(&app.metrics, "sip", &reason);
            dialog.hang_up(endpoint)();
            let _ = inbound.send(call::Inbound::Hangup).await;
            Some(Outcome::Failed)
        }
    }
}

/// Keys (RFC 4733 events and SIP INFO) reach a call with the assistant as its input (the help key): the sender
/// the media and the dialog press them into, and the task that forwards them while the call lasts.
fn keys_as_input(input: mpsc::Sender<call::Inbound>) -> (mpsc::Sender<char>, crate::task::AbortOnDrop<()>) {
    let (keys, mut pressed) = mpsc::channel(16);
    let forward = crate::task::AbortOnDrop(tokio::spawn(async move {
        while let Some(key) = pressed.recv().await {
            if input.send(call::Inbound::Key(key)).await.is_err() {
                return;
            }
        }
    }));
    (keys, forward)
}

/// How the wait for the ACK ended.
enum Acknowledged {
    Yes,
    /// The caller hung up first (BYE).
    Ended,
    /// No ACK within 64·T1.
    Never,
}

/// Sends the 2xx until its ACK comes (over a connection, once), T1 doubling to T2, for 64·T1 at most. A
/// CANCEL that crossed the 2xx is answered 200 and changes nothing (RFC 3261 §9.2); the INVITE again gets
/// the 2xx again.
async fn acknowledged(
    endpoint: &Endpoint,
    ok: &Message,
    to: SocketAddr,
    requests: &mut mpsc::Receiver<Message>,
) -> Acknowledged {
    let mut interval = T1;
    let deadline = crate::clock::from_now(T1 * 64);
    let reliable = endpoint.reliable(to);
    loop {
        if endpoint.send(ok, to).await.is_err() {
            return Acknowledged::Ended;
        }
        let next = if reliable {
            deadline
        } else {
            crate::clock::from_now(interval).min(deadline)
        };
        loop {
            let request = tokio::select! {
                () = tokio::time::sleep_until(next) => break,
                request = requests.recv() => request,
            };
            let Some(request) = request else {
                return Acknowledged::Ended;
            };
            match request.method() {
                "ACK" => return Acknowledged::Yes,
                "BYE" => {
                    let _ = endpoint.send(&request.response(200, "OK", None), to).await;
                    return Acknowledged::Ended;
                }
                "CANCEL" => drop(endpoint.send(&request.response(200, "OK", None), to).await),
                "INVITE" => drop(endpoint.send(ok, to).await),
                _ => {}
            }
        }
        if tokio::time::Instant::now() >= deadline {
            return Acknowledged::Never;
        }
        interval = (interval * 2).min(T2);
    }
}
