//! Care's call to the person's mobile through Twilio (`phone`): the words said twice in the person's language,
//! then "say yes or press 1", inside a `<Gather input="dtmf speech">` whose answer Twilio posts, signed with the
//! account's auth token, to `POST /api/care/call/{user_id}/{what}` (`reminder-{id}`, `checkin`, `help`), which
//! [`super::called`] reads.

use crate::app::App;
use crate::emergency;
use crate::emergency::dossier::xml_escape;
use crate::lines::Confirm;
use crate::phrasebook::phrase;

/// Places the call to `to` (E.164) for `user_id`; `confirm` none: the call only tells.
pub async fn call(
    app: &App,
    (user_id, to, language): (&str, &str, &str),
    said: &str,
    ask: &str,
    confirm: Option<&Confirm>,
) -> std::result::Result<(), String> {
    let voice = phrase(language, "language-twilio-voice");
    let say = |text: &str| format!("<Say language=\"{voice}\">{}</Say>", xml_escape(text));
    let words = format!("{}<Pause length=\"1\"/>{}", say(said), say(said));
    let twiml = match confirm {
        None => format!("<Response>{words}{}</Response>", say(ask)),
        Some(confirm) => {
            let what = match confirm {
                Confirm::Reminder(id) => format!("reminder-{id}"),
                _ => "checkin".into(),
            };
            let action =
                callback(app, user_id, &what).ok_or("PUBLIC_URL is not set: Twilio could not post the answer")?;
            gather(&action, &voice, &format!("{words}{}", say(ask)))
        }
    };
    let settings = &app.settings.emergency;
    emergency::twilio::call(&app.providers.http, settings, to, &twiml).await
}

/// The address Twilio posts the answer to; none without `PUBLIC_URL`.
pub(super) fn callback(app: &App, user_id: &str, what: &str) -> Option<String> {
    let base = app.settings.emergency.public_url.as_deref()?;
    Some(format!("{}/api/care/call/{user_id}/{what}", base.trim_end_matches('/')))
}

/// A `<Gather>` of one key or a few words around `inner`.
pub(super) fn gather(action: &str, voice: &str, inner: &str) -> String {
    format!(
        "<Response><Gather input=\"dtmf speech\" numDigits=\"1\" language=\"{voice}\" speechTimeout=\"auto\" \
         action=\"{}\" method=\"POST\" timeout=\"10\">{inner}</Gather></Response>",
        xml_escape(action)
    )
}
