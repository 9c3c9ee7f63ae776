//! Tavily: `POST {base}/search` with a bearer key and `{"query", "max_results"}`, answering
//! `{"results": [{"title", "url", "content"}]}`.

use async_trait::async_trait;
use secrecy::{ExposeSecret, SecretString};
use serde_json::json;

use super::{MAX_RESULTS, Search, SearchResult, hits};
use crate::providers::{ProviderError, send_json};

const ID: &str = "tavily";

/// The Tavily API.
pub struct Tavily {
    url: String,
    key: Option<SecretString>,
    http: reqwest::Client,
}

impl Tavily {
    /// The API at `base` (`TAVILY_URL`) with `TAVILY_API_KEY`.
    pub fn new(base: &str, key: Option<SecretString>, http: reqwest::Client) -> Self {
        Self {
            url: format!("{}/search", base.trim_end_matches('/')),
            key,
            http,
        }
    }
}

#[async_trait]
impl Search for Tavily {
    fn configured(&self) -> bool {
        self.key.is_some()
    }

    #[tracing::instrument(skip_all, fields(provider = ID))]
    async fn search(&self, query: &str, _language: &str) -> Result<Vec<SearchResult>, ProviderError> {
        let key = self
            .key
            .as_ref()
            .ok_or_else(|| ProviderError::NotConfigured("tavily (no TAVILY_API_KEY)".into()))?;
        let body = json!({"query": query, "max_results": MAX_RESULTS, "search_depth": "basic"});
        let call = self.http.post(&self.url).bearer_auth(key.expose_secret()).json(&body);
        let body = send_json(ID, call).await?;
        let results = body["results"]
            .as_array()
            .ok_or_else(|| ProviderError::failed(ID, "answer has no results list"))?;
        Ok(hits(results, "content"))
    }
}
