//! When a turn is over (the voice core's listener runs this on every voice channel). The voice detector
//! ([`super::vad`]) hears speech and silence; at a pause of `TURN_CHECK_MS`, Smart Turn ([`super::smart_turn`])
//! is asked whether the words so far make a complete turn. Complete: the turn ends at once. Incomplete: the
//! gateway waits through the pause, asking again each time the pause has doubled (the model's judgement of the
//! same words moves with the silence after them), up to `TURN_MAX_SILENCE_MS`, so a person thinking
//! mid-sentence is not cut. Should the model fail, the pause ends
//! the turn after the fixed `VAD_SILENCE_MS`, as without the model. Speech that goes on drops the check.

use std::sync::Arc;

use tokio::task::JoinHandle;

use super::smart_turn::SmartTurn;

/// Smart Turn's answer about one pause.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Complete,
    Incomplete,
    /// The model failed: the fixed silence decides.
    Unknown,
}

/// The check of the current pause: running, then its verdict.
#[derive(Debug)]
pub struct TurnCheck {
    task: Option<JoinHandle<Result<f32, String>>>,
    verdict: Option<Verdict>,
    threshold: f32,
    probability: Option<f32>,
}

impl TurnCheck {
    /// Asks the model about the turn whose 16 kHz audio is `samples`, when a session is free, on the blocking
    /// pool. Dropped while it waits for one, it is never run.
    pub fn start(model: Arc<SmartTurn>, samples: Vec<i16>, threshold: f32) -> Self {
        let task = tokio::spawn(model.judge(samples));
        Self {
            task: Some(task),
            verdict: None,
            threshold,
            probability: None,
        }
    }

    /// The verdict, once there.
    pub fn verdict(&self) -> Option<Verdict> {
        self.verdict
    }

    /// What the model said of the turn being complete, once it did.
    pub fn probability(&self) -> Option<f32> {
        self.probability
    }

    /// Waits for the running check's verdict; never returns when there is none running.
    pub async fn decided(check: &mut Option<Self>) -> Verdict {
        let Some(this) = check else {
            return std::future::pending().await;
        };
        let Some(task) = this.task.as_mut() else {
            return std::future::pending().await;
        };
        let outcome = task.await;
        this.task = None;
        this.probability = outcome.as_ref().ok().and_then(|r| r.as_ref().ok()).copied();
        let decided = match outcome {
            Ok(Ok(p)) if p >= this.threshold => {
                tracing::debug!(
                    probability = p,
                    threshold = this.threshold,
                    "Smart Turn: the turn is complete"
                );
                Verdict::Complete
            }
            Ok(Ok(p)) => {
                tracing::debug!(
                    probability = p,
                    threshold = this.threshold,
                    "Smart Turn: the turn goes on"
                );
                Verdict::Incomplete
            }
            Ok(Err(err)) => {
                tracing::warn!(%err, "Smart Turn failed; the fixed silence ends this pause");
                Verdict::Unknown
            }
            Err(err) => {
                tracing::warn!(%err, "the Smart Turn task ended; the fixed silence ends this pause");
                Verdict::Unknown
            }
        };
        this.verdict = Some(decided);
        decided
    }
}

impl Drop for TurnCheck {
    fn drop(&mut self) {
        // A check still waiting for a session is not run at all.
        if let Some(task) = &self.task {
            task.abort();
        }
    }
}
