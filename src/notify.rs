//! Events pushed to a person's open connections on this instance (their pages on `/ws/chat`, their
//! `/ws/voice` connections): a reminder that is due reaches wherever the person is; on other instances
//! through [`crate::bus`]. Each connection holds a
//! [`Subscription`]; a connection that does not take its events in time misses them (the queue is short and
//! never blocks the sender).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::sync::mpsc;

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
}
