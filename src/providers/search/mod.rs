//! Web search: the trait, a result, and the engines by id (SearXNG's JSON API, Tavily, Brave).

mod brave;
mod searxng;
mod tavily;

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use serde::Serialize;

use super::ProviderError;
use crate::config::ProviderSettings;

/// Results asked of a search engine per query: enough for an answer, few enough for a small model's context.
pub const MAX_RESULTS: usize = 5;
/// Longest snippet passed to the model, in characters.
const SNIPPET_CHARS: usize = 500;

/// One hit.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SearchResult {
    /// Page title.
    pub title: String,
    /// Source address (becomes a citation).
    pub url: String,
    /// The engine's excerpt of the page.
    pub snippet: String,
}

impl SearchResult {
    /// A hit with its snippet shortened; `None` without a usable http(s) address.
    fn new(title: Option<&str>, url: Option<&str>, snippet: Option<&str>) -> Option<Self> {
        let url = url?.trim();
        if !(url.starts_with("https://") || url.starts_with("http://")) {
            return None;
        }
        Some(Self {
            title: title.unwrap_or_default().trim().to_string(),
            url: url.to_string(),
            snippet: snippet.unwrap_or_default().trim().chars().take(SNIPPET_CHARS).collect(),
        })
    }
}

/// The usable hits of an engine's result list (at most [`MAX_RESULTS`]); `snippet` names its excerpt field.
fn hits(items: &[serde_json::Value], snippet: &str) -> Vec<SearchResult> {
    items
        .iter()
        .filter_map(|r| SearchResult::new(r["title"].as_str(), r["url"].as_str(), r[snippet].as_str()))
        .take(MAX_RESULTS)
        .collect()
}

/// A web-search engine.
#[async_trait]
pub trait Search: Send + Sync {
    /// Whether the engine has what it needs (an address or a key).
    fn configured(&self) -> bool;
    /// Searches the web; `language` narrows the results where the engine allows it.
    async fn search(&self, query: &str, language: &str) -> Result<Vec<SearchResult>, ProviderError>;
}

/// The engines of this stage.
pub fn engines(p: &ProviderSettings, http: &reqwest::Client) -> HashMap<&'static str, Arc<dyn Search>> {
    HashMap::from([
        (
            "searxng",
            Arc::new(searxng::Searxng::new(p.searxng_url.clone(), http.clone())) as Arc<dyn Search>,
        ),
        (
            "tavily",
            Arc::new(tavily::Tavily::new(
                &p.tavily_url,
                p.tavily_api_key.clone(),
                http.clone(),
            )) as Arc<dyn Search>,
        ),
        (
            "brave",
            Arc::new(brave::Brave::new(&p.brave_url, p.brave_api_key.clone(), http.clone())) as Arc<dyn Search>,
        ),
    ])
}
