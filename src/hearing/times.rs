//! The pieces of a time, read by the language's own words: `locales/<lang>/times.sentences` holds the lists
//! (numbers, weekdays, units, fractions) and the pieces ("morgen", "um halb {hour}", "in {span}") as
//! [templates](super::grammar); this holds only what the words *mean*: the arithmetic of a clock time
//! ("halb acht" is half an hour before eight), the sum of a length, which pieces may go together.
//!
//! A time (`{when}`) is a run of pieces, each kind once ("morgen" "um halb acht", never "um acht" "um
//! neun"); a length (`{span}`) a run of spans ("zwei Stunden" "und zehn Minuten"). Each piece is looked for
//! once per start in an utterance, so a sentence's many tries cost little.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use jiff::civil::Weekday;

use super::grammar::{Filled, Slots, Template};

/// The pieces of a time as said.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct When {
    pub day: Option<Day>,
    pub clock: Option<Clock>,
    pub part: Option<Part>,
    /// A span from now, in seconds ("in zwanzig Minuten").
    pub after: Option<u32>,
    pub repeat: Option<Repeat>,
}

impl When {
    /// Whether anything of a time was said.
    pub fn is_empty(&self) -> bool {
        *self == When::default()
    }

    /// `self`, with what it lacks taken from `other`.
    pub fn or(self, other: When) -> When {
        When {
            day: self.day.or(other.day),
            clock: self.clock.or(other.clock),
            part: self.part.or(other.part),
            after: self.after.or(other.after),
            repeat: self.repeat.or(other.repeat),
        }
    }
}

/// A day as said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Day {
    Today,
    Tomorrow,
    DayAfterTomorrow,
    /// A weekday; `next` when said as "nächsten Montag" / "next Monday" (never today).
    Weekday {
        day: Weekday,
        next: bool,
    },
}

/// A clock time as said; `sure` when it cannot mean two things (13–23 or 0, "am"/"pm").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    pub hour: u8,
    pub minute: u8,
    pub sure: bool,
}

/// A part of the day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Morning,
    Forenoon,
    Noon,
    Afternoon,
    Evening,
    Night,
}

/// A repetition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Repeat {
    Daily,
    Weekdays,
    /// On these days of the week, in order.
    Days(Vec<Weekday>),
}

/// What a piece sets: its name in the file, split at `+`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Atom {
    Today,
    Tomorrow,
    DayAfterTomorrow,
    Weekday,
    NextWeekday,
    Part(Part),
    Daily,
    Weekdays,
    Days,
    After,
    Clock(Shape),
    Am,
    Pm,
    Span,
    Half,
}

/// How a clock time is made of its hour and minutes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `{hour}` and `{minute}` as they are.
    At,
    /// `{minute}` before `{hour}`.
    To,
    HalfPast,
    /// Half an hour before `{hour}` (German "halb acht", 7:30).
    HalfTo,
    QuarterPast,
    QuarterTo,
    /// A quarter into the hour before `{hour}` (German "viertel neun", 8:15).
    QuarterOf,
    Noon,
    Midnight,
}

/// The atoms a piece's name sets ("tomorrow+morning"); none when a name is not one.
pub fn atoms(name: &str) -> Option<Vec<Atom>> {
    let atoms = name.split('+').map(|a| atom(a.trim())).collect::<Option<Vec<_>>>()?;
    // A length's pieces and a time's do not mix.
    let spans = atoms.iter().filter(|a| matches!(a, Atom::Span | Atom::Half)).count();
    (spans == 0 || spans == atoms.len() && atoms.contains(&Atom::Span)).then_some(atoms)
}

fn atom(name: &str) -> Option<Atom> {
    use {Atom as A, Part as P, Shape as S};
    Some(match name {
        "today" => A::Today,
        "tomorrow" => A::Tomorrow,
        "day-after-tomorrow" => A::DayAfterTomorrow,
        "weekday" => A::Weekday,
        "next-weekday" => A::NextWeekday,
        "morning" => A::Part(P::Morning),
        "forenoon" => A::Part(P::Forenoon),
        "midday" => A::Part(P::Noon),
        "afternoon" => A::Part(P::Afternoon),
        "evening" => A::Part(P::Evening),
        "night" => A::Part(P::Night),
        "daily" => A::Daily,
        "weekdays" => A::Weekdays,
        "days" => A::Days,
        "after" => A::After,
        "clock" => A::Clock(S::At),
        "to" => A::Clock(S::To),
        "half-past" => A::Clock(S::HalfPast),
        "half-to" => A::Clock(S::HalfTo),
        "quarter-past" => A::Clock(S::QuarterPast),
        "quarter-to" => A::Clock(S::QuarterTo),
        "quarter-of" => A::Clock(S::QuarterOf),
        "noon" => A::Clock(S::Noon),
        "midnight" => A::Clock(S::Midnight),
        "am" => A::Am,
        "pm" => A::Pm,
        "span" => A::Span,
        "half" => A::Half,
        _ => return None,
    })
}

impl Atom {
    /// Which kind of a time it is: a time says each kind once.
    fn kind(self) -> u8 {
        match self {
            Atom::Today | Atom::Tomorrow | Atom::DayAfterTomorrow | Atom::Weekday | Atom::NextWeekday => 0,
            Atom::Part(_) => 1,
            Atom::Daily | Atom::Weekdays | Atom::Days => 2,
            Atom::After => 3,
            Atom::Clock(_) => 4,
            Atom::Am | Atom::Pm => 5,
            Atom::Span | Atom::Half => 6,
        }
    }
}

/// A language's words of a time, from its `.sentences` files.
#[derive(Default)]
pub struct Lexicon {
    /// The pieces of a time and of a length, with what each sets.
    pub pieces: Vec<(Vec<Atom>, Template)>,
    /// The lists the slots read, and the phrases the help function and a call's end hear, by name.
    pub lists: HashMap<String, Vec<Entry>>,
}

/// An entry of a list: `{list} value = words`.
pub struct Entry {
    /// The value (empty when it has none).
    pub value: String,
    /// The words, as a template.
    pub words: Template,
    /// The words as written: a phrase the help function matches through recognition errors.
    pub written: String,
    /// The same in lower case, as phrases are compared.
    pub lower: String,
}

/// Longest piece, in words.
const MAX_PIECE: usize = 8;
/// Steps one stretch of words may take to be read as pieces.
const MAX_STEPS: usize = 2_000;
/// Longest text of a reminder, in words.
const MAX_TEXT_WORDS: usize = 30;

/// A piece found in the utterance: where it ends, which it is, and its slots (positions in the utterance).
#[derive(Clone)]
struct Found {
    to: usize,
    piece: usize,
    filled: Filled,
}

/// The pieces found at one start, longest first.
type Chart = Rc<Vec<Found>>;

/// Reads the slots of one utterance (its words as compared) by the words of its language.
pub struct Reader<'a> {
    words: &'a [String],
    language: Option<&'static Lexicon>,
    /// The pieces found at a start: `(lengths?, start)`.
    charts: RefCell<HashMap<(bool, usize), Chart>>,
    /// Whether a stretch fills a time slot (`{when}`, `{span}`, `{clock}`): `(slot, from, to)`.
    known: RefCell<HashMap<(u8, usize, usize), bool>>,
}

impl Slots for Reader<'_> {
    fn fills(&self, name: &str, from: usize, to: usize) -> bool {
        let time = |slot: u8, read: &dyn Fn() -> bool| {
            // A time is read once per stretch of words, however many sentences try it.
            if let Some(known) = self.known.borrow().get(&(slot, from, to)) {
                return *known;
            }
            let fills = read();
            self.known.borrow_mut().insert((slot, from, to), fills);
            fills
        };
        match name {
            "when" => time(0, &|| self.run(false, from, to).is_some()),
            "span" => time(1, &|| self.run(true, from, to).is_some()),
            "clock" => time(2, &|| self.bare_clock(from, to).is_some()),
            // What to be reminded of: a phrase, not a speech.
            "text" => to - from <= MAX_TEXT_WORDS,
            "todo" => to - from <= MAX_TEXT_WORDS && self.infinitive(from, to),
            _ => false,
        }
    }

    fn longest_first(&self, name: &str) -> bool {
        matches!(name, "when" | "clock" | "span")
    }
}

/// The slots of a piece, at its place in the utterance.
struct InPiece<'r, 'a> {
    reader: &'r Reader<'a>,
    at: usize,
}

impl Slots for InPiece<'_, '_> {
    fn fills(&self, name: &str, from: usize, to: usize) -> bool {
        let (from, to, r) = (self.at + from, self.at + to, self.reader);
        match name {
            "number" => r.number(from, to).is_some(),
            "hour" => r.hour(from, to).is_some(),
            "minute" => r.minute(from, to).is_some(),
            "time" => r.time(from, to).is_some(),
            "weekday" | "weekdays" => r.weekday(name, from, to).is_some(),
            "unit" | "fraction" => r.value(name, from, to).is_some(),
            "span" => r.run(true, from, to).is_some(),
            _ => false,
        }
    }

    fn longest_first(&self, _: &str) -> bool {
        false
    }
}

/// A list's entry matches words as a whole, and has no slots.
struct NoSlots;

impl Slots for NoSlots {
    fn fills(&self, _: &str, _: usize, _: usize) -> bool {
        false
    }

    fn longest_first(&self, _: &str) -> bool {
        false
    }
}

impl<'a> Reader<'a> {
    pub fn new(words: &'a [String], language: Option<&'static Lexicon>) -> Self {
        Self {
            words,
            language,
            charts: RefCell::default(),
            known: RefCell::default(),
        }
    }

    /// The time of every `{when}` and `{clock}` slot filled, taken together ("morgen … um acht").
    pub fn when_of(&self, filled: &Filled) -> When {
        let mut when = When::default();
        for (name, from, to) in filled {
            let piece = match name.as_str() {
                "when" => self
                    .run(false, *from, *to)
                    .map_or_else(When::default, |run| self.when(&run)),
                "clock" => When {
                    clock: self.bare_clock(*from, *to),
                    ..When::default()
                },
                _ => continue,
            };
            when = when.or(piece);
        }
        when
    }

    /// The seconds of the length `from..to`.
    pub fn span(&self, from: usize, to: usize) -> Option<u32> {
        let run = self.run(true, from, to)?;
        Some(run.iter().fold(0u32, |sum, found| {
            let atoms = self.atoms(found);
            let mut amount = self
                .slot(found, "number")
                .and_then(|(a, b)| self.number(a, b))
                .or_else(|| {
                    self.slot(found, "fraction")
                        .and_then(|(a, b)| self.value("fraction", a, b))
                })
                .unwrap_or(60);
            if atoms.contains(&Atom::Half) {
                amount += 30;
            }
            let unit = self
                .slot(found, "unit")
                .and_then(|(a, b)| self.value("unit", a, b))
                .unwrap_or(0);
            sum.saturating_add(amount.saturating_mul(unit) / 60)
        }))
    }

    /// A reminder named to cancel, as compared with the reminders' texts: without what leads into it ("die
    /// Tabletten" → "tabletten").
    pub fn named(&self, from: usize, to: usize) -> String {
        let skip = |i: usize| self.entry("lead", i, i + 1).is_some() || self.entry("article", i, i + 1).is_some();
        let start = (from..to).find(|i| !skip(*i)).unwrap_or(to);
        self.words[start..to].join(" ")
    }

    /// The language's pieces, with what each sets.
    fn pieces(&self) -> &'static [(Vec<Atom>, Template)] {
        self.language.map_or(&[], |l| l.pieces.as_slice())
    }

    fn atoms(&self, found: &Found) -> &'static [Atom] {
        &self.pieces()[found.piece].0
    }

    fn slot(&self, found: &Found, name: &str) -> Option<(usize, usize)> {
        found
            .filled
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, a, b)| (*a, *b))
    }

    /// The value of the first entry of `list` that the words `from..to` are.
    fn entry(&self, list: &str, from: usize, to: usize) -> Option<&'static str> {
        let entries = self.language?.lists.get(list)?;
        let words = self.words.get(from..to)?;
        entries
            .iter()
            .find(|entry| entry.words.matches(words, &NoSlots).is_some())
            .map(|entry| entry.value.as_str())
    }

    fn value(&self, list: &str, from: usize, to: usize) -> Option<u32> {
        self.entry(list, from, to)?.parse().ok()
    }

    /// A number in sixtieths (so that "1,5" hours are 90 minutes exactly): digits, a decimal, or `{number}`.
    fn number(&self, from: usize, to: usize) -> Option<u32> {
        if to == from + 1
            && let Some(n) = digits(&self.words[from])
        {
            return Some(n);
        }
        self.value("number", from, to).filter(|n| *n <= 1000).map(|n| n * 60)
    }

    fn whole(&self, from: usize, to: usize) -> Option<u32> {
        self.number(from, to).filter(|n| n % 60 == 0).map(|n| n / 60)
    }

    fn hour(&self, from: usize, to: usize) -> Option<u32> {
        self.value("hour", from, to)
            .or_else(|| self.whole(from, to))
            .filter(|h| *h <= 24)
    }

    fn minute(&self, from: usize, to: usize) -> Option<u32> {
        self.whole(from, to).filter(|m| (1..60).contains(m))
    }

    /// A written clock time: "8:30", "20.15", "20h30"; and whether it starts with a zero ("07:00": sure).
    fn time(&self, from: usize, to: usize) -> Option<(u32, u32, bool)> {
        (to == from + 1).then_some(())?;
        let word = &self.words[from];
        let (h, m) = word.split_once([':', '.', 'h'])?;
        let all_digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
        (all_digits(h) && h.len() <= 2 && all_digits(m) && m.len() == 2).then_some(())?;
        let (hour, minute): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
        (hour <= 24 && minute <= 59).then_some((hour, minute, h.starts_with('0')))
    }

    /// A day of the week: the list's value is its number, 1 for Monday.
    fn weekday(&self, list: &str, from: usize, to: usize) -> Option<Weekday> {
        let n = i8::try_from(self.value(list, from, to)?).ok()?;
        Weekday::from_monday_one_offset(n).ok()
    }

    /// An infinitive with the language's `{infinitive}` word: "die Blumen zu gießen", "anzurufen".
    fn infinitive(&self, from: usize, to: usize) -> bool {
        let Some(entries) = self.language.and_then(|l| l.lists.get("infinitive")) else {
            return false;
        };
        let last = &self.words[to - 1];
        (to - from >= 2 && self.entry("infinitive", to - 2, to - 1).is_some())
            || entries.iter().any(|entry| {
                // The marker inside the last word, after a prefix: "an-zu-rufen".
                entry.words.words().iter().any(|marker| {
                    last.rfind(marker.as_str())
                        .is_some_and(|at| at > 0 && last.len() > at + marker.len() + 1)
                })
            })
    }
}

/// A number in digits, in sixtieths: "8", "20", "1,5", "1.5".
fn digits(word: &str) -> Option<u32> {
    let all = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    if all(word) && word.len() <= 4 {
        return word.parse::<u32>().ok().map(|n| n * 60);
    }
    let (units, tenths) = word.split_once([',', '.'])?;
    (all(units) && units.len() <= 3 && all(tenths) && tenths.len() == 1).then_some(())?;
    Some(units.parse::<u32>().ok()? * 60 + tenths.parse::<u32>().ok()? * 6)
}

mod reading;
