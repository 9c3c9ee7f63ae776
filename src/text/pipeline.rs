//! The one entry point: the LLM's text (whole or streamed) in, the sentences to speak out.
//!
//! Each sentence is cleaned, adapted and (when `tts_normalization_enabled`) normalized; the text shown to the
//! user stays the original answer. Example (de, streamed): tokens `"Am 3. Mai **regnet"`, `" es**. Gut"`
//! give `"Am dritten Mai regnet es."` as soon as `Gut` arrives.

use std::sync::Arc;

use super::adapt::adapt;
use super::clean::clean;
use super::lexicon::Lexicon;
use super::normalize::normalize;
use super::split::{DEFAULT_MAX_LEN, SentenceSplitter};

/// The pipeline settings of one turn.
#[derive(Clone)]
pub struct Pipeline {
    lang: String,
    lexicon: Arc<Lexicon>,
    normalize: bool,
    max_len: usize,
    first_clause_words: usize,
}

impl Pipeline {
    /// A pipeline for a language and its lexicon; `normalize` follows `tts_normalization_enabled`.
    pub fn new(lang: &str, lexicon: Arc<Lexicon>, normalize: bool) -> Self {
        Self {
            lang: lang.to_string(),
            lexicon,
            normalize,
            max_len: DEFAULT_MAX_LEN,
            first_clause_words: 0,
        }
    }

    /// Speaks the first sentence up to its first clause boundary after `words` words (0: whole sentences).
    pub fn first_clause(mut self, words: usize) -> Self {
        self.first_clause_words = words;
        self
    }

    /// The spoken form of one sentence (or any text): clean → adapt → normalize.
    pub fn speak(&self, text: &str) -> String {
        let adapted = adapt(&clean(text), &self.lang, &self.lexicon);
        if self.normalize {
            normalize(&adapted, &self.lang, &self.lexicon)
        } else {
            adapted
        }
    }

    /// A whole answer as spoken sentences.
    pub fn split_all(&self, text: &str) -> Vec<String> {
        let mut stream = self.stream();
        let mut out = stream.push(text);
        out.extend(stream.finish());
        out
    }

    /// A stream fed with LLM tokens.
    pub fn stream(&self) -> SpokenStream {
        SpokenStream {
            splitter: SentenceSplitter::new(&self.lang, self.max_len, &self.lexicon)
                .first_clause(self.first_clause_words),
            pipeline: self.clone(),
            in_code: false,
        }
    }
}

/// Spoken sentences from a token stream, each as soon as it is complete.
pub struct SpokenStream {
    splitter: SentenceSplitter,
    pipeline: Pipeline,
    /// Inside a code fence: its lines are never spoken, even when the fence spans several sentences.
    in_code: bool,
}

impl SpokenStream {
    /// Adds a token; returns the spoken sentences it completed.
    pub fn push(&mut self, token: &str) -> Vec<String> {
        let sentences = self.splitter.push(token);
        self.speak_all(sentences)
    }

    /// Bytes of the tokens pushed that are not in a returned sentence yet.
    pub fn pending(&self) -> usize {
        self.splitter.pending()
    }

    /// Ends the stream; returns what is left, spoken.
    pub fn finish(&mut self) -> Vec<String> {
        let sentences = self.splitter.finish();
        self.speak_all(sentences)
    }

    fn speak_all(&mut self, sentences: Vec<String>) -> Vec<String> {
        let mut out = Vec::new();
        for sentence in sentences {
            if sentence.starts_with("```") || sentence.starts_with("~~~") {
                self.in_code = !self.in_code;
                continue;
            }
            if self.in_code {
                continue;
            }
            let spoken = self.pipeline.speak(&sentence);
            if !spoken.is_empty() {
                out.push(spoken);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pipeline(lang: &str, normalize: bool) -> Pipeline {
        Pipeline::new(lang, Arc::new(Lexicon::builtin(lang)), normalize)
    }

    #[test]
    fn an_answer_becomes_spoken_sentences() {
        let de = pipeline("de", true);
        let answer =
            "## Wetter\nAm 3. Mai **regnet** es [1]. Es wird 12 °C warm 🌧️.\n\n- Schirm mitnehmen\n- z. B. Jacke";
        assert_eq!(
            de.split_all(answer),
            [
                "Wetter.",
                "Am dritten Mai regnet es.",
                "Es wird zwölf Grad Celsius warm.",
                "Schirm mitnehmen.",
                "zum Beispiel Jacke."
            ]
        );
        let en = pipeline("en", true);
        assert_eq!(
            en.split_all("It costs $5.99 (approx.). See https://shop.example/x!"),
            ["It costs five dollars ninety-nine, approximately.", "See!"]
        );
    }

    #[test]
    fn normalization_can_be_switched_off() {
        assert_eq!(pipeline("de", false).speak("Es ist 21 Uhr."), "Es ist 21 Uhr.");
        assert_eq!(
            pipeline("de", true).speak("Es ist 21 Uhr."),
            "Es ist einundzwanzig Uhr."
        );
    }

    #[test]
    fn streamed_code_fences_are_never_spoken() {
        let p = pipeline("en", true);
        let mut stream = p.stream();
        let mut out = Vec::new();
        for token in ["Run this:\n``", "`sh\nrm -rf /tmp/x.\nls -la.\n`", "``\nDone. Bye"] {
            out.extend(stream.push(token));
        }
        out.extend(stream.finish());
        assert_eq!(out, ["Run this:", "Done.", "Bye."]);
    }

    #[test]
    fn streaming_gives_the_same_speech_as_the_whole_text() {
        let p = pipeline("de", true);
        let text = "Hallo Erna! Heute, am 22.11.2026, sind es 3 °C. Um 14:30 Uhr kommt Dr. Weber (ca. 10 Min.). \
                    Das kostet 3,50 €. Fertig";
        let whole = p.split_all(text);
        let mut stream = p.stream();
        let mut streamed = Vec::new();
        let chars: Vec<char> = text.chars().collect();
        for chunk in chars.chunks(3) {
            streamed.extend(stream.push(&chunk.iter().collect::<String>()));
        }
        streamed.extend(stream.finish());
        assert_eq!(streamed, whole);
        assert_eq!(
            whole[1],
            "Heute, am zweiundzwanzigsten November zweitausendsechsundzwanzig, sind es drei Grad Celsius."
        );
    }

    proptest! {
        /// Any text, in any of three languages: streamed in pieces it is spoken as the whole text is, and no
        /// spoken sentence is empty.
        #[test]
        fn any_text_streams_as_it_speaks_whole(
            chars in prop::collection::vec(prop::sample::select(
                "aZ 0123456789.,:;!?-–/+€$£%°()[]*_`#|~^<>\n\"„“”«»…é😀ß\u{301}\u{202e}".chars().collect::<Vec<_>>(),
            ), 0..120),
            piece in 1usize..8,
            lang in prop::sample::select(vec!["de", "en", "fr"]),
        ) {
            let text = String::from_iter(chars);
            let p = pipeline(lang, true);
            let whole = p.split_all(&text);
            let mut stream = p.stream();
            let mut streamed = Vec::new();
            for chunk in text.chars().collect::<Vec<_>>().chunks(piece) {
                streamed.extend(stream.push(&String::from_iter(chunk)));
            }
            streamed.extend(stream.finish());
            prop_assert_eq!(&streamed, &whole);
            prop_assert!(whole.iter().all(|s| !s.trim().is_empty()), "{:?}", whole);
        }
    }
}
