//! Hearing for Home Assistant: `transcribe`, then `audio-start` / `audio-chunk`… / `audio-stop` at any rate,
//! 16-bit, mono or stereo, become 16 kHz mono as they arrive and go to the voice core's listener: its detector
//! and Smart Turn end the utterance, and the transcription starts while the end is awaited. The `transcript`
//! goes out as soon as the turn is over, even before `audio-stop` (which then ends the request quietly). When
//! the detector did not end it, `audio-stop` does, and the whole request's audio is transcribed: the detector
//! may make an answer faster, but never loses words it did not hear as speech.

// Numbers from the wire are read here: no arithmetic may overflow or panic, whatever they are.
#![deny(clippy::arithmetic_side_effects)]

use std::sync::Arc;

use serde_json::{Map, Value};

use super::codec::Event;
use super::events::Sent;
use crate::app::App;
use crate::config::route::RouteLayer;
use crate::error::{ApiError, Result};
use crate::listen::end_of_turn::Verdict;
use crate::providers::ProviderId;
use crate::providers::audio::Pcm;
use crate::providers::resample::Resampler;
use crate::store::users::User;
use crate::turn::{TurnOptions, quota, speech};
use crate::voice::stages::{Clock, Stage};
use crate::voice::{Detection, Heard, Listener, Options, Utterance};

/// The rate the recognisers hear.
const RATE: u32 = 16_000;

/// One utterance being received.
pub struct Hearing {
    /// The language Home Assistant named.
    language: Option<String>,
    /// The converter from the incoming rate, while it differs from 16 kHz.
    resampler: Option<(u32, Resampler)>,
    listener: Listener,
    /// The whole request's audio, 16 kHz mono, up to `MAX_UTTERANCE_SECONDS`.
    all: Vec<i16>,
    max_samples: usize,
    user: User,
    /// The transcript went out: the rest of the request's audio is not heard.
    answered: bool,
    /// Audio events past `MAX_UTTERANCE_SECONDS`: the first is logged, the rest counted for one line at the end
    /// (a client sending two bytes at a time must not write a line each).
    unheard: u64,
    /// For the clock of its turn.
    app: Arc<App>,
}

impl Hearing {
    /// A `transcribe` request of `user`.
    pub fn new(app: &Arc<App>, user: User, data: &Map<String, Value>) -> Self {
        let language = data.get("language").and_then(Value::as_str).map(String::from);
        let options = Options {
            turn: TurnOptions {
                language: language.clone(),
                ..TurnOptions::default()
            },
            ..Options::default()
        };
        Self {
            listener: Listener::new(app.clone(), user.clone(), options, RATE, Some(Detection::standard())),
            all: Vec::new(),
            max_samples: (app.settings.voice.max_utterance_secs as usize).saturating_mul(RATE as usize),
            user,
            language,
            resampler: None,
            answered: false,
            unheard: 0,
            app: app.clone(),
        }
    }

    /// An `audio-chunk` (or `audio-start`, which only names the format): its samples, made 16 kHz mono, heard;
    /// the utterance when the detector ended it.
    pub fn audio(&mut self, event: &Event) -> Result<Option<Utterance>> {
        if self.answered {
            return Ok(None);
        }
        let mono = mono(event).map_err(ApiError::Validation)?;
        let rate = event
            .data
            .get("rate")
            .and_then(Value::as_u64)
            .unwrap_or(u64::from(RATE)) as u32;
        let mut converted = match self.resampler.take() {
            Some((from, mut resampler)) if from != rate => resampler.finish(),
            other => {
                self.resampler = other;
                Vec::new()
            }
        };
        if rate == RATE {
            converted.extend(mono);
        } else {
            let (_, resampler) = self.resampler.get_or_insert_with(|| (rate, Resampler::new(rate, RATE)));
            converted.extend(resampler.push(&mono));
        }
        self.hear(&converted)
    }

    fn hear(&mut self, samples: &[i16]) -> Result<Option<Utterance>> {
        let room = self.max_samples.saturating_sub(self.all.len());
        if samples.len() > room {
            if self.unheard == 0 {
                tracing::warn!("a Wyoming utterance passed MAX_UTTERANCE_SECONDS; the rest is not heard");
            }
            self.unheard = self.unheard.saturating_add(1);
        }
        self.all.extend_from_slice(&samples[..samples.len().min(room)]);
        for heard in self.listener.hear(samples, false) {
            match heard {
                Heard::Utterance(utterance) => return Ok(Some(utterance)),
                Heard::OverBudget => {
                    return Err(ApiError::Overloaded(
                        "the gateway holds too much audio right now".into(),
                    ));
                }
                // Too long for the detector: `audio-stop` ends it.
                // Never resumed: the utterances here are transcribed, not answered (the satellite's pipeline
                // asks the question).
                Heard::TooLong { .. }
                | Heard::SpeechStarted { .. }
                | Heard::BargeIn
                | Heard::Ignored { .. }
                | Heard::Resumed { .. } => {}
            }
        }
        Ok(None)
    }

    /// Waits for Smart Turn's verdict on the current pause (never, when none is asked); cancel-safe.
    pub async fn verdict(&mut self) -> Verdict {
        self.listener.verdict().await
    }

    /// Acts on the verdict: the utterance, when the turn is over.
    pub fn decide(&mut self, verdict: Verdict) -> Option<Utterance> {
        match self.listener.decide(verdict, false)? {
            Heard::Utterance(utterance) if !self.answered => Some(utterance),
            _ => None,
        }
    }

    /// `audio-stop`: what was heard and not yet answered (none when the transcript went out already).
    pub fn stop(&mut self) -> Result<Option<Utterance>> {
        if self.answered {
            return Ok(None);
        }
        if let Some((_, mut resampler)) = self.resampler.take()
            && let Some(utterance) = self.hear(&resampler.finish())?
        {
            return Ok(Some(utterance));
        }
        let samples = std::mem::take(&mut self.all);
        Ok(Some(Utterance {
            end_ms: (samples.len() as u64)
                .saturating_mul(1000)
                .checked_div(u64::from(RATE))
                .unwrap_or_default(),
            audio: Pcm {
                sample_rate: RATE,
                samples,
                channels: 1,
            },
            early: None,
            silence: std::time::Duration::ZERO,
            pace: None,
        }))
    }

    /// The utterance transcribed along the user's STT chain (or taken from the early transcription), as a
    /// `transcript` event; counted against the quota like `/api/transcribe`.
    pub async fn transcript(&mut self, app: &App, utterance: Utterance) -> Result<Event> {
        let user = &self.user;
        self.answered = true;
        // A Home Assistant turn is measured up to its transcript (the rest of the pipeline is Home Assistant's).
        let clock = Clock::start(self.app.clone(), "wyoming", utterance.silence);
        clock.mark(Stage::EndOfTurn, None);
        let layer = RouteLayer {
            language: self.language.clone(),
            ..RouteLayer::default()
        };
        let early = match utterance.early {
            Some(early) => early.result().await,
            None => None,
        };
        let (text, language) = match early {
            Some((heard, _)) => {
                let (eff, prefs, route) = speech::route_alone(app, user, layer).await?;
                quota::charge_request(app, &user.id, &prefs, &eff).await?;
                clock.mark(Stage::Transcription, Some(route.stt.name()));
                (heard.text, heard.language.unwrap_or(route.language))
            }
            None => {
                let (text, language, fallbacks) = speech::hear(app, user, layer, &utterance.audio).await?;
                clock.mark(Stage::Transcription, None);
                if !fallbacks.is_empty() {
                    tracing::info!(?fallbacks, "a Wyoming transcription fell back");
                }
                (text, language)
            }
        };
        Ok(Sent::Transcript { text, language }.into())
    }
}

impl Drop for Hearing {
    fn drop(&mut self) {
        if self.unheard > 1 {
            tracing::warn!(
                chunks = self.unheard,
                "audio of a Wyoming utterance past MAX_UTTERANCE_SECONDS was not heard"
            );
        }
    }
}

/// The samples of an audio event, averaged to mono.
fn mono(event: &Event) -> Result<Vec<i16>, String> {
    let field = |name: &str| event.data.get(name).and_then(Value::as_u64);
    let (Some(rate), Some(width), Some(channels)) = (field("rate"), field("width"), field("channels")) else {
        return Err(format!("{} without rate, width and channels", event.kind));
    };
    if width != 2 || channels == 0 || channels > 8 || !(1000..=384_000).contains(&rate) {
        return Err(format!(
            "audio of {rate} Hz, {width} bytes, {channels} channels: 16-bit (width 2) at 1–384 kHz is heard"
        ));
    }
    let frame = (channels as usize).saturating_mul(2);
    if !event.payload.len().is_multiple_of(frame) {
        return Err("an audio chunk that is not whole samples".into());
    }
    Ok(event
        .payload
        .chunks_exact(frame)
        .map(|f| {
            let sum: i32 = f
                .chunks_exact(2)
                .map(|s| i32::from(i16::from_le_bytes([s[0], s[1]])))
                .sum();
            sum.checked_div(channels as i32).unwrap_or_default() as i16
        })
        .collect())
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)]
mod tests {
    use super::*;
    use serde_json::json;

    fn chunk(rate: u32, channels: u16, samples: &[i16]) -> Event {
        let mut event = Event::with("audio-chunk", json!({"rate": rate, "width": 2, "channels": channels}));
        event.payload = samples.iter().flat_map(|s| s.to_le_bytes()).collect();
        event
    }

    #[test]
    fn stereo_becomes_mono_and_other_widths_and_broken_chunks_are_refused() {
        // Left and right average to 100.
        let frames: Vec<i16> = (0..480).flat_map(|_| [50, 150]).collect();
        let heard = mono(&chunk(48_000, 2, &frames)).unwrap();
        assert_eq!(heard.len(), 480);
        assert!(heard.iter().all(|&s| s == 100));
        let mut wide = chunk(16_000, 1, &[0; 4]);
        wide.data.insert("width".into(), json!(4));
        assert!(mono(&wide).is_err());
        let mut odd = chunk(16_000, 2, &[0; 4]);
        odd.payload.pop();
        assert!(mono(&odd).is_err());
        assert!(mono(&Event::with("audio-chunk", json!({"rate": 16000}))).is_err());
    }
}
