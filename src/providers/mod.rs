//! Speech-to-text, language-model, text-to-speech and web-search providers.
//!
//! Each stage has a trait in its module (`llm`, `stt`, `tts`, `search`) and one file per engine, registered
//! there with one line (see [`registry`]). Every network engine speaks its servers' real protocol.
//! [`Providers`] builds all engines from the settings once at start and hands them out by typed id; the turn
//! walks a stage's fallback chain through it.

pub mod audio;
pub mod breakers;
pub mod decode;
pub mod encode;
pub mod g711;
pub mod llm;
pub mod opus;
pub mod registry;
pub mod resample;
pub mod search;
mod settings;
pub mod stt;
pub mod tts;

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use utoipa::ToSchema;

pub use llm::LlmId;
pub use registry::{Capabilities, ProviderId, Stage, chain};
use registry::{Engine, Engines, UnknownProvider};
pub use search::SearchId;
pub use settings::{ProviderSettings, ServedModel};
pub use stt::SttId;
pub use tts::TtsId;

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
    /// Every provider of the stage is failing: their circuit breakers are open ([`breakers`]).
    #[error("{0}")]
    Unavailable(String),
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
    pub fn from_http(origin: Origin<'_>, err: &reqwest::Error) -> Self {
        let provider = origin.id;
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
        let hint = origin.setting.map(|s| format!("; check {s}")).unwrap_or_default();
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

/// Who made a provider call: the id errors name, and the setting that holds its address (named as the thing
/// to check when the address cannot be reached).
#[derive(Debug, Clone, Copy)]
pub struct Origin<'a> {
    /// The provider (or backend) id.
    pub id: &'a str,
    /// The setting of its address.
    pub setting: Option<&'a str>,
}

impl<'a> Origin<'a> {
    /// A provider whose address is set by `setting`.
    pub const fn new(id: &'a str, setting: &'a str) -> Self {
        Self {
            id,
            setting: Some(setting),
        }
    }
}

/// Checks the status of a provider's answer; an error status becomes a `Failed` naming the provider, with the
/// start of the body (providers put the reason there).
pub async fn check_status(origin: Origin<'_>, response: reqwest::Response) -> Result<reqwest::Response, ProviderError> {
    let status = response.status();
    if status.is_success() {
        return Ok(response);
    }
    let body = response.text().await.unwrap_or_default();
    let reason: String = body.chars().take(200).collect();
    Err(ProviderError::failed(
        origin.id,
        format!("answered HTTP {}: {}", status.as_u16(), reason.trim()),
    ))
}

/// Sends a provider request and reads its JSON answer; every failure names the provider.
pub async fn send_json(origin: Origin<'_>, call: reqwest::RequestBuilder) -> Result<serde_json::Value, ProviderError> {
    let response = call.send().await.map_err(|e| ProviderError::from_http(origin, &e))?;
    check_status(origin, response)
        .await?
        .json()
        .await
        .map_err(|e| ProviderError::from_http(origin, &e))
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

/// What an engine is built from.
pub struct Build<'a> {
    /// Addresses, keys and models.
    pub settings: &'a ProviderSettings,
    /// The shared HTTP client.
    pub http: &'a reqwest::Client,
    /// The switchable local LLM backend.
    pub local: &'a Arc<llm::local::LocalBackend>,
    /// The gateway's languages.
    pub languages: &'static [&'static str],
}

impl Stage {
    /// The ids of this stage's providers, in registration order.
    pub fn ids(self) -> &'static [&'static str] {
        match self {
            Self::Stt => SttId::NAMES,
            Self::Llm => LlmId::NAMES,
            Self::Tts => TtsId::NAMES,
            Self::Search => SearchId::NAMES,
        }
    }

    /// Checks a provider name of this stage: its canonical id, or an error naming the valid ones.
    pub fn parse(self, name: &str) -> Result<&'static str, UnknownProvider> {
        let name = name.trim();
        self.ids()
            .iter()
            .find(|id| **id == name)
            .copied()
            .ok_or_else(|| UnknownProvider {
                stage: self,
                name: name.to_string(),
            })
    }
}

/// Every engine, built once from the settings, by typed id.
pub struct Providers {
    /// Language models.
    pub llm: Engines<LlmId, dyn llm::Llm>,
    /// Speech-to-text engines.
    pub stt: Engines<SttId, dyn stt::Stt>,
    /// Text-to-speech engines.
    pub tts: Engines<TtsId, dyn tts::Tts>,
    /// Web-search engines.
    pub search: Engines<SearchId, dyn search::Search>,
    /// The switchable local LLM backend (which server the `local` engine talks to; not an engine itself).
    pub local: Arc<llm::local::LocalBackend>,
    /// The shared HTTP client (for admin calls to the providers' native endpoints).
    pub http: reqwest::Client,
}

/// One provider as the registry describes it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ProviderInfo {
    /// Its id.
    pub id: &'static str,
    /// Its stage.
    pub stage: Stage,
    /// What it can do.
    #[serde(flatten)]
    pub capabilities: Capabilities,
}

impl Providers {
    /// Builds the engines of every stage; `timeout` is the longest a provider call may take, `languages` the
    /// gateway's languages.
    pub fn new(p: &ProviderSettings, timeout: Duration, languages: &'static [&'static str]) -> Self {
        let http = http_client(timeout);
        let local = Arc::new(llm::local::LocalBackend::new(p));
        let build = Build {
            settings: p,
            http: &http,
            local: &local,
            languages,
        };
        Self {
            llm: llm::engines(&build),
            stt: stt::engines(&build),
            tts: tts::engines(&build),
            search: search::engines(&build),
            local,
            http,
        }
    }

    /// Every provider of every stage with its capabilities, stage by stage in registration order.
    pub fn list(&self) -> Vec<ProviderInfo> {
        fn infos<I: ProviderId, E: Engine + ?Sized>(engines: &Engines<I, E>) -> impl Iterator<Item = ProviderInfo> {
            engines.iter().map(|(id, engine)| ProviderInfo {
                id: id.name(),
                stage: I::STAGE,
                capabilities: engine.capabilities(),
            })
        }
        infos(&self.stt)
            .chain(infos(&self.llm))
            .chain(infos(&self.tts))
            .chain(infos(&self.search))
            .collect()
    }
}
