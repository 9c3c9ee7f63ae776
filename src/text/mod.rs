//! The text pipeline between LLM and TTS: what a listener hears.
//!
//! [`pipeline::Pipeline`] is the entry point: whole or streamed LLM text in, spoken sentences out.
//!
//! - [`clean`]: removes what must not be spoken.
//!   `"## Tipps\n- **Viel** trinken [1] 💧"` → `"Tipps\nViel trinken"`.
//! - [`split`]: the streaming sentence splitter; tokens `"Es ist 22"`, `". November. Wi"`, `"e geht's?"` give
//!   `"Es ist 22. November."` as soon as `Wi` arrives, and `"Wie geht's?"` at the end.
//! - [`adapt`]: written style to spoken style: `"Obst (z. B. Äpfel/Birnen)"` →
//!   `"Obst, zum Beispiel Äpfel oder Birnen."`.
//! - [`numbers`]: German and English number words: `2026` → `zweitausendsechsundzwanzig`,
//!   `21` → `twenty-one`, year `1999` → `nineteen ninety-nine`.
//! - [`normalize`]: numbers, dates, times, money, percentages, ranges, phone numbers, units and terms as words:
//!   de `"am 3. Mai um 14:30 Uhr, 3,50 €"` → `"am dritten Mai um vierzehn Uhr dreißig, drei Euro fünfzig"`.
//! - [`lexicon`]: the pronunciation lexicon (sections abbreviations, units, terms per language), stored in the
//!   database, edited by admins and cached until the next write: de `"km/h"` → `"Kilometer pro Stunde"`.

pub mod adapt;
pub mod clean;
pub mod lexicon;
pub mod normalize;
pub mod numbers;
pub mod pipeline;
pub mod split;
