//! Speech-to-text, language-model, text-to-speech and web-search providers.
//!
//! Each stage has a trait in its module (`llm`, `stt`, `tts`, `search`) and one file per engine. Every network
//! engine speaks its servers' real protocol. [`Providers`] builds all engines from the settings once at start
//! and hands them out by id; the turn walks a stage's fallback chain through it.

pub mod audio;
pub mod llm;
pub mod resample;
pub mod search;
pub mod stt;
pub mod tts;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use crate::config::Settings;

/// How long connecting to any provider may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Why a provider call failed. The message is safe to show: it never holds a key or a request body.
#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    /// The provider lacks a setting it needs (an address, a key, a model file).
    #[error("{0} is not configured")]
    NotConfigured(String),
    /// The call failed: unreachable, timed out, an error status, or an answer that breaks the protocol.
    #[error("{provider} failed: {message}")]
    Failed {
        /// Provider id.
        provider: String,
        /// What went wrong, in a few words.
        message: String,
    },
    /// The caller asked for something the provider cannot do (unknown voice, language it cannot speak).
    #[error("{0}")]
    Unusable(String),
}

impl ProviderError {
    /// A failed call of `provider`.
    pub fn failed(provider: &str, message: impl Into<String>) -> Self {
        Self::Failed {
            provider: provider.to_string(),
            message: message.into(),
        }
    }

    /// Maps a transport error to a text that names the address tried (without credentials or query, which
    /// may carry a key) and the setting that chooses it: "local failed: could not connect to
    /// http://127.0.0.1:11434/v1/chat/completions (connection refused); check LOCAL_LLM_URL".
    pub fn from_http(provider: &str, err: &reqwest::Error) -> Self {
        let what = if err.is_timeout() {
            "timed out at"
        } else if err.is_connect() {
            "could not connect to"
        } else if err.is_decode() {
            "sent an answer that could not be read from"
        } else if err.is_body() {
            "broke off its answer from"
        } else {
            "request failed to"
        };
        let Some(url) = err.url() else {
            return Self::failed(provider, what.rsplit_once(' ').map_or(what, |(w, _)| w));
        };
        let address = format!(
            "{}://{}{}",
            url.scheme(),
            url.host_str().unwrap_or_default(),
            url.port().map(|p| format!(":{p}")).unwrap_or_default()
        ) + url.path();
        let cause = io_cause(err).map(|c| format!(" ({c})")).unwrap_or_default();
        let hint = setting_for(provider, url.path())
            .map(|s| format!("; check {s}"))
            .unwrap_or_default();
        Self::failed(provider, format!("{what} {address}{cause}{hint}"))
    }
}

/// The operating system's reason under a transport error ("connection refused"), if there is one.
fn io_cause(err: &reqwest::Error) -> Option<String> {
    let mut source = std::error::Error::source(err);
    while let Some(inner) = source {
        if let Some(io) = inner.downcast_ref::<std::io::Error>() {
            return Some(
                match io.kind() {
                    std::io::ErrorKind::ConnectionRefused => "connection refused",
                    std::io::ErrorKind::ConnectionReset => "connection reset",
                    std::io::ErrorKind::TimedOut => "timed out",
                    std::io::ErrorKind::NotFound => "host not found",
                    _ => return Some(io.kind().to_string()),
                }
                .to_string(),
            );
        }
        source = inner.source();
    }
    None
}

/// The setting that holds a provider's address.
fn setting_for(provider: &str, path: &str) -> Option<&'static str> {
    Some(match provider {
        "local" => "LOCAL_LLM_URL",
        "cloud" => "CLOUD_LLM_URL",
        "openai" if path.ends_with("/audio/transcriptions") => "OPENAI_STT_URL",
        "openai" if path.ends_with("/audio/speech") => "OPENAI_TTS_URL",
        "searxng" => "SEARXNG_URL",
        "brave" => "BRAVE_URL",
        "tavily" => "TAVILY_URL",
        "ollama" => "OLLAMA_URL",
        "llamacpp" => "LLAMACPP_URL",
        _ => return None,
    })
}

/// Checks the status of a provider's answer; an error status becomes a `Failed` naming the provider, with the
/// start of the body (providers put the reason there).
pub async fn check_status(provider: &str, response: reqwest::Response) -> Result<reqwest::Response, ProviderError> {
    let status = response.status();
    if status.is_success() {
        return Ok(response);
    }
    let body = response.text().await.unwrap_or_default();
    let reason: String = body.chars().take(200).collect();
    Err(ProviderError::failed(
        provider,
        format!("answered HTTP {}: {}", status.as_u16(), reason.trim()),
    ))
}

/// Sends a provider request and reads its JSON answer; every failure names the provider.
pub async fn send_json(provider: &str, call: reqwest::RequestBuilder) -> Result<serde_json::Value, ProviderError> {
    let response = call.send().await.map_err(|e| ProviderError::from_http(provider, &e))?;
    check_status(provider, response)
        .await?
        .json()
        .await
        .map_err(|e| ProviderError::from_http(provider, &e))
}

/// The HTTP client shared by all network providers: one connection pool, a connect timeout, and a total
/// timeout that each request may shorten.
pub fn http_client(total: Duration) -> reqwest::Client {
    reqwest::Client::builder()
        .connect_timeout(CONNECT_TIMEOUT)
        .timeout(total)
        .user_agent(concat!("voice-gateway/", env!("CARGO_PKG_VERSION")))
        .build()
        .expect("the HTTP client builds with static settings")
}

/// Every engine, built once from the settings.
pub struct Providers {
    /// Language models by id.
    pub llm: HashMap<&'static str, Arc<dyn llm::Llm>>,
    /// Speech-to-text engines by id.
    pub stt: HashMap<&'static str, Arc<dyn stt::Stt>>,
    /// Text-to-speech engines by id.
    pub tts: HashMap<&'static str, Arc<dyn tts::Tts>>,
    /// Web-search engines by id.
    pub search: HashMap<&'static str, Arc<dyn search::Search>>,
    /// The switchable local LLM backend.
    pub local: Arc<llm::local::LocalBackend>,
    /// Piper, also in `tts`: its voices for the menu and the status.
    pub piper: Arc<tts::piper::Piper>,
    /// The shared HTTP client (for admin calls to the providers' native endpoints).
    pub http: reqwest::Client,
}

impl Providers {
    /// Builds the engines of every stage from the settings.
    pub fn from_settings(settings: &Settings) -> Self {
        let http = http_client(Duration::from_secs(settings.provider_timeout_secs));
        let p = &settings.providers;
        let local = Arc::new(llm::local::LocalBackend::new(p));
        let piper = Arc::new(tts::piper::Piper::new(p, http.clone()));
        Self {
            llm: llm::engines(p, &local, &http),
            stt: stt::engines(p, &http),
            tts: tts::engines(p, &http, piper.clone()),
            search: search::engines(p, &http),
            local,
            piper,
            http,
        }
    }
}

/// The provider to use first, then the stage's fallbacks in their order, each once.
pub fn chain<'a>(first: &'a str, fallbacks: &'a [String]) -> Vec<&'a str> {
    let mut order = vec![first];
    for id in fallbacks {
        if !order.contains(&id.as_str()) {
            order.push(id);
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chain_starts_with_the_choice_and_skips_repeats() {
        let fallbacks = vec!["cloud".to_string(), "local".to_string()];
        assert_eq!(chain("local", &fallbacks), vec!["local", "cloud"]);
        assert_eq!(chain("cloud", &[]), vec!["cloud"]);
    }
}
