//! Language models: the chat types, the streamed answer, and the engines by id.
//!
//! Both engines (`local`, `cloud`) speak OpenAI-compatible chat completions; they differ in address, key and
//! which model names make sense, so one implementation serves both.

pub mod local;
mod openai;
pub mod sse;

use std::sync::Arc;

use async_trait::async_trait;
use serde::Serialize;
use serde_json::Value;
use tokio::sync::mpsc;

use super::registry::{Engine, registry};
use super::{Origin, ProviderError};
use crate::providers::Build;

registry! {
    /// A language-model provider.
    LlmId: Llm, dyn Llm {
        /// A local OpenAI-compatible server (Ollama, llama.cpp server, vLLM), following the switchable backend.
        Local = "local" => local_engine,
        /// A cloud OpenAI-compatible service (OpenRouter by default); refuses to run without a key.
        Cloud = "cloud" => cloud_engine,
    }
}

/// One message of a chat request.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ChatMessage {
    /// `system`, `user`, `assistant` or `tool`.
    pub role: String,
    /// The text; absent on an assistant message that only calls tools.
    pub content: Option<String>,
    /// Tool calls of an assistant message.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// Which call a `tool` message answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

impl ChatMessage {
    /// A plain message of a role.
    pub fn new(role: &str, content: impl Into<String>) -> Self {
        Self {
            role: role.to_string(),
            content: Some(content.into()),
            tool_calls: Vec::new(),
            tool_call_id: None,
        }
    }

    /// The result of a tool call, sent back to the model.
    pub fn tool_result(call_id: &str, content: impl Into<String>) -> Self {
        Self {
            tool_call_id: Some(call_id.to_string()),
            ..Self::new("tool", content)
        }
    }

    /// The assistant's turn that asked for tools (repeated in the follow-up request, as the protocol wants).
    pub fn tool_calls(calls: Vec<ToolCall>) -> Self {
        Self {
            role: "assistant".into(),
            content: None,
            tool_calls: calls,
            tool_call_id: None,
        }
    }
}

/// A function call the model asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The call's id, quoted back in the tool result.
    pub id: String,
    /// Function name.
    pub name: String,
    /// Arguments as the JSON text the model wrote.
    pub arguments: String,
}

/// In OpenAI's shape: `{"id", "type": "function", "function": {"name", "arguments"}}`.
impl Serialize for ToolCall {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Call<'a> {
            id: &'a str,
            #[serde(rename = "type")]
            kind: &'static str,
            function: Function<'a>,
        }
        #[derive(Serialize)]
        struct Function<'a> {
            name: &'a str,
            arguments: &'a str,
        }
        let function = Function {
            name: &self.name,
            arguments: &self.arguments,
        };
        Call {
            id: &self.id,
            kind: "function",
            function,
        }
        .serialize(s)
    }
}

/// A function the model may call; serialized as OpenAI's `function` object.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Tool {
    /// Function name.
    pub name: &'static str,
    /// What it does, for the model.
    pub description: &'static str,
    /// JSON schema of its arguments.
    pub parameters: Value,
}

/// One request to a language model.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest {
    /// Model name.
    pub model: String,
    /// The conversation, system message first.
    pub messages: Vec<ChatMessage>,
    /// Sampling temperature.
    pub temperature: Option<f64>,
    /// Functions offered; empty = none.
    pub tools: Vec<Tool>,
    /// Longest answer in tokens, so a model caught in a loop stops.
    pub max_tokens: Option<u32>,
}

/// What the provider reported about a finished answer.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Usage {
    /// Tokens of the request.
    pub prompt_tokens: u64,
    /// Tokens of the answer.
    pub completion_tokens: u64,
    /// Money charged, when the provider says (OpenRouter's `usage.cost`).
    pub cost: Option<f64>,
}

/// A piece of a streamed answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Delta {
    /// Text as the model writes it.
    Token(String),
    /// The model wants these functions called; sent once, complete, when the answer ends.
    ToolCalls(Vec<ToolCall>),
    /// Token counts and cost, from the last chunk.
    Usage(Usage),
}

/// The answer as it arrives. Dropping it stops reading and closes the connection.
pub struct LlmStream {
    rx: mpsc::Receiver<Result<Delta, ProviderError>>,
}

impl LlmStream {
    /// A stream fed by a channel (engines spawn a reader that sends into it).
    pub fn new(rx: mpsc::Receiver<Result<Delta, ProviderError>>) -> Self {
        Self { rx }
    }

    /// The next piece; `None` when the answer is complete.
    pub async fn next(&mut self) -> Option<Result<Delta, ProviderError>> {
        self.rx.recv().await
    }

    /// The next piece that has already arrived, without waiting.
    pub fn try_next(&mut self) -> Option<Result<Delta, ProviderError>> {
        self.rx.try_recv().ok()
    }
}

/// A language model; every answer streams.
#[async_trait]
pub trait Llm: Engine {
    /// Starts an answer. Errors before the first byte of the answer are returned here; later ones arrive in
    /// the stream.
    async fn chat(&self, request: ChatRequest) -> Result<LlmStream, ProviderError>;
    /// The models the server offers now (`GET …/models`), as it describes them.
    async fn models(&self, timeout: std::time::Duration) -> Result<Vec<Value>, ProviderError>;
    /// What the engine knows of its model `name`: the model's own name and the languages it answers in
    /// (`None`: nothing known, and so not judged).
    fn known_model(&self, _name: &str) -> Option<(String, Vec<String>)> {
        None
    }
}

/// The registry's builder of `local`: the address follows the switchable backend.
fn local_engine(b: &Build<'_>) -> Arc<dyn Llm> {
    let origin = Origin::new(LlmId::Local.as_str(), "LOCAL_LLM_URL");
    Arc::new(
        openai::OpenAiChat::new(origin, openai::Base::Local(b.local.clone()), None, b.http.clone())
            .languages(b.languages)
            .serving(b.settings.served_model.clone()),
    )
}

/// The registry's builder of `cloud`.
fn cloud_engine(b: &Build<'_>) -> Arc<dyn Llm> {
    let p = b.settings;
    let origin = Origin::new(LlmId::Cloud.as_str(), "CLOUD_LLM_URL");
    let base = openai::Base::Fixed(p.cloud_llm_url.clone());
    let chat = openai::OpenAiChat::new(origin, base, p.cloud_llm_api_key.clone(), b.http.clone());
    Arc::new(chat.requiring_key("CLOUD_LLM_API_KEY").languages(b.languages))
}

/// Collects a whole answer (text and usage) from a stream; for background work that needs no tokens.
pub async fn collect(mut stream: LlmStream) -> Result<(String, Option<Usage>), ProviderError> {
    let mut text = String::new();
    let mut usage = None;
    while let Some(delta) = stream.next().await {
        match delta? {
            Delta::Token(t) => text.push_str(&t),
            Delta::Usage(u) => usage = Some(u),
            Delta::ToolCalls(_) => {}
        }
    }
    Ok((text, usage))
}
