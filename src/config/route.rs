//! Route resolution: which STT, LLM and TTS provider, model, voice and language a turn uses.
//!
//! Layers from weakest to strongest: built-in defaults < profile < environment < user prefs < session <
//! request. Built-in defaults, profile and environment (with the admin's runtime overrides) are already merged
//! into the effective settings, which form the first layer in the running gateway; the test below spells out
//! all six.

use serde_json::{Map, Value};

use super::languages;
use crate::providers::{LlmId, ProviderId, SttId, TtsId};

/// What one layer says about the route; `None` = this layer has no say.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RouteLayer {
    /// STT provider.
    pub stt_provider: Option<SttId>,
    /// LLM provider.
    pub llm_provider: Option<LlmId>,
    /// TTS provider.
    pub tts_provider: Option<TtsId>,
    /// LLM model name.
    pub llm_model: Option<String>,
    /// TTS voice name.
    pub voice: Option<String>,
    /// Language code.
    pub language: Option<String>,
}

impl RouteLayer {
    /// The layer held in a prefs object or a session's overrides (the route keys of `prefs::ROUTE_KEYS`,
    /// checked when they were stored; a provider that no longer exists has no say).
    pub fn from_map(map: &Map<String, Value>) -> Self {
        let get = |key: &str| {
            map.get(key)
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
        };
        fn id<I: ProviderId>(name: Option<String>) -> Option<I> {
            I::parse(&name?).ok()
        }
        Self {
            stt_provider: id(get("stt_provider")),
            llm_provider: id(get("llm_provider")),
            tts_provider: id(get("tts_provider")),
            llm_model: get("llm_model"),
            voice: get("voice"),
            language: get("language"),
        }
    }
}

/// The resolved route of one turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    /// STT provider.
    pub stt: SttId,
    /// LLM provider.
    pub llm: LlmId,
    /// TTS provider.
    pub tts: TtsId,
    /// LLM model; `None` = the provider's configured model.
    pub llm_model: Option<String>,
    /// Voice; `None` = the TTS provider's default voice for the language.
    pub voice: Option<String>,
    /// Language, always one the user may use.
    pub language: String,
    /// The person's words go only to providers on this machine or its network (`local_only`).
    pub local_only: bool,
}

/// Resolves layers given weakest first. A model belongs to its provider and a voice to its TTS engine: a
/// layer that picks a provider without naming a model (or voice) drops the weaker layers' model (or voice),
/// which were chosen for another provider. The language is clamped to `allowed` (empty = every language):
/// an unknown or disallowed language becomes the first allowed one.
pub fn resolve(layers: &[RouteLayer], allowed: &[String]) -> Route {
    let mut route = Route {
        stt: SttId::Openai,
        llm: LlmId::Local,
        tts: TtsId::Espeak,
        llm_model: None,
        voice: None,
        language: "en".into(),
        local_only: false,
    };
    for layer in layers {
        if let Some(stt) = layer.stt_provider {
            route.stt = stt;
        }
        if let Some(llm) = layer.llm_provider {
            route.llm_model = None;
            route.llm = llm;
        }
        if let Some(tts) = layer.tts_provider {
            route.voice = None;
            route.tts = tts;
        }
        if let Some(model) = &layer.llm_model {
            route.llm_model = Some(model.clone());
        }
        if let Some(voice) = &layer.voice {
            route.voice = Some(voice.clone());
        }
        if let Some(language) = &layer.language {
            route.language.clone_from(language);
        }
    }
    route.language = clamp_language(&route.language, allowed);
    route
}

/// The language itself when known and allowed (a region or script tag is dropped: `en-US` is `en`), else the
/// first allowed language.
pub fn clamp_language(language: &str, allowed: &[String]) -> String {
    let primary = language.split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
    let language = primary.as_str();
    let known = languages().contains(&language);
    let permitted = allowed.is_empty() || allowed.iter().any(|a| a == language);
    if known && permitted {
        return language.to_string();
    }
    allowed
        .iter()
        .find(|a| languages().contains(&a.as_str()))
        .cloned()
        .unwrap_or_else(|| "en".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layer(pairs: &[(&str, &str)]) -> RouteLayer {
        let map: Map<String, Value> = pairs.iter().map(|(k, v)| (k.to_string(), Value::from(*v))).collect();
        RouteLayer::from_map(&map)
    }

    /// Six layers, weakest first: built-in, profile, environment, user prefs, session, request.
    fn stack(case: Layers) -> Vec<RouteLayer> {
        case.iter().map(|pairs| layer(pairs)).collect()
    }

    type Pairs = &'static [(&'static str, &'static str)];
    /// Built-in, profile, environment, user prefs, session, request.
    type Layers = [Pairs; 6];
    /// Expected stt, llm, tts, model, voice, language.
    type Expect = (
        &'static str,
        &'static str,
        &'static str,
        Option<&'static str>,
        Option<&'static str>,
        &'static str,
    );

    const BUILTIN: Pairs = &[
        ("stt_provider", "whisper"),
        ("llm_provider", "local"),
        ("tts_provider", "espeak"),
        ("language", "en"),
    ];

    /// Resolves each case's layers and compares stt, llm, tts, model, voice and language.
    fn check(cases: Vec<(Layers, Expect)>) {
        for (n, (layers, want)) in cases.into_iter().enumerate() {
            let got = resolve(&stack(layers), &[]);
            let got = (
                got.stt.as_str(),
                got.llm.as_str(),
                got.tts.as_str(),
                got.llm_model.as_deref(),
                got.voice.as_deref(),
                got.language.as_str(),
            );
            assert_eq!(got, want, "case {n}");
        }
    }

    #[test]
    fn each_layer_beats_the_ones_below_it() {
        let (builtin, none): (Pairs, Pairs) = (BUILTIN, &[]);
        check(vec![
            (
                [builtin, none, none, none, none, none],
                ("whisper", "local", "espeak", None, None, "en"),
            ),
            (
                [builtin, &[("llm_provider", "cloud")], none, none, none, none],
                ("whisper", "cloud", "espeak", None, None, "en"),
            ),
            (
                [
                    builtin,
                    &[("llm_provider", "cloud")],
                    &[("llm_provider", "local")],
                    none,
                    none,
                    none,
                ],
                ("whisper", "local", "espeak", None, None, "en"),
            ),
            (
                [
                    builtin,
                    none,
                    &[("stt_provider", "openai")],
                    &[("language", "de")],
                    none,
                    none,
                ],
                ("openai", "local", "espeak", None, None, "de"),
            ),
            (
                [builtin, none, none, &[("language", "de")], &[("language", "fr")], none],
                ("whisper", "local", "espeak", None, None, "fr"),
            ),
            (
                [
                    builtin,
                    none,
                    none,
                    &[("language", "de")],
                    &[("language", "fr")],
                    &[("language", "it")],
                ],
                ("whisper", "local", "espeak", None, None, "it"),
            ),
        ]);
    }

    #[test]
    fn a_model_or_a_voice_goes_with_the_provider_it_was_chosen_for() {
        let (builtin, none): (Pairs, Pairs) = (BUILTIN, &[]);
        check(vec![
            (
                [
                    builtin,
                    none,
                    none,
                    &[("llm_model", "qwen3")],
                    &[("llm_model", "llama3")],
                    none,
                ],
                ("whisper", "local", "espeak", Some("llama3"), None, "en"),
            ),
            // A request that switches provider without a model drops the user's model for the old provider.
            (
                [
                    builtin,
                    none,
                    none,
                    &[("llm_model", "qwen3")],
                    none,
                    &[("llm_provider", "cloud")],
                ],
                ("whisper", "cloud", "espeak", None, None, "en"),
            ),
            (
                [
                    builtin,
                    none,
                    none,
                    &[("tts_provider", "openai"), ("voice", "nova")],
                    none,
                    none,
                ],
                ("whisper", "local", "openai", None, Some("nova"), "en"),
            ),
            (
                [
                    builtin,
                    none,
                    none,
                    &[("tts_provider", "openai"), ("voice", "nova")],
                    &[("tts_provider", "espeak")],
                    none,
                ],
                ("whisper", "local", "espeak", None, None, "en"),
            ),
            (
                [builtin, none, none, &[("voice", "de+f3")], none, &[("voice", "en-us")]],
                ("whisper", "local", "espeak", None, Some("en-us"), "en"),
            ),
        ]);
    }

    #[test]
    fn language_is_clamped_to_the_allowed_ones() {
        let allowed = vec!["de".to_string(), "en".to_string()];
        let request_fr = vec![layer(&[("language", "fr")])];
        assert_eq!(resolve(&request_fr, &allowed).language, "de");
        let request_en = vec![layer(&[("language", "en")])];
        assert_eq!(resolve(&request_en, &allowed).language, "en");
        assert_eq!(resolve(&[layer(&[("language", "xx")])], &[]).language, "en");
        assert_eq!(clamp_language("xx", &["pl".to_string()]), "pl");
        assert_eq!(clamp_language("en-US", &allowed), "en");
        assert_eq!(clamp_language("DE_at", &allowed), "de");
        assert_eq!(clamp_language("en-US", &["de".to_string()]), "de");
    }

    #[test]
    fn blank_values_have_no_say() {
        let layers = vec![layer(&[("language", "de")]), layer(&[("language", " ")])];
        assert_eq!(resolve(&layers, &[]).language, "de");
    }
}
