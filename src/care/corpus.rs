//! A language's corpus of care requests and ordinary sentences (`tests/fixtures/care_corpus_<lang>.tsv`,
//! lines `kind<TAB>sentence`), read as the gateway reads them: the requests missed and the ordinary sentences
//! taken for a request. The corpus test and `cargo run --example care_corpus` measure with it.

use super::spoken::{Asked, read};

/// What the corpus of a language shows.
#[derive(Debug, Default)]
pub struct Figures {
    pub requests: usize,
    pub ordinary: usize,
    /// "kind read as kind: sentence".
    pub missed: Vec<String>,
    /// "kind: sentence".
    pub misfired: Vec<String>,
}

/// Reads the corpus `text` (of the file `name`) in `language`.
pub fn measure(name: &str, text: &str, language: &str) -> Result<Figures, String> {
    let mut figures = Figures::default();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let (kind, said) = line.split_once('\t').ok_or_else(|| format!("{name}: {line}"))?;
        let read = match read(said, language) {
            None => "ordinary",
            Some(Asked::Set { .. }) => "set",
            Some(Asked::Timer { .. }) => "timer",
            Some(Asked::List) => "list",
            Some(Asked::Cancel { .. }) => "cancel",
        };
        match kind {
            "ordinary" => figures.ordinary += 1,
            _ => figures.requests += 1,
        }
        match (kind, read) {
            (k, r) if k == r => {}
            ("ordinary", r) => figures.misfired.push(format!("{r}: {said}")),
            (k, r) => figures.missed.push(format!("{k} read as {r}: {said}")),
        }
    }
    Ok(figures)
}

/// The shipped corpus of `language`.
pub fn shipped(language: &str) -> Result<Figures, String> {
    let path = format!(
        "{}/tests/fixtures/care_corpus_{language}.tsv",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    measure(&path, &text, language)
}
