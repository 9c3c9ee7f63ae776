//! Sends the care notices waiting in the outbox ([`crate::store::outbox`]): claimed like a reminder (one
//! instance sends each), sent, and marked sent once; a message that fails is tried again after a growing
//! pause (30 s, doubling, at most 30 minutes) until it is sent or a day has passed. Every try is recorded with
//! the reminder's deliveries or in the care log, so a relay that keeps failing shows there and in the admin's
//! health.

use std::sync::Arc;

use super::LEASE_MS;
use crate::app::App;
use crate::error::Result;
use crate::store::outbox::Waiting;

/// How long a care notice is tried: after a day it tells of something long past.
pub const EXPIRES_MS: i64 = 24 * 3_600_000;
/// The first pause after a failed try; it doubles with each.
const FIRST_PAUSE_MS: i64 = 30_000;
/// The longest pause between tries.
const LONGEST_PAUSE_MS: i64 = 30 * 60_000;

/// Sends what is waiting by `now` (epoch milliseconds): how many messages were claimed.
pub async fn due(app: &Arc<App>, now: i64) -> Result<usize> {
    let claim = crate::store::new_id();
    let claimed = app.store.claim_outbox(now, now + LEASE_MS, &claim).await?;
    let sends = claimed.iter().map(|message| send(app, message, now, &claim));
    for done in futures_util::future::join_all(sends).await {
        done?;
    }
    Ok(claimed.len())
}

/// [`due`] for a notice just written: sent at once, apart, so that a slow relay holds up nothing else.
pub fn soon(app: &Arc<App>, now: i64) {
    let app = app.clone();
    tokio::spawn(async move {
        if let Err(err) = due(&app, now).await {
            tracing::warn!(%err, "care notices could not be sent");
        }
    });
}

async fn send(app: &Arc<App>, message: &Waiting, now: i64, claim: &str) -> Result<()> {
    match super::notice::send(app, message).await {
        Ok(to) => {
            if app.store.outbox_sent(&message.id, claim).await? {
                record(app, message, "sent", &to).await?;
            }
        }
        Err(why) => {
            let expired = now >= message.expires_at;
            let pause = FIRST_PAUSE_MS
                .saturating_mul(1 << (message.attempts - 1).clamp(0, 16))
                .min(LONGEST_PAUSE_MS);
            let retry_at = (!expired).then_some(now + pause);
            app.store.outbox_failed(&message.id, claim, retry_at, &why).await?;
            let status = if expired { "expired" } else { "failed" };
            tracing::warn!(user = %message.user_id, channel = %message.channel, status, "a care notice did not go out: {why}");
            record(app, message, status, &why).await?;
        }
    }
    Ok(())
}

/// Records a try: with the reminder's deliveries, or in the care log (the check-in's notice).
async fn record(app: &App, message: &Waiting, status: &str, detail: &str) -> Result<()> {
    match &message.reminder_id {
        Some(id) => {
            app.metrics.incr(
                crate::metrics::REMINDERS_TOTAL,
                &[("event", "care_notice"), ("channel", status)],
            );
            app.store
                .add_reminder_delivery(id, &message.channel, status, Some(detail))
                .await?
        }
        None => {
            app.store
                .add_care_log(&message.user_id, super::CHECKIN, &message.channel, status, Some(detail))
                .await?
        }
    }
    Ok(())
}
