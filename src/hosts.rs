//! The host names the gateway answers to. A DNS-rebinding page points its own name at this machine: the
//! browser then sends the page's `Host`, and the gateway, which trusted whatever `Host` came (its WebSocket
//! origin check compares `Origin` with it), would serve that page as its own. So every request names one of
//! the gateway's hosts, or it is answered 421 before any route runs: `localhost` and loopback, the machine's
//! name, its `.local` name and its addresses (read again when an unknown address arrives, since a LAN address
//! changes), `PUBLIC_URL`'s host, `ACME_DOMAIN`, and what `ALLOWED_HOSTS` adds (a name, `.example.org` for a
//! domain and the names under it, `*` for any). This is Django's `ALLOWED_HOSTS`, with the machine's own names
//! known without being listed.

use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;

use crate::config::Settings;
use crate::config::tls::TlsMode;
use crate::error::error_response;
use crate::tls::{host_of, is_loopback_host, local_ca};

/// How often an unknown address may make the machine's addresses be read again.
const REREAD_AFTER: Duration = Duration::from_secs(10);

/// The names and addresses this gateway is reached by.
pub struct Hosts {
    /// `ALLOWED_HOSTS` holds `*`.
    any: bool,
    /// `ALLOWED_HOSTS`, `PUBLIC_URL`'s host and `ACME_DOMAIN`, lower case.
    named: Vec<String>,
    /// `PUBLIC_URL`'s host, which the machine's list includes.
    public_host: Option<String>,
    machine: Mutex<Machine>,
}

struct Machine {
    read: Instant,
    names: Vec<String>,
    addresses: Vec<IpAddr>,
}

impl Hosts {
    /// The hosts of these settings and of this machine as it is now.
    pub fn new(settings: &Settings) -> Self {
        let public_host = settings
            .emergency
            .public_url
            .as_deref()
            .and_then(|u| reqwest::Url::parse(u).ok())
            .and_then(|u| u.host_str().map(str::to_ascii_lowercase));
        let mut named: Vec<String> = settings
            .server
            .allowed_hosts
            .iter()
            .map(|h| h.trim().to_ascii_lowercase())
            .collect();
        named.extend(public_host.clone());
        if let TlsMode::Acme(acme) = &settings.tls.mode {
            named.push(acme.domain.to_ascii_lowercase());
        }
        let any = named.iter().any(|h| h == "*");
        if any {
            tracing::warn!("ALLOWED_HOSTS holds `*`: any host name is served, also a DNS-rebinding page's");
        }
        let machine = Mutex::new(Machine::read(public_host.as_deref()));
        Self {
            any,
            named,
            public_host,
            machine,
        }
    }

    /// Whether a request naming `host` (a `Host` header's host, without its port) is this gateway's.
    pub fn allows(&self, host: &str) -> bool {
        let host = host.trim_end_matches('.');
        if self.any || is_loopback_host(host) || self.named.iter().any(|n| matches(n, host)) {
            return true;
        }
        let address = host.trim_matches(['[', ']']).parse::<IpAddr>().ok();
        let mut machine = self.machine.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if machine.has(host, address) {
            return true;
        }
        // A new LAN address is learned; a name never is (the machine's name changes only with a restart).
        if address.is_some() && machine.read.elapsed() >= REREAD_AFTER {
            *machine = Machine::read(self.public_host.as_deref());
            return machine.has(host, address);
        }
        false
    }
}

impl Machine {
    fn read(public_host: Option<&str>) -> Self {
        let (names, addresses) = local_ca::this_machine(public_host);
        Self {
            read: Instant::now(),
            names,
            addresses,
        }
    }

    fn has(&self, host: &str, address: Option<IpAddr>) -> bool {
        match address {
            Some(ip) => self.addresses.contains(&ip),
            None => self.names.iter().any(|n| n == host),
        }
    }
}

/// `pattern` as `ALLOWED_HOSTS` writes it: a name, or `.domain` for the domain and every name under it.
fn matches(pattern: &str, host: &str) -> bool {
    match pattern.strip_prefix('.') {
        Some(domain) => host == domain || host.ends_with(pattern),
        None => pattern == host,
    }
}

/// Refuses a request whose `Host` is none of the gateway's (421), or that names no host (400).
pub async fn only_own(State(hosts): State<Arc<Hosts>>, req: Request, next: Next) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(host_of)
        .or_else(|| req.uri().host().map(str::to_ascii_lowercase));
    match host {
        Some(host) if hosts.allows(&host) => next.run(req).await,
        Some(host) => {
            tracing::debug!(host, "a request for a foreign host name was refused");
            error_response(
                StatusCode::MISDIRECTED_REQUEST,
                "unknown_host",
                "this gateway does not serve that host name (see ALLOWED_HOSTS)",
            )
        }
        None => error_response(StatusCode::BAD_REQUEST, "bad_request", "the request names no host"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hosts(allowed: &[&str]) -> Hosts {
        let allowed = allowed.join(",");
        let settings = Settings::from_lookup(&|name| match name {
            "ALLOWED_HOSTS" => Some(allowed.clone()),
            "PUBLIC_URL" => Some("https://voice.example.org:8443/".into()),
            _ => None,
        })
        .unwrap();
        Hosts::new(&settings)
    }

    #[test]
    fn the_machines_names_public_url_and_the_listed_ones_are_served_nothing_else() {
        let hosts = hosts(&["assistant.home", ".family.example"]);
        let (names, addresses) = local_ca::this_machine(None);
        for own in names
            .iter()
            .map(String::as_str)
            .chain(["127.0.0.1", "[::1]", "app.localhost"])
        {
            assert!(hosts.allows(own), "{own}");
        }
        for ip in addresses {
            let host = if ip.is_ipv6() {
                format!("[{ip}]")
            } else {
                ip.to_string()
            };
            assert!(hosts.allows(&host), "{host}");
        }
        for own in [
            "voice.example.org",
            "assistant.home",
            "family.example",
            "kitchen.family.example",
        ] {
            assert!(hosts.allows(own), "{own}");
        }
        for foreign in [
            "attacker.example",
            "evilfamily.example",
            "192.0.2.7",
            "[2001:db8::1]",
            "voice.example.org.attacker.example",
        ] {
            assert!(!hosts.allows(foreign), "{foreign}");
        }
    }

    #[test]
    fn a_star_serves_any_name() {
        assert!(hosts(&["*"]).allows("attacker.example"));
    }
}
