//! Preemptive generation: the model is asked to answer before the end of the turn is certain (the transcript
//! of a pause is ready while the listener still waits to know whether the person goes on), so that when the
//! turn does end its answer is already being written. Only the request is made early: the turn itself runs
//! as always when it ends (quota, history, storing, costs), and takes the early answer's stream when it would
//! have sent exactly the same request to the same provider. Dropping an unused one closes its request, so a
//! person who speaks on costs nothing but the tokens written until then; those are billed as a cut answer's
//! are ([`super::meter::Meter`]: the prompt and the tokens that had arrived, estimated where the provider
//! reported no usage).

use std::sync::Arc;

use futures_util::FutureExt;

use super::TurnRequest;
use super::meter::Meter;
use crate::app::App;
use crate::metrics::LLM_PREEMPTIVE_TOTAL;
use crate::providers::llm::{ChatRequest, Delta, LlmStream};
use crate::providers::{LlmId, ProviderError, ProviderId, Stage};
use crate::store::users::User;
use crate::task::AbortOnDrop;

/// The request made early and what its provider answered.
struct Asked {
    provider: LlmId,
    request: ChatRequest,
    stream: Result<LlmStream, ProviderError>,
}

/// An answer started before its turn. Dropping it cancels it.
pub struct Prefetch {
    /// `None` once taken.
    task: Option<AbortOnDrop<Option<Asked>>>,
    /// Whom an unused answer is billed to.
    app: Arc<App>,
    user_id: String,
}

impl std::fmt::Debug for Prefetch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Prefetch")
    }
}

impl Prefetch {
    /// Starts the first model request of the turn `request` would be, for `user`.
    pub fn start(app: Arc<App>, user: User, request: TurnRequest) -> Self {
        let (billed, user_id) = (app.clone(), user.id.clone());
        let task = tokio::spawn(async move {
            let (provider, request) = match super::first_request(&app, &user, &request).await {
                Ok(first) => first,
                Err(err) => {
                    tracing::debug!(%err, "no answer started early");
                    return None;
                }
            };
            if app.breakers.closed_in(Stage::Llm, provider.name()).is_some() {
                // A failing model is skipped by the turn's own walk; nothing is asked of it early.
                return None;
            }
            app.metrics.incr(LLM_PREEMPTIVE_TOTAL, &[("outcome", "started")]);
            let stream = app.providers.llm.get(provider).chat(request.clone()).await;
            Some(Asked {
                provider,
                request,
                stream,
            })
        });
        Self {
            task: Some(AbortOnDrop(task)),
            app: billed,
            user_id,
        }
    }

    /// The early answer when it was asked of `provider` with exactly `request` (its failure is that provider's
    /// failure); `None` when the turn asks something else.
    pub async fn take(mut self, provider: LlmId, request: &ChatRequest) -> Option<Result<LlmStream, ProviderError>> {
        let mut task = self.task.take()?;
        let asked = (&mut task.0).await.ok()??;
        if asked.provider != provider || asked.request != *request {
            self.unused(asked);
            return None;
        }
        Some(asked.stream)
    }

    /// Bills an answer no turn took, for what its provider had sent (the meter bills when dropped).
    fn unused(&self, asked: Asked) {
        let Ok(mut stream) = asked.stream else {
            return;
        };
        let meter = Meter::new(&self.app, &self.user_id);
        let at = meter.request(asked.provider, &asked.request);
        while let Some(Ok(delta)) = stream.try_next() {
            match delta {
                Delta::Token(_) => meter.token(at),
                Delta::Usage(usage) => meter.usage(at, &usage),
                Delta::ToolCalls(_) => {}
            }
        }
    }
}

impl Drop for Prefetch {
    fn drop(&mut self) {
        // Never taken: an answer that was already streaming is billed; one still being asked is cancelled.
        if let Some(mut task) = self.task.take()
            && let Some(Ok(Some(asked))) = (&mut task.0).now_or_never()
        {
            self.unused(asked);
        }
    }
}
