//! A carer's daily summary: at the time they chose (`carer_summary_at`, in their own zone), a mail to their
//! `email` telling, per resident, who called for help, who left reminders unconfirmed, who did not answer the
//! check-in and who confirmed theirs, the residents who need them first. Each carer's day is claimed in the
//! store before the mail goes out (`carer_summaries`), so of several instances exactly one sends it; a mail
//! that fails gives the claim back and the next look tries again, until the day ends.

use std::sync::Arc;
use std::time::Duration;

use jiff::Zoned;

use crate::app::App;
use crate::error::Result;
use crate::phrasebook::Words;
use crate::prefs::Prefs;

/// How often the summaries are looked at.
const EVERY: Duration = Duration::from_secs(60);

/// Runs until dropped: every minute, the summaries due.
pub async fn run(app: Arc<App>) {
    let mut tick = tokio::time::interval(EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        tick.tick().await;
        if let Err(err) = due(&app, crate::store::now_ms()).await {
            tracing::warn!(%err, "the carers' daily summaries could not be looked at");
        }
    }
}

/// Sends the summaries due by `now` (epoch milliseconds): how many were sent.
pub async fn due(app: &App, now: i64) -> Result<usize> {
    if app.settings.smtp.host.is_none() {
        return Ok(0);
    }
    let carers = app.store.all_carer_ids().await?;
    let prefs = app.store.prefs_of(&carers).await?;
    let mut sent = 0;
    for (carer, prefs) in &prefs {
        let at = Prefs::text(&prefs.carer_summary_at);
        let to = Prefs::text(&prefs.email);
        let Ok(at) = jiff::civil::Time::strptime("%H:%M", at) else {
            continue;
        };
        let today = crate::care::local(now, &super::person_zone_name(app, prefs));
        if to.is_empty() || today.time() < at {
            continue;
        }
        let day = today.date().to_string();
        if !app.store.claim_summary(carer, &day).await? {
            continue;
        }
        match send(app, carer, (prefs, to), &today).await {
            Ok(()) => sent += 1,
            Err(why) => {
                tracing::warn!(carer = %carer, "a carer's daily summary did not go out: {why}");
                app.store.release_summary(carer, &day).await?;
            }
        }
    }
    Ok(sent)
}

/// Writes and mails `carer`'s summary of the day up to `now`.
async fn send(app: &App, carer: &str, (prefs, to): (&Prefs, &str), now: &Zoned) -> std::result::Result<(), String> {
    let lang = crate::emergency::language(app, prefs, None);
    let words = Words::formal(&lang);
    let since = now
        .start_of_day()
        .map_err(|e| e.to_string())?
        .timestamp()
        .as_millisecond();
    let residents = app.store.residents_of(carer).await.map_err(|e| e.to_string())?;
    let ids: Vec<String> = residents.iter().map(|r| r.id.clone()).collect();
    let profiles = app.store.prefs_of(&ids).await.map_err(|e| e.to_string())?;
    let mut days = Vec::new();
    for resident in residents {
        // The name the resident's notices carry: their full name, else the account's.
        let name = profiles.get(&resident.id).map_or("", |p| Prefs::text(&p.full_name));
        let name = if name.is_empty() {
            resident.display_name.clone()
        } else {
            name.to_string()
        };
        days.push(
            day_of(app, &resident.id, name, since)
                .await
                .map_err(|e| e.to_string())?,
        );
    }
    days.sort_by_key(|d| (d.rank(), d.name.clone()));
    let lines: Vec<String> = days.iter().map(|d| d.line(words, now.time_zone())).collect();
    let subject = words.with("carer-summary-subject", &[("date", now.date().to_string().into())]);
    let mut body = format!("{}\n\n{}\n", words.with("carer-summary-intro", &[]), lines.join("\n"));
    if let Some(board) = crate::carers::board_link(app) {
        body.push_str(&format!(
            "\n{}\n",
            words.with("care-board-line", &[("link", board.into())])
        ));
    }
    let timeout = Duration::from_secs(app.settings.emergency.channel_timeout_secs);
    crate::emergency::mail::send(&app.settings.smtp, &[to.to_string()], &subject, body, timeout).await
}

/// A resident's day, as the summary tells it.
struct Day {
    name: String,
    /// Every call for help of the day, not only the latest.
    alarms_at: Vec<i64>,
    /// Reminders the resident confirmed.
    confirmed: usize,
    /// Reminders a carer or an admin confirmed for the resident: no sign of the resident's own.
    confirmed_by_carers: usize,
    missed: usize,
    /// The check-in's end today: answered (true), not answered (false), or none.
    checkin: Option<bool>,
}

impl Day {
    /// Who needs the carer first: a call for help, a silent check-in, a missed reminder, the rest.
    fn rank(&self) -> u8 {
        match self {
            d if !d.alarms_at.is_empty() => 0,
            d if d.checkin == Some(false) => 1,
            d if d.missed > 0 => 2,
            _ => 3,
        }
    }

    fn line(&self, words: Words, zone: &jiff::tz::TimeZone) -> String {
        let mut said = Vec::new();
        if !self.alarms_at.is_empty() {
            let times: Vec<String> = self
                .alarms_at
                .iter()
                .map(|at| {
                    let at = jiff::Timestamp::from_millisecond(*at).unwrap_or_default();
                    at.to_zoned(zone.clone()).strftime("%H:%M").to_string()
                })
                .collect();
            said.push(words.with("carer-summary-alarm", &[("time", times.join(", ").into())]));
        }
        match self.checkin {
            Some(true) => said.push(words.with("carer-summary-answered", &[])),
            Some(false) => said.push(words.with("carer-summary-silent", &[])),
            None => {}
        }
        if self.missed > 0 {
            said.push(words.with("carer-missed", &[("count", self.missed.into())]));
        }
        if self.confirmed > 0 {
            said.push(words.with("carer-summary-confirmed", &[("count", self.confirmed.into())]));
        }
        if self.confirmed_by_carers > 0 {
            let count = self.confirmed_by_carers.into();
            said.push(words.with("carer-summary-confirmed-by-carers", &[("count", count)]));
        }
        if said.is_empty() {
            said.push(words.with("carer-summary-quiet", &[]));
        }
        format!("- {}: {}", self.name, said.join("; "))
    }
}

/// What happened in `resident`'s care since `since`.
async fn day_of(app: &App, resident: &str, name: String, since: i64) -> Result<Day> {
    let deliveries = app.store.user_reminder_deliveries(resident, 200).await?;
    let today = || deliveries.iter().filter(|(d, _)| d.at >= since);
    let log = app.store.care_log(resident, 32).await?;
    let checkin = log
        .iter()
        .filter(|e| e.what == super::CHECKIN && e.at >= since)
        .find_map(|e| match e.status.as_str() {
            "ok" | "answered" => Some(true),
            "missed" => Some(false),
            _ => None,
        });
    let by_carer = |d: &crate::store::reminders::Delivery| matches!(d.channel.as_str(), "carer" | "admin");
    Ok(Day {
        alarms_at: app.store.alarm_times(resident, since).await?,
        confirmed: today().filter(|(d, _)| d.status == "confirmed" && !by_carer(d)).count(),
        confirmed_by_carers: today().filter(|(d, _)| d.status == "confirmed" && by_carer(d)).count(),
        missed: today().filter(|(d, _)| d.status == "missed").count(),
        checkin,
        name,
    })
}
