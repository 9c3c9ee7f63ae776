//! Curated LLM presets for the admin's model menu: built in, or read from `MODEL_PRESETS_FILE`.
//!
//! The file is a JSON list of presets; each has an `id`, a `label`, an optional `note` and the `values` to set,
//! whose keys are `default_llm_provider`, `local_llm_model` and `cloud_llm_model`:
//! `[{"id": "qwen", "label": "Qwen3 4B (local)", "note": "needs 3 GB", "values": {"default_llm_provider":
//! "local", "local_llm_model": "qwen3:4b"}}]`. The default preset (no overrides) always comes first.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::keys::{self, Key};
use crate::providers::LlmId;

/// Keys a preset may set.
pub const PRESET_KEYS: [&str; 3] = ["default_llm_provider", "local_llm_model", "cloud_llm_model"];

/// One choice of the model menu.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
pub struct Preset {
    /// Stable id the select endpoint takes.
    pub id: String,
    /// Shown in the menu.
    pub label: String,
    /// A hint (size, cost, language quality).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Runtime overrides it sets.
    #[serde(default)]
    pub values: Map<String, Value>,
    /// Whether it is the default preset (no overrides).
    #[serde(default)]
    pub default: bool,
    /// The languages its model answers in (empty: not known); a question in another one gets a notice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub languages: Vec<String>,
}

/// A built-in preset: a provider and its model.
fn preset(id: &str, label: &str, note: Option<&str>, (provider, model): (LlmId, &str), languages: &[&str]) -> Preset {
    let values = [
        (Key::DefaultLlmProvider, provider.as_str()),
        (Key::model_of(provider), model),
    ];
    Preset {
        id: id.into(),
        label: label.into(),
        note: note.map(String::from),
        values: values
            .iter()
            .map(|(k, v)| (k.as_str().to_string(), Value::from(*v)))
            .collect(),
        default: false,
        languages: languages.iter().map(|l| l.to_string()).collect(),
    }
}

fn default_preset() -> Preset {
    Preset {
        id: "default".into(),
        label: "Default (from the settings)".into(),
        note: Some("removes the model overrides".into()),
        values: Map::new(),
        default: true,
        languages: Vec::new(),
    }
}

/// The gateway's languages, all of which the larger models answer in.
const ALL: [&str; 8] = ["en", "de", "fr", "es", "it", "nl", "pl", "pt"];

/// The built-in presets.
fn builtin() -> Vec<Preset> {
    vec![
        preset(
            "local-smollm2",
            "SmolLM2 135M (local, tiny)",
            Some("runs anywhere; answers are simple"),
            (LlmId::Local, "smollm2"),
            // The name the engines serve their model under: its languages are the file's, which they know.
            &[],
        ),
        preset(
            "local-qwen3-4b",
            "Qwen3 4B (local)",
            Some("about 3 GB; good German"),
            (LlmId::Local, "qwen3:4b"),
            &ALL,
        ),
        preset(
            "local-llama3.2-3b",
            "Llama 3.2 3B (local)",
            Some("about 2 GB"),
            (LlmId::Local, "llama3.2:3b"),
            // The languages Meta names for Llama 3.2, of the gateway's.
            &["en", "de", "fr", "es", "it", "pt"],
        ),
        preset(
            "cloud-gpt-4o-mini",
            "GPT-4o mini (cloud)",
            Some("fast and cheap"),
            (LlmId::Cloud, "openai/gpt-4o-mini"),
            &ALL,
        ),
        preset(
            "cloud-claude-haiku",
            "Claude Haiku 4.5 (cloud)",
            None,
            (LlmId::Cloud, "anthropic/claude-haiku-4.5"),
            &ALL,
        ),
    ]
}

/// The default preset, then the file's presets or the built-in ones. A preset whose values do not pass the
/// keys' validation makes the whole file invalid (the message says which).
pub fn load(file: Option<&str>) -> Result<Vec<Preset>, String> {
    let mut presets = vec![default_preset()];
    let listed = match file {
        None => builtin(),
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            serde_json::from_str::<Vec<Preset>>(&text).map_err(|e| format!("{path}: {e}"))?
        }
    };
    for mut p in listed {
        for (key, value) in &p.values {
            let spec = keys::find(key)
                .filter(|_| PRESET_KEYS.contains(&key.as_str()))
                .ok_or_else(|| format!("preset {}: {key} is not one of {}", p.id, PRESET_KEYS.join(", ")))?;
            let raw = value
                .as_str()
                .ok_or_else(|| format!("preset {}: {key} must be a string", p.id))?;
            spec.validate(raw).map_err(|e| format!("preset {}: {key}: {e}", p.id))?;
        }
        if p.id == "default" || presets.iter().any(|q| q.id == p.id) {
            return Err(format!("preset id {:?} is used twice", p.id));
        }
        p.default = false;
        presets.push(p);
    }
    Ok(presets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_presets_are_valid_and_the_default_comes_first() {
        let presets = load(None).unwrap();
        assert!(presets[0].default && presets[0].values.is_empty());
        assert!(presets.len() > 3);
    }

    #[test]
    fn a_file_replaces_the_builtin_list_and_bad_values_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("presets.json");
        std::fs::write(
            &path,
            r#"[{"id":"mine","label":"Mine","values":{"default_llm_provider":"local","local_llm_model":"x:1b"}}]"#,
        )
        .unwrap();
        let presets = load(Some(path.to_str().unwrap())).unwrap();
        assert_eq!(
            presets.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(),
            ["default", "mine"]
        );
        std::fs::write(
            &path,
            r#"[{"id":"bad","label":"Bad","values":{"default_llm_provider":"gpt"}}]"#,
        )
        .unwrap();
        assert!(
            load(Some(path.to_str().unwrap()))
                .unwrap_err()
                .contains("default_llm_provider")
        );
        std::fs::write(&path, r#"[{"id":"bad","label":"Bad","values":{"system_prompt":"x"}}]"#).unwrap();
        assert!(load(Some(path.to_str().unwrap())).is_err());
    }
}
