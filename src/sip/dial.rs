//! A call the gateway places through the registrar (an alarm call). The INVITE is an RFC 3261 §17.1.1 client
//! transaction: it is sent again from T1 until the first answer, and then it rings until the final one. When
//! the registrar asks for credentials (401, 407), the INVITE is sent again with them. After the ringing time
//! a CANCEL gives it up. Every final answer is told as it is: busy, rejected, not answered, or the dialog of
//! a callee who picked up.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use super::dialog::Dialog;
use super::digest::Asked;
use super::endpoint::{Endpoint, Responses, T1, T2, token};
use super::message::Message;
use super::register::Account;
use super::sdp::Offer;

/// A callee who picked up.
pub struct Answered {
    pub dialog: Dialog,
    /// Their audio: where, and in which codec.
    pub answer: Offer,
    /// The INVITE's answers while the call lasts: a 2xx that comes again lost its ACK and is acknowledged
    /// again.
    pub responses: Responses,
}

/// Calls `number` (as the registrar routes it) with the offer `sdp`, ringing for at most `ring`.
pub async fn call(
    endpoint: &Arc<Endpoint>,
    account: &Account,
    number: &str,
    call_id: &str,
    sdp: &str,
    ring: Duration,
) -> Result<Answered, String> {
    let uri = format!("sip:{number}@{}", account.domain);
    let tag = token("");
    let mut credentials: Option<Asked> = None;
    for cseq in 1..=3 {
        let mut invite = account.request("INVITE", &uri, &format!("<{uri}>"), (call_id, &tag, cseq));
        invite.push("Content-Type", "application/sdp");
        if let Some(asked) = &credentials {
            asked.answer(&mut invite, &account.user, &account.password, "INVITE", &uri);
        }
        invite.body = sdp.as_bytes().to_vec();
        let mut responses = endpoint.responses(&invite);
        let response = ringing(endpoint, &invite, &mut responses, account, ring).await?;
        let status = response.status();
        match response.code().unwrap_or(500) {
            200..=299 => return answered(endpoint, account, &invite, &response, cseq, responses).await,
            code => {
                // A final answer that is not a 2xx is acknowledged inside its transaction.
                let ack = ack_of_failure(&invite, &response);
                let _ = endpoint.send(&ack, account.registrar).await;
                if !endpoint.reliable(account.registrar) {
                    tokio::spawn(absorb(endpoint.clone(), responses, ack, account.registrar));
                }
                match code {
                    401 | 407 => credentials = Some(Asked::of(&response, &status, credentials.is_some())?),
                    486 | 600 => return Err(format!("busy ({status})")),
                    603 => return Err(format!("declined ({status})")),
                    // 487: the gateway's own CANCEL ended the ringing.
                    487 => return Err(format!("no answer within {} s", ring.as_secs())),
                    408 | 480 => return Err(format!("no answer ({status})")),
                    _ => return Err(status),
                }
            }
        }
    }
    Err("the registrar kept asking for credentials".into())
}

/// Sends the INVITE until the first answer, then waits for the final one while it rings. After `ring`, the
/// INVITE is cancelled and its final answer (487, or a 2xx of a callee who picked up just then) awaited.
async fn ringing(
    endpoint: &Arc<Endpoint>,
    invite: &Message,
    responses: &mut Responses,
    account: &Account,
    ring: Duration,
) -> Result<Message, String> {
    let to = account.registrar;
    let bytes = invite.to_bytes();
    let started = Instant::now();
    let (silent_until, ring_until) = (
        crate::clock::after(started, T1 * 64),
        crate::clock::after(started, ring),
    );
    let mut interval = T1;
    let mut heard = false;
    loop {
        endpoint
            .send_bytes(&bytes, to)
            .await
            .map_err(|e| format!("sending to {to}: {e}"))?;
        let resend = crate::clock::from_now(interval);
        loop {
            let wake = if heard {
                ring_until
            } else {
                resend.min(silent_until).min(ring_until)
            };
            match tokio::time::timeout_at(wake, responses.recv()).await {
                Ok(Some(response)) if response.code().is_some_and(|c| c >= 200) => return Ok(response),
                Ok(Some(_provisional)) => heard = true,
                Ok(None) => return Err("the SIP socket closed".into()),
                Err(_) if Instant::now() >= ring_until && heard => {
                    return cancel(endpoint, invite, responses, to).await;
                }
                Err(_) if Instant::now() >= silent_until.min(ring_until) => {
                    return Err(format!("no answer from the registrar {to}"));
                }
                Err(_) => break,
            }
        }
        interval = (interval * 2).min(T2);
    }
}

/// Timer D (RFC 3261 §17.1.1.2): for 32 s after a final answer that is not a 2xx, the same answer sent again
/// (its ACK was lost) is acknowledged again and goes no further.
async fn absorb(endpoint: Arc<Endpoint>, mut responses: Responses, ack: Message, to: std::net::SocketAddr) {
    let again = async {
        while let Some(response) = responses.recv().await {
            if response.code().is_some_and(|c| c >= 300) {
                let _ = endpoint.send(&ack, to).await;
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(32), again).await;
}

/// Cancels a ringing INVITE and waits for its final answer.
async fn cancel(
    endpoint: &Arc<Endpoint>,
    invite: &Message,
    responses: &mut Responses,
    to: std::net::SocketAddr,
) -> Result<Message, String> {
    let cancel = in_transaction(invite, "CANCEL", invite.header("To"));
    let final_answer = async {
        loop {
            match responses.recv().await {
                Some(response) if response.code().is_some_and(|c| c >= 200) => return Some(response),
                Some(_) => {}
                None => return None,
            }
        }
    };
    let (_, answer) = tokio::join!(
        endpoint.request(&cancel, to),
        tokio::time::timeout(T1 * 64, final_answer)
    );
    answer
        .ok()
        .flatten()
        .ok_or_else(|| format!("the cancelled call was never ended by {to}"))
}

/// The callee picked up: the dialog, its ACK, and the audio agreed.
async fn answered(
    endpoint: &Arc<Endpoint>,
    account: &Account,
    invite: &Message,
    ok: &Message,
    cseq: u32,
    responses: Responses,
) -> Result<Answered, String> {
    let dialog = Dialog::placed(invite, ok, account.registrar, account.contact, cseq)
        .await
        .ok_or("the callee answered without a Contact")?;
    let _ = endpoint.send(&dialog.ack(), dialog.next_hop()).await;
    match Offer::parse_answer(&String::from_utf8_lossy(&ok.body)) {
        Ok(answer) => Ok(Answered {
            dialog,
            answer,
            responses,
        }),
        Err(why) => {
            dialog.hang_up(endpoint.clone())();
            Err(format!("the callee's telephone answered without usable audio ({why})"))
        }
    }
}

/// The ACK of a final answer that is not a 2xx (RFC 3261 §17.1.1.3): the INVITE's Via, its To with the tag.
fn ack_of_failure(invite: &Message, response: &Message) -> Message {
    in_transaction(invite, "ACK", response.header("To"))
}

/// A request inside the INVITE's transaction (its CANCEL, the ACK of a failure): the INVITE's Via,
/// Max-Forwards, From and Call-ID, the `to` given, and the INVITE's CSeq number with `method`.
fn in_transaction(invite: &Message, method: &str, to: Option<&str>) -> Message {
    let mut request = Message::request(method, invite.uri());
    for name in ["Via", "Max-Forwards", "From"] {
        if let Some(value) = invite.header(name) {
            request.push(name, value);
        }
    }
    if let Some(to) = to {
        request.push("To", to);
    }
    if let Some(call_id) = invite.header("Call-ID") {
        request.push("Call-ID", call_id);
    }
    let number = invite.cseq().map_or(1, |(n, _)| n);
    request.push("CSeq", format!("{number} {method}"));
    request
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A failure answer that comes again after its ACK (the ACK was lost) is acknowledged again (Timer D).
    #[tokio::test]
    async fn a_failure_answer_that_comes_again_is_acknowledged_again() {
        let endpoint = Endpoint::bind("127.0.0.1:0".parse().unwrap()).await.unwrap();
        let (requests, _unused) = tokio::sync::mpsc::channel(1);
        let _receive = crate::task::AbortOnDrop(tokio::spawn(endpoint.clone().receive(requests)));
        let router = tokio::net::UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let to = router.local_addr().unwrap();
        let mut invite = Message::request("INVITE", "sip:13@127.0.0.1");
        let via = format!("SIP/2.0/UDP {};branch=z9hG4bKdial1", endpoint.local_addr().unwrap());
        invite
            .push("Via", via)
            .push("From", "<sip:assistant@127.0.0.1>;tag=gw")
            .push("To", "<sip:13@127.0.0.1>")
            .push("Call-ID", "dial-1")
            .push("CSeq", "1 INVITE");
        let busy = invite.response(486, "Busy Here", Some("box"));
        let ack = ack_of_failure(&invite, &busy);
        let responses = endpoint.responses(&invite);
        tokio::spawn(absorb(endpoint.clone(), responses, ack, to));
        let mut buf = [0u8; 2048];
        for _ in 0..2 {
            router
                .send_to(&busy.to_bytes(), endpoint.local_addr().unwrap())
                .await
                .unwrap();
            let (n, _) = tokio::time::timeout(Duration::from_secs(5), router.recv_from(&mut buf))
                .await
                .expect("an ACK")
                .unwrap();
            let acked = Message::parse(&buf[..n]).unwrap();
            assert_eq!((acked.method(), acked.branch()), ("ACK", Some("z9hG4bKdial1")));
            assert_eq!(acked.header("To"), Some("<sip:13@127.0.0.1>;tag=box"));
        }
    }
}
