//! The care notice: a reminder the person did not confirm, though it was delivered again and again, is told to
//! their contacts (the help function's e-mail contacts) by e-mail, clearly not an alarm: "Erika Muster hat die
//! Erinnerung „Tabletten“ von 8:00 Uhr nicht bestätigt". Each mail is a delivery record of the reminder
//! (`mail`: `sent`, `failed` or `no_contacts`).

use std::sync::Arc;
use std::time::Duration;

use crate::app::App;
use crate::prefs::Prefs;
use crate::store::reminders::StoredReminder;

/// Tells the contacts of `r`'s person that it was not confirmed, and records how it went.
pub async fn missed(app: Arc<App>, r: StoredReminder) {
    let (status, detail) = match send(&app, &r).await {
        Ok(to) => ("sent", to),
        Err((status, why)) => (status, why),
    };
    if status != "sent" {
        tracing::warn!(reminder = %r.id, status, "the care notice of a missed reminder did not go out: {detail}");
    }
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

/// Sends the notice: to whom, or the status and why not.
async fn send(app: &App, r: &StoredReminder) -> Result<String, (&'static str, String)> {
    let prefs = app
        .store
        .prefs(&r.user_id)
        .await
        .map_err(|e| ("failed", e.to_string()))?;
    let contacts = prefs.emergency_contacts.clone().unwrap_or_default();
    if contacts.is_empty() {
        return Err(("no_contacts", "the person has no e-mail contact".into()));
    }
    let name = match Prefs::text(&prefs.full_name) {
        "" => app
            .store
            .user_by_id(&r.user_id)
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
    let at = super::local(r.due_at, &r.time_zone);
    let (subject, body) = super::say::care_notice(&language, &name, &r.text, &at, r.attempts - 1);
    let timeout = Duration::from_secs(app.settings.emergency.channel_timeout_secs);
    crate::emergency::mail::send(&app.settings.smtp, &contacts, &subject, body, timeout)
        .await
        .map(|()| contacts.join(", "))
        .map_err(|why| ("failed", why))
}
