//! Speaking for Home Assistant: `synthesize` gives one `audio-start`, the chunks as the engine produces them,
//! and `audio-stop`; the streaming form (`synthesize-start`, text deltas as `synthesize-chunk`,
//! `synthesize-stop`) speaks each sentence as soon as the text pipeline finds it complete, all of it in one
//! format, then `synthesize-stopped`.

use serde_json::{Map, Value};
use tokio::io::AsyncWrite;

use super::codec::{Event, write_event};
use super::events::{Format, Sent};
use crate::app::App;
use crate::config::route::{Route, RouteLayer};
use crate::config::runtime::Effective;
use crate::error::{ApiError, Result};
use crate::prefs::Prefs;
use crate::providers::TtsId;
use crate::providers::registry::Engines;
use crate::providers::resample::Resampler;
use crate::providers::tts::Tts;
use crate::store::users::User;
use crate::text::pipeline::SpokenStream;
use crate::turn::speech::{self, Speaking};

/// Samples of one `audio-chunk` at most: an engine's whole file is sent in pieces of this size.
const CHUNK_SAMPLES: usize = 4096;

/// The rate announced when nothing was spoken at all (an empty text): espeak-ng's.
const SILENT_RATE: u32 = 22_050;

/// A failure while speaking: the gateway's (sent as an `error` event) or the connection's (it closes).
#[derive(Debug)]
pub enum Failed {
    /// The request cannot be served; Home Assistant is told why.
    Refused(ApiError),
    /// Writing to Home Assistant failed.
    Io(std::io::Error),
}

impl From<ApiError> for Failed {
    fn from(err: ApiError) -> Self {
        Self::Refused(err)
    }
}

impl From<std::io::Error> for Failed {
    fn from(err: std::io::Error) -> Self {
        Self::Io(err)
    }
}

/// The route layer of a request's `voice`: `{"name": "espeak/de"}` names the engine and its voice (and so
/// the language, as the engine among `tts` tells), `{"language": "de"}` the language. A name the gateway did not
/// advertise is ignored.
pub fn voice_layer(tts: &Engines<TtsId, dyn Tts>, data: &Map<String, Value>) -> RouteLayer {
    let voice = data.get("voice").and_then(Value::as_object);
    let text = |field: &str| voice.and_then(|v| v.get(field)).and_then(Value::as_str);
    let mut layer = RouteLayer {
        language: text("language").map(String::from),
        ..RouteLayer::default()
    };
    if let Some(name) = text("name") {
        match name.split_once('/').map(|(p, v)| (p.parse::<TtsId>(), v)) {
            Some((Ok(provider), voice)) if !voice.is_empty() => {
                layer.language = tts.get(provider).language_of_voice(voice).or(layer.language);
                layer.tts_provider = Some(provider);
                layer.voice = Some(voice.to_string());
            }
            _ => tracing::debug!(name, "a voice the gateway did not advertise; the user's voice speaks"),
        }
    }
    layer
}

/// The route of a speech request and its acceptance (voice checked, request counted).
async fn accept(app: &App, user: &User, data: &Map<String, Value>) -> Result<(Effective, Prefs, Route, SpokenStream)> {
    let (eff, prefs, route) = speech::route_alone(app, user, voice_layer(&app.providers.tts, data)).await?;
    let pipeline = speech::accept_speaking(app, user, (&eff, &prefs, &route)).await?;
    Ok((eff, prefs, route, pipeline.stream()))
}

/// Audio going out in one format: `audio-start` with the rate of the first speech, every later speech
/// resampled to it, `audio-stop` once.
#[derive(Default)]
struct AudioOut {
    /// The announced rate, once `audio-start` is sent.
    rate: Option<u32>,
    /// Samples sent so far (for the chunks' timestamps).
    sent: u64,
}

impl AudioOut {
    async fn start<W: AsyncWrite + Unpin>(&mut self, w: &mut W, rate: u32) -> std::io::Result<u32> {
        if let Some(rate) = self.rate {
            return Ok(rate);
        }
        write_event(w, &Sent::AudioStart(Format::mono(rate)).into()).await?;
        self.rate = Some(rate);
        Ok(rate)
    }

    async fn samples<W: AsyncWrite + Unpin>(&mut self, w: &mut W, samples: &[i16]) -> std::io::Result<()> {
        let rate = self.rate.unwrap_or(SILENT_RATE);
        for piece in samples.chunks(CHUNK_SAMPLES) {
            let mut event = Event::from(Sent::AudioChunk {
                format: Format::mono(rate),
                timestamp: self.sent * 1000 / u64::from(rate),
            });
            event.payload = piece.iter().flat_map(|s| s.to_le_bytes()).collect();
            write_event(w, &event).await?;
            self.sent += piece.len() as u64;
        }
        Ok(())
    }

    /// Sends one speech as it is produced.
    async fn speech<W: AsyncWrite + Unpin>(&mut self, w: &mut W, speaking: Speaking) -> Result<(), Failed> {
        let Speaking { mut stream, first, .. } = speaking;
        let from = stream.sample_rate;
        let rate = self.start(w, from).await?;
        let mut resampler = (from != rate).then(|| Resampler::new(from, rate));
        let mut chunk = first;
        loop {
            let out = match &mut resampler {
                Some(r) => r.push(&chunk),
                None => chunk,
            };
            self.samples(w, &out).await?;
            match stream.next().await {
                Some(next) => chunk = next.map_err(crate::turn::provider_error)?,
                None => break,
            }
        }
        if let Some(mut r) = resampler {
            let rest = r.finish();
            self.samples(w, &rest).await?;
        }
        Ok(())
    }

    async fn stop<W: AsyncWrite + Unpin>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.start(w, SILENT_RATE).await?;
        write_event(w, &Sent::AudioStop { timestamp: None }.into()).await
    }
}

/// Speaks one sentence (or the whole text) along the route.
async fn say<W: AsyncWrite + Unpin>(
    app: &App,
    resolved: (&Effective, &Prefs, &Route),
    text: &str,
    out: &mut AudioOut,
    w: &mut W,
) -> Result<(), Failed> {
    if text.trim().is_empty() {
        return Ok(());
    }
    let (eff, prefs, route) = resolved;
    let speaking = speech::synthesize_stream(app, eff, prefs, route, text).await?;
    out.speech(w, speaking).await
}

/// `synthesize`: the whole text, as one audio stream spoken sentence by sentence, so that the first sentence is
/// heard while the next is synthesized (as the reference Piper server does).
pub async fn synthesize<W: AsyncWrite + Unpin>(
    app: &App,
    user: &User,
    data: &Map<String, Value>,
    w: &mut W,
) -> Result<(), Failed> {
    let text = data.get("text").and_then(Value::as_str).unwrap_or_default();
    let text = crate::turn::check_text(text)?;
    let (eff, prefs, route, mut sentences) = accept(app, user, data).await?;
    let mut spoken = sentences.push(text);
    spoken.extend(sentences.finish());
    let mut out = AudioOut::default();
    for sentence in &spoken {
        say(app, (&eff, &prefs, &route), sentence, &mut out, w).await?;
    }
    out.stop(w).await?;
    Ok(())
}

/// A streaming synthesis between `synthesize-start` and `synthesize-stop`.
pub struct Streaming {
    eff: Effective,
    prefs: Prefs,
    route: Route,
    sentences: SpokenStream,
    out: AudioOut,
    /// Characters received so far: a streamed text has the same limit as a whole one.
    chars: usize,
}

impl Streaming {
    /// `synthesize-start`: the route of its voice, the request counted.
    pub async fn start(app: &App, user: &User, data: &Map<String, Value>) -> Result<Self> {
        let (eff, prefs, route, sentences) = accept(app, user, data).await?;
        Ok(Self {
            eff,
            prefs,
            route,
            sentences,
            out: AudioOut::default(),
            chars: 0,
        })
    }

    /// `synthesize-chunk`: a text delta; every sentence it completes is spoken at once.
    pub async fn chunk<W: AsyncWrite + Unpin>(&mut self, app: &App, text: &str, w: &mut W) -> Result<(), Failed> {
        self.chars += text.chars().count();
        if self.chars > crate::turn::MAX_TEXT_CHARS {
            return Err(ApiError::PayloadTooLarge.into());
        }
        for sentence in self.sentences.push(text) {
            say(app, (&self.eff, &self.prefs, &self.route), &sentence, &mut self.out, w).await?;
        }
        Ok(())
    }

    /// `synthesize-stop`: the rest is spoken, then `audio-stop` and `synthesize-stopped`.
    pub async fn stop<W: AsyncWrite + Unpin>(mut self, app: &App, w: &mut W) -> Result<(), Failed> {
        let rest = self.sentences.finish().join(" ");
        say(app, (&self.eff, &self.prefs, &self.route), &rest, &mut self.out, w).await?;
        self.out.stop(w).await?;
        write_event(w, &Event::new("synthesize-stopped")).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn layer(voice: Value) -> RouteLayer {
        let settings = crate::config::Settings::from_lookup(&|_| None).unwrap();
        let timeout = std::time::Duration::from_secs(5);
        let providers = crate::providers::Providers::new(&settings.providers, timeout, crate::config::languages());
        voice_layer(
            &providers.tts,
            json!({"text": "Hallo", "voice": voice}).as_object().unwrap(),
        )
    }

    #[test]
    fn an_advertised_voice_names_engine_voice_and_language_and_a_language_only_the_language() {
        let named = layer(json!({"name": "espeak/de"}));
        assert_eq!(
            (named.tts_provider, named.voice.as_deref(), named.language.as_deref()),
            (Some(TtsId::Espeak), Some("de"), Some("de"))
        );
        let piper = layer(json!({"name": "piper/en_US-joe-medium", "speaker": "0"}));
        assert_eq!(
            (piper.tts_provider, piper.language.as_deref()),
            (Some(TtsId::Piper), Some("en"))
        );
        // The OpenAI-compatible voice speaks every language: the request's (or the user's) stays.
        let openai = layer(json!({"name": "openai/alloy", "language": "fr"}));
        assert_eq!(
            (openai.tts_provider, openai.voice.as_deref(), openai.language.as_deref()),
            (Some(TtsId::Openai), Some("alloy"), Some("fr"))
        );
        let language = layer(json!({"language": "it"}));
        assert_eq!(
            (language.tts_provider, language.language.as_deref()),
            (None, Some("it"))
        );
        for unknown in [
            json!({"name": "festival/kal"}),
            json!({"name": "espeak/"}),
            json!({"name": "alloy"}),
            json!(null),
        ] {
            let layer = layer(unknown.clone());
            assert_eq!((layer.tts_provider, layer.voice), (None, None), "{unknown}");
        }
    }
}
