//! The conversation agent for Home Assistant: `transcript` (with `context.conversation_id` and `language`)
//! becomes the gateway's turn as the Wyoming user, in the gateway session of that conversation, with
//! memories, web search, quota and cost; the answer is `handled`, a refusal or failure `not-handled` with the
//! reason.
//!
//! Home Assistant opens a connection per request, so the conversation lives in the store: its session's
//! identifier is derived from the user and the `conversation_id`, and found again by the next request.

use std::sync::Arc;

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::codec::Event;
use super::events::{Context, Sent};
use super::help::Questions;
use crate::app::App;
use crate::config::route::RouteLayer;
use crate::error::Result;
use crate::store::sessions::Session;
use crate::store::users::User;
use crate::turn::{self, TurnRequest, speech};
use crate::voice::help::{self, Help, Person, Reply};

/// The title of the sessions Home Assistant's conversations create.
const TITLE: &str = "Home Assistant";

/// The gateway session of a Home Assistant conversation of this user: `wyoming-` and 32 hex digits of a
/// hash, so neither the user nor the conversation can pick another user's session.
pub fn session_id(user: &User, conversation_id: &str) -> String {
    let digest = Sha256::digest(format!("{}\n{conversation_id}", user.id));
    format!("wyoming-{:x}", digest)[..8 + 32].to_string()
}

/// The session of the conversation, created on its first turn.
async fn session(app: &App, user: &User, conversation_id: &str) -> Result<Session> {
    let session = app
        .store
        .ensure_session(&session_id(user, conversation_id), &user.id, TITLE)
        .await?;
    Ok(session)
}

/// Runs the turn of a `transcript`; its answer text.
async fn answer(app: &Arc<App>, user: &User, data: &Map<String, Value>, conversation: Option<&str>) -> Result<String> {
    let session = match conversation {
        Some(id) => Some(session(app, user, id).await?),
        None => None,
    };
    let request = TurnRequest {
        text: data.get("text").and_then(Value::as_str).unwrap_or_default().to_string(),
        session,
        layer: RouteLayer {
            language: data.get("language").and_then(Value::as_str).map(String::from),
            ..RouteLayer::default()
        },
        // Home Assistant speaks the answer through its own TTS (which may be this gateway's Wyoming voice).
        text_only: true,
        spoken: true,
        ..TurnRequest::default()
    };
    let outcome = turn::run(app, user, request, None).await?;
    // Home Assistant shows and speaks only the response: what the browser shows beside the answer (the model
    // does not speak the language, no web search) comes first, in the conversation's first turn.
    Ok(match outcome.notice {
        Some(notice) if outcome.history_len == 0 => format!("{notice} {}", outcome.text),
        _ => outcome.text,
    })
}

/// The help dialogue's words for the text, when it is a call for help or the answer to the question (see
/// [`super::help`]); none when the text is a question for the model.
async fn help_words(
    app: &Arc<App>,
    user: &User,
    data: &Map<String, Value>,
    key: String,
    questions: &Arc<Questions>,
) -> Option<Result<String>> {
    let text = data.get("text").and_then(Value::as_str).unwrap_or_default();
    let layer = RouteLayer {
        language: data.get("language").and_then(Value::as_str).map(String::from),
        ..RouteLayer::default()
    };
    let language = match speech::route_alone(app, user, layer).await {
        Ok((_, _, route)) => route.language,
        Err(err) => return Some(Err(err)),
    };
    let state = if questions.asked(&key) {
        Help::Asked
    } else {
        Help::Listening
    };
    let prefs = match app.store.prefs(&user.id).await {
        Ok(prefs) => prefs,
        Err(err) => return Some(Err(err.into())),
    };
    // Home Assistant sends the text alone: no word probabilities.
    Some(
        match help::reply(text, &[], Person::of(app, &user.id, &prefs, &language).await, state)? {
            Reply::Ask(question) => {
                if state == Help::Listening {
                    tracing::warn!(user = %user.name, "a call for help from Home Assistant; asking whether to alert the contacts");
                }
                questions.ask(app.clone(), user.clone(), key, language.clone());
                Ok(question)
            }
            Reply::Declined(words) => {
                questions.settle(&key);
                Ok(words.to_string())
            }
            // Nothing is sent: told so and to call 112.
            Reply::Nobody(words) => {
                questions.settle(&key);
                Ok(words)
            }
            Reply::Alarm => {
                questions.settle(&key);
                help::raise(app, user, ("wyoming", crate::emergency::Way::Spoken), &language)
                    .await
                    .map(|(_, message)| message)
            }
        },
    )
}

/// `transcript` → `handled` with the answer (or the help dialogue's words), or `not-handled` with the reason.
pub async fn handle(app: &Arc<App>, user: &User, data: &Map<String, Value>, questions: &Arc<Questions>) -> Event {
    let conversation = data
        .get("context")
        .and_then(|c| c.get("conversation_id"))
        .and_then(Value::as_str)
        .filter(|id| !id.is_empty());
    let context = conversation.map(|id| Context {
        conversation_id: id.to_string(),
    });
    let key = session_id(user, conversation.unwrap_or_default());
    let answered = match help_words(app, user, data, key, questions).await {
        Some(words) => words,
        None => answer(app, user, data, conversation).await,
    };
    match answered {
        Ok(text) => Sent::Handled { text, context }.into(),
        Err(err) => {
            let (_, code) = err.status_and_code();
            tracing::info!(code, error = ?err, "a Wyoming turn was not handled");
            Sent::NotHandled {
                text: err.to_string(),
                context,
            }
            .into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(id: &str) -> User {
        User {
            id: id.into(),
            name: id.into(),
            display_name: String::new(),
            external_id: None,
            is_admin: false,
            is_anonymous: false,
            created_at: 0,
        }
    }

    #[test]
    fn a_conversation_has_one_session_per_user() {
        let (anna, ben) = (user("anna"), user("ben"));
        let id = session_id(&anna, "01JABC");
        assert_eq!(id, session_id(&anna, "01JABC"), "found again by the next request");
        assert!(id.starts_with("wyoming-") && id.len() == 40, "{id}");
        assert_ne!(id, session_id(&anna, "01JABD"));
        assert_ne!(
            id,
            session_id(&ben, "01JABC"),
            "another user's conversation of that id is another session"
        );
    }
}
