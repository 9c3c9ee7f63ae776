//! Reading a stretch of words as a run of pieces, and what the run says.

use std::rc::Rc;

use super::{Atom, Chart, Clock, Day, Found, InPiece, MAX_PIECE, MAX_STEPS, Reader, Repeat, Shape, When};

impl Reader<'_> {
    /// The pieces found at `at`, longest first (a file's earlier piece first among equals).
    fn chart(&self, lengths: bool, at: usize) -> Chart {
        if let Some(chart) = self.charts.borrow().get(&(lengths, at)) {
            return chart.clone();
        }
        let mut found = Vec::new();
        let last = self.words.len().min(at + MAX_PIECE);
        for (piece, (atoms, template)) in self.pieces().iter().enumerate() {
            if atoms.contains(&Atom::Span) != lengths {
                continue;
            }
            let slots = InPiece { reader: self, at };
            for to in at + 1..=last {
                if let Some(filled) = template.matches(&self.words[at..to], &slots) {
                    let filled = filled.into_iter().map(|(n, a, b)| (n, a + at, b + at)).collect();
                    found.push(Found { to, piece, filled });
                }
            }
        }
        found.sort_by_key(|f| std::cmp::Reverse(f.to));
        let chart = Rc::new(found);
        self.charts.borrow_mut().insert((lengths, at), chart.clone());
        chart
    }

    /// The words `from..to` as a run of pieces (of lengths, or of a time), each kind of a time once; the
    /// longest pieces first.
    pub(super) fn run(&self, lengths: bool, from: usize, to: usize) -> Option<Vec<Found>> {
        let mut run = Vec::new();
        let mut steps = 0;
        self.walk(lengths, from, to, &mut run, &mut steps).then_some(run)
    }

    fn walk(&self, lengths: bool, at: usize, to: usize, run: &mut Vec<Found>, steps: &mut usize) -> bool {
        if at == to {
            return !run.is_empty();
        }
        *steps += 1;
        if *steps > MAX_STEPS {
            return false;
        }
        for found in self.chart(lengths, at).iter().filter(|f| f.to <= to) {
            let said = |f: &Found| self.atoms(f).iter().map(|a| a.kind()).collect::<Vec<_>>();
            let new = said(found);
            if !lengths && run.iter().any(|f| said(f).iter().any(|k| new.contains(k))) {
                continue;
            }
            run.push(found.clone());
            if self.walk(lengths, found.to, to, run, steps) {
                return true;
            }
            run.pop();
        }
        false
    }

    /// What a run of a time's pieces says.
    pub(super) fn when(&self, run: &[Found]) -> When {
        let mut when = When::default();
        let (mut am, mut pm) = (false, false);
        for found in run {
            for atom in self.atoms(found) {
                let weekday = || {
                    let (a, b) = self.slot(found, "weekday")?;
                    self.weekday("weekday", a, b)
                };
                match *atom {
                    Atom::Today => when.day = Some(Day::Today),
                    Atom::Tomorrow => when.day = Some(Day::Tomorrow),
                    Atom::DayAfterTomorrow => when.day = Some(Day::DayAfterTomorrow),
                    Atom::Weekday | Atom::NextWeekday => {
                        let next = *atom == Atom::NextWeekday;
                        when.day = weekday().map(|day| Day::Weekday { day, next });
                    }
                    Atom::Part(part) => when.part = Some(part),
                    Atom::Daily => when.repeat = Some(Repeat::Daily),
                    Atom::Weekdays => when.repeat = Some(Repeat::Weekdays),
                    Atom::Days => when.repeat = Some(Repeat::Days(self.days(found))),
                    Atom::After => when.after = self.slot(found, "span").and_then(|(a, b)| self.span(a, b)),
                    Atom::Clock(shape) => when.clock = self.clock(shape, found),
                    Atom::Am => am = true,
                    Atom::Pm => pm = true,
                    Atom::Span | Atom::Half => {}
                }
            }
        }
        when.clock = when.clock.map(|c| half_of_day(c, am, pm));
        when
    }

    /// Every weekday a piece names, in order, once each.
    fn days(&self, found: &Found) -> Vec<jiff::civil::Weekday> {
        let mut days = Vec::new();
        for (name, a, b) in &found.filled {
            if let Some(day) = self.weekday(name, *a, *b).filter(|d| !days.contains(d)) {
                days.push(day);
            }
        }
        days
    }

    /// The clock time a piece of `shape` says.
    fn clock(&self, shape: Shape, found: &Found) -> Option<Clock> {
        let written = self.slot(found, "time").and_then(|(a, b)| self.time(a, b));
        let hour = written
            .map(|(h, _, _)| h)
            .or_else(|| self.slot(found, "hour").and_then(|(a, b)| self.hour(a, b)));
        let minute = written
            .map(|(_, m, _)| m)
            .or_else(|| self.slot(found, "minute").and_then(|(a, b)| self.minute(a, b)));
        let before = |h: u32| if h <= 1 { h + 11 } else { h - 1 };
        let (hour, minute) = match shape {
            Shape::Noon => return Some(sure(12, 0)),
            Shape::Midnight => return Some(sure(0, 0)),
            Shape::At => (hour?, minute.unwrap_or(0)),
            Shape::To => (before(hour?), 60 - minute?),
            Shape::HalfPast => (hour?, 30),
            Shape::HalfTo => (before(hour?), 30),
            Shape::QuarterPast => (hour?, 15),
            Shape::QuarterTo => (before(hour?), 45),
            Shape::QuarterOf => (before(hour?), 15),
        };
        let zero = written.is_some_and(|(_, _, zero)| zero);
        Some(Clock {
            hour: (hour % 24) as u8,
            minute: minute as u8,
            sure: hour > 12 || hour == 0 || zero,
        })
    }

    /// A bare clock time (`{clock}`): one clock piece ("halb acht"), or an hour and perhaps minutes ("7",
    /// "sieben dreißig").
    pub(super) fn bare_clock(&self, from: usize, to: usize) -> Option<Clock> {
        if let Some(run) = self.run(false, from, to) {
            let clockish = |a: &Atom| matches!(a, Atom::Clock(_) | Atom::Am | Atom::Pm);
            if run.iter().all(|f| self.atoms(f).iter().all(clockish)) {
                return self.when(&run).clock;
            }
        }
        if let Some((hour, minute, zero)) = self.time(from, to) {
            return Some(Clock {
                hour: (hour % 24) as u8,
                minute: minute as u8,
                sure: hour > 12 || hour == 0 || zero,
            });
        }
        (from + 1..=to).find_map(|split| {
            let hour = self.hour(from, split).filter(|h| *h >= 1)?;
            let minute = match split == to {
                true => 0,
                false => self.minute(split, to)?,
            };
            Some(Clock {
                hour: (hour % 24) as u8,
                minute: minute as u8,
                sure: hour > 12,
            })
        })
    }
}

fn sure(hour: u8, minute: u8) -> Clock {
    Clock {
        hour,
        minute,
        sure: true,
    }
}

/// A clock time said with "am" or "pm".
fn half_of_day(clock: Clock, am: bool, pm: bool) -> Clock {
    match (am, pm, clock.hour) {
        (_, true, h) if h < 12 => Clock {
            hour: h + 12,
            sure: true,
            ..clock
        },
        (true, _, 12) => Clock {
            hour: 0,
            sure: true,
            ..clock
        },
        (true, _, _) | (_, true, _) => Clock { sure: true, ..clock },
        _ => clock,
    }
}
