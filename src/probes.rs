//! The probes of open circuit breakers ([`crate::providers::breakers`]): once a breaker's cooldown has passed, one cheap,
//! real call decides whether the provider works again: the model list of a language model, a short silence to
//! transcribe, one word to speak, one query to search. Nothing of a probe reaches a user.

use std::sync::Arc;
use std::time::Duration;

use crate::app::App;
use crate::config::languages;
use crate::metrics::PROVIDER_STATE;
use crate::providers::breakers::BreakerState;
use crate::providers::registry::ProviderId;
use crate::providers::stt;
use crate::providers::tts::SpeechRequest;
use crate::providers::{LlmId, SearchId, Stage, SttId, TtsId};

/// How often due probes are looked for.
const TICK: Duration = Duration::from_secs(1);

/// Probes every breaker that is due, for as long as the gateway runs.
pub async fn run(app: Arc<App>) {
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        tick.tick().await;
        for (stage, name) in app.breakers.due() {
            show_state(&app, stage, name, BreakerState::HalfOpen);
            let app = app.clone();
            tokio::spawn(async move {
                let result = probe(&app, stage, name).await;
                let state = match &result {
                    Ok(()) => {
                        tracing::info!(stage = stage.as_str(), provider = name, "provider works again");
                        BreakerState::Closed
                    }
                    Err(err) => {
                        tracing::warn!(stage = stage.as_str(), provider = name, error = %err, "provider still fails");
                        BreakerState::Open
                    }
                };
                app.breakers.probed(stage, name, result);
                show_state(&app, stage, name, state);
            });
        }
    }
}

/// Probes the provider `name` of `stage` now, as the admin asked: a success shows it working, a failure counts
/// as a failed call. Whether it works.
pub async fn check(app: &App, stage: Stage, name: &'static str) -> bool {
    let started = std::time::Instant::now();
    match probe(app, stage, name).await {
        Ok(()) => {
            app.breakers.succeeded(stage, name, started.elapsed());
            app.breakers.probed(stage, name, Ok(()));
            show_state(app, stage, name, BreakerState::Closed);
            true
        }
        Err(err) => {
            tracing::warn!(stage = stage.as_str(), provider = name, error = %err, "a provider failed its check");
            if app.breakers.failed(stage, name, started.elapsed(), &err) {
                show_state(app, stage, name, BreakerState::Open);
            }
            false
        }
    }
}

/// Sets the provider's `provider_state` gauge.
pub fn show_state(app: &App, stage: Stage, name: &'static str, state: BreakerState) {
    let labels = [("stage", stage.as_str()), ("provider", name)];
    app.metrics.gauge_set(PROVIDER_STATE, &labels, state.gauge());
}

/// One probe of the provider `name` of `stage`.
async fn probe(app: &App, stage: Stage, name: &'static str) -> Result<(), String> {
    let timeout = Duration::from_secs(app.settings.limits.provider_timeout_secs.min(10));
    let call = async {
        match stage {
            Stage::Llm => {
                let engine = app.providers.llm.get(LlmId::parse(name).map_err(|e| e.to_string())?);
                engine.models(timeout).await.map(drop).map_err(|e| e.to_string())
            }
            Stage::Stt => {
                let engine = app.providers.stt.get(SttId::parse(name).map_err(|e| e.to_string())?);
                let stream = stt::open(engine, 16_000, Some("en"));
                stream.push(&[0i16; 8000]);
                stream.finish().await.map(drop).map_err(|e| e.to_string())
            }
            Stage::Tts => {
                let engine = app.providers.tts.get(TtsId::parse(name).map_err(|e| e.to_string())?);
                let language = languages().iter().find(|l| engine.speaks(l)).copied().unwrap_or("en");
                let request = SpeechRequest {
                    text: "OK",
                    language,
                    voice: None,
                    gender: None,
                };
                engine.speak(&request).await.map(drop).map_err(|e| e.to_string())
            }
            Stage::Search => {
                let engine = app
                    .providers
                    .search
                    .get(SearchId::parse(name).map_err(|e| e.to_string())?);
                engine
                    .search("weather", "en")
                    .await
                    .map(drop)
                    .map_err(|e| e.to_string())
            }
        }
    };
    match tokio::time::timeout(timeout, call).await {
        Ok(result) => result,
        Err(_) => Err(format!("no answer within {} s", timeout.as_secs())),
    }
}
