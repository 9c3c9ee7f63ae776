//! The answer to `describe`: what Home Assistant may ask of the gateway. Home Assistant parses `info`
//! strictly, so every program, model and voice carries `name`, `attribution`, `installed`, `description`,
//! `version` and its `languages` (and `models` or `voices`), even when empty.

use serde::Serialize;

use crate::app::App;
use crate::config::keys::Key;
use crate::config::languages;
use crate::config::runtime::Effective;
use crate::providers::TtsId;

/// The name of the gateway's programs and models.
const NAME: &str = "voice-gateway";

/// The `info` event's data: an ASR program (the user's speech-to-text route), a TTS program (the voices)
/// and a handle program (the conversation agent); no intent, wake word, microphone or speaker.
#[derive(Debug, Serialize)]
pub struct Info {
    asr: [Asr; 1],
    tts: [Tts; 1],
    handle: [Handle; 1],
    intent: [(); 0],
    wake: [(); 0],
    mic: [(); 0],
    snd: [(); 0],
}

/// The fields every artifact (program, model, voice) has.
#[derive(Debug, Serialize)]
struct Artifact {
    name: String,
    attribution: Attribution,
    installed: bool,
    description: String,
    version: &'static str,
}

#[derive(Debug, Serialize)]
struct Attribution {
    name: &'static str,
    url: &'static str,
}

impl Artifact {
    fn new(name: &str, description: &str) -> Self {
        Self {
            name: name.to_string(),
            attribution: Attribution { name: NAME, url: "" },
            installed: true,
            description: description.to_string(),
            version: env!("CARGO_PKG_VERSION"),
        }
    }
}

/// A model (of speech recognition, of the conversation) and its languages.
#[derive(Debug, Serialize)]
struct Model {
    #[serde(flatten)]
    artifact: Artifact,
    languages: Vec<&'static str>,
}

#[derive(Debug, Serialize)]
struct Asr {
    #[serde(flatten)]
    artifact: Artifact,
    models: [Model; 1],
    supports_transcript_streaming: bool,
    requires_external_vad: bool,
    prefers_auto_gain_enabled: bool,
    prefers_noise_reduction_enabled: bool,
}

#[derive(Debug, Serialize)]
struct Tts {
    #[serde(flatten)]
    artifact: Artifact,
    voices: Vec<Voice>,
    supports_synthesize_streaming: bool,
}

#[derive(Debug, Serialize)]
struct Voice {
    #[serde(flatten)]
    artifact: Artifact,
    languages: Vec<String>,
    /// A voice of one speaker.
    speakers: Option<()>,
}

#[derive(Debug, Serialize)]
struct Handle {
    #[serde(flatten)]
    artifact: Artifact,
    models: [Model; 1],
    supports_handled_streaming: bool,
    supports_home_control: bool,
}
/// A voice as Wyoming names it: `<provider>/<voice>`, which `synthesize` takes back.
pub fn voice_name(provider: TtsId, voice: &str) -> String {
    format!("{}/{voice}", provider.as_str())
}

/// The voices of the configured speech engines, as each offers them.
fn voices(app: &App, eff: &Effective) -> Vec<Voice> {
    let mut voices = Vec::new();
    for (id, engine) in app.providers.tts.iter() {
        if !engine.capabilities().configured {
            continue;
        }
        let default_voice = Key::voice_of(id).map(|key| eff.get(key));
        for offered in engine.offered(default_voice) {
            let description = format!("{} ({})", offered.voice, id.as_str());
            voices.push(Voice {
                artifact: Artifact::new(&voice_name(id, &offered.voice), &description),
                languages: offered.languages,
                speakers: None,
            });
        }
    }
    voices
}

/// The `info` event's data.
pub fn info(app: &App, eff: &Effective) -> Info {
    let model = |description: &str| Model {
        artifact: Artifact::new(NAME, description),
        languages: languages().to_vec(),
    };
    let asr = Asr {
        artifact: Artifact::new(NAME, "speech to text along the user's route and its fallbacks"),
        models: [model("the user's speech-to-text route")],
        supports_transcript_streaming: false,
        // The gateway's detector and Smart Turn end the utterance: `transcript` may come before `audio-stop`.
        requires_external_vad: false,
        prefers_auto_gain_enabled: true,
        prefers_noise_reduction_enabled: true,
    };
    let tts = Tts {
        artifact: Artifact::new(NAME, "text to speech along the user's route and its fallbacks"),
        voices: voices(app, eff),
        supports_synthesize_streaming: true,
    };
    let handle = Handle {
        artifact: Artifact::new(NAME, "the gateway's conversation: memories, web search, quota"),
        models: [model("the user's language model route")],
        supports_handled_streaming: false,
        supports_home_control: false,
    };
    Info {
        asr: [asr],
        tts: [tts],
        handle: [handle],
        intent: [],
        wake: [],
        mic: [],
        snd: [],
    }
}
