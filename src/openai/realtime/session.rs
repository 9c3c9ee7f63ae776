//! The session of a Realtime connection: the settings the gateway uses, changed by `session.update`, and the
//! session object built from them for `session.created` and `session.updated` (its shapes, GA and beta, are
//! in [`super::session_object`]).

use super::client::AudioFormat;
use crate::providers::audio::Pcm;
use crate::providers::g711;
use crate::voice;

use super::RATE;
use super::client::{Detection, SessionUpdate};
use super::conversation::Modality;
pub use super::session_object::Eagerness;
use super::session_object::{
    BetaSession, PcmFormat, ServerVadSettings, Session, SessionAudio, SessionInput, SessionObject, SessionOutput,
    TranscriptionSettings,
};

/// The session's settings the gateway uses.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The model as named at the handshake (`?model=`).
    pub model: String,
    /// Added to the gateway's system message.
    pub instructions: Option<String>,
    /// `["text"]`: answers without audio.
    pub text_only: bool,
    /// Turns end by the gateway's voice detector (`server_vad`); `None` (`turn_detection: null`): by commit.
    pub server_vad: Option<ServerVad>,
    /// A voice of the user's TTS engine (OpenAI's names are used by the `openai` engine only).
    pub voice: Option<String>,
    /// The language spoken (`transcription.language`).
    pub language: Option<String>,
    /// The encoding of the user's audio.
    pub input: Encoding,
    /// The encoding of the answer's audio.
    pub output: Encoding,
}

/// The audio encodings of the Realtime protocol: PCM16 at 24 kHz, or G.711 at 8 kHz as telephones send it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Pcm16,
    Ulaw,
    Alaw,
}

impl Encoding {
    /// The encoding a format names, in the GA or the beta form; `None` for any other.
    pub fn of(format: &AudioFormat) -> Option<Self> {
        match format {
            AudioFormat::Name(name) => match name.as_str() {
                "pcm16" => Some(Self::Pcm16),
                "g711_ulaw" => Some(Self::Ulaw),
                "g711_alaw" => Some(Self::Alaw),
                _ => None,
            },
            AudioFormat::Spec { rate, kind } => match (kind.as_deref(), rate) {
                (Some("audio/pcm"), None | Some(24_000)) => Some(Self::Pcm16),
                (Some("audio/pcmu"), None | Some(8_000)) => Some(Self::Ulaw),
                (Some("audio/pcma"), None | Some(8_000)) => Some(Self::Alaw),
                _ => None,
            },
            AudioFormat::Other(_) => None,
        }
    }

    /// Its sample rate.
    pub fn rate(self) -> u32 {
        match self {
            Self::Pcm16 => RATE,
            Self::Ulaw | Self::Alaw => 8_000,
        }
    }

    /// The audio of an `input_audio_buffer.append`.
    pub fn decode(self, bytes: &[u8]) -> Result<Pcm, String> {
        let samples = match self {
            Self::Pcm16 => return Pcm::from_le_bytes(bytes, RATE).map_err(|e| e.to_string()),
            Self::Ulaw => bytes.iter().map(|&b| g711::ulaw_to(b)).collect(),
            Self::Alaw => bytes.iter().map(|&b| g711::alaw_to(b)).collect(),
        };
        Ok(Pcm {
            sample_rate: self.rate(),
            samples,
            channels: 1,
        })
    }

    /// Samples at [`Encoding::rate`], as the bytes of an audio delta.
    pub fn encode(self, samples: &[i16]) -> Vec<u8> {
        match self {
            Self::Pcm16 => samples.iter().flat_map(|s| s.to_le_bytes()).collect(),
            Self::Ulaw => samples.iter().map(|&s| g711::ulaw_from(s)).collect(),
            Self::Alaw => samples.iter().map(|&s| g711::alaw_from(s)).collect(),
        }
    }

    fn beta_name(self) -> &'static str {
        match self {
            Self::Pcm16 => "pcm16",
            Self::Ulaw => "g711_ulaw",
            Self::Alaw => "g711_alaw",
        }
    }

    fn ga_format(self) -> PcmFormat {
        match self {
            Self::Pcm16 => PcmFormat {
                kind: "audio/pcm",
                rate: Some(RATE),
            },
            Self::Ulaw => PcmFormat {
                kind: "audio/pcmu",
                rate: None,
            },
            Self::Alaw => PcmFormat {
                kind: "audio/pcma",
                rate: None,
            },
        }
    }
}

/// `turn_detection` of type `server_vad`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerVad {
    /// Silence that ends a turn; `None`: the gateway's `VAD_SILENCE_MS`.
    pub silence_ms: Option<u32>,
    /// `semantic_vad`: Smart Turn ends complete turns, and a pause ends an incomplete one after the eagerness's
    /// longest pause.
    pub eagerness: Option<Eagerness>,
    /// Answer by itself when a turn ends (`create_response`, default true).
    pub create_response: bool,
    /// New speech interrupts a running answer (`interrupt_response`, default true).
    pub interrupt_response: bool,
}

impl Config {
    /// A new session's settings: audio answers, server VAD, as OpenAI starts a session.
    pub fn new(model: String) -> Self {
        Self {
            model,
            instructions: None,
            text_only: false,
            server_vad: Some(ServerVad {
                silence_ms: None,
                eagerness: None,
                create_response: true,
                interrupt_response: true,
            }),
            voice: None,
            language: None,
            input: Encoding::Pcm16,
            output: Encoding::Pcm16,
        }
    }

    /// Applies a `session.update`; a field not given keeps its value. An audio format other than 24 kHz PCM16 or
    /// 8 kHz G.711, or an unknown detector, is refused, and then nothing changes.
    pub fn update(&mut self, session: &SessionUpdate) -> Result<(), String> {
        let mut next = self.clone();
        next.apply(session)?;
        *self = next;
        Ok(())
    }

    fn apply(&mut self, session: &SessionUpdate) -> Result<(), String> {
        let input = session.audio.as_ref().and_then(|a| a.input.as_ref());
        let output = session.audio.as_ref().and_then(|a| a.output.as_ref());
        let formats = [
            (
                input
                    .and_then(|i| i.format.as_ref())
                    .or(session.input_audio_format.as_ref()),
                &mut self.input,
            ),
            (
                output
                    .and_then(|o| o.format.as_ref())
                    .or(session.output_audio_format.as_ref()),
                &mut self.output,
            ),
        ];
        for (format, encoding) in formats {
            if let Some(format) = format {
                *encoding = Encoding::of(format).ok_or_else(|| {
                    format!(
                        "audio format {format} is not supported; use audio/pcm at 24000 Hz, audio/pcmu or audio/pcma \
                         (pcm16, g711_ulaw, g711_alaw)"
                    )
                })?;
            }
        }
        if let Some(text) = &session.instructions {
            self.instructions = Some(text.clone()).filter(|t| !t.trim().is_empty());
        }
        if let Some(list) = session.output_modalities.as_ref().or(session.modalities.as_ref()) {
            self.text_only = !list.iter().any(|m| m == "audio");
        }
        let detection = input
            .and_then(|i| i.turn_detection.as_ref())
            .or(session.turn_detection.as_ref());
        match detection {
            None => {}
            Some(Detection::Off) => self.server_vad = None,
            Some(Detection::On(d)) => match d.kind.as_deref() {
                None | Some("server_vad" | "semantic_vad") => {
                    let eagerness = match d.kind.as_deref() {
                        Some("semantic_vad") => Some(Eagerness::parse(d.eagerness.as_deref())?),
                        _ => None,
                    };
                    self.server_vad = Some(ServerVad {
                        silence_ms: d.silence_duration_ms.map(|ms| ms.clamp(100, 10_000) as u32),
                        eagerness,
                        create_response: d.create_response.unwrap_or(true),
                        interrupt_response: d.interrupt_response.unwrap_or(true),
                    });
                }
                Some(other) => {
                    return Err(format!(
                        "turn_detection {other:?} is not supported; use server_vad, semantic_vad or null"
                    ));
                }
            },
        }
        let voice = output.and_then(|o| o.voice.as_ref()).or(session.voice.as_ref());
        if let Some(voice) = voice {
            self.voice = Some(voice.clone()).filter(|v| !v.trim().is_empty());
        }
        let transcription = input
            .and_then(|i| i.transcription.as_ref())
            .or(session.input_audio_transcription.as_ref());
        if let Some(language) = transcription.and_then(|t| t.language.as_ref()) {
            self.language = Some(language.clone()).filter(|l| !l.trim().is_empty());
        }
        Ok(())
    }

    /// How the listener ends utterances: `server_vad` by the silence, `semantic_vad` by Smart Turn; none
    /// without a detector (the client commits).
    pub fn detection(&self) -> Option<voice::Detection> {
        let vad = self.server_vad?;
        Some(match vad.eagerness {
            Some(eagerness) => voice::Detection {
                silence_ms: None,
                smart_turn: true,
                max_silence_ms: Some(eagerness.max_silence_ms()),
                answered: vad.create_response,
            },
            None => voice::Detection {
                silence_ms: vad.silence_ms,
                answered: vad.create_response,
                ..voice::Detection::default()
            },
        })
    }

    /// The session object of `session.created` and `session.updated`, in the GA or the beta shape;
    /// `smart_turn_runs`: Smart Turn is there to run `semantic_vad` (else `server_vad` runs, and is shown).
    pub fn session(&self, id: &str, beta: bool, smart_turn_runs: bool) -> SessionObject {
        let turn_detection = self.server_vad.map(|vad| {
            let eagerness = vad.eagerness.filter(|_| smart_turn_runs);
            ServerVadSettings {
                kind: if eagerness.is_some() {
                    "semantic_vad"
                } else {
                    "server_vad"
                },
                eagerness,
                silence_duration_ms: vad.silence_ms,
                create_response: vad.create_response,
                interrupt_response: vad.interrupt_response,
            }
        });
        let transcription = TranscriptionSettings {
            model: "gateway",
            language: self.language.clone(),
        };
        let instructions = self.instructions.clone().unwrap_or_default();
        if beta {
            return SessionObject::Beta(BetaSession {
                id: id.to_string(),
                object: "realtime.session",
                model: self.model.clone(),
                modalities: if self.text_only {
                    vec![Modality::Text]
                } else {
                    vec![Modality::Audio, Modality::Text]
                },
                instructions,
                voice: self.voice.clone(),
                input_audio_format: self.input.beta_name(),
                output_audio_format: self.output.beta_name(),
                turn_detection,
                input_audio_transcription: transcription,
            });
        }
        SessionObject::Ga(Session {
            kind: "realtime",
            object: "realtime.session",
            id: id.to_string(),
            model: self.model.clone(),
            output_modalities: vec![Modality::of(self.text_only)],
            instructions,
            audio: SessionAudio {
                input: SessionInput {
                    format: self.input.ga_format(),
                    turn_detection,
                    transcription,
                },
                output: SessionOutput {
                    format: self.output.ga_format(),
                    voice: self.voice.clone(),
                },
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn update(config: &mut Config, session: Value) -> Result<(), String> {
        config.update(&serde_json::from_value(session).unwrap())
    }

    #[test]
    fn a_session_update_in_ga_or_beta_form_sets_the_same_things() {
        let mut ga = Config::new("default".into());
        update(
            &mut ga,
            json!({"type": "realtime", "instructions": "Be brief.", "output_modalities": ["text"],
            "audio": {"input": {"format": {"type": "audio/pcm", "rate": 24000}, "turn_detection": null,
                "transcription": {"model": "whisper-1", "language": "de"}}, "output": {"voice": "alloy"}}}),
        )
        .unwrap();
        let mut beta = Config::new("default".into());
        update(
            &mut beta,
            json!({"instructions": "Be brief.", "modalities": ["text"], "input_audio_format": "pcm16",
            "turn_detection": null, "input_audio_transcription": {"language": "de"}, "voice": "alloy"}),
        )
        .unwrap();
        assert_eq!(ga, beta);
        assert!(ga.text_only && ga.server_vad.is_none());
        assert_eq!(ga.language.as_deref(), Some("de"));
    }

    #[test]
    fn other_audio_formats_and_detectors_are_refused() {
        let mut config = Config::new("default".into());
        assert!(update(&mut config, json!({"input_audio_format": "g722"})).is_err());
        assert!(
            update(
                &mut config,
                json!({"audio": {"input": {"format": {"type": "audio/pcm", "rate": 16000}}}})
            )
            .is_err()
        );
        let refused = update(&mut config, json!({"turn_detection": {"type": "push_to_talk"}}));
        assert_eq!(
            refused.unwrap_err(),
            r#"turn_detection "push_to_talk" is not supported; use server_vad, semantic_vad or null"#
        );
        assert_eq!(
            config,
            Config::new("default".into()),
            "a refused update changes nothing"
        );
    }

    #[test]
    fn the_session_object_has_the_shape_of_the_clients_protocol() {
        let mut config = Config::new("default".into());
        update(&mut config, json!({"turn_detection": {"silence_duration_ms": 50}})).unwrap();
        let ga = serde_json::to_value(config.session("sess_1", false, false)).unwrap();
        let detection = json!({"type": "server_vad", "silence_duration_ms": 100, "create_response": true,
            "interrupt_response": true});
        let pcm = json!({"type": "audio/pcm", "rate": 24000});
        assert_eq!(
            ga,
            json!({"type": "realtime", "object": "realtime.session", "id": "sess_1", "model": "default",
                "output_modalities": ["audio"], "instructions": "",
                "audio": {"input": {"format": pcm, "turn_detection": detection,
                    "transcription": {"model": "gateway", "language": null}},
                    "output": {"format": pcm, "voice": null}}})
        );
        let beta = serde_json::to_value(config.session("sess_1", true, false)).unwrap();
        assert_eq!(
            beta,
            json!({"id": "sess_1", "object": "realtime.session", "model": "default",
                "modalities": ["audio", "text"], "instructions": "", "voice": null,
                "input_audio_format": "pcm16", "output_audio_format": "pcm16", "turn_detection": detection,
                "input_audio_transcription": {"model": "gateway", "language": null}})
        );
    }

    #[test]
    fn semantic_vad_runs_smart_turn_with_the_eagerness_longest_pause() {
        let mut config = Config::new("default".into());
        let semantic = json!({"turn_detection": {"type": "semantic_vad", "eagerness": "low"}});
        update(&mut config, semantic).unwrap();
        let detection = config.detection().unwrap();
        assert!(detection.smart_turn);
        assert_eq!(detection.max_silence_ms, Some(8_000));
        let shown = |config: &Config, runs: bool| {
            let ga = serde_json::to_value(config.session("s", false, runs)).unwrap();
            ga["audio"]["input"]["turn_detection"].clone()
        };
        assert_eq!(shown(&config, true)["type"], "semantic_vad");
        assert_eq!(shown(&config, true)["eagerness"], "low");
        // Without the model the silence rule runs, and the session says so.
        assert_eq!(shown(&config, false)["type"], "server_vad");
        assert!(shown(&config, false).get("eagerness").is_none());
        let bad = json!({"turn_detection": {"type": "semantic_vad", "eagerness": "eager"}});
        assert_eq!(
            update(&mut config, bad).unwrap_err(),
            r#"eagerness "eager" is not one of low, medium, high, auto"#
        );
        update(&mut config, json!({"turn_detection": {"type": "server_vad"}})).unwrap();
        assert_eq!(config.detection().unwrap(), voice::Detection::default().answered());
        // A client that creates its responses itself gets no answer started before it asks.
        let manual = json!({"turn_detection": {"type": "server_vad", "create_response": false}});
        update(&mut config, manual).unwrap();
        assert!(!config.detection().unwrap().answered);
    }

    #[test]
    fn g711_is_taken_both_ways_in_either_form_and_shown_as_asked() {
        let mut ga = Config::new("default".into());
        let formats = json!({"audio": {"input": {"format": {"type": "audio/pcmu"}},
            "output": {"format": {"type": "audio/pcma"}}}});
        update(&mut ga, formats).unwrap();
        assert_eq!((ga.input, ga.output), (Encoding::Ulaw, Encoding::Alaw));
        let shown = serde_json::to_value(ga.session("s", false, false)).unwrap();
        assert_eq!(shown["audio"]["input"]["format"], json!({"type": "audio/pcmu"}));
        assert_eq!(shown["audio"]["output"]["format"], json!({"type": "audio/pcma"}));
        let mut beta = Config::new("default".into());
        let names = json!({"input_audio_format": "g711_ulaw", "output_audio_format": "g711_alaw"});
        update(&mut beta, names).unwrap();
        assert_eq!((beta.input, beta.output), (Encoding::Ulaw, Encoding::Alaw));
        let shown = serde_json::to_value(beta.session("s", true, false)).unwrap();
        assert_eq!(shown["input_audio_format"], "g711_ulaw");
        assert_eq!(shown["output_audio_format"], "g711_alaw");
        // 8 kHz both ways; a µ-law byte is one sample.
        let pcm = Encoding::Ulaw.decode(&[0xFF, 0x80, 0x00]).unwrap();
        assert_eq!((pcm.sample_rate, pcm.samples.len()), (8_000, 3));
        assert_eq!(Encoding::Alaw.encode(&[0, 0]), [0xD5, 0xD5]);
    }
}
