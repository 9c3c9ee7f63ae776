//! Tavily: `POST {base}/search` with a bearer key and `{"query", "max_results"}`, answering
//! `{"results": [{"title", "url", "content"}]}`.

use std::sync::Arc;

use async_trait::async_trait;
use secrecy::{ExposeSecret, SecretString};

use super::{MAX_RESULTS, Search, SearchId, SearchResult, hits};
use crate::providers::registry::Cost;
use crate::providers::{Build, Origin, ProviderError, send_json};

const ID: Origin = Origin::new(SearchId::Tavily.as_str(), "TAVILY_URL");

/// The registry's builder.
pub(super) fn build(b: &Build<'_>) -> Arc<dyn Search> {
    let p = b.settings;
    Arc::new(Tavily::new(&p.tavily_url, p.tavily_api_key.clone(), b.http.clone()))
}

super::describe!(Tavily, Cost::PerQuery);

/// The Tavily API.
pub struct Tavily {
    url: String,
    key: Option<SecretString>,
    http: reqwest::Client,
}

impl Tavily {
    /// Where it is asked.
    fn address(&self) -> Option<&str> {
        Some(&self.url)
    }

    /// The API at `base` (`TAVILY_URL`) with `TAVILY_API_KEY`.
    pub fn new(base: &str, key: Option<SecretString>, http: reqwest::Client) -> Self {
        Self {
            url: format!("{}/search", base.trim_end_matches('/')),
            key,
            http,
        }
    }
}

/// The body of Tavily's `/search`.
#[derive(Debug, serde::Serialize)]
struct SearchBody<'a> {
    query: &'a str,
    max_results: usize,
    /// `basic`: one credit a search.
    search_depth: &'static str,
}

#[async_trait]
impl Search for Tavily {
    fn configured(&self) -> bool {
        self.key.is_some()
    }

    #[tracing::instrument(skip_all, fields(provider = ID.id))]
    async fn search(&self, query: &str, _language: &str) -> Result<Vec<SearchResult>, ProviderError> {
        let key = self
            .key
            .as_ref()
            .ok_or_else(|| ProviderError::NotConfigured("tavily (no TAVILY_API_KEY)".into()))?;
        let body = SearchBody {
            query,
            max_results: MAX_RESULTS,
            search_depth: "basic",
        };
        let call = self.http.post(&self.url).bearer_auth(key.expose_secret()).json(&body);
        let body = send_json(ID, call).await?;
        let results = body["results"]
            .as_array()
            .ok_or_else(|| ProviderError::failed(ID.id, "answer has no results list"))?;
        Ok(hits(results, "content"))
    }
}
