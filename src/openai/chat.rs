//! `POST /v1/chat/completions`: a turn of the gateway in OpenAI's chat shape. The client keeps the
//! conversation and sends it whole; the gateway adds the user's system prompt, name and memories, resolves the
//! route from `model`, offers web search as its own tool, counts the quota and the cost, and answers as one
//! `chat.completion` or, with `stream`, as `chat.completion.chunk` events ending in `[DONE]`.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::mpsc;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::errors::{OpenAiErrorBody, V1Error};
use super::models::{DEFAULT_MODEL, layer_for};
use crate::app::{App, AppState};
use crate::auth::CurrentUser;
use crate::auth::access::OPENAI;
use crate::error::{ApiError, AppJson};
use crate::providers::llm::ChatMessage;
use crate::store::users::User;
use crate::turn::{self, TokenUsage, TurnEvent, TurnOutcome, TurnRequest};

/// The route.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(completions))
}

/// Body of `POST /v1/chat/completions`. Sampling fields (`temperature`, `max_tokens`, …) and client tools are
/// accepted and left to the gateway's settings.
#[derive(Debug, Deserialize, ToSchema)]
struct CompletionRequest {
    /// `default`, `local`, `cloud`, `local/<model>`, `cloud/<model>` or a preset id (see `/v1/models`).
    #[serde(default)]
    model: Option<String>,
    /// The conversation; the last message is the user's question.
    messages: Vec<InMessage>,
    /// Answer as server-sent events.
    #[serde(default)]
    stream: Option<bool>,
    /// `include_usage` adds a last chunk with the token counts.
    #[serde(default)]
    stream_options: Option<StreamOptions>,
}

/// One message of the conversation.
#[derive(Debug, Deserialize, ToSchema)]
struct InMessage {
    /// `system`, `developer`, `user` or `assistant`.
    role: String,
    /// A text, or text parts.
    #[serde(default)]
    content: Option<Content>,
}

/// A message's content.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(untagged)]
enum Content {
    /// Plain text.
    Text(String),
    /// Parts; only `text` parts are taken.
    Parts(Vec<Part>),
}

/// A part of a message's content.
#[derive(Debug, Deserialize, ToSchema)]
struct Part {
    /// `text`.
    #[serde(rename = "type")]
    kind: String,
    /// The text of a `text` part.
    #[serde(default)]
    text: Option<String>,
}

/// Options of a streamed answer.
#[derive(Debug, Default, Deserialize, ToSchema)]
struct StreamOptions {
    #[serde(default)]
    include_usage: bool,
}

/// A whole answer.
#[derive(Serialize, ToSchema)]
struct Completion {
    id: String,
    /// `chat.completion`.
    object: &'static str,
    created: u64,
    /// The model as requested.
    model: String,
    choices: Vec<Choice>,
    usage: Usage,
}

/// The one choice of an answer.
#[derive(Serialize, ToSchema)]
struct Choice {
    index: u32,
    message: OutMessage,
    /// `stop`.
    finish_reason: &'static str,
    #[schema(value_type = Option<Object>)]
    logprobs: Option<Value>,
}

/// The assistant's message.
#[derive(Serialize, ToSchema)]
struct OutMessage {
    /// `assistant`.
    role: &'static str,
    content: String,
    refusal: Option<String>,
}

/// One `chat.completion.chunk` of a streamed answer.
#[derive(Serialize)]
struct Chunk {
    id: String,
    /// `chat.completion.chunk`.
    object: &'static str,
    created: u64,
    /// The model as requested.
    model: String,
    /// The one choice; none in the usage chunk.
    choices: Vec<ChunkChoice>,
    /// Absent without `include_usage`; with it null, and the token counts in the last chunk.
    #[serde(skip_serializing_if = "Option::is_none")]
    usage: Option<Option<Usage>>,
}

/// The one choice of a chunk.
#[derive(Serialize)]
struct ChunkChoice {
    index: u32,
    delta: Delta,
    /// `stop` in the answer's last chunk.
    finish_reason: Option<&'static str>,
    logprobs: Option<Value>,
}

/// What a chunk adds to the answer: the role first, then text.
#[derive(Serialize, Default)]
struct Delta {
    #[serde(skip_serializing_if = "Option::is_none")]
    role: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    content: Option<String>,
}

/// One `data:` payload of the event stream.
#[derive(Serialize)]
#[serde(untagged)]
enum Payload {
    /// A chunk of the answer.
    Chunk(Chunk),
    /// The turn failed after the stream began: the stream's last payload.
    Error(OpenAiErrorBody),
}

/// Tokens of the request and the answer: as the provider reported them, else estimated (four characters a
/// token).
#[derive(Serialize, ToSchema, Clone, Copy)]
struct Usage {
    prompt_tokens: u64,
    completion_tokens: u64,
    total_tokens: u64,
}

/// One turn in OpenAI's chat shape: the whole answer, or with `stream` the answer's tokens as
/// `chat.completion.chunk` events, the last with `finish_reason`, then (with `stream_options.include_usage`)
/// the usage, then `[DONE]`.
#[utoipa::path(post, path = "/v1/chat/completions", tag = OPENAI, request_body = CompletionRequest, responses(
    (status = 200, body = Completion, description = "the answer; with `stream`, `text/event-stream` of \
        `chat.completion.chunk`"),
    (status = 404, description = "no such model"), (status = 429, description = "the daily quota is used up"),
    (status = 502, description = "every provider failed")))]
#[tracing::instrument(skip_all, fields(user = %caller.user.name))]
async fn completions(
    State(app): State<AppState>,
    caller: CurrentUser,
    AppJson(body): AppJson<CompletionRequest>,
) -> Result<Response, V1Error> {
    let (question, context) = conversation(body.messages)?;
    let eff = app.runtime.effective().await.map_err(ApiError::from)?;
    let model = body.model.unwrap_or_default();
    let layer = layer_for(&app, &eff, &model)?;
    let model = if model.trim().is_empty() {
        DEFAULT_MODEL.to_string()
    } else {
        model
    };
    let estimate = context
        .iter()
        .filter_map(|m| m.content.as_deref())
        .map(str::len)
        .sum::<usize>()
        + question.len();
    let request = TurnRequest {
        text: question,
        layer,
        text_only: true,
        context,
        typed: Some("v1"),
        ..TurnRequest::default()
    };
    let reply = Reply {
        id: format!("chatcmpl-{}", uuid::Uuid::now_v7().simple()),
        created: chrono::Utc::now().timestamp().max(0) as u64,
        model,
        prompt_chars: estimate,
    };
    if body.stream.unwrap_or(false) {
        let include_usage = body.stream_options.unwrap_or_default().include_usage;
        return streamed(app.0.clone(), caller.user, request, reply, include_usage).await;
    }
    let outcome = turn::run(&app.0, &caller.user, request, None).await?;
    Ok(Json(reply.whole(&outcome)).into_response())
}

/// The question (the last message, the user's) and the messages before it, checked.
fn conversation(messages: Vec<InMessage>) -> Result<(String, Vec<ChatMessage>), V1Error> {
    let mut context = Vec::with_capacity(messages.len());
    for (i, message) in messages.into_iter().enumerate() {
        let role = match message.role.as_str() {
            "system" | "developer" => "system",
            "user" => "user",
            "assistant" => "assistant",
            other => {
                return Err(invalid(
                    &format!("messages[{i}].role"),
                    format!("{other:?} is not one of system, developer, user, assistant"),
                ));
            }
        };
        let text = match message.content {
            None => String::new(),
            Some(Content::Text(text)) => text,
            Some(Content::Parts(parts)) => {
                if let Some(part) = parts.iter().find(|p| p.kind != "text") {
                    return Err(invalid(
                        &format!("messages[{i}].content"),
                        format!("{:?} parts are not supported; send text", part.kind),
                    ));
                }
                parts.into_iter().filter_map(|p| p.text).collect::<Vec<_>>().join("\n")
            }
        };
        context.push(ChatMessage::new(role, text));
    }
    match context.pop() {
        Some(last) if last.role == "user" => Ok((last.content.unwrap_or_default(), context)),
        _ => Err(invalid("messages", "the last message must be the user's")),
    }
}

fn invalid(param: &str, problem: impl std::fmt::Display) -> V1Error {
    V1Error::new(
        StatusCode::BAD_REQUEST,
        "invalid_request",
        Some(param),
        format!("{param}: {problem}"),
    )
}

/// What every answer of one request shares.
struct Reply {
    id: String,
    created: u64,
    model: String,
    /// Characters of the conversation, for an estimate when no provider counts tokens.
    prompt_chars: usize,
}

impl Reply {
    fn usage(&self, outcome: &TurnOutcome) -> Usage {
        let TokenUsage {
            prompt_tokens,
            completion_tokens,
        } = outcome.usage.unwrap_or(TokenUsage {
            prompt_tokens: self.prompt_chars.div_ceil(4) as u64,
            completion_tokens: outcome.text.len().div_ceil(4) as u64,
        });
        Usage {
            prompt_tokens,
            completion_tokens,
            total_tokens: prompt_tokens + completion_tokens,
        }
    }

    fn whole(&self, outcome: &TurnOutcome) -> Completion {
        Completion {
            id: self.id.clone(),
            object: "chat.completion",
            created: self.created,
            model: self.model.clone(),
            choices: vec![Choice {
                index: 0,
                message: OutMessage {
                    role: "assistant",
                    content: outcome.text.clone(),
                    refusal: None,
                },
                finish_reason: "stop",
                logprobs: None,
            }],
            usage: self.usage(outcome),
        }
    }

    /// A `chat.completion.chunk` with these choices and usage.
    fn chunk(&self, choices: Vec<ChunkChoice>, usage: Option<Option<Usage>>) -> Payload {
        Payload::Chunk(Chunk {
            id: self.id.clone(),
            object: "chat.completion.chunk",
            created: self.created,
            model: self.model.clone(),
            choices,
            usage,
        })
    }

    /// A chunk of the answer with this delta and finish reason.
    fn delta(&self, delta: Delta, finish_reason: Option<&'static str>, include_usage: bool) -> Payload {
        let choice = ChunkChoice {
            index: 0,
            delta,
            finish_reason,
            logprobs: None,
        };
        self.chunk(vec![choice], include_usage.then_some(None))
    }
}

/// Runs the turn and answers with its event stream once the turn is accepted; an error before that (quota,
/// route, voice) is the HTTP answer, an error after it is the stream's last event.
async fn streamed(
    app: Arc<App>,
    user: User,
    request: TurnRequest,
    reply: Reply,
    include_usage: bool,
) -> Result<Response, V1Error> {
    let (tx, mut turn_events) = mpsc::unbounded_channel();
    let mut turn = crate::task::AbortOnDrop(tokio::spawn(
        async move { turn::run(&app, &user, request, Some(tx)).await },
    ));
    loop {
        match turn_events.recv().await {
            Some(TurnEvent::Accepted(_)) => break,
            // The help dialogue answers instead of the model: its words come as the answer's tokens.
            Some(TurnEvent::Help(_)) => {}
            // The turn ended before it was accepted: its error is the answer.
            _ => {
                return Err(match (&mut turn.0).await {
                    Ok(Err(err)) => err.into(),
                    _ => ApiError::Internal("the turn ended without an answer".into()).into(),
                });
            }
        }
    }
    let (out, events) = mpsc::channel::<Payload>(64);
    tokio::spawn(async move {
        let role = Delta {
            role: Some("assistant"),
            content: Some(String::new()),
        };
        let _ = out.send(reply.delta(role, None, include_usage)).await;
        while let Some(event) = turn_events.recv().await {
            if let TurnEvent::Token(token) = event {
                let text = Delta {
                    role: None,
                    content: Some(token),
                };
                let chunk = reply.delta(text, None, include_usage);
                if out.send(chunk).await.is_err() {
                    // The client went away: dropping the guard stops the turn.
                    return;
                }
            }
        }
        let ending = match (&mut turn.0).await {
            Ok(Ok(outcome)) => {
                let mut ending = vec![reply.delta(Delta::default(), Some("stop"), include_usage)];
                if include_usage {
                    ending.push(reply.chunk(Vec::new(), Some(Some(reply.usage(&outcome)))));
                }
                ending
            }
            Ok(Err(err)) => vec![Payload::Error(V1Error::from(err).into_body())],
            Err(_) => {
                let stopped = V1Error::from(ApiError::Internal("the turn stopped".into()));
                vec![Payload::Error(stopped.into_body())]
            }
        };
        for event in ending {
            if out.send(event).await.is_err() {
                return;
            }
        }
    });
    let body = stream::unfold((events, false), |(mut events, done)| async move {
        if done {
            return None;
        }
        match events.recv().await {
            Some(payload) => Some((Event::default().json_data(payload), (events, false))),
            None => Some((Ok(Event::default().data("[DONE]")), (events, true))),
        }
    });
    Ok(Sse::new(body).into_response())
}
