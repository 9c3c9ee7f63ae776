//! What carers are told live: when a resident's care changes (an alarm raised or looked after, a reminder
//! set, delivered, confirmed or missed, the check-in asking or answered), every open board of the resident's
//! carers gets `{"type": "care.changed", "resident_id": …}` and reads that one resident again. The boards
//! are the carers' connections under the name `carer:<id>` (not their own, so a carer's own reminders never
//! count a board as a place they were delivered to), on this instance or, through [`crate::bus`], another.

use serde_json::json;

use crate::app::App;

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
