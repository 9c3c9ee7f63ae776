//! The SIP door's fair share among the allowed addresses (issue 78): `SIP_ALLOWED_FROM` may name the whole
//! home network, where a device with a bug (or anybody) could otherwise hold every place of the door with idle
//! TCP connections and keep the handsets, and their help key, from the assistant.
//!
//! - An address holds at most `SIP_CONNECTIONS_PER_ADDRESS` TCP connections; the router (`SIP_REGISTRAR`'s
//!   address) is held to the door alone.
//! - The last places of the door are kept for calls and the router: other addresses' connections leave
//!   `SIP_MAX_CALLS` and one more free.
//! - When a connection finds no place, the connection that sent no request for longest (at least
//!   [`IDLE_GIVEN_UP`], never the router's, never one that carried a call) is closed for it.
//! - A connection beyond its share is answered once, `503` with `Retry-After`, and closed; counted in
//!   `sip_connections_refused_total{why}` (`address`, `door`) and named with its address in the admin health.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::oneshot;

/// How long a connection must have sent no request before it is closed for one that waits.
pub const IDLE_GIVEN_UP: Duration = Duration::from_secs(30);
/// Addresses whose refusals the admin health names (the most recent).
const NAMED: usize = 32;

/// Why a connection was refused its place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Why {
    /// Its address holds its share already.
    Address,
    /// The door's places are taken (those kept for calls and the router aside), none idle to give up.
    Door,
}

impl Why {
    pub fn label(self) -> &'static str {
        match self {
            Self::Address => "address",
            Self::Door => "door",
        }
    }
}

/// An address's refused connections, for the admin health.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Refused {
    pub address: String,
    /// The last reason.
    pub why: Why,
    pub count: u64,
    /// Epoch ms of the last.
    pub last_at: i64,
}

/// One open connection, as the share sees it.
struct Open {
    address: IpAddr,
    last_request: Instant,
    /// It carried an INVITE: a call's dialog may go on on it, so it is never given up.
    call: bool,
    /// Tells the connection to close for another.
    give_up: Option<oneshot::Sender<()>>,
    /// Dropped with the place: tells the connection that waits for it that it is free.
    gone: Option<oneshot::Sender<()>>,
}

#[derive(Default)]
struct State {
    open: HashMap<u64, Open>,
    next: u64,
    refused: HashMap<IpAddr, Refused>,
}

/// The open TCP connections of allowed addresses, and the refusals.
pub struct Share {
    per_address: usize,
    state: Mutex<State>,
}

/// A connection's place in the share: freed when dropped.
pub struct Place {
    share: Arc<Share>,
    id: u64,
    /// Completes when the share asks the connection to close for another.
    given_up: Mutex<Option<oneshot::Receiver<()>>>,
}

impl Share {
    pub fn new(per_address: usize) -> Arc<Self> {
        Arc::new(Self {
            per_address: per_address.max(1),
            state: Mutex::default(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A place for a connection from `address` (`router`: the registrar's, held to the door alone), or why
    /// not.
    pub fn enter(self: &Arc<Self>, address: IpAddr, router: bool) -> Result<Place, Why> {
        let mut state = self.lock();
        let mine = state.open.values().filter(|o| o.address == address).count();
        if !router && mine >= self.per_address {
            return Err(Why::Address);
        }
        let (tx, given_up) = oneshot::channel();
        let id = state.next;
        state.next = state.next.wrapping_add(1);
        let open = Open {
            address,
            last_request: Instant::now(),
            call: false,
            give_up: Some(tx),
            gone: None,
        };
        state.open.insert(id, open);
        Ok(Place {
            share: self.clone(),
            id,
            given_up: Mutex::new(Some(given_up)),
        })
    }

    /// Asks the connection that sent no request for longest (at least [`IDLE_GIVEN_UP`]; not `router`'s, not
    /// one that carried a call) to close for another: what completes when its place is free, if one was asked.
    pub fn give_up_idle(&self, router: Option<IpAddr>) -> Option<oneshot::Receiver<()>> {
        let mut state = self.lock();
        let now = Instant::now();
        let idle = state
            .open
            .values_mut()
            .filter(|o| !o.call && Some(o.address) != router && o.give_up.is_some())
            .filter(|o| now.saturating_duration_since(o.last_request) >= IDLE_GIVEN_UP)
            .min_by_key(|o| o.last_request)?;
        idle.give_up.take()?.send(()).ok()?;
        let (gone, freed) = oneshot::channel();
        idle.gone = Some(gone);
        Some(freed)
    }

    /// Counts a refusal of `address`'s connection.
    pub fn refused(&self, address: IpAddr, why: Why) {
        let mut state = self.lock();
        if !state.refused.contains_key(&address) && state.refused.len() >= NAMED {
            // The address refused longest ago makes room.
            let oldest = state
                .refused
                .values()
                .min_by_key(|r| r.last_at)
                .map(|r| r.address.clone());
            if let Some(ip) = oldest.and_then(|a| a.parse().ok()) {
                state.refused.remove(&ip);
            }
        }
        let entry = state.refused.entry(address).or_insert_with(|| Refused {
            address: address.to_string(),
            why,
            count: 0,
            last_at: 0,
        });
        entry.why = why;
        entry.count = entry.count.saturating_add(1);
        entry.last_at = crate::store::now_ms();
    }

    /// The addresses whose connections were refused, the most refused first.
    pub fn refusals(&self) -> Vec<Refused> {
        let mut all: Vec<Refused> = self.lock().refused.values().cloned().collect();
        all.sort_by(|a, b| b.count.cmp(&a.count).then(a.address.cmp(&b.address)));
        all
    }
}

impl Place {
    /// Completes when the share asks the connection to close for another (never, asked for a second time).
    pub fn given_up(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let asked = self.given_up.lock().unwrap_or_else(PoisonError::into_inner).take();
        async move {
            let asked = match asked {
                Some(asked) => asked.await.is_ok(),
                None => false,
            };
            if !asked {
                std::future::pending::<()>().await;
            }
        }
    }

    /// The connection sent a request (`invite`: one that may start a call on it).
    pub fn heard(&self, invite: bool) {
        let mut state = self.share.lock();
        if let Some(open) = state.open.get_mut(&self.id) {
            open.last_request = Instant::now();
            open.call |= invite;
        }
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        self.share.lock().open.remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn an_address_holds_its_share_and_the_router_the_door() {
        let share = Share::new(2);
        let held: Vec<Place> = (0..2)
            .map(|_| share.enter(ip("192.168.1.50"), false).unwrap())
            .collect();
        assert_eq!(share.enter(ip("192.168.1.50"), false).err(), Some(Why::Address));
        assert!(
            share.enter(ip("192.168.1.51"), false).is_ok(),
            "another address has its own share"
        );
        let router: Vec<Place> = (0..5).map(|_| share.enter(ip("192.168.1.1"), true).unwrap()).collect();
        assert_eq!(router.len(), 5);
        drop(held);
        assert!(
            share.enter(ip("192.168.1.50"), false).is_ok(),
            "a place freed is taken again"
        );
    }

    #[test]
    fn only_a_connection_idle_long_enough_and_without_a_call_is_given_up() {
        let share = Share::new(4);
        let mut quiet = share.enter(ip("10.0.0.5"), false).unwrap();
        let calling = share.enter(ip("10.0.0.6"), false).unwrap();
        calling.heard(true);
        assert!(share.give_up_idle(None).is_none(), "nobody is idle long enough yet");
        for open in share.lock().open.values_mut() {
            open.last_request = open.last_request.checked_sub(IDLE_GIVEN_UP).unwrap();
        }
        let mut freed = share.give_up_idle(Some(ip("10.0.0.9"))).expect("the quiet one asked");
        let asked = quiet.given_up.get_mut().unwrap().as_mut().unwrap().try_recv();
        assert_eq!(asked, Ok(()), "the quiet one is asked to close");
        assert!(
            share.give_up_idle(None).is_none(),
            "the caller's is kept, the quiet one asked once"
        );
        assert!(freed.try_recv().is_err());
        drop(quiet);
        assert!(
            matches!(freed.try_recv(), Err(oneshot::error::TryRecvError::Closed)),
            "its place is free"
        );
        share.refused(ip("10.0.0.5"), Why::Address);
        share.refused(ip("10.0.0.5"), Why::Address);
        let named = share.refusals();
        assert_eq!((named[0].address.as_str(), named[0].count), ("10.0.0.5", 2));
    }
}
