//! The answer to `describe`: what Home Assistant may ask of the gateway. Home Assistant parses `info`
//! strictly, so every program, model and voice carries `name`, `attribution`, `installed`, `description`,
//! `version` and its `languages` (and `models` or `voices`), even when empty.

use serde_json::{Value, json};

use super::codec::Event;
use crate::app::App;
use crate::config::LANGUAGES;
use crate::config::keys::Key;
use crate::config::runtime::Effective;
use crate::providers::TtsId;
use crate::providers::tts::piper;

/// The name of the gateway's programs and models.
const NAME: &str = "voice-gateway";

/// The fields every artifact (program, model, voice) has.
fn artifact(name: &str, description: &str) -> Value {
    json!({
        "name": name,
        "attribution": {"name": NAME, "url": ""},
        "installed": true,
        "description": description,
        "version": env!("CARGO_PKG_VERSION"),
    })
}

/// `artifact` with more fields.
fn with(mut base: Value, more: Value) -> Value {
    if let (Value::Object(base), Value::Object(more)) = (&mut base, more) {
        base.extend(more);
    }
    base
}

/// A voice as Wyoming names it: `<provider>/<voice>`, which `synthesize` takes back.
pub fn voice_name(provider: TtsId, voice: &str) -> String {
    format!("{}/{voice}", provider.as_str())
}

/// The one language a voice speaks, where its name tells (espeak-ng's voices are languages, Piper's start
/// with one); `None` for voices that speak every language of their engine.
pub fn language_of_voice(provider: TtsId, voice: &str) -> Option<String> {
    match provider {
        TtsId::Espeak => Some(voice.to_string()),
        TtsId::Piper => Some(piper::language_of(voice).to_string()),
        TtsId::Openai => None,
    }
}

/// The voices of the configured speech engines: espeak-ng in every language, the Piper voices found, the
/// OpenAI-compatible voice.
fn voices(app: &App, eff: &Effective) -> Vec<Value> {
    let mut voices = Vec::new();
    for (id, engine) in app.providers.tts.iter() {
        let capabilities = engine.capabilities();
        if !capabilities.configured {
            continue;
        }
        let named = match id {
            // The OpenAI-compatible engine takes any voice name; the gateway speaks with its default.
            TtsId::Openai => vec![eff.get(Key::OpenaiTtsVoice).to_string()],
            _ => capabilities.voices.clone(),
        };
        for voice in named.into_iter().filter(|v| !v.is_empty()) {
            let languages = match language_of_voice(id, &voice) {
                Some(language) => vec![language],
                None => capabilities.languages.clone(),
            };
            let description = format!("{voice} ({})", id.as_str());
            voices.push(with(
                artifact(&voice_name(id, &voice), &description),
                json!({"languages": languages, "speakers": null}),
            ));
        }
    }
    voices
}

/// The `info` event: an ASR program (the user's speech-to-text route), a TTS program (the voices) and a
/// handle program (the conversation agent).
pub fn info(app: &App, eff: &Effective) -> Event {
    let languages = LANGUAGES.to_vec();
    let asr = with(
        artifact(NAME, "speech to text along the user's route and its fallbacks"),
        json!({
            "models": [with(artifact(NAME, "the user's speech-to-text route"), json!({"languages": languages}))],
            "supports_transcript_streaming": false,
            // The gateway's detector and Smart Turn end the utterance: `transcript` may come before `audio-stop`.
            "requires_external_vad": false,
            "prefers_auto_gain_enabled": true,
            "prefers_noise_reduction_enabled": true,
        }),
    );
    let tts = with(
        artifact(NAME, "text to speech along the user's route and its fallbacks"),
        json!({"voices": voices(app, eff), "supports_synthesize_streaming": true}),
    );
    let handle = with(
        artifact(NAME, "the gateway's conversation: memories, web search, quota"),
        json!({
            "models": [with(artifact(NAME, "the user's language model route"), json!({"languages": languages}))],
            "supports_handled_streaming": false,
            "supports_home_control": false,
        }),
    );
    Event::with(
        "info",
        json!({
            "asr": [asr],
            "tts": [tts],
            "handle": [handle],
            "intent": [],
            "wake": [],
            "mic": [],
            "snd": [],
        }),
    )
}
