//! How long an answer may run. A spoken answer ends at a sentence's end once it has reached
//! `SPOKEN_MAX_SECONDS` of speech (estimated from its words) or `SPOKEN_MAX_TOKENS` tokens, or as soon as the
//! model repeats itself, and a short closing in the answer's language says that it was cut short; a written
//! answer has the larger `LLM_MAX_TOKENS`. The limit is the gateway's, whatever the model does: a small model
//! caught in a loop would otherwise talk for a minute.

/// Words a second of unhurried speech (150 a minute, the pace of the gateway's voices at their default rate).
const WORDS_PER_SECOND: f64 = 2.5;
/// The shortest phrase whose third occurrence counts as a loop, in words.
const LOOP_WORDS: usize = 6;
/// Occurrences of the answer's last phrase that make it a loop.
const LOOP_TIMES: usize = 3;

/// Why an answer was ended before the model finished it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// It reached the length limit.
    Long,
    /// The model repeated itself.
    Repeating,
}

impl Stop {
    /// For the log and the metrics.
    pub fn label(self) -> &'static str {
        match self {
            Self::Long => "length",
            Self::Repeating => "repetition",
        }
    }
}

/// The limits of one answer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Tokens (stream deltas) at most.
    pub tokens: u64,
    /// Seconds of speech at most; `None` for a written answer.
    pub seconds: Option<f64>,
}

/// Keeps an answer within its limits, token by token and sentence by sentence.
#[derive(Debug)]
pub struct Bound {
    limits: Limits,
    tokens: u64,
    seconds: f64,
    /// The sentences kept so far, reduced to their words.
    said: Vec<String>,
    /// Why the answer ends early, once it does.
    pub stopped: Option<Stop>,
}

impl Bound {
    pub fn new(limits: Limits) -> Self {
        Self {
            limits,
            tokens: 0,
            seconds: 0.0,
            said: Vec::new(),
            stopped: None,
        }
    }

    /// Counts a token of `text` (the answer so far, the token included); whether the model may go on.
    pub fn token(&mut self, text: &str) -> bool {
        self.tokens += 1;
        if self.stopped.is_none() && self.tokens >= self.limits.tokens {
            self.stopped = Some(Stop::Long);
        }
        // The words written in full (a token may begin with the space after the last one).
        let whole = text.trim_end_matches(char::is_alphanumeric);
        if self.stopped.is_none() && looping(whole) {
            self.stopped = Some(Stop::Repeating);
        }
        self.stopped.is_none()
    }

    /// Whether a finished sentence is kept (spoken and stored): not after the end, not when it was said before.
    /// The sentence that reaches the time limit is the last one kept.
    pub fn sentence(&mut self, sentence: &str) -> bool {
        if self.stopped.is_some() {
            return false;
        }
        let words = words(sentence).join(" ");
        if !words.is_empty() && self.said.contains(&words) {
            self.stopped = Some(Stop::Repeating);
            return false;
        }
        self.said.push(words);
        self.seconds += speaking_seconds(sentence);
        if self.limits.seconds.is_some_and(|limit| self.seconds >= limit) {
            self.stopped = Some(Stop::Long);
        }
        true
    }
}

/// How long `sentence` takes to say, estimated from its words.
pub fn speaking_seconds(sentence: &str) -> f64 {
    sentence.split_whitespace().count() as f64 / WORDS_PER_SECOND
}

/// The words of `text`, lower-cased, without punctuation.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether `text` ends in a phrase it has said `LOOP_TIMES` times already (a loop without sentence ends).
fn looping(text: &str) -> bool {
    let words = words(text);
    if words.len() < LOOP_WORDS * LOOP_TIMES {
        return false;
    }
    let phrase = &words[words.len() - LOOP_WORDS..];
    let mut times = 0;
    let mut at = 0;
    while at + LOOP_WORDS <= words.len() {
        if &words[at..at + LOOP_WORDS] == phrase {
            times += 1;
            at += LOOP_WORDS;
        } else {
            at += 1;
        }
    }
    times >= LOOP_TIMES
}

/// `text` up to where its loop began: to the end of the first time of its last phrase (the whole text when it
/// ends in no loop).
pub fn before_loop(text: &str) -> &str {
    // Each word's start in `text`, to cut it where the words say.
    let starts: Vec<usize> = text
        .char_indices()
        .filter(|&(i, c)| c.is_alphanumeric() && text[..i].chars().next_back().is_none_or(|p| !p.is_alphanumeric()))
        .map(|(i, _)| i)
        .collect();
    let words = words(text);
    if words.len() < LOOP_WORDS * 2 || starts.len() != words.len() {
        return text;
    }
    let phrase = &words[words.len() - LOOP_WORDS..];
    match (0..words.len() - LOOP_WORDS).find(|&at| &words[at..at + LOOP_WORDS] == phrase) {
        Some(first) => &text[..starts[first + LOOP_WORDS]],
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spoken(seconds: f64) -> Bound {
        Bound::new(Limits {
            tokens: 1000,
            seconds: Some(seconds),
        })
    }

    #[test]
    fn the_sentence_that_reaches_the_time_limit_is_the_last_one_kept() {
        let mut bound = spoken(4.0);
        // Five words each: two seconds.
        assert!(bound.sentence("The sun is shining today."));
        assert!(bound.sentence("It will be warm later."));
        assert_eq!(bound.stopped, Some(Stop::Long));
        assert!(!bound.sentence("Tomorrow it will rain again."));
    }

    #[test]
    fn a_sentence_said_again_ends_the_answer_and_is_not_kept() {
        let mut bound = spoken(60.0);
        assert!(bound.sentence("Kudos for you."));
        assert!(bound.sentence("Today is Thursday."));
        assert!(!bound.sentence("Kudos, for you!"));
        assert_eq!(bound.stopped, Some(Stop::Repeating));
    }

    #[test]
    fn a_phrase_repeated_without_sentence_ends_stops_the_tokens() {
        let mut bound = spoken(60.0);
        let mut text = String::from("Das Wetter ist");
        assert!(bound.token(&text));
        let mut went_on = 0;
        for _ in 0..10 {
            text.push_str(" und morgen wird es schön und warm");
            if !bound.token(&format!("{text},")) {
                break;
            }
            went_on += 1;
        }
        assert_eq!(bound.stopped, Some(Stop::Repeating));
        assert_eq!(went_on, 2, "stopped at the third time");
    }

    #[test]
    fn the_token_limit_ends_a_written_answer_too() {
        let mut bound = Bound::new(Limits {
            tokens: 3,
            seconds: None,
        });
        assert!(bound.token("a"));
        assert!(bound.token("a b"));
        assert!(!bound.token("a b c"));
        assert_eq!(bound.stopped, Some(Stop::Long));
        // Without a time limit, sentences never end it.
        let mut long = Bound::new(Limits {
            tokens: 1000,
            seconds: None,
        });
        for n in 0..100 {
            assert!(long.sentence(&format!("Sentence number {n} of a long written answer.")));
        }
    }

    #[test]
    fn a_loop_is_cut_where_it_began_and_a_text_without_one_is_kept() {
        let looped = "Das Wetter ist schön und morgen wird es warm und sonnig, und morgen wird es warm und sonnig, und morgen wird es warm und sonnig,";
        assert_eq!(
            before_loop(looped),
            "Das Wetter ist schön und morgen wird es warm und sonnig, "
        );
        let plain = "A long first sentence without an end that the token limit cut";
        assert_eq!(before_loop(plain), plain);
    }
}
