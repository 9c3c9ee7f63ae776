//! A spoken answer on a call the gateway places to the person (a reminder, the daily check-in): the line's
//! audio cut into utterances by the voice detector and heard by the person's recogniser in their language,
//! one at a time, so that "Ja, erledigt" confirms as a 1 does.

use std::sync::Arc;

use crate::app::App;
use crate::config::route::RouteLayer;
use crate::listen::vad::{Vad, VadConfig, VadEvent};
use crate::providers::audio::Pcm;
use crate::store::users::User;
use crate::turn::speech;

/// The longest utterance kept, in seconds: an answer is a few words.
const LONGEST_S: usize = 15;

/// The audio of the callee, cut into utterances.
pub struct Ears {
    vad: Vad,
    buffer: Vec<i16>,
    rate: u32,
}

impl Ears {
    /// Ears for a line at `rate`, with the gateway's voice detector (Silero where it runs).
    pub fn new(app: &App, rate: u32) -> Self {
        let config = VadConfig::from(&app.settings.voice);
        let vad = match &app.silero {
            Ok(model) => Vad::neural(config, rate, model),
            Err(_) => Vad::new(config, rate),
        };
        Self {
            vad,
            buffer: Vec::new(),
            rate,
        }
    }

    /// Adds the line's audio: an utterance once one ended.
    pub fn hear(&mut self, samples: &[i16]) -> Option<Pcm> {
        self.buffer.extend_from_slice(samples);
        match self.vad.update(&self.buffer) {
            VadEvent::Listening => {
                let longest = LONGEST_S * self.rate as usize;
                if self.buffer.len() > longest {
                    // Talking on and on: what was said is kept as one utterance, heard now.
                    let n = self.vad.finish().min(self.buffer.len());
                    return Some(self.take(n));
                }
                None
            }
            VadEvent::DropSilence(n) => {
                self.buffer.drain(..n.min(self.buffer.len()));
                None
            }
            VadEvent::Utterance(n) => Some(self.take(n.min(self.buffer.len()))),
        }
    }

    fn take(&mut self, n: usize) -> Pcm {
        let samples: Vec<i16> = self.buffer.drain(..n).collect();
        self.buffer.clear();
        self.vad.reset();
        Pcm {
            sample_rate: self.rate,
            samples,
            channels: 1,
        }
    }
}

/// What `user` said in `audio`, heard in `language`; none when the recogniser failed (the call goes on, a key
/// still answers).
pub async fn heard(app: Arc<App>, user: User, language: String, audio: Pcm) -> Option<String> {
    let layer = RouteLayer {
        language: Some(language),
        ..RouteLayer::default()
    };
    let (eff, _, route) = speech::route_alone(&app, &user, layer).await.ok()?;
    match speech::transcribe(&app, &eff, &route, &audio).await {
        Ok((transcript, _)) => Some(transcript.text),
        Err(err) => {
            tracing::warn!(%err, "an answer on a call could not be heard");
            None
        }
    }
}
