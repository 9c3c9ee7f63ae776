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
use crate::lines::Outcome;
use crate::listen::budget::Seat;
use crate::store::users::User;
use call::{Call, Ending, Inbound, Line};

/// The phone's HTTP routes (Twilio's webhook and stream).
pub use twilio::router;

/// The place of a call of `user` among the voice connections, taken before the line answers: a call beyond
/// the limits is refused as busy, never answered and then hung up.
pub(crate) fn seat(app: &App, user: &User, line_name: &'static str) -> Result<Seat, Outcome> {
    app.voice_budget.seat(&user.id).map_err(|_| {
        tracing::warn!(
            line = line_name,
            "too many voice connections; a call is refused before it is answered"
        );
        Outcome::Refused("voice_limit")
    })
}

/// Answers a call of `user` from `number` (as the line gave it; empty when withheld or unknown) on `line_name`
/// (in the place it was given) and runs it until it ends: how it ended. One the store cannot open a session for
/// hears an apology.
pub(crate) async fn answer<L: Line>(
    app: Arc<App>,
    (user, _seat, number): (User, Seat, String),
    line_name: &'static str,
    inbound: &mut mpsc::Receiver<Inbound>,
    line: &mut L,
) -> Outcome {
    let started = async {
        let session = app
            .store
            .create_session(&user.id, "Phone call", &Default::default())
            .await?;
        Call::new(app.clone(), (user, number), line_name, session, line.rate()).await
    };
    let call = match started.await {
        Ok(call) => call,
        Err(err) => {
            tracing::error!(%err, "a call could not be answered");
            call::apologize(&app, line, inbound).await;
            return Outcome::Ended("unavailable");
        }
    };
    let _open = Open::counted(app.clone());
    match call.run(inbound, line).await {
        Ending::HungUp => Outcome::HungUp,
        Ending::Goodbye => Outcome::Ended("goodbye"),
    }
}

/// A call counted among the open voice connections until it ends, however it ends (a failed task too).
struct Open(Arc<App>);

impl Open {
    const LABEL: [(&'static str, &'static str); 1] = [("channel", "phone")];

    fn counted(app: Arc<App>) -> Self {
        app.metrics.gauge_add(crate::metrics::WS_CONNECTIONS, &Self::LABEL, 1);
        Self(app)
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        self.0
            .metrics
            .gauge_add(crate::metrics::WS_CONNECTIONS, &Self::LABEL, -1);
    }
}
