//! What carers are told live: when a resident's care changes (an alarm raised or looked after, a reminder
//! set, delivered, confirmed or missed, the check-in asking or answered), every open board of the resident's
//! carers gets `{"type": "care.changed", "resident_id": …}` and reads that one resident again. The boards
//! are the carers' connections under the name `carer:<id>` (not their own, so a carer's own reminders never
//! count a board as a place they were delivered to), on this instance or, through [`crate::bus`], another.

use serde_json::json;

use crate::app::App;
use crate::prefs::Prefs;

/// The name a carer's boards are known by among the connections.
pub fn boards_of(carer_id: &str) -> String {
    format!("carer:{carer_id}")
}

/// Tells the boards of `resident_id`'s carers that their care changed; never fails the caller (a board that
/// missed it reads everything again when it reconnects, and every minute).
pub async fn changed(app: &App, resident_id: &str) {
    let carers = match app.store.carer_ids_of(resident_id).await {
        Ok(carers) => carers,
        Err(err) => {
            tracing::warn!(%err, "the carers to tell of a change could not be read");
            return;
        }
    };
    if carers.is_empty() {
        return;
    }
    let boards: Vec<String> = carers.iter().map(|c| boards_of(c)).collect();
    let elsewhere = crate::bus::elsewhere_of(app, &boards).await;
    let event = json!({"type": "care.changed", "resident_id": resident_id});
    for board in &boards {
        let there = elsewhere.as_ref().map(|e| e.get(board).copied().unwrap_or(0));
        crate::bus::push(app, board, &event, there).await;
    }
}

/// [`changed`] for each of `residents`, once each (a look delivers many reminders of one person at once).
pub async fn changed_all(app: &App, residents: impl Iterator<Item = &str>) {
    let mut residents: Vec<&str> = residents.collect();
    residents.sort_unstable();
    residents.dedup();
    for resident in residents {
        changed(app, resident).await;
    }
}

/// The addresses of `resident_id`'s carers who are told what the resident's contacts are told (care notices,
/// calls for help): none when the resident turned `notify_carers` off; a carer without an `email` is told on
/// the board only. Never fails the caller (the contacts are told all the same).
pub async fn mail_to(app: &App, resident_id: &str, prefs: &Prefs) -> Vec<String> {
    if prefs.notify_carers == Some(false) {
        return Vec::new();
    }
    let told = async {
        let carers = app.store.carer_ids_of(resident_id).await?;
        let prefs = app.store.prefs_of(&carers).await?;
        let mut to: Vec<String> = carers
            .iter()
            .filter_map(|c| prefs.get(c))
            .map(|p| Prefs::text(&p.email).to_string())
            .filter(|address| !address.is_empty())
            .collect();
        to.sort();
        to.dedup();
        Ok::<_, crate::store::StoreError>(to)
    };
    told.await
        .inspect_err(|err| tracing::warn!(%err, "the carers to tell could not be read"))
        .unwrap_or_default()
}

/// The carers' board, with `PUBLIC_URL`.
pub fn board_link(app: &App) -> Option<String> {
    let base = app.settings.emergency.public_url.as_deref()?;
    Some(format!("{}/carer", base.trim_end_matches('/')))
}
