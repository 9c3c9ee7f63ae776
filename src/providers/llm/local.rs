//! The local LLM backend (`ollama` or `llamacpp`) and its address. An admin may switch it at runtime; the
//! choice is kept in the override table so that it survives a restart.

use std::sync::RwLock;

use crate::providers::ProviderSettings;

/// Backends the local provider can run on.
pub const BACKENDS: [&str; 2] = ["ollama", "llamacpp"];

/// The setting that holds a backend's address.
pub fn url_setting(backend: &str) -> &'static str {
    if backend == "llamacpp" {
        "LLAMACPP_URL"
    } else {
        "OLLAMA_URL"
    }
}

/// The active local backend.
#[derive(Debug)]
pub struct LocalBackend {
    current: RwLock<String>,
    configured: String,
    configured_url: String,
    ollama_url: String,
    llamacpp_url: String,
}

impl LocalBackend {
    /// The backend of the settings.
    pub fn new(p: &ProviderSettings) -> Self {
        Self {
            current: RwLock::new(p.local_llm_backend.clone()),
            configured: p.local_llm_backend.clone(),
            configured_url: p.local_llm_url.trim_end_matches('/').to_string(),
            ollama_url: p.ollama_url.trim_end_matches('/').to_string(),
            llamacpp_url: p.llamacpp_url.trim_end_matches('/').to_string(),
        }
    }

    /// The active backend's name.
    pub fn name(&self) -> String {
        self.current
            .read()
            .map(|c| c.clone())
            .unwrap_or_else(|_| self.configured.clone())
    }

    /// Switches to a backend of [`BACKENDS`].
    pub fn set(&self, backend: &str) {
        if let Ok(mut current) = self.current.write() {
            *current = backend.to_string();
        }
    }

    /// The OpenAI-compatible base (`…/v1`) of a backend: the configured one keeps `LOCAL_LLM_URL`.
    pub fn v1_url_of(&self, backend: &str) -> String {
        if backend == self.configured {
            self.configured_url.clone()
        } else {
            format!("{}/v1", self.server_url_of(backend))
        }
    }

    /// The server's own address (without `/v1`), for its native endpoints (`/api/ps`, `/props`).
    pub fn server_url_of(&self, backend: &str) -> String {
        if backend == self.configured {
            self.configured_url.trim_end_matches("/v1").to_string()
        } else if backend == "llamacpp" {
            self.llamacpp_url.trim_end_matches("/v1").to_string()
        } else {
            self.ollama_url.trim_end_matches("/v1").to_string()
        }
    }

    /// The active backend's OpenAI-compatible base.
    pub fn v1_url(&self) -> String {
        self.v1_url_of(&self.name())
    }
}
