//! What a model's answers cost where the provider does not say: each request of an answer is metered, and
//! what the provider billed but never reported (an answer cut short, an early answer never used) is recorded
//! when the meter is dropped.

use crate::app::App;
use crate::providers::LlmId;
use crate::providers::llm::ChatRequest;

/// What one request to a model received.
#[derive(Debug)]
struct Received {
    provider: LlmId,
    /// Characters of its messages (about four a token).
    prompt_chars: usize,
    /// Tokens streamed (deltas).
    tokens: u64,
    /// The tokens the provider reported, and whether it said the cost (recorded by the turn).
    usage: Option<(u64, u64, bool)>,
}

/// The requests of one answer and their cost. An answer cut by barge-in, a continuation or the spoken bound
/// drops its stream before the provider reports its usage, yet the provider bills what it generated: when
/// the meter is dropped, each request of the cloud model whose cost the provider did not say is billed at
/// `CLOUD_LLM_PRICE_INPUT`/`_OUTPUT`, from the tokens it reported (category `llm`) or, where it reported
/// none, from the tokens counted and the prompt's length (category `llm_estimated`).
#[derive(Clone)]
pub struct Meter(std::sync::Arc<MeterInner>);

struct MeterInner {
    store: crate::store::Store,
    user_id: String,
    /// Per million prompt and answer tokens.
    price: [f64; 2],
    requests: std::sync::Mutex<Vec<Received>>,
}

impl Meter {
    pub fn new(app: &App, user_id: &str) -> Self {
        Self(std::sync::Arc::new(MeterInner {
            store: app.store.clone(),
            user_id: user_id.to_string(),
            price: app.settings.providers.cloud_llm_price,
            requests: std::sync::Mutex::new(Vec::new()),
        }))
    }

    fn with<T>(&self, f: impl FnOnce(&mut Vec<Received>) -> T) -> T {
        let mut requests = self
            .0
            .requests
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        f(&mut requests)
    }

    /// A request is sent: its index.
    pub fn request(&self, provider: LlmId, request: &ChatRequest) -> usize {
        let prompt_chars = request
            .messages
            .iter()
            .map(|m| m.content.as_deref().map_or(0, str::len))
            .sum();
        self.with(|r| {
            r.push(Received {
                provider,
                prompt_chars,
                tokens: 0,
                usage: None,
            });
            r.len() - 1
        })
    }

    pub fn token(&self, at: usize) {
        self.with(|r| r[at].tokens += 1);
    }

    pub fn usage(&self, at: usize, usage: &crate::providers::llm::Usage) {
        self.with(|r| {
            let (prompt, completion, costed) = r[at].usage.get_or_insert((0, 0, false));
            *prompt += usage.prompt_tokens;
            *completion += usage.completion_tokens;
            *costed |= usage.cost.is_some();
        });
    }
}

impl Drop for MeterInner {
    fn drop(&mut self) {
        let [input, output] = self.price;
        if input == 0.0 && output == 0.0 {
            return;
        }
        let priced = |prompt: u64, completion: u64| (prompt as f64 * input + completion as f64 * output) / 1e6;
        let (mut counted, mut estimated) = (0.0, 0.0);
        let requests = self
            .requests
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for received in requests.iter().filter(|r| r.provider == LlmId::Cloud) {
            match received.usage {
                Some((_, _, true)) => {}
                Some((prompt, completion, false)) => counted += priced(prompt, completion),
                None => estimated += priced(received.prompt_chars.div_ceil(4) as u64, received.tokens),
            }
        }
        let (store, user_id) = (self.store.clone(), std::mem::take(&mut self.user_id));
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        runtime.spawn(async move {
            for (category, cost) in [("llm", counted), ("llm_estimated", estimated)] {
                if cost > 0.0
                    && let Err(err) = store.add_cost(&user_id, category, cost).await
                {
                    tracing::error!(%err, category, "recording an answer's cost failed");
                }
            }
        });
    }
}
