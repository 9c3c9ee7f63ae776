//! Which languages the route's model answers in, and what a person asking in another one is told. The engine
//! says what it knows of its model (the engines' model its languages: `engines/engines.py` knows its files); a
//! preset names its model's; a model of neither is not judged.

use serde_json::Value;

use super::chat::model_for;
use crate::app::App;
use crate::config::keys::Key;
use crate::config::route::Route;
use crate::config::runtime::Effective;
use crate::providers::LlmId;

/// The route's model's name and languages, when they are known.
pub fn of_route(app: &App, eff: &Effective, route: &Route) -> Option<(String, Vec<String>)> {
    of_model(app, route.llm, &model_for(eff, route, 0, route.llm))
}

/// The name and languages of `provider`'s `model`, when they are known.
pub fn of_model(app: &App, provider: LlmId, model: &str) -> Option<(String, Vec<String>)> {
    if let Some(known) = app.providers.llm.get(provider).known_model(model) {
        return Some(known);
    }
    let key = Key::model_of(provider);
    app.settings
        .model_presets
        .iter()
        .find(|p| !p.languages.is_empty() && p.values.get(key.as_str()).and_then(Value::as_str) == Some(model))
        .map(|p| (p.label.clone(), p.languages.clone()))
}

/// The notice for a question in the route's language when its model does not answer in it.
pub fn notice(app: &App, eff: &Effective, route: &Route) -> Option<String> {
    let (name, languages) = of_route(app, eff, route)?;
    (!languages.contains(&route.language)).then(|| cannot_answer(&route.language, &name))
}

/// "The model cannot answer in this language", in that language.
pub fn cannot_answer(language: &str, model: &str) -> String {
    match language {
        "de" => format!(
            "Das Sprachmodell {model} kann kein Deutsch: Die Antwort kommt wohl auf Englisch oder ergibt keinen Sinn. \
             Wer den Assistenten betreibt, kann ein Modell einrichten, das Deutsch kann."
        ),
        "fr" => format!(
            "Le modèle de langue {model} ne parle pas français : la réponse sera sans doute en anglais ou sans \
             queue ni tête. La personne qui gère l'assistant peut installer un modèle qui parle français."
        ),
        "es" => format!(
            "El modelo de lenguaje {model} no habla español: la respuesta probablemente llegará en inglés o no \
             tendrá sentido. Quien administra el asistente puede instalar un modelo que hable español."
        ),
        "it" => format!(
            "Il modello linguistico {model} non parla italiano: la risposta sarà probabilmente in inglese o senza \
             senso. Chi gestisce l'assistente può installare un modello che parla italiano."
        ),
        "nl" => format!(
            "Het taalmodel {model} spreekt geen Nederlands: het antwoord komt waarschijnlijk in het Engels of slaat \
             nergens op. Wie de assistent beheert, kan een model installeren dat Nederlands spreekt."
        ),
        "pl" => format!(
            "Model językowy {model} nie mówi po polsku: odpowiedź będzie pewnie po angielsku albo bez sensu. Osoba, \
             która prowadzi asystenta, może zainstalować model mówiący po polsku."
        ),
        "pt" => format!(
            "O modelo de linguagem {model} não fala português: a resposta virá provavelmente em inglês ou sem \
             sentido. Quem gere o assistente pode instalar um modelo que fale português."
        ),
        _ => format!(
            "The language model {model} does not answer in this language: the answer will probably be in another \
             one or make no sense. Whoever runs the assistant can set up a model that speaks it."
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_says_it_in_its_own_words_with_the_models_name() {
        for language in ["de", "fr", "es", "it", "nl", "pl", "pt"] {
            let said = cannot_answer(language, "SmolLM2-135M-Instruct");
            assert!(said.contains("SmolLM2-135M-Instruct"), "{said}");
            assert_ne!(said, cannot_answer("en", "SmolLM2-135M-Instruct"), "{language}");
        }
        assert!(cannot_answer("de", "X").contains("kein Deutsch"));
    }
}
