//! The person's answer on care's call through Twilio ([`super::phone`]): a 1 or a spoken yes confirms the
//! reminder or answers the check-in; a no to the check-in (or a call for help) asks the help function's question
//! in the call, and a yes to it raises the alarm as the help button does.

use super::phone::{callback, gather};
use super::say;
use crate::app::App;
use crate::emergency::ack::TwilioPost;
use crate::emergency::dossier::xml_escape;
use crate::emergency::{self, Press, spoken};
use crate::error::{ApiError, Result};
use crate::phrasebook::phrase;

/// Twilio's answer to the call of `what` for `user_id`: checked against the signature, then read (a 1, or the
/// words Twilio heard); answers the TwiML that goes on with the call. Anything unsigned or unknown is 403.
pub async fn answer(app: &App, (user_id, what): (&str, &str), post: &TwilioPost) -> Result<String> {
    let refused = || ApiError::Forbidden("invalid Twilio request signature".into());
    let (Some(url), Some(auth_token)) = (callback(app, user_id, what), &app.settings.emergency.twilio_auth_token)
    else {
        return Err(refused());
    };
    post.signed(
        secrecy::ExposeSecret::expose_secret(auth_token),
        &url,
        "a care call's answer",
    )?;
    let Some(user) = app.store.user_by_id(user_id).await? else {
        return Err(refused());
    };
    let prefs = app.store.prefs(user_id).await?;
    let language = crate::emergency::language(app, &prefs, None);
    let (informal, voice) = (prefs.informal(), phrase(&language, "language-twilio-voice"));
    let (key, heard) = (post.field("Digits"), post.field("SpeechResult"));
    let say = |text: &str| {
        format!(
            "<Response><Say language=\"{voice}\">{}</Say></Response>",
            xml_escape(text)
        )
    };
    if let Some(id) = what.strip_prefix("reminder-") {
        if key == "1" || super::spoken::confirms(heard, &language) {
            let text = app
                .store
                .reminder(user_id, id)
                .await?
                .map(|r| r.text)
                .unwrap_or_default();
            super::confirm(app, user_id, id, super::By::Person("phone")).await?;
            return Ok(say(&say::confirmed(&language, informal, &text)));
        }
        return Ok(say(&say::goodbye(&language)));
    }
    match what {
        "checkin" => match (key, super::spoken::fine(heard, &language)) {
            ("1", _) | (_, Some(true)) => {
                super::checkin::signed(app, user_id, "phone").await?;
                Ok(say(&say::checkin_thanks(&language, informal)))
            }
            (_, Some(false)) => {
                super::checkin::sign(app, user_id).await;
                let action = callback(app, user_id, "help").unwrap_or_default();
                let question = format!(
                    "{} {}",
                    spoken::question(&language, informal),
                    say::press_1(&language, informal)
                );
                Ok(gather(
                    &action,
                    &voice,
                    &format!("<Say language=\"{voice}\">{}</Say>", xml_escape(&question)),
                ))
            }
            _ => Ok(say(&say::goodbye(&language))),
        },
        "help" if key == "1" || spoken::answer(heard, &language) == Some(true) => {
            tracing::warn!(user = %user.name, "a check-in call was answered with a call for help; alerting the contacts");
            let press = Press {
                platform: Some("phone".into()),
                language: Some(language.clone()),
                way: emergency::Way::Checkin,
                ..Press::default()
            };
            let base = app.settings.emergency.public_url.clone().unwrap_or_default();
            let raised = emergency::raise(app, &user, press, base).await?;
            Ok(say(&raised.message))
        }
        "help" => Ok(say(&spoken::declined(&language))),
        _ => Err(refused()),
    }
}
