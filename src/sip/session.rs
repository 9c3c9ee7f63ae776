//! A call's session while it lasts: the other side's requests in its dialog, and the gateway's own.
//!
//! - A BYE ends the call; an INFO may carry a keypress (RFC 2976); OPTIONS are answered.
//! - A re-INVITE or UPDATE (RFC 3311) may carry a new offer: hold (`sendonly`, `inactive`), resume, a new
//!   address. It is answered 200 with the description that matches, in the call's codec; an offer without it
//!   gets 488 and the call goes on as agreed. A re-INVITE without an offer gets the gateway's in its 200 and
//!   the answer in the ACK. A re-INVITE's 200 is sent again from T1 doubling to T2 until its ACK (over UDP),
//!   and the call ends when none comes within 64·T1.
//! - Session timers (RFC 4028): a call whose INVITE asked for them is refreshed by whichever side is the
//!   refresher, at half the interval; when the other side is and no refresh came by the interval less a third
//!   (at most 32 s), the session has expired and the call ends with a BYE. An interval below [`MIN_SE`]
//!   gets 422.
//! - A request that requires an extension the gateway lacks gets 420 (`100rel` among them: the gateway sends
//!   no reliable provisional responses).

// Numbers from the wire are read here: no arithmetic may overflow or panic, whatever they are.
#![deny(clippy::arithmetic_side_effects)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

use super::dialog::Shared;
use super::endpoint::{Endpoint, T1, T2};
use super::media::Remote;
use super::message::Message;
use super::sdp::Offer;
use crate::app::App;
use crate::metrics::SIP_CALLS_ENDED_TOTAL;
use crate::phone::call::Inbound;
use crate::task::AbortOnDrop;

/// The shortest session interval the gateway takes (RFC 4028 §4: at least 90 s).
pub const MIN_SE: u64 = 90;
/// The longest it agrees to: a longer one asked for is lowered to it in the 2xx (RFC 4028 §9), so no value on
/// the wire sets a timer beyond a few hours.
pub const MAX_SE: u64 = 7200;
/// How long a stopping gateway waits for the answer to a call's BYE.
const BYE_WAIT: Duration = Duration::from_secs(1);
/// The extensions the gateway supports.
pub const SUPPORTED: &str = "timer";

/// The audio as agreed in the call, which new offers change.
pub struct Agreed {
    /// The caller's side, as the media follows it.
    pub remote: watch::Sender<Remote>,
    /// The gateway's audio address.
    pub local: SocketAddr,
    /// The offer the call's codec was taken from.
    pub offer: Offer,
    /// The session and version of the gateway's description (the version rises when it changes).
    pub origin: (u64, u64),
    /// The last description the gateway sent.
    pub sent: String,
    /// The gateway's Contact.
    pub contact: String,
}

impl Agreed {
    /// The gateway's description for `offer`, its version raised when it differs from the last one sent.
    fn answer(&mut self, offer: &Offer) -> String {
        let answer = offer.answer(self.local, self.origin);
        if answer == self.sent {
            return answer;
        }
        self.origin.1 = self.origin.1.wrapping_add(1);
        self.sent = offer.answer(self.local, self.origin);
        self.sent.clone()
    }
}

/// A session timer (RFC 4028) as negotiated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timer {
    pub interval: Duration,
    /// The gateway refreshes (it is the refresher), or expects the other side to.
    pub we_refresh: bool,
    /// The other side takes UPDATE, the lighter refresh.
    pub update: bool,
}

impl Timer {
    /// The timer `request` (an INVITE, UPDATE) asks for: `Ok(None)` when it asks for none, `Err` with the 422
    /// when its interval is too short.
    pub fn asked(request: &Message) -> Result<Option<Self>, Box<Message>> {
        let Some(value) = request.header("Session-Expires").or_else(|| request.header("x")) else {
            return Ok(None);
        };
        let bad = |why: &str| Box::new(request.response(400, &format!("Bad Request ({why})"), None));
        let seconds = seconds_of(value.split(';').next().unwrap_or_default()).ok_or_else(|| bad("Session-Expires"))?;
        if seconds < MIN_SE {
            let mut too_small = request.response(422, "Session Interval Too Small", None);
            too_small.push("Min-SE", MIN_SE.to_string());
            return Err(Box::new(too_small));
        }
        // Never below the other side's Min-SE, never above the gateway's longest.
        let their_min = match request.header("Min-SE") {
            Some(min) => seconds_of(min.split(';').next().unwrap_or_default()).ok_or_else(|| bad("Min-SE"))?,
            None => MIN_SE,
        };
        let refresher = super::message::param(value, "refresher").map(str::to_ascii_lowercase);
        // A side that does not support timers cannot refresh: the gateway does (RFC 4028 §9).
        let supports = extensions(request, "Supported")
            .chain(extensions(request, "Require"))
            .any(|e| e.eq_ignore_ascii_case("timer"));
        let update = request
            .header("Allow")
            .is_some_and(|allow| allow.split(',').any(|m| m.trim().eq_ignore_ascii_case("UPDATE")));
        Ok(Some(Self {
            interval: Duration::from_secs(seconds.max(their_min).min(MAX_SE)),
            we_refresh: !supports || refresher.as_deref() == Some("uas"),
            update,
        }))
    }

    /// The headers of the 2xx that agrees to it.
    pub fn agree(&self, response: &mut Message) {
        let refresher = if self.we_refresh { "uas" } else { "uac" };
        response.push(
            "Session-Expires",
            format!("{};refresher={refresher}", self.interval.as_secs()),
        );
        if !self.we_refresh {
            response.push("Require", "timer");
        }
    }

    /// When the session must next be refreshed by the gateway, or has expired without the other side's
    /// refresh, counted from a refresh at `from`.
    fn due(&self, from: Instant) -> Instant {
        let seconds = self.interval.as_secs();
        let after = if self.we_refresh {
            seconds / 2
        } else {
            seconds.saturating_sub((seconds / 3).min(32))
        };
        crate::clock::after(from, Duration::from_secs(after))
    }
}

/// A delta-seconds value (RFC 3261 §25.1: digits): one too large for 64 bits is the largest, since the
/// gateway only ever lowers it; anything else is no number.
fn seconds_of(value: &str) -> Option<u64> {
    let digits = value.trim();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(digits.parse().unwrap_or(u64::MAX))
}

/// The extensions a header lists.
fn extensions<'a>(request: &'a Message, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    request
        .all(name)
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|e| !e.is_empty())
}

/// The 420 for a request that requires an extension the gateway lacks.
pub fn unsupported(request: &Message) -> Option<Message> {
    let lacking: Vec<&str> = extensions(request, "Require")
        .filter(|e| !SUPPORTED.split(',').any(|s| s.eq_ignore_ascii_case(e)))
        .collect();
    if lacking.is_empty() {
        return None;
    }
    let mut refusal = request.response(420, "Bad Extension", None);
    refusal.push("Unsupported", lacking.join(", "));
    Some(refusal)
}

/// The 200 to OPTIONS: what the gateway takes.
pub fn capabilities(request: &Message) -> Message {
    let mut ok = request.response(200, "OK", None);
    ok.push("Allow", super::ALLOW)
        .push("Accept", "application/sdp")
        .push("Supported", SUPPORTED);
    ok
}

/// A 2xx to a re-INVITE, sent again until its ACK.
struct Unacknowledged {
    cseq: u32,
    response: Message,
    next: Instant,
    interval: Duration,
    give_up: Instant,
    /// The 200 carried the gateway's offer: the answer comes in the ACK.
    offered: bool,
}

/// One call's session.
pub struct Session {
    pub app: Arc<App>,
    pub endpoint: Arc<Endpoint>,
    pub dialog: Shared,
    /// Where the other side's requests came from (their responses go there).
    pub peer: SocketAddr,
    pub inbound: mpsc::Sender<Inbound>,
    pub keys: mpsc::Sender<char>,
    pub audio: Agreed,
    pub timer: Option<Timer>,
    /// The other side's last CSeq in the dialog (its INVITE's, or 0 when the gateway placed the call).
    pub remote_cseq: u32,
}

/// What a step of the session did.
enum Step {
    Goes,
    Ends,
}

impl Session {
    /// Serves the other side's `requests` until the call ends (their BYE, or the channel's end); ends the call
    /// itself with a BYE when its session expired or a 2xx went unacknowledged, and then says why.
    pub async fn serve(mut self, mut requests: mpsc::Receiver<Message>) -> Option<&'static str> {
        let mut unacknowledged: Option<Unacknowledged> = None;
        let mut due = self.timer.map(|t| t.due(Instant::now()));
        // The gateway's own refresh, cancelled with the session.
        let mut refreshing: Option<AbortOnDrop<bool>> = None;
        // Held while the call lasts: the gateway's stop waits for its BYE.
        let mut stop = self.app.stop.hold();
        loop {
            tokio::select! {
                () = crate::task::stopped(&mut stop) => return self.stopping().await,
                request = requests.recv() => {
                    let request = request?;
                    if let Step::Ends = self.take(request, &mut unacknowledged, &mut due).await {
                        return None;
                    }
                }
                () = sleep_until(unacknowledged.as_ref().map(|u| u.next)), if unacknowledged.is_some() => {
                    let Some(pending) = unacknowledged.as_mut() else { continue };
                    if Instant::now() >= pending.give_up {
                        return self.gone("no_ack", "a re-INVITE's 200 was never acknowledged").await;
                    }
                    let _ = self.endpoint.send(&pending.response, self.peer).await;
                    pending.interval = pending.interval.saturating_mul(2).min(T2);
                    pending.next = crate::clock::from_now(pending.interval);
                }
                () = sleep_until(due), if due.is_some() && refreshing.is_none() => {
                    match self.timer {
                        Some(timer) if timer.we_refresh => {
                            let asking = refresh(self.endpoint.clone(), self.dialog.clone(), timer, self.audio.sent.clone());
                            refreshing = Some(AbortOnDrop(tokio::spawn(asking)));
                            due = None;
                        }
                        _ => return self.gone("session_expired", "the session timer ran out without a refresh").await,
                    }
                }
                refreshed = async { (&mut refreshing.as_mut().expect("refreshing").0).await }, if refreshing.is_some() => {
                    refreshing = None;
                    if !refreshed.unwrap_or(false) {
                        return self.gone("session_expired", "the session could not be refreshed").await;
                    }
                    due = self.timer.map(|t| t.due(Instant::now()));
                }
            }
        }
    }

    /// Ends a call whose other side is gone: its BYE, counted, and the call told it is over (the session ends
    /// here, so the call sends no BYE of its own).
    async fn gone(&self, reason: &'static str, why: &str) -> Option<&'static str> {
        tracing::info!(reason, "{why}; the SIP call is ended");
        ended(&self.app, reason);
        self.dialog.hang_up(self.endpoint.clone())();
        let _ = self.inbound.send(Inbound::Hangup).await;
        Some(reason)
    }

    /// Ends the call because the gateway stops: its BYE, sent and answered (or not, within [`BYE_WAIT`])
    /// before the stop goes on, counted, and the call told it is over.
    async fn stopping(&self) -> Option<&'static str> {
        tracing::info!("the gateway stops; the SIP call is ended");
        ended(&self.app, "shutdown");
        let (bye, to) = self.dialog.next("BYE");
        let _ = tokio::time::timeout(BYE_WAIT, self.endpoint.request(&bye, to)).await;
        let _ = self.inbound.send(Inbound::Hangup).await;
        Some("shutdown")
    }

    /// Takes one request of the other side.
    async fn take(
        &mut self,
        request: Message,
        pending: &mut Option<Unacknowledged>,
        due: &mut Option<Instant>,
    ) -> Step {
        let cseq = request.cseq().map_or(0, |(n, _)| n);
        if request.method() == "ACK" {
            if let Some(acked) = pending.take_if(|p| p.cseq == cseq)
                && acked.offered
                && let Ok(answer) = Offer::parse_again(&String::from_utf8_lossy(&request.body), self.audio.offer.codec)
            {
                self.audio.remote.send_replace(Remote::of(&answer, self.peer.ip()));
            }
            return Step::Goes;
        }
        // The first INVITE again (its transaction's memory has passed): nothing new.
        if request.method() == "INVITE" && cseq <= self.remote_cseq {
            return Step::Goes;
        }
        self.remote_cseq = self.remote_cseq.max(cseq);
        let response = match request.method() {
            "BYE" => {
                let _ = self.endpoint.send(&request.response(200, "OK", None), self.peer).await;
                let _ = self.inbound.send(Inbound::Hangup).await;
                return Step::Ends;
            }
            "INFO" => {
                if let Some(key) = key_of(&request) {
                    let _ = self.keys.try_send(key);
                }
                request.response(200, "OK", None)
            }
            "OPTIONS" => capabilities(&request),
            // The INVITE it would cancel was answered: the call goes on.
            "CANCEL" => request.response(200, "OK", None),
            "INVITE" | "UPDATE" => match self.renegotiate(&request, due) {
                Ok(ok) => ok,
                Err(refusal) => *refusal,
            },
            _ => {
                let mut refusal = request.response(405, "Method Not Allowed", None);
                refusal.push("Allow", super::ALLOW);
                refusal
            }
        };
        let _ = self.endpoint.send(&response, self.peer).await;
        let is_ok = response.code() == Some(200);
        if request.method() == "INVITE" && is_ok && !self.endpoint.reliable(self.peer) {
            *pending = Some(Unacknowledged {
                cseq,
                offered: request.body.is_empty(),
                response,
                next: crate::clock::from_now(T1),
                interval: T1,
                give_up: crate::clock::from_now(T1.saturating_mul(64)),
            });
        }
        Step::Goes
    }

    /// The answer to a re-INVITE or UPDATE: its offer taken (or the gateway's made), its session timer
    /// refreshed.
    fn renegotiate(&mut self, request: &Message, due: &mut Option<Instant>) -> Result<Message, Box<Message>> {
        if let Some(refusal) = unsupported(request) {
            return Err(Box::new(refusal));
        }
        let timer = Timer::asked(request)?;
        let mut ok = request.response(200, "OK", None);
        if !request.body.is_empty() {
            let offer =
                Offer::parse_again(&String::from_utf8_lossy(&request.body), self.audio.offer.codec).map_err(|why| {
                    let mut refusal = request.response(488, "Not Acceptable Here", None);
                    refusal.push("Warning", format!("304 voice-gateway \"{why}\""));
                    Box::new(refusal)
                })?;
            let before = self.audio.remote.send_replace(Remote::of(&offer, self.peer.ip()));
            if before.direction != offer.direction || before.media != offer.media {
                tracing::info!(direction = ?offer.direction, media = %offer.media, "a SIP call's audio changed");
            }
            ok.body = self.audio.answer(&offer).into_bytes();
        } else if request.method() == "INVITE" {
            // No offer: the gateway's, as agreed; the answer comes in the ACK.
            ok.body = self.audio.sent.clone().into_bytes();
        }
        if let Some(timer) = timer.or(self.timer) {
            // The side that sent this refresh becomes the refresher unless it asked the gateway to be.
            let timer = Timer {
                update: self.timer.is_some_and(|t| t.update) || timer.update,
                ..timer
            };
            timer.agree(&mut ok);
            self.timer = Some(timer);
            *due = Some(timer.due(Instant::now()));
        }
        ok.push("Contact", self.audio.contact.clone())
            .push("Allow", super::ALLOW)
            .push("Supported", SUPPORTED);
        if !ok.body.is_empty() {
            ok.push("Content-Type", "application/sdp");
        }
        Ok(ok)
    }
}

/// Counts a call the gateway ended because its other side was gone: in the metrics and on the line the
/// admin panel shows.
pub fn ended(app: &App, reason: &str) {
    app.metrics.incr(SIP_CALLS_ENDED_TOTAL, &[("reason", reason)]);
    app.lines.call_ended("sip", reason);
}

/// Completes at `at`, or never.
async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// The gateway's session refresh: an UPDATE where the other side takes it, else a re-INVITE with the
/// description as agreed (acknowledged). Whether the session goes on.
async fn refresh(endpoint: Arc<Endpoint>, dialog: Shared, timer: Timer, description: String) -> bool {
    let method = if timer.update { "UPDATE" } else { "INVITE" };
    let (mut request, to) = dialog.next(method);
    request
        .push("Session-Expires", format!("{};refresher=uac", timer.interval.as_secs()))
        .push("Supported", SUPPORTED);
    if method == "INVITE" {
        request.push("Content-Type", "application/sdp");
        request.body = description.into_bytes();
    }
    let answer = match endpoint.request(&request, to).await {
        Ok(answer) => answer,
        Err(err) => {
            tracing::info!(%err, "a SIP session refresh had no answer");
            return false;
        }
    };
    let code = answer.code().unwrap_or(500);
    if method == "INVITE" && (200..300).contains(&code) {
        let (ack, to) = dialog.ack_of(request.cseq().map_or(0, |(n, _)| n));
        let _ = endpoint.send(&ack, to).await;
    }
    // RFC 4028 §10: a 408 or 481 ends the session; any other answer leaves it as it was.
    !matches!(code, 408 | 481)
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
#[allow(clippy::arithmetic_side_effects)]
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

    fn invite(headers: &[(&str, &str)]) -> Message {
        let mut invite = Message::request("INVITE", "sip:assistant@192.168.178.20");
        invite.push("Via", "SIP/2.0/UDP 192.168.178.1:5060;branch=z9hG4bKx");
        for (name, value) in headers {
            invite.push(name, *value);
        }
        invite
    }

    #[test]
    fn a_session_timer_is_taken_as_asked_and_one_too_short_gets_422() {
        let asked = Timer::asked(&invite(&[
            ("Session-Expires", "1800;refresher=uac"),
            ("Supported", "timer, 100rel"),
            ("Allow", "INVITE, ACK, BYE, UPDATE"),
        ]));
        let timer = asked.unwrap().unwrap();
        assert_eq!(
            (timer.interval.as_secs(), timer.we_refresh, timer.update),
            (1800, false, true)
        );
        let mut ok = Message::request("X", "sip:x");
        timer.agree(&mut ok);
        assert_eq!(ok.header("Session-Expires"), Some("1800;refresher=uac"));
        assert_eq!(ok.header("Require"), Some("timer"));
        // A side without timer support cannot refresh: the gateway does, and requires nothing of it.
        let theirs = Timer::asked(&invite(&[("x", "120")])).unwrap().unwrap();
        assert!(theirs.we_refresh && !theirs.update);
        // It expires a third early (at most 32 s), or is refreshed at half.
        let now = Instant::now();
        assert_eq!(timer.due(now) - now, Duration::from_secs(1800 - 32));
        assert_eq!(theirs.due(now) - now, Duration::from_secs(60));
        assert_eq!(Timer::asked(&invite(&[])).unwrap(), None);
        let refused = Timer::asked(&invite(&[("Session-Expires", "60")])).unwrap_err();
        assert_eq!((refused.code(), refused.header("Min-SE")), (Some(422), Some("90")));
    }

    proptest::proptest! {
        #[test]
        fn any_session_interval_is_refused_or_taken_between_the_bounds_and_never_overflows(
            value in "[0-9]{0,30}|-[0-9]{1,20}|[0-9a-z;=. ]{0,24}",
            min in "[0-9]{0,25}",
            refresher in "|;refresher=uac|;refresher=uas",
        ) {
            let asked = format!("{value}{refresher}");
            let mut headers = vec![("Session-Expires", asked.as_str()), ("Supported", "timer")];
            if !min.is_empty() {
                headers.push(("Min-SE", min.as_str()));
            }
            match Timer::asked(&invite(&headers)) {
                Ok(Some(timer)) => {
                    let seconds = timer.interval.as_secs();
                    proptest::prop_assert!((MIN_SE..=MAX_SE).contains(&seconds), "{asked}: {seconds}");
                    let now = Instant::now();
                    proptest::prop_assert!(timer.due(now) > now);
                }
                Ok(None) => proptest::prop_assert!(false, "asked for one"),
                Err(refusal) => proptest::prop_assert!(matches!(refusal.code(), Some(400 | 422))),
            }
        }
    }

    #[test]
    fn an_extension_the_gateway_lacks_gets_420_and_names_it() {
        assert!(unsupported(&invite(&[("Require", "timer")])).is_none());
        let refused = unsupported(&invite(&[("Require", "100rel, timer"), ("Require", "precondition")])).unwrap();
        assert_eq!(refused.code(), Some(420));
        assert_eq!(refused.header("Unsupported"), Some("100rel, precondition"));
    }
}
