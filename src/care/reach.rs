//! Delivery where the person is. The person's `reminder_via` pref orders the channels (`page`, `house_line`,
//! `phone`); without it: the page when one of their pages or voice connections is open, else the house line
//! when their `phone_landline` is an internal number of the house, else their mobile by Twilio. The channels are tried in order until one reaches the
//! person; each try is told back, for the reminder's deliveries or the care log.
//!
//! - `page`: a `reminder` or `checkin` event to every open `/ws/chat` and `/ws/voice` connection of the person
//!   on this instance and the others (the voice speaks its `said`); reached when one said it showed it.
//! - `house_line`: a call over the house's telephone (`lines::Dialer`), the words said in the person's voice,
//!   then "say yes or press 1"; reached when the person picked up. Held back in quiet hours.
//! - `phone`: a call to `phone_mobile` through Twilio ([`super::phone`]), the same words; reached when Twilio
//!   took the call. Held back in quiet hours.
//! - `home_assistant`: an announcement on the person's Assist satellite ([`super::home_assistant`]); only
//!   where `reminder_via` names it. Held back in quiet hours.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::note::{self, Note};
use crate::app::App;
use crate::lines::{AlarmCall, Confirm};
use crate::prefs::Prefs;
use crate::store::users::User;

use crate::prefs::REMINDER_CHANNELS as CHANNELS;

/// How long care's call may ring before it counts as not answered.
const RING: Duration = Duration::from_secs(30);
/// What the call may take beyond its ringing (the registrar's silence, the words' synthesis).
const CALL_SLACK: Duration = Duration::from_secs(15);

/// What reaches the person.
pub struct Message {
    /// The page's event.
    pub event: Value,
    /// The words: spoken on a voice connection, and on a call.
    pub said: String,
    /// On a call, after the words: "Sagen Sie ja oder drücken Sie die 1."
    pub ask: String,
    /// On a call, after a yes.
    pub thanks: String,
    /// What a yes on a call confirms; none: the call only tells.
    pub confirm: Option<Confirm>,
    /// The person's connections on other instances, when the look knows them already (none: asked).
    pub elsewhere: Option<i64>,
}

/// One try on one channel.
#[derive(Debug, Clone)]
pub struct Tried {
    pub channel: &'static str,
    /// `delivered` (it reached the person), `unreachable` (nobody there), `held` (quiet hours), `failed`.
    pub status: &'static str,
    /// What came of it, as data ([`note`]): stored as its English record.
    pub detail: Note,
}

impl Tried {
    fn new(channel: &'static str, status: &'static str, detail: impl Into<Note>) -> Self {
        Self {
            channel,
            status,
            detail: detail.into(),
        }
    }
}

/// The channels to try for the person, in order.
pub fn order(app: &App, prefs: &Prefs) -> Vec<&'static str> {
    match prefs.reminder_via.as_deref() {
        Some(chosen) if !chosen.is_empty() => chosen
            .iter()
            .filter_map(|c| CHANNELS.iter().find(|k| *k == c).copied())
            .collect(),
        _ => {
            let internal = internal_number(prefs).is_some();
            let mobile =
                !Prefs::text(&prefs.phone_mobile).is_empty() && app.settings.emergency.twilio_account_sid.is_some();
            CHANNELS
                .iter()
                .copied()
                .filter(|c| match *c {
                    "house_line" => internal,
                    "phone" => mobile,
                    // Only where the person named it: a satellite speaks into a room, not to a person.
                    "home_assistant" => false,
                    _ => true,
                })
                .collect()
        }
    }
}

/// The person's `phone_landline` when it is an internal number of the house (`611`, `**611`).
fn internal_number(prefs: &Prefs) -> Option<&str> {
    let number = Prefs::text(&prefs.phone_landline);
    (!number.is_empty() && !number.starts_with('+')).then_some(number)
}

/// Tries the person's channels in order until one reaches them; `calls` is false in quiet hours (calls are
/// held back, the page is not). Every try is answered.
pub async fn reach(
    app: &Arc<App>,
    user: &User,
    prefs: &Prefs,
    language: &str,
    msg: &Message,
    calls: bool,
) -> Vec<Tried> {
    let mut tried = Vec::new();
    for channel in order(app, prefs) {
        let this = match channel {
            "page" => page(app, &user.id, msg).await,
            "home_assistant" if !calls => Tried::new(channel, "held", note::QUIET_HOURS),
            "home_assistant" => satellite(app, prefs, msg).await,
            _ if !calls => Tried::new(channel, "held", note::QUIET_HOURS),
            "house_line" => house_line(app, user, prefs, language, msg).await,
            _ => mobile(app, &user.id, prefs, language, msg).await,
        };
        let reached = this.status == "delivered";
        tried.push(this);
        if reached {
            break;
        }
    }
    if tried.is_empty() {
        tried.push(Tried::new("none", "unreachable", note::NO_CHANNEL));
    }
    tried
}

/// The person's pages and voice connections, on this instance and (with PostgreSQL) every other: delivered
/// only when one of them says it showed the event (its `shown` frame, within `CARE_RECEIPT_SECONDS`); a
/// page that took it and never showed it (a dead tab, an instance gone) lets the next channel try.
async fn page(app: &App, user_id: &str, msg: &Message) -> Tried {
    let receipt = crate::store::new_id();
    let mut event = msg.event.clone();
    event["receipt"] = receipt.clone().into();
    let mut awaited = app.notify.awaiting(user_id, &receipt);
    let here = app.notify.open(user_id);
    let taken = crate::bus::push(app, user_id, &event, msg.elsewhere).await;
    if taken == 0 {
        return Tried::new("page", "unreachable", note::NO_PAGE_OPEN);
    }
    let wait = app.settings.care.receipt;
    let shown = async {
        match taken > here {
            true => tokio::select! {
                () = awaited.shown() => {}
                () = crate::bus::shown_elsewhere(app, user_id, &receipt) => {}
            },
            false => awaited.shown().await,
        }
    };
    match tokio::time::timeout(wait, shown).await {
        Ok(()) => Tried::new("page", "delivered", note::CONNECTIONS.with(&[("count", taken.into())])),
        Err(_) => Tried::new(
            "page",
            "unreachable",
            note::NOT_SHOWN.with(&[("count", taken.into()), ("seconds", wait.as_secs().into())]),
        ),
    }
}

async fn house_line(app: &App, user: &User, prefs: &Prefs, language: &str, msg: &Message) -> Tried {
    let to = Prefs::text(&prefs.phone_landline);
    if to.is_empty() {
        return Tried::new("house_line", "unreachable", note::NO_LANDLINE);
    }
    let dialer = match app.lines.dialer() {
        Ok(dialer) => dialer,
        Err(why) => return Tried::new("house_line", "failed", why),
    };
    let call = AlarmCall {
        to: to.to_string(),
        user: user.clone(),
        language: language.to_string(),
        message: msg.said.clone(),
        ask: msg.ask.clone(),
        thanks: msg.thanks.clone(),
        confirms: msg.confirm.clone(),
        ring: RING,
    };
    match tokio::time::timeout(RING + CALL_SLACK, dialer.dial(call)).await {
        Ok(Ok(())) => Tried::new(
            "house_line",
            "delivered",
            note::ANSWERED_AT.with(&[("number", to.into())]),
        ),
        Ok(Err(why)) => Tried::new("house_line", "unreachable", why),
        Err(_) => Tried::new("house_line", "unreachable", note::CALL_SLOW),
    }
}

/// An announcement on the person's Assist satellite: reached when Home Assistant took it.
async fn satellite(app: &App, prefs: &Prefs, msg: &Message) -> Tried {
    let entity = Prefs::text(&prefs.ha_satellite);
    if entity.is_empty() {
        return Tried::new("home_assistant", "unreachable", note::NO_SATELLITE);
    }
    match super::home_assistant::announce(app, entity, &msg.said).await {
        Ok(()) => Tried::new(
            "home_assistant",
            "delivered",
            note::ANNOUNCED.with(&[("entity", entity.into())]),
        ),
        Err(why) => Tried::new("home_assistant", "failed", why),
    }
}

/// A call to the person's mobile through Twilio: placed is as far as the gateway can tell (the answer, if
/// any, comes to [`super::called`]).
async fn mobile(app: &App, user_id: &str, prefs: &Prefs, language: &str, msg: &Message) -> Tried {
    let to = Prefs::text(&prefs.phone_mobile);
    if to.is_empty() {
        return Tried::new("phone", "unreachable", note::NO_MOBILE);
    }
    let call = super::phone::call(app, (user_id, to, language), &msg.said, &msg.ask, msg.confirm.as_ref());
    match tokio::time::timeout(CALL_SLACK, call).await {
        Ok(Ok(())) => Tried::new("phone", "delivered", note::CALLED_MOBILE.with(&[("number", to.into())])),
        Ok(Err(why)) => Tried::new("phone", "failed", why),
        Err(_) => Tried::new("phone", "failed", note::TWILIO_SLOW),
    }
}

/// Whether `now` falls in the gateway's quiet hours in the person's zone: their end, if so.
pub fn quiet_until(app: &App, zone: &str, now: i64) -> Option<i64> {
    let quiet = app.settings.care.quiet_hours?;
    let ends = quiet.holds(&super::local(now, zone))?;
    Some(ends.timestamp().as_millisecond())
}

/// From when something due at `due_at` counts as late: its time, or the end of the quiet hours that held it.
pub fn late_from(app: &App, zone: &str, due_at: i64) -> i64 {
    app.settings
        .care
        .quiet_hours
        .and_then(|quiet| quiet.holds(&super::local(due_at, zone)))
        .map_or(due_at, |end| end.timestamp().as_millisecond().max(due_at))
}
