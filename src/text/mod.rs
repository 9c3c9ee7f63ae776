//! The text pipeline between LLM and TTS: what a listener hears.
//!
//! Built so far:
//! - [`clean`]: removes what must not be spoken.
//!   `"## Tipps\n- **Viel** trinken [1] 💧"` → `"Tipps\nViel trinken"`.
//! - [`split`]: the streaming sentence splitter; tokens `"Es ist 22"`, `". November. Wi"`, `"e geht's?"` give
//!   `"Es ist 22. November."` as soon as `Wi` arrives, and `"Wie geht's?"` at the end.
//! - [`numbers`]: German and English number words: `2026` → `zweitausendsechsundzwanzig`,
//!   `21` → `twenty-one`, year `1999` → `nineteen ninety-nine`.
//! - [`lexicon`]: the pronunciation lexicon (sections abbreviations, units, terms per language), stored in the
//!   database, edited by admins and cached until the next write: de `"km/h"` → `"Kilometer pro Stunde"`.
//!
//! Still to come (issue 3): the spoken-language adapter, the German and English normalizer (which reads numbers, dates, times, money and units with [`numbers`]), and the entry
//! point that chains them per sentence.

pub mod clean;
pub mod lexicon;
pub mod numbers;
pub mod split;
