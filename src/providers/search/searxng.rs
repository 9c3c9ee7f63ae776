//! SearXNG's JSON API: `GET {base}/search?q=…&format=json&language=…` (the instance must allow the `json`
//! format in its settings), answering `{"results": [{"url", "title", "content"}]}`.

use std::sync::Arc;

use async_trait::async_trait;

use super::{Search, SearchId, SearchResult, hits};
use crate::providers::registry::Cost;
use crate::providers::{Build, Origin, ProviderError, send_json};

const ID: Origin = Origin::new(SearchId::Searxng.as_str(), "SEARXNG_URL");

/// The registry's builder.
pub(super) fn build(b: &Build<'_>) -> Arc<dyn Search> {
    let p = b.settings;
    Arc::new(Searxng::new(p.searxng_url.clone(), b.http.clone()))
}

super::describe!(Searxng, Cost::Free);

/// A SearXNG instance.
pub struct Searxng {
    url: Option<String>,
    http: reqwest::Client,
}

impl Searxng {
    /// Where it is asked.
    fn address(&self) -> Option<&str> {
        self.url.as_deref()
    }

    /// The instance at `base` (`SEARXNG_URL`), if any.
    pub fn new(base: Option<String>, http: reqwest::Client) -> Self {
        Self {
            url: base.map(|b| format!("{}/search", b.trim_end_matches('/'))),
            http,
        }
    }
}

#[async_trait]
impl Search for Searxng {
    fn configured(&self) -> bool {
        self.url.is_some()
    }

    #[tracing::instrument(skip_all, fields(provider = ID.id))]
    async fn search(&self, query: &str, language: &str) -> Result<Vec<SearchResult>, ProviderError> {
        let url = self
            .url
            .as_ref()
            .ok_or_else(|| ProviderError::NotConfigured("searxng (no SEARXNG_URL)".into()))?;
        let call = self.http.get(url).query(&[
            ("q", query),
            ("format", "json"),
            ("language", language),
            ("safesearch", "1"),
        ]);
        let body = send_json(ID, call).await?;
        let results = body["results"]
            .as_array()
            .ok_or_else(|| ProviderError::failed(ID.id, "answer has no results list"))?;
        Ok(hits(results, "content"))
    }
}
