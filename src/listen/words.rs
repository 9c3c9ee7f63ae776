//! What the words say about the end of a turn: a fragment that ends in an article, a preposition, a
//! conjunction, a possessive or a hesitation ("What is the capital of", "Ich möchte wissen, ob die") is not a
//! finished question, however final its melody sounded to Smart Turn. Per language of the gateway; a language
//! without a list never holds a turn back.

/// Words a finished sentence does not end with, per language.
const UNFINISHED: &[(&str, &[&str])] = &[
    // Only words that end no question people ask: "on", "for", "from", "about" and "to" end many ("What's
    // going on", "What is it for"), so do German separable prefixes ("Mach das Licht an/aus/ein/zu") and "das"
    // ("Was ist das").
    (
        "en",
        &[
            "a", "an", "the", "of", "in", "at", "with", "into", "onto", "than", "and", "or", "but", "because", "if",
            "when", "while", "although", "whether", "my", "your", "its", "our", "their", "um", "uh", "erm",
        ],
    ),
    (
        "de",
        &[
            "der", "die", "den", "dem", "des", "eine", "einen", "einem", "einer", "eines", "von", "vom", "zum", "zur",
            "in", "im", "am", "für", "mit", "über", "unter", "bei", "gegen", "und", "oder", "aber", "weil", "dass",
            "wenn", "ob", "sondern", "mein", "meine", "meinen", "meinem", "meiner", "dein", "deine", "seine", "ihre",
            "unser", "unsere", "äh", "ähm",
        ],
    ),
    (
        "fr",
        &[
            "le", "la", "les", "un", "une", "des", "du", "de", "à", "au", "aux", "en", "dans", "sur", "pour", "avec",
            "par", "et", "ou", "mais", "parce", "que", "si", "quand", "mon", "ma", "mes", "ton", "ta", "son", "sa",
            "ses", "notre", "votre", "leur", "euh",
        ],
    ),
    (
        "es",
        &[
            "el", "la", "los", "las", "un", "una", "unos", "unas", "de", "del", "a", "al", "en", "con", "por", "para",
            "sobre", "y", "o", "pero", "porque", "que", "si", "cuando", "mi", "mis", "tu", "tus", "su", "sus",
            "nuestro", "nuestra", "eh",
        ],
    ),
    (
        "it",
        &[
            "il", "lo", "la", "i", "gli", "le", "un", "una", "di", "del", "della", "a", "al", "alla", "in", "nel",
            "nella", "con", "per", "su", "e", "o", "ma", "perché", "che", "se", "quando", "mio", "mia", "tuo", "tua",
            "suo", "sua", "nostro", "ehm",
        ],
    ),
    (
        "nl",
        &[
            "de", "het", "een", "van", "naar", "in", "op", "aan", "voor", "met", "over", "bij", "uit", "en", "of",
            "maar", "omdat", "dat", "als", "mijn", "jouw", "je", "zijn", "haar", "ons", "onze", "hun", "eh", "uh",
        ],
    ),
    (
        "pl",
        &[
            "w", "we", "na", "do", "z", "ze", "o", "od", "dla", "przez", "po", "przy", "i", "a", "albo", "lub", "ale",
            "bo", "że", "czy", "jeśli", "mój", "moja", "moje", "twój", "twoja", "jego", "jej", "nasz", "nasza", "yyy",
            "eee",
        ],
    ),
    (
        "pt",
        &[
            "o", "a", "os", "as", "um", "uma", "de", "do", "da", "dos", "das", "em", "no", "na", "com", "por", "para",
            "sobre", "e", "ou", "mas", "porque", "que", "se", "quando", "meu", "minha", "teu", "tua", "seu", "sua",
            "nosso", "nossa", "é",
        ],
    ),
];

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
    UNFINISHED
        .iter()
        .find(|(lang, _)| *lang == language)
        .is_some_and(|(_, words)| words.contains(&last.as_str()))
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
