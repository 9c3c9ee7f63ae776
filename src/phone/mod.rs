//! The phone line: the assistant can be called. Two lines lead to the same voice core:
//! - [`twilio`]: a Twilio number's incoming-call webhook and its bidirectional Media Stream (µ-law, 8 kHz).
//! - [`audiosocket`]: Asterisk's AudioSocket over TCP (`AUDIOSOCKET_ADDR`, 16-bit linear, 8 kHz), for people
//!   with their own telephone system.
//!
//! A line only translates its wire into [`call::Inbound`] and [`call::Line`]; [`call`] holds the call itself
//! (greeting, turns, barge-in by marks, goodbye, help by voice, usage). [`callers`] finds whose call it is by
//! the caller's number (prefs `caller_numbers`) or the line's user, and [`texts`] has what the line says by
//! itself.

pub mod audiosocket;
pub(crate) mod call;
pub mod callers;
mod texts;
pub mod twilio;

use std::sync::Arc;

use tokio::sync::mpsc;

use crate::app::App;
use crate::store::users::User;
use call::{Call, Inbound, Line};

/// The phone's HTTP routes (Twilio's webhook and stream).
pub use twilio::router;

/// Answers a call of `user` on `line_name` and runs it until it ends; a call over the voice connections' limits,
/// or one the store cannot open a session for, hears an apology.
pub(crate) async fn answer<L: Line>(
    app: Arc<App>,
    user: User,
    line_name: &'static str,
    inbound: &mut mpsc::Receiver<Inbound>,
    line: &mut L,
) {
    let Ok(_seat) = app.voice_budget.seat(&user.id) else {
        tracing::warn!(line = line_name, "too many voice connections; a call is turned away");
        return call::apologize(&app, line, inbound).await;
    };
    let started = async {
        let session = app
            .store
            .create_session(&user.id, "Phone call", &Default::default())
            .await?;
        Call::new(app.clone(), user, line_name, session, line.rate()).await
    };
    let call = match started.await {
        Ok(call) => call,
        Err(err) => {
            tracing::error!(%err, "a call could not be answered");
            return call::apologize(&app, line, inbound).await;
        }
    };
    let label = [("channel", "phone")];
    app.metrics.gauge_add(crate::metrics::WS_CONNECTIONS, &label, 1);
    call.run(inbound, line).await;
    app.metrics.gauge_add(crate::metrics::WS_CONNECTIONS, &label, -1);
}
