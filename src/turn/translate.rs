//! Translation of a transcript into the target language by the LLM (for voice turns when the spoken language
//! is detected rather than fixed and differs from the target).

use super::chat::model_for;
use super::fallback::walk;
use super::prompt::language_name;
use super::provider_error;
use crate::app::App;
use crate::config::route::Route;
use crate::config::runtime::Effective;
use crate::error::Result;
use crate::providers::ProviderError;
use crate::providers::llm::{ChatMessage, ChatRequest, collect};

/// Translates `text` from `from` into the route's language with the route's LLM (and its fallbacks).
pub async fn translate(app: &App, eff: &Effective, route: &Route, text: &str, from: &str) -> Result<String> {
    let instruction = format!(
        "Translate the user's message from {} into {}. Answer with the translation only, nothing else.",
        language_name(from),
        language_name(&route.language)
    );
    let order = super::order(&app.providers.llm, route, route.llm, &app.settings.fallbacks.llm);
    if order.is_empty() {
        return Err(super::kept_at_home(route));
    }
    let instruction = &instruction;
    let answered = walk(
        app,
        &order,
        || format!("LLM provider {}", route.llm),
        |n, id| async move {
            let engine = app.providers.llm.get(id);
            let model = model_for(eff, route, n, id);
            let request = ChatRequest {
                model,
                messages: vec![
                    ChatMessage::new("system", instruction.clone()),
                    ChatMessage::new("user", text),
                ],
                temperature: Some(0.0),
                tools: Vec::new(),
                max_tokens: Some(300),
            };
            let answer = match engine.chat(request).await {
                Ok(stream) => collect(stream).await,
                Err(err) => Err(err),
            };
            Some(match answer {
                Ok((translated, _)) if !translated.trim().is_empty() => Ok(translated.trim().to_string()),
                Ok(_) => Err(ProviderError::failed(id.as_str(), "returned an empty translation").into()),
                Err(err) => Err(err.into()),
            })
        },
    )
    .await
    .map_err(provider_error)?;
    Ok(answered.value)
}
