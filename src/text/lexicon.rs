//! The pronunciation lexicon: per language, three sections of key → spoken form.
//!
//! - `abbreviations`: `"z. B."` → `"zum Beispiel"`, expanded by the spoken-language adapter.
//! - `units`: `"km/h"` → `"Kilometer pro Stunde"`; a value may give singular and plural as `"singular|plural"`
//!   (`"kilometer|kilometers"`), used by the normalizer after a number.
//! - `terms`: whole words spoken differently from how they are written (`"WLAN"` → `"W-LAN"`).
//!
//! Built-in defaults exist for de and en; entries stored by admins overlay them (same key replaces).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use crate::config::languages;

/// Longest key accepted.
pub const KEY_MAX_CHARS: usize = 64;
/// Longest value accepted.
pub const VALUE_MAX_CHARS: usize = 256;

/// A section of the lexicon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Section {
    /// Abbreviations expanded in speech.
    Abbreviations,
    /// Units spoken after numbers.
    Units,
    /// Terms with a special pronunciation.
    Terms,
}

impl Section {
    /// All sections, in display order.
    pub const ALL: [Section; 3] = [Section::Abbreviations, Section::Units, Section::Terms];

    /// The name used in paths and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Abbreviations => "abbreviations",
            Self::Units => "units",
            Self::Terms => "terms",
        }
    }

    /// Parses a section name.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|sec| sec.as_str() == s)
    }
}

/// Why an entry was refused; `field` names the part at fault.
#[derive(Debug, thiserror::Error)]
#[error("{field}: {problem}")]
pub struct EntryError {
    /// `lang`, `section`, `key` or `value`.
    pub field: &'static str,
    /// What is wrong.
    pub problem: String,
}

fn refuse(field: &'static str, problem: impl Into<String>) -> EntryError {
    EntryError {
        field,
        problem: problem.into(),
    }
}

/// Checks language and section names.
pub fn check_place(lang: &str, section: &str) -> Result<Section, EntryError> {
    if !languages().contains(&lang) {
        return Err(refuse(
            "lang",
            format!("{lang:?} is not one of {}", languages().join(", ")),
        ));
    }
    Section::parse(section).ok_or_else(|| refuse("section", "expected abbreviations, units or terms"))
}

/// Checks an entry and returns its trimmed key and value.
pub fn check_entry(key: &str, value: &str) -> Result<(String, String), EntryError> {
    let (key, value) = (key.trim(), value.trim());
    if key.is_empty() {
        return Err(refuse("key", "must not be empty"));
    }
    if key.chars().count() > KEY_MAX_CHARS {
        return Err(refuse("key", format!("longer than {KEY_MAX_CHARS} characters")));
    }
    if value.chars().count() > VALUE_MAX_CHARS {
        return Err(refuse("value", format!("longer than {VALUE_MAX_CHARS} characters")));
    }
    if key.chars().chain(value.chars()).any(char::is_control) {
        return Err(refuse("value", "contains control characters"));
    }
    Ok((key.to_string(), value.to_string()))
}

/// Where an entry comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Shipped with the gateway.
    Builtin,
    /// Stored by an admin.
    Custom,
}

/// The lexicon of one language: built-in defaults overlaid with stored entries.
#[derive(Debug, Clone, Default)]
pub struct Lexicon {
    sections: BTreeMap<Section, BTreeMap<String, (String, Origin)>>,
}

impl Lexicon {
    /// The built-in defaults of a language (empty for languages without defaults).
    pub fn builtin(lang: &str) -> Self {
        let mut lex = Self::default();
        for (section, table) in defaults(lang) {
            for (key, value) in *table {
                lex.insert(*section, key, value, Origin::Builtin);
            }
        }
        lex
    }

    /// The defaults overlaid with stored entries (section, key, value); unknown sections are skipped.
    pub fn with_entries(lang: &str, entries: impl IntoIterator<Item = (String, String, String)>) -> Self {
        let mut lex = Self::builtin(lang);
        for (section, key, value) in entries {
            if let Some(section) = Section::parse(&section) {
                lex.insert(section, &key, &value, Origin::Custom);
            }
        }
        lex
    }

    fn insert(&mut self, section: Section, key: &str, value: &str, origin: Origin) {
        self.sections
            .entry(section)
            .or_default()
            .insert(key.to_string(), (value.to_string(), origin));
    }

    /// The spoken form of a key in a section.
    pub fn get(&self, section: Section, key: &str) -> Option<&str> {
        self.sections.get(&section)?.get(key).map(|(v, _)| v.as_str())
    }

    /// Entries of a section as (key, value, origin), sorted by key.
    pub fn entries(&self, section: Section) -> impl Iterator<Item = (&str, &str, Origin)> {
        self.sections
            .get(&section)
            .into_iter()
            .flat_map(|m| m.iter().map(|(k, (v, o))| (k.as_str(), v.as_str(), *o)))
    }
}

/// Lexicons per language, loaded from the store on first use and flushed after every write.
#[derive(Default)]
pub struct LexiconCache {
    loaded: Mutex<BTreeMap<String, Arc<Lexicon>>>,
}

impl LexiconCache {
    /// The cached lexicon of a language, if loaded.
    pub fn cached(&self, lang: &str) -> Option<Arc<Lexicon>> {
        self.loaded.lock().ok()?.get(lang).cloned()
    }

    /// Remembers a freshly loaded lexicon.
    pub fn remember(&self, lang: &str, lexicon: Lexicon) -> Arc<Lexicon> {
        let lexicon = Arc::new(lexicon);
        if let Ok(mut loaded) = self.loaded.lock() {
            loaded.insert(lang.to_string(), lexicon.clone());
        }
        lexicon
    }

    /// Forgets every language, so the next use reads the store again.
    pub fn flush(&self) {
        if let Ok(mut loaded) = self.loaded.lock() {
            loaded.clear();
        }
    }
}

type Table = &'static [(&'static str, &'static str)];

fn defaults(lang: &str) -> &'static [(Section, Table)] {
    match lang {
        "de" => &[
            (Section::Abbreviations, DE_ABBREVIATIONS),
            (Section::Units, DE_UNITS),
            (Section::Terms, DE_TERMS),
        ],
        "en" => &[
            (Section::Abbreviations, EN_ABBREVIATIONS),
            (Section::Units, EN_UNITS),
            (Section::Terms, EN_TERMS),
        ],
        _ => &[],
    }
}

const DE_ABBREVIATIONS: Table = &[
    ("z. B.", "zum Beispiel"),
    ("z.B.", "zum Beispiel"),
    ("d. h.", "das heißt"),
    ("d.h.", "das heißt"),
    ("u. a.", "unter anderem"),
    ("usw.", "und so weiter"),
    ("bzw.", "beziehungsweise"),
    ("ca.", "circa"),
    ("evtl.", "eventuell"),
    ("ggf.", "gegebenenfalls"),
    ("inkl.", "inklusive"),
    ("vgl.", "vergleiche"),
    ("Nr.", "Nummer"),
    ("Dr.", "Doktor"),
    ("Prof.", "Professor"),
    ("Str.", "Straße"),
    ("etc.", "et cetera"),
];

const DE_UNITS: Table = &[
    ("km/h", "Kilometer pro Stunde"),
    ("°C", "Grad Celsius"),
    ("kg", "Kilogramm"),
    ("g", "Gramm"),
    ("km", "Kilometer"),
    ("m", "Meter"),
    ("cm", "Zentimeter"),
    ("mm", "Millimeter"),
    ("m²", "Quadratmeter"),
    ("m³", "Kubikmeter"),
    ("l", "Liter"),
    ("ml", "Milliliter"),
    ("kWh", "Kilowattstunde|Kilowattstunden"),
    ("kW", "Kilowatt"),
    ("W", "Watt"),
    ("h", "Stunde|Stunden"),
    ("min", "Minute|Minuten"),
    ("s", "Sekunde|Sekunden"),
    ("MB", "Megabyte"),
    ("GB", "Gigabyte"),
    ("%", "Prozent"),
];

const DE_TERMS: Table = &[("WLAN", "W-LAN"), ("GitHub", "Git-Hab"), ("iPhone", "Ei-Fon")];

const EN_ABBREVIATIONS: Table = &[
    ("e.g.", "for example"),
    ("i.e.", "that is"),
    ("etc.", "et cetera"),
    ("vs.", "versus"),
    ("approx.", "approximately"),
    ("Dr.", "Doctor"),
    ("Mr.", "Mister"),
    ("Mrs.", "Missus"),
    ("St.", "Street"),
    ("No.", "number"),
];

const EN_UNITS: Table = &[
    ("km/h", "kilometer per hour|kilometers per hour"),
    ("mph", "mile per hour|miles per hour"),
    ("°C", "degree Celsius|degrees Celsius"),
    ("°F", "degree Fahrenheit|degrees Fahrenheit"),
    ("kg", "kilogram|kilograms"),
    ("g", "gram|grams"),
    ("km", "kilometer|kilometers"),
    ("m", "meter|meters"),
    ("cm", "centimeter|centimeters"),
    ("mm", "millimeter|millimeters"),
    ("m²", "square meter|square meters"),
    ("l", "liter|liters"),
    ("ml", "milliliter|milliliters"),
    ("kWh", "kilowatt hour|kilowatt hours"),
    ("kW", "kilowatt|kilowatts"),
    ("W", "watt|watts"),
    ("h", "hour|hours"),
    ("min", "minute|minutes"),
    ("s", "second|seconds"),
    ("MB", "megabyte|megabytes"),
    ("GB", "gigabyte|gigabytes"),
    ("%", "percent"),
];

const EN_TERMS: Table = &[("GitHub", "Git Hub"), ("SQL", "sequel"), ("GUI", "gooey")];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_entries_overlay_the_builtin_defaults() {
        let lex = Lexicon::with_entries(
            "de",
            [
                ("units".into(), "km".into(), "Kilometerchen".into()),
                ("terms".into(), "Ollama".into(), "O-lama".into()),
                ("nonsense".into(), "x".into(), "y".into()),
            ],
        );
        assert_eq!(lex.get(Section::Units, "km"), Some("Kilometerchen"));
        assert_eq!(lex.get(Section::Terms, "Ollama"), Some("O-lama"));
        assert_eq!(lex.get(Section::Abbreviations, "z. B."), Some("zum Beispiel"));
        assert!(Lexicon::builtin("fr").entries(Section::Units).next().is_none());
        assert_eq!(
            Lexicon::builtin("en").get(Section::Abbreviations, "e.g."),
            Some("for example")
        );
    }

    #[test]
    fn bad_entries_name_the_field() {
        assert_eq!(check_place("xx", "units").unwrap_err().field, "lang");
        assert_eq!(check_place("de", "slang").unwrap_err().field, "section");
        assert_eq!(check_entry("  ", "x").unwrap_err().field, "key");
        assert_eq!(check_entry(&"k".repeat(65), "x").unwrap_err().field, "key");
        assert_eq!(check_entry("k", &"v".repeat(257)).unwrap_err().field, "value");
        assert_eq!(
            check_entry(" km ", " Kilometer ").unwrap(),
            ("km".into(), "Kilometer".into())
        );
        assert_eq!(check_place("pt", "terms").unwrap(), Section::Terms);
    }
}
