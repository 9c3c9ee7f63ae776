//! Acknowledgement: a contact confirms having seen an alarm, through the secret link of the e-mail or SMS
//! or by pressing 1 in the call. A confirmation shows in the person's status and cancels the reminder.
//!
//! The link opens a page with one button; only the button (a POST) confirms. Mail scanners and messengers
//! fetch links to preview them, and a GET that confirmed would tell the person that somebody saw the alarm
//! when only a machine did.

use base64::Engine;
use hmac::{Hmac, Mac};
use sha1::Sha1;

use super::dossier::{Dossier, format_time, xml_escape};
use crate::app::App;
use crate::auth::token;
use crate::error::{ApiError, Result};
use crate::phrasebook::{Words, phrase};
use crate::store::emergency::{AckKey, Alarm};

/// What the link's page shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    /// The alarm and the button.
    Ask,
    /// The thanks after confirming.
    Thanks,
}

/// The page of a link: asks (`GET`) or confirms and thanks (`POST`). A wrong or expired link is 404, the
/// same for both, so the answer does not tell whether a link ever existed.
pub async fn page(app: &App, secret: &str, page: Page) -> Result<String> {
    let hash = token::hash(secret);
    let alarm = match page {
        Page::Ask => app.store.ack_alarm(AckKey::TokenHash(&hash)).await?,
        Page::Thanks => {
            let done = app.store.acknowledge(AckKey::TokenHash(&hash), "link").await?;
            if let Some(done) = done.as_ref().filter(|done| done.first) {
                app.metrics.incr(crate::metrics::EMERGENCY_ACKNOWLEDGEMENTS_TOTAL, &[]);
                tracing::info!(alarm = %done.alarm.id, "a contact confirmed the emergency alarm (link)");
                crate::carers::changed(app, &done.alarm.user_id).await;
            }
            done.map(|done| done.alarm)
        }
    };
    let Some(alarm) = alarm else {
        return Err(ApiError::WrongCredential(crate::error::Credential::Ack));
    };
    let person = person(app, &alarm).await?;
    Ok(html(&person, &alarm, page))
}

/// The call's callback (`<Gather action>`): Twilio posts the pressed digits, signed with the account's auth
/// token over the callback address and the form fields. A 1 confirms. Anything unsigned or unknown is 403.
pub async fn call(app: &App, id: &str, post: &TwilioPost) -> Result<String> {
    let refused = || ApiError::Forbidden("invalid Twilio request signature".into());
    let Some(alarm) = app.store.ack_alarm(AckKey::Id(id)).await? else {
        return Err(refused());
    };
    let Some(auth_token) = &app.settings.emergency.twilio_auth_token else {
        return Err(refused());
    };
    let url = format!("{}/api/emergency/call/{id}", alarm.base_url);
    post.signed(
        secrecy::ExposeSecret::expose_secret(auth_token),
        &url,
        "a call acknowledgement",
    )?;
    if post.field("Digits") != "1" {
        let ask = format!(
            "<Say language=\"{}\">{}</Say>",
            phrase(&alarm.lang, "language-twilio-voice"),
            xml_escape(&phrase(&alarm.lang, "help-call-press-1"))
        );
        return Ok(format!(
            "<Response><Gather numDigits=\"1\" action=\"{}\" method=\"POST\" timeout=\"10\">{ask}</Gather></Response>",
            xml_escape(&url)
        ));
    }
    confirm_by_call(app, id).await?;
    Ok(Dossier::twiml_thanks(&alarm.lang, &person_name(app, &alarm).await?))
}

/// Records a 1 pressed in the call of the acknowledgement `id` (Twilio's callback, the house's telephone).
pub async fn confirm_by_call(app: &App, id: &str) -> Result<()> {
    if let Some(done) = app.store.acknowledge(AckKey::Id(id), "call").await?
        && done.first
    {
        app.metrics.incr(crate::metrics::EMERGENCY_ACKNOWLEDGEMENTS_TOTAL, &[]);
        tracing::info!(alarm = %done.alarm.id, "a contact confirmed the emergency alarm (call)");
        crate::carers::changed(app, &done.alarm.user_id).await;
    }
    Ok(())
}

/// A request Twilio posted to the gateway (a `<Gather>` answer, an incoming call): its form fields and its
/// `X-Twilio-Signature`.
pub struct TwilioPost {
    pub form: Vec<(String, String)>,
    signature: Option<String>,
}

impl TwilioPost {
    /// Reads the form body (400 for anything else) and the signature header.
    pub fn read(headers: &axum::http::HeaderMap, body: &[u8]) -> Result<Self> {
        let form = serde_urlencoded::from_bytes(body).map_err(|_| ApiError::invalid("body", "expected a form"))?;
        let signature = headers
            .get("x-twilio-signature")
            .and_then(|v| v.to_str().ok())
            .map(String::from);
        Ok(Self { form, signature })
    }

    /// Whether Twilio signed it with `auth_token` for the address `url`: 403 otherwise (logged as a refused
    /// `what`).
    pub fn signed(&self, auth_token: &str, url: &str, what: &str) -> Result<()> {
        let expected = twilio_signature(auth_token, url, &self.form);
        if self
            .signature
            .as_deref()
            .is_some_and(|given| token::secrets_equal(given, &expected))
        {
            return Ok(());
        }
        tracing::warn!("refused {what} with a bad Twilio signature");
        Err(ApiError::Forbidden("invalid Twilio request signature".into()))
    }

    /// A field's value; empty when it is absent.
    pub fn field(&self, name: &str) -> &str {
        self.form
            .iter()
            .find(|(k, _)| k == name)
            .map_or("", |(_, v)| v.as_str())
    }
}

/// Twilio's request signature: base64 of HMAC-SHA1 over the address followed by every form field's name and
/// value, sorted by name.
pub fn twilio_signature(auth_token: &str, url: &str, form: &[(String, String)]) -> String {
    let mut fields: Vec<&(String, String)> = form.iter().collect();
    fields.sort();
    let mut mac = Hmac::<Sha1>::new_from_slice(auth_token.as_bytes()).expect("HMAC takes keys of any length");
    mac.update(url.as_bytes());
    for (name, value) in fields {
        mac.update(name.as_bytes());
        mac.update(value.as_bytes());
    }
    base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
}

/// The person's name as the alarm gave it.
async fn person_name(app: &App, alarm: &Alarm) -> Result<String> {
    Ok(person(app, alarm).await?.name)
}

/// The person's name as the alarm gave it, and their time zone.
async fn person(app: &App, alarm: &Alarm) -> Result<Dossier> {
    let Some(user) = app.store.user_by_id(&alarm.user_id).await? else {
        return Err(ApiError::NotFound("acknowledgement link"));
    };
    let prefs = app.store.prefs(&user.id).await?;
    let mut dossier = Dossier::from_prefs(&prefs, &user.display_name, &alarm.lang);
    dossier.zone = crate::zones::person_zone_name(app, &prefs);
    Ok(dossier)
}

fn html(person: &Dossier, alarm: &Alarm, page: Page) -> String {
    let t = Words::formal(&alarm.lang);
    let name = xml_escape(&person.name);
    let time = format_time(alarm.created_at, &person.zone).unwrap_or_default();
    let press = serde_json::from_str::<super::Press>(&alarm.press).unwrap_or_default();
    let way = press.way;
    // What the person wrote or said, as the mail told it.
    let said = Dossier {
        way,
        said: press.said,
        ..person.clone()
    }
    .said_line()
    .map(|line| format!("<p>{}</p>", xml_escape(&line)))
    .unwrap_or_default();
    let question = t.with(
        "help-ack-question",
        &[
            ("name", name.as_str().into()),
            ("time", time.into()),
            ("way", way.name().into()),
        ],
    );
    let body = match page {
        Page::Ask => format!(
            "<p>{question}</p>{said}<form method=\"post\"><button type=\"submit\">{}</button></form>",
            xml_escape(&t.get("help-ack-button"))
        ),
        Page::Thanks => format!(
            "<p>{question}</p>{said}<p role=\"status\"><strong>{}</strong></p>",
            t.with("help-ack-thanks", &[("name", name.as_str().into())])
        ),
    };
    format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"robots\" content=\"noindex\">\
         <title>{title}</title><link rel=\"stylesheet\" href=\"/ui/ack.css?v={version}\"></head>\
         <body><h1>{title}</h1>{body}<p>{hint}</p></body></html>",
        lang = xml_escape(&alarm.lang),
        title = xml_escape(&t.get("help-ack-title")),
        hint = t.with("help-ack-hint", &[("name", name.as_str().into())]),
        version = env!("CARGO_PKG_VERSION"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_matches_twilios_documented_example() {
        // The example of Twilio's own signature-validation snippets (api-snippets, signature_validation).
        let form: Vec<(String, String)> = [
            ("CallSid", "CA1234567890ABCDE"),
            ("Caller", "+14158675310"),
            ("Digits", "1234"),
            ("From", "+14158675310"),
            ("To", "+18005551212"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(
            twilio_signature("12345", "https://mycompany.com/myapp.php?foo=1&bar=2", &form),
            "GvWf1cFY/Q7PnoempGyD5oXAezc="
        );
    }
}
