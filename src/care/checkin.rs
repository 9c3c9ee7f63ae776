//! The daily check-in (`checkin_window` pref, "08:00-10:00"; `away_until`, a date). Any sign of life in the
//! window counts: a turn on any channel, a confirmed reminder, "Mir geht es gut" on the page, a yes on care's
//! call. None by the window's end: the person is asked where they are ([`super::reach`]: "Guten Morgen, ist
//! alles in Ordnung?"); a yes (or 1) ends it, a no or a call for help starts the help function's question. No
//! answer: asked once more after `CHECKIN_RETRY_MINUTES`, then the contacts get a care notice. Quiet hours
//! hold the calls back (not the page); a window that ends while the gateway was down for longer than
//! `REMINDER_LATE_MINUTES` is recorded as missed and nobody is called.
//!
//! Like reminders, the store holds each person's next check-in and the scheduler claims what is due; the last
//! sign of life is one column, written by [`sign`] (one statement per turn). Only the person's own acts sign:
//! what a carer or an admin does on their behalf (confirming a reminder, looking after a notice, setting the
//! check-in) is recorded as theirs and never answers the question ([`super::By`]). A day left unanswered stays
//! on the carers' board until one of them looks after it.

use std::sync::Arc;

use serde_json::json;

use super::note::{self, Note};
use super::reach::{self, Message};
use super::{LEASE_MS, local, person_zone_name, rfc3339, say};
use crate::app::App;
use crate::error::Result;
use crate::hours::Window;
use crate::lines::Confirm;
use crate::prefs::Prefs;
use crate::store::checkins::StoredCheckin;
use crate::store::now_ms;

/// What the care log calls a check-in.
pub use super::CHECKIN as WHAT;
/// How often a person who did not answer is asked again before the contacts are told.
pub const RETRIES: i64 = 1;

/// The next window of `prefs`' `checkin_window` after `now`, as epoch milliseconds; none when it is off.
fn next_window(app: &App, prefs: &Prefs, now: i64) -> Option<(i64, i64)> {
    let window = Window::parse(Prefs::text(&prefs.checkin_window))?;
    let (opens, ends) = window.next(&local(now, &person_zone_name(app, prefs)))?;
    Some((opens.timestamp().as_millisecond(), ends.timestamp().as_millisecond()))
}

/// Plans the person's check-in anew when a change of prefs moved it (its window or the person's time zone).
/// A check-in asking the person now goes on whoever changed the plan: a carer setting the window is no sign
/// of the person's life, and the day closes (and plans the new window) as it would have.
pub async fn replan(app: &App, user_id: &str, before: &Prefs, after: &Prefs) -> Result<()> {
    if before.checkin_window == after.checkin_window && before.timezone == after.timezone {
        return Ok(());
    }
    Ok(app
        .store
        .replan_checkin(user_id, next_window(app, after, now_ms()))
        .await?)
}

/// A sign of life of the person (a turn, a call); never fails the caller.
pub async fn sign(app: &App, user_id: &str) {
    match app.store.sign_of_life(user_id, now_ms()).await {
        Ok(true) => crate::carers::changed(app, user_id).await,
        Ok(false) => {}
        Err(err) => tracing::warn!(%err, "a sign of life was not stored"),
    }
}

/// Whether the person's check-in is asking them now (they were asked and have not answered).
pub async fn asking(app: &App, user_id: &str) -> bool {
    app.store
        .checkin(user_id)
        .await
        .is_ok_and(|c| c.is_some_and(|c| c.state == "calling" && c.signed_at.is_none_or(|at| at < c.opens_at)))
}

/// The person answered the check-in on `channel` ("Mir geht es gut" on the page, a yes on the call).
pub async fn signed(app: &App, user_id: &str, channel: &str) -> Result<()> {
    // The answer shows the question reached her, whether or not her client said so.
    app.notify.answered(user_id);
    if app.store.sign_of_life(user_id, now_ms()).await? {
        app.store.add_care_log(user_id, WHAT, channel, "answered", None).await?;
        crate::carers::changed(app, user_id).await;
    }
    Ok(())
}

/// Looks at the check-ins due by `now`: how many were claimed.
pub async fn due(app: &Arc<App>, now: i64) -> Result<usize> {
    let claim = crate::store::new_id();
    let claimed = app.store.claim_due_checkins(now, now + LEASE_MS, &claim).await?;
    if claimed.is_empty() {
        return Ok(0);
    }
    let _renewing = super::claim::Renewing::start(app.clone(), claim.clone());
    let looks = claimed.iter().map(|c| look(app, c, now, &claim));
    for done in futures_util::future::join_all(looks).await {
        done?;
    }
    crate::carers::changed_all(app, claimed.iter().map(|c| c.user_id.as_str())).await;
    Ok(claimed.len())
}

/// One claimed check-in.
async fn look(app: &Arc<App>, c: &StoredCheckin, now: i64, claim: &str) -> Result<()> {
    let prefs = app.store.prefs(&c.user_id).await?;
    let zone = person_zone_name(app, &prefs);
    let (Some(window), Some(user)) = (
        Window::parse(Prefs::text(&prefs.checkin_window)),
        app.store.user_by_id(&c.user_id).await?,
    ) else {
        return Ok(app.store.plan_checkin(&c.user_id, None).await?);
    };
    let ended = local(c.due_at, &zone);
    let next = window
        .after(&ended)
        .map(|(o, e)| (o.timestamp().as_millisecond(), e.timestamp().as_millisecond()));
    let close = |status: &'static str, channel: &'static str, detail: Note| async move {
        app.metrics.incr(crate::metrics::CHECKINS_TOTAL, &[("event", status)]);
        app.store
            .add_care_log(&c.user_id, WHAT, channel, status, Some(detail.english()))
            .await?;
        Ok::<_, crate::error::ApiError>(app.store.plan_checkin(&c.user_id, next).await?)
    };
    // The care log's details are data ([`note`]), said in the reader's language by the panel; their times are
    // the person's clock (`HH:MM` in their zone), as the row's own time is shown. What the person and their
    // contacts are told below is in the person's language.
    let clock = |at: &jiff::Zoned| serde_json::Value::from(at.strftime("%H:%M").to_string());
    if let Some(at) = c.signed_at.filter(|at| *at >= c.opens_at) {
        let detail = note::SIGN_OF_LIFE.with(&[("clock", clock(&local(at, &zone)))]);
        return close("ok", "none", detail).await;
    }
    if away(&prefs, &ended) {
        let detail = note::AWAY_UNTIL.with(&[("date", Prefs::text(&prefs.away_until).into())]);
        return close("away", "none", detail).await;
    }
    if c.attempts == 1 && now - reach::late_from(app, &zone, c.due_at) > app.settings.care.late_ms {
        let detail = note::DOWN_AT_WINDOW_END.with(&[("clock", clock(&ended))]);
        return close("missed", "none", detail).await;
    }
    if c.attempts > 1 + RETRIES {
        let detail = note::NO_ANSWER.with(&[("count", (c.attempts - 1).into())]);
        return silent(app, c, (now, next), &zone, &detail).await;
    }
    let language = crate::emergency::language(app, &prefs, None);
    let informal = prefs.informal();
    let said = say::checkin_question(&language, informal, &local(now, &zone));
    let msg = Message {
        event: json!({"type": "checkin", "said": said, "until": rfc3339(c.due_at, &zone)}),
        said,
        ask: say::call_ask(&language, informal),
        thanks: say::checkin_thanks(&language, informal),
        confirm: Some(Confirm::Checkin),
        elsewhere: None,
    };
    let quiet = reach::quiet_until(app, &zone, now);
    let tried = reach::reach(app, &user, &prefs, &language, &msg, quiet.is_none()).await;
    for t in &tried {
        app.store
            .add_care_log(&c.user_id, WHAT, t.channel, t.status, Some(t.detail.english()))
            .await?;
    }
    let reached = tried.iter().any(|t| t.status == "delivered");
    let held = quiet.filter(|_| !reached && tried.iter().any(|t| t.status == "held"));
    let event = if held.is_some() { "held" } else { "asked" };
    app.metrics.incr(crate::metrics::CHECKINS_TOTAL, &[("event", event)]);
    let retry_at = held.unwrap_or(now + app.settings.care.checkin_retry_ms);
    Ok(app
        .store
        .retry_checkin(&c.user_id, claim, retry_at, held.is_none())
        .await?)
}

/// The day closes without a sign of life: logged, and the notice to the contacts written with the next
/// window (`next`), in one transaction, then sent.
async fn silent(
    app: &Arc<App>,
    c: &StoredCheckin,
    (now, next): (i64, Option<(i64, i64)>),
    zone: &str,
    detail: &Note,
) -> Result<()> {
    // Asked today is read before the day is closed in the log.
    let asked = asked_today(app, &c.user_id).await?;
    app.metrics.incr(crate::metrics::CHECKINS_TOTAL, &[("event", "missed")]);
    app.store
        .add_care_log(&c.user_id, WHAT, "none", "missed", Some(detail.english()))
        .await?;
    let (messages, unsent) = super::notice::silent(app, &c.user_id, c.due_at, zone, asked).await;
    let expires = now + super::outbox::EXPIRES_MS;
    app.store
        .close_checkin_telling(&c.user_id, (c.due_at, next), &messages, (now, expires))
        .await?;
    for (channel, status, why) in unsent {
        app.store
            .add_care_log(&c.user_id, WHAT, channel, status, Some(why.english()))
            .await?;
    }
    super::outbox::soon(app, now);
    Ok(())
}

/// Whether the question reached the person since the last day was closed (the care log, newest first, up to
/// the last `ok`, `away` or `missed`).
async fn asked_today(app: &App, user_id: &str) -> Result<bool> {
    let log = app.store.care_log(user_id, 32).await?;
    Ok(log
        .iter()
        .filter(|e| e.what == WHAT)
        .take_while(|e| !matches!(e.status.as_str(), "ok" | "away" | "missed"))
        .any(|e| e.status == "delivered"))
}

/// Whether the person said they are away on the day the window ended (`away_until`: through that date).
fn away(prefs: &Prefs, ended: &jiff::Zoned) -> bool {
    Prefs::text(&prefs.away_until)
        .parse::<jiff::civil::Date>()
        .is_ok_and(|until| ended.date() <= until)
}
