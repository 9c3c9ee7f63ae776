//! The care area: reminders and timers, the daily check-in, quiet hours.

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
    /// `REMINDER_LATE_MINUTES` in milliseconds: how late a reminder may still be delivered, and a check-in
    /// still asked (the gateway was down); later, it is recorded as missed.
    pub late_ms: i64,
    /// `REMINDER_ANSWER_MINUTES` in milliseconds: how long after a reminder was told on a connection a bare
    /// "Ja" or "Erledigt" there confirms it.
    pub answer_ms: u64,
    /// `CARE_RECEIPT_SECONDS`: how long a page or voice connection has to say it showed a pushed reminder or
    /// check-in question (its `shown` frame); without it the delivery goes on to the next channel.
    pub receipt: std::time::Duration,
    /// `REMINDER_RETRIES`: how often an unconfirmed reminder is delivered again before it counts as missed.
    pub retries: u32,
    /// `CHECKIN_RETRY_MINUTES` in milliseconds: how long an unanswered check-in waits before the person is
    /// asked again.
    pub checkin_retry_ms: i64,
    /// `QUIET_HOURS` ("22:00-07:00"; empty = none): reminders' calls and check-ins wait for their end, in the
    /// person's time zone; never the help function.
    pub quiet_hours: Option<crate::hours::Window>,
    /// `REMINDER_TOOLS`: which models are offered the reminder tools: `cloud` (the cloud model), `all` (the
    /// local one too, for a local model that takes tools) or `off`.
    pub reminder_tools: String,
    /// `HA_URL`: Home Assistant's address, for announcements on a person's Assist satellite (`ha_satellite`).
    pub ha_url: Option<String>,
    /// `HA_TOKEN`: a long-lived access token of Home Assistant.
    pub ha_token: Option<secrecy::SecretString>,
}

const LATE_HELP: &str = "minutes a reminder (or check-in) may be late, the gateway having been down, and still be delivered; later, it is recorded as missed";
const ANSWER_HELP: &str =
    "minutes after a reminder was shown or spoken on a connection in which a bare yes there confirms it";

/// A setting in minutes (`default`, at most `max`, at least 1), in milliseconds.
fn minutes(
    src: &Source,
    key: &'static str,
    help: &'static str,
    (default, max): (u32, u32),
) -> Result<i64, ConfigError> {
    Ok(i64::from(src.var(key, help).ranged(default, max)?.max(1)) * 60_000)
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
            retry_ms: minutes(src, "REMINDER_RETRY_MINUTES", "minutes an unconfirmed reminder waits before it is delivered again", (10, 240))?,
            late_ms: minutes(src, "REMINDER_LATE_MINUTES", LATE_HELP, (120, 1440))?,
            answer_ms: minutes(src, "REMINDER_ANSWER_MINUTES", ANSWER_HELP, (10, 120))? as u64,
            receipt: std::time::Duration::from_secs(u64::from(
                src.var(
                    "CARE_RECEIPT_SECONDS",
                    "seconds a page or voice connection has to say it showed a reminder or check-in (its shown frame) before the next channel is tried",
                )
                .ranged(5, 60)?
                .max(1),
            )),
            retries: src
                .var(
                    "REMINDER_RETRIES",
                    "times an unconfirmed reminder is delivered again before it counts as missed",
                )
                .ranged(2, 10)?,
            checkin_retry_ms: minutes(src, "CHECKIN_RETRY_MINUTES", "minutes an unanswered check-in waits before the person is asked again", (10, 240))?,
            reminder_tools: src
                .var(
                    "REMINDER_TOOLS",
                    "which models get the reminder tools for what the gateway's grammar does not read: cloud, all (a local model that takes tools too) or off",
                )
                .choice("cloud", &["cloud", "all", "off"])?,
            ha_url: {
                let url = src.var("HA_URL", "Home Assistant's address (http://homeassistant.local:8123), for reminders announced on a person's satellite");
                match url
                    .raw()
                    .map(|u| u.trim().trim_end_matches('/').to_string())
                    .filter(|u| !u.is_empty())
                {
                    None => None,
                    Some(u) if reqwest::Url::parse(&u).is_ok_and(|p| matches!(p.scheme(), "http" | "https")) => Some(u),
                    Some(u) => return Err(url.error(format!("{u:?} is not an http(s) address"))),
                }
            },
            ha_token: src.var("HA_TOKEN", "Home Assistant long-lived access token").secret(),
            quiet_hours: {
                let quiet = src.var(
                    "QUIET_HOURS",
                    "hours when reminders' calls and check-ins wait (22:00-07:00), in each person's zone; empty = none",
                );
                match quiet.raw().map(|q| q.trim().to_string()).filter(|q| !q.is_empty()) {
                    None => None,
                    Some(text) => {
                        Some(crate::hours::Window::parse(&text).ok_or_else(|| {
                            quiet.error(format!("{text:?} is not a span of hours such as 22:00-07:00"))
                        })?)
                    }
                }
            },
        })
    }
}
