//! The carers' board's rows: where each resident's care stands, everything that needs the carer on it. Every
//! alarm nobody looked after (not only the latest), every care notice nobody looked after, the day the resident
//! left the check-in unanswered until a carer looks after it; what was looked after stays for a day, with who,
//! carers named by their display name. Read for all of a carer's residents in one pass ([`today`]), filtered by
//! the carer in SQL (`Store::board_of`).

use std::collections::HashMap;

use serde::Serialize;
use utoipa::ToSchema;

use super::care::{Checkin, checkin_of};
use crate::app::App;
use crate::care::looked_after_by as named;
use crate::error::Result;
use crate::store::checkins::{CareNotice, StoredCheckin};
use crate::store::emergency::Alarm;
use crate::store::users::User;

/// What was looked after stays on the board for this long (an alarm, a missed check-in); what was not stays
/// until somebody does.
pub(super) const SHOWN_MS: i64 = 24 * 3_600_000;

/// A person, as carers and residents see each other.
#[derive(Serialize, ToSchema)]
pub struct Person {
    pub(super) id: String,
    name: String,
    display_name: String,
}

impl From<User> for Person {
    fn from(user: User) -> Self {
        Self {
            id: user.id,
            name: user.name,
            display_name: user.display_name,
        }
    }
}

/// The names of a resident's carers by user name, so that `carer:<name>` is said as the carer's display name.
pub(super) type Names = HashMap<String, String>;

/// A resident on their carer's list: who, and where their care stands today.
#[derive(Serialize, ToSchema)]
pub(super) struct Resident {
    #[serde(flatten)]
    pub(super) person: Person,
    pub(super) checkin: Checkin,
    /// Reminders waiting or being delivered.
    reminders_waiting: usize,
    /// Reminders not confirmed in time.
    reminders_missed: usize,
    /// The next reminder's time, RFC 3339 in the resident's zone.
    next_reminder_at: Option<String>,
    /// The resident's latest alarm (the last of `alarms`), open or looked after.
    pub(super) alarm: Option<TodaysAlarm>,
    /// Every alarm of the last day, and every older one nobody looked after, oldest first.
    pub(super) alarms: Vec<TodaysAlarm>,
    /// The resident's latest care notice that nobody looks after yet (the last of `notices`).
    notice: Option<Notice>,
    /// Every care notice of the last day that nobody looks after yet, oldest first.
    notices: Vec<Notice>,
    /// The last day the resident left the check-in unanswered: until a carer looks after it, then for a day.
    missed_checkin: Option<MissedCheckin>,
    /// Where the carer calls the resident: their landline (or handset in the house), else their mobile.
    phone: Option<String>,
}

/// A care notice: what the resident's contacts (and carers) were told, and who looks after it.
#[derive(Clone, Serialize, ToSchema)]
pub(super) struct Notice {
    /// What to acknowledge it by.
    id: String,
    /// The notice's subject ("Erika Muster hat sich heute bis 10:00 Uhr nicht gemeldet").
    about: String,
    /// When it was sent, RFC 3339 in the resident's zone.
    sent_at: String,
    /// `link` (a contact, by the mail's link) or `carer:<name>`; null while nobody does.
    looked_after_by: Option<String>,
    /// The same, as people read it: a carer's display name, or `link`.
    looked_after_name: Option<String>,
}

impl Notice {
    pub(super) fn of(n: CareNotice, zone: &str, names: &Names) -> Self {
        let by = n.acknowledged_by.or(n.acknowledged_at.map(|_| "link".to_string()));
        Self {
            id: n.id,
            about: n.about,
            sent_at: crate::care::rfc3339(n.created_at, zone),
            looked_after_name: by.as_deref().map(|by| named(by, names)),
            looked_after_by: by,
        }
    }
}

/// A resident's alarm on the board.
#[derive(Clone, Serialize, ToSchema)]
pub(super) struct TodaysAlarm {
    id: String,
    /// When it was raised, RFC 3339 in the resident's zone.
    raised_at: String,
    /// What came of it: `sending`, `alerted`, `no_recipients` or `delivery_failed`.
    status: String,
    /// Who acknowledged it (contacts, carers as `carer:<name>`), first first; empty while it is open.
    looked_after_by: Vec<String>,
    /// The same, as people read it: carers by display name, contacts by address.
    looked_after_names: Vec<String>,
}

/// The day a resident left the check-in unanswered (asked, asked again, the contacts told).
#[derive(Serialize, ToSchema)]
pub(super) struct MissedCheckin {
    /// The end of that day's window, RFC 3339 in the resident's zone.
    due_at: String,
    /// `carer:<name>` once a carer looks after it; null until then.
    looked_after_by: Option<String>,
    /// The same, as people read it: the carer's display name.
    looked_after_name: Option<String>,
}

impl MissedCheckin {
    /// The missed day of `stored`, while it is on the board (open, or looked after within the last day).
    fn of(stored: Option<&StoredCheckin>, zone: &str, names: &Names, since: i64) -> Option<Self> {
        let stored = stored?;
        let due_at = stored.missed_due_at?;
        let by = stored.missed_acknowledged_by.clone();
        if by.is_some() && due_at < since {
            return None;
        }
        Some(Self {
            due_at: crate::care::rfc3339(due_at, zone),
            looked_after_name: by.as_deref().map(|by| named(by, names)),
            looked_after_by: by,
        })
    }
}

/// An alarm as the board shows it, with who acknowledged it (`acks`, by alarm).
fn alarm_of(alarm: Alarm, zone: &str, acks: &mut HashMap<String, Vec<String>>, names: &Names) -> TodaysAlarm {
    let by = acks.remove(&alarm.id).unwrap_or_default();
    TodaysAlarm {
        raised_at: crate::care::rfc3339(alarm.created_at, zone),
        status: alarm.status,
        looked_after_names: by.iter().map(|by| named(by, names)).collect(),
        looked_after_by: by,
        id: alarm.id,
    }
}

/// Where the care of `carer`'s residents (or of `only` of them) stands today: read in eight statements however
/// many they are.
pub(super) async fn today(app: &App, carer: &str, only: Option<&str>) -> Result<Vec<Resident>> {
    let since = crate::store::now_ms().saturating_sub(SHOWN_MS);
    let mut board = app.store.board_of(carer, only, since).await?;
    let names = std::mem::take(&mut board.carer_names);
    let mut residents = Vec::with_capacity(board.residents.len());
    for user in std::mem::take(&mut board.residents) {
        let prefs = board.prefs.remove(&user.id).unwrap_or_default();
        let stored = board.checkins.get(&user.id);
        let checkin = checkin_of(app, &prefs, stored);
        let zone = checkin.time_zone.clone();
        let missed_checkin = MissedCheckin::of(stored, &zone, &names, since);
        let counts = board.reminders.remove(&user.id).unwrap_or_default();
        let alarms: Vec<TodaysAlarm> = board
            .alarms
            .remove(&user.id)
            .unwrap_or_default()
            .into_iter()
            .map(|alarm| alarm_of(alarm, &zone, &mut board.acknowledged_by, &names))
            .collect();
        let notices: Vec<Notice> = board
            .notices
            .remove(&user.id)
            .unwrap_or_default()
            .into_iter()
            .map(|n| Notice::of(n, &zone, &names))
            .collect();
        let phone = [&prefs.phone_landline, &prefs.phone_mobile]
            .into_iter()
            .map(crate::prefs::Prefs::text)
            .find(|p| !p.is_empty())
            .map(str::to_string);
        residents.push(Resident {
            reminders_waiting: counts.waiting.max(0) as usize,
            reminders_missed: counts.missed.max(0) as usize,
            next_reminder_at: counts.next_at.map(|at| crate::care::rfc3339(at, &zone)),
            alarm: alarms.last().cloned(),
            alarms,
            notice: notices.last().cloned(),
            notices,
            missed_checkin,
            phone,
            checkin,
            person: user.into(),
        });
    }
    Ok(residents)
}
