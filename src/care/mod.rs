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
pub mod corpus;
pub mod dialogue;
pub mod due;
pub mod home_assistant;
pub mod note;
pub mod notice;
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

/// Who did something for a person's care: the person themselves on a channel, or somebody on their behalf.
/// Only the person's own acts are a sign of their life (the daily check-in asks whoever else acted).
#[derive(Debug, Clone, Copy)]
pub enum By<'a> {
    /// The person, on `api`, `said`, `house_line` or `phone`.
    Person(&'a str),
    /// One of their carers (on the board), by display name.
    Carer(&'a str),
    /// An administrator (in the panel), by display name.
    Admin(&'a str),
}

impl<'a> By<'a> {
    /// The channel the care log records: the person's, else `carer` or `admin`.
    pub fn channel(self) -> &'a str {
        match self {
            Self::Person(channel) => channel,
            Self::Carer(_) => "carer",
            Self::Admin(_) => "admin",
        }
    }

    /// The care log's detail: who acted on the person's behalf, by display name; none for the person.
    pub fn note(self) -> Option<note::Note> {
        match self {
            Self::Person(_) => None,
            Self::Carer(name) => Some(note::BY_CARER.with(&[("carer", name.into())])),
            Self::Admin(name) => Some(note::BY_ADMIN.with(&[("admin", name.into())])),
        }
    }
}

/// How a user is named to others: their display name, else their name.
pub fn shown_name(user: &crate::store::users::User) -> &str {
    Some(user.display_name.trim())
        .filter(|n| !n.is_empty())
        .unwrap_or(&user.name)
}

/// Who looked after something, as people read it: a carer (`carer:<name>`) by display name (`names`, by user
/// name), a contact's link as `link`, a contact as their address.
pub fn looked_after_by(by: &str, names: &std::collections::HashMap<String, String>) -> String {
    match by.strip_prefix("carer:") {
        Some(name) => names
            .get(name)
            .filter(|shown| !shown.trim().is_empty())
            .map_or(name, String::as_str)
            .to_string(),
        None => by.to_string(),
    }
}

/// Confirms the person's reminder `id` being delivered, `by` the person (on a channel) or on their behalf:
/// recorded with the reminder's deliveries (with who, for a carer or an admin) and counted; only the person's
/// own confirmation is a sign of life. False when it was not being delivered.
pub async fn confirm(app: &App, user_id: &str, id: &str, by: By<'_>) -> crate::error::Result<bool> {
    if !app.store.confirm_reminder(user_id, id).await? {
        return Ok(false);
    }
    app.metrics.incr(
        crate::metrics::REMINDERS_TOTAL,
        &[("event", "confirmed"), ("channel", by.channel())],
    );
    let note = by.note();
    app.store
        .add_reminder_delivery(id, by.channel(), "confirmed", note.as_ref().map(note::Note::english))
        .await?;
    if matches!(by, By::Person(_)) {
        // Her confirmation shows she had it, whether or not her client said so.
        app.notify.answered(user_id);
        checkin::sign(app, user_id).await;
    }
    crate::carers::changed(app, user_id).await;
    Ok(true)
}

/// The person answered yes on `channel` (a 1 or a spoken yes on a call): the reminder is confirmed, the
/// check-in answered; both are a sign of life.
pub async fn answered(app: &App, user_id: &str, what: &Confirm, channel: &str) {
    let done = match what {
        Confirm::Reminder(id) => confirm(app, user_id, id, By::Person(channel)).await.map(drop),
        Confirm::Checkin => checkin::signed(app, user_id, channel).await,
        Confirm::Alarm(_) => Ok(()),
    };
    if let Err(err) = done {
        tracing::error!(%err, "an answer on a call was not stored");
    }
}
