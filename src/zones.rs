//! A person's time zone and times on their clock: care keeps reminders in it, alarms tell their times in it.

use jiff::tz::TimeZone;

use crate::app::App;

/// The time zone of a person: the one they set (`pref`), else the gateway's (`setting`, `TIMEZONE`), else the
/// machine's, else UTC.
pub fn zone(pref: Option<&str>, setting: Option<&str>) -> TimeZone {
    [pref, setting]
        .into_iter()
        .flatten()
        .find_map(|name| TimeZone::get(name).ok())
        .unwrap_or_else(|| TimeZone::try_system().unwrap_or(TimeZone::UTC))
}

/// The time zone of the person with `prefs`: theirs, else `TIMEZONE`, else the machine's, else UTC.
pub fn person_zone(app: &App, prefs: &crate::prefs::Prefs) -> TimeZone {
    zone(prefs.timezone(), app.settings.care.timezone.as_deref())
}

/// [`person_zone`]'s name, as reminders store it.
pub fn person_zone_name(app: &App, prefs: &crate::prefs::Prefs) -> String {
    zone_name(&person_zone(app, prefs))
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
