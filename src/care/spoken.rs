//! What a person asks of their reminders and timers, read from what they said or typed, in German and English,
//! deterministically (the offline model cannot call tools): "Erinnere mich morgen um acht an meine Tabletten",
//! "Stell einen Timer auf zehn Minuten", "Remind me every weekday at half past eight to water the plants",
//! "Welche Erinnerungen habe ich?", "Lösch die Erinnerung für die Tabletten".
//!
//! The words are read into the pieces of a time ([`When`]: a day, a clock time, a part of the day, a span from
//! now, a repetition); what is left is what to be reminded of. When the time falls is worked out in
//! [`super::due`], with the person's time zone and "now".

use jiff::civil::Weekday;

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

/// Longest utterance read, in words: a reminder is a sentence, and the work stays bounded.
const MAX_TOKENS: usize = 60;

/// A word of the utterance: lower case for reading, as written for the reminder's text.
struct Token {
    lower: String,
    written: String,
}

/// Reads `text` in `language` ("de"; anything else is read as English); none when it is not about reminders
/// or timers.
pub fn read(text: &str, language: &str) -> Option<Asked> {
    let tokens: Vec<Token> = text
        .split_whitespace()
        .take(MAX_TOKENS)
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .map(|w| Token {
            lower: w.to_lowercase(),
            written: w.to_string(),
        })
        .collect();
    let words = if language == "de" { &DE } else { &EN };
    let mut reader = Reader {
        used: vec![false; tokens.len()],
        tokens,
        words,
        de: language == "de",
        language: if language == "de" { "de" } else { "en" },
    };
    reader.asked()
}

/// The words a language marks its requests and pieces with.
struct Words {
    /// Words that make an utterance about reminders (prefixes).
    reminder: &'static [&'static str],
    timer: &'static [&'static str],
    /// An alarm clock: a reminder whose text is the word.
    alarm: &'static [&'static str],
    cancel: &'static [&'static str],
    list: &'static [&'static str],
    /// Words of the request itself, taken out of the text.
    request: &'static [&'static str],
    articles: &'static [&'static str],
    /// Words that lead into the text ("an", "to"), taken from its start.
    lead: &'static [&'static str],
    /// Words that lead into a span from now.
    in_: &'static [&'static str],
    /// Words that lead into a timer's length.
    length: &'static [&'static str],
    /// Words that lead into a clock time.
    at: &'static [&'static str],
    and: &'static [&'static str],
    every: &'static [&'static str],
}

const DE: Words = Words {
    reminder: &["erinner"],
    timer: &["timer", "kurzzeitwecker", "eieruhr"],
    alarm: &["wecker"],
    cancel: &[
        "lösch", "entfern", "streich", "abbrech", "stopp", "vergiss", "storn", "beend",
    ],
    list: &["welche", "was", "zeig", "liste", "habe", "hab", "gibt", "sag"],
    request: &[
        "mich", "bitte", "stell", "stelle", "setz", "setze", "mach", "mache", "kannst", "du", "sie", "neue", "neuen",
    ],
    articles: &[
        "eine", "einen", "ein", "die", "den", "der", "das", "meine", "meinen", "meinem",
    ],
    lead: &["an", "daran", "dass", "um", "zu", "für", "bitte", "und", "mit", "von"],
    in_: &["in"],
    length: &["auf", "für", "von", "mit"],
    at: &["um", "gegen", "ab"],
    and: &["und", "sowie"],
    every: &["jeden", "jede", "jedes", "alle"],
};

const EN: Words = Words {
    reminder: &["remind"],
    timer: &["timer"],
    alarm: &["alarm"],
    cancel: &["cancel", "delete", "remove", "stop", "forget", "clear", "drop"],
    list: &["what", "which", "list", "show", "tell", "do", "any"],
    request: &["me", "please", "set", "make", "create", "can", "could", "you", "new"],
    articles: &["a", "an", "the", "my"],
    lead: &["to", "about", "that", "of", "for", "please", "and", "with"],
    in_: &["in"],
    length: &["for", "of"],
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

struct Reader {
    tokens: Vec<Token>,
    used: Vec<bool>,
    words: &'static Words,
    de: bool,
    language: &'static str,
}

impl Reader {
    fn word(&self, i: usize) -> &str {
        self.tokens.get(i).map_or("", |t| t.lower.as_str())
    }

    fn is(&self, i: usize, list: &[&str]) -> bool {
        list.contains(&self.word(i))
    }

    fn starts(&self, i: usize, prefixes: &[&str]) -> bool {
        let w = self.word(i);
        !w.is_empty() && prefixes.iter().any(|p| w.starts_with(p))
    }

    fn any(&self, prefixes: &[&str]) -> Option<usize> {
        (0..self.tokens.len()).find(|&i| self.starts(i, prefixes))
    }

    fn take(&mut self, from: usize, n: usize) {
        for used in self.used.iter_mut().skip(from).take(n) {
            *used = true;
        }
    }

    fn asked(&mut self) -> Option<Asked> {
        let w = self.words;
        let reminder = self.any(w.reminder);
        let timer = self.any(w.timer);
        let alarm = self.any(w.alarm);
        let topic = reminder.or(timer).or(alarm)?;
        if self.any(w.cancel).is_some() {
            return Some(Asked::Cancel { text: self.cancelled() });
        }
        let plural = self
            .tokens
            .iter()
            .any(|t| matches!(t.lower.as_str(), "erinnerungen" | "reminders" | "timers" | "alarms"));
        if plural && (0..self.tokens.len()).any(|i| self.is(i, w.list)) {
            return Some(Asked::List);
        }
        // Words for the request itself ("Erinnerung" in "stell eine Erinnerung") go, with their article.
        self.take_topic(topic);
        if let Some(t) = timer.filter(|_| reminder.is_none()) {
            self.take_topic(t);
            return Some(Asked::Timer { seconds: self.length() });
        }
        let when = self.when();
        if let Some(a) = alarm.filter(|_| reminder.is_none()) {
            self.used[a] = false;
        }
        Some(Asked::Set {
            text: self.text(),
            when,
        })
    }

    /// Marks the topic word at `i` used, with an article right before it.
    fn take_topic(&mut self, i: usize) {
        self.used[i] = true;
        if i > 0 && self.is(i - 1, self.words.articles) {
            self.used[i - 1] = true;
        }
        // "Erinnere mich": the "mich" after the verb.
        if self.is(i + 1, &["mich", "me"]) {
            self.used[i + 1] = true;
        }
    }

    /// The length of a timer: a span anywhere in the utterance.
    fn length(&mut self) -> Option<u32> {
        (0..self.tokens.len()).find_map(|i| {
            if self.used[i] {
                return None;
            }
            let (n, seconds) = self.span(i)?;
            let lead = usize::from(i > 0 && self.is(i - 1, self.words.length));
            self.take(i - lead, n + lead);
            Some(seconds)
        })
    }

    /// The text of a reminder being cancelled: what is left once the request's words are gone.
    fn cancelled(&mut self) -> String {
        let w = self.words;
        for i in 0..self.tokens.len() {
            if self.starts(i, w.cancel)
                || self.starts(i, w.reminder)
                || self.starts(i, w.timer)
                || self.is(i, w.request)
            {
                self.used[i] = true;
            }
        }
        let rest = self.rest();
        let skip = |word: &str| w.lead.contains(&word) || w.articles.contains(&word);
        rest.iter()
            .map(|t| t.lower.as_str())
            .skip_while(|t| skip(t))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The words not read as anything.
    fn rest(&self) -> Vec<&Token> {
        self.tokens
            .iter()
            .zip(&self.used)
            .filter(|(_, used)| !**used)
            .map(|(t, _)| t)
            .collect()
    }

    /// What to be reminded of: the words left, without the request's words and what leads into them.
    fn text(&mut self) -> String {
        let w = self.words;
        for i in 0..self.tokens.len() {
            if self.starts(i, w.reminder) || self.is(i, &["bitte", "please"]) {
                self.used[i] = true;
            }
        }
        // The request's words ("stell", "can you") only before the text begins.
        let first = (0..self.tokens.len()).find(|&i| !self.used[i] && !self.is(i, w.request));
        if let Some(first) = first {
            for i in 0..first {
                self.used[i] = true;
            }
        }
        let rest = self.rest();
        let lead = |t: &&Token| w.lead.contains(&t.lower.as_str());
        let start = rest.iter().position(|t| !lead(t)).unwrap_or(rest.len());
        let end = rest.iter().rposition(|t| !lead(t)).map_or(start, |e| e + 1).max(start);
        rest[start..end]
            .iter()
            .map(|t| t.written.as_str())
            .collect::<Vec<_>>()
            .join(" ")
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
/// "Done", "I took them"): it confirms a reminder being delivered.
pub fn confirms(text: &str, language: &str) -> bool {
    const DE: &[&str] = &[
        "erledigt",
        "ja erledigt",
        "ist erledigt",
        "schon erledigt",
        "habe ich",
        "hab ich",
        "habe ich gemacht",
        "hab ich gemacht",
        "ja habe ich",
        "ja hab ich",
        "gemacht",
        "genommen",
        "ich habe sie genommen",
        "ja",
        "ja danke",
        "okay",
        "ok",
        "alles klar",
        "danke",
        "mach ich",
        "mache ich",
    ];
    const EN: &[&str] = &[
        "done",
        "all done",
        "yes done",
        "it's done",
        "yes",
        "ok",
        "okay",
        "i did",
        "i did it",
        "i have",
        "got it",
        "thanks",
        "thank you",
        "taken",
        "i took them",
        "i took it",
        "will do",
    ];
    let said = plain(text);
    (if language == "de" { DE } else { EN }).contains(&said.as_str())
        || own(language, CONFIRMS).contains(&said.as_str())
}

/// Short answers that confirm a reminder in the other shipped languages: the call and the page ask for a yes
/// in the person's language ("Dites oui ou appuyez sur la touche 1"), so that yes must be heard.
const CONFIRMS: &[(&str, &[&str])] = &[
    (
        "fr",
        &[
            "oui",
            "oui merci",
            "c'est fait",
            "fait",
            "oui c'est fait",
            "d'accord",
            "ok",
            "merci",
            "je l'ai fait",
            "je les ai pris",
            "c'est bon",
        ],
    ),
    (
        "es",
        &[
            "sí",
            "si",
            "sí gracias",
            "hecho",
            "ya está",
            "listo",
            "vale",
            "gracias",
            "ok",
            "ya lo hice",
            "de acuerdo",
        ],
    ),
    (
        "it",
        &[
            "sì",
            "si",
            "sì grazie",
            "fatto",
            "già fatto",
            "ok",
            "grazie",
            "va bene",
            "l'ho fatto",
            "d'accordo",
        ],
    ),
    (
        "nl",
        &[
            "ja",
            "ja dank je",
            "gedaan",
            "klaar",
            "ok",
            "oké",
            "dank je",
            "dank u",
            "heb ik gedaan",
            "prima",
        ],
    ),
    (
        "pl",
        &[
            "tak",
            "tak dziękuję",
            "zrobione",
            "gotowe",
            "ok",
            "dziękuję",
            "dobrze",
            "zrobiłem to",
            "zrobiłam to",
        ],
    ),
    (
        "pt",
        &[
            "sim",
            "sim obrigado",
            "sim obrigada",
            "feito",
            "já está",
            "já fiz",
            "ok",
            "obrigado",
            "obrigada",
            "está bem",
        ],
    ),
];

/// Answers to "Is everything all right?" in the other shipped languages that mean fine.
const FINE_IN: &[(&str, &[&str])] = &[
    (
        "fr",
        &[
            "oui",
            "ouais",
            "ça va",
            "ça va bien",
            "tout va bien",
            "très bien",
            "bien",
            "d'accord",
            "je vais bien",
        ],
    ),
    (
        "es",
        &[
            "sí",
            "si",
            "bien",
            "todo bien",
            "estoy bien",
            "muy bien",
            "vale",
            "de acuerdo",
        ],
    ),
    (
        "it",
        &[
            "sì",
            "si",
            "bene",
            "tutto bene",
            "sto bene",
            "va bene",
            "benissimo",
            "d'accordo",
        ],
    ),
    (
        "nl",
        &[
            "ja",
            "goed",
            "prima",
            "alles goed",
            "het gaat goed",
            "in orde",
            "alles in orde",
            "oké",
        ],
    ),
    (
        "pl",
        &["tak", "dobrze", "wszystko dobrze", "w porządku", "wszystko w porządku"],
    ),
    (
        "pt",
        &[
            "sim",
            "bem",
            "tudo bem",
            "estou bem",
            "está tudo bem",
            "muito bem",
            "está bem",
        ],
    ),
];

/// Answers that mean not fine; they win over a fine word they contain ("pas bien", "no estoy bien").
const NOT_FINE_IN: &[(&str, &[&str])] = &[
    (
        "fr",
        &[
            "non",
            "pas bien",
            "ça ne va pas",
            "ça va pas",
            "pas très bien",
            "mal",
            "au secours",
            "à l'aide",
        ],
    ),
    ("es", &["no", "mal", "no estoy bien", "no muy bien", "ayuda", "socorro"]),
    (
        "it",
        &["no", "male", "non bene", "non sto bene", "non va bene", "aiuto"],
    ),
    (
        "nl",
        &[
            "nee",
            "niet goed",
            "slecht",
            "het gaat niet goed",
            "niet in orde",
            "hulp",
        ],
    ),
    (
        "pl",
        &["nie", "źle", "niedobrze", "nie dobrze", "nie w porządku", "pomocy"],
    ),
    (
        "pt",
        &["não", "mal", "não estou bem", "não está bem", "socorro", "ajuda"],
    ),
];

/// The list of `language` in `lists`; empty for German, English and any other.
fn own(language: &str, lists: &[(&str, &'static [&'static str])]) -> &'static [&'static str] {
    lists.iter().find(|(l, _)| *l == language).map_or(&[], |(_, list)| list)
}

/// The person's answer to the check-in's question ("Ist alles in Ordnung?"): `Some(true)` for fine ("Ja",
/// "Mir geht es gut", "All good"), `Some(false)` for not fine ("Nein", "Nicht gut", or any call for help the
/// help function hears, near misses included), `None` when it is neither. A not-fine wins ("nicht gut").
pub fn fine(text: &str, language: &str) -> Option<bool> {
    const FINE: &[&str] = &[
        "ja",
        "jawohl",
        "gut",
        "alles gut",
        "sehr gut",
        "ganz gut",
        "mir geht es gut",
        "mir geht's gut",
        "es geht mir gut",
        "in ordnung",
        "alles in ordnung",
        "alles klar",
        "okay",
        "ok",
        "prima",
        "bestens",
        "danke gut",
        "yes",
        "yeah",
        "fine",
        "i'm fine",
        "i am fine",
        "all good",
        "good",
        "all right",
        "alright",
        "i'm ok",
        "i'm okay",
        "everything's fine",
    ];
    const NOT_FINE: &[&str] = &[
        "nein",
        "nee",
        "nicht gut",
        "nicht so gut",
        "schlecht",
        "mir geht es schlecht",
        "mir geht es nicht gut",
        "nicht in ordnung",
        "hilfe",
        "no",
        "not good",
        "not fine",
        "not really",
        "bad",
        "help",
        "not all right",
        "not okay",
        "i'm not ok",
        "i'm not okay",
    ];
    let said = plain(text);
    let has = |list: &[&str]| list.iter().any(|p| format!(" {said} ").contains(&format!(" {p} ")));
    if has(NOT_FINE) || has(own(language, NOT_FINE_IN)) || crate::emergency::hearing::hear(text, &[], language).asks() {
        Some(false)
    } else if has(FINE) || has(own(language, FINE_IN)) {
        Some(true)
    } else {
        None
    }
}

/// Lower case, letters, digits and apostrophes, single spaces.
fn plain(text: &str) -> String {
    let said: String = text
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() || c == '\'' { c } else { ' ' })
        .collect();
    said.split_whitespace().collect::<Vec<_>>().join(" ")
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
