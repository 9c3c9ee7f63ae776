//! A personal link opened in a browser signed in as somebody else: the gateway asks before it swaps the
//! sign-in ("Sie sind als Anna angemeldet. Als Erika fortfahren?"), in the link's person's language, and only
//! the page's own POST (`/switch`) swaps it. Sent somebody's link, a person would otherwise go on talking, and
//! calling for help, in that somebody's account without a word.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::http::header::{ACCEPT_LANGUAGE, CACHE_CONTROL};
use axum::response::{Html, IntoResponse, Response};
use serde::Deserialize;
use utoipa::ToSchema;

use super::openapi::PUBLIC;
use crate::app::{App, AppState};
use crate::auth::{cookie, token};
use crate::emergency::dossier::xml_escape;
use crate::error::{ApiError, Result};
use crate::phrasebook::{self, Words};
use crate::store::users::User;

/// The page asking whether to swap, when the browser is signed in as somebody other than `link_user`; `None`
/// when it is not (no cookie, a cookie no longer valid, the same person).
pub(super) async fn ask(
    app: &App,
    (link, link_user): (&str, &User),
    to: &str,
    headers: &HeaderMap,
) -> Option<Response> {
    let current = cookie::read(headers)?;
    let current = app.store.user_by_token_hash(&token::hash(&current)).await.ok()??;
    if current.id == link_user.id {
        return None;
    }
    let prefs = app.store.prefs(&link_user.id).await.unwrap_or_default();
    let accepted = headers.get(ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok());
    let lang = prefs
        .language
        .clone()
        .filter(|l| phrasebook::knows(l))
        .unwrap_or_else(|| phrasebook::negotiate(accepted).to_string());
    let names = [
        ("current", xml_escape(&shown_name(&current)).into()),
        ("new", xml_escape(&shown_name(link_user)).into()),
    ];
    let t = Words::formal(&lang);
    let html = format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>voice-gateway</title>\
         <link rel=\"stylesheet\" href=\"/ui/ack.css?v={version}\"></head><body><main>\
         <p>{question}</p><form method=\"post\" action=\"/switch\">\
         <input type=\"hidden\" name=\"k\" value=\"{link}\"><input type=\"hidden\" name=\"to\" value=\"{to}\">\
         <button type=\"submit\">{yes}</button></form><p><a class=\"big\" href=\"{to}\">{no}</a></p></main></body></html>",
        version = env!("CARGO_PKG_VERSION"),
        question = t.with("page-signin-switch", &names),
        link = xml_escape(link),
        to = xml_escape(to),
        yes = t.with("page-signin-switch-yes", &names),
        no = t.with("page-signin-switch-no", &names),
    );
    Some(([(CACHE_CONTROL, "no-store")], Html(html)).into_response())
}

/// How a person is named to whoever holds the browser: the display name, else the login name.
fn shown_name(user: &User) -> String {
    match user.display_name.trim() {
        "" => user.name.clone(),
        name => name.to_string(),
    }
}

/// The swap the page asked about.
#[derive(Debug, Deserialize, ToSchema)]
pub(super) struct Switch {
    /// The personal link's token.
    k: String,
    /// Where to go on: `/`, `/admin` or `/carer`, with their query.
    #[serde(default)]
    to: String,
}

/// The answer of the page that asked: signs in as the link's person and goes on to `to` (an address of the
/// gateway's own; anything else goes to `/`).
#[utoipa::path(post, path = "/switch", tag = PUBLIC,
    request_body(content = Switch, content_type = "application/x-www-form-urlencoded"),
    responses(
        (status = 303, description = "signed in as the link's person: the token is in the cookie"),
        (status = 401, description = "the link is not valid"),
        (status = 422, description = "not such a form")))]
pub(super) async fn switch(State(app): State<AppState>, body: axum::body::Bytes) -> Result<Response> {
    // Read here rather than by axum's `Form`, so that a wrong body gets the error body of every other error.
    let asked: Switch = serde_urlencoded::from_bytes(&body).map_err(|e| ApiError::Validation(format!("form: {e}")))?;
    let wrong = ApiError::WrongCredential(crate::error::Credential::Link);
    if asked.k.len() > 200 {
        return Err(wrong);
    }
    let Some(user) = app.store.user_by_token_hash(&token::hash(&asked.k)).await? else {
        return Err(wrong);
    };
    let own = ["/", "/admin", "/carer"]
        .iter()
        .any(|p| asked.to == *p || asked.to.starts_with(&format!("{p}?")));
    let to = if own { asked.to.as_str() } else { "/" };
    tracing::info!(user = %user.name, "a personal link swapped the browser's sign-in, as asked");
    Ok(cookie::redirect(to, Some(&asked.k)))
}
