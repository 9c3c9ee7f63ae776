//! What the phone line says by itself, in the eight languages.

/// The greeting when a call starts (`{name}`: the person's name, or nothing for a guest).
pub fn greeting(language: &str, name: Option<&str>) -> String {
    let (named, plain) = match language {
        "de" => ("Hallo {name}. Wie kann ich helfen?", "Hallo. Wie kann ich helfen?"),
        "fr" => (
            "Bonjour {name}. Comment puis-je vous aider ?",
            "Bonjour. Comment puis-je vous aider ?",
        ),
        "es" => ("Hola, {name}. ¿En qué puedo ayudarte?", "Hola. ¿En qué puedo ayudarte?"),
        "it" => ("Ciao {name}. Come posso aiutarti?", "Ciao. Come posso aiutarti?"),
        "nl" => ("Hallo {name}. Waarmee kan ik helpen?", "Hallo. Waarmee kan ik helpen?"),
        "pl" => (
            "Dzień dobry, {name}. W czym mogę pomóc?",
            "Dzień dobry. W czym mogę pomóc?",
        ),
        "pt" => ("Olá, {name}. Como posso ajudar?", "Olá. Como posso ajudar?"),
        _ => ("Hello {name}. How can I help?", "Hello. How can I help?"),
    };
    match name.map(str::trim).filter(|n| !n.is_empty()) {
        Some(name) => named.replace("{name}", name),
        None => plain.to_string(),
    }
}

/// The goodbye before the line hangs up.
pub fn goodbye(language: &str) -> &'static str {
    match language {
        "de" => "Auf Wiederhören.",
        "fr" => "Au revoir.",
        "es" => "Adiós.",
        "it" => "Arrivederci.",
        "nl" => "Tot ziens.",
        "pl" => "Do widzenia.",
        "pt" => "Adeus.",
        _ => "Goodbye.",
    }
}

/// The goodbye when nobody spoke for `PHONE_SILENCE_SECONDS`.
pub fn silence(language: &str) -> &'static str {
    match language {
        "de" => "Ich höre nichts mehr und lege jetzt auf. Ruf gern wieder an. Auf Wiederhören.",
        "fr" => "Je n'entends plus rien, je raccroche. Rappelez quand vous voulez. Au revoir.",
        "es" => "Ya no oigo nada, así que voy a colgar. Llama cuando quieras. Adiós.",
        "it" => "Non sento più niente, quindi riattacco. Richiama quando vuoi. Arrivederci.",
        "nl" => "Ik hoor niets meer en hang nu op. Bel gerust nog eens. Tot ziens.",
        "pl" => "Nic już nie słyszę, więc się rozłączam. Zadzwoń, kiedy chcesz. Do widzenia.",
        "pt" => "Já não ouço nada, por isso vou desligar. Ligue quando quiser. Adeus.",
        _ => "I can't hear anything, so I'll hang up now. Call again any time. Goodbye.",
    }
}

/// The refusal of a number no user has.
pub fn refusal(language: &str) -> &'static str {
    match language {
        "de" => "Diese Nummer ist für den Sprachassistenten nicht freigeschaltet. Auf Wiederhören.",
        "fr" => "Ce numéro n'est pas autorisé pour cet assistant vocal. Au revoir.",
        "es" => "Este número no está autorizado para este asistente de voz. Adiós.",
        "it" => "Questo numero non è abilitato per questo assistente vocale. Arrivederci.",
        "nl" => "Dit nummer is niet aangemeld bij deze spraakassistent. Tot ziens.",
        "pl" => "Ten numer nie jest zarejestrowany w tym asystencie głosowym. Do widzenia.",
        "pt" => "Este número não está autorizado para este assistente de voz. Adeus.",
        _ => "This number is not set up for this voice assistant. Goodbye.",
    }
}

/// What the line says when a turn failed (the reason is in the log, and was the error event elsewhere).
pub fn sorry(language: &str) -> &'static str {
    match language {
        "de" => "Das hat leider nicht geklappt. Bitte versuch es gleich noch einmal.",
        "fr" => "Désolé, cela n'a pas fonctionné. Réessayez dans un instant.",
        "es" => "Lo siento, no ha funcionado. Inténtalo de nuevo en un momento.",
        "it" => "Mi dispiace, non ha funzionato. Riprova tra un momento.",
        "nl" => "Sorry, dat lukte niet. Probeer het zo nog eens.",
        "pl" => "Niestety to się nie udało. Spróbuj ponownie za chwilę.",
        "pt" => "Desculpe, não funcionou. Tente outra vez daqui a pouco.",
        _ => "Sorry, that didn't work. Please try again in a moment.",
    }
}

/// Said when the caller spoke longer than `MAX_UTTERANCE_SECONDS` without a pause: the question was not heard.
pub fn too_long(language: &str) -> &'static str {
    match language {
        "de" => "Das war zu lang für mich am Stück. Frag bitte noch einmal, in kürzeren Sätzen.",
        "fr" => "C'était trop long pour moi d'un seul coup. Redemandez, s'il vous plaît, en phrases plus courtes.",
        "es" => "Eso fue demasiado largo de una vez. Pregunta otra vez, por favor, con frases más cortas.",
        "it" => "Era troppo lungo tutto d'un fiato. Chiedi di nuovo, per favore, con frasi più brevi.",
        "nl" => "Dat was te lang in één keer. Vraag het alstublieft opnieuw, in kortere zinnen.",
        "pl" => "To było dla mnie za długie naraz. Zapytaj proszę jeszcze raz, krótszymi zdaniami.",
        "pt" => "Foi demasiado longo de uma vez. Pergunte outra vez, por favor, em frases mais curtas.",
        _ => "That was too long for me to take in at once. Please ask again in shorter sentences.",
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
        for lang in crate::config::LANGUAGES {
            assert!(greeting(lang, Some("Anna")).contains("Anna"), "{lang}");
            assert!(!greeting(lang, None).contains('{'), "{lang}");
            assert!(is_farewell(goodbye(lang), lang), "{lang}: the goodbye is a farewell");
        }
    }
}
