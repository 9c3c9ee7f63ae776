//! The LLM part of a turn: the fallback chain, the tool-call rounds of web search, tokens into the text
//! pipeline, and the cost the provider reports.

use super::fallback::{Failure, walk};
use super::prefetch::Prefetch;
use super::search::{TOOL_NAME, WebPlan, run_tool, tool};
use super::{Events, TokenUsage, TurnEvent, emit, provider_error};
use crate::app::App;
use crate::config::keys::Key;
use crate::config::route::Route;
use crate::config::runtime::Effective;
use crate::error::Result;
use crate::metrics::LLM_PREEMPTIVE_TOTAL;
use crate::providers::llm::{ChatMessage, ChatRequest, Delta, LlmStream, ToolCall};
use crate::providers::{LlmId, ProviderError, chain};
use crate::store::users::User;
use crate::text::pipeline::{Pipeline, SpokenStream};

/// Requests per answer at most: a search round, maybe a second one, then the answer without tools.
const MAX_ROUNDS: usize = 3;

/// The written answer of the LLM stage.
pub struct Answer {
    /// The text as written.
    pub text: String,
    /// Its spoken sentences.
    pub sentences: Vec<String>,
    /// Addresses of the web results given to the model.
    pub citations: Vec<String>,
    /// Provider and model that answered.
    pub llm: (String, String),
    /// `llm:<id>` for every provider that failed before.
    pub fallbacks: Vec<String>,
    /// Tokens used, as the provider reported them.
    pub usage: Option<TokenUsage>,
    /// What the provider charged, when it said (the turn records it).
    pub cost: Option<f64>,
}

/// One provider's attempt at the answer.
struct Attempt {
    text: String,
    spoken: SpokenStream,
    sentences: Vec<String>,
    citations: Vec<String>,
    cost: Option<f64>,
    usage: Option<TokenUsage>,
}

impl Attempt {
    fn token(&mut self, token: &str, events: &Events) {
        self.text.push_str(token);
        emit(events, TurnEvent::Token(token.to_string()));
        for sentence in self.spoken.push(token) {
            emit(events, TurnEvent::Sentence(sentence.clone()));
            self.sentences.push(sentence);
        }
    }
}

/// The model a provider uses when the route names none.
pub fn default_model(eff: &Effective, provider: LlmId) -> String {
    eff.get(Key::model_of(provider)).to_string()
}

/// The model for the `n`th provider of the route's chain: the route's own for the first, each fallback's
/// configured one after it (a model name rarely means anything to another provider).
pub fn model_for(eff: &Effective, route: &Route, n: usize, provider: LlmId) -> String {
    route
        .llm_model
        .clone()
        .filter(|_| n == 0)
        .unwrap_or_else(|| default_model(eff, provider))
}

/// What the LLM stage of a turn works with.
pub struct Context<'a> {
    /// The gateway.
    pub app: &'a App,
    /// Effective settings of this turn.
    pub eff: &'a Effective,
    /// Who asks.
    pub user: &'a User,
    /// Whether and where web search is offered.
    pub web: &'a WebPlan,
    /// The route.
    pub route: &'a Route,
}

/// Asks the route's LLM, falling back along `LLM_FALLBACK` while no token has reached the user.
pub async fn answer(
    ctx: &Context<'_>,
    messages: Vec<ChatMessage>,
    pipeline: &Pipeline,
    events: &Events,
    mut prefetch: Option<Prefetch>,
) -> Result<Answer> {
    let Context { app, eff, route, .. } = *ctx;
    let order = chain(route.llm, &app.settings.fallbacks.llm);
    let messages = &messages;
    let answered = walk(
        app,
        &order,
        || format!("LLM provider {}", route.llm),
        |n, id| {
            let prefetched = prefetch.take().filter(|_| n == 0);
            async move {
                let model = model_for(eff, route, n, id);
                let mut attempt = Attempt {
                    text: String::new(),
                    spoken: pipeline.stream(),
                    sentences: Vec::new(),
                    citations: Vec::new(),
                    cost: None,
                    usage: None,
                };
                Some(
                    match converse(ctx, (id, prefetched), &model, messages.clone(), &mut attempt, events).await {
                        Ok(()) => Ok((attempt, model)),
                        // The user already has part of this answer: another model's answer would not continue it.
                        Err(error) => Err(Failure {
                            error,
                            retry: attempt.text.is_empty(),
                        }),
                    },
                )
            }
        },
    )
    .await
    .map_err(provider_error)?;
    let (mut attempt, model) = answered.value;
    for sentence in attempt.spoken.finish() {
        emit(events, TurnEvent::Sentence(sentence.clone()));
        attempt.sentences.push(sentence);
    }
    Ok(Answer {
        text: attempt.text,
        sentences: attempt.sentences,
        citations: attempt.citations,
        llm: (answered.provider.to_string(), model),
        fallbacks: answered.fallbacks,
        usage: attempt.usage,
        cost: attempt.cost,
    })
}

/// The request of round `round` (counted from 0) of an answer: web search is offered in all but the last.
pub fn round_request(ctx: &Context<'_>, model: &str, messages: Vec<ChatMessage>, round: usize) -> ChatRequest {
    let tools = if ctx.web.engine.is_some() && round + 1 < MAX_ROUNDS {
        vec![tool()]
    } else {
        Vec::new()
    };
    ChatRequest {
        model: model.to_string(),
        messages,
        temperature: Some(ctx.eff.number(Key::LlmTemperature)),
        tools,
        max_tokens: Some(ctx.app.settings.limits.llm_max_tokens),
    }
}

/// Sends `request` to `provider`, unless the answer started early asked it the same already.
async fn open(
    app: &App,
    provider: LlmId,
    request: ChatRequest,
    prefetched: Option<Prefetch>,
) -> Result<LlmStream, ProviderError> {
    if let Some(prefetch) = prefetched
        && let Some(stream) = prefetch.take(provider, &request).await
    {
        app.metrics.incr(LLM_PREEMPTIVE_TOTAL, &[("outcome", "used")]);
        return stream;
    }
    app.providers.llm.get(provider).chat(request).await
}

/// One model request: its stream into the attempt; the tools the model wants called. The span records the
/// answer's size.
async fn ask(
    app: &App,
    (provider, early): (LlmId, Option<Prefetch>),
    request: ChatRequest,
    attempt: &mut Attempt,
    events: &Events,
) -> Result<Vec<ToolCall>, ProviderError> {
    let mut stream = open(app, provider, request, early).await?;
    let mut calls = Vec::new();
    let mut tokens = 0u64;
    while let Some(delta) = stream.next().await {
        match delta? {
            Delta::Token(token) => {
                tokens += 1;
                attempt.token(&token, events);
            }
            Delta::ToolCalls(c) => calls = c,
            Delta::Usage(usage) => {
                if let Some(cost) = usage.cost {
                    *attempt.cost.get_or_insert(0.0) += cost;
                }
                let total = attempt.usage.get_or_insert_default();
                total.prompt_tokens += usage.prompt_tokens;
                total.completion_tokens += usage.completion_tokens;
                tokens = usage.completion_tokens.max(tokens);
            }
        }
    }
    let span = tracing::Span::current();
    span.record("completion_tokens", tokens)
        .record("tool_calls", calls.len());
    Ok(calls)
}

/// One provider's conversation: answer, or call tools and ask again, up to `MAX_ROUNDS` requests; the first
/// may have been asked early (`prefetched`).
async fn converse(
    ctx: &Context<'_>,
    (provider, mut prefetched): (LlmId, Option<Prefetch>),
    model: &str,
    mut messages: Vec<ChatMessage>,
    attempt: &mut Attempt,
    events: &Events,
) -> Result<(), ProviderError> {
    for round in 0..MAX_ROUNDS {
        let request = round_request(ctx, model, messages.clone(), round);
        let early = prefetched.take();
        let span = tracing::info_span!(target: crate::traces::TARGET, "llm", provider = provider.as_str(), model,
            round, messages = request.messages.len(), early = early.is_some(),
            completion_tokens = tracing::field::Empty, tool_calls = tracing::field::Empty);
        let calls =
            tracing::Instrument::instrument(ask(ctx.app, (provider, early), request, attempt, events), span).await?;
        if calls.is_empty() {
            return Ok(());
        }
        messages.push(ChatMessage::tool_calls(calls.clone()));
        for call in calls {
            let content = if call.name == TOOL_NAME {
                let (content, results) =
                    run_tool(ctx.app, ctx.web, &ctx.user.id, &call.arguments, &ctx.route.language).await;
                for result in results {
                    if !attempt.citations.contains(&result.url) {
                        attempt.citations.push(result.url);
                    }
                }
                content
            } else {
                format!("unknown tool {:?}", call.name)
            };
            messages.push(ChatMessage::tool_result(&call.id, content));
        }
    }
    Ok(())
}
