//! Short localized phrases of the voice channels.

/// The reassuring phrase sent while the first token is slow.
pub fn filler(language: &str) -> &'static str {
    match language {
        "de" => "Einen Moment, bitte.",
        "fr" => "Un instant, s'il vous plaît.",
        "es" => "Un momento, por favor.",
        "it" => "Un attimo, per favore.",
        "nl" => "Een ogenblik, alstublieft.",
        "pl" => "Chwileczkę.",
        "pt" => "Um momento, por favor.",
        _ => "One moment, please.",
    }
}

/// The request to speak again after an empty transcript.
pub fn speak_again(language: &str) -> &'static str {
    match language {
        "de" => "Ich habe nichts verstanden. Bitte sprich noch einmal.",
        "fr" => "Je n'ai rien compris. Pouvez-vous répéter, s'il vous plaît ?",
        "es" => "No he entendido nada. Por favor, habla otra vez.",
        "it" => "Non ho capito niente. Per favore, parla di nuovo.",
        "nl" => "Ik heb niets verstaan. Wil je het nog eens zeggen?",
        "pl" => "Nic nie zrozumiałem. Proszę powiedz to jeszcze raz.",
        "pt" => "Não percebi nada. Por favor, fale outra vez.",
        _ => "I didn't catch anything. Please say it again.",
    }
}
