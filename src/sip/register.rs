//! Registration with the registrar (the router): REGISTER with digest authentication (RFC 3261 §10), refreshed
//! before it lapses, tried again after a failure with pauses that grow; its state in `App::lines`. A registrar
//! that sends the REGISTER elsewhere (301, 302, 305) is followed within the house's networks, and one that sees
//! this telephone at another address (`received`/`rport` in its answer's Via, RFC 3581: a NAT between them, as
//! Docker's bridge is) gets that address as the Contact at once, the old one dropped.

// Numbers from the wire are read here: no arithmetic may overflow or panic, whatever they are.
#![deny(clippy::arithmetic_side_effects)]

use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use secrecy::SecretString;

use super::digest::Asked;
use super::endpoint::{Endpoint, token};
use super::message::{Message, param, uri_of};
use crate::app::App;
use crate::lines::LineState;

/// How long a registration is asked for (the registrar may grant less).
const EXPIRES: u32 = 600;
/// The first pause after a failure, doubled up to the longest: a router that was away (restarted, unplugged)
/// has the line back within a minute of its return, and a refusing one is asked once a minute.
const FIRST_PAUSE: Duration = Duration::from_secs(5);
const LONGEST_PAUSE: Duration = Duration::from_secs(60);

/// The account, and where the registrar and this telephone are.
pub struct Account {
    /// The registrar as configured (`fritz.box`, `fritz.box:5060`): the domain of the address of record.
    pub domain: String,
    pub registrar: SocketAddr,
    pub user: String,
    pub password: SecretString,
    /// This telephone's address as the registrar reaches it.
    pub contact: SocketAddr,
    /// The address the registrar saw the REGISTER come from, when that is not `contact` (a NAT between them).
    pub seen: Mutex<Option<SocketAddr>>,
}

impl Account {
    fn name(&self) -> String {
        format!("{}@{}", self.user, self.domain)
    }

    /// Where requests for this telephone are to be sent: the address the registrar sees, else its own.
    pub fn reachable(&self) -> SocketAddr {
        self.seen.lock().ok().and_then(|seen| *seen).unwrap_or(self.contact)
    }

    /// A request of this telephone's to `uri` (its To `to`), in the dialog or registration `call_id` whose
    /// From carries `tag`, numbered `cseq`, with a fresh branch.
    pub fn request(&self, method: &str, uri: &str, to: &str, (call_id, tag, cseq): (&str, &str, u32)) -> Message {
        let mut request = Message::request(method, uri);
        request
            .push(
                "Via",
                format!("SIP/2.0/UDP {};branch={};rport", self.contact, token("z9hG4bK")),
            )
            .push("Max-Forwards", "70")
            .push("From", format!("<sip:{}@{}>;tag={tag}", self.user, self.domain))
            .push("To", to)
            .push("Call-ID", call_id)
            .push("CSeq", format!("{cseq} {method}"))
            .push("Contact", format!("<sip:{}@{}>", self.user, self.reachable()))
            .push("Allow", super::ALLOW)
            .push("User-Agent", super::USER_AGENT);
        request
    }
}

/// Keeps the account registered as long as the gateway runs.
pub async fn keep_registered(app: Arc<App>, endpoint: Arc<Endpoint>, account: Arc<Account>) {
    let (call_id, tag) = (token("reg-"), token(""));
    let mut cseq = 0;
    let mut pause = FIRST_PAUSE;
    // Registering only until the first answer: a renewal stays registered, a retry stays failing with its
    // reason, so the panel shows what is true between the attempts.
    app.lines.set(
        "sip",
        &account.name(),
        LineState::Registering,
        format!("asking {}", account.registrar),
    );
    loop {
        match register(&endpoint, &account, &call_id, &tag, &mut cseq).await {
            Ok(granted) => {
                let seconds = granted.seconds.as_secs();
                tracing::info!(account = %account.name(), seconds, "SIP registered");
                let mut detail = format!("registered for {seconds} s");
                if let Some((code, to)) = granted.moved {
                    detail.push_str(&format!(" at {to}, where the registrar's {code} sent it"));
                }
                if account.reachable() != account.contact {
                    detail.push_str(&format!("; the router sees this telephone at {}", account.reachable()));
                }
                app.lines.set("sip", &account.name(), LineState::Registered, detail);
                pause = FIRST_PAUSE;
                // Renewed when three quarters have passed, as telephones do.
                tokio::time::sleep(granted.seconds.mul_f64(0.75)).await;
            }
            Err(why) => {
                tracing::warn!(account = %account.name(), why, retry_in = pause.as_secs(), "SIP registration failed");
                app.lines.set("sip", &account.name(), LineState::Failing, why);
                tokio::time::sleep(pause).await;
                pause = pause.saturating_mul(2).min(LONGEST_PAUSE);
            }
        }
    }
}

/// A registration the registrar granted: for how long, and where a redirect sent it.
struct Granted {
    seconds: Duration,
    moved: Option<(u16, SocketAddr)>,
}

/// One registration: how long it was granted, or the registrar's answer (or silence) as the reason.
async fn register(
    endpoint: &Arc<Endpoint>,
    account: &Account,
    call_id: &str,
    tag: &str,
    cseq: &mut u32,
) -> Result<Granted, String> {
    let uri = format!("sip:{}", account.domain);
    let mut expires = EXPIRES;
    let mut credentials: Option<Asked> = None;
    let (mut to, mut moved) = (account.registrar, None);
    // The Contact the registrar no longer reaches, dropped with the next REGISTER.
    let (mut stale, mut rewritten): (Option<SocketAddr>, bool) = (None, false);
    for _ in 0..6 {
        *cseq = cseq.wrapping_add(1);
        let aor = format!("<sip:{}@{}>", account.user, account.domain);
        let mut request = account.request("REGISTER", &uri, &aor, (call_id, tag, *cseq));
        request.push("Expires", expires.to_string());
        if let Some(old) = stale.take() {
            request.push("Contact", format!("<sip:{}@{old}>;expires=0", account.user));
        }
        if let Some(asked) = &credentials {
            asked.answer(&mut request, &account.user, &account.password, "REGISTER", &uri);
        }
        let response = endpoint.request(&request, to).await.map_err(|e| e.to_string())?;
        let answer = response.status();
        match response.code() {
            Some(200..=299) => {
                let reachable = account.reachable();
                match seen_by_registrar(&response).filter(|seen| *seen != reachable) {
                    // Behind a NAT: register the address the registrar sees, and drop the one it cannot reach.
                    Some(seen) if !rewritten => {
                        tracing::warn!(contact = %reachable, %seen, "SIP: the registrar sees this telephone at another address; registering that one");
                        *account.seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(seen);
                        (stale, rewritten) = (Some(reachable), true);
                    }
                    _ => {
                        let seconds = granted(&response, reachable, expires);
                        return Ok(Granted { seconds, moved });
                    }
                }
            }
            Some(401 | 407) => credentials = Some(Asked::of(&response, &answer, credentials.is_some())?),
            // Interval Too Brief: the registrar names the shortest it takes.
            Some(423) => {
                expires = response
                    .header("Min-Expires")
                    .and_then(|v| v.parse().ok())
                    .filter(|&min| min > expires)
                    .ok_or(answer)?;
            }
            // Moved, or to be asked through a proxy: the REGISTER goes there, within the house's networks.
            Some(code @ (301 | 302 | 305)) => {
                let target = redirected(&response, account.registrar).ok_or(answer)?;
                (to, moved) = (target, Some((code, target)));
            }
            _ => return Err(answer),
        }
    }
    Err("the registrar kept asking for credentials or sending the REGISTER elsewhere".into())
}

/// Where a 3xx sends the REGISTER: its Contact's address, when that is an IP address of the registrar or of a
/// private network (a router's own proxy); a redirect to anywhere else is not followed, so that no answer can
/// send the telephone's credentials out of the house.
fn redirected(response: &Message, registrar: SocketAddr) -> Option<SocketAddr> {
    let contact = uri_of(response.header("Contact")?);
    let host_port = contact.strip_prefix("sip:")?.rsplit('@').next()?.split(';').next()?;
    let target = host_port
        .parse::<SocketAddr>()
        .or_else(|_| host_port.parse::<IpAddr>().map(|ip| SocketAddr::new(ip, 5060)))
        .ok()?;
    let ip = target.ip();
    let house = match ip {
        IpAddr::V4(v4) => v4.is_private() || v4.is_loopback() || v4.is_link_local(),
        IpAddr::V6(v6) => v6.is_loopback() || v6.is_unique_local() || v6.is_unicast_link_local(),
    };
    (ip == registrar.ip() || house).then_some(target)
}

/// The address the registrar saw the request come from (RFC 3581): its Via's `received` and `rport`, when it
/// added either.
fn seen_by_registrar(response: &Message) -> Option<SocketAddr> {
    let via = response.header("Via")?;
    let received = param(via, "received").and_then(|ip| ip.parse::<IpAddr>().ok());
    let rport = param(via, "rport").and_then(|port| port.parse::<u16>().ok());
    if received.is_none() && rport.is_none() {
        return None;
    }
    let sent_by: SocketAddr = via.split_whitespace().nth(1)?.split(';').next()?.parse().ok()?;
    Some(SocketAddr::new(
        received.unwrap_or(sent_by.ip()),
        rport.unwrap_or(sent_by.port()),
    ))
}

/// How long the registrar keeps this contact: its Contact's `expires`, else `Expires`, else what was asked.
fn granted(response: &Message, contact: SocketAddr, asked: u32) -> Duration {
    let mine = contact.to_string();
    let from_contact = response
        .all("Contact")
        .flat_map(|v| v.split(','))
        .filter(|c| uri_of(c).contains(&mine))
        .find_map(|c| param(c, "expires")?.parse().ok());
    let seconds = from_contact
        .or_else(|| response.header("Expires")?.parse().ok())
        .unwrap_or(asked);
    // A registrar that grants more than a day is asked again after a day all the same.
    Duration::from_secs(u64::from(seconds.clamp(1, 86_400)))
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    #[test]
    fn a_redirect_is_followed_within_the_house_and_a_nat_is_seen_in_the_via() {
        let registrar: SocketAddr = "192.168.178.1:5060".parse().unwrap();
        let moved = |contact: &str| {
            let text = format!("SIP/2.0 302 Moved Temporarily\r\nContact: {contact}\r\n\r\n");
            redirected(&Message::parse(text.as_bytes()).unwrap(), registrar)
        };
        assert_eq!(
            moved("<sip:192.168.178.1:5070>"),
            Some("192.168.178.1:5070".parse().unwrap())
        );
        assert_eq!(moved("<sip:proxy@10.0.0.7;lr>"), Some("10.0.0.7:5060".parse().unwrap()));
        assert_eq!(moved("<sip:203.0.113.9:5060>"), None, "out of the house");
        assert_eq!(moved("<sip:sip.example.com>"), None, "a name is not followed");
        let via = |params: &str| {
            let text = format!("SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP 172.17.0.2:5060;branch=z9hG4bK1{params}\r\n\r\n");
            seen_by_registrar(&Message::parse(text.as_bytes()).unwrap())
        };
        assert_eq!(
            via(";rport=40000;received=192.168.178.20"),
            Some("192.168.178.20:40000".parse().unwrap())
        );
        assert_eq!(via(";rport=40000"), Some("172.17.0.2:40000".parse().unwrap()));
        assert_eq!(via(";rport"), None, "asked, not answered");
    }

    #[test]
    fn the_granted_time_is_this_contacts_own() {
        let contact: SocketAddr = "192.168.178.20:5060".parse().unwrap();
        let mut ok = Message::parse(b"SIP/2.0 200 OK\r\nCSeq: 2 REGISTER\r\nExpires: 3600\r\n\r\n").unwrap();
        assert_eq!(granted(&ok, contact, 600), Duration::from_secs(3600));
        ok.push(
            "Contact",
            "<sip:620@192.168.178.99:5060>;expires=30, <sip:620@192.168.178.20:5060>;expires=120",
        );
        assert_eq!(granted(&ok, contact, 600), Duration::from_secs(120));
        assert_eq!(
            Message::parse(b"SIP/2.0 403 Forbidden\r\n\r\n").unwrap().status(),
            "403 Forbidden"
        );
    }
}
