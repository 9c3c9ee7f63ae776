//! Where the time of a voice turn goes, from the person's last word to the first audio of the answer. Each
//! stage is measured from the end of the one before, so that they add up to the whole wait:
//! `end_of_turn` (the last speech to the decision that the turn is over), `transcription` (that decision to the
//! final transcript; zero when it was ready), `first_token` (to the model's first token), `first_sentence` (to
//! the first sentence or clause ready to be spoken), `first_audio` (to its audio leaving for the channel), and
//! `total` (the last speech to the first audio). Every stage goes to `/metrics` as
//! `voice_stage_seconds{stage, channel, provider}` the moment it ends, and every turn into
//! [`crate::latency::Recent`], the last day's turns the admin panel draws.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;

use crate::app::App;
use crate::latency::{STAGES, TOTAL};
use crate::metrics::VOICE_STAGE_SECONDS;

/// A stage of a voice turn that ends at a moment (the total is derived).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    EndOfTurn,
    Transcription,
    FirstToken,
    FirstSentence,
    FirstAudio,
}

/// The clock of one voice turn, shared by the parts that end its stages.
pub struct Clock {
    app: Arc<App>,
    channel: &'static str,
    speech_end: Instant,
    /// When the last stage ended, and each stage's seconds.
    marks: Mutex<(Instant, [Option<f32>; STAGES.len()])>,
}

impl Clock {
    /// The clock of a turn on `channel` whose last speech was `silence` ago.
    pub fn start(app: Arc<App>, channel: &'static str, silence: Duration) -> Arc<Self> {
        let now = Instant::now();
        let speech_end = now.checked_sub(silence).unwrap_or(now);
        Arc::new(Self {
            app,
            channel,
            speech_end,
            marks: Mutex::new((speech_end, [None; STAGES.len()])),
        })
    }

    /// The channel the turn came by.
    pub fn channel(&self) -> &'static str {
        self.channel
    }

    /// The time since the person's last speech.
    pub fn since_speech(&self) -> Duration {
        self.speech_end.elapsed()
    }

    /// `stage` ended now (by `provider`, where one did the work); a stage ends once, later calls are ignored.
    pub fn mark(&self, stage: Stage, provider: Option<&str>) {
        let now = Instant::now();
        let Ok(mut marks) = self.marks.lock() else {
            return;
        };
        let (last, seconds) = &mut *marks;
        let i = stage as usize;
        if seconds[i].is_some() {
            return;
        }
        let took = now.saturating_duration_since(*last).as_secs_f64();
        seconds[i] = Some(took as f32);
        *last = now;
        let mut labels = vec![("stage", STAGES[i]), ("channel", self.channel)];
        if let Some(provider) = provider {
            labels.push(("provider", provider));
        }
        self.app.metrics.observe(VOICE_STAGE_SECONDS, &labels, took);
        if stage == Stage::FirstAudio {
            let total = now.saturating_duration_since(self.speech_end).as_secs_f64();
            seconds[TOTAL] = Some(total as f32);
            let labels = [("stage", STAGES[TOTAL]), ("channel", self.channel)];
            self.app.metrics.observe(VOICE_STAGE_SECONDS, &labels, total);
        }
    }
}

impl Drop for Clock {
    fn drop(&mut self) {
        let seconds = self.marks.lock().map(|m| m.1).unwrap_or_default();
        if seconds.iter().any(Option::is_some) {
            self.app.recent.push(seconds);
        }
    }
}
