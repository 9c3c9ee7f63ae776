//! When a reminder falls: the pieces of a time as said ([`When`]), the person's time zone and "now" give the
//! first time it is due, its repetition as an RFC 5545 rule ([`Rule`]), and what the person must be told of it:
//! which hour was taken when "um 8" could mean two (the next one), and a time that the clocks skip that day
//! (moved to the same time after the change).

use jiff::civil::{Date, DateTime, Weekday};
use jiff::tz::{AmbiguousOffset, TimeZone};
use jiff::{SignedDuration, ToSpan, Zoned};

use super::spoken::{Day, Part, Repeat, When};

/// When a reminder is due first.
#[derive(Debug, Clone, PartialEq)]
pub struct Due {
    pub at: Zoned,
    /// How it repeats; none for once.
    pub rule: Option<Rule>,
    /// The hour was taken of two that the words allow ("um 8" → 20:00 in the evening).
    pub chose: bool,
    /// The time said, when it does not exist that day (the clocks go forward over it).
    pub skipped: Option<DateTime>,
}

/// Why no time could be worked out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// No time was said.
    NoTime,
    /// A day was said, or a repetition, but no time of it ("morgen", "jeden Montag"): a guess would be wrong.
    NoClock,
    /// The day and time said have passed ("heute um 7:00" at nine).
    Passed,
}

/// The clock time a part of the day stands for when no time was said.
fn part_time(part: Part) -> (i8, i8) {
    match part {
        Part::Morning => (8, 0),
        Part::Forenoon => (10, 0),
        Part::Noon => (12, 0),
        Part::Afternoon => (15, 0),
        Part::Evening => (19, 0),
        Part::Night => (21, 0),
    }
}

/// The hours a clock time may mean, earliest first: one when it is sure or its part of the day says which.
fn hours(hour: u8, sure: bool, part: Option<Part>) -> Vec<i8> {
    let h = hour as i8;
    if sure {
        return vec![h];
    }
    let pm = |h: i8| if h < 12 { h + 12 } else { h };
    match part {
        Some(Part::Morning | Part::Forenoon) => vec![h % 12],
        Some(Part::Noon) => vec![if h <= 4 { pm(h) } else { h }],
        Some(Part::Afternoon | Part::Evening) => vec![pm(h)],
        Some(Part::Night) => vec![if (6..12).contains(&h) { pm(h) } else { h % 12 }],
        None if h == 12 => vec![12, 0],
        None => vec![h, pm(h)],
    }
}

/// The first time `when` falls after `now`, in `now`'s time zone.
pub fn due(when: &When, now: &Zoned) -> Result<Due, Problem> {
    if let Some(seconds) = when.after {
        let at = now
            .checked_add(SignedDuration::from_secs(i64::from(seconds)))
            .map_err(|_| Problem::NoTime)?;
        return Ok(Due {
            at,
            rule: None,
            chose: false,
            skipped: None,
        });
    }
    if when.day.is_none() && when.clock.is_none() && when.part.is_none() && when.repeat.is_none() {
        return Err(Problem::NoTime);
    }
    let times: Vec<(i8, i8)> = match (when.clock, when.part) {
        (Some(c), part) => hours(c.hour, c.sure, part)
            .into_iter()
            .map(|h| (h, c.minute as i8))
            .collect(),
        (None, Some(part)) => vec![part_time(part)],
        (None, None) => return Err(Problem::NoClock),
    };
    let rule = when.repeat.as_ref().map(Rule::of);
    let today = now.date();
    // The days the words allow, in order, and whether a later week may stand in when the time has passed.
    let days: Vec<Date> = match (&rule, when.day) {
        (Some(rule), _) => (0..8)
            .filter_map(|n| today.checked_add(n.days()).ok())
            .filter(|d| rule.on(*d))
            .collect(),
        (None, Some(Day::Today)) => vec![today],
        (None, Some(Day::Tomorrow)) => today.tomorrow().into_iter().collect(),
        (None, Some(Day::DayAfterTomorrow)) => today.checked_add(2.days()).into_iter().collect(),
        (None, Some(Day::Weekday { day, next })) => {
            let ahead = i64::from(day.since(today.weekday()));
            let first = if next && ahead == 0 { 7 } else { ahead };
            [first, first + 7]
                .iter()
                .filter_map(|n| today.checked_add(n.days()).ok())
                .collect()
        }
        (None, None) => [0, 1].iter().filter_map(|n| today.checked_add(n.days()).ok()).collect(),
    };
    let tz = now.time_zone();
    for date in days {
        for &(hour, minute) in &times {
            let said = date.at(hour, minute, 0, 0);
            let (at, skipped) = zoned(tz, said);
            if at > *now {
                return Ok(Due {
                    at,
                    rule,
                    chose: times.len() > 1,
                    skipped,
                });
            }
        }
    }
    Err(Problem::Passed)
}

/// The local time `said` in `tz`: moved past a gap of the clocks (and said so), the earlier of a time that
/// comes twice.
pub fn zoned(tz: &TimeZone, said: DateTime) -> (Zoned, Option<DateTime>) {
    let ambiguous = tz.to_ambiguous_zoned(said);
    let skipped = matches!(ambiguous.offset(), AmbiguousOffset::Gap { .. }).then_some(said);
    let at = ambiguous
        .compatible()
        .unwrap_or_else(|_| tz.to_zoned(said).unwrap_or_default());
    (at, skipped)
}

/// A repetition as RFC 5545 writes it: `FREQ=DAILY`, or `FREQ=WEEKLY;BYDAY=MO,TH`. The gateway takes these two
/// forms (with `INTERVAL=1`); others are refused with a clear error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// The days it falls on; all seven for daily.
    days: Vec<Weekday>,
    daily: bool,
}

const CODES: [(&str, Weekday); 7] = [
    ("MO", Weekday::Monday),
    ("TU", Weekday::Tuesday),
    ("WE", Weekday::Wednesday),
    ("TH", Weekday::Thursday),
    ("FR", Weekday::Friday),
    ("SA", Weekday::Saturday),
    ("SU", Weekday::Sunday),
];

impl Rule {
    fn of(repeat: &Repeat) -> Self {
        match repeat {
            Repeat::Daily => Self {
                days: CODES.iter().map(|(_, d)| *d).collect(),
                daily: true,
            },
            Repeat::Weekdays => Self {
                days: CODES[..5].iter().map(|(_, d)| *d).collect(),
                daily: false,
            },
            Repeat::Days(days) => Self {
                days: days.clone(),
                daily: false,
            },
        }
    }

    /// Reads a rule; the error says what is not taken.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut freq = None;
        let mut days = Vec::new();
        for part in text
            .trim()
            .trim_start_matches("RRULE:")
            .split(';')
            .filter(|p| !p.is_empty())
        {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("`{part}` is not KEY=VALUE"))?;
            match key.to_ascii_uppercase().as_str() {
                "FREQ" => freq = Some(value.to_ascii_uppercase()),
                "INTERVAL" if value == "1" => {}
                "BYDAY" => {
                    for code in value.split(',') {
                        let day = CODES
                            .iter()
                            .find(|(c, _)| c.eq_ignore_ascii_case(code))
                            .ok_or_else(|| format!("BYDAY `{code}` is not MO, TU, WE, TH, FR, SA or SU"))?;
                        if !days.contains(&day.1) {
                            days.push(day.1);
                        }
                    }
                }
                other => return Err(format!("`{other}` is not taken (FREQ=DAILY, or FREQ=WEEKLY;BYDAY=…)")),
            }
        }
        match freq.as_deref() {
            Some("DAILY") if days.is_empty() => Ok(Self::of(&Repeat::Daily)),
            Some("WEEKLY") if !days.is_empty() => {
                days.sort_by_key(|d| d.to_monday_zero_offset());
                Ok(Self { days, daily: false })
            }
            Some("WEEKLY") => Err("FREQ=WEEKLY needs BYDAY".into()),
            _ => Err("FREQ must be DAILY or WEEKLY".into()),
        }
    }

    /// Whether it falls on `date`.
    pub fn on(&self, date: Date) -> bool {
        self.days.contains(&date.weekday())
    }

    /// The days it falls on.
    pub fn days(&self) -> &[Weekday] {
        &self.days
    }

    pub fn is_daily(&self) -> bool {
        self.daily
    }

    /// The next time after `last` (a time it fell on) at the same local time of day, in `last`'s time zone.
    pub fn next(&self, last: &Zoned) -> Option<(Zoned, Option<DateTime>)> {
        let wall = last.datetime();
        (1..=7).find_map(|n| {
            let date = wall.date().checked_add(n.days()).ok()?;
            self.on(date)
                .then(|| zoned(last.time_zone(), date.to_datetime(wall.time())))
        })
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.daily {
            return f.write_str("FREQ=DAILY");
        }
        let codes: Vec<&str> = self
            .days
            .iter()
            .filter_map(|d| CODES.iter().find(|(_, c)| c == d).map(|(code, _)| *code))
            .collect();
        write!(f, "FREQ=WEEKLY;BYDAY={}", codes.join(","))
    }
}
