//! Events pushed to a person's open connections on this instance (their pages on `/ws/chat`, their
//! `/ws/voice` connections): a reminder that is due reaches wherever the person is; on other instances
//! through [`crate::bus`]. Each connection holds a
//! [`Subscription`]; a connection that does not take its events in time misses them (the queue is short and
//! never blocks the sender). A pushed reminder or check-in question carries a `receipt`: the connection that
//! showed it says so with a `shown` frame, and only that counts as delivered ([`Notify::awaiting`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

/// Events a connection may have waiting.
const QUEUE: usize = 8;

/// A person's connections: each one's number and the way to it.
type Connections = Vec<(u64, mpsc::Sender<Value>)>;

/// The open connections of each person on this instance.
#[derive(Default)]
pub struct Notify {
    next: AtomicU64,
    people: Mutex<HashMap<String, Connections>>,
    /// Told the person whose connections opened or closed ([`Notify::watch`]); none unless watched.
    changed: Mutex<Option<mpsc::Sender<String>>>,
    /// The receipts awaited here, by person and receipt.
    receipts: Mutex<HashMap<(String, String), oneshot::Sender<()>>>,
}

/// A receipt awaited: resolved when a connection of the person showed the event; forgotten when dropped.
pub struct Awaited {
    hub: Arc<Notify>,
    key: (String, String),
    shown: oneshot::Receiver<()>,
}

impl Awaited {
    /// Until the event was shown (pending for ever if never: bound it with a timeout).
    pub async fn shown(&mut self) {
        if (&mut self.shown).await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

impl Drop for Awaited {
    fn drop(&mut self) {
        self.hub
            .receipts
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&self.key);
    }
}

/// Changes of presence waiting to be written; beyond, the periodic refresh catches up.
const CHANGES: usize = 1024;

/// One connection's events; dropping it leaves the hub.
pub struct Subscription {
    hub: Arc<Notify>,
    user_id: String,
    id: u64,
    events: mpsc::Receiver<Value>,
}

impl Notify {
    /// A subscription for a connection of `user_id`.
    pub fn subscribe(self: &Arc<Self>, user_id: &str) -> Subscription {
        let (tx, events) = mpsc::channel(QUEUE);
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let mut people = self.people.lock().unwrap_or_else(|p| p.into_inner());
        people.entry(user_id.to_string()).or_default().push((id, tx));
        drop(people);
        self.changed(user_id);
        Subscription {
            hub: self.clone(),
            user_id: user_id.to_string(),
            id,
            events,
        }
    }

    /// Pushes `event` to every connection of `user_id`: how many took it.
    pub fn push(&self, user_id: &str, event: &Value) -> usize {
        let people = self.people.lock().unwrap_or_else(|p| p.into_inner());
        people.get(user_id).map_or(0, |conns| {
            conns
                .iter()
                .filter(|(_, tx)| tx.try_send(event.clone()).is_ok())
                .count()
        })
    }

    /// Awaits the receipt `receipt` from a connection of `user_id`.
    pub fn awaiting(self: &Arc<Self>, user_id: &str, receipt: &str) -> Awaited {
        let (tx, shown) = oneshot::channel();
        let key = (user_id.to_string(), receipt.to_string());
        self.receipts
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(key.clone(), tx);
        Awaited {
            hub: self.clone(),
            key,
            shown,
        }
    }

    /// A connection of `user_id` showed the event of `receipt`: true when it was awaited here.
    pub fn shown(&self, user_id: &str, receipt: &str) -> bool {
        let key = (user_id.to_string(), receipt.to_string());
        let waiter = self.receipts.lock().unwrap_or_else(|p| p.into_inner()).remove(&key);
        waiter.is_some_and(|tx| tx.send(()).is_ok())
    }

    /// The person answered what was pushed to them (confirmed the reminder, answered the check-in) on this
    /// instance: that is a receipt too, for every event of theirs awaited here.
    pub fn answered(&self, user_id: &str) {
        let mut receipts = self.receipts.lock().unwrap_or_else(|p| p.into_inner());
        let theirs: Vec<_> = receipts.keys().filter(|(u, _)| u == user_id).cloned().collect();
        for key in theirs {
            if let Some(tx) = receipts.remove(&key) {
                let _ = tx.send(());
            }
        }
    }

    /// The people whose connections open or close, from now on ([`crate::bus`] writes them down for the
    /// other instances).
    pub fn watch(&self) -> mpsc::Receiver<String> {
        let (tx, rx) = mpsc::channel(CHANGES);
        *self.changed.lock().unwrap_or_else(|p| p.into_inner()) = Some(tx);
        rx
    }

    fn changed(&self, user_id: &str) {
        if let Some(tx) = self.changed.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
            let _ = tx.try_send(user_id.to_string());
        }
    }

    /// The people with connections open here.
    pub fn present(&self) -> Vec<(String, usize)> {
        let people = self.people.lock().unwrap_or_else(|p| p.into_inner());
        people.iter().map(|(user, conns)| (user.clone(), conns.len())).collect()
    }

    /// How many connections `user_id` has open here.
    pub fn open(&self, user_id: &str) -> usize {
        let people = self.people.lock().unwrap_or_else(|p| p.into_inner());
        people.get(user_id).map_or(0, Vec::len)
    }
}

impl Subscription {
    /// The next event; pending while there is none.
    pub async fn next(&mut self) -> Option<Value> {
        self.events.recv().await
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut people = self.hub.people.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(conns) = people.get_mut(&self.user_id) {
            conns.retain(|(id, _)| *id != self.id);
            if conns.is_empty() {
                people.remove(&self.user_id);
            }
        }
        drop(people);
        self.hub.changed(&self.user_id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn events_reach_every_connection_of_the_person_and_a_closed_one_leaves() {
        let hub = Arc::new(Notify::default());
        let (mut a, mut b, mut other) = (hub.subscribe("anna"), hub.subscribe("anna"), hub.subscribe("ben"));
        assert_eq!(hub.push("anna", &serde_json::json!({"type": "reminder"})), 2);
        assert_eq!(a.next().await.unwrap()["type"], "reminder");
        assert_eq!(b.next().await.unwrap()["type"], "reminder");
        assert!(other.events.try_recv().is_err());
        drop(a);
        assert_eq!(hub.open("anna"), 1);
        drop(b);
        assert_eq!((hub.open("anna"), hub.push("anna", &Value::Null)), (0, 0));
    }

    #[tokio::test]
    async fn a_receipt_resolves_only_its_own_persons_waiter() {
        let hub = Arc::new(Notify::default());
        let mut awaited = hub.awaiting("anna", "r1");
        assert!(!hub.shown("ben", "r1"), "another person's receipt resolves nothing");
        assert!(!hub.shown("anna", "r2"));
        assert!(hub.shown("anna", "r1"));
        awaited.shown().await;
        assert!(!hub.shown("anna", "r1"), "a receipt counts once");
        drop(hub.awaiting("anna", "r3"));
        assert!(!hub.shown("anna", "r3"), "a waiter given up is forgotten");
        let (mut a, b) = (hub.awaiting("anna", "r4"), hub.awaiting("ben", "r5"));
        hub.answered("anna");
        a.shown().await;
        assert!(hub.shown("ben", "r5"), "her answer is no receipt of his");
        drop(b);
    }
}
