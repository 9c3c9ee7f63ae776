//! A care notice's acknowledgement link: a contact who got the notice says they are looking after it. The link
//! (`{PUBLIC_URL}/api/care/ack/{token}`, only the token's hash kept) opens a page with one button; only the
//! button (a POST) acknowledges, so that a mail scanner fetching the link acknowledges nothing. The first
//! acknowledgement goes into the person's care log (`link`, `acknowledged`), where the carer sees it.

use crate::app::App;
use crate::auth::token;
use crate::emergency::dossier::xml_escape;
use crate::error::{ApiError, Result};
use crate::phrasebook::Words;

/// A new link for a notice about `user_id` headed `about`, in `lang`; none without `PUBLIC_URL`.
pub async fn link(app: &App, user_id: &str, about: &str, lang: &str) -> Option<String> {
    let base = app.settings.emergency.public_url.as_deref()?;
    let secret = token::generate();
    match app
        .store
        .add_care_ack(&token::hash(&secret), user_id, about, lang)
        .await
    {
        Ok(()) => Some(format!("{}/api/care/ack/{secret}", base.trim_end_matches('/'))),
        Err(err) => {
            tracing::warn!(%err, "a care notice's acknowledgement link was not stored");
            None
        }
    }
}

/// The page of a link: asks (`confirm` false) or acknowledges and thanks. A wrong link is 404.
pub async fn page(app: &App, secret: &str, confirm: bool) -> Result<String> {
    let hash = token::hash(secret);
    let Some(ack) = app.store.care_ack(&hash).await? else {
        return Err(ApiError::WrongCredential(crate::error::Credential::Care));
    };
    if confirm && app.store.acknowledge_care(&hash).await? {
        app.store
            .add_care_log(&ack.user_id, "notice", "link", "acknowledged", Some(&ack.about))
            .await?;
        tracing::info!(user = %ack.user_id, "a contact is looking after a care notice");
        crate::carers::changed(app, &ack.user_id).await;
    }
    let lang = if crate::phrasebook::knows(&ack.lang) {
        ack.lang.as_str()
    } else {
        crate::phrasebook::FALLBACK
    };
    let words = Words::formal(lang);
    let title = xml_escape(&words.get("care-ack-title"));
    let body = if confirm || ack.acknowledged_at.is_some() {
        format!(
            "<p role=\"status\"><strong>{}</strong></p>",
            xml_escape(&words.get("care-ack-thanks"))
        )
    } else {
        let button = xml_escape(&words.get("care-ack-button"));
        format!("<form method=\"post\"><button type=\"submit\">{button}</button></form>")
    };
    Ok(format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"robots\" content=\"noindex\">\
         <title>{title}</title><link rel=\"stylesheet\" href=\"/ui/ack.css?v={version}\"></head>\
         <body><h1>{title}</h1><p>{about}</p>{body}</body></html>",
        about = xml_escape(&ack.about),
        version = env!("CARGO_PKG_VERSION"),
    ))
}
