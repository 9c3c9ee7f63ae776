//! The care notice: what the person left unanswered is told to their contacts (the help function's e-mail
//! contacts, and its phone contacts by SMS where Twilio is set up), clearly not an alarm: a reminder not
//! confirmed though it came again and again ("Erika Muster hat die Erinnerung „Tabletten“ von 8:00 Uhr nicht
//! bestätigt"), a check-in without a sign of life ("hat sich heute bis 10:00 Uhr nicht gemeldet"). Each mail and
//! SMS is recorded (`mail`: `sent`, `failed` or `no_contacts`; `sms`: `sent` or `failed`) with the reminder's
//! deliveries or in the care log.

use std::sync::Arc;
use std::time::Duration;

use crate::app::App;
use crate::prefs::Prefs;
use crate::store::reminders::StoredReminder;

/// Tells the contacts of `r`'s person that it was not confirmed, and records how it went.
pub async fn missed(app: Arc<App>, r: StoredReminder) {
    let at = super::local(r.due_at, &r.time_zone);
    let told = tell(&app, &r.user_id, |language, name| {
        super::say::care_notice(language, name, &r.text, &at, r.attempts - 1)
    })
    .await;
    for (channel, status, detail) in told {
        app.metrics.incr(
            crate::metrics::REMINDERS_TOTAL,
            &[("event", "care_notice"), ("channel", status)],
        );
        if let Err(err) = app
            .store
            .add_reminder_delivery(&r.id, channel, status, Some(&detail))
            .await
        {
            tracing::warn!(%err, "the care notice's record was not stored");
        }
    }
}

/// Tells the contacts of `user_id` that they gave no sign of life by `due_at` (in `zone`) and did not answer
/// (`asked`: the question reached them) or could not be reached, and records it in the care log.
pub async fn silent(app: Arc<App>, user_id: String, due_at: i64, zone: String, asked: bool) {
    let until = super::local(due_at, &zone);
    let told = tell(&app, &user_id, |language, name| {
        super::say::checkin_notice(language, name, &until, asked)
    })
    .await;
    for (channel, status, detail) in told {
        if let Err(err) = app
            .store
            .add_care_log(&user_id, super::CHECKIN, channel, status, Some(&detail))
            .await
        {
            tracing::warn!(%err, "the care notice's record was not stored");
        }
    }
}

/// A notice's words and whom they go to.
struct Words {
    subject: String,
    body: String,
    language: String,
    mail_to: Vec<String>,
    phones: Vec<String>,
}

/// Sends the notice `make` words (from the person's language and name) by e-mail and, where Twilio is set up,
/// by SMS to the contacts' mobile numbers: each channel, its status and to whom (or why not).
async fn tell(
    app: &App,
    user_id: &str,
    make: impl FnOnce(&str, &str) -> (String, String),
) -> Vec<(&'static str, &'static str, String)> {
    let mut words = match words(app, user_id, make).await {
        Ok(words) => words,
        Err(why) => return vec![("mail", "failed", why)],
    };
    // The contacts say they are looking after it by the link (with `PUBLIC_URL`).
    if let Some(link) = super::ack::link(app, user_id, &words.subject, &words.language).await {
        let line = crate::phrasebook::Words::formal(&words.language).with("care-ack-line", &[("link", link.into())]);
        words.body = format!("{}\n{line}\n", words.body.trim_end());
    }
    let mut told = vec![match mail(app, &words).await {
        Ok(to) => ("mail", "sent", to),
        Err((status, why)) => ("mail", status, why),
    }];
    let twilio = app.settings.emergency.twilio_account_sid.is_some();
    let text = sms_text(&words.subject, &words.body);
    for phone in words.phones.iter().filter(|p| twilio && p.starts_with('+')) {
        let sent = crate::emergency::twilio::sms(&app.providers.http, &app.settings.emergency, phone, &text).await;
        told.push(match sent {
            Ok(()) => ("sms", "sent", phone.clone()),
            Err(why) => ("sms", "failed", format!("{phone}: {why}")),
        });
    }
    for (channel, status, why) in &told {
        if *status != "sent" {
            tracing::warn!(user = %user_id, channel, status, "a care notice did not go out: {why}");
        }
    }
    told
}

/// The notice's words in the person's language and name, and the contacts.
async fn words(app: &App, user_id: &str, make: impl FnOnce(&str, &str) -> (String, String)) -> Result<Words, String> {
    let prefs = app.store.prefs(user_id).await.map_err(|e| e.to_string())?;
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
    let language = crate::emergency::language(app, &prefs, None);
    let (subject, body) = make(&language, &name);
    Ok(Words {
        subject,
        body,
        language,
        mail_to: prefs.emergency_contacts.clone().unwrap_or_default(),
        phones: prefs.emergency_contact_phones.clone().unwrap_or_default(),
    })
}

/// The notice as one SMS: the subject, then the body's sentences on one line.
fn sms_text(subject: &str, body: &str) -> String {
    let lines: Vec<&str> = body.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    format!("{subject}. {}", lines.join(" ")).chars().take(600).collect()
}

/// Sends the mail: to whom, or the status and why not.
async fn mail(app: &App, words: &Words) -> Result<String, (&'static str, String)> {
    let contacts = &words.mail_to;
    if contacts.is_empty() {
        return Err(("no_contacts", "the person has no e-mail contact".into()));
    }
    let timeout = Duration::from_secs(app.settings.emergency.channel_timeout_secs);
    crate::emergency::mail::send(
        &app.settings.smtp,
        contacts,
        &words.subject,
        words.body.clone(),
        timeout,
    )
    .await
    .map(|()| contacts.join(", "))
    .map_err(|why| ("failed", why))
}
