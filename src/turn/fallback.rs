//! One walk along a stage's fallback chain: each provider in order until one answers, every failure counted
//! (`provider_errors_total`, `fallback_total`) and named in the turn's `fallbacks`, the stage's time observed
//! once it has answered. A provider whose circuit breaker is open is skipped without waiting
//! ([`crate::providers::breakers`]); each call's outcome goes to its breaker.

use std::time::Instant;

use crate::app::App;
use crate::metrics::{FALLBACK_TOTAL, PROVIDER_CALLS_TOTAL, PROVIDER_ERRORS_TOTAL, STAGE_DURATION_SECONDS};
use crate::providers::breakers::BreakerState;
use crate::providers::{ProviderError, ProviderId};

/// Why an attempt failed, and whether the next provider may try.
pub struct Failure {
    /// The provider's error.
    pub error: ProviderError,
    /// False when another provider must not answer instead: the user already has part of this answer.
    pub retry: bool,
}

impl From<ProviderError> for Failure {
    fn from(error: ProviderError) -> Self {
        Self { error, retry: true }
    }
}

/// The answer of the provider that answered.
pub struct Answered<T, I> {
    /// What it returned.
    pub value: T,
    /// Its id.
    pub provider: I,
    /// `<stage>:<id>` of each provider that failed before it.
    pub fallbacks: Vec<String>,
}

/// Tries `order` (provider ids of one stage, first choice first) with `attempt`, which is given the position in
/// the chain and the id and returns `None` when the provider cannot take this request (it is skipped). Fails
/// with the last provider's error, `Unavailable` when every one was skipped for its open breaker, or
/// `NotConfigured(unconfigured)` when none was there to try.
// A plain closure returning a future rather than an async closure: the future of an async closure cannot yet
// be required to be `Send`, and the turn runs on spawned tasks.
pub async fn walk<I: ProviderId, T, Fut>(
    app: &App,
    order: &[I],
    unconfigured: impl FnOnce() -> String,
    mut attempt: impl FnMut(usize, I) -> Fut,
) -> Result<Answered<T, I>, ProviderError>
where
    Fut: Future<Output = Option<Result<T, Failure>>>,
{
    let stage = I::STAGE.as_str();
    let started = Instant::now();
    let mut fallbacks = Vec::new();
    let mut last_error = None;
    let mut open = Vec::new();
    for (n, &id) in order.iter().enumerate() {
        let name = id.name();
        if let Some(wait) = app.breakers.closed_in(I::STAGE, name) {
            app.metrics.incr(
                PROVIDER_CALLS_TOTAL,
                &[("stage", stage), ("provider", name), ("outcome", "skipped")],
            );
            fallbacks.push(format!("{stage}:{name}"));
            open.push(format!("{name} (tried again in {} s)", wait.as_secs().max(1)));
            continue;
        }
        let began = Instant::now();
        let Some(result) = attempt(n, id).await else {
            continue;
        };
        let outcome = if result.is_ok() { "ok" } else { "failed" };
        app.metrics.incr(
            PROVIDER_CALLS_TOTAL,
            &[("stage", stage), ("provider", name), ("outcome", outcome)],
        );
        match result {
            Ok(value) => {
                app.breakers.succeeded(I::STAGE, name, began.elapsed());
                let seconds = started.elapsed().as_secs_f64();
                app.metrics
                    .observe(STAGE_DURATION_SECONDS, &[("stage", stage)], seconds);
                return Ok(Answered {
                    value,
                    provider: id,
                    fallbacks,
                });
            }
            Err(Failure { error, retry }) => {
                tracing::warn!(stage, provider = name, error = %error, "provider failed");
                if matches!(error, ProviderError::Failed { .. })
                    && app.breakers.failed(I::STAGE, name, began.elapsed(), &error.to_string())
                {
                    tracing::warn!(
                        stage,
                        provider = name,
                        "circuit breaker opened: calls skip the provider until a probe finds it working"
                    );
                    crate::probes::show_state(app, I::STAGE, name, BreakerState::Open);
                }
                app.metrics
                    .incr(PROVIDER_ERRORS_TOTAL, &[("stage", stage), ("provider", name)]);
                if !retry {
                    return Err(error);
                }
                if n + 1 < order.len() {
                    app.metrics.incr(FALLBACK_TOTAL, &[("stage", stage), ("from", name)]);
                }
                fallbacks.push(format!("{stage}:{name}"));
                last_error = Some(error);
            }
        }
    }
    Err(last_error.unwrap_or_else(|| {
        if open.is_empty() {
            ProviderError::NotConfigured(unconfigured())
        } else {
            ProviderError::Unavailable(format!("every {stage} provider is failing: {}", open.join(", ")))
        }
    }))
}
