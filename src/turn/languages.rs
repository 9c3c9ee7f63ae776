//! Which languages the route's model answers in, and what a person asking in another one is told. The engine
//! says what it knows of its model (the engines' model its languages: `engines/engines.py` knows its files); a
//! preset names its model's; a model of neither is not judged.

use serde_json::Value;

use super::chat::model_for;
use crate::app::App;
use crate::config::keys::Key;
use crate::config::route::Route;
use crate::config::runtime::Effective;
use crate::phrasebook::Words;
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
    (!languages.contains(&route.language))
        .then(|| Words::formal(&route.language).with("turn-cannot-answer", &[("model", name.into())]))
}
