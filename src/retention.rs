//! Retention: what is older than its kind's `RETENTION_*_DAYS` (and a person's conversations older than her
//! own `conversation_retention_days`) is deleted at start and every hour, by one instance at a time (a lease),
//! in batches with a pause between them, so that turns and presses meanwhile never wait on the store long.
//! Counted in `purged_rows_total{kind}`. The time is passed in, so that tests set it.

use std::sync::Arc;
use std::time::Duration;

use crate::app::App;
use crate::store::purge::Kind;
use crate::store::{Store, StoreError};

/// How often the purge runs.
const EVERY: Duration = Duration::from_secs(3600);
/// Rows one statement deletes at most.
const BATCH: i64 = 500;
/// The pause between two batches, for the rest of the gateway's work.
const BETWEEN: Duration = Duration::from_millis(5);
/// The lease one instance holds while it purges.
const LEASE: &str = "retention";
const DAY_MS: i64 = 86_400_000;

/// Purges at start and every hour until dropped.
pub async fn run(app: Arc<App>) {
    loop {
        match purge_claimed(&app, crate::store::now_ms()).await {
            Ok(Some(purged)) if purged.iter().any(|(_, n)| *n > 0) => {
                let summary: Vec<String> = purged.iter().map(|(k, n)| format!("{} {n}", k.as_str())).collect();
                tracing::info!(purged = %summary.join(", "), "old data purged");
            }
            Ok(_) => {}
            Err(err) => tracing::warn!(%err, "the retention purge failed; it runs again within the hour"),
        }
        tokio::time::sleep(EVERY).await;
    }
}

/// One purge as of `now` (epoch milliseconds), when this instance claims it: the rows deleted by kind;
/// `None` when another instance is purging.
pub async fn purge_claimed(app: &App, now: i64) -> Result<Option<Vec<(Kind, u64)>>, StoreError> {
    let lease_ms = EVERY.as_millis() as i64;
    if !app.store.claim_lease(LEASE, &app.instance, lease_ms).await? {
        return Ok(None);
    }
    let purged = purge(app, now).await;
    app.store.release_lease(LEASE, &app.instance).await?;
    purged.map(Some)
}

/// Deletes what is older than its retention as of `now`.
async fn purge(app: &App, now: i64) -> Result<Vec<(Kind, u64)>, StoreError> {
    let mut purged = Vec::new();
    for kind in Kind::ALL {
        let mut rows = 0;
        if let Some(days) = app.settings.privacy.days(kind) {
            let before = now - i64::from(days) * DAY_MS;
            for step in 0..Store::purge_steps(kind) {
                rows += batches(|| app.store.purge_batch(kind, step, before, BATCH)).await?;
            }
        }
        if kind == Kind::Conversations {
            rows += own_choices(app, now).await?;
        }
        app.metrics
            .add(crate::metrics::PURGED_ROWS_TOTAL, &[("kind", kind.as_str())], rows);
        purged.push((kind, rows));
    }
    Ok(purged)
}

/// The conversations of people who keep fewer days than the gateway.
async fn own_choices(app: &App, now: i64) -> Result<u64, StoreError> {
    let gateway = app.settings.privacy.days(Kind::Conversations).map(u64::from);
    let mut rows = 0;
    for (user, days) in app.store.own_conversation_retention().await? {
        if gateway.is_some_and(|g| g <= days) {
            continue;
        }
        let before = now - days.min(36_500) as i64 * DAY_MS;
        for step in 0..2 {
            rows += batches(|| app.store.purge_conversations_of(&user, step, before, BATCH)).await?;
        }
    }
    Ok(rows)
}

/// Runs `batch` until it deletes nothing more; the rows deleted.
async fn batches<F, Fut>(batch: F) -> Result<u64, StoreError>
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Result<u64, StoreError>>,
{
    let mut total = 0;
    loop {
        let deleted = batch().await?;
        total += deleted;
        if deleted == 0 {
            return Ok(total);
        }
        tokio::time::sleep(BETWEEN).await;
    }
}
