//! The speech stages of a turn, shared by `/api/chat`, `/api/speak` and `/api/transcribe`: synthesis with the
//! local-voice fallback for languages the cloud TTS cannot speak, and transcription, each along its chain.

use std::time::Duration;

use super::fallback::{Answered, Failure, walk};
use super::{TurnRequest, check_text, provider_error, quota, route_for};
use crate::app::App;
use crate::config::keys::Key;
use crate::config::route::{Route, RouteLayer};
use crate::config::runtime::Effective;
use crate::error::{ApiError, Result};
use crate::prefs::Prefs;
use crate::providers::audio::Pcm;
use crate::providers::stt::{self, Transcript};
use crate::providers::tts::{self, Speech, SpeechRequest};
use crate::providers::{ProviderError, TtsId};
use crate::store::users::User;
use crate::text::pipeline::Pipeline;

/// The route of a speak or transcribe request outside a turn (no session): effective settings, the user's
/// prefs, the route.
pub async fn route_alone(app: &App, user: &User, layer: RouteLayer) -> Result<(Effective, Prefs, Route)> {
    let eff = app.runtime.effective().await?;
    let prefs = app.store.prefs(&user.id).await?;
    let request = TurnRequest {
        layer,
        ..TurnRequest::default()
    };
    let route = route_for(app, &eff, &prefs, &request);
    Ok((eff, prefs, route))
}

/// The route of the gateway's own defaults (no user's prefs): for words said to somebody the gateway does not
/// know (a refused caller).
pub async fn route_default(app: &App) -> Result<(Effective, Prefs, Route)> {
    let eff = app.runtime.effective().await?;
    let prefs = Prefs::default();
    let route = route_for(app, &eff, &prefs, &TurnRequest::default());
    Ok((eff, prefs, route))
}

/// Speaks a text outside a turn (`/api/speak`, `/v1/audio/speech`): checks the voice, counts the request, puts
/// the text through the text pipeline and speaks it along the TTS chain.
pub async fn speak(app: &App, user: &User, layer: RouteLayer, text: &str) -> Result<Said> {
    let (eff, prefs, route) = route_alone(app, user, layer).await?;
    speak_along(app, user, (&eff, &prefs, &route), text).await
}

/// [`speak`] along a route the caller resolved with [`route_alone`] (and may have adjusted).
pub async fn speak_along(app: &App, user: &User, resolved: (&Effective, &Prefs, &Route), text: &str) -> Result<Said> {
    let (eff, prefs, route) = resolved;
    let text = check_text(text)?;
    let spoken = accept_speaking(app, user, resolved).await?.split_all(text).join(" ");
    if spoken.trim().is_empty() {
        return Err(ApiError::BadRequest {
            code: "empty_text",
            message: "nothing speakable in the text".into(),
        });
    }
    synthesize(app, eff, prefs, route, &spoken).await
}

/// Accepts a request to speak outside a turn along a resolved route: checks the voice and counts the request;
/// answers the text pipeline of the route's language, which makes the text speakable (whole, or streamed into
/// sentences).
pub async fn accept_speaking(app: &App, user: &User, resolved: (&Effective, &Prefs, &Route)) -> Result<Pipeline> {
    let (eff, prefs, route) = resolved;
    check_voice(app, route)?;
    quota::charge_request(app, &user.id, prefs, eff).await?;
    let lexicon = app.lexicon(&route.language).await?;
    Ok(Pipeline::new(
        &route.language,
        lexicon,
        eff.flag(Key::TtsNormalizationEnabled),
    ))
}

/// Transcribes audio outside a turn (`/api/transcribe`, `/v1/audio/transcriptions`): counts the request and
/// transcribes along the STT chain. Answers the transcript, the language heard (or the route's) and the
/// providers that failed before.
pub async fn hear(app: &App, user: &User, layer: RouteLayer, audio: &Pcm) -> Result<(String, String, Vec<String>)> {
    let (eff, prefs, route) = route_alone(app, user, layer).await?;
    quota::charge_request(app, &user.id, &prefs, &eff).await?;
    let (transcript, fallbacks) = transcribe(app, &eff, &route, audio).await?;
    Ok((
        transcript.text,
        transcript.language.unwrap_or(route.language),
        fallbacks,
    ))
}

/// The engine that speaks when the route's cannot speak its language: the first configured local one (in
/// registration order: espeak-ng, which speaks every language) that can.
fn local_voice(app: &App, route: &Route) -> TtsId {
    app.providers
        .tts
        .iter()
        .find(|(_, engine)| {
            let can = engine.capabilities();
            can.local && can.configured && engine.speaks(&route.language)
        })
        .map_or(route.tts, |(id, _)| id)
}

/// Synthesised speech and how it came about.
pub struct Said {
    /// The audio.
    pub speech: Speech,
    /// The TTS provider that spoke.
    pub provider: TtsId,
    /// The chosen engine cannot speak the language, so the local voice spoke (`tts_fallback`).
    pub language_fallback: bool,
    /// `tts:<id>` for every engine that failed before.
    pub fallbacks: Vec<String>,
}

/// A voice named by the route must be usable by the route's TTS engine (422 otherwise).
pub fn check_voice(app: &App, route: &Route) -> Result<()> {
    let Some(voice) = &route.voice else {
        return Ok(());
    };
    app.providers
        .tts
        .get(route.tts)
        .check_voice(voice, &route.language)
        .map_err(|problem| ApiError::invalid("voice", problem))
}

/// Whether the route's TTS cannot speak the route's language, so the local voice will speak instead.
pub fn language_fallback(app: &App, route: &Route) -> bool {
    !app.providers.tts.get(route.tts).speaks(&route.language)
}

/// What the person should know of the voice before a spoken answer: which one speaks and why, when the
/// route's cannot speak the language (the voice they chose, or the engine's voices when they chose none).
pub fn voice_notice(app: &App, route: &Route) -> Option<String> {
    if !language_fallback(app, route) {
        return None;
    }
    let words = crate::phrasebook::Words::formal(&route.language);
    let speaker = ("speaker", tts::known_as(local_voice(app, route)).into());
    Some(match &route.voice {
        Some(voice) => words.with("turn-voice-fallback", &[("voice", voice.clone().into()), speaker]),
        None => words.with(
            "turn-voice-missing",
            &[("engine", tts::known_as(route.tts).into()), speaker],
        ),
    })
}

/// The engine and voice that speak `language` for these prefs when a request names neither: what the page's
/// voice menu shows as its automatic choice.
pub fn default_speaker(app: &App, eff: &Effective, prefs: &Prefs, language: &str) -> (TtsId, String) {
    let request = TurnRequest {
        layer: RouteLayer {
            language: Some(language.to_string()),
            ..RouteLayer::default()
        },
        ..TurnRequest::default()
    };
    let route = route_for(app, eff, prefs, &request);
    let (provider, asked) = if language_fallback(app, &route) {
        (local_voice(app, &route), None)
    } else {
        (route.tts, route.voice.clone().or_else(|| default_voice(eff, route.tts)))
    };
    let voice = app.providers.tts.get(provider).voice_for(asked, &route.language);
    (provider, voice.unwrap_or_else(|| route.language.clone()))
}

/// An engine's own default voice where the settings name one (`OPENAI_TTS_VOICE`, `PIPER_VOICE`).
fn default_voice(eff: &Effective, provider: TtsId) -> Option<String> {
    let key = Key::voice_of(provider)?;
    Some(eff.get(key).to_string()).filter(|v| !v.is_empty())
}

/// The engines that speak a route's text, first choice first, the voice of the first, and whether the chosen
/// engine cannot speak the language (so the local voice is first).
fn voice_plan(app: &App, route: &Route) -> (Vec<TtsId>, Option<String>, bool) {
    let mut first = route.tts;
    let mut voice = route.voice.clone();
    let language_fallback = language_fallback(app, route);
    if language_fallback {
        app.metrics
            .incr(crate::metrics::TTS_LANGUAGE_FALLBACK_TOTAL, &[("from", first.as_str())]);
        first = local_voice(app, route);
        voice = None;
    }
    let order = super::order(&app.providers.tts, route, first, &app.settings.fallbacks.tts);
    (order, voice, language_fallback)
}

/// Speaks `text` in the route's language and voice, falling back along `TTS_FALLBACK`.
#[tracing::instrument(target = "turn_trace", name = "speech", skip_all,
    fields(provider = tracing::field::Empty, chars = text.chars().count()))]
pub async fn synthesize(app: &App, eff: &Effective, prefs: &Prefs, route: &Route, text: &str) -> Result<Said> {
    // The whole answer is gathered inside the walk, so an engine that breaks off gives way to the next one.
    let whole = |stream: tts::SpeechStream| async move {
        let pcm = stream.collect().await?;
        Ok(Speech {
            audio: pcm.to_wav(),
            format: "wav",
        })
    };
    let (answered, language_fallback) = along_chain(app, eff, prefs, route, text, whole).await?;
    tracing::Span::current().record("provider", answered.provider.as_str());
    Ok(Said {
        speech: answered.value,
        provider: answered.provider,
        language_fallback,
        fallbacks: answered.fallbacks,
    })
}

/// Speech of one text while it is produced (channels that play audio as it comes: Wyoming).
pub struct Speaking {
    /// The engine's stream, after [`Self::first`]; chunks at its `sample_rate`.
    pub stream: tts::SpeechStream,
    /// The first chunk, already taken: an engine that fails before it speaks gives way to the next one.
    pub first: Vec<i16>,
    /// The TTS provider that speaks.
    pub provider: TtsId,
    /// `tts:<id>` for every engine that failed before.
    pub fallbacks: Vec<String>,
}

/// [`synthesize`] as a stream: the same engines, voice and fallbacks, but the speech comes out as the engine
/// produces it. A failure after the first chunk ends the stream (part of the answer was already heard).
pub async fn synthesize_stream(
    app: &App,
    eff: &Effective,
    prefs: &Prefs,
    route: &Route,
    text: &str,
) -> Result<Speaking> {
    let first = |mut stream: tts::SpeechStream| async move {
        let first = stream.next().await.transpose()?.unwrap_or_default();
        Ok((stream, first))
    };
    let (answered, _) = along_chain(app, eff, prefs, route, text, first).await?;
    let (stream, first) = answered.value;
    Ok(Speaking {
        stream,
        first,
        provider: answered.provider,
        fallbacks: answered.fallbacks,
    })
}

/// Walks the TTS chain for `text`: each engine that speaks the language opens its stream (its own, or its
/// whole file as one chunk), and `finish` takes from it what the caller needs; a failure in either tries the
/// next engine. Also answers whether the local voice stood in for the language.
async fn along_chain<T, Fut>(
    app: &App,
    eff: &Effective,
    prefs: &Prefs,
    route: &Route,
    text: &str,
    finish: impl Fn(tts::SpeechStream) -> Fut + Copy,
) -> Result<(Answered<T, TtsId>, bool)>
where
    Fut: Future<Output = Result<T, ProviderError>>,
{
    let language = route.language.as_str();
    let gender = prefs.voice_gender.as_deref().filter(|g| !g.is_empty());
    let (order, voice, language_fallback) = voice_plan(app, route);
    let answered = walk(
        app,
        &order,
        || format!("TTS provider {} for {language}", route.tts),
        |n, id| {
            let voice = if n == 0 { voice.clone() } else { None }.or_else(|| default_voice(eff, id));
            async move {
                let engine = Some(app.providers.tts.get(id)).filter(|e| e.speaks(language))?;
                let request = SpeechRequest {
                    text,
                    language,
                    voice: voice.as_deref(),
                    gender,
                };
                let spoken = match tts::open(engine, id.as_str(), &request).await {
                    Ok(stream) => finish(stream).await,
                    Err(err) => Err(err),
                };
                Some(spoken.map_err(Failure::from))
            }
        },
    )
    .await
    .map_err(provider_error)?;
    if language_fallback {
        // Named after the walk: the local voice may itself have failed over along the chain.
        tracing::info!(
            language,
            instead_of = route.tts.as_str(),
            provider = answered.provider.as_str(),
            "TTS cannot speak the language; another voice spoke it"
        );
    }
    Ok((answered, language_fallback))
}

/// How long a second hearing ([`transcribe_after`]) may take: it delays the answer to an unclear utterance.
const AFTER_LIMIT: Duration = Duration::from_secs(4);

/// Transcribes audio once more with the route's STT engine in the route's language, with `prompt` as the text
/// said before it; none when the engine takes no prompt, fails or takes longer than [`AFTER_LIMIT`] (no
/// fallback: the first hearing stands).
pub async fn transcribe_after(app: &App, route: &Route, audio: &Pcm, prompt: &str) -> Option<Transcript> {
    let engine = app.providers.stt.get(route.stt);
    let mono = (audio.channels > 1).then(|| crate::providers::audio::to_mono(audio.clone()));
    let hearing = engine.transcribe_after(mono.as_ref().unwrap_or(audio), Some(&route.language), prompt);
    match tokio::time::timeout(AFTER_LIMIT, hearing).await {
        Ok(Some(Ok(transcript))) => Some(transcript),
        Ok(Some(Err(err))) => {
            tracing::warn!(provider = %route.stt, "a second hearing failed: {err}");
            None
        }
        Ok(None) => None,
        Err(_) => {
            tracing::warn!(provider = %route.stt, "a second hearing took longer than {AFTER_LIMIT:?}");
            None
        }
    }
}

/// The language speech is transcribed in: the route's, which is always fixed (the person's pref, else the
/// request's or session's, else `DEFAULT_LANGUAGE`, clamped to the allowed ones); none only with
/// `stt_force_language` off, where the recogniser tells the language it hears and the words are translated.
pub fn forced_language<'a>(eff: &Effective, route: &'a Route) -> Option<&'a str> {
    eff.flag(Key::SttForceLanguage).then_some(route.language.as_str())
}

/// Transcribes audio with the route's STT engine, falling back along `STT_FALLBACK`. The language is fixed
/// to the route's unless `stt_force_language` is off ([`forced_language`]).
pub async fn transcribe(app: &App, eff: &Effective, route: &Route, audio: &Pcm) -> Result<(Transcript, Vec<String>)> {
    let language = forced_language(eff, route);
    let order = super::order(&app.providers.stt, route, route.stt, &app.settings.fallbacks.stt);
    if order.is_empty() {
        return Err(super::kept_at_home(route));
    }
    let answered = walk(
        app,
        &order,
        || format!("STT provider {}", route.stt),
        |_, id| async move {
            // Through the stream every engine offers: the clip goes in whole, the final transcript comes out.
            let stream = stt::open(app.providers.stt.get(id), audio.sample_rate, language);
            if audio.channels > 1 {
                stream.push(&crate::providers::audio::to_mono(audio.clone()).samples);
            } else {
                stream.push(&audio.samples);
            }
            Some(stream.finish().await.map_err(Failure::from))
        },
    )
    .await
    .map_err(provider_error)?;
    Ok((answered.value, answered.fallbacks))
}
