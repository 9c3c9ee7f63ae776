//! The LLM part of a turn: the fallback chain, the tool-call rounds of web search, tokens into the text
//! pipeline, and the cost the provider reports.

use super::bound::{self, Bound, Limits};
use super::echo::Echo;
use super::fallback::{Failure, walk};
use super::meter::Meter;
use super::prefetch::Prefetch;
use super::prompt;
use super::search::{TOOL_NAME, WebPlan, run_tool, tool};
use super::{Events, TokenUsage, TurnEvent, emit, provider_error};
use crate::app::App;
use crate::config::keys::Key;
use crate::config::route::Route;
use crate::config::runtime::Effective;
use crate::error::Result;
use crate::metrics::{ANSWERS_CUT_TOTAL, LLM_PREEMPTIVE_TOTAL};
use crate::providers::llm::{ChatMessage, ChatRequest, Delta, LlmStream, ToolCall};
use crate::providers::{LlmId, ProviderError};
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
    bound: Bound,
    /// Bytes of `text` up to the end of its last kept sentence.
    kept: usize,
    /// The instructions, which a small model may say back.
    echo: Echo,
    /// What each request received, for its cost.
    meter: Meter,
}

impl Attempt {
    /// Takes a token of the answer; whether the model may go on.
    fn token(&mut self, token: &str, events: &Events) -> bool {
        if self.bound.stopped.is_some() {
            return false;
        }
        self.text.push_str(token);
        emit(events, TurnEvent::Token(token.to_string()));
        for sentence in self.spoken.push(token) {
            self.sentence(sentence, events);
        }
        self.bound.token(&self.text)
    }

    /// A finished sentence, spoken and kept unless the answer has ended or says it again; what of it echoes
    /// the instructions is left out.
    fn sentence(&mut self, sentence: String, events: &Events) {
        let sentence = self.echo.clean(&sentence);
        if sentence.is_empty() {
            self.kept = self.text.len() - self.spoken.pending();
            return;
        }
        if self.bound.sentence(&sentence) {
            emit(events, TurnEvent::Sentence(sentence.clone()));
            self.sentences.push(sentence);
            self.kept = self.text.len() - self.spoken.pending();
        }
    }

    /// Ends the answer: what the model wrote in full, or its whole sentences and a closing once it was cut
    /// (never the closing alone: an answer cut in its first sentence keeps what came before the cut); the
    /// echoes of the instructions are left out of the text too.
    fn finish(&mut self, pipeline: &Pipeline, language: &str, events: &Events) -> Option<bound::Stop> {
        let Some(stop) = self.bound.stopped else {
            for sentence in self.spoken.finish() {
                self.sentence(sentence, events);
            }
            self.text = self.echo.clean(&self.text);
            return self.bound.stopped;
        };
        if self.sentences.is_empty() {
            self.keep_first(pipeline, events);
        }
        self.text.truncate(self.kept);
        self.text = self.echo.clean(&self.text);
        if self.sentences.is_empty() {
            // Nothing but an echo was said: no closing without an answer before it.
            return Some(stop);
        }
        let closing = crate::phrasebook::phrase(language, "turn-closing");
        emit(events, TurnEvent::Token(format!(" {closing}")));
        emit(events, TurnEvent::Sentence(closing.clone()));
        self.text = format!("{} {closing}", self.text.trim_end()).trim_start().to_string();
        self.sentences.push(closing);
        Some(stop)
    }

    /// The answer was cut before its first sentence ended (a loop without sentence ends, or the token limit):
    /// what came before the loop is its first sentence.
    fn keep_first(&mut self, pipeline: &Pipeline, events: &Events) {
        let first = bound::before_loop(&self.text).trim_end();
        let first = first.trim_end_matches([',', ';', ':', '-', ' ']);
        let first = self.echo.clean(first);
        if first.is_empty() {
            return;
        }
        let ended = if first.ends_with(['.', '!', '?']) {
            first
        } else {
            format!("{first}.")
        };
        let mut spoken = pipeline.stream();
        let mut sentences = spoken.push(&ended);
        sentences.extend(spoken.finish());
        for sentence in sentences {
            emit(events, TurnEvent::Sentence(sentence.clone()));
            self.sentences.push(sentence);
        }
        self.text = ended;
        self.kept = self.text.len();
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
    /// How long the answer may run.
    pub limits: Limits,
}

/// The limits of an answer that will be heard (`spoken`) or read.
pub fn limits(app: &App, spoken: bool) -> Limits {
    let limits = &app.settings.limits;
    if spoken {
        Limits {
            tokens: limits.spoken_max_tokens.into(),
            seconds: Some(limits.spoken_max_seconds as f64),
        }
    } else {
        Limits {
            tokens: limits.llm_max_tokens.into(),
            seconds: None,
        }
    }
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
    let order = super::order(&app.providers.llm, route, route.llm, &app.settings.fallbacks.llm);
    if order.is_empty() {
        return Err(super::kept_at_home(route));
    }
    let messages = &messages;
    // Dropped when the answer ends, however it ends (cut, or its turn cancelled): the requests whose cost
    // the provider did not report are billed at the configured price.
    let meter = Meter::new(app, &ctx.user.id);
    let meter = &meter;
    let echo = &Echo::of(&prompt::instructions(eff, ctx.user, &route.language));
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
                    bound: Bound::new(ctx.limits),
                    kept: 0,
                    echo: echo.clone(),
                    meter: meter.clone(),
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
    if let Some(stop) = attempt.finish(pipeline, &route.language, events) {
        tracing::info!(
            why = stop.label(),
            sentences = attempt.sentences.len(),
            "the answer was cut short"
        );
        app.metrics.incr(ANSWERS_CUT_TOTAL, &[("why", stop.label())]);
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

/// The request of round `round` (counted from 0) of an answer to `provider`: web search and the reminder
/// tools (`REMINDER_TOOLS`) are offered in all but the last.
pub fn round_request(
    ctx: &Context<'_>,
    (provider, model): (LlmId, &str),
    messages: Vec<ChatMessage>,
    round: usize,
) -> ChatRequest {
    let mut tools = Vec::new();
    if round + 1 < MAX_ROUNDS {
        if ctx.web.engine.is_some() {
            tools.push(tool());
        }
        let care = ctx.app.settings.care.reminder_tools.as_str();
        if care == "all" || (care == "cloud" && provider == LlmId::Cloud) {
            tools.extend(crate::care::tools::tools());
        }
    }
    ChatRequest {
        model: model.to_string(),
        messages,
        temperature: Some(ctx.eff.number(Key::LlmTemperature)),
        tools,
        // The gateway ends the answer itself; the model's own limit only backs that up.
        max_tokens: Some(u32::try_from(ctx.limits.tokens).unwrap_or(u32::MAX).saturating_add(16)),
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
    let received = attempt.meter.request(provider, &request);
    let mut stream = open(app, provider, request, early).await?;
    let mut calls = Vec::new();
    let mut tokens = 0u64;
    while let Some(delta) = stream.next().await {
        match delta? {
            Delta::Token(token) => {
                tokens += 1;
                attempt.meter.token(received);
                if !attempt.token(&token, events) {
                    // Dropping the stream ends the model's request.
                    break;
                }
            }
            Delta::ToolCalls(c) => calls = c,
            Delta::Usage(usage) => {
                attempt.meter.usage(received, &usage);
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
        let request = round_request(ctx, (provider, model), messages.clone(), round);
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
            } else if crate::care::tools::is_tool(&call.name) {
                crate::care::tools::run(ctx.app, ctx.user, &call.name, &call.arguments).await
            } else {
                format!("unknown tool {:?}", call.name)
            };
            messages.push(ChatMessage::tool_result(&call.id, content));
        }
    }
    Ok(())
}
