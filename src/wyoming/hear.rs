//! Hearing for Home Assistant: `transcribe`, then `audio-start` / `audio-chunk`… / `audio-stop` at any rate,
//! 16-bit, mono or stereo, become 16 kHz mono as they arrive; at `audio-stop` the utterance is transcribed
//! along the user's STT chain and answered with `transcript`.

use serde_json::{Map, Value, json};

use super::codec::Event;
use crate::app::App;
use crate::config::route::RouteLayer;
use crate::error::Result;
use crate::providers::audio::Pcm;
use crate::providers::resample::Resampler;
use crate::store::users::User;
use crate::turn::speech;

/// The rate the recognisers hear.
const RATE: u32 = 16_000;

/// One utterance being received.
pub struct Hearing {
    /// The language Home Assistant named.
    language: Option<String>,
    /// The audio so far, 16 kHz mono.
    samples: Vec<i16>,
    /// The converter from the incoming rate, while it differs from 16 kHz.
    resampler: Option<(u32, Resampler)>,
    /// Samples kept at most (`MAX_UTTERANCE_SECONDS`); later audio is dropped.
    max_samples: usize,
}

impl Hearing {
    /// A `transcribe` request.
    pub fn new(data: &Map<String, Value>, max_seconds: u32) -> Self {
        Self {
            language: data.get("language").and_then(Value::as_str).map(String::from),
            samples: Vec::new(),
            resampler: None,
            max_samples: max_seconds as usize * RATE as usize,
        }
    }

    /// An `audio-chunk` (or `audio-start`, which only names the format): its samples, made 16 kHz mono.
    pub fn audio(&mut self, event: &Event) -> Result<(), String> {
        let field = |name: &str| event.data.get(name).and_then(Value::as_u64);
        let (Some(rate), Some(width), Some(channels)) = (field("rate"), field("width"), field("channels")) else {
            return Err(format!("{} without rate, width and channels", event.kind));
        };
        if width != 2 || channels == 0 || channels > 8 || !(1000..=384_000).contains(&rate) {
            return Err(format!(
                "audio of {rate} Hz, {width} bytes, {channels} channels: 16-bit (width 2) at 1–384 kHz is heard"
            ));
        }
        let frame = 2 * channels as usize;
        if !event.payload.len().is_multiple_of(frame) {
            return Err("an audio chunk that is not whole samples".into());
        }
        let mono: Vec<i16> = event
            .payload
            .chunks_exact(frame)
            .map(|f| {
                let sum: i32 = f
                    .chunks_exact(2)
                    .map(|s| i32::from(i16::from_le_bytes([s[0], s[1]])))
                    .sum();
                (sum / channels as i32) as i16
            })
            .collect();
        let rate = rate as u32;
        if self.resampler.as_ref().is_some_and(|(from, _)| *from != rate) {
            self.flush();
        }
        let converted = if rate == RATE {
            mono
        } else {
            let (_, resampler) = self.resampler.get_or_insert_with(|| (rate, Resampler::new(rate, RATE)));
            resampler.push(&mono)
        };
        self.keep(&converted);
        Ok(())
    }

    /// Ends the conversion from the incoming rate.
    fn flush(&mut self) {
        if let Some((_, mut resampler)) = self.resampler.take() {
            let rest = resampler.finish();
            self.keep(&rest);
        }
    }

    fn keep(&mut self, samples: &[i16]) {
        let room = self.max_samples.saturating_sub(self.samples.len());
        if samples.len() > room {
            tracing::warn!("a Wyoming utterance passed MAX_UTTERANCE_SECONDS; the rest is not heard");
        }
        self.samples.extend_from_slice(&samples[..samples.len().min(room)]);
    }

    /// `audio-stop`: the utterance transcribed along the user's STT chain, as a `transcript` event.
    pub async fn finish(mut self, app: &App, user: &User) -> Result<Event> {
        self.flush();
        let layer = RouteLayer {
            language: self.language.clone(),
            ..RouteLayer::default()
        };
        let audio = Pcm {
            sample_rate: RATE,
            samples: self.samples,
            channels: 1,
        };
        let (text, language, fallbacks) = speech::hear(app, user, layer, &audio).await?;
        if !fallbacks.is_empty() {
            tracing::info!(?fallbacks, "a Wyoming transcription fell back");
        }
        Ok(Event::with("transcript", json!({"text": text, "language": language})))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(rate: u32, channels: u16, samples: &[i16]) -> Event {
        let mut event = Event::with("audio-chunk", json!({"rate": rate, "width": 2, "channels": channels}));
        event.payload = samples.iter().flat_map(|s| s.to_le_bytes()).collect();
        event
    }

    #[test]
    fn stereo_at_any_rate_becomes_16_khz_mono() {
        let mut hearing = Hearing::new(&Map::new(), 10);
        // 0.1 s of stereo at 48 kHz: left and right average to 100.
        let frames: Vec<i16> = (0..4800).flat_map(|_| [50, 150]).collect();
        hearing.audio(&chunk(48_000, 2, &frames)).unwrap();
        hearing.flush();
        assert!(
            (1590..=1610).contains(&hearing.samples.len()),
            "{}",
            hearing.samples.len()
        );
        assert!(hearing.samples[400..1200].iter().all(|&s| (95..=105).contains(&s)));
    }

    #[test]
    fn other_widths_and_broken_chunks_are_refused_and_long_audio_is_cut() {
        let mut hearing = Hearing::new(&Map::new(), 1);
        let mut wide = chunk(16_000, 1, &[0; 4]);
        wide.data.insert("width".into(), json!(4));
        assert!(hearing.audio(&wide).is_err());
        let mut odd = chunk(16_000, 2, &[0; 4]);
        odd.payload.pop();
        assert!(hearing.audio(&odd).is_err());
        hearing.audio(&chunk(16_000, 1, &[1; 20_000])).unwrap();
        assert_eq!(hearing.samples.len(), 16_000);
    }
}
