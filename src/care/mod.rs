//! Care that comes to the person (issue 49): reminders and timers set by speaking or typing. This part reads
//! what people say, in German and English, deterministically ([`spoken`], with [`numbers`]), works out when it
//! is due in the person's time zone, across daylight-saving changes ([`due`]), and says back what it
//! understood ([`say`]).

use jiff::tz::TimeZone;

pub mod asked;
pub mod due;
pub mod notice;
pub mod numbers;
pub mod say;
pub mod schedule;
pub mod spoken;

/// The time zone of a person: the one they set (`pref`), else the gateway's (`setting`, `TIMEZONE`), else the
/// machine's, else UTC.
pub fn zone(pref: Option<&str>, setting: Option<&str>) -> TimeZone {
    [pref, setting]
        .into_iter()
        .flatten()
        .find_map(|name| TimeZone::get(name).ok())
        .unwrap_or_else(|| TimeZone::try_system().unwrap_or(TimeZone::UTC))
}

/// The instant `ms` (epoch milliseconds) on the wall clock of the time zone named `zone`.
pub fn local(ms: i64, zone: &str) -> jiff::Zoned {
    jiff::Timestamp::from_millisecond(ms)
        .unwrap_or_default()
        .to_zoned(self::zone(Some(zone), None))
}

/// The instant `ms` as RFC 3339 with the offset of the time zone named `zone`, as the API and events give it.
pub fn rfc3339(ms: i64, zone: &str) -> String {
    local(ms, zone).strftime("%Y-%m-%dT%H:%M:%S%:z").to_string()
}

/// The name a time zone is stored under: its IANA name, else "UTC".
pub fn zone_name(tz: &TimeZone) -> String {
    tz.iana_name().unwrap_or("UTC").to_string()
}

#[cfg(test)]
mod tests;
