//! The care notice: what the person left unanswered is told to their contacts (the help function's e-mail
//! contacts, and its phone contacts by SMS where Twilio is set up) and to their carers by mail with the board's
//! link (unless the person turned `notify_carers` off), clearly not an alarm: a reminder not
//! confirmed though it came again and again ("Erika Muster hat die Erinnerung „Tabletten“ von 8:00 Uhr nicht
//! bestätigt"), a check-in without a sign of life ("hat sich heute bis 10:00 Uhr nicht gemeldet"). Each mail and
//! SMS is recorded (`mail`: `sent`, `failed`, `expired` or `no_contacts`; `sms`: `sent`, `failed` or
//! `expired`) with the reminder's deliveries or in the care log. The messages are written to the outbox with
//! the state they tell of and sent from there ([`super::outbox`]), so none is lost.

use std::time::Duration;

use crate::app::App;
use crate::prefs::Prefs;
use crate::store::outbox::{Outgoing, Waiting};
use crate::store::reminders::StoredReminder;

/// The messages telling the contacts of `r`'s person that it was not confirmed; what cannot be sent is said
/// in the second part (`(channel, status, why)`, to be recorded).
pub async fn missed(app: &App, r: &StoredReminder) -> (Vec<Outgoing>, Vec<Unsent>) {
    let at = super::local(r.due_at, &r.time_zone);
    outgoing(app, &r.user_id, |language, name| {
        super::say::care_notice(language, name, &r.text, &at, r.attempts - 1)
    })
    .await
}

/// The messages telling the contacts of `user_id` that they gave no sign of life by `due_at` (in `zone`)
/// and did not answer (`asked`: the question reached them) or could not be reached.
pub async fn silent(app: &App, user_id: &str, due_at: i64, zone: &str, asked: bool) -> (Vec<Outgoing>, Vec<Unsent>) {
    let until = super::local(due_at, zone);
    outgoing(app, user_id, |language, name| {
        super::say::checkin_notice(language, name, &until, asked)
    })
    .await
}

/// A message that will not be sent: its channel, status and why.
pub type Unsent = (&'static str, &'static str, super::note::Note);

/// The notice `make` words (from the person's language and name) as messages: one mail to the e-mail
/// contacts and, where Twilio is set up, an SMS to each mobile number.
async fn outgoing(
    app: &App,
    user_id: &str,
    make: impl FnOnce(&str, &str) -> (String, String),
) -> (Vec<Outgoing>, Vec<Unsent>) {
    let mut words = match words(app, user_id, make).await {
        Ok(words) => words,
        Err(why) => return (Vec::new(), vec![("mail", "failed", why.into())]),
    };
    let (mut messages, mut unsent) = (Vec::new(), Vec::new());
    // The carers' mail leads to their board, where they say they look after it as themselves.
    if !words.carers.is_empty() {
        let mut body = words.body.trim_end().to_string();
        if let Some(board) = crate::carers::board_link(app) {
            let line =
                crate::phrasebook::Words::formal(&words.language).with("care-board-line", &[("link", board.into())]);
            body = format!("{body}\n{line}");
        }
        messages.push(Outgoing {
            channel: "mail",
            recipient: words.carers.join(", "),
            subject: words.subject.clone(),
            body: format!("{body}\n"),
        });
    }
    // The contacts say they are looking after it by the link (with `PUBLIC_URL`).
    if let Some(link) = super::ack::link(app, user_id, &words.subject, &words.language).await {
        let line = crate::phrasebook::Words::formal(&words.language).with("care-ack-line", &[("link", link.into())]);
        words.body = format!("{}\n{line}\n", words.body.trim_end());
    }
    match words.mail_to.is_empty() {
        true => unsent.push(("mail", "no_contacts", super::note::NO_MAIL_CONTACT.into())),
        false => messages.push(Outgoing {
            channel: "mail",
            recipient: words.mail_to.join(", "),
            subject: words.subject.clone(),
            body: words.body.clone(),
        }),
    }
    let twilio = app.settings.emergency.twilio_account_sid.is_some();
    for phone in words.phones.iter().filter(|p| twilio && p.starts_with('+')) {
        messages.push(Outgoing {
            channel: "sms",
            recipient: phone.clone(),
            subject: words.subject.clone(),
            body: sms_text(&words.subject, &words.body),
        });
    }
    (messages, unsent)
}

/// Sends one message of a notice: to whom, or why not.
pub async fn send(app: &App, message: &Waiting) -> Result<String, String> {
    match message.channel.as_str() {
        "sms" => crate::emergency::twilio::sms(
            &app.providers.http,
            &app.settings.emergency,
            &message.recipient,
            &message.body,
        )
        .await
        .map(|()| message.recipient.clone())
        .map_err(|why| format!("{}: {why}", message.recipient)),
        _ => {
            let to: Vec<String> = message.recipient.split(", ").map(str::to_string).collect();
            let timeout = Duration::from_secs(app.settings.emergency.channel_timeout_secs);
            crate::emergency::mail::send(&app.settings.smtp, &to, &message.subject, message.body.clone(), timeout)
                .await
                .map(|()| message.recipient.clone())
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
    /// The carers told as well (`notify_carers`).
    carers: Vec<String>,
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
    let carers = crate::carers::mail_to(app, user_id, &prefs).await;
    Ok(Words {
        carers,
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
