//! What the phone line says by itself comes from the phrasebook's `phone` area; the greeting picks its
//! message by whether the caller is known.

use crate::phrasebook::Words;

/// The greeting when a call starts, by the person's name when the caller is known.
pub fn greeting(language: &str, name: Option<&str>) -> String {
    let words = Words::formal(language);
    match name.map(str::trim).filter(|n| !n.is_empty()) {
        Some(name) => words.with("phone-greeting-named", &[("name", name.into())]),
        None => words.get("phone-greeting"),
    }
}

/// What the greeting adds once a day: the key that starts the help question at any time.
pub fn help_key(language: &str, informal: bool, key: char) -> String {
    let words = Words::new(language, informal);
    let name = match key {
        '*' => words.get("phone-key-star"),
        '#' => words.get("phone-key-hash"),
        digit => digit.to_string(),
    };
    words.with("phone-help-key", &[("key", name.into())])
}

/// What follows the help question on a telephone: 1 is yes, 2 is no.
pub fn help_keys(language: &str, informal: bool) -> String {
    Words::new(language, informal).get("phone-help-keys")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::voice::phrases::is_farewell;

    #[test]
    fn a_farewell_with_thanks_ends_the_call_and_a_question_does_not() {
        assert!(is_farewell("Okay, thank you. Goodbye!", "en"));
        assert!(is_farewell("Bye bye.", "en"));
        assert!(is_farewell("Danke, tschüss!", "de"));
        assert!(is_farewell("Auf Wiederhören.", "de"));
        assert!(!is_farewell("How do you say goodbye in French?", "en"));
        assert!(!is_farewell("Thank you.", "en"));
        assert!(!is_farewell("Sag meiner Tochter tschüss", "de"));
        assert!(!is_farewell("", "fr"));
    }

    #[test]
    fn the_help_key_is_named_in_every_language() {
        assert_eq!(help_key("de", false, '0'), "Für Hilfe drücken Sie jederzeit die 0.");
        assert_eq!(help_key("de", true, '*'), "Für Hilfe drück jederzeit die Sterntaste.");
        for lang in crate::config::languages() {
            assert!(help_key(lang, false, '0').contains('0'), "{lang}");
            assert!(
                help_keys(lang, false).contains('1') && help_keys(lang, false).contains('2'),
                "{lang}"
            );
        }
    }

    #[test]
    fn every_language_greets_by_name_or_plainly() {
        for lang in crate::config::languages() {
            assert!(greeting(lang, Some("Anna")).contains("Anna"), "{lang}");
            assert!(!greeting(lang, None).contains('{'), "{lang}");
            assert!(
                is_farewell(&crate::phrasebook::phrase(lang, "phone-goodbye"), lang),
                "{lang}: the goodbye is a farewell"
            );
        }
    }
}
