//! The provider registry: the typed id of every engine of every stage, and what each engine can do.
//!
//! A stage (`stt`, `llm`, `tts`, `search`) declares its engines once with [`registry!`]: one line per engine
//! gives its id and the function that builds it. From that line come the stage's id enum (what settings,
//! prefs, requests and the API description name; a wrong name is refused with a message naming the valid
//! ones) and the [`Engines`] table that [`super::Providers`] hands out by id. Each engine describes itself
//! with [`Capabilities`], which `/api/config` and the admin status list. What names the stages' ids
//! ([`Stage::ids`]) and what an engine is built from ([`super::Build`]) sit in the parent module, so that this
//! one names no stage.

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use serde::Serialize;
use utoipa::ToSchema;

/// A stage of the pipeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Speech to text.
    Stt,
    /// Language model.
    Llm,
    /// Text to speech.
    Tts,
    /// Web search.
    Search,
}

impl Stage {
    /// The stage's short name (`stt`, `llm`, `tts`, `search`), as metrics and fallbacks name it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Stt => "stt",
            Self::Llm => "llm",
            Self::Tts => "tts",
            Self::Search => "search",
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is no provider of its stage. The message names the valid ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{name:?} is not one of {}", stage.ids().join(", "))]
pub struct UnknownProvider {
    /// The stage asked about.
    pub stage: Stage,
    /// The name given.
    pub name: String,
}

/// The typed id of a stage's providers (made by [`registry!`]).
pub trait ProviderId: Copy + Eq + std::hash::Hash + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// The stage.
    const STAGE: Stage;
    /// Every id, in registration order.
    const ALL: &'static [Self];
    /// Every id's name, in the same order.
    const NAMES: &'static [&'static str];
    /// The id's name.
    fn name(self) -> &'static str;
    /// The id's position in [`Self::ALL`].
    fn index(self) -> usize;
    /// The id of a name, or an error naming the valid ones.
    fn parse(name: &str) -> Result<Self, UnknownProvider> {
        let name = Self::STAGE.parse(name)?;
        Ok(Self::ALL[Self::NAMES.iter().position(|n| *n == name).unwrap_or_default()])
    }
}

/// Where an engine runs and what it costs; `configured` says whether it has what it needs right now.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Capabilities {
    /// The engine has what it needs (an address, a key, voices).
    pub configured: bool,
    /// Output arrives in parts while it is produced (tokens, audio chunks, interim transcripts); an engine
    /// that produces it whole is wrapped so that callers see one interface either way.
    pub streaming: bool,
    /// Runs on this machine or the local network, so nothing leaves the house.
    pub local: bool,
    /// The gateway's languages the engine handles (empty for web search, which is not tied to one).
    pub languages: Vec<String>,
    /// Voices it offers (text to speech); empty where voices are not named or the engine takes any name.
    pub voices: Vec<String>,
    /// Sample rates of the audio it takes (speech to text) or gives (text to speech), in Hz.
    pub sample_rates: Vec<u32>,
    /// How it is paid for.
    pub cost: Cost,
}

/// How an engine is paid for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Cost {
    /// Nothing to pay (local engines).
    Free,
    /// By tokens; the provider reports the cost with the answer.
    PerToken,
    /// By characters spoken.
    PerCharacter,
    /// By minutes of audio.
    PerMinute,
    /// By search query.
    PerQuery,
}

impl Cost {
    /// `self` for a service, [`Cost::Free`] for an engine on this machine or network.
    pub fn unless_local(self, local: bool) -> Self {
        if local { Self::Free } else { self }
    }
}

/// How an engine is set up, as the admin status shows it: addresses, models, whether a key is set (never the
/// key). Each engine fills in what it has.
#[derive(Debug, Clone, Default, PartialEq, Serialize, ToSchema)]
pub struct Setup {
    /// The address it calls.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The model it asks for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Whether its API key is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_set: Option<bool>,
    /// Whether it has what it needs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub configured: Option<bool>,
    /// The local LLM backend (`ollama` or `llamacpp`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend: Option<String>,
    /// Its model file (in-process engines).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_path: Option<String>,
    /// Whether the engine is part of this build.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub built_in: Option<bool>,
    /// Its folder of voices.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub voice_dir: Option<String>,
    /// Its voices.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub voices: Option<Vec<String>>,
    /// Languages it cannot speak.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unsupported_languages: Option<Vec<String>>,
}

/// What every engine tells about itself.
pub trait Engine: Send + Sync {
    /// Its capabilities at this moment.
    fn capabilities(&self) -> Capabilities;
    /// How it is set up.
    fn setup(&self) -> Setup;
    /// What it lacks while it is not configured, as the setting to set (`None` when nothing is missing).
    fn missing(&self) -> Option<&'static str> {
        None
    }
}

/// Every engine of a stage, by id; every id has its engine.
pub struct Engines<I, E: ?Sized> {
    engines: Vec<Arc<E>>,
    _ids: PhantomData<I>,
}

impl<I: ProviderId, E: ?Sized> Engines<I, E> {
    /// The table of engines built in the order of `I::ALL`.
    pub fn new(engines: Vec<Arc<E>>) -> Self {
        assert_eq!(engines.len(), I::ALL.len(), "one engine per id");
        Self {
            engines,
            _ids: PhantomData,
        }
    }

    /// The engine of an id.
    pub fn get(&self, id: I) -> &Arc<E> {
        &self.engines[id.index()]
    }

    /// Every engine with its id, in registration order.
    pub fn iter(&self) -> impl Iterator<Item = (I, &Arc<E>)> {
        I::ALL.iter().map(|&id| (id, self.get(id)))
    }
}

/// Whether an address is on this machine or a private network (`localhost`, loopback, RFC 1918, link-local,
/// unique local, `.local`).
pub fn is_local_address(url: &str) -> bool {
    let Ok(url) = reqwest::Url::parse(url) else {
        return false;
    };
    let Some(host) = url.host_str() else {
        return false;
    };
    match host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<std::net::IpAddr>()
    {
        Ok(std::net::IpAddr::V4(ip)) => ip.is_loopback() || ip.is_private() || ip.is_link_local(),
        Ok(std::net::IpAddr::V6(ip)) => ip.is_loopback() || ip.is_unique_local() || ip.is_unicast_link_local(),
        Err(_) => host == "localhost" || host.ends_with(".local"),
    }
}

/// Declares a stage's engines: its id enum and the function that builds its [`Engines`] table.
///
/// ```ignore
/// registry! {
///     /// Speech-to-text providers.
///     SttId: Stt, dyn Stt {
///         /// OpenAI-compatible transcription.
///         Openai = "openai" => openai::build,
///     }
/// }
/// ```
macro_rules! registry {
    ($(#[$doc:meta])* $id:ident: $stage:ident, dyn $engine:ident {
        $($(#[$vdoc:meta])* $variant:ident = $name:literal => $build:path,)+
    }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
        // The API description reads the names from `rename_all` (a variant's `rename` arrives there as a macro
        // fragment it does not see); a unit test checks that both agree.
        #[serde(rename_all = "lowercase")]
        pub enum $id {
            $($(#[$vdoc])* #[serde(rename = $name)] $variant,)+
        }

        impl $id {
            /// The id's name (usable in constants).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $name,)+
                }
            }
        }

        impl $crate::providers::registry::ProviderId for $id {
            const STAGE: $crate::providers::registry::Stage = $crate::providers::registry::Stage::$stage;
            const ALL: &'static [Self] = &[$(Self::$variant,)+];
            const NAMES: &'static [&'static str] = &[$($name,)+];
            fn name(self) -> &'static str {
                self.as_str()
            }
            fn index(self) -> usize {
                self as usize
            }
        }

        impl std::str::FromStr for $id {
            type Err = $crate::providers::registry::UnknownProvider;
            fn from_str(name: &str) -> Result<Self, Self::Err> {
                <Self as $crate::providers::registry::ProviderId>::parse(name)
            }
        }

        impl std::fmt::Display for $id {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        /// Builds every engine of this stage.
        pub fn engines(
            build: &$crate::providers::Build<'_>,
        ) -> $crate::providers::registry::Engines<$id, dyn $engine> {
            $crate::providers::registry::Engines::new(vec![$($build(build),)+])
        }
    };
}
pub(crate) use registry;

/// The provider to use first, then the stage's fallbacks in their order, each once.
pub fn chain<I: ProviderId>(first: I, fallbacks: &[I]) -> Vec<I> {
    let mut order = vec![first];
    for &id in fallbacks {
        if !order.contains(&id) {
            order.push(id);
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::llm::LlmId;
    use crate::providers::tts::TtsId;

    #[test]
    fn chain_starts_with_the_choice_and_skips_repeats() {
        let fallbacks = [LlmId::Cloud, LlmId::Local];
        assert_eq!(chain(LlmId::Local, &fallbacks), vec![LlmId::Local, LlmId::Cloud]);
        assert_eq!(chain(LlmId::Cloud, &[]), vec![LlmId::Cloud]);
    }

    #[test]
    fn a_wrong_name_is_refused_with_the_valid_ones() {
        assert_eq!("piper".parse::<TtsId>(), Ok(TtsId::Piper));
        let err = "gtts".parse::<TtsId>().unwrap_err();
        assert_eq!(err.to_string(), "\"gtts\" is not one of espeak, piper, openai");
        let err = serde_json::from_str::<TtsId>("\"gtts\"").unwrap_err().to_string();
        assert!(err.contains("espeak") && err.contains("openai"), "{err}");
        assert_eq!(Stage::Llm.parse(" cloud "), Ok("cloud"));
    }

    /// The API description takes its names from the enums' `rename_all`, the wire from each variant's name.
    #[test]
    fn the_api_description_names_each_id_as_the_wire_does() {
        fn check<I: ProviderId + utoipa::PartialSchema + Serialize>() {
            let schema = serde_json::to_value(I::schema()).unwrap();
            let described: Vec<&str> = schema["enum"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|v| v.as_str())
                .collect();
            assert_eq!(described, I::NAMES, "{:?}", I::STAGE);
            for &id in I::ALL {
                assert_eq!(serde_json::to_value(id).unwrap(), id.name());
            }
        }
        check::<crate::providers::SttId>();
        check::<LlmId>();
        check::<TtsId>();
        check::<crate::providers::SearchId>();
    }

    #[test]
    fn addresses_on_this_machine_or_network_are_local() {
        for local in [
            "http://127.0.0.1:8090/v1",
            "http://localhost:11434",
            "http://192.168.1.5/v1",
            "http://[::1]:1",
            "http://nas.local/v1",
        ] {
            assert!(is_local_address(local), "{local}");
        }
        for remote in ["https://api.openai.com/v1", "https://8.8.8.8/", "not a url"] {
            assert!(!is_local_address(remote), "{remote}");
        }
    }
}
