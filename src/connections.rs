//! One connection budget for every door: HTTP, HTTPS, Wyoming, AudioSocket and the SIP telephone's calls draw
//! from the same count, so that no protocol and no client address can take the descriptors the others need.
//!
//! - The budget is `MAX_CONNECTIONS`, or less when the process's descriptor limit cannot hold that many: each
//!   connection may need a second descriptor for a provider it calls, and a reserve stays for the database,
//!   the engines, files and refusals ([`Budget::from_descriptors`]).
//! - While more than one door listens, a door takes at most three quarters of the budget (a voice door also at
//!   most `MAX_VOICE_CONNECTIONS`), so a flood on one protocol leaves room for the others.
//! - A client address takes at most `MAX_CONNECTIONS_PER_CLIENT` of all doors (a quarter of the budget when
//!   the descriptor limit cut it) and a quarter of a voice door; `TRUSTED_PROXY_IPS` are held to the pools only.
//! - An HTTP connection beyond its share is still read for a moment on a small overflow lane (`/health`
//!   answers, everything else gets 503 with `Retry-After`); a raw protocol's is closed at once.
//! - Refusals are counted per door in `connections_refused_total` and logged at most once a minute per door,
//!   with the number left out, so a flood writes a line.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use ipnet::IpNet;

use crate::logging::Repeated;
use crate::metrics::{CONNECTIONS_REFUSED_TOTAL, Metrics};

/// Descriptors kept for everything but client connections: the database, the engines' pipes, the log, model
/// files, the HTTPS door's refusals in progress.
pub const RESERVED_DESCRIPTORS: usize = 128;
/// Overflow connections at most (also at most an eighth of the descriptors left after the reserve).
const OVERFLOW_MAX: usize = 256;
/// Overflow connections of one client address.
const OVERFLOW_PER_CLIENT: usize = 4;

/// Where a connection came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Door {
    Http,
    Https,
    Wyoming,
    AudioSocket,
    /// A SIP call (its RTP and RTCP sockets).
    Sip,
}

impl Door {
    const ALL: [Door; 5] = [Door::Http, Door::Https, Door::Wyoming, Door::AudioSocket, Door::Sip];

    /// The door's label in metrics and logs.
    pub fn label(self) -> &'static str {
        match self {
            Door::Http => "http",
            Door::Https => "https",
            Door::Wyoming => "wyoming",
            Door::AudioSocket => "audiosocket",
            Door::Sip => "sip",
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    /// HTTP doors answer a connection beyond its share with a 503; raw protocols close it.
    fn has_overflow(self) -> bool {
        matches!(self, Door::Http | Door::Https)
    }
}

/// How a connection is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lane {
    /// The whole interface.
    Full,
    /// `/health`, else 503; one request, then the connection closes.
    Overflow,
}

/// The sizes of the pools, fixed at start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    /// Connections served in full, all doors together.
    pub total: usize,
    /// Connections of one client address, all doors together.
    pub per_client: usize,
    /// Connections of each door (by [`Door::index`]).
    pub per_door: [usize; 5],
    /// HTTP connections on the overflow lane.
    pub overflow: usize,
    /// The descriptor limit the budget was derived from (`None`: unknown, the settings alone).
    pub descriptors: Option<u64>,
}

impl Budget {
    /// The budget for `max_connections` (`MAX_CONNECTIONS`), `per_client` (`MAX_CONNECTIONS_PER_CLIENT`) and
    /// `voice` (`MAX_VOICE_CONNECTIONS`, each voice door's cap) within `descriptors` (the process's limit), with
    /// `open` the doors that listen.
    pub fn from_descriptors(
        max_connections: usize,
        per_client: usize,
        voice: usize,
        descriptors: Option<u64>,
        open: &[Door],
    ) -> Self {
        let (total, overflow) = match descriptors {
            Some(limit) => {
                let spare = usize::try_from(limit)
                    .unwrap_or(usize::MAX)
                    .saturating_sub(RESERVED_DESCRIPTORS);
                let overflow = OVERFLOW_MAX.min(spare / 8);
                // A connection's own descriptor and one for the provider it may be calling.
                (max_connections.min((spare - overflow) / 2).max(1), overflow)
            }
            None => (max_connections, OVERFLOW_MAX),
        };
        // With other doors open, a door leaves them a quarter.
        let door = if open.len() > 1 { (total * 3 / 4).max(1) } else { total };
        let per_door = Door::ALL.map(|d| match d {
            Door::Http | Door::Https => door,
            Door::Wyoming | Door::AudioSocket | Door::Sip => door.min(voice),
        });
        // A budget cut by the descriptor limit cuts the address's share too.
        let per_client = if total < max_connections {
            per_client.min(total / 4).max(1)
        } else {
            per_client
        };
        Self {
            total,
            per_client,
            per_door,
            overflow,
            descriptors,
        }
    }

    /// What one address may hold of `door`: a quarter of a voice door (Home Assistant keeps its place when a
    /// stranger floods Wyoming), an HTTP door's whole share, and all of SIP's (every call comes through the
    /// router, and only the router and `SIP_ALLOWED_FROM` may call).
    fn per_client_at(&self, door: Door) -> usize {
        match door {
            Door::Http | Door::Https | Door::Sip => self.per_client,
            Door::Wyoming | Door::AudioSocket => (self.per_door[door.index()] / 4).max(1).min(self.per_client),
        }
    }

    /// Why the budget is smaller than the settings ask, for the start message.
    pub fn shortfall(&self, max_connections: usize) -> Option<String> {
        let limit = self.descriptors?;
        (self.total < max_connections).then(|| {
            let needed = max_connections * 2 + OVERFLOW_MAX + RESERVED_DESCRIPTORS;
            format!(
                "the descriptor limit ({limit}) holds {} connections, not MAX_CONNECTIONS={max_connections}; \
                 raise it to {needed} (LimitNOFILE= in the systemd unit, `ulimit -n` in a shell)",
                self.total
            )
        })
    }
}

/// The doors `settings` open.
pub fn open_doors(settings: &crate::config::Settings) -> Vec<Door> {
    let mut doors = vec![Door::Http];
    if settings.tls.mode != crate::config::TlsMode::Off {
        doors.push(Door::Https);
    }
    if settings.wyoming.addr.is_some() {
        doors.push(Door::Wyoming);
    }
    if settings.phone.audiosocket_addr.is_some() {
        doors.push(Door::AudioSocket);
    }
    if settings.sip.listen().is_some() {
        doors.push(Door::Sip);
    }
    doors
}

/// The process's descriptor limit (the soft one, which is what `accept` runs into).
pub fn descriptor_limit() -> Option<u64> {
    rustix::process::getrlimit(rustix::process::Resource::Nofile).current
}

/// Raises the soft descriptor limit to the hard one, as servers do: the soft 1024 of most systems dates from
/// `select`, which nothing here uses, and the hard limit is what the administrator allows.
pub fn raise_descriptor_limit() {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    if limit.current < limit.maximum {
        limit.current = limit.maximum;
        if let Err(err) = setrlimit(Resource::Nofile, limit) {
            tracing::debug!(%err, "the descriptor limit could not be raised");
        }
    }
}

#[derive(Default)]
struct Counts {
    full: usize,
    overflow: usize,
    by_door: [usize; 5],
    by_client: HashMap<IpAddr, usize>,
    by_client_door: HashMap<(IpAddr, Door), usize>,
    overflow_by_client: HashMap<IpAddr, usize>,
}

/// Open connections of every door, in all and by client address.
pub struct Connections {
    budget: Budget,
    trusted: Vec<IpNet>,
    counts: Mutex<Counts>,
    refused: [Repeated; 5],
}

/// A counted connection; uncounted when dropped.
pub struct Ticket {
    connections: Arc<Connections>,
    door: Door,
    client: IpAddr,
    pub lane: Lane,
}

impl Connections {
    pub fn new(budget: Budget, trusted: Vec<IpNet>) -> Arc<Self> {
        Arc::new(Self {
            budget,
            trusted,
            counts: Mutex::default(),
            refused: Default::default(),
        })
    }

    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// Counts a new connection from `client` on `door`: served in full, on the overflow lane (HTTP doors), or
    /// `None` to close it at once (counted and, now and then, logged).
    pub fn admit(self: &Arc<Self>, door: Door, client: IpAddr, metrics: &Metrics) -> Option<Ticket> {
        let lane = self.lane(door, client);
        if lane != Some(Lane::Full) {
            metrics.incr(CONNECTIONS_REFUSED_TOTAL, &[("door", door.label())]);
            if let Some(left_out) = self.refused[door.index()].next() {
                tracing::warn!(
                    door = door.label(),
                    %client,
                    left_out,
                    "a connection over its share of the connection budget was refused"
                );
            }
        }
        Some(Ticket {
            connections: self.clone(),
            door,
            client,
            lane: lane?,
        })
    }

    /// The places left at `door`: its own share's, within what the whole budget has left.
    pub fn room(&self, door: Door) -> usize {
        let Ok(counts) = self.counts.lock() else {
            return 0;
        };
        let at_door = self.budget.per_door[door.index()].saturating_sub(counts.by_door[door.index()]);
        at_door.min(self.budget.total.saturating_sub(counts.full))
    }

    /// Takes a place for the connection, or says there is none.
    fn lane(&self, door: Door, client: IpAddr) -> Option<Lane> {
        let budget = &self.budget;
        let trusted = self.trusted.iter().any(|net| net.contains(&client));
        let mut counts = self.counts.lock().ok()?;
        let mine = counts.by_client.get(&client).copied().unwrap_or(0);
        let mine_here = counts.by_client_door.get(&(client, door)).copied().unwrap_or(0);
        let full = counts.full < budget.total
            && counts.by_door[door.index()] < budget.per_door[door.index()]
            && (trusted || (mine < budget.per_client && mine_here < budget.per_client_at(door)));
        if full {
            counts.full += 1;
            counts.by_door[door.index()] += 1;
            *counts.by_client.entry(client).or_default() += 1;
            *counts.by_client_door.entry((client, door)).or_default() += 1;
            return Some(Lane::Full);
        }
        let overflowing = counts.overflow_by_client.get(&client).copied().unwrap_or(0);
        if door.has_overflow() && counts.overflow < budget.overflow && (trusted || overflowing < OVERFLOW_PER_CLIENT) {
            counts.overflow += 1;
            *counts.overflow_by_client.entry(client).or_default() += 1;
            return Some(Lane::Overflow);
        }
        None
    }
}

/// Takes one from a count, forgetting it at zero.
fn release<K: std::hash::Hash + Eq>(map: &mut HashMap<K, usize>, key: K) {
    if let Some(n) = map.get_mut(&key) {
        *n -= 1;
        if *n == 0 {
            map.remove(&key);
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let Ok(mut counts) = self.connections.counts.lock() else {
            return;
        };
        match self.lane {
            Lane::Full => {
                counts.full -= 1;
                counts.by_door[self.door.index()] -= 1;
                release(&mut counts.by_client, self.client);
                release(&mut counts.by_client_door, (self.client, self.door));
            }
            Lane::Overflow => {
                counts.overflow -= 1;
                release(&mut counts.overflow_by_client, self.client);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn connections(budget: Budget) -> Arc<Connections> {
        Connections::new(budget, vec!["10.0.0.1/32".parse().unwrap()])
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    const ALL: &[Door] = &Door::ALL;

    #[test]
    fn the_budget_fits_the_descriptor_limit() {
        // systemd's default for a service: 1024 descriptors hold 392 connections, not 4096.
        let low = Budget::from_descriptors(4096, 256, 200, Some(1024), ALL);
        assert_eq!(low.total, 392);
        assert_eq!(low.overflow, 112);
        assert!(low.total * 2 + low.overflow + RESERVED_DESCRIPTORS <= 1024);
        assert_eq!(low.per_client, 98, "a quarter of the budget");
        assert_eq!(low.per_door, [294, 294, 200, 200, 200]);
        let warning = low.shortfall(4096).unwrap();
        assert!(
            warning.contains("1024") && warning.contains("LimitNOFILE") && warning.contains("8576"),
            "{warning}"
        );
        // With `LimitNOFILE=65536` (docs/deploy.md) the settings hold.
        let high = Budget::from_descriptors(4096, 256, 200, Some(65536), ALL);
        assert_eq!((high.total, high.per_client, high.overflow), (4096, 256, 256));
        assert_eq!(high.shortfall(4096), None);
        // The HTTP door alone takes the whole budget.
        assert_eq!(
            Budget::from_descriptors(4096, 256, 200, Some(1024), &[Door::Http]).per_door[0],
            392
        );
        // A limit below the reserve still serves one connection.
        assert_eq!(Budget::from_descriptors(4096, 256, 200, Some(50), ALL).total, 1);
    }

    #[test]
    fn one_address_floods_one_door_and_everybody_else_is_served() {
        let c = connections(Budget::from_descriptors(400, 1000, 40, None, ALL));
        let metrics = Metrics::default();
        let flood: Vec<Ticket> = (0..100)
            .filter_map(|_| c.admit(Door::Wyoming, ip("192.0.2.1"), &metrics))
            .collect();
        assert_eq!(flood.len(), 10, "a quarter of the Wyoming door's 40");
        assert_eq!(metrics.get("connections_refused_total{door=\"wyoming\"}"), 90);
        // Home Assistant at another address still gets in, and so does the web page.
        assert!(c.admit(Door::Wyoming, ip("192.0.2.2"), &metrics).is_some());
        assert_eq!(
            c.admit(Door::Http, ip("192.0.2.1"), &metrics).map(|t| t.lane),
            Some(Lane::Full),
            "the flooding address's share of HTTP is untouched"
        );
    }

    #[test]
    fn many_addresses_fill_a_door_but_not_the_budget() {
        let c = connections(Budget::from_descriptors(100, 1000, 1000, None, ALL));
        let metrics = Metrics::default();
        let held: Vec<Ticket> = (0..=255)
            .filter_map(|n| c.admit(Door::AudioSocket, ip(&format!("192.0.2.{n}")), &metrics))
            .collect();
        assert_eq!(held.len(), 75, "three quarters of the budget");
        assert_eq!(
            c.admit(Door::Https, ip("198.51.100.1"), &metrics).map(|t| t.lane),
            Some(Lane::Full)
        );
    }

    #[test]
    fn an_http_client_overflows_at_its_share_while_others_are_served_in_full() {
        let c = connections(Budget::from_descriptors(12, 2, 200, None, ALL));
        let metrics = Metrics::default();
        let a = ip("192.0.2.1");
        let lanes: Vec<Option<Lane>> = (0..8)
            .map(|_| {
                c.admit(Door::Http, a, &metrics)
                    .map(|t| std::mem::ManuallyDrop::new(t).lane)
            })
            .collect();
        assert_eq!(&lanes[..2], [Some(Lane::Full); 2]);
        assert_eq!(&lanes[2..6], [Some(Lane::Overflow); 4]);
        assert_eq!(&lanes[6..], [None, None]);
        assert_eq!(
            c.admit(Door::Http, ip("192.0.2.2"), &metrics).map(|t| t.lane),
            Some(Lane::Full)
        );
        // A trusted proxy is only held to the pools: the door's 9 (three quarters of 12), of which `a` holds 2.
        let proxy = ip("10.0.0.1");
        let held: Vec<Ticket> = (0..9).filter_map(|_| c.admit(Door::Http, proxy, &metrics)).collect();
        assert_eq!(held.iter().filter(|t| t.lane == Lane::Full).count(), 7);
        // A raw door has no overflow lane.
        let c = connections(Budget::from_descriptors(10, 2, 200, None, ALL));
        let _one = c.admit(Door::Wyoming, a, &metrics);
        assert!(c.admit(Door::Wyoming, a, &metrics).is_none());
    }

    #[test]
    fn a_closed_connection_frees_its_place() {
        let c = connections(Budget::from_descriptors(4, 1, 200, None, ALL));
        let metrics = Metrics::default();
        let a = ip("192.0.2.1");
        let first = c.admit(Door::Http, a, &metrics).unwrap();
        assert_eq!(c.admit(Door::Http, a, &metrics).map(|t| t.lane), Some(Lane::Overflow));
        drop(first);
        assert_eq!(c.admit(Door::Http, a, &metrics).map(|t| t.lane), Some(Lane::Full));
    }
}
