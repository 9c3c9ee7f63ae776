//! Help by voice, on every voice channel: a call for help heard in an utterance does not go to the model. The
//! gateway asks, in the user's language, whether it should alert the contacts; a yes, or no answer within
//! `HELP_CONFIRM_SECONDS`, raises the same alarm as the help button (same outcomes and texts), a no ends it.
//! The question is what keeps a misheard word from alarming anyone, so a call heard through recognition errors
//! is asked about too ([`crate::emergency::hearing`]). A person whose help reaches nobody at all (no contact, no
//! carer, no `EMERGENCY_CONTACT_EMAIL` on a channel that is set up) is not asked a question that promises help:
//! they are told so, and to call 112, at once; nothing is sent or recorded and no cooldown window opens. The
//! conversation remembers that it asked
//! ([`super::conversation`]; Wyoming, whose connections last one request, per Home Assistant conversation);
//! the words are read by [`crate::emergency::spoken`].

use super::events::{Out, ServerEvent, Tx};
use crate::app::App;
use crate::config::route::Route;
use crate::config::runtime::Effective;
use crate::emergency::hearing;
use crate::emergency::{self, Way, spoken};
use crate::error::Result;
use crate::prefs::Prefs;
use crate::providers::audio::Pcm;
use crate::providers::stt::Transcript;
use crate::store::users::User;
use crate::turn::speech;

/// The turn's effective settings, prefs and route, for speaking.
pub(super) type Voice<'a> = (&'a Effective, &'a Prefs, &'a Route);

/// Sends a frame; false when the connection or the turn is gone.
async fn send(tx: &Tx, out: Out) -> bool {
    tx.send(out).await.is_ok()
}

pub use crate::emergency::dialogue::{Help, Person, Reply, ask, reply};

/// Hears an utterance the recogniser was unsure of once more, with the words of calls for help as the text
/// said before it (the engine's `prompt`), where the engine takes one: that transcript when it is a call for
/// help to ask about ([`hearing::hear_again`]); none otherwise, and for a clear utterance or a call already
/// heard (no second request). A garbled "Hilfe!" that came out as "Heelser" comes back as "Hilfe!".
pub(super) async fn hear_again(
    app: &App,
    route: &Route,
    audio: &Pcm,
    (text, words): (&str, &[(String, f32)]),
) -> Option<Transcript> {
    let language = route.language.as_str();
    if !hearing::worth_hearing_again(text, words, language) {
        return None;
    }
    let again = speech::transcribe_after(app, route, audio, spoken::prompt(language)).await?;
    let heard = hearing::hear_again(words, &again.text, &again.words, language);
    tracing::debug!(
        first = text,
        again = again.text,
        ?heard,
        "an unclear utterance was heard again for help"
    );
    heard.asks().then_some(again)
}

/// Handles an utterance for the help dialogue; true when it was one (and so does not go to the model).
pub(super) async fn heard(
    app: &App,
    user: &User,
    (text, words): (&str, &[(String, f32)]),
    cx: Voice<'_>,
    (help, asked): (Help, Option<&str>),
    tx: &Tx,
) -> Result<bool> {
    if !crate::emergency::dialogue::concerns_help(text, words, cx.2.language.as_str(), help) {
        return Ok(false);
    }
    let person = Person::of(app, &user.id, cx.1, cx.2.language.as_str()).await;
    let reply = reply(text, words, person, help);
    // Listening, these are the words that call for help; asked, the question's words are the earlier ones.
    let asked = if help == Help::Listening { Some(text) } else { asked };
    respond(app, user, reply, cx, (help, Way::Spoken, asked), tx).await
}

/// A key pressed on a telephone: the help key starts the help question at once (and asks it again while it
/// waits); while it waits, 1 is yes and 2 is no. Other keys mean nothing here (the call does not pass them).
pub(super) async fn keyed(
    app: &App,
    user: &User,
    key: char,
    cx: Voice<'_>,
    (help, asked): (Help, Option<&str>),
    tx: &Tx,
) -> Result<()> {
    use crate::emergency::dialogue::{NO_KEY, YES_KEY};
    let person = Person::of(app, &user.id, cx.1, cx.2.language.as_str()).await;
    let language = person.language;
    let reply = match (help, key) {
        (Help::Asked, YES_KEY) => Reply::Alarm,
        (Help::Asked, NO_KEY) => Reply::Declined(spoken::declined(language)),
        (Help::Asked, _) => Reply::Ask(spoken::again(language, person.informal)),
        _ => {
            tracing::warn!(user = %user.name, "the help key was pressed on a call; asking whether to alert the contacts");
            ask(person)
        }
    };
    // Words said before the key answered: help was asked by voice.
    let way = if asked.is_some() { Way::Spoken } else { Way::Key };
    respond(app, user, Some(reply), cx, (Help::Asked, way, asked), tx)
        .await
        .map(drop)
}

/// The person said no to the daily check-in's "Is everything all right?": the help dialogue starts as for a
/// call for help.
pub(super) async fn not_fine(app: &App, user: &User, cx: Voice<'_>, tx: &Tx) -> Result<bool> {
    tracing::warn!(user = %user.name, "the daily check-in was answered with a no; asking whether to alert the contacts");
    crate::care::checkin::sign(app, &user.id).await;
    let person = Person::of(app, &user.id, cx.1, cx.2.language.as_str()).await;
    respond(
        app,
        user,
        Some(ask(person)),
        cx,
        (Help::Listening, Way::Checkin, None),
        tx,
    )
    .await
}

/// Says and does the dialogue's `reply` (to words heard `way`; `asked`: the words of the call for help its
/// question asked about); true when there was one.
async fn respond(
    app: &App,
    user: &User,
    reply: Option<Reply>,
    cx: Voice<'_>,
    (help, way, asked): (Help, Way, Option<&str>),
    tx: &Tx,
) -> Result<bool> {
    match reply {
        None => Ok(false),
        Some(Reply::Alarm) => alarm(app, user, cx, (way, asked), tx).await.map(|()| true),
        // Nobody at all can be reached: told so and to call 112; nothing is sent, recorded or held back.
        Some(Reply::Nobody(words)) => {
            tracing::warn!(user = %user.name, "a call for help reaches nobody; the person was told to call 112");
            let event = ServerEvent::Help {
                status: "no_recipients".into(),
                message: words.clone(),
            };
            say(app, cx, event, &words, tx).await;
            Ok(true)
        }
        Some(Reply::Declined(words)) => {
            let event = ServerEvent::Help {
                status: "declined".into(),
                message: words.clone(),
            };
            say(app, cx, event, &words, tx).await;
            Ok(true)
        }
        Some(Reply::Ask(question)) => {
            if help == Help::Listening {
                tracing::warn!(user = %user.name, "a call for help was heard; asking whether to alert the contacts");
            }
            let event = ServerEvent::HelpAsked {
                text: question.clone(),
                seconds: app.settings.voice.help_confirm_secs,
                said: asked.map(str::to_string),
            };
            say(app, cx, event, &question, tx).await;
            Ok(true)
        }
    }
}

/// Raises the alarm of a call for help made `way` (by voice, or the help key), as the help button does (no
/// position; the device is the voice channel `platform`, whose `language` speaks to a person who set none): its
/// status and the words that tell the person how it went.
pub async fn raise(app: &App, user: &User, (platform, way): (&str, Way), language: &str) -> Result<(String, String)> {
    let answer = emergency::raise_on(app, user, (platform, way), language).await?;
    Ok((answer.status.to_string(), answer.message))
}

/// Raises the alarm of a call for help asked `way` (in the words `said`, when spoken) and says how it went.
pub(super) async fn alarm(
    app: &App,
    user: &User,
    cx: Voice<'_>,
    (way, said): (Way, Option<&str>),
    tx: &Tx,
) -> Result<()> {
    let platform = if way == Way::Key { "telephone" } else { "voice" };
    let said = said.map(str::to_string);
    let answer = emergency::raise_said(app, user, (platform, way, said), &cx.2.language).await?;
    let (status, message) = (answer.status.to_string(), answer.message);
    let event = ServerEvent::Help {
        status,
        message: message.clone(),
    };
    say(app, cx, event, &message, tx).await;
    Ok(())
}

/// Sends the event, speaks `words` (a failing voice leaves the text, which the event carries), and ends the
/// turn.
async fn say(app: &App, cx: Voice<'_>, event: ServerEvent, words: &str, tx: &Tx) {
    if !send(tx, Out::Event(event)).await {
        return;
    }
    let (eff, prefs, route) = cx;
    match speech::synthesize(app, eff, prefs, route, words).await {
        Ok(said) => {
            let frame = ServerEvent::Audio {
                seq: 0,
                format: said.speech.format,
                text: Some(words.to_string()),
                filler: false,
                provider: Some(said.provider),
                tts_fallback: said.language_fallback,
            };
            if !send(tx, Out::Event(frame)).await || !send(tx, Out::Audio(said.speech.audio)).await {
                return;
            }
        }
        Err(err) => tracing::error!(%err, "the help dialogue could not be spoken"),
    }
    let _ = send(tx, Out::Event(ServerEvent::Done)).await;
}
