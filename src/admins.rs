//! What the admin panels are told live: a person's help path may have changed (their prefs or contacts,
//! their carers, a person created or deleted), so every open panel, on this instance or, through
//! [`crate::bus`], another, reads the help path's diagnosis again at once: the banner follows the edit.

use serde_json::json;

use crate::app::App;

/// The name the open admin panels are known by among the connections.
pub const PANELS: &str = "admin:panels";

/// Tells every open panel that `user_id`'s help path may have changed; never fails the caller (a panel reads
/// its health again every few seconds all the same).
pub async fn help_changed(app: &App, user_id: &str) {
    let event = json!({"type": "help.changed", "user_id": user_id});
    crate::bus::push(app, PANELS, &event, None).await;
}
