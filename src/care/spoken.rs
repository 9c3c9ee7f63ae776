//! What a person asks of their reminders and timers, read from what they said or typed, deterministically (the
//! offline model cannot call tools): the language's sentences ([`super::hearing`]) say which request it is,
//! this reads its slots: "Erinnere mich morgen um acht an meine Tabletten",
//! "Stell einen Timer auf zehn Minuten", "Remind me every weekday at half past eight to water the plants",
//! "Welche Erinnerungen habe ich?", "Lösch die Erinnerung für die Tabletten".
//!
//! The words are read into the pieces of a time ([`When`]: a day, a clock time, a part of the day, a span from
//! now, a repetition); what is left is what to be reminded of. When the time falls is worked out in
//! [`super::due`], with the person's time zone and "now".

use jiff::civil::Weekday;

use super::grammar::{Filled, Slots};
use super::hearing::{self, Intent};
use super::numbers;

/// What was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    /// A reminder of `text` at `when`.
    Set { text: String, when: When },
    /// A timer of `seconds` (none when no length was heard).
    Timer { seconds: Option<u32> },
    /// Which reminders there are.
    List,
    /// Cancel the reminder (or timer) whose text is like `text` (empty: the next one).
    Cancel { text: String },
}

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

/// A clock time as said; `sure` when it cannot mean two things (13–23 or 0, "am"/"pm", "Uhr" after 12).
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

/// A word of the utterance, as compared (lower case).
#[derive(Clone)]
struct Token {
    lower: String,
}

/// The requests heard.
const REQUESTS: &[Intent] = &[
    Intent::Set,
    Intent::Alarm,
    Intent::Timer,
    Intent::List,
    Intent::Cancel,
    Intent::CancelTimer,
    Intent::CancelAlarm,
];

/// Reads `text` in `language`: a request about reminders or timers when one of the language's sentences
/// ([`super::hearing`]) is the whole of it; none for anything else.
pub fn read(text: &str, language: &str) -> Option<Asked> {
    let (words, reader) = words(text, language);
    let (intent, filled) = hearing::hear(&words, language, REQUESTS, &reader)?;
    let slot = |name: &str| slot(&filled, name);
    let alarm = || crate::phrasebook::phrase(language, "care-alarm-text");
    Some(match intent {
        Intent::Set | Intent::Alarm => {
            let text = match (intent, slot("text")) {
                (Intent::Alarm, _) => alarm(),
                (_, Some((from, to))) => words.written[from..to].join(" "),
                (_, None) => String::new(),
            };
            Asked::Set {
                text,
                when: reader.when_of(&filled),
            }
        }
        Intent::Timer => Asked::Timer {
            seconds: slot("span")
                .and_then(|(from, to)| reader.part_of(from, to).span(0))
                .map(|(_, s)| s),
        },
        Intent::List => Asked::List,
        Intent::CancelTimer => Asked::Cancel { text: "timer".into() },
        Intent::CancelAlarm => Asked::Cancel {
            text: alarm().to_lowercase(),
        },
        _ => Asked::Cancel {
            text: slot("text").map_or_else(String::new, |(from, to)| reader.named(from, to)),
        },
    })
}

/// The answer to a question that asked for a missing part of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completes {
    /// "Morgen um acht": the time of a reminder.
    When(When),
    /// "An meine Tabletten": what to be reminded of.
    What(String),
    /// "Zehn Minuten": a timer's length.
    Length(u32),
}

/// `text` as the answer to the question for `missing` ([`Intent::When`], [`Intent::What`] or
/// [`Intent::Length`]); none when it is not one (it goes on as any utterance does).
pub fn completes(text: &str, language: &str, missing: Intent) -> Option<Completes> {
    let (words, reader) = words(text, language);
    let (_, filled) = hearing::hear(&words, language, &[missing], &reader)?;
    let slot = |name: &str| slot(&filled, name);
    match missing {
        Intent::When => {
            Some(Completes::When(reader.when_of(&filled))).filter(|c| c != &Completes::When(When::default()))
        }
        Intent::What => slot("text").map(|(from, to)| Completes::What(words.written[from..to].join(" "))),
        Intent::Length => slot("span")
            .and_then(|(from, to)| reader.part_of(from, to).span(0))
            .map(|(_, s)| Completes::Length(s)),
        _ => None,
    }
}

/// Where slot `name` was filled (`{todo}` fills `{text}`).
fn slot(filled: &Filled, name: &str) -> Option<(usize, usize)> {
    filled
        .iter()
        .find(|(n, _, _)| n == name || (name == "text" && n == "todo"))
        .map(|(_, a, b)| (*a, *b))
}

/// The words of `text` and a reader of their slots.
fn words(text: &str, language: &str) -> (hearing::Words, Reader) {
    let words = hearing::Words::of(text);
    let tokens = words
        .normal
        .iter()
        .map(|lower| Token { lower: lower.clone() })
        .collect();
    (words, Reader::new(tokens, language))
}

/// The words a language marks the pieces of a time with.
struct Words {
    articles: &'static [&'static str],
    /// Words that lead into the text ("an", "to"), taken from the start of a reminder named to cancel.
    lead: &'static [&'static str],
    /// Words that lead into a span from now.
    in_: &'static [&'static str],
    /// Words that lead into a clock time.
    at: &'static [&'static str],
    and: &'static [&'static str],
    every: &'static [&'static str],
}

const DE: Words = Words {
    articles: &[
        "eine", "einen", "ein", "die", "den", "der", "das", "meine", "meinen", "meinem",
    ],
    lead: &["an", "daran", "dass", "um", "zu", "für", "bitte", "und", "mit", "von"],
    in_: &["in"],
    at: &["um", "gegen", "ab"],
    and: &["und", "sowie"],
    every: &["jeden", "jede", "jedes", "alle"],
};

const EN: Words = Words {
    articles: &["a", "an", "the", "my"],
    lead: &["to", "about", "that", "of", "for", "please", "and", "with"],
    in_: &["in"],
    at: &["at", "by", "around"],
    and: &["and"],
    every: &["every", "each"],
};

const DE_DAYS: [(&str, Weekday); 7] = [
    ("montag", Weekday::Monday),
    ("dienstag", Weekday::Tuesday),
    ("mittwoch", Weekday::Wednesday),
    ("donnerstag", Weekday::Thursday),
    ("freitag", Weekday::Friday),
    ("samstag", Weekday::Saturday),
    ("sonntag", Weekday::Sunday),
];
const EN_DAYS: [(&str, Weekday); 7] = [
    ("monday", Weekday::Monday),
    ("tuesday", Weekday::Tuesday),
    ("wednesday", Weekday::Wednesday),
    ("thursday", Weekday::Thursday),
    ("friday", Weekday::Friday),
    ("saturday", Weekday::Saturday),
    ("sunday", Weekday::Sunday),
];

/// Reads the slots of an utterance: times, spans, names. The words of times are German's for German and
/// English's for every other language (digits read in all).
struct Reader {
    tokens: Vec<Token>,
    used: Vec<bool>,
    /// What the time slots found for a stretch of words: `(slot, from, to)`.
    read: std::cell::RefCell<std::collections::HashMap<(u8, usize, usize), bool>>,
    words: &'static Words,
    de: bool,
    language: &'static str,
}

impl Slots for Reader {
    fn fills(&self, name: &str, from: usize, to: usize) -> bool {
        // A time is read once per stretch of words, however many sentences try it.
        if !matches!(name, "when" | "span" | "clock") {
            return self.fills_now(name, from, to);
        }
        let key = (name.as_bytes()[0], from, to);
        if let Some(known) = self.read.borrow().get(&key) {
            return *known;
        }
        let fills = self.fills_now(name, from, to);
        self.read.borrow_mut().insert(key, fills);
        fills
    }

    fn longest_first(&self, name: &str) -> bool {
        matches!(name, "when" | "clock" | "span")
    }
}

impl Reader {
    fn fills_now(&self, name: &str, from: usize, to: usize) -> bool {
        match name {
            "when" => {
                let mut part = self.part_of(from, to);
                !part.when().is_empty() && part.used.iter().all(|u| *u)
            }
            "span" => self.part_of(from, to).span(0).is_some_and(|(n, _)| n == to - from),
            "clock" => self
                .part_of(from, to)
                .clock_at(0, true)
                .is_some_and(|(n, _)| n == to - from),
            // What to be reminded of: a phrase, not a speech.
            "text" => to - from <= MAX_TEXT_WORDS,
            // "die Blumen zu gießen", "Mama anzurufen".
            "todo" => {
                let last = self.word(to - 1);
                to - from <= MAX_TEXT_WORDS
                    && (self.word(to.wrapping_sub(2)) == "zu" && to - from >= 2
                        || last.rfind("zu").is_some_and(|at| at > 0 && last.len() > at + 3))
            }
            _ => false,
        }
    }
}

/// Longest text of a reminder, in words.
const MAX_TEXT_WORDS: usize = 30;

impl Reader {
    fn new(tokens: Vec<Token>, language: &str) -> Self {
        let de = language == "de";
        Self {
            used: vec![false; tokens.len()],
            read: std::cell::RefCell::default(),
            tokens,
            words: if de { &DE } else { &EN },
            de,
            language: if de { "de" } else { "en" },
        }
    }

    /// A reader of the words `from..to` alone.
    fn part_of(&self, from: usize, to: usize) -> Reader {
        Reader::new(self.tokens[from..to].to_vec(), self.language)
    }

    /// The time of every `{when}` slot filled, taken together ("morgen … um acht").
    fn when_of(&self, filled: &Filled) -> When {
        let mut when = When::default();
        for (name, from, to) in filled {
            let piece = match name.as_str() {
                "when" => self.part_of(*from, *to).when(),
                "clock" => When {
                    clock: self.part_of(*from, *to).clock_at(0, true).map(|(_, c)| c),
                    ..When::default()
                },
                _ => continue,
            };
            when.day = when.day.or(piece.day);
            when.clock = when.clock.or(piece.clock);
            when.part = when.part.or(piece.part);
            when.after = when.after.or(piece.after);
            when.repeat = when.repeat.or(piece.repeat);
        }
        when
    }

    /// A reminder named to cancel, as compared with the reminders' texts: lower case, without what leads into
    /// it ("die Tabletten" → "tabletten").
    fn named(&self, from: usize, to: usize) -> String {
        let skip = |word: &str| self.words.lead.contains(&word) || self.words.articles.contains(&word);
        self.tokens[from..to]
            .iter()
            .map(|t| t.lower.as_str())
            .skip_while(|t| skip(t))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn word(&self, i: usize) -> &str {
        self.tokens.get(i).map_or("", |t| t.lower.as_str())
    }

    fn is(&self, i: usize, list: &[&str]) -> bool {
        list.contains(&self.word(i))
    }

    fn take(&mut self, from: usize, n: usize) {
        for used in self.used.iter_mut().skip(from).take(n) {
            *used = true;
        }
    }

    /// Reads every piece of a time.
    fn when(&mut self) -> When {
        let mut when = When::default();
        let mut i = 0;
        while i < self.tokens.len() {
            if self.used[i] {
                i += 1;
                continue;
            }
            let read = self.repeat(i, &mut when)
                || self.after(i, &mut when)
                || self.day(i, &mut when)
                || self.clock(i, &mut when)
                || self.part(i, &mut when);
            if !read {
                i += 1;
            }
        }
        when
    }

    /// "in zwanzig Minuten", "in anderthalb Stunden", "in an hour and a half".
    fn after(&mut self, i: usize, when: &mut When) -> bool {
        if when.after.is_some() || !self.is(i, self.words.in_) {
            return false;
        }
        let Some((n, seconds)) = self.span(i + 1) else {
            return false;
        };
        when.after = Some(seconds);
        self.take(i, n + 1);
        true
    }

    /// A span at `i`: its words and seconds. Amounts and units, joined by "und"/"and": "zwei Stunden und zehn
    /// Minuten", "einer halben Stunde", "half an hour", "an hour and a half", "a quarter of an hour".
    fn span(&self, i: usize) -> Option<(usize, u32)> {
        let mut at = i;
        let mut total: u32 = 0;
        loop {
            let (n, seconds) = self.one_span(at)?;
            total = total.saturating_add(seconds);
            at += n;
            // "an hour and a half".
            if self.is(at, self.words.and) && self.is(at + 1, &["a"]) && self.is(at + 2, &["half"]) {
                total = total.saturating_add(seconds / 2);
                at += 3;
            }
            if self.is(at, self.words.and) && self.one_span(at + 1).is_some() {
                at += 1;
                continue;
            }
            return Some((at - i, total));
        }
    }

    fn one_span(&self, i: usize) -> Option<(usize, u32)> {
        let mut at = i;
        // An article before a fraction: "einer halben Stunde", "a quarter of an hour".
        let fraction = |w: &str| matches!(w, "halbe" | "halben" | "viertel" | "dreiviertel" | "quarter" | "half");
        if (self.is(at, self.words.articles) || self.is(at, &["einer"])) && fraction(self.word(at + 1)) {
            at += 1;
        }
        let mut amount = numbers::amount(self.word(at), self.language)?;
        let fractional = fraction(self.word(at));
        if let Some(pair) = (!self.de)
            .then(|| numbers::english_pair(self.word(at), self.word(at + 1)))
            .flatten()
        {
            amount = pair * 60;
            at += 1;
        }
        at += 1;
        // "half an hour", "a quarter of an hour".
        if fractional && self.is(at, &["of"]) {
            at += 1;
        }
        if fractional && self.is(at, &["an", "a", "einer", "eine"]) {
            at += 1;
        }
        let unit = unit_seconds(self.word(at))?;
        Some((at + 1 - i, amount.saturating_mul(unit) / 60))
    }

    /// "heute", "morgen", "übermorgen", "am Montag", "nächsten Montag", "tomorrow", "on Monday".
    fn day(&mut self, i: usize, when: &mut When) -> bool {
        if when.day.is_some() {
            return false;
        }
        let word = self.word(i).to_string();
        let day = match word.as_str() {
            "heute" | "today" => Some(Day::Today),
            "tonight" => {
                when.part.get_or_insert(Part::Evening);
                Some(Day::Today)
            }
            // "am Morgen", "jeden Morgen", "heute Morgen" are the morning.
            "morgen" if !self.is(i.wrapping_sub(1), &["am", "jeden", "heute", "guten", "den"]) => Some(Day::Tomorrow),
            "tomorrow" => Some(Day::Tomorrow),
            "übermorgen" => Some(Day::DayAfterTomorrow),
            _ => None,
        };
        if let Some(day) = day {
            when.day = Some(day);
            self.take(i, 1);
            return true;
        }
        // "the day after tomorrow".
        if self.is(i, &["day"]) && self.is(i + 1, &["after"]) && self.is(i + 2, &["tomorrow"]) {
            when.day = Some(Day::DayAfterTomorrow);
            let the = usize::from(i > 0 && self.is(i - 1, &["the"]));
            self.take(i - the, 3 + the);
            return true;
        }
        let Some(day) = self.weekday(i) else {
            return false;
        };
        let lead = |r: &Self, list: &[&str]| i > 0 && r.is(i - 1, list);
        let next = lead(self, &["nächsten", "nächster", "kommenden", "next"]);
        let article = lead(self, &["am", "on", "this", "diesen", "nächsten", "kommenden", "next"]);
        let before = usize::from(article) + usize::from(article && i > 1 && self.is(i - 2, &["am", "on"]));
        when.day = Some(Day::Weekday { day, next });
        self.take(i - before, before + 1);
        true
    }

    fn weekday(&self, i: usize) -> Option<Weekday> {
        let days = if self.de { &DE_DAYS } else { &EN_DAYS };
        days.iter().find(|(name, _)| self.word(i) == *name).map(|(_, d)| *d)
    }

    /// A weekday said in the plural: "montags", "mondays".
    fn weekdays(&self, i: usize) -> Option<Weekday> {
        let days = if self.de { &DE_DAYS } else { &EN_DAYS };
        let word = self.word(i);
        days.iter()
            .find(|(name, _)| word.strip_suffix('s') == Some(name))
            .map(|(_, d)| *d)
    }

    /// "jeden Tag", "täglich", "werktags", "jeden Montag", "montags und donnerstags", "every weekday".
    fn repeat(&mut self, i: usize, when: &mut When) -> bool {
        if when.repeat.is_some() {
            return false;
        }
        let w = self.words;
        let every = self.is(i, w.every);
        let next = if every { i + 1 } else { i };
        let (repeat, n, part) = match self.word(next) {
            "täglich" | "daily" => (Repeat::Daily, 1, None),
            "tag" | "day" if every => (Repeat::Daily, 2, None),
            "morgen" | "morning" if every => (Repeat::Daily, 2, Some(Part::Morning)),
            "mittag" | "noon" if every => (Repeat::Daily, 2, Some(Part::Noon)),
            "nachmittag" | "afternoon" if every => (Repeat::Daily, 2, Some(Part::Afternoon)),
            "abend" | "evening" if every => (Repeat::Daily, 2, Some(Part::Evening)),
            "nacht" | "night" if every => (Repeat::Daily, 2, Some(Part::Night)),
            "werktags" | "weekdays" => (Repeat::Weekdays, 1, None),
            "werktag" | "weekday" if every => (Repeat::Weekdays, 2, None),
            "werktagen" if self.is(i.wrapping_sub(1), &["an"]) => (Repeat::Weekdays, 1, None),
            _ => {
                let day = if every { self.weekday(next) } else { self.weekdays(next) };
                let Some(day) = day else {
                    return false;
                };
                // "montags und donnerstags", "every Monday and Thursday".
                let mut days = vec![day];
                let mut at = next + 1;
                loop {
                    let and = usize::from(self.is(at, w.and));
                    let more = if every {
                        self.weekday(at + and)
                    } else {
                        self.weekdays(at + and)
                    };
                    match more {
                        Some(d) => {
                            if !days.contains(&d) {
                                days.push(d);
                            }
                            at += and + 1;
                        }
                        None => break,
                    }
                }
                (Repeat::Days(days), at - i, None)
            }
        };
        let on = usize::from(i > 0 && self.is(i - 1, &["on", "an"]));
        when.repeat = Some(repeat);
        if let Some(part) = part {
            when.part.get_or_insert(part);
        }
        self.take(i - on, n + on);
        true
    }

    /// A part of the day: "morgens", "früh", "am Abend", "heute Nachmittag", "in the evening", "at night".
    fn part(&mut self, i: usize, when: &mut When) -> bool {
        let part = match self.word(i) {
            "morgens" | "früh" | "frühmorgens" | "morning" => Part::Morning,
            "morgen" if self.is(i.wrapping_sub(1), &["am", "heute"]) => Part::Morning,
            "vormittags" | "vormittag" => Part::Forenoon,
            "mittags" | "mittag" | "noon" | "midday" => Part::Noon,
            "nachmittags" | "nachmittag" | "afternoon" => Part::Afternoon,
            "abends" | "abend" | "evening" => Part::Evening,
            "nachts" | "nacht" | "night" => Part::Night,
            _ => return false,
        };
        when.part.get_or_insert(part);
        let lead = match (i.checked_sub(2), i.checked_sub(1)) {
            (Some(a), Some(b)) if (self.is(a, &["in"]) && self.is(b, &["the", "der"])) => 2,
            (_, Some(b)) if self.is(b, &["am", "at", "this"]) => 1,
            _ => 0,
        };
        self.take(i - lead, lead + 1);
        true
    }

    /// A clock time: "um acht", "um 8 Uhr", "um 8:30", "um halb neun", "Viertel nach acht", "um dreiviertel
    /// neun", "um zehn vor neun", "at 8 pm", "at half past eight", "quarter to nine", "at noon".
    fn clock(&mut self, i: usize, when: &mut When) -> bool {
        if when.clock.is_some() {
            return false;
        }
        let lead = usize::from(self.is(i, self.words.at));
        let Some((n, clock)) = self.clock_at(i + lead, lead == 1) else {
            return false;
        };
        when.clock = Some(clock);
        self.take(i, lead + n);
        true
    }

    fn clock_at(&self, i: usize, led: bool) -> Option<(usize, Clock)> {
        let hour_at = |at: usize| numbers::whole(self.word(at), self.language).filter(|h| (1..=24).contains(h));
        let plain = |hour: u32, minute: u32| Clock {
            hour: hour as u8 % 24,
            minute: minute as u8,
            sure: false,
        };
        let before = |hour: u32| if hour == 1 { 12 } else { hour - 1 };
        let word = self.word(i);
        // Noon and midnight.
        if matches!(word, "noon" | "midday" | "mittag") && led {
            return Some((
                1,
                Clock {
                    hour: 12,
                    minute: 0,
                    sure: true,
                },
            ));
        }
        if matches!(word, "midnight" | "mitternacht") {
            return Some((
                1,
                Clock {
                    hour: 0,
                    minute: 0,
                    sure: true,
                },
            ));
        }
        if self.de {
            match word {
                "halb" => return hour_at(i + 1).map(|h| (2, plain(before(h), 30))),
                "dreiviertel" => return hour_at(i + 1).map(|h| (2, plain(before(h), 45))),
                "drei" if self.is(i + 1, &["viertel"]) => return hour_at(i + 2).map(|h| (3, plain(before(h), 45))),
                "viertel" => {
                    return match self.word(i + 1) {
                        "nach" => hour_at(i + 2).map(|h| (3, plain(h, 15))),
                        "vor" => hour_at(i + 2).map(|h| (3, plain(before(h), 45))),
                        _ => hour_at(i + 1).map(|h| (2, plain(before(h), 15))),
                    };
                }
                _ => {}
            }
        } else {
            let minutes = match word {
                "half" => Some(30),
                "quarter" => Some(15),
                _ => None,
            };
            if let Some(m) = minutes {
                return match self.word(i + 1) {
                    "past" => hour_at(i + 2).map(|h| (3, plain(h, m))),
                    "to" if m == 15 => hour_at(i + 2).map(|h| (3, plain(before(h), 45))),
                    _ => None,
                };
            }
        }
        // "zehn nach acht", "zwanzig vor neun", "ten past eight", "twenty to nine".
        if let Some(m) = numbers::whole(word, self.language).filter(|m| (1..30).contains(m)) {
            let (after, to) = if self.de { ("nach", "vor") } else { ("past", "to") };
            if self.is(i + 1, &[after])
                && (led || self.de)
                && let Some(h) = hour_at(i + 2)
            {
                return Some((3, plain(h, m)));
            }
            if self.is(i + 1, &[to])
                && led
                && let Some(h) = hour_at(i + 2)
            {
                return Some((3, plain(before(h), 60 - m)));
            }
        }
        self.digits_or_words(i, led)
    }

    /// "8", "8:30", "8.30", "20 Uhr", "acht Uhr dreißig", "eight thirty", "8 pm", "8pm", "8 o'clock".
    fn digits_or_words(&self, i: usize, led: bool) -> Option<(usize, Clock)> {
        let word = self.word(i);
        let (glued, half) = match word.strip_suffix("pm").or_else(|| word.strip_suffix("am")) {
            Some(rest) if !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit() || c == ':') => {
                (rest, Some(word.ends_with("pm")))
            }
            _ => (word, None),
        };
        let (mut n, mut hour, mut minute, written) = match glued.split_once([':', '.']) {
            Some((h, m)) => {
                let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
                (1, h, m, true)
            }
            None => (1, numbers::whole(glued, self.language)?, 0, false),
        };
        if hour > 24 || minute > 59 {
            return None;
        }
        let mut uhr = false;
        if self.is(i + n, &["uhr", "o'clock", "oclock"]) {
            uhr = true;
            n += 1;
        }
        // Minutes after the hour: "acht Uhr dreißig", "eight thirty", "8 Uhr 30".
        if !written && (uhr || !self.de) {
            let m = numbers::whole(self.word(i + n), self.language).or_else(|| {
                (!self.de)
                    .then(|| numbers::english_pair(self.word(i + n), self.word(i + n + 1)))
                    .flatten()
            });
            if let Some(m) = m.filter(|m| (1..60).contains(m)) {
                let pair = !self.de && numbers::english_pair(self.word(i + n), self.word(i + n + 1)).is_some();
                minute = m;
                n += 1 + usize::from(pair);
            }
        }
        let mut half = half;
        if half.is_none() {
            match self.word(i + n) {
                "pm" | "p.m" => half = Some(true),
                "am" | "a.m" if !self.de => half = Some(false),
                _ => {}
            }
            if half.is_some() {
                n += 1;
            }
        }
        // A bare number is a time only when led by "um"/"at" or marked as one.
        if !(led || uhr || written || half.is_some()) {
            return None;
        }
        let mut sure = hour > 12 || hour == 0 || hour == 24 || (written && glued.starts_with('0'));
        if let Some(pm) = half {
            if hour > 12 {
                return None;
            }
            hour = match (pm, hour) {
                (true, 12) => 12,
                (true, h) => h + 12,
                (false, 12) => 0,
                (false, h) => h,
            };
            sure = true;
        }
        Some((
            n,
            Clock {
                hour: (hour % 24) as u8,
                minute: minute as u8,
                sure,
            },
        ))
    }
}

/// Whether `text` is, as a whole, a person saying that they did what a reminder asked ("Erledigt", "Hab ich",
/// "Done", "I took them", "Oui, merci"): it confirms a reminder told to them.
pub fn confirms(text: &str, language: &str) -> bool {
    let (words, reader) = words(text, language);
    hearing::hear(&words, language, &[Intent::Yes], &reader).is_some()
}

/// The person's answer to the check-in's question ("Ist alles in Ordnung?"): `Some(true)` for fine ("Ja",
/// "Mir geht es gut", "All good"), `Some(false)` for not fine ("Nein", "Nicht gut", or any call for help the
/// help function hears, near misses included), `None` when it is neither.
pub fn fine(text: &str, language: &str) -> Option<bool> {
    let (words, reader) = words(text, language);
    match hearing::hear(&words, language, &[Intent::NotFine, Intent::Fine], &reader) {
        Some((Intent::NotFine, _)) => Some(false),
        _ if crate::emergency::hearing::hear(text, &[], language).asks() => Some(false),
        Some(_) => Some(true),
        None => None,
    }
}

/// Seconds of a unit word; none for other words.
fn unit_seconds(word: &str) -> Option<u32> {
    Some(match word {
        "sekunde" | "sekunden" | "sek" | "second" | "seconds" | "sec" | "secs" => 1,
        "minute" | "minuten" | "min" | "minutes" | "mins" => 60,
        "stunde" | "stunden" | "std" | "hour" | "hours" | "hr" | "hrs" => 3600,
        "tag" | "tage" | "tagen" | "day" | "days" => 86_400,
        _ => return None,
    })
}
