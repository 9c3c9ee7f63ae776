//! Care that comes to the person (issue 49): reminders and timers set by speaking or typing, and the daily
//! check-in. This part reads what people say, in German and English, deterministically ([`spoken`], with
//! [`numbers`]), works out when it is due in the person's time zone, across daylight-saving changes ([`due`],
//! [`crate::hours`]), says back what it understood ([`say`]), delivers what is due where the person is ([`schedule`],
//! [`checkin`], through [`reach`]) and tells the contacts what went unanswered ([`notice`]).

pub mod ack;
pub mod asked;
pub mod called;
pub mod checkin;
pub mod claim;
pub mod dialogue;
pub mod due;
pub mod grammar;
pub mod hearing;
pub mod home_assistant;
pub mod note;
pub mod notice;
pub mod numbers;
pub mod outbox;
pub mod phone;
pub mod reach;
pub mod say;
pub mod schedule;
pub mod spoken;
pub mod summary;
pub mod tools;

use crate::app::App;
use crate::lines::Confirm;

/// What the care log calls a check-in.
pub const CHECKIN: &str = "checkin";
/// How long a claim holds before another instance may deliver the reminder (or ask the check-in).
pub const LEASE_MS: i64 = 60_000;

pub use crate::zones::{local, person_zone, person_zone_name, rfc3339, zone, zone_name};

#[cfg(test)]
mod tests;

/// Confirms the person's reminder `id` being delivered, from `channel` (`api`, `said`, `house_line`): recorded
/// with the reminder's deliveries, counted, and a sign of life. False when it was not being delivered.
pub async fn confirm(app: &App, user_id: &str, id: &str, channel: &str) -> crate::error::Result<bool> {
    if !app.store.confirm_reminder(user_id, id).await? {
        return Ok(false);
    }
    app.metrics.incr(
        crate::metrics::REMINDERS_TOTAL,
        &[("event", "confirmed"), ("channel", channel)],
    );
    app.store.add_reminder_delivery(id, channel, "confirmed", None).await?;
    checkin::sign(app, user_id).await;
    crate::carers::changed(app, user_id).await;
    Ok(true)
}

/// The person answered yes on `channel` (a 1 or a spoken yes on a call): the reminder is confirmed, the
/// check-in answered; both are a sign of life.
pub async fn answered(app: &App, user_id: &str, what: &Confirm, channel: &str) {
    let done = match what {
        Confirm::Reminder(id) => confirm(app, user_id, id, channel).await.map(drop),
        Confirm::Checkin => checkin::signed(app, user_id, channel).await,
        Confirm::Alarm(_) => Ok(()),
    };
    if let Err(err) = done {
        tracing::error!(%err, "an answer on a call was not stored");
    }
}
