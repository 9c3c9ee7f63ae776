//! Brave Search: `GET {base}/web/search?q=…&count=…` with the key in `X-Subscription-Token`, answering
//! `{"web": {"results": [{"title", "url", "description"}]}}`.

use std::sync::Arc;

use async_trait::async_trait;
use secrecy::{ExposeSecret, SecretString};

use super::{MAX_RESULTS, Search, SearchId, SearchResult, hits};
use crate::providers::registry::Cost;
use crate::providers::{Build, Origin, ProviderError, send_json};

const ID: Origin = Origin::new(SearchId::Brave.as_str(), "BRAVE_URL");

/// The registry's builder.
pub(super) fn build(b: &Build<'_>) -> Arc<dyn Search> {
    let p = b.settings;
    Arc::new(Brave::new(&p.brave_url, p.brave_api_key.clone(), b.http.clone()))
}

super::describe!(Brave, Cost::PerQuery);

/// The Brave Search API.
pub struct Brave {
    url: String,
    key: Option<SecretString>,
    http: reqwest::Client,
}

impl Brave {
    /// Where it is asked.
    fn address(&self) -> Option<&str> {
        Some(&self.url)
    }

    /// The API at `base` (`BRAVE_URL`) with `BRAVE_API_KEY`.
    pub fn new(base: &str, key: Option<SecretString>, http: reqwest::Client) -> Self {
        Self {
            url: format!("{}/web/search", base.trim_end_matches('/')),
            key,
            http,
        }
    }
}

#[async_trait]
impl Search for Brave {
    fn configured(&self) -> bool {
        self.key.is_some()
    }

    #[tracing::instrument(skip_all, fields(provider = ID.id))]
    async fn search(&self, query: &str, language: &str) -> Result<Vec<SearchResult>, ProviderError> {
        let key = self
            .key
            .as_ref()
            .ok_or_else(|| ProviderError::NotConfigured("brave (no BRAVE_API_KEY)".into()))?;
        let count = MAX_RESULTS.to_string();
        let call = self
            .http
            .get(&self.url)
            .header("X-Subscription-Token", key.expose_secret())
            .header(reqwest::header::ACCEPT, "application/json")
            .query(&[("q", query), ("count", count.as_str()), ("search_lang", language)]);
        let body = send_json(ID, call).await?;
        let results = body["web"]["results"].as_array().map(Vec::as_slice).unwrap_or_default();
        Ok(hits(results, "description"))
    }
}
