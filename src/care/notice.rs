//! The care notice: what the person left unanswered is told to their contacts (the help function's e-mail
//! contacts) by e-mail, clearly not an alarm: a reminder not confirmed though it came again and again ("Erika
//! Muster hat die Erinnerung „Tabletten“ von 8:00 Uhr nicht bestätigt"), a check-in without a sign of life
//! ("hat sich heute bis 10:00 Uhr nicht gemeldet"). Each mail is recorded (`mail`: `sent`, `failed` or
//! `no_contacts`) with the reminder's deliveries or in the care log.

use std::sync::Arc;
use std::time::Duration;

use crate::app::App;
use crate::prefs::Prefs;
use crate::store::reminders::StoredReminder;

/// Tells the contacts of `r`'s person that it was not confirmed, and records how it went.
pub async fn missed(app: Arc<App>, r: StoredReminder) {
    let at = super::local(r.due_at, &r.time_zone);
    let (status, detail) = tell(&app, &r.user_id, |language, name| {
        super::say::care_notice(language, name, &r.text, &at, r.attempts - 1)
    })
    .await;
    app.metrics.incr(
        crate::metrics::REMINDERS_TOTAL,
        &[("event", "care_notice"), ("channel", status)],
    );
    if let Err(err) = app
        .store
        .add_reminder_delivery(&r.id, "mail", status, Some(&detail))
        .await
    {
        tracing::warn!(%err, "the care notice's record was not stored");
    }
}

/// Tells the contacts of `user_id` that they gave no sign of life by `due_at` (in `zone`) and did not answer
/// (`asked`: the question reached them) or could not be reached, and records it in the care log.
pub async fn silent(app: Arc<App>, user_id: String, due_at: i64, zone: String, asked: bool) {
    let until = super::local(due_at, &zone);
    let (status, detail) = tell(&app, &user_id, |language, name| {
        super::say::checkin_notice(language, name, &until, asked)
    })
    .await;
    if let Err(err) = app
        .store
        .add_care_log(&user_id, super::CHECKIN, "mail", status, Some(&detail))
        .await
    {
        tracing::warn!(%err, "the care notice's record was not stored");
    }
}

/// Sends the notice `make` words (from the person's language and name): the status and to whom, or why not.
async fn tell(app: &App, user_id: &str, make: impl FnOnce(&str, &str) -> (String, String)) -> (&'static str, String) {
    match send(app, user_id, make).await {
        Ok(to) => ("sent", to),
        Err((status, why)) => {
            tracing::warn!(user = %user_id, status, "a care notice did not go out: {why}");
            (status, why)
        }
    }
}

async fn send(
    app: &App,
    user_id: &str,
    make: impl FnOnce(&str, &str) -> (String, String),
) -> Result<String, (&'static str, String)> {
    let prefs = app.store.prefs(user_id).await.map_err(|e| ("failed", e.to_string()))?;
    let contacts = prefs.emergency_contacts.clone().unwrap_or_default();
    if contacts.is_empty() {
        return Err(("no_contacts", "the person has no e-mail contact".into()));
    }
    let name = match Prefs::text(&prefs.full_name) {
        "" => app
            .store
            .user_by_id(user_id)
            .await
            .ok()
            .flatten()
            .map_or_else(|| "?".to_string(), |u| u.display_name),
        full => full.to_string(),
    };
    let language = prefs
        .route_layer()
        .language
        .unwrap_or_else(|| app.settings.turn.default_language.clone());
    let (subject, body) = make(&language, &name);
    let timeout = Duration::from_secs(app.settings.emergency.channel_timeout_secs);
    crate::emergency::mail::send(&app.settings.smtp, &contacts, &subject, body, timeout)
        .await
        .map(|()| contacts.join(", "))
        .map_err(|why| ("failed", why))
}
