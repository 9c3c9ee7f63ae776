//! Guessing a secret slowed to nothing: failed credentials (admin key, bearer token, cookie, personal link,
//! acknowledgement and care links) are counted per client address. Beyond [`FREE_PER_MINUTE`] a minute (or
//! `AUTH_FAILURES_PER_MINUTE`) the
//! address waits a minute, then twice as long each time it starts again, up to an hour; while it waits every
//! request of it but `/health` is answered 429 with `Retry-After`, a correct credential too, so that a guesser
//! cannot tell a hit. An IPv6 client is its /64 (one household's network). The table is bounded: when full, the
//! quietest address that is not waiting makes room. The time is passed in, so that tests set it.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::http::HeaderMap;
use ipnet::IpNet;

/// Failed credentials an address may have in a minute before it waits, unless `AUTH_FAILURES_PER_MINUTE`
/// says otherwise.
pub const FREE_PER_MINUTE: u32 = 10;
/// The first wait; each next one doubles.
const FIRST_WAIT: Duration = Duration::from_secs(60);
/// The longest wait.
const LONGEST_WAIT: Duration = Duration::from_secs(3600);
/// An address quiet this long after its wait starts again at the first wait.
const FORGIVEN_AFTER: Duration = Duration::from_secs(3600);
/// Addresses the table holds.
const ADDRESSES: usize = 4096;
const MINUTE: Duration = Duration::from_secs(60);

/// The kind of credential that failed, the label of `auth_failures_total{kind}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Credential {
    AdminKey,
    Bearer,
    Cookie,
    /// A personal link (`?k=`, a WebSocket's `?token=`).
    Link,
    /// An alarm's acknowledgement link.
    Ack,
    /// A care notice's acknowledgement link.
    Care,
}

impl Credential {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::AdminKey => "admin_key",
            Self::Bearer => "bearer",
            Self::Cookie => "cookie",
            Self::Link => "link",
            Self::Ack => "ack",
            Self::Care => "care",
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    /// When the current minute of counting began.
    minute: Instant,
    failures: u32,
    /// How many waits the address has started (the next doubles).
    waits: u32,
    until: Option<Instant>,
    last: Instant,
}

/// A waiting address, for the admin panel.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct Waiting {
    /// The address (an IPv6 client's /64 as its first address).
    pub address: String,
    /// Seconds until it may try again.
    pub seconds_left: u64,
    /// Waits it has started since it was last quiet for an hour.
    pub waits: u32,
}

/// Failed credentials per address.
pub struct Guesses {
    free: u32,
    table: Mutex<HashMap<IpAddr, Entry>>,
}

impl Default for Guesses {
    fn default() -> Self {
        Self::new(FREE_PER_MINUTE)
    }
}

impl Guesses {
    /// A table that lets `free` failures a minute pass.
    pub fn new(free: u32) -> Self {
        Self {
            free,
            table: Mutex::default(),
        }
    }

    /// How long `client` still waits, when it does.
    pub fn waiting(&self, client: IpAddr, now: Instant) -> Option<Duration> {
        let table = self.lock();
        let until = table.get(&key(client))?.until?;
        (until > now).then(|| until - now)
    }

    /// Counts a failed credential of `client`; the wait it starts, when this failure is one too many.
    pub fn failed(&self, client: IpAddr, now: Instant) -> Option<Duration> {
        let mut table = self.lock();
        let client = key(client);
        if !table.contains_key(&client) && table.len() >= ADDRESSES {
            make_room(&mut table, now);
        }
        let entry = table.entry(client).or_insert(Entry {
            minute: now,
            failures: 0,
            waits: 0,
            until: None,
            last: now,
        });
        // Quiet since its last failure or the end of its wait, whichever is later.
        let quiet_since = entry.until.map_or(entry.last, |until| until.max(entry.last));
        if now.saturating_duration_since(quiet_since) >= FORGIVEN_AFTER {
            entry.waits = 0;
        }
        if now.saturating_duration_since(entry.minute) >= MINUTE {
            (entry.minute, entry.failures) = (now, 0);
        }
        entry.failures += 1;
        entry.last = now;
        if entry.failures <= self.free {
            return None;
        }
        let wait = FIRST_WAIT.saturating_mul(1 << entry.waits.min(10)).min(LONGEST_WAIT);
        entry.until = Some(now + wait);
        entry.waits += 1;
        (entry.minute, entry.failures) = (now, 0);
        Some(wait)
    }

    /// The addresses waiting now, the longest wait first.
    pub fn waiting_now(&self, now: Instant) -> Vec<Waiting> {
        let table = self.lock();
        let mut waiting: Vec<Waiting> = table
            .iter()
            .filter_map(|(address, entry)| {
                let left = entry.until?.checked_duration_since(now).filter(|d| !d.is_zero())?;
                Some(Waiting {
                    address: address.to_string(),
                    seconds_left: left.as_secs_f64().ceil() as u64,
                    waits: entry.waits,
                })
            })
            .collect();
        waiting.sort_by(|a, b| b.seconds_left.cmp(&a.seconds_left).then(a.address.cmp(&b.address)));
        waiting
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, Entry>> {
        self.table.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Drops the addresses that neither wait nor failed in the last minute; when none, the one that failed
/// longest ago among those not waiting (or, with every place waiting, the one whose wait ends first).
fn make_room(table: &mut HashMap<IpAddr, Entry>, now: Instant) {
    let waits = |e: &Entry| e.until.is_some_and(|until| until > now);
    table.retain(|_, e| waits(e) || now.saturating_duration_since(e.last) < MINUTE);
    if table.len() < ADDRESSES {
        return;
    }
    let quietest = table
        .iter()
        .min_by_key(|(_, e)| (waits(e), e.until.unwrap_or(e.last), e.last))
        .map(|(address, _)| *address);
    if let Some(address) = quietest {
        table.remove(&address);
    }
}

/// The table's key of an address: IPv4 as it is, IPv6 as its /64.
fn key(address: IpAddr) -> IpAddr {
    match address.to_canonical() {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        v4 => v4,
    }
}

/// The client of a request: the peer, or behind `trusted` proxies the rightmost address of `X-Forwarded-For`
/// that is not one of them (the proxy appends the address it saw; what the client wrote is further left).
pub fn client(headers: &HeaderMap, peer: Option<SocketAddr>, trusted: &[IpNet]) -> Option<IpAddr> {
    let peer = peer?.ip().to_canonical();
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|net| net.contains(ip));
    if !is_trusted(&peer) {
        return Some(peer);
    }
    let forwarded = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|a| a.trim().parse::<IpAddr>().map(|ip| ip.to_canonical()))
        .collect::<Vec<_>>();
    for address in forwarded.into_iter().rev() {
        match address {
            Ok(ip) if is_trusted(&ip) => continue,
            Ok(ip) => return Some(ip),
            Err(_) => break,
        }
    }
    Some(peer)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOME: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, 1));
    const OTHER: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, 2));

    /// Fails `n` times at `now`; the last wait started.
    fn fail(guesses: &Guesses, n: u32, now: Instant) -> Option<Duration> {
        (0..n).filter_map(|_| guesses.failed(HOME, now)).last()
    }

    #[test]
    fn ten_failures_a_minute_are_free_the_eleventh_waits_a_minute_and_each_next_wait_doubles_to_an_hour() {
        let guesses = Guesses::default();
        let t0 = Instant::now();
        assert_eq!(fail(&guesses, FREE_PER_MINUTE, t0), None);
        assert_eq!(guesses.waiting(HOME, t0), None);
        assert_eq!(guesses.failed(HOME, t0), Some(Duration::from_secs(60)));
        assert_eq!(
            guesses.waiting(HOME, t0 + Duration::from_secs(59)),
            Some(Duration::from_secs(1))
        );
        assert_eq!(guesses.waiting(OTHER, t0), None, "another address does not wait");
        assert_eq!(guesses.waiting(HOME, t0 + MINUTE), None);
        let mut now = t0 + MINUTE;
        for minutes in [2, 4, 8, 16, 32, 60, 60] {
            let wait = fail(&guesses, FREE_PER_MINUTE + 1, now).unwrap();
            assert_eq!(wait, Duration::from_secs(minutes * 60));
            now += wait;
        }
        // An hour's quiet forgives.
        now += FORGIVEN_AFTER;
        assert_eq!(fail(&guesses, FREE_PER_MINUTE + 1, now), Some(FIRST_WAIT));
    }

    #[test]
    fn failures_spread_over_minutes_never_wait() {
        let guesses = Guesses::default();
        let t0 = Instant::now();
        for minute in 0..30 {
            assert_eq!(
                fail(&guesses, FREE_PER_MINUTE, t0 + MINUTE * minute),
                None,
                "minute {minute}"
            );
        }
    }

    #[test]
    fn the_table_is_bounded_and_a_waiting_address_keeps_its_place() {
        let guesses = Guesses::default();
        let now = Instant::now();
        fail(&guesses, FREE_PER_MINUTE + 1, now);
        for i in 0..(ADDRESSES as u32 * 2) {
            guesses.failed(IpAddr::V4(std::net::Ipv4Addr::from(0x0A00_0000 + i)), now);
        }
        assert!(guesses.lock().len() <= ADDRESSES);
        assert!(guesses.waiting(HOME, now).is_some());
        assert_eq!(guesses.waiting_now(now)[0].address, "192.0.2.1");
    }

    #[test]
    fn an_ipv6_network_is_one_client_and_a_mapped_ipv4_its_address() {
        let a: IpAddr = "2001:db8:1:2::7".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff::1".parse().unwrap();
        assert_eq!(key(a), key(b));
        assert_ne!(key(a), key("2001:db8:1:3::7".parse().unwrap()));
        assert_eq!(key("::ffff:192.0.2.1".parse().unwrap()), HOME);
    }

    #[test]
    fn behind_a_trusted_proxy_the_client_is_the_rightmost_untrusted_forwarded_address() {
        let proxy: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        let trusted: Vec<IpNet> = vec!["127.0.0.0/8".parse().unwrap(), "10.0.0.0/8".parse().unwrap()];
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", "203.0.113.9, 192.0.2.1, 10.1.1.1".parse().unwrap());
        assert_eq!(client(&headers, Some(proxy), &trusted), Some(HOME));
        assert_eq!(
            client(&headers, Some("192.0.2.2:1".parse().unwrap()), &trusted),
            Some(OTHER)
        );
        assert_eq!(client(&HeaderMap::new(), Some(proxy), &trusted), Some(proxy.ip()));
    }
}
