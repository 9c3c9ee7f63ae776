//! How far a person's help reaches, counted in one place: their own contacts, their carers' own addresses
//! (mailed as contacts are, unless the person turned `notify_carers` off) and `EMERGENCY_CONTACT_EMAIL`, on the
//! channels that work now. Whether a channel works is what the periodic checks and the alarms' deliveries last
//! found, on every instance (the store's `help_channels`): a delivery that succeeded marks its channel working at
//! once, one that failed marks it failing.

use crate::app::App;
use crate::prefs::Prefs;
use crate::store::help_channels::ChannelHealth;

/// The mail relay's check.
pub const MAIL: &str = "mail";
/// Twilio's check (SMS and calls).
pub const TWILIO: &str = "twilio";
/// The webhook's check.
pub const WEBHOOK: &str = "webhook";
/// The house's telephone's check (calls over it): registered with the registrar.
pub const SIP: &str = "sip";

/// The channels' health as last found on any instance.
#[derive(Debug, Clone, Default)]
pub struct Health(Vec<ChannelHealth>);

impl Health {
    /// Read from the store; where it cannot be read, this instance's own checks.
    pub async fn read(app: &App) -> Self {
        match app.store.channel_health().await {
            Ok(all) => Self(all),
            Err(err) => {
                tracing::warn!(%err, "the help path's health could not be read; using this instance's checks");
                let own = app.breakers.checks().into_iter().map(|(name, report)| ChannelHealth {
                    name: name.to_string(),
                    failing: report.state != crate::providers::breakers::BreakerState::Closed,
                    error: report.last_error,
                    at: 0,
                });
                Self(own.collect())
            }
        }
    }

    /// Whether the check `name` (`mail`, `twilio`, `webhook`, `sip`) was last found failing (never: no).
    pub fn fails(&self, name: &str) -> bool {
        self.0.iter().any(|c| c.name == name && c.failing)
    }
}

/// Records what a check found of channel `name` (`error`: failing) as of `at`; never fails the caller.
pub async fn found(app: &App, name: &str, error: Option<&str>, at: i64) {
    if let Err(err) = app.store.found_channel(name, error.is_some(), error, at).await {
        tracing::warn!(%err, check = name, "the help path's health was not stored");
    }
}

/// What decides how far a person's help reaches: their prefs, their carers' addresses and the channels' health.
pub struct Reachable<'a> {
    pub prefs: &'a Prefs,
    /// The carers' own addresses an alarm mails ([`crate::carers::mail_to`]).
    pub carers: Vec<String>,
    pub health: Health,
}

impl<'a> Reachable<'a> {
    /// The help path of `user_id`, read now.
    pub async fn of(app: &App, user_id: &str, prefs: &'a Prefs) -> Self {
        let (carers, health) = tokio::join!(crate::carers::mail_to(app, user_id, prefs), Health::read(app));
        Self { prefs, carers, health }
    }
}

/// A channel's name in the phrasebook.
pub fn channel_phrase(channel: &str) -> &'static str {
    match channel {
        "email" => "help-by-email",
        "sms" => "help-by-sms",
        _ => "help-by-call",
    }
}
