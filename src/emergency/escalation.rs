//! Reminders: when no contact has confirmed an alarm within `EMERGENCY_ESCALATION_MINUTES`, the alarm goes
//! out once more on every channel, saying that nobody has confirmed yet.
//!
//! The due time lives in the database (`emergency_alarms.escalate_at`), not in a timer, so a restart loses
//! nothing: a worker looks once a second for due reminders and claims each with one conditional UPDATE that
//! pushes it forward by a lease. A gateway that dies while sending leaves the reminder to be sent again after
//! the lease; several gateways send each reminder once.

use std::sync::Arc;
use std::time::Duration;

use super::send::{Sending, Target};
use super::{Press, build_dossier};
use crate::app::App;
use crate::store::emergency::Alarm;
use crate::store::now_ms;

/// How often the worker looks for due reminders.
const TICK: Duration = Duration::from_secs(1);

/// Runs until the task is dropped.
pub async fn run(app: Arc<App>) {
    let lease_ms = (app.settings.emergency.channel_timeout_secs as i64 + 30) * 1000;
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        tick.tick().await;
        match app.store.claim_due_escalations(lease_ms).await {
            Ok(due) => {
                for alarm in due {
                    tokio::spawn(escalate(app.clone(), alarm));
                }
            }
            Err(err) => tracing::warn!(%err, "could not look for due emergency reminders"),
        }
    }
}

/// Sends one reminder and records it.
#[tracing::instrument(skip_all, fields(alarm = %alarm.id))]
async fn escalate(app: Arc<App>, alarm: Alarm) {
    let user = match app.store.user_by_id(&alarm.user_id).await {
        Ok(Some(user)) => user,
        Ok(None) => return,
        Err(err) => {
            tracing::warn!(%err, "emergency reminder postponed: the store did not answer");
            return;
        }
    };
    let prefs = app.store.prefs(&user.id).await.unwrap_or_default();
    let press: Press = serde_json::from_str(&alarm.press).unwrap_or_default();
    let dossier = build_dossier(&app, &user, &prefs, (&alarm.lang, &press));
    let targets: Vec<Target> = match app.store.deliveries(&alarm.id).await {
        Ok(rows) => rows
            .iter()
            .filter_map(|d| Target::from_stored(&d.channel, &d.recipient))
            .collect(),
        Err(err) => {
            tracing::warn!(%err, "emergency reminder postponed: the store did not answer");
            return;
        }
    };
    let minutes = (now_ms() - alarm.created_at) / 60_000;
    let sending = Sending::start(&app, &user, &alarm, &dossier, &targets, Some(minutes)).await;
    let (deliveries, _) = sending.to_end().await;
    let details = super::Logged::escalation(&deliveries, minutes).to_json();
    let stored = async {
        app.store
            .log_emergency(&user.id, "escalated", &details, Some(&alarm.id))
            .await?;
        Ok::<_, crate::error::ApiError>(app.store.finish_escalation(&alarm.id).await?)
    };
    if let Err(err) = stored.await {
        tracing::error!(%err, "emergency reminder sent but not recorded");
    }
    app.metrics.incr(crate::metrics::EMERGENCY_ESCALATIONS_TOTAL, &[]);
    let reached = deliveries
        .iter()
        .filter(|d| d.delivered && d.channel != "webhook")
        .count();
    tracing::warn!(
        reached,
        "nobody confirmed the emergency alarm; reminder sent on every channel"
    );
}
