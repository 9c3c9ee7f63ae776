//! Hours of the day: a daily span of wall-clock time, "08:00-10:00": a person's check-in window, or the gateway's quiet hours
//! ("22:00-07:00", which may cross midnight). Instants are taken in the person's time zone, so the window
//! keeps its wall-clock times across daylight-saving changes.

use std::fmt;

use jiff::Zoned;
use jiff::civil::{Date, Time};

/// From `start` to `end` each day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub start: Time,
    pub end: Time,
}

impl Window {
    /// Reads "HH:MM-HH:MM"; `None` for anything else. Start and end must differ.
    pub fn parse(text: &str) -> Option<Self> {
        let (start, end) = text.trim().split_once('-')?;
        let clock = |t: &str| {
            let (h, m) = t.trim().split_once(':')?;
            if h.len() > 2 || m.len() > 2 {
                return None;
            }
            let (h, m): (i8, i8) = (h.parse().ok()?, m.parse().ok()?);
            Time::new(h, m, 0, 0).ok()
        };
        let window = Self {
            start: clock(start)?,
            end: clock(end)?,
        };
        (window.start != window.end).then_some(window)
    }

    /// Whether the window crosses midnight (quiet hours from 22:00 to 07:00).
    fn overnight(&self) -> bool {
        self.end < self.start
    }

    /// The window that opens on `date`, as instants in `now`'s time zone (a time the day skips is moved on).
    fn on(&self, date: Date, now: &Zoned) -> Option<(Zoned, Zoned)> {
        let tz = now.time_zone().clone();
        let opens = date.to_datetime(self.start).to_zoned(tz.clone()).ok()?;
        let end_date = if self.overnight() { date.tomorrow().ok()? } else { date };
        let ends = end_date.to_datetime(self.end).to_zoned(tz).ok()?;
        Some((opens, ends))
    }

    /// The window that has not ended by `now`: today's, else tomorrow's.
    pub fn next(&self, now: &Zoned) -> Option<(Zoned, Zoned)> {
        let today = self.on(now.date(), now)?;
        if &today.1 > now {
            return Some(today);
        }
        self.on(now.date().tomorrow().ok()?, now)
    }

    /// The window of the day after the one that ended at `ended`.
    pub fn after(&self, ended: &Zoned) -> Option<(Zoned, Zoned)> {
        let opened = if self.overnight() {
            ended.date().yesterday().ok()?
        } else {
            ended.date()
        };
        self.on(opened.tomorrow().ok()?, ended)
    }

    /// When the window that `now` falls in ends; `None` when `now` is outside it.
    pub fn holds(&self, now: &Zoned) -> Option<Zoned> {
        let yesterday = now.date().yesterday().ok()?;
        [yesterday, now.date()]
            .into_iter()
            .filter_map(|date| self.on(date, now))
            .find(|(opens, ends)| opens <= now && now < ends)
            .map(|(_, ends)| ends)
    }
}

impl fmt::Display for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:02}:{:02}-{:02}:{:02}",
            self.start.hour(),
            self.start.minute(),
            self.end.hour(),
            self.end.minute()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Zoned {
        s.parse().unwrap()
    }

    #[test]
    fn windows_are_read_strictly() {
        let w = Window::parse(" 08:00 - 10:30 ").unwrap();
        assert_eq!(w.to_string(), "08:00-10:30");
        assert_eq!(Window::parse("8:5-9:00").unwrap().to_string(), "08:05-09:00");
        for bad in [
            "",
            "08:00",
            "08:00-08:00",
            "25:00-10:00",
            "08:60-09:00",
            "8-10",
            "08:000-09:00",
            "a:b-c:d",
        ] {
            assert_eq!(Window::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_next_window_is_todays_until_it_ends_then_tomorrows() {
        let w = Window::parse("08:00-10:00").unwrap();
        let (opens, ends) = w.next(&at("2026-11-28T09:00:00+01:00[Europe/Berlin]")).unwrap();
        assert_eq!(
            (opens.to_string(), ends.to_string()),
            (
                "2026-11-28T08:00:00+01:00[Europe/Berlin]".to_string(),
                "2026-11-28T10:00:00+01:00[Europe/Berlin]".to_string()
            )
        );
        let (opens, _) = w.next(&at("2026-11-28T10:00:00+01:00[Europe/Berlin]")).unwrap();
        assert_eq!(opens.to_string(), "2026-11-29T08:00:00+01:00[Europe/Berlin]");
        let (_, ends) = w.after(&at("2026-11-28T10:00:00+01:00[Europe/Berlin]")).unwrap();
        assert_eq!(ends.to_string(), "2026-11-29T10:00:00+01:00[Europe/Berlin]");
    }

    #[test]
    fn a_window_keeps_its_wall_clock_times_across_the_clock_change_and_a_skipped_time_moves_on() {
        let w = Window::parse("02:15-03:30").unwrap();
        // 2027-03-28: Berlin skips from 02:00 to 03:00; 02:15 does not exist that day.
        let (opens, ends) = w.after(&at("2027-03-27T03:30:00+01:00[Europe/Berlin]")).unwrap();
        assert_eq!(opens.to_string(), "2027-03-28T03:15:00+02:00[Europe/Berlin]");
        assert_eq!(ends.to_string(), "2027-03-28T03:30:00+02:00[Europe/Berlin]");
        let morning = Window::parse("08:00-10:00").unwrap();
        let (_, ends) = morning.after(&at("2027-10-30T10:00:00+02:00[Europe/Berlin]")).unwrap();
        assert_eq!(ends.to_string(), "2027-10-31T10:00:00+01:00[Europe/Berlin]");
    }

    #[test]
    fn quiet_hours_cross_midnight() {
        let quiet = Window::parse("22:00-07:00").unwrap();
        let ends = quiet.holds(&at("2026-11-28T23:30:00+01:00[Europe/Berlin]")).unwrap();
        assert_eq!(ends.to_string(), "2026-11-29T07:00:00+01:00[Europe/Berlin]");
        let ends = quiet.holds(&at("2026-11-29T06:59:00+01:00[Europe/Berlin]")).unwrap();
        assert_eq!(ends.to_string(), "2026-11-29T07:00:00+01:00[Europe/Berlin]");
        assert_eq!(quiet.holds(&at("2026-11-29T07:00:00+01:00[Europe/Berlin]")), None);
        assert_eq!(quiet.holds(&at("2026-11-29T12:00:00+01:00[Europe/Berlin]")), None);
        let (opens, ends) = quiet.after(&at("2026-11-29T07:00:00+01:00[Europe/Berlin]")).unwrap();
        assert_eq!(opens.to_string(), "2026-11-29T22:00:00+01:00[Europe/Berlin]");
        assert_eq!(ends.to_string(), "2026-11-30T07:00:00+01:00[Europe/Berlin]");
    }
}
