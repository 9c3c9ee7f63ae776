//! Registration with the registrar (the router): REGISTER with digest authentication (RFC 3261 §10), refreshed
//! before it lapses, tried again after a failure with pauses that grow; its state in `App::lines`.

use std::net::SocketAddr;
use std::sync::Arc;
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
}

impl Account {
    fn name(&self) -> String {
        format!("{}@{}", self.user, self.domain)
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
            .push("Contact", format!("<sip:{}@{}>", self.user, self.contact))
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
                tracing::info!(account = %account.name(), seconds = granted.as_secs(), "SIP registered");
                let detail = format!("registered for {} s", granted.as_secs());
                app.lines.set("sip", &account.name(), LineState::Registered, detail);
                pause = FIRST_PAUSE;
                // Renewed when three quarters have passed, as telephones do.
                tokio::time::sleep(granted * 3 / 4).await;
            }
            Err(why) => {
                tracing::warn!(account = %account.name(), why, retry_in = pause.as_secs(), "SIP registration failed");
                app.lines.set("sip", &account.name(), LineState::Failing, why);
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(LONGEST_PAUSE);
            }
        }
    }
}

/// One registration: how long it was granted, or the registrar's answer (or silence) as the reason.
async fn register(
    endpoint: &Arc<Endpoint>,
    account: &Account,
    call_id: &str,
    tag: &str,
    cseq: &mut u32,
) -> Result<Duration, String> {
    let uri = format!("sip:{}", account.domain);
    let mut expires = EXPIRES;
    let mut credentials: Option<Asked> = None;
    for _ in 0..4 {
        *cseq += 1;
        let to = format!("<sip:{}@{}>", account.user, account.domain);
        let mut request = account.request("REGISTER", &uri, &to, (call_id, tag, *cseq));
        request.push("Expires", expires.to_string());
        if let Some(asked) = &credentials {
            asked.answer(&mut request, &account.user, &account.password, "REGISTER", &uri);
        }
        let response = endpoint
            .request(&request, account.registrar)
            .await
            .map_err(|e| e.to_string())?;
        let answer = response.status();
        match response.code() {
            Some(200..=299) => return Ok(granted(&response, account.contact, expires)),
            Some(401 | 407) => credentials = Some(Asked::of(&response, &answer, credentials.is_some())?),
            // Interval Too Brief: the registrar names the shortest it takes.
            Some(423) => {
                expires = response
                    .header("Min-Expires")
                    .and_then(|v| v.parse().ok())
                    .filter(|&min| min > expires)
                    .ok_or(answer)?;
            }
            _ => return Err(answer),
        }
    }
    Err("the registrar kept asking for credentials".into())
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
    Duration::from_secs(u64::from(seconds.max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

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
