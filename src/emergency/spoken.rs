//! Help by voice: which words are a call for help, and how a person answers the question that follows.
//!
//! A call for help is matched by phrase, never by the word alone (word for word here, through recognition errors
//! in [`super::hearing`]): "Hilfe!", "ich brauche Hilfe" or "I have
//! fallen" are calls; "help me with a recipe" or "kannst du mir helfen" are questions for the model. Two kinds
//! of phrase per language: those that are a call only as the whole utterance (`ALONE`: "help", "ich brauche
//! Hilfe", with words like "please" or "quick" around them and repeats), and those that are a call wherever
//! they stand (`ANYWHERE`: a fall, an ambulance, no air). The gateway then asks whether to alert the contacts;
//! the lists of yes and no words read the answer. The lists are written out in `docs/decisions.md`.

use crate::phrasebook::Words;

/// Phrases of a language.
pub(super) struct Phrases {
    /// Calls for help when they are the whole utterance (with [`Phrases::filler`] words around them).
    pub(super) alone: &'static [&'static str],
    /// Calls for help wherever they stand in the utterance.
    pub(super) anywhere: &'static [&'static str],
    /// Words that may stand around an `alone` phrase: "please", "quick", "now".
    pub(super) filler: &'static [&'static str],
    /// Short words of the phrases that a recogniser drops or swaps ("ich", "have"): see [`super::hearing`].
    pub(super) short: &'static [&'static str],
    /// Phrases that use the words of a call harmlessly ("fell asleep"): an utterance with one is a call only
    /// as a whole `alone` phrase.
    pub(super) harmless: &'static [&'static str],
    /// Answers that mean yes.
    yes: &'static [&'static str],
    /// Answers that mean no.
    no: &'static [&'static str],
    /// What the second hearing gives the recogniser as the text said before the utterance (OpenAI's
    /// `prompt`), so that it leans towards the words of a call for help ([`super::hearing::hear_again`]).
    prompt: &'static str,
}

pub(super) const EN: Phrases = Phrases {
    alone: &[
        "help",
        "help me",
        "help me please",
        "i need help",
        "emergency",
        "this is an emergency",
        "it's an emergency",
        "call for help",
        "somebody help",
        "someone help",
        "somebody help me",
        "someone help me",
        "get help",
        "get help quickly",
    ],
    anywhere: &[
        // Falls.
        "i have fallen",
        "i've fallen",
        "i fell",
        "i have had a fall",
        "i'm fallen",
        "i am fallen",
        "i'm hurt",
        "i am hurt",
        "i can't get up",
        "i cannot get up",
        "i can't stand up",
        "i'm on the floor",
        // Typed without the apostrophe.
        "im on the floor",
        "im hurt",
        "im bleeding",
        "ive fallen",
        "i cant get up",
        "i cant breathe",
        "i cant move",
        "i am on the floor",
        // An ambulance, a doctor, the emergency number.
        "call an ambulance",
        "call the ambulance",
        "i need an ambulance",
        "get an ambulance",
        "i need a doctor",
        "get a doctor",
        "call 112",
        "call 911",
        "call 999",
        // Breathing, heart, pain, blood.
        "i can't breathe",
        "i cannot breathe",
        "i can't get any air",
        "heart attack",
        "chest pain",
        "terrible pain",
        "i'm bleeding",
        "i am bleeding",
        "my chest hurts",
        "can't catch my breath",
        "cannot catch my breath",
        "i can't move",
        "i cannot move",
        "i broke my",
        "i think i broke",
        "i slipped",
        "i'm so dizzy",
        "i'm going to fall",
        "i am going to fall",
        "i'm about to fall",
        "there's a fire",
        "call the fire brigade",
        // Someone else.
        "fell and she's not moving",
        "fell and he's not moving",
        "not moving",
        "my husband collapsed",
        "my wife collapsed",
        "my husband has collapsed",
        "my wife has collapsed",
        "is not breathing",
        "isn't breathing",
        "it's an emergency",
    ],
    filler: &[
        "please", "quick", "quickly", "now", "urgent", "urgently", "oh", "god", "my", "somebody", "someone",
    ],
    // Not "i", "i'm", "i've": an English recogniser keeps them, and "the leaves have fallen" has a subject of its own.
    short: &[
        "am", "have", "had", "a", "an", "the", "me", "my", "is", "it's", "on", "to",
    ],
    harmless: &[
        "fell asleep",
        "fallen asleep",
        "fell in love",
        "fallen in love",
        "fell for",
        "fallen for",
        "fell behind",
        "fallen behind",
        "fell apart",
        "get up early",
        "help me with",
        "help with",
        "song help",
        "film help",
        "movie help",
        "hello",
        "hello there",
        "remind me",
    ],
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
    prompt: "Help! I have fallen and I can't get up. Call an ambulance! I have chest pain, I can't breathe.",
};

const DE: Phrases = Phrases {
    alone: &[
        "hilfe",
        "hilf mir",
        "hilf mir doch",
        "helft mir",
        "helfen sie mir",
        "ich brauche hilfe",
        "hol hilfe",
        "holen sie hilfe",
        // Typed: "Bitte Hilfe holen".
        "hilfe holen",
        "notfall",
        "notruf",
        "herzinfarkt",
        "das ist ein notfall",
        "ruf hilfe",
    ],
    anywhere: &[
        // Stürze.
        "ich bin gestürzt",
        "ich bin hingefallen",
        "ich bin gefallen",
        "ich bin umgefallen",
        "mein mann ist umgefallen",
        "meine frau ist umgefallen",
        "mein mann ist gestürzt",
        "meine frau ist gestürzt",
        "ich komme nicht mehr hoch",
        "ich komme nicht hoch",
        "ich kann nicht aufstehen",
        "ich kann nicht mehr aufstehen",
        "ich liege auf dem boden",
        "ich bin hingefallen und komme nicht hoch",
        "und komme nicht mehr hoch",
        "und komme nicht hoch",
        // Notarzt, Krankenwagen, Notruf.
        "ruf den notarzt",
        "ich brauche einen notarzt",
        "ruf einen krankenwagen",
        "ruf den krankenwagen",
        "krankenwagen",
        "ruf die 112",
        "ruf den notruf",
        "wähl den notruf",
        "notarzt",
        // Atem, Herz, Schmerz, Blut.
        "ich bekomme keine luft",
        "ich kriege keine luft",
        "keine luft mehr",
        "ich habe einen herzinfarkt",
        "ich glaube ich habe einen herzinfarkt",
        "ich kann meinen arm nicht",
        "ich habe mir das bein gebrochen",
        "ich habe mir den arm gebrochen",
        "ich habe mir die hüfte gebrochen",
        "bein gebrochen",
        "hüfte gebrochen",
        "herz tut so weh",
        "herz tut weh",
        "ausgerutscht",
        "die treppe runtergefallen",
        "die treppe heruntergefallen",
        "zusammengebrochen",
        "kann mir jemand helfen",
        "hilft mir jemand",
        "ich kann mich nicht bewegen",
        "mir ist so schwindelig",
        "ich bin ausgerutscht",
        "es brennt",
        "feuer",
        "feuerwehr",
        "ruf die feuerwehr",
        "schmerzen in der brust",
        "mein herz tut so weh",
        "ich blute",
        "atmet nicht mehr",
        "das ist ein notfall",
    ],
    filler: &[
        "bitte", "schnell", "sofort", "dringend", "jetzt", "oh", "gott", "mein", "doch",
    ],
    short: &[
        "ich", "bin", "mir", "mich", "mein", "meine", "ein", "einen", "eine", "den", "die", "der", "dem", "das", "ist",
        "auf", "in", "so", "sie", "du", "doch",
    ],
    harmless: &[
        "gut gefallen",
        "hat mir gefallen",
        "hat mir gut gefallen",
        "gefallen lassen",
        "hilfe bei",
        "helfen bei",
        "beim rezept",
        "heißt hilfe",
        "film hilfe",
        "lied hilfe",
        "hallo",
        "danke für",
        "erinnere mich",
    ],
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
    prompt: "Hilfe! Ich bin gestürzt und komme nicht mehr hoch. Ruf den Notarzt, einen Krankenwagen! Ich habe Schmerzen in der Brust, ich bekomme keine Luft.",
};

const FR: Phrases = Phrases {
    alone: &[
        "au secours",
        "à l'aide",
        // Typed without the accent.
        "a l'aide",
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
    short: &["je", "j'ai", "suis", "me", "le", "la", "un", "une", "de", "à", "moi"],
    harmless: &[],
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
    prompt: "Au secours ! Je suis tombé et je ne peux pas me relever. Appelez une ambulance ! J'ai mal à la poitrine, je ne peux pas respirer.",
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
    short: &["me", "he", "a", "al", "una", "un", "la", "el", "no"],
    harmless: &[],
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
    prompt: "¡Socorro! Me he caído y no puedo levantarme. ¡Llame a una ambulancia! Me duele el pecho, no puedo respirar.",
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
    short: &["mi", "ho", "sono", "un", "un'", "il", "la", "a", "ad"],
    harmless: &[],
    yes: &["sì", "si", "sì grazie", "va bene", "fallo", "avvisali", "certo", "ok"],
    no: &["no", "no grazie", "fermati", "annulla", "falso allarme", "sto bene"],
    prompt: "Aiuto! Sono caduto e non riesco ad alzarmi. Chiami un'ambulanza! Ho dolore al petto, non riesco a respirare.",
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
    short: &["ik", "ben", "een", "de", "het", "me", "mij"],
    harmless: &[],
    yes: &["ja", "ja graag", "graag", "doe maar", "waarschuw ze", "oké", "ok"],
    no: &["nee", "nee dank je", "stop", "annuleren", "vals alarm", "het gaat goed"],
    prompt: "Help! Ik ben gevallen en kan niet meer opstaan. Bel een ambulance! Ik heb pijn op de borst, ik krijg geen lucht.",
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
    short: &["się", "mi", "na", "nie"],
    harmless: &[],
    yes: &["tak", "tak proszę", "dobrze", "zrób to", "powiadom ich", "ok"],
    no: &[
        "nie",
        "nie dziękuję",
        "stop",
        "anuluj",
        "fałszywy alarm",
        "wszystko dobrze",
    ],
    prompt: "Pomocy! Upadłem i nie mogę wstać. Wezwij karetkę! Boli mnie w klatce piersiowej, nie mogę oddychać.",
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
    short: &["eu", "me", "uma", "um", "a", "o", "de", "para"],
    harmless: &[],
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
    prompt: "Socorro! Caí e não consigo levantar-me. Chame uma ambulância! Tenho dor no peito, não consigo respirar.",
};

/// The phrases of a language; English for any other.
pub(super) fn phrases(language: &str) -> &'static Phrases {
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
pub(super) fn words(text: &str) -> String {
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
pub(super) fn contains_words(text: &str, phrase: &str) -> bool {
    let (text, phrase) = (format!(" {text} "), format!(" {phrase} "));
    text.contains(&phrase)
}

/// What is left of `text` once every occurrence of the listed phrases (longest first) is taken out.
pub(super) fn without(text: &str, phrases: &[&[&str]]) -> String {
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

/// Whether `heard` (as [`words`] gives it) is `alone` phrases with fillers around them, word for word.
pub(super) fn alone_call(heard: &str, p: &Phrases) -> bool {
    p.alone.iter().any(|phrase| contains_words(heard, &words(phrase)))
        && without(heard, &[p.alone, p.filler]).is_empty()
}

/// Whether `heard` holds a phrase of `p`, word for word.
pub(super) fn exact_call(heard: &str, p: &Phrases) -> bool {
    p.anywhere.iter().any(|phrase| contains_words(heard, &words(phrase))) || alone_call(heard, p)
}

/// A person's answer to the question: `Some(true)` for yes, `Some(false)` for no, `None` when it is neither.
/// A no wins over a yes in the same answer ("yes, no, don't").
pub fn answer(text: &str, language: &str) -> Option<bool> {
    let heard = words(text);
    let p = phrases(language);
    let says = |list: &[&str]| list.iter().any(|phrase| contains_words(&heard, &words(phrase)));
    if says(p.no) {
        Some(false)
    } else if says(p.yes) || [p, &EN].iter().any(|p| exact_call(&heard, p)) {
        // Calling for help again is a yes.
        Some(true)
    } else {
        None
    }
}

/// The question, in `language` and the person's form of address.
pub fn question(language: &str, informal: bool) -> String {
    Words::new(language, informal).get("help-question")
}

/// What the second hearing gives the recogniser as the text said before the utterance, in `language`.
pub fn prompt(language: &str) -> &'static str {
    phrases(language).prompt
}

/// The answer to a no, in `language`.
pub fn declined(language: &str) -> String {
    Words::formal(language).get("help-declined")
}

/// The question again, after an answer that is neither yes nor no.
pub fn again(language: &str, informal: bool) -> String {
    Words::new(language, informal).get("help-again")
}

#[cfg(test)]
mod tests {
    use super::*;

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
        for language in crate::config::languages() {
            assert!(
                !question(language, false).is_empty() && !declined(language).is_empty(),
                "{language}"
            );
            for informal in [false, true] {
                assert!(
                    again(language, informal).ends_with(&question(language, informal)),
                    "{language}"
                );
            }
        }
    }
}
