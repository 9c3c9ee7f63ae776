//! The one task per instance that delivers what is due: woken at the next due time (or after a [`TICK`]), it
//! claims from the store the reminders due by now (in the same statement, so that of several instances on one
//! database exactly one delivers each; one due while the gateway was down is claimed at start) and delivers each
//! where the person is. No timer per reminder is kept in memory.
//!
//! Delivered where the person is ([`super::reach`]): their open pages and voice connections on this instance
//! (a `reminder` event), else a call to their handset over the house line (held back in quiet hours). A
//! reminder more than `REMINDER_LATE_MINUTES` late (the gateway was down) is recorded as missed instead. A
//! repeating reminder is scheduled again at its next time as it is delivered; one without confirmation goes to
//! `done`; one to confirm waits in `delivering` and is delivered again every `REMINDER_RETRY_MINUTES`, at most
//! `REMINDER_RETRIES` times, then counts as `missed` and the person's contacts get a care notice
//! ([`super::notice`]). Each time of a repeating reminder to confirm becomes a reminder of its own (an
//! occurrence, `series_id`), followed up like a one-off, while the series waits for its next time. A claim is
//! leased for [`super::LEASE_MS`] and renewed while its delivery runs; every state change after a delivery
//! checks the claim. A reminder claimed by an instance that stopped before delivering it is taken up again
//! once its lease ends (delivered once, not lost).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

use super::LEASE_MS;
use super::due::Rule;
use super::reach::{self, Message};
use crate::app::App;
use crate::lines::Confirm;
use crate::prefs::Prefs;
use crate::store::now_ms;
use crate::store::reminders::StoredReminder;
use crate::store::users::User;

/// How long the scheduler sleeps at most before it asks the store again what is due.
pub const TICK: Duration = Duration::from_secs(2);

/// Looks at the store at most this many times at once: a call that rings holds its look, not the next ones.
const LOOKS: usize = 4;
/// The shortest wait between two looks, so that something due that cannot be claimed yet (another look is
/// delivering it) costs no busy loop.
const MIN_WAIT_MS: i64 = 100;

/// Runs until dropped. It sleeps until the next thing due (asked of the store, four index lookups), a
/// [`TICK`] at most (another instance may have added something sooner); each look runs on its own (a call to
/// the house line rings for up to half a minute), and the claims keep two looks from delivering the same
/// reminder.
pub async fn run(app: Arc<App>) {
    let looks = Arc::new(tokio::sync::Semaphore::new(LOOKS));
    let tick = TICK.as_millis() as i64;
    loop {
        let wait = match app.store.next_care_due().await {
            Ok(next) => next.map_or(tick, |at| (at - now_ms()).clamp(MIN_WAIT_MS, tick)),
            Err(err) => {
                tracing::warn!(%err, "could not ask the store what care has to do next");
                tick
            }
        };
        tokio::time::sleep(Duration::from_millis(wait as u64)).await;
        let Ok(look) = looks.clone().try_acquire_owned() else {
            continue;
        };
        let app = app.clone();
        tokio::spawn(async move {
            let now = now_ms();
            if let Err(err) = due(&app, now).await {
                tracing::warn!(%err, "could not look for due reminders");
            }
            if let Err(err) = super::checkin::due(&app, now).await {
                tracing::warn!(%err, "could not look for due check-ins");
            }
            if let Err(err) = super::outbox::due(&app, now).await {
                tracing::warn!(%err, "could not send the care notices waiting");
            }
            drop(look);
        });
    }
}

/// Delivers what is due by `now` (epoch milliseconds): how many were claimed. The look's claim is renewed
/// while its deliveries run (a call may ring for longer than a lease), so no other look delivers them again;
/// a look that stops (the gateway killed) renews nothing, and its claims are taken up once their lease ends.
pub async fn due(app: &Arc<App>, now: i64) -> crate::error::Result<usize> {
    let claim = crate::store::new_id();
    let claimed = app.store.claim_due_reminders(now, now + LEASE_MS, &claim).await?;
    if claimed.is_empty() {
        return Ok(0);
    }
    let _renewing = super::claim::Renewing::start(app.clone(), claim.clone());
    let known = Known::of(app, &claimed).await?;
    let deliveries = claimed.iter().map(|r| deliver(app, r, now, &claim, &known));
    for done in futures_util::future::join_all(deliveries).await {
        done?;
    }
    crate::carers::changed_all(app, claimed.iter().map(|r| r.user_id.as_str())).await;
    Ok(claimed.len())
}

/// What a look knows of the people it delivers to, asked once for all (with a thousand reminders due in a
/// minute, a statement each would hold the last event back): their prefs, their accounts, their connections
/// on other instances.
struct Known {
    prefs: HashMap<String, Prefs>,
    users: HashMap<String, User>,
    /// None: not known (each push asks).
    elsewhere: Option<HashMap<String, i64>>,
}

impl Known {
    async fn of(app: &App, claimed: &[StoredReminder]) -> crate::error::Result<Self> {
        let mut ids: Vec<String> = claimed.iter().map(|r| r.user_id.clone()).collect();
        ids.sort_unstable();
        ids.dedup();
        Ok(Self {
            prefs: app.store.prefs_of(&ids).await?,
            users: app
                .store
                .users_of(&ids)
                .await?
                .into_iter()
                .map(|u| (u.id.clone(), u))
                .collect(),
            elsewhere: crate::bus::elsewhere_of(app, &ids).await,
        })
    }
}

/// The `reminder` event a page and a voice connection receive; `said` is what a voice connection speaks, in
/// the person's language and form of address.
pub fn event(r: &StoredReminder, said: &str) -> serde_json::Value {
    let due_at = super::rfc3339(r.due_at, &r.time_zone);
    json!({"type": "reminder", "id": r.id, "text": r.text, "due_at": due_at, "confirm": r.confirm, "timer": r.timer,
        "said": said})
}

async fn deliver(app: &Arc<App>, r: &StoredReminder, now: i64, claim: &str, known: &Known) -> crate::error::Result<()> {
    let next = next_time(r);
    let care = &app.settings.care;
    // Delivered once and again `retries` times without a confirmation: missed.
    if r.attempts > 1 + i64::from(care.retries) {
        return missed(app, r, now, claim).await;
    }
    if r.attempts == 1 && now - reach::late_from(app, &r.time_zone, r.due_at) > care.late_ms {
        return missed_while_down(app, r, now, claim, next).await;
    }
    // This time of a repeating reminder to confirm becomes a reminder of its own (retried, confirmed,
    // missed and told like a one-off); the series waits for its next time at once.
    let occurrence;
    let (r, next) = match (r.confirm, next) {
        (true, Some(_)) => match app
            .store
            .split_occurrence(r, (claim, now_ms() + LEASE_MS), next)
            .await?
        {
            Some(split) => {
                occurrence = split;
                (&occurrence, None)
            }
            None => return Ok(()),
        },
        _ => (r, next),
    };
    let prefs = known.prefs.get(&r.user_id).cloned().unwrap_or_default();
    let Some(user) = known.users.get(&r.user_id) else {
        app.store.after_delivery(&r.id, claim, None, "cancelled", None).await?;
        return Ok(());
    };
    let language = crate::emergency::language(app, &prefs, None);
    let informal = prefs.informal();
    let said = super::say::due_now(&language, informal, &r.text, r.timer);
    let msg = Message {
        event: event(r, &said),
        said,
        ask: if r.confirm {
            super::say::call_ask(&language, informal)
        } else {
            super::say::goodbye(&language)
        },
        thanks: super::say::confirmed(&language, informal, &r.text),
        confirm: r.confirm.then(|| Confirm::Reminder(r.id.clone())),
        elsewhere: known
            .elsewhere
            .as_ref()
            .map(|people| people.get(&r.user_id).copied().unwrap_or(0)),
    };
    let quiet = reach::quiet_until(app, &r.time_zone, now);
    let tried = reach::reach(app, user, &prefs, &language, &msg, quiet.is_none()).await;
    for t in &tried {
        app.store
            .add_reminder_delivery(&r.id, t.channel, t.status, Some(t.detail.english()))
            .await?;
        app.metrics.incr(
            crate::metrics::REMINDERS_TOTAL,
            &[("event", t.status), ("channel", t.channel)],
        );
    }
    let reached = tried.iter().any(|t| t.status == "delivered");
    if let Some(until) = quiet.filter(|_| !reached && tried.iter().any(|t| t.status == "held")) {
        // Only a call could reach the person, and it waits for the quiet hours' end (not counted).
        return Ok(app.store.hold_reminder(&r.id, claim, until).await?);
    }
    let (state, retry_at) = if r.confirm {
        ("delivering", Some(now + care.retry_ms))
    } else {
        ("done", None)
    };
    if !app.store.after_delivery(&r.id, claim, next, state, retry_at).await? {
        tracing::warn!(reminder = %r.id, "a reminder changed while it was delivered; its claim no longer held it");
    }
    Ok(())
}

/// `r` was delivered and again `REMINDER_RETRIES` times without a confirmation: it counts as missed, and the
/// notice to the contacts is written with that, in one transaction, then sent.
async fn missed(app: &Arc<App>, r: &StoredReminder, now: i64, claim: &str) -> crate::error::Result<()> {
    let detail = super::note::NOT_CONFIRMED.with(&[("count", (r.attempts - 1).into())]);
    app.store
        .add_reminder_delivery(&r.id, "none", "missed", Some(detail.english()))
        .await?;
    tracing::info!(reminder = %r.id, "a reminder was not confirmed and counts as missed");
    app.metrics.incr(
        crate::metrics::REMINDERS_TOTAL,
        &[("event", "missed"), ("channel", "none")],
    );
    let (messages, unsent) = super::notice::missed(app, r).await;
    let ids = (r.id.as_str(), claim, r.user_id.as_str());
    let expires = now + super::outbox::EXPIRES_MS;
    if !app.store.miss_reminder_telling(ids, &messages, (now, expires)).await? {
        return Ok(());
    }
    for (channel, status, why) in unsent {
        app.store
            .add_reminder_delivery(&r.id, channel, status, Some(why.english()))
            .await?;
    }
    super::outbox::soon(app, now);
    Ok(())
}

/// `r` is more than `REMINDER_LATE_MINUTES` late (the gateway was down): recorded as missed, to be told to the
/// person on their next contact; a repeating one waits for `next`.
async fn missed_while_down(
    app: &Arc<App>,
    r: &StoredReminder,
    now: i64,
    claim: &str,
    next: Option<i64>,
) -> crate::error::Result<()> {
    let late = super::note::LATE_WHILE_DOWN.with(&[("minutes", ((now - r.due_at) / 60_000).into())]);
    app.store.add_missed_while_down(&r.id, r.due_at, late.english()).await?;
    tracing::info!(reminder = %r.id, "a reminder due while the gateway was down is recorded as missed");
    app.metrics.incr(
        crate::metrics::REMINDERS_TOTAL,
        &[("event", "missed"), ("channel", "none")],
    );
    app.store.after_delivery(&r.id, claim, next, "missed", None).await?;
    Ok(())
}

/// On the person's next contact (a page or voice connection opening): the reminders missed while the gateway
/// was down, each as a `reminder_missed` event (`id`, `text`, `due_at`, `said`) to their connections, told once.
pub async fn tell_missed(app: Arc<App>, user_id: String) {
    let told = async {
        let missed = app.store.take_missed_while_down(&user_id, "page").await?;
        if missed.is_empty() {
            return Ok::<_, crate::error::ApiError>(());
        }
        let prefs = app.store.prefs(&user_id).await?;
        let language = crate::emergency::language(&app, &prefs, None);
        for (r, at) in missed {
            let said =
                super::say::missed_while_down(&language, prefs.informal(), &r.text, &super::local(at, &r.time_zone));
            let event = json!({"type": "reminder_missed", "id": r.id, "text": r.text,
                "due_at": super::rfc3339(at, &r.time_zone), "said": said});
            app.notify.push(&user_id, &event);
        }
        Ok(())
    };
    if let Err(err) = told.await {
        tracing::warn!(%err, "the reminders missed while the gateway was down could not be told");
    }
}

/// A repeating reminder's next time after this one, at the same wall-clock time in its zone.
fn next_time(r: &StoredReminder) -> Option<i64> {
    let rule = Rule::parse(r.repeat_rule.as_deref()?).ok()?;
    let (next, _) = rule.next(&super::local(r.due_at, &r.time_zone))?;
    Some(next.timestamp().as_millisecond())
}
