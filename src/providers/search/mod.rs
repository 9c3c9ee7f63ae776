//! Web search: the trait, a result, and the engines by id (SearXNG's JSON API, Tavily, Brave).

mod brave;
mod searxng;
mod tavily;

use async_trait::async_trait;
use serde::Serialize;

use super::ProviderError;
pub use super::registry::Setup;
use super::registry::{Capabilities, Cost, Engine, is_local_address, registry};

registry! {
    /// A web-search provider.
    SearchId: Search, dyn Search {
        /// A SearXNG instance's JSON API.
        Searxng = "searxng" => searxng::build,
        /// Tavily's search API.
        Tavily = "tavily" => tavily::build,
        /// Brave's search API.
        Brave = "brave" => brave::build,
    }
}

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
pub trait Search: Engine {
    /// Whether the engine has what it needs (an address or a key).
    fn configured(&self) -> bool;
    /// Searches the web; `language` narrows the results where the engine allows it.
    async fn search(&self, query: &str, language: &str) -> Result<Vec<SearchResult>, ProviderError>;
}

/// What a search engine at `address` can do: results come whole, in any language; a service's queries cost
/// `cost`, one on this machine or network's nothing.
fn capabilities(configured: bool, address: Option<&str>, cost: Cost) -> Capabilities {
    let local = address.is_some_and(is_local_address);
    Capabilities {
        configured,
        streaming: false,
        local,
        languages: Vec::new(),
        voices: Vec::new(),
        sample_rates: Vec::new(),
        cost: cost.unless_local(local),
    }
}

/// The registry's description of a search engine type with an `address()` and `configured()`, whose queries
/// cost `$cost` (unless it runs locally).
macro_rules! describe {
    ($engine:ty, $cost:expr) => {
        impl $crate::providers::registry::Engine for $engine {
            fn capabilities(&self) -> $crate::providers::registry::Capabilities {
                super::capabilities(self.configured(), self.address(), $cost)
            }

            fn setup(&self) -> $crate::providers::registry::Setup {
                $crate::providers::registry::Setup {
                    configured: Some(self.configured()),
                    ..Default::default()
                }
            }
        }
    };
}
use describe;
