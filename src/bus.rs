//! Care's events across instances, with PostgreSQL as the bus (no new service): each instance writes down
//! where people have connections open (`care_presence`), and an instance that delivers a reminder or asks
//! the check-in for a person whose page or voice connection is open on another sends the event there with
//! `pg_notify`; every instance listens (`LISTEN care_events`) and pushes what is meant for its connections.
//! A connection's receipt (`shown`) for such an event goes back through the store (`care_receipts`).
//! With SQLite there is one instance and nothing to carry.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use sqlx::postgres::PgListener;

use crate::app::App;
use crate::store::{Pool, now_ms};

/// The notification channel.
const CHANNEL: &str = "care_events";
/// How often an instance says its connections are still open.
const REFRESH: Duration = Duration::from_secs(30);
/// Presence older than this counts for nothing (its instance stopped).
const FRESH_MS: i64 = 90_000;
/// PostgreSQL's limit on a notification's payload is 8000 bytes.
const MAX_PAYLOAD: usize = 7900;

/// Runs while the gateway does (PostgreSQL only): listens for events meant for this instance's connections
/// and keeps its presence written down.
pub async fn run(app: Arc<App>) {
    let Pool::Postgres(pool) = &app.store.pool else {
        return;
    };
    let changes = app.notify.watch();
    tokio::join!(listen(&app, pool), present(&app, changes));
}

/// Pushes `event` to `user_id`'s connections here and, through the bus, on every other instance that has
/// one open (`elsewhere`: how many, when the caller knows; else asked): how many connections it went to.
pub async fn push(app: &App, user_id: &str, event: &Value, elsewhere: Option<i64>) -> usize {
    let here = app.notify.push(user_id, event);
    if !matches!(app.store.pool, Pool::Postgres(_)) {
        return here;
    }
    let elsewhere = match elsewhere {
        Some(n) => n,
        None => match app.store.presence_elsewhere(user_id, &app.instance, since()).await {
            Ok(n) => n,
            Err(err) => {
                tracing::warn!(%err, "where the person's connections are could not be read");
                return here;
            }
        },
    };
    if elsewhere == 0 {
        return here;
    }
    let payload = json!({"to": user_id, "from": app.instance, "event": event}).to_string();
    if payload.len() > MAX_PAYLOAD {
        tracing::warn!(
            bytes = payload.len(),
            "an event too long for the bus stays on this instance"
        );
        return here;
    }
    match app.store.notify(CHANNEL, &payload).await {
        Ok(_) => here + elsewhere as usize,
        Err(err) => {
            tracing::warn!(%err, "an event could not be sent to the other instances");
            here
        }
    }
}

/// A connection of `user_id` here showed the event of `receipt`: the instance that pushed it learns so, at
/// once when it is this one, else (with PostgreSQL) from the store, where it looks until its wait ends.
pub async fn shown(app: &App, user_id: &str, receipt: &str) {
    if app.notify.shown(user_id, receipt) || !matches!(app.store.pool, Pool::Postgres(_)) {
        return;
    }
    if let Err(err) = app.store.put_receipt(receipt, user_id).await {
        tracing::warn!(%err, "a receipt could not be written for the other instances");
    }
}

/// Until a connection of `user_id` on another instance showed the event of `receipt` (pending while none
/// has: bound it with a timeout); looks every quarter of a second.
pub async fn shown_elsewhere(app: &App, user_id: &str, receipt: &str) {
    loop {
        tokio::time::sleep(Duration::from_millis(250)).await;
        match app.store.receipt_shown(receipt, user_id).await {
            Ok(true) => return,
            Ok(false) => {}
            Err(err) => tracing::warn!(%err, "whether a page elsewhere showed an event could not be read"),
        }
    }
}

/// From when presence counts: [`FRESH_MS`] ago.
pub fn since() -> i64 {
    now_ms() - FRESH_MS
}

/// The connections on other instances of each of `user_ids` (PostgreSQL; empty with SQLite, or when they
/// cannot be read: then each push asks).
pub async fn elsewhere_of(app: &App, user_ids: &[String]) -> Option<std::collections::HashMap<String, i64>> {
    if !matches!(app.store.pool, Pool::Postgres(_)) {
        return Some(std::collections::HashMap::new());
    }
    app.store
        .presence_elsewhere_of(user_ids, &app.instance, since())
        .await
        .inspect_err(|err| tracing::warn!(%err, "where people's connections are could not be read"))
        .ok()
}

/// Listens on the channel, reconnecting after a second when the connection breaks.
async fn listen(app: &App, pool: &sqlx::PgPool) {
    loop {
        let mut listener = match PgListener::connect_with(pool).await {
            Ok(listener) => listener,
            Err(err) => {
                tracing::warn!(%err, "the care bus could not connect; trying again");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        if let Err(err) = listener.listen(CHANNEL).await {
            tracing::warn!(%err, "the care bus could not listen; trying again");
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        }
        while let Ok(note) = listener.recv().await {
            deliver(app, note.payload());
        }
        tracing::warn!("the care bus's connection broke; listening again");
    }
}

/// Pushes an event from another instance to this one's connections of its person.
fn deliver(app: &App, payload: &str) {
    let Ok(note) = serde_json::from_str::<Value>(payload) else {
        tracing::warn!("a care bus notification that is not JSON was ignored");
        return;
    };
    if note["from"] == app.instance.as_str() {
        return;
    }
    if let Some(user_id) = note["to"].as_str() {
        app.notify.push(user_id, &note["event"]);
    }
}

/// Writes down this instance's connections as they open and close, and refreshes them every [`REFRESH`].
async fn present(app: &App, mut changes: tokio::sync::mpsc::Receiver<String>) {
    if let Err(err) = app.store.refresh_presence(&app.instance, true).await {
        tracing::warn!(%err, "the presence of the last run could not be cleared");
    }
    let mut refresh = tokio::time::interval(REFRESH);
    loop {
        let written = tokio::select! {
            changed = changes.recv() => match changed {
                Some(user_id) => {
                    let open = app.notify.open(&user_id);
                    app.store.set_presence(&app.instance, &user_id, open).await
                }
                None => return,
            },
            _ = refresh.tick() => app.store.refresh_presence(&app.instance, false).await,
        };
        if let Err(err) = written {
            tracing::warn!(%err, "this instance's presence could not be written");
        }
    }
}
