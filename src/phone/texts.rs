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
