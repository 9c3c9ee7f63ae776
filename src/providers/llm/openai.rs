//! OpenAI-compatible chat completions (`POST {base}/chat/completions`) with SSE streaming, tool calls and the
//! usage chunk (`stream_options.include_usage`). Ollama, llama.cpp server, vLLM, OpenRouter and OpenAI all
//! speak it. A server that ignores `stream` and answers one JSON document is read as well.

use std::sync::Arc;

use async_trait::async_trait;
use secrecy::{ExposeSecret, SecretString};
use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::local::LocalBackend;
use super::sse::SseParser;
use super::{ChatMessage, ChatRequest, Delta, Llm, LlmStream, Tool, ToolCall, Usage};
use crate::providers::registry::{Capabilities, Cost, Engine, Setup, is_local_address};
use crate::providers::{Origin, ProviderError, ServedModel, check_status};

/// Where the server is: fixed, or wherever the switchable local backend is.
pub enum Base {
    /// A fixed `…/v1` address.
    Fixed(String),
    /// The active local backend.
    Local(Arc<LocalBackend>),
}

/// One OpenAI-compatible server.
pub struct OpenAiChat {
    origin: Origin<'static>,
    base: Base,
    key: Option<SecretString>,
    /// The setting of the key, for services that refuse calls without one.
    key_setting: Option<&'static str>,
    http: reqwest::Client,
    languages: Vec<String>,
    /// The engines' model, when the engines serve this one.
    served: Option<ServedModel>,
}

impl OpenAiChat {
    /// A server at `base` (ending in `/v1` or the like).
    pub fn new(origin: Origin<'static>, base: Base, key: Option<SecretString>, http: reqwest::Client) -> Self {
        Self {
            origin,
            base,
            key,
            key_setting: None,
            http,
            languages: Vec::new(),
            served: None,
        }
    }

    /// The model the engines serve here (they know its languages).
    pub fn serving(mut self, served: Option<ServedModel>) -> Self {
        self.served = served;
        self
    }

    /// The gateway's languages, which any chat model is asked in.
    pub fn languages(mut self, languages: &[&str]) -> Self {
        self.languages = languages.iter().map(|l| l.to_string()).collect();
        self
    }

    /// The server's `…/v1` address now.
    fn base_url(&self) -> String {
        match &self.base {
            Base::Fixed(url) => url.clone(),
            Base::Local(local) => local.v1_url(),
        }
    }

    /// Cloud services refuse calls without a key (set by `setting`): fail at once (and fall back) instead of
    /// asking.
    pub fn requiring_key(mut self, setting: &'static str) -> Self {
        self.key_setting = Some(setting);
        self
    }

    fn lacks_key(&self) -> bool {
        self.key_setting.is_some() && self.key.is_none()
    }

    fn body<'a>(&self, request: &'a ChatRequest) -> CompletionBody<'a> {
        let tools: Vec<FunctionTool<'a>> = request
            .tools
            .iter()
            .map(|t| FunctionTool {
                kind: "function",
                function: t,
            })
            .collect();
        CompletionBody {
            model: &request.model,
            messages: &request.messages,
            stream: true,
            stream_options: StreamOptions { include_usage: true },
            temperature: request.temperature,
            max_tokens: request.max_tokens,
            tool_choice: (!tools.is_empty()).then_some("auto"),
            tools,
        }
    }
}

/// The body of a chat completions request: always streamed, with the usage in the last chunk.
#[derive(Debug, Serialize)]
struct CompletionBody<'a> {
    model: &'a str,
    messages: &'a [ChatMessage],
    stream: bool,
    stream_options: StreamOptions,
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_tokens: Option<u32>,
    /// The functions offered; left out when none are.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<FunctionTool<'a>>,
    /// `auto` when tools are offered.
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_choice: Option<&'static str>,
}

/// `stream_options` of a request.
#[derive(Debug, Serialize)]
struct StreamOptions {
    include_usage: bool,
}

/// A tool offered to the model: `{"type": "function", "function": {name, description, parameters}}`.
#[derive(Debug, Serialize)]
struct FunctionTool<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    function: &'a Tool,
}

impl Engine for OpenAiChat {
    fn capabilities(&self) -> Capabilities {
        let local = is_local_address(&self.base_url());
        Capabilities {
            configured: !self.lacks_key(),
            streaming: true,
            local,
            languages: self.languages.clone(),
            voices: Vec::new(),
            sample_rates: Vec::new(),
            cost: Cost::PerToken.unless_local(local),
        }
    }

    fn setup(&self) -> Setup {
        let (url, backend) = match &self.base {
            Base::Fixed(url) => (url.clone(), None),
            Base::Local(local) => (local.v1_url(), Some(local.name())),
        };
        Setup {
            url: Some(url),
            backend,
            key_set: self.key_setting.map(|_| self.key.is_some()),
            ..Setup::default()
        }
    }

    fn missing(&self) -> Option<&'static str> {
        self.key_setting.filter(|_| self.lacks_key())
    }
}

#[async_trait]
impl Llm for OpenAiChat {
    #[tracing::instrument(skip_all, fields(provider = self.origin.id))]
    async fn models(&self, timeout: std::time::Duration) -> Result<Vec<Value>, ProviderError> {
        let url = format!("{}/models", self.base_url().trim_end_matches('/'));
        let mut call = self.http.get(url).timeout(timeout);
        if let Some(key) = &self.key {
            call = call.bearer_auth(key.expose_secret());
        }
        let body = crate::providers::send_json(self.origin, call).await?;
        match body.get("data").and_then(Value::as_array) {
            Some(list) => Ok(list.clone()),
            None => Err(ProviderError::failed(self.origin.id, "sent no model list")),
        }
    }

    fn known_model(&self, name: &str) -> Option<(String, Vec<String>)> {
        let served = self.served.as_ref().filter(|m| m.alias == name)?;
        Some((served.name.clone(), served.languages.clone()?))
    }

    #[tracing::instrument(skip_all, fields(provider = self.origin.id, model = %request.model))]
    async fn chat(&self, request: ChatRequest) -> Result<LlmStream, ProviderError> {
        if self.lacks_key() {
            return Err(ProviderError::NotConfigured(format!("{} (no API key)", self.origin.id)));
        }
        let url = format!("{}/chat/completions", self.base_url().trim_end_matches('/'));
        let mut call = self.http.post(url).json(&self.body(&request));
        if let Some(key) = &self.key {
            call = call.bearer_auth(key.expose_secret());
        }
        let response = call
            .send()
            .await
            .map_err(|e| ProviderError::from_http(self.origin, &e))?;
        let response = check_status(self.origin, response).await?;
        let (tx, rx) = mpsc::channel(64);
        let id = self.origin;
        let is_json = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/json"));
        if is_json {
            tokio::spawn(read_document(id, response, tx));
        } else {
            tokio::spawn(read_stream(id, response, tx));
        }
        Ok(LlmStream::new(rx))
    }
}

type Sender = mpsc::Sender<Result<Delta, ProviderError>>;

/// Reads SSE chunks until `[DONE]` or the end of the body, sending deltas as they come.
async fn read_stream(id: Origin<'static>, mut response: reqwest::Response, tx: Sender) {
    let mut parser = SseParser::default();
    let mut calls = CallBuilder::default();
    let mut finished = false;
    loop {
        // Stop at once when the caller is gone (an interrupted turn): dropping the response closes the
        // connection, so the server stops generating.
        let chunk = tokio::select! {
            () = tx.closed() => return,
            chunk = response.chunk() => chunk,
        };
        let (events, at_end) = match chunk {
            Ok(Some(bytes)) => (parser.push(&bytes), false),
            Ok(None) => (parser.finish(), true),
            Err(e) => {
                let _ = tx.send(Err(ProviderError::from_http(id, &e))).await;
                return;
            }
        };
        for data in events {
            if data == "[DONE]" {
                finish(&tx, &mut calls).await;
                return;
            }
            let chunk: Value = match serde_json::from_str(&data) {
                Ok(v) => v,
                Err(_) => {
                    let _ = tx
                        .send(Err(ProviderError::failed(id.id, "sent a chunk that is not JSON")))
                        .await;
                    return;
                }
            };
            finished |= chunk.pointer("/choices/0/finish_reason").is_some_and(Value::is_string);
            if let Err(e) = chunk_deltas(id.id, &chunk, &mut calls, &tx).await {
                let _ = tx.send(Err(e)).await;
                return;
            }
        }
        if at_end {
            if finished {
                finish(&tx, &mut calls).await;
            } else {
                // Neither `[DONE]` nor a finish reason: the connection was cut mid-answer. What arrived was
                // delivered; the cut is an error.
                let _ = tx
                    .send(Err(ProviderError::failed(
                        id.id,
                        "stream ended before the answer was complete",
                    )))
                    .await;
            }
            return;
        }
    }
}

async fn chunk_deltas(id: &str, chunk: &Value, calls: &mut CallBuilder, tx: &Sender) -> Result<(), ProviderError> {
    if let Some(err) = chunk.get("error") {
        let message = err
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("error in the stream");
        return Err(ProviderError::failed(id, message.chars().take(200).collect::<String>()));
    }
    if let Some(choice) = chunk.pointer("/choices/0") {
        let delta = &choice["delta"];
        if let Some(text) = delta.get("content").and_then(Value::as_str)
            && !text.is_empty()
        {
            send(tx, Delta::Token(text.to_string())).await;
        }
        if let Some(parts) = delta.get("tool_calls").and_then(Value::as_array) {
            for part in parts {
                calls.add(part);
            }
        }
    }
    if let Some(usage) = chunk.get("usage").filter(|u| u.is_object()) {
        send(tx, Delta::Usage(read_usage(usage))).await;
    }
    Ok(())
}

async fn finish(tx: &Sender, calls: &mut CallBuilder) {
    let done = std::mem::take(calls).build();
    if !done.is_empty() {
        send(tx, Delta::ToolCalls(done)).await;
    }
}

async fn send(tx: &Sender, delta: Delta) {
    // A closed receiver means the caller stopped listening (interrupt); the reader ends with the next send.
    let _ = tx.send(Ok(delta)).await;
}

/// Reads a non-streamed completion (`choices[0].message`).
async fn read_document(id: Origin<'static>, response: reqwest::Response, tx: Sender) {
    let doc: Value = match response.json().await {
        Ok(v) => v,
        Err(e) => {
            let _ = tx.send(Err(ProviderError::from_http(id, &e))).await;
            return;
        }
    };
    if let Some(err) = doc.get("error") {
        let message = err.get("message").and_then(Value::as_str).unwrap_or("error");
        let _ = tx.send(Err(ProviderError::failed(id.id, message.to_string()))).await;
        return;
    }
    let message = &doc["choices"][0]["message"];
    if let Some(text) = message.get("content").and_then(Value::as_str)
        && !text.is_empty()
    {
        send(&tx, Delta::Token(text.to_string())).await;
    }
    let mut calls = CallBuilder::default();
    for (index, call) in message["tool_calls"].as_array().into_iter().flatten().enumerate() {
        let mut part = call.clone();
        part["index"] = json!(index);
        calls.add(&part);
    }
    finish(&tx, &mut calls).await;
    if let Some(usage) = doc.get("usage").filter(|u| u.is_object()) {
        send(&tx, Delta::Usage(read_usage(usage))).await;
    }
}

fn read_usage(usage: &Value) -> Usage {
    Usage {
        prompt_tokens: usage["prompt_tokens"].as_u64().unwrap_or(0),
        completion_tokens: usage["completion_tokens"].as_u64().unwrap_or(0),
        cost: usage.get("cost").and_then(Value::as_f64),
    }
}

/// Tool calls arrive in fragments keyed by `index`: the id and name once, the arguments in pieces.
#[derive(Default)]
struct CallBuilder {
    calls: Vec<(u64, ToolCall)>,
}

impl CallBuilder {
    fn add(&mut self, part: &Value) {
        let index = part["index"].as_u64().unwrap_or(0);
        let pos = match self.calls.iter().position(|(i, _)| *i == index) {
            Some(pos) => pos,
            None => {
                let empty = ToolCall {
                    id: String::new(),
                    name: String::new(),
                    arguments: String::new(),
                };
                self.calls.push((index, empty));
                self.calls.len() - 1
            }
        };
        let call = &mut self.calls[pos].1;
        if let Some(id) = part["id"].as_str() {
            call.id = id.to_string();
        }
        if let Some(name) = part["function"]["name"].as_str() {
            call.name.push_str(name);
        }
        match &part["function"]["arguments"] {
            Value::String(args) => call.arguments.push_str(args),
            // Some servers send the arguments as an object instead of its JSON text.
            Value::Object(_) => call.arguments = part["function"]["arguments"].to_string(),
            _ => {}
        }
    }

    fn build(self) -> Vec<ToolCall> {
        self.calls
            .into_iter()
            .enumerate()
            .filter(|(_, (_, call))| !call.name.is_empty())
            .map(|(n, (_, mut call))| {
                if call.id.is_empty() {
                    call.id = format!("call_{n}");
                }
                call
            })
            .collect()
    }
}
