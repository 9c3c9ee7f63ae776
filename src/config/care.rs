//! The care area: reminders and timers (and, later, the daily check-in).

use super::env::{ConfigError, Source};

/// Reminders and timers.
#[derive(Debug)]
pub struct CareSettings {
    /// `TIMEZONE`: the IANA time zone of a person who set none in their prefs; without it the machine's.
    pub timezone: Option<String>,
    /// `REMINDERS_MAX`: reminders and timers a person may have waiting; beyond, 409.
    pub reminders_max: u32,
    /// `REMINDER_RETRY_MINUTES` in milliseconds: how long a reminder to confirm waits before it is delivered
    /// again.
    pub retry_ms: i64,
    /// `REMINDER_RETRIES`: how often an unconfirmed reminder is delivered again before it counts as missed.
    pub retries: u32,
}

/// Longest reminder text, in characters.
pub const REMINDER_TEXT_MAX: usize = 200;

impl CareSettings {
    /// Reads the area.
    pub(super) fn read(src: &Source) -> Result<Self, ConfigError> {
        let zone = src.var(
            "TIMEZONE",
            "IANA time zone of reminders for people who set none (Europe/Berlin); empty = the machine's",
        );
        let timezone = zone.raw().map(|z| z.trim().to_string()).filter(|z| !z.is_empty());
        if let Some(name) = &timezone
            && jiff::tz::TimeZone::get(name).is_err()
        {
            return Err(zone.error(format!("{name:?} is not an IANA time zone (e.g. Europe/Berlin)")));
        }
        Ok(Self {
            timezone,
            reminders_max: src
                .var(
                    "REMINDERS_MAX",
                    "reminders and timers a person may have waiting; beyond, 409",
                )
                .ranged(100, 10_000)?
                .max(1),
            retry_ms: i64::from(
                src.var(
                    "REMINDER_RETRY_MINUTES",
                    "minutes an unconfirmed reminder waits before it is delivered again",
                )
                .ranged(10, 240)?
                .max(1),
            ) * 60_000,
            retries: src
                .var(
                    "REMINDER_RETRIES",
                    "times an unconfirmed reminder is delivered again before it counts as missed",
                )
                .ranged(2, 10)?,
        })
    }
}
