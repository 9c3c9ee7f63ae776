//! Help by voice: which words are a call for help, and how a person answers the question that follows.
//!
//! A call for help is matched by phrase, never by the word alone: "Hilfe!", "ich brauche Hilfe" or "I have
//! fallen" are calls; "help me with a recipe" or "kannst du mir helfen" are questions for the model. Two kinds
//! of phrase per language: those that are a call only as the whole utterance (`ALONE`: "help", "ich brauche
//! Hilfe", with words like "please" or "quick" around them and repeats), and those that are a call wherever
//! they stand (`ANYWHERE`: a fall, an ambulance, no air). The gateway then asks whether to alert the contacts;
//! the lists of yes and no words read the answer. The lists are written out in `docs/decisions.md`.

/// Phrases of a language.
struct Phrases {
    /// Calls for help when they are the whole utterance (with [`Phrases::filler`] words around them).
    alone: &'static [&'static str],
    /// Calls for help wherever they stand in the utterance.
    anywhere: &'static [&'static str],
    /// Words that may stand around an `alone` phrase: "please", "quick", "now".
    filler: &'static [&'static str],
    /// Answers that mean yes.
    yes: &'static [&'static str],
    /// Answers that mean no.
    no: &'static [&'static str],
    /// The question.
    question: &'static str,
    /// The answer to a no.
    declined: &'static str,
    /// The answer to an answer that is neither.
    again: &'static str,
}

const EN: Phrases = Phrases {
    alone: &[
        "help",
        "help me",
        "i need help",
        "emergency",
        "this is an emergency",
        "call for help",
        "somebody help",
        "someone help",
    ],
    anywhere: &[
        "i have fallen",
        "i've fallen",
        "i fell",
        "i can't get up",
        "i cannot get up",
        "call an ambulance",
        "call the ambulance",
        "i can't breathe",
        "i cannot breathe",
        "heart attack",
        "call 112",
        "call 911",
    ],
    filler: &["please", "quick", "quickly", "now", "urgent", "urgently", "oh", "god"],
    yes: &[
        "yes",
        "yeah",
        "yep",
        "please",
        "do it",
        "alert",
        "alert them",
        "call them",
        "yes please",
        "ok",
        "okay",
    ],
    no: &[
        "no",
        "nope",
        "don't",
        "do not",
        "stop",
        "cancel",
        "false alarm",
        "no thanks",
        "i'm fine",
        "i am fine",
        "all good",
    ],
    question: "Shall I alert your contacts? Please say yes or no.",
    declined: "All right, I will not alert anyone.",
    again: "I did not understand. Shall I alert your contacts? Please say yes or no.",
};

const DE: Phrases = Phrases {
    alone: &[
        "hilfe",
        "hilf mir",
        "helft mir",
        "helfen sie mir",
        "ich brauche hilfe",
        "notfall",
        "das ist ein notfall",
        "ruf hilfe",
    ],
    anywhere: &[
        "ich bin gestürzt",
        "ich bin hingefallen",
        "ich komme nicht mehr hoch",
        "ich komme nicht hoch",
        "ruf den notarzt",
        "ruf einen krankenwagen",
        "ruf den krankenwagen",
        "ich bekomme keine luft",
        "ich kriege keine luft",
        "herzinfarkt",
        "ruf die 112",
        "notruf",
    ],
    filler: &["bitte", "schnell", "sofort", "dringend", "jetzt", "oh", "gott", "mein"],
    yes: &[
        "ja",
        "jawohl",
        "ja bitte",
        "bitte",
        "mach",
        "mach das",
        "alarmieren",
        "alarmiere sie",
        "ok",
        "okay",
        "genau",
    ],
    no: &[
        "nein",
        "nee",
        "nicht",
        "stopp",
        "abbrechen",
        "fehlalarm",
        "nein danke",
        "mir geht es gut",
        "mir geht's gut",
        "alles gut",
    ],
    question: "Soll ich deine Kontaktpersonen alarmieren? Sag bitte ja oder nein.",
    declined: "In Ordnung, ich alarmiere niemanden.",
    again: "Das habe ich nicht verstanden. Soll ich deine Kontaktpersonen alarmieren? Sag bitte ja oder nein.",
};

const FR: Phrases = Phrases {
    alone: &[
        "au secours",
        "à l'aide",
        "aidez-moi",
        "aide-moi",
        "aidez moi",
        "aide moi",
        "j'ai besoin d'aide",
        "urgence",
        "c'est une urgence",
    ],
    anywhere: &[
        "je suis tombé",
        "je suis tombée",
        "je ne peux pas me relever",
        "appelez une ambulance",
        "appelle une ambulance",
        "appelez le samu",
        "je n'arrive pas à respirer",
        "crise cardiaque",
        "appelez le 112",
    ],
    filler: &[
        "s'il vous plaît",
        "s'il te plaît",
        "vite",
        "maintenant",
        "oh",
        "mon dieu",
    ],
    yes: &[
        "oui",
        "ouais",
        "oui s'il vous plaît",
        "d'accord",
        "vas-y",
        "allez-y",
        "préviens-les",
        "ok",
    ],
    no: &[
        "non",
        "non merci",
        "arrête",
        "annule",
        "fausse alerte",
        "ça va",
        "je vais bien",
    ],
    question: "Dois-je prévenir vos contacts ? Dites oui ou non.",
    declined: "D'accord, je ne préviens personne.",
    again: "Je n'ai pas compris. Dois-je prévenir vos contacts ? Dites oui ou non.",
};

const ES: Phrases = Phrases {
    alone: &[
        "socorro",
        "ayuda",
        "ayúdame",
        "ayúdenme",
        "necesito ayuda",
        "emergencia",
        "es una emergencia",
    ],
    anywhere: &[
        "me he caído",
        "me caí",
        "no puedo levantarme",
        "llama a una ambulancia",
        "llamen a una ambulancia",
        "no puedo respirar",
        "ataque al corazón",
        "llama al 112",
    ],
    filler: &["por favor", "rápido", "ya", "ahora", "oh", "dios", "mío"],
    yes: &[
        "sí",
        "si",
        "sí por favor",
        "vale",
        "hazlo",
        "avísales",
        "de acuerdo",
        "ok",
    ],
    no: &["no", "no gracias", "para", "cancela", "falsa alarma", "estoy bien"],
    question: "¿Aviso a sus contactos? Diga sí o no.",
    declined: "De acuerdo, no aviso a nadie.",
    again: "No le he entendido. ¿Aviso a sus contactos? Diga sí o no.",
};

const IT: Phrases = Phrases {
    alone: &[
        "aiuto",
        "aiutami",
        "aiutatemi",
        "mi aiuti",
        "ho bisogno di aiuto",
        "emergenza",
        "è un'emergenza",
    ],
    anywhere: &[
        "sono caduto",
        "sono caduta",
        "non riesco ad alzarmi",
        "chiama un'ambulanza",
        "chiamate un'ambulanza",
        "non riesco a respirare",
        "infarto",
        "chiama il 112",
    ],
    filler: &["per favore", "presto", "subito", "ora", "oh", "dio", "mio"],
    yes: &["sì", "si", "sì grazie", "va bene", "fallo", "avvisali", "certo", "ok"],
    no: &["no", "no grazie", "fermati", "annulla", "falso allarme", "sto bene"],
    question: "Devo avvisare i suoi contatti? Dica sì o no.",
    declined: "Va bene, non avviso nessuno.",
    again: "Non ho capito. Devo avvisare i suoi contatti? Dica sì o no.",
};

const NL: Phrases = Phrases {
    alone: &[
        "help",
        "hulp",
        "help me",
        "ik heb hulp nodig",
        "noodgeval",
        "dit is een noodgeval",
    ],
    anywhere: &[
        "ik ben gevallen",
        "ik kan niet opstaan",
        "bel een ambulance",
        "bel de ambulance",
        "ik krijg geen lucht",
        "hartaanval",
        "bel 112",
    ],
    filler: &["alstublieft", "alsjeblieft", "snel", "nu", "oh", "god", "mijn"],
    yes: &["ja", "ja graag", "graag", "doe maar", "waarschuw ze", "oké", "ok"],
    no: &["nee", "nee dank je", "stop", "annuleren", "vals alarm", "het gaat goed"],
    question: "Zal ik uw contactpersonen waarschuwen? Zeg ja of nee.",
    declined: "Goed, ik waarschuw niemand.",
    again: "Dat heb ik niet begrepen. Zal ik uw contactpersonen waarschuwen? Zeg ja of nee.",
};

const PL: Phrases = Phrases {
    alone: &[
        "pomocy",
        "ratunku",
        "pomóż mi",
        "pomóżcie mi",
        "potrzebuję pomocy",
        "nagły wypadek",
    ],
    anywhere: &[
        "upadłem",
        "upadłam",
        "przewróciłem się",
        "przewróciłam się",
        "nie mogę wstać",
        "wezwij karetkę",
        "wezwijcie karetkę",
        "nie mogę oddychać",
        "zawał",
        "dzwoń na 112",
    ],
    filler: &["proszę", "szybko", "teraz", "o", "boże", "mój"],
    yes: &["tak", "tak proszę", "dobrze", "zrób to", "powiadom ich", "ok"],
    no: &[
        "nie",
        "nie dziękuję",
        "stop",
        "anuluj",
        "fałszywy alarm",
        "wszystko dobrze",
    ],
    question: "Czy mam powiadomić osoby kontaktowe? Proszę powiedzieć tak lub nie.",
    declined: "Dobrze, nikogo nie powiadamiam.",
    again: "Nie zrozumiałem. Czy mam powiadomić osoby kontaktowe? Proszę powiedzieć tak lub nie.",
};

const PT: Phrases = Phrases {
    alone: &[
        "socorro",
        "ajuda",
        "ajude-me",
        "me ajuda",
        "preciso de ajuda",
        "emergência",
        "é uma emergência",
    ],
    anywhere: &[
        "eu caí",
        "caí no chão",
        "não consigo levantar",
        "não consigo me levantar",
        "chame uma ambulância",
        "liga para a ambulância",
        "não consigo respirar",
        "ataque cardíaco",
        "liga para o 112",
    ],
    filler: &["por favor", "rápido", "agora", "já", "oh", "deus", "meu"],
    yes: &[
        "sim",
        "sim por favor",
        "pode",
        "faça isso",
        "avise-os",
        "está bem",
        "ok",
    ],
    no: &[
        "não",
        "não obrigado",
        "não obrigada",
        "pare",
        "cancele",
        "alarme falso",
        "estou bem",
    ],
    question: "Devo avisar os seus contactos? Diga sim ou não.",
    declined: "Está bem, não aviso ninguém.",
    again: "Não entendi. Devo avisar os seus contactos? Diga sim ou não.",
};

fn phrases(language: &str) -> &'static Phrases {
    match language {
        "de" => &DE,
        "fr" => &FR,
        "es" => &ES,
        "it" => &IT,
        "nl" => &NL,
        "pl" => &PL,
        "pt" => &PT,
        _ => &EN,
    }
}

/// Lower case, the words only, apostrophes kept ("I've fallen!" → "i've fallen").
fn words(text: &str) -> String {
    let cleaned: String = text
        .to_lowercase()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '\'' || c == '’' || c == '-' {
                c
            } else {
                ' '
            }
        })
        .collect();
    cleaned
        .replace('’', "'")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `phrase` stands in `text` as whole words.
fn contains_words(text: &str, phrase: &str) -> bool {
    let (text, phrase) = (format!(" {text} "), format!(" {phrase} "));
    text.contains(&phrase)
}

/// What is left of `text` once every occurrence of the listed phrases (longest first) is taken out.
fn without(text: &str, phrases: &[&[&str]]) -> String {
    let mut all: Vec<&str> = phrases.iter().flat_map(|p| p.iter().copied()).collect();
    all.sort_by_key(|p| std::cmp::Reverse(p.len()));
    let mut rest = format!(" {text} ");
    for phrase in all {
        let needle = format!(" {} ", words(phrase));
        while rest.contains(&needle) {
            rest = rest.replace(&needle, " ");
        }
    }
    rest.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether an utterance in `language` is a call for help (the English phrases count in every language, as
/// people under stress mix them).
pub fn is_call_for_help(text: &str, language: &str) -> bool {
    let heard = words(text);
    if heard.is_empty() {
        return false;
    }
    [phrases(language), &EN].iter().any(|p| {
        let anywhere = p.anywhere.iter().any(|phrase| contains_words(&heard, &words(phrase)));
        let alone = p.alone.iter().any(|phrase| contains_words(&heard, &words(phrase)))
            && without(&heard, &[p.alone, p.filler]).is_empty();
        anywhere || alone
    })
}

/// A person's answer to the question: `Some(true)` for yes, `Some(false)` for no, `None` when it is neither.
/// A no wins over a yes in the same answer ("yes, no, don't").
pub fn answer(text: &str, language: &str) -> Option<bool> {
    let heard = words(text);
    let p = phrases(language);
    let says = |list: &[&str]| list.iter().any(|phrase| contains_words(&heard, &words(phrase)));
    if says(p.no) {
        Some(false)
    } else if says(p.yes) || is_call_for_help(text, language) {
        // Calling for help again is a yes.
        Some(true)
    } else {
        None
    }
}

/// The question, in `language`.
pub fn question(language: &str) -> &'static str {
    phrases(language).question
}

/// The answer to a no, in `language`.
pub fn declined(language: &str) -> &'static str {
    phrases(language).declined
}

/// The question again, after an answer that is neither yes nor no.
pub fn again(language: &str) -> &'static str {
    phrases(language).again
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distress_is_a_call_for_help_and_a_request_for_help_is_not() {
        let calls = [
            ("de", "Hilfe!"),
            ("de", "Hilfe, Hilfe, schnell!"),
            ("de", "Ich brauche Hilfe."),
            ("de", "Bitte helft mir"),
            ("de", "Ich bin gestürzt und komme nicht hoch"),
            ("de", "Ruf einen Krankenwagen!"),
            ("en", "Help!"),
            ("en", "Please help me"),
            ("en", "I've fallen and I can't get up"),
            ("en", "Emergency!"),
            ("fr", "Au secours !"),
            ("es", "¡Socorro!"),
            ("it", "Aiuto, sono caduta"),
            ("nl", "Ik ben gevallen"),
            ("pl", "Ratunku!"),
            ("pt", "Socorro!"),
            ("de", "Help!"),
        ];
        for (language, text) in calls {
            assert!(is_call_for_help(text, language), "{language}: {text}");
        }
        let questions = [
            ("en", "Can you help me with a recipe?"),
            ("en", "I need help with my homework"),
            ("en", "Help me write a letter to my son"),
            ("de", "Kannst du mir helfen?"),
            ("de", "Ich brauche Hilfe bei einem Rezept"),
            ("de", "Hilfe bei der Steuererklärung"),
            ("de", "Wie ist das Wetter?"),
            ("fr", "Aidez-moi à écrire une lettre"),
            ("es", "Necesito ayuda con la receta"),
            ("en", ""),
        ];
        for (language, text) in questions {
            assert!(!is_call_for_help(text, language), "{language}: {text}");
        }
    }

    #[test]
    fn answers_are_read_as_yes_no_or_neither() {
        assert_eq!(answer("Ja, bitte!", "de"), Some(true));
        assert_eq!(answer("Nein, alles gut.", "de"), Some(false));
        assert_eq!(answer("Yes please", "en"), Some(true));
        assert_eq!(answer("No, false alarm", "en"), Some(false));
        assert_eq!(answer("Hilfe!", "de"), Some(true));
        assert_eq!(answer("Wie spät ist es?", "de"), None);
        assert_eq!(answer("Oui", "fr"), Some(true));
        assert_eq!(answer("Nie", "pl"), Some(false));
    }

    #[test]
    fn every_language_asks_declines_and_asks_again() {
        for language in crate::config::LANGUAGES {
            assert!(
                !question(language).is_empty() && !declined(language).is_empty(),
                "{language}"
            );
            assert!(again(language).ends_with(question(language)), "{language}");
        }
    }
}
