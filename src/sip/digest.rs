//! Digest authentication as SIP uses it (RFC 3261 §22.4 on RFC 2617, SHA-256 by RFC 8760): the answer to a
//! registrar's `WWW-Authenticate` or a proxy's `Proxy-Authenticate` challenge.

// Numbers from the wire are read here: no arithmetic may overflow or panic, whatever they are.
#![deny(clippy::arithmetic_side_effects)]

use md5::{Digest as _, Md5};
use secrecy::{ExposeSecret, SecretString};
use sha2::Sha256;

use super::message::Message;

/// Credentials asked for by a 401 (`WWW-Authenticate`, answered by `Authorization`) or a 407
/// (`Proxy-Authenticate`, `Proxy-Authorization`).
pub struct Asked {
    pub header: &'static str,
    pub challenge: Challenge,
}

impl Asked {
    /// The challenge of a 401 or 407 whose answer is `answer` (`401 Unauthorized`); an error when the gateway
    /// already gave credentials (`given`) and the nonce was not merely stale: the password is wrong.
    pub fn of(response: &Message, answer: &str, given: bool) -> Result<Self, String> {
        let (asks, header) = match response.code() {
            Some(407) => ("Proxy-Authenticate", "Proxy-Authorization"),
            _ => ("WWW-Authenticate", "Authorization"),
        };
        let challenge = response
            .all(asks)
            .find_map(Challenge::parse)
            .ok_or_else(|| format!("{answer} without a digest challenge the gateway can answer"))?;
        if given && !challenge.stale {
            return Err(format!("{answer}: wrong SIP_USER or SIP_PASSWORD?"));
        }
        Ok(Self { header, challenge })
    }

    /// Adds the answer for `method` on `uri` to `request`.
    pub fn answer(&self, request: &mut Message, user: &str, password: &SecretString, method: &str, uri: &str) {
        request.push(self.header, self.challenge.answer(user, password, method, uri, 1));
    }
}

/// A challenge's parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    pub realm: String,
    pub nonce: String,
    pub opaque: Option<String>,
    /// `MD5` (the default) or `SHA-256`.
    pub algorithm: String,
    /// The challenge offered `qop=auth`.
    pub qop_auth: bool,
    /// The nonce was stale: the credentials were right.
    pub stale: bool,
}

impl Challenge {
    /// Reads `Digest realm="…", nonce="…", …`; `None` for another scheme or without realm and nonce.
    pub fn parse(value: &str) -> Option<Self> {
        let rest = value.trim().strip_prefix("Digest")?.trim_start();
        let mut fields = std::collections::HashMap::new();
        for (name, value) in split_params(rest) {
            fields.insert(name.to_ascii_lowercase(), value);
        }
        let algorithm = fields.remove("algorithm").unwrap_or_else(|| "MD5".into());
        if !["MD5", "SHA-256"].iter().any(|a| a.eq_ignore_ascii_case(&algorithm)) {
            return None;
        }
        Some(Self {
            realm: fields.remove("realm")?,
            nonce: fields.remove("nonce")?,
            opaque: fields.remove("opaque"),
            algorithm: algorithm.to_ascii_uppercase(),
            qop_auth: fields
                .get("qop")
                .is_some_and(|q| q.split(',').any(|q| q.trim().eq_ignore_ascii_case("auth"))),
            stale: fields.get("stale").is_some_and(|s| s.eq_ignore_ascii_case("true")),
        })
    }

    /// The `Authorization` (or `Proxy-Authorization`) value for `method` on `uri`, the `count`th use of this
    /// nonce.
    pub fn answer(&self, user: &str, password: &SecretString, method: &str, uri: &str, count: u32) -> String {
        let hash = |text: String| match self.algorithm.as_str() {
            "SHA-256" => hex(&Sha256::digest(text.as_bytes())),
            _ => hex(&Md5::digest(text.as_bytes())),
        };
        let ha1 = hash(format!("{user}:{}:{}", self.realm, password.expose_secret()));
        let ha2 = hash(format!("{method}:{uri}"));
        let mut value = format!(
            "Digest username=\"{user}\", realm=\"{}\", nonce=\"{}\", uri=\"{uri}\", algorithm={}",
            self.realm, self.nonce, self.algorithm
        );
        let response = if self.qop_auth {
            let cnonce = format!("{:016x}", rand::random::<u64>());
            let nc = format!("{count:08x}");
            value.push_str(&format!(", qop=auth, nc={nc}, cnonce=\"{cnonce}\""));
            hash(format!("{ha1}:{}:{nc}:{cnonce}:auth:{ha2}", self.nonce))
        } else {
            hash(format!("{ha1}:{}:{ha2}", self.nonce))
        };
        value.push_str(&format!(", response=\"{response}\""));
        if let Some(opaque) = &self.opaque {
            value.push_str(&format!(", opaque=\"{opaque}\""));
        }
        value
    }
}

/// `name=value` pairs separated by commas, values quoted or not (a quoted value may hold commas).
fn split_params(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(eq) = rest.find('=') {
        let name = rest[..eq].trim().trim_start_matches(',').trim().to_string();
        let after = rest.get(eq.saturating_add(1)..).unwrap_or_default().trim_start();
        let (value, next) = match after.strip_prefix('"') {
            Some(quoted) => match quoted.find('"') {
                Some(end) => (&quoted[..end], quoted.get(end.saturating_add(1)..).unwrap_or_default()),
                None => (quoted, ""),
            },
            None => {
                let end = after.find(',').unwrap_or(after.len());
                (after[..end].trim(), &after[end..])
            }
        };
        out.push((name, value.to_string()));
        rest = next.trim_start().trim_start_matches(',');
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_rfc_2617s_worked_example_without_qop_and_with_it() {
        // RFC 2617 §3.5's example with its method and URI, the hash checked by hand against it.
        let challenge = Challenge::parse(
            "Digest realm=\"testrealm@host.com\", qop=\"auth,auth-int\", \
             nonce=\"dcd98b7102dd2f0e8b11d0f600bfb0c093\", opaque=\"5ccc069c403ebaf9f0171e9517f40e41\"",
        )
        .unwrap();
        assert!(challenge.qop_auth && !challenge.stale);
        let password = SecretString::from("Circle Of Life");
        let plain = Challenge {
            qop_auth: false,
            ..challenge.clone()
        };
        let answer = plain.answer("Mufasa", &password, "GET", "/dir/index.html", 1);
        // MD5(MD5(Mufasa:testrealm@host.com:Circle Of Life):nonce:MD5(GET:/dir/index.html))
        let ha1 = hex(&Md5::digest(b"Mufasa:testrealm@host.com:Circle Of Life"));
        let ha2 = hex(&Md5::digest(b"GET:/dir/index.html"));
        let expected = hex(&Md5::digest(
            format!("{ha1}:dcd98b7102dd2f0e8b11d0f600bfb0c093:{ha2}").as_bytes(),
        ));
        assert!(answer.contains(&format!("response=\"{expected}\"")), "{answer}");
        assert!(answer.contains("opaque=\"5ccc069c403ebaf9f0171e9517f40e41\""));
        // With qop the client's nonce and count enter the hash.
        let answer = challenge.answer("Mufasa", &password, "GET", "/dir/index.html", 1);
        let cnonce = answer.split("cnonce=\"").nth(1).unwrap().split('"').next().unwrap();
        let expected = hex(&Md5::digest(
            format!("{ha1}:dcd98b7102dd2f0e8b11d0f600bfb0c093:00000001:{cnonce}:auth:{ha2}").as_bytes(),
        ));
        assert!(answer.contains(&format!("response=\"{expected}\"")) && answer.contains("nc=00000001"));
    }

    #[test]
    fn other_schemes_and_algorithms_are_not_answered() {
        assert_eq!(Challenge::parse("Basic realm=\"x\""), None);
        assert_eq!(
            Challenge::parse("Digest realm=\"x\", nonce=\"y\", algorithm=MD5-sess"),
            None
        );
        let stale = Challenge::parse("Digest realm=\"fritz.box\",nonce=\"A1B2\",stale=TRUE,algorithm=sha-256").unwrap();
        assert!(stale.stale && stale.algorithm == "SHA-256" && !stale.qop_auth);
    }
}
