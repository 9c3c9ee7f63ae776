//! A small model sometimes says its instructions back ("You are talking with Admin.", "Your answer is read
//! aloud: …"). Such echoes are taken out of what is said and stored: a sentence, or a clause up to a colon,
//! whose words (four at least) all stand together in the instructions. The date and the person's memories
//! are not instructions: an answer may rightly repeat them.

/// The fewest words a clause needs to count as an echo (a short one, "Today is Monday", may be a true answer).
const MIN_WORDS: usize = 4;

/// The instructions' words, to recognise them said back.
#[derive(Debug, Clone, Default)]
pub struct Echo {
    words: Vec<String>,
}

impl Echo {
    /// The echoes of `instructions`.
    pub fn of(instructions: &str) -> Self {
        Self {
            words: words(instructions),
        }
    }

    /// `text` without the sentences and leading clauses that echo the instructions (trimmed; empty when all of
    /// it does). Text without an echo comes back as it was.
    pub fn clean(&self, text: &str) -> String {
        let kept: String = segments(text).filter(|s| !self.echoes(s)).collect();
        if kept.len() == text.len() {
            return text.to_string();
        }
        kept.trim().to_string()
    }

    /// Whether all of `segment`'s words stand together in the instructions.
    fn echoes(&self, segment: &str) -> bool {
        let said = words(segment);
        said.len() >= MIN_WORDS && self.words.windows(said.len()).any(|w| w == said.as_slice())
    }
}

/// The words of `text`, lower-cased, without punctuation.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// `text` cut after each sentence end or colon that a space or the end follows, and after each line; the
/// pieces keep their punctuation and spaces, so that together they are the text.
fn segments(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut chars = rest.char_indices().peekable();
        let mut end = rest.len();
        while let Some((i, c)) = chars.next() {
            let next = chars.peek().map(|(_, n)| *n);
            let ends = c == '\n' || (matches!(c, '.' | '!' | '?' | ':') && next.is_none_or(char::is_whitespace));
            if ends {
                // The spaces after the end belong to this piece.
                let mut j = i + c.len_utf8();
                while let Some((k, n)) = chars.peek().copied().filter(|(_, n)| n.is_whitespace()) {
                    j = k + n.len_utf8();
                    chars.next();
                }
                end = j;
                break;
            }
        }
        let (piece, after) = rest.split_at(end);
        rest = after;
        Some(piece)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn echo() -> Echo {
        Echo::of(
            "You are a friendly voice assistant.\nAnswer in English. Your answer is read aloud: keep it short, \
             no tables or code unless asked.\nYou are talking with Admin.",
        )
    }

    #[test]
    fn instructions_said_back_are_taken_out_and_the_answer_kept() {
        let echo = echo();
        assert_eq!(echo.clean("You are talking with Admin."), "");
        assert_eq!(
            echo.clean("Your answer is read aloud: The capital of France is Paris."),
            "The capital of France is Paris."
        );
        assert_eq!(
            echo.clean(
                "You are talking with Admin. Paris is the capital of France.\nKeep it short, no tables or code."
            ),
            "Paris is the capital of France."
        );
    }

    #[test]
    fn answers_that_only_share_words_with_the_instructions_stay_as_they_are() {
        let echo = echo();
        for answer in [
            "You are welcome.",
            "Today is Monday.",
            "I am a friendly assistant, and the answer is: yes!",
            "Keep it in the fridge. It stays fresh for a week.",
            "  Paris, of course.  ",
        ] {
            assert_eq!(echo.clean(answer), answer);
        }
    }
}
