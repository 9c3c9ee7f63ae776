//! The text pipeline between LLM and TTS: what a listener hears.
//!
//! So far: the pronunciation [`lexicon`] (sections abbreviations, units, terms per language), stored in the
//! database, edited by admins and cached until the next write. The cleaner, spoken-language adapter,
//! normalizer and streaming sentence splitter build on it.

pub mod lexicon;
pub mod split;
