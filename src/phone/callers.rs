//! Who is calling: a number an admin gave a user (the prefs key `caller_numbers`) is that user's
//! conversation; any other number, and a withheld one, gets what `PHONE_UNKNOWN_CALLERS` says.

use crate::app::App;
use crate::config::phone::UnknownCallers;
use crate::error::{ApiError, Result};
use crate::prefs::{PrefsChange, caller_number};
use crate::store::users::User;

/// Whose call it is.
#[derive(Debug, Clone)]
pub enum Caller {
    /// A user's, by number or by the line's setting.
    Known(User),
    /// An unknown caller's, as the guest user.
    Guest(User),
    /// An unknown caller's, refused.
    Refused,
}

impl Caller {
    /// `known`, `guest` or `refused`, for the log and the metrics.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Known(_) => "known",
            Self::Guest(_) => "guest",
            Self::Refused => "refused",
        }
    }
}

/// The caller of `number` as the network gave it (`None`, `anonymous` or anything neither E.164 nor an
/// internal number: withheld).
pub async fn by_number(app: &App, number: Option<&str>) -> Result<Caller> {
    let country = app.settings.phone.country_code.as_deref();
    let user_id = match number
        .map(|n| international(n, country))
        .as_deref()
        .and_then(caller_number)
    {
        Some(number) => app.store.user_of_number(&number).await?,
        None => None,
    };
    match user_id {
        Some(id) => match app.store.user_by_id(&id).await? {
            Some(user) => Ok(Caller::Known(user)),
            None => unknown(app).await,
        },
        None => unknown(app).await,
    }
}

/// A number as a router passes it, made international when the line's country is known: `0049…` is `+49…`,
/// and with `country` `49`, `040…` is `+4940…`. Internal numbers (`**611`, `11`) stay as they are.
fn international(number: &str, country: Option<&str>) -> String {
    let digits: String = number.chars().filter(|c| !matches!(c, ' ' | '-' | '/')).collect();
    if let Some(rest) = digits.strip_prefix("00") {
        return format!("+{rest}");
    }
    match (digits.strip_prefix('0'), country) {
        (Some(rest), Some(country)) if !rest.is_empty() => format!("+{country}{rest}"),
        _ => digits,
    }
}

/// A number as the router dials it, the inverse of [`international`]: with the line's country known, `+4940…`
/// is `040…` and another country's `+33…` is `0033…`; without it, as it is. Internal numbers stay as they are.
pub fn dialable(number: &str, country: Option<&str>) -> String {
    let (Some(rest), Some(country)) = (number.strip_prefix('+'), country) else {
        return number.to_string();
    };
    match rest.strip_prefix(country) {
        Some(national) => format!("0{national}"),
        None => format!("00{rest}"),
    }
}

/// The caller of a line that belongs to the user named `name` (`None`: an unknown caller).
pub async fn by_name(app: &App, name: Option<&str>) -> Result<Caller> {
    let Some(name) = name else {
        return unknown(app).await;
    };
    match app.store.user_by_name(name).await? {
        Some(user) => Ok(Caller::Known(user)),
        None => {
            tracing::warn!(
                name,
                "the phone line's user does not exist; the call is an unknown caller's"
            );
            unknown(app).await
        }
    }
}

/// An unknown caller: refused, or the guest with the daily quota of `PHONE_GUEST_DAILY_REQUESTS`.
async fn unknown(app: &App) -> Result<Caller> {
    if app.settings.phone.unknown_callers == UnknownCallers::Refuse {
        return Ok(Caller::Refused);
    }
    let guest = app.store.ensure_phone_guest().await?;
    let limit = app.settings.phone.guest_daily_requests;
    let prefs = app.store.prefs(&guest.id).await?;
    if prefs.daily_request_limit != Some(limit) {
        let change = PrefsChange {
            daily_request_limit: Some(Some(limit)),
            ..PrefsChange::default()
        };
        app.store.merge_prefs(&guest.id, change).await.map_err(ApiError::from)?;
    }
    Ok(Caller::Guest(guest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contacts_number_is_dialled_as_the_router_expects_it() {
        assert_eq!(dialable("+49401234567", Some("49")), "0401234567");
        assert_eq!(dialable("+33123456789", Some("49")), "0033123456789");
        assert_eq!(dialable("+49401234567", None), "+49401234567");
        assert_eq!(dialable("**613", Some("49")), "**613");
        assert_eq!(
            international(&dialable("+49401234567", Some("49")), Some("49")),
            "+49401234567"
        );
    }

    #[test]
    fn a_routers_national_number_becomes_international_and_internal_ones_stay() {
        assert_eq!(international("040 1234567", Some("49")), "+49401234567");
        assert_eq!(international("0049401234567", None), "+49401234567");
        assert_eq!(
            international("040 1234567", None),
            "0401234567",
            "no country: as passed"
        );
        assert_eq!(international("+49401234567", Some("49")), "+49401234567");
        assert_eq!(international("**611", Some("49")), "**611");
        assert_eq!(international("11", Some("49")), "11");
        assert_eq!(
            caller_number(&international("0401234567", Some("49"))).as_deref(),
            Some("+49401234567")
        );
    }
}
