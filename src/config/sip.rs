//! The SIP area: the gateway as a telephone of the house, off unless a registrar or an address is set.

use std::net::SocketAddr;

use ipnet::IpNet;
use secrecy::SecretString;

use super::env::{ConfigError, Source};

/// The SIP user agent: the registrar it registers with, its account, where it listens.
#[derive(Debug, Clone)]
pub struct SipSettings {
    /// `SIP_REGISTRAR`: the router or server to register with, `host[:port]` (5060); `None` = no registration.
    pub registrar: Option<String>,
    /// `SIP_USER`: the account's user name at the registrar.
    pub user: Option<String>,
    /// `SIP_PASSWORD`: the account's password (digest authentication).
    pub password: Option<SecretString>,
    /// `SIP_ADDR`: where SIP is received (UDP and TCP); `None` = `0.0.0.0:5060` with a registrar, else off.
    pub addr: Option<SocketAddr>,
    /// `SIP_ALLOWED_FROM`: addresses or networks whose requests are taken besides the registrar's.
    pub allowed_from: Vec<IpNet>,
    /// `SIP_RTP_PORTS`: the UDP ports calls' audio uses (two a call: RTP and RTCP).
    pub rtp_ports: std::ops::RangeInclusive<u16>,
    /// `SIP_MAX_CALLS`: calls at once; one more gets 486 Busy Here.
    pub max_calls: usize,
    /// `RTP_TIMEOUT_SECONDS`: a call whose caller sends no audio this long (and is not on hold) is ended.
    pub rtp_timeout: std::time::Duration,
    /// `SIP_CONNECTIONS_PER_ADDRESS`: TCP connections one address (not the registrar's) holds at once.
    pub connections_per_address: usize,
}

impl SipSettings {
    /// Reads the area.
    pub(super) fn read(src: &Source) -> Result<Self, ConfigError> {
        let registrar = src
            .var("SIP_REGISTRAR", "the router (or SIP server) the gateway registers with as a telephone, `host[:port]`, e.g. `fritz.box` (unset: no registration)")
            .raw();
        let user_var = src.var(
            "SIP_USER",
            "the telephone's user name at the registrar (a Fritz!Box: the IP telephone's user name)",
        );
        let user = user_var.raw();
        let password = src
            .var("SIP_PASSWORD", "the telephone's password at the registrar")
            .secret();
        if registrar.is_some() && (user.is_none() || password.is_none()) {
            return Err(user_var.error("SIP_REGISTRAR needs SIP_USER and SIP_PASSWORD"));
        }
        let addr = src
            .var("SIP_ADDR", "where SIP is received (UDP and TCP), e.g. `0.0.0.0:5060`; with SIP_REGISTRAR set and this unset, `0.0.0.0:5060` (unset without a registrar: SIP off)")
            .address("0.0.0.0:5060")?;
        let allowed_from = src
            .var(
                "SIP_ALLOWED_FROM",
                "addresses or networks (CIDR) whose calls are taken without a registrar, e.g. an analog telephone adapter's; the registrar's are always taken",
            )
            .networks()?;
        let ports = src.var(
            "SIP_RTP_PORTS",
            "the UDP ports of the calls' audio, `first-last` (two a call)",
        );
        let text = ports.string("40000-40099");
        let rtp_ports = text
            .split_once('-')
            .and_then(|(a, b)| Some(a.trim().parse::<u16>().ok()?..=b.trim().parse::<u16>().ok()?))
            .filter(|r| r.end() > r.start() && *r.start() > 0)
            .ok_or_else(|| ports.error(format!("{text:?} is not a range of ports like 40000-40099")))?;
        let max_calls = src
            .var(
                "SIP_MAX_CALLS",
                "SIP calls at once; one more hears busy (486 with `Retry-After`)",
            )
            .ranged(4, 1000)?
            .max(1) as usize;
        let rtp_timeout = src
            .var("RTP_TIMEOUT_SECONDS", "a SIP call whose caller sends no audio this long (not on hold) is ended with a BYE and its place freed: a handset that vanished without hanging up")
            .ranged(30, 3600)?
            .max(1);
        let connections_per_address = src
            .var(
                "SIP_CONNECTIONS_PER_ADDRESS",
                "TCP connections one address may hold on the SIP door (the registrar's excepted); one more is answered 503 with `Retry-After`, so no device of the network can shut the others out",
            )
            .ranged(8, 1000)?
            .max(1) as usize;
        Ok(Self {
            connections_per_address,
            rtp_timeout: std::time::Duration::from_secs(rtp_timeout.into()),
            registrar,
            user,
            password,
            addr,
            allowed_from,
            rtp_ports,
            max_calls,
        })
    }

    /// Where SIP is received, when it is on.
    pub fn listen(&self) -> Option<SocketAddr> {
        self.addr
            .or_else(|| self.registrar.as_ref().map(|_| SocketAddr::from(([0, 0, 0, 0], 5060))))
    }
}
