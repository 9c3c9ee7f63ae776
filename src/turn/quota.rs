//! The daily request quota: every chat, speak, transcribe and WebSocket turn counts one request.

use crate::app::App;
use crate::config::keys::Key;
use crate::config::runtime::Effective;
use crate::error::{ApiError, Result};
use crate::prefs::Prefs;
use crate::store::usage::Counter;

/// A per-user limit or, without one, the global setting.
pub fn limit(own: Option<u64>, key: Key, eff: &Effective) -> u32 {
    own.map_or_else(|| eff.count(key), |n| u32::try_from(n).unwrap_or(u32::MAX))
}

/// Whether the user's requests of today are used up (a read, for work done before the request is counted: an
/// answer started early is not started for a person who cannot ask).
pub async fn spent(app: &App, user_id: &str, prefs: &Prefs, eff: &Effective) -> Result<bool> {
    let limit = limit(prefs.daily_request_limit, Key::DailyRequestLimit, eff);
    Ok(limit > 0 && app.store.count_today(Counter::Requests, user_id).await? >= i64::from(limit))
}

/// Counts one request for today, or refuses with 429 when the limit is reached (the count is atomic, so
/// concurrent requests never pass the limit).
pub async fn charge_request(app: &App, user_id: &str, prefs: &Prefs, eff: &Effective) -> Result<()> {
    let limit = limit(prefs.daily_request_limit, Key::DailyRequestLimit, eff);
    match app.store.count_within(Counter::Requests, user_id, limit).await? {
        Some(_) => Ok(()),
        None => {
            app.metrics.incr(crate::metrics::QUOTA_REJECTIONS_TOTAL, &[]);
            Err(ApiError::TooManyRequests(format!(
                "daily limit of {limit} requests reached; it starts again at midnight"
            )))
        }
    }
}
