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
use crate::store::carers::Board;

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
    let days = days_of(app, carer, since).await.map_err(|e| e.to_string())?;
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

/// The days of `carer`'s residents since `since`, as the summary orders them: who needs the carer first, then
/// those somebody looked after, then the rest; each group by urgency, then by name.
async fn days_of(app: &App, carer: &str, since: i64) -> Result<Vec<Day>> {
    let mut board = app.store.board_of(carer, None, since).await?;
    let mut days = Vec::new();
    for resident in std::mem::take(&mut board.residents) {
        // The name the resident's notices carry: their full name, else the account's.
        let full = board.prefs.get(&resident.id).map_or("", |p| Prefs::text(&p.full_name));
        let name = Some(full)
            .filter(|n| !n.is_empty())
            .unwrap_or(super::shown_name(&resident));
        days.push(day_of(app, &board, &resident.id, name.to_string(), since).await?);
    }
    days.sort_by_key(|d| (d.group(), d.rank(), d.name.clone()));
    Ok(days)
}

/// A resident's day, as the summary tells it.
struct Day {
    name: String,
    /// Every call for help of the day, not only the latest, and whether somebody looked after it.
    alarms: Vec<(i64, bool)>,
    /// Reminders the resident confirmed.
    confirmed: usize,
    /// Reminders a carer or an admin confirmed for the resident: no sign of the resident's own.
    confirmed_by_carers: usize,
    missed: usize,
    /// The check-in's end today: answered (true), not answered (false), or none.
    checkin: Option<bool>,
    /// Whether a carer looked after the check-in left unanswered.
    silence_looked_after: bool,
    /// Who looked after the day's alarms, silence and reminders, as people read them, each once.
    looked_after_by: Vec<String>,
}

impl Day {
    /// Who needs the carer first: a call for help, a silent check-in, a missed reminder, the rest.
    fn rank(&self) -> u8 {
        match self {
            d if !d.alarms.is_empty() => 0,
            d if d.checkin == Some(false) => 1,
            d if d.missed > 0 => 2,
            _ => 3,
        }
    }

    /// Whether something of the day waits for the carer: a call for help or a silence nobody looked after, a
    /// reminder not confirmed.
    fn open(&self) -> bool {
        self.alarms.iter().any(|(_, looked)| !looked)
            || (self.checkin == Some(false) && !self.silence_looked_after)
            || self.missed > 0
    }

    /// Waiting for the carer (0), looked after by somebody (1), nothing to do (2).
    fn group(&self) -> u8 {
        match self {
            d if d.open() => 0,
            d if !d.looked_after_by.is_empty() => 1,
            _ => 2,
        }
    }

    fn line(&self, words: Words, zone: &jiff::tz::TimeZone) -> String {
        let mut said = Vec::new();
        if !self.alarms.is_empty() {
            let times: Vec<String> = self
                .alarms
                .iter()
                .map(|(at, _)| {
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
        self.who(words, &mut said);
        if said.is_empty() {
            said.push(words.with("carer-summary-quiet", &[]));
        }
        format!("- {}: {}", self.name, said.join("; "))
    }

    /// Whether a call for help or a silence still waits for somebody, and who looked after what.
    fn who(&self, words: Words, said: &mut Vec<String>) {
        let silent = self.checkin == Some(false) && !self.silence_looked_after;
        if silent || self.alarms.iter().any(|(_, looked)| !looked) {
            said.push(words.with("carer-summary-open", &[]));
        }
        if !self.looked_after_by.is_empty() {
            let names = self.looked_after_by.join(", ").into();
            said.push(words.with("carer-summary-looked-after", &[("names", names)]));
        }
    }
}

/// What happened in `resident`'s care since `since`, with who looked after it (`board`: the carer's residents'
/// alarms, acknowledgements, check-ins and carers' names).
async fn day_of(app: &App, board: &Board, resident: &str, name: String, since: i64) -> Result<Day> {
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
    let mut who = Vec::new();
    let mut alarms = Vec::new();
    for alarm in board.alarms.get(resident).into_iter().flatten() {
        let acks = board.acknowledged_by.get(&alarm.id).map_or(&[][..], Vec::as_slice);
        if alarm.created_at >= since {
            who.extend(acks.iter().cloned());
            alarms.push((alarm.created_at, !acks.is_empty()));
        }
    }
    let silence = board
        .checkins
        .get(resident)
        .filter(|c| c.missed_due_at.is_some_and(|at| at >= since));
    let silence_by = silence.and_then(|c| c.missed_acknowledged_by.clone());
    who.extend(silence_by.iter().cloned());
    for (d, _) in today().filter(|(d, _)| d.status == "confirmed" && by_carer(d)) {
        let note = super::note::Note::read(d.detail.as_deref().unwrap_or_default());
        let args = note.args();
        let name = args.get("carer").or(args.get("admin")).and_then(|v| v.as_str());
        who.extend(name.map(str::to_string)); // the display name the note recorded
    }
    Ok(Day {
        alarms,
        confirmed: today().filter(|(d, _)| d.status == "confirmed" && !by_carer(d)).count(),
        confirmed_by_carers: today().filter(|(d, _)| d.status == "confirmed" && by_carer(d)).count(),
        missed: today().filter(|(d, _)| d.status == "missed").count(),
        checkin,
        silence_looked_after: silence_by.is_some(),
        looked_after_by: names(&who, &board.carer_names),
        name,
    })
}

/// Who looked after something, each once in the order they did, as people read them.
fn names(who: &[String], carers: &std::collections::HashMap<String, String>) -> Vec<String> {
    let mut shown: Vec<String> = Vec::new();
    for by in who {
        let name = super::looked_after_by(by, carers);
        if !shown.contains(&name) {
            shown.push(name);
        }
    }
    shown
}
