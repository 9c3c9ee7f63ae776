//! What the words say about the end of a turn: a fragment that ends in an article, a preposition, a
//! conjunction, a possessive or a hesitation ("What is the capital of", "Ich möchte wissen, ob die") is not a
//! finished question, however final its melody sounded to Smart Turn. The words are the language's
//! `{unfinished}` list (`locales/<lang>/turn.sentences`); a language without the list never holds a turn back.

/// Whether `text`, all that was said so far in `language`, stops in the middle of a phrase: its last word is
/// one a finished sentence does not end with, or the recogniser heard it trail off (`…`). Punctuation after
/// the word says nothing: Whisper writes "What is the capital of?" for the fragment.
pub fn unfinished(text: &str, language: &str) -> bool {
    let text = text.trim();
    if text.ends_with("...") || text.ends_with('…') {
        return true;
    }
    let Some(last) = text
        .split_whitespace()
        .next_back()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase())
    else {
        return false;
    };
    crate::hearing::entries(language, "unfinished").is_some_and(|words| words.iter().any(|w| w.lower == last))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fragment_ending_in_a_function_word_is_unfinished_in_its_language() {
        assert!(unfinished("What is the capital of", "en"));
        assert!(
            unfinished("What is the capital of.", "en"),
            "Whisper's full stop changes nothing"
        );
        assert!(unfinished("Can you tell me about the", "en"));
        assert!(unfinished("Was ist die Hauptstadt von", "de"));
        assert!(unfinished("Erzähl mir etwas über die", "de"));
        assert!(unfinished("Ich möchte wissen, wie warm es heute...", "de"));
        assert!(unfinished("Quelle est la capitale de", "fr"));
        assert!(!unfinished("What is the capital of France?", "en"));
        assert!(!unfinished("Tell me something about dogs.", "en"));
        assert!(!unfinished("Was ist die Hauptstadt von Spanien?", "de"));
        assert!(
            unfinished("What is the capital of?", "en"),
            "nor does its question mark"
        );
        assert!(!unfinished("", "en"));
        assert!(
            !unfinished("Wie spät ist es in", "sv"),
            "a language without a list holds nothing back"
        );
    }
}
