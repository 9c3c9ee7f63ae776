//! Every word the gateway says or shows a person, in Project Fluent's files: `locales/<lang>/<area>.ftl`,
//! one file per area (help, phone, …), the same files for the page and the voice. The shipped languages are
//! built into the binary; a folder (`LOCALES_DIR`, or `locales` beside the binary) read once at start adds
//! languages and corrects phrases. A message missing in a language falls back to the language without its
//! region, then to English, and is logged once.
//!
//! Messages are asked for by id with their arguments; every message also gets `$form` (`formal` or
//! `informal`, the person's form of address), which a language may select on (German's "Sie" and "du").

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

mod shipped {
    include!(concat!(env!("OUT_DIR"), "/locales.rs"));
}

/// The language every other falls back to, and whose messages every language must have.
pub const FALLBACK: &str = "en";

type Bundle = FluentBundle<FluentResource>;

/// The phrasebook: a bundle per language.
pub struct Phrasebook {
    bundles: BTreeMap<String, Bundle>,
    /// The files' texts by language and area, built-in first: what the pages read.
    sources: BTreeMap<(String, String), String>,
    languages: Vec<&'static str>,
    /// Missing messages and broken arguments already logged, by language and id.
    warned: Mutex<HashSet<(String, String)>>,
}

static BOOK: OnceLock<Phrasebook> = OnceLock::new();

/// How many different misses are logged; later ones are not.
const WARNED_AT_MOST: usize = 1024;

/// Reads the shipped phrasebook and the folder `dir` adds to it; done once, at start, before the settings
/// (which accept the languages present). A folder that cannot be read, or a file that does not parse, is an
/// error naming the file and line: a translator's mistake should not start a gateway that says nothing.
pub fn load(dir: Option<&Path>) -> Result<(), String> {
    let book = Phrasebook::read(dir)?;
    BOOK.set(book)
        .map_err(|_| "the phrasebook was read already".to_string())
}

/// The shipped files of what the gateway hears for care (`locales/<lang>/*.sentences`): language, file name,
/// text.
pub fn shipped_sentences() -> &'static [(&'static str, &'static str, &'static str)] {
    shipped::SENTENCES
}

/// The folder of added languages: `LOCALES_DIR`, or `locales` beside the binary when it exists.
pub fn folder() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("LOCALES_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    let beside = std::env::current_exe().ok()?.parent()?.join("locales");
    beside.is_dir().then_some(beside)
}

fn book() -> &'static Phrasebook {
    BOOK.get_or_init(|| Phrasebook::read(None).expect("the shipped phrasebook parses (tested)"))
}

/// The languages present (shipped and added), sorted: what the page, prefs and `allowed_languages` accept.
pub fn languages() -> &'static [&'static str] {
    &book().languages
}

/// Whether `lang` is one of [`languages`].
pub fn knows(lang: &str) -> bool {
    languages().contains(&lang)
}

/// The text of `area` in `lang` (the built-in file, then the folder's), for the pages' own Fluent.
pub fn source(lang: &str, area: &str) -> Option<String> {
    book().sources.get(&(lang.to_string(), area.to_string())).cloned()
}

/// The language a browser asks for (its `Accept-Language`) among [`languages`], by its weights; English when
/// none is present. For pages shown before anyone is known (the sign-in pages).
pub fn negotiate(accept_language: Option<&str>) -> &'static str {
    let mut asked: Vec<(f32, &str)> = accept_language
        .unwrap_or_default()
        .split(',')
        .filter_map(|part| {
            let mut pieces = part.split(';');
            let tag = pieces.next()?.trim();
            let weight = pieces
                .find_map(|p| p.trim().strip_prefix("q="))
                .map_or(Some(1.0), |q| q.trim().parse::<f32>().ok())?;
            (!tag.is_empty() && weight > 0.0).then_some((weight, tag))
        })
        .collect();
    asked.sort_by(|a, b| b.0.total_cmp(&a.0));
    let present = languages();
    asked
        .iter()
        .find_map(|(_, tag)| {
            let base = tag.split(['-', '_']).next().unwrap_or(tag).to_ascii_lowercase();
            present
                .iter()
                .find(|l| l.eq_ignore_ascii_case(tag))
                .or_else(|| present.iter().find(|l| **l == base))
        })
        .copied()
        .unwrap_or(FALLBACK)
}

/// Message `id` as `lang`'s own files have it, without falling back: `None` where they lack it.
pub fn own(lang: &str, id: &str) -> Option<String> {
    let bundle = book().bundles.get(lang)?;
    let pattern = bundle.get_message(id)?.value()?;
    Some(bundle.format_pattern(pattern, None, &mut Vec::new()).into_owned())
}

/// The words for one person: their language and form of address.
#[derive(Debug, Clone, Copy)]
pub struct Words<'a> {
    /// The language code.
    pub lang: &'a str,
    informal: bool,
}

impl<'a> Words<'a> {
    /// The words of `lang` for a person who chose `informal` address ("du").
    pub fn new(lang: &'a str, informal: bool) -> Self {
        Self { lang, informal }
    }

    /// The words of `lang` in its formal address (contacts, callers nobody knows).
    pub fn formal(lang: &'a str) -> Self {
        Self::new(lang, false)
    }

    /// Whether the person chose informal address.
    pub fn informal(&self) -> bool {
        self.informal
    }

    /// Message `id` without arguments.
    pub fn get(&self, id: &str) -> String {
        self.with(id, &[])
    }

    /// Message `id` with `args` (`$name` → value).
    pub fn with(&self, id: &str, args: &[(&str, FluentValue<'_>)]) -> String {
        book().format(self.lang, id, args, self.informal)
    }
}

/// Message `id` of `lang`, formal, without arguments.
pub fn phrase(lang: &str, id: &str) -> String {
    Words::formal(lang).get(id)
}

impl Phrasebook {
    fn read(dir: Option<&Path>) -> Result<Self, String> {
        let mut files: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
        let mut sources: BTreeMap<(String, String), String> = BTreeMap::new();
        for (lang, area, text) in shipped::SHIPPED {
            files
                .entry(lang.to_string())
                .or_default()
                .push((format!("locales/{lang}/{area}.ftl (built in)"), text.to_string()));
            sources.insert((lang.to_string(), area.to_string()), text.to_string());
        }
        if let Some(dir) = dir {
            for (lang, name, area, text) in read_folder(dir, "ftl")? {
                let source = sources.entry((lang.clone(), area)).or_default();
                source.push('\n');
                source.push_str(&text);
                files.entry(lang).or_default().push((name, text));
            }
        }
        let mut bundles = BTreeMap::new();
        for (lang, sources) in files {
            let id: LanguageIdentifier = lang
                .parse()
                .map_err(|_| format!("{lang:?} is not a language code (a folder of the phrasebook)"))?;
            let mut bundle = Bundle::new_concurrent(vec![id]);
            // Isolation marks around arguments would be read aloud and sent in SMS.
            bundle.set_use_isolating(false);
            for (name, text) in sources {
                let resource =
                    FluentResource::try_new(text.clone()).map_err(|(_, errors)| parse_error(&name, &text, &errors))?;
                // A later file (the folder's) corrects the built-in phrase of the same id.
                bundle.add_resource_overriding(resource);
            }
            bundles.insert(lang, bundle);
        }
        if !bundles.contains_key(FALLBACK) {
            return Err(format!(
                "the phrasebook has no {FALLBACK:?}, the language every other falls back to"
            ));
        }
        let languages = bundles.keys().map(|l| &*l.clone().leak()).collect();
        Ok(Self {
            bundles,
            sources,
            languages,
            warned: Mutex::default(),
        })
    }

    fn format(&self, lang: &str, id: &str, args: &[(&str, FluentValue<'_>)], informal: bool) -> String {
        let mut fluent_args = FluentArgs::new();
        fluent_args.set("form", if informal { "informal" } else { "formal" });
        for (key, value) in args {
            fluent_args.set(*key, value.clone());
        }
        let base = lang.split(['-', '_']).next().unwrap_or(lang);
        let chain = [lang, base, FALLBACK];
        for (i, candidate) in chain.iter().enumerate() {
            let Some(bundle) = self.bundles.get(*candidate) else {
                continue;
            };
            let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
                continue;
            };
            if i > 0 && *candidate != base {
                self.warn_once(lang, id, "missing in its language; said in English");
            }
            let mut errors = Vec::new();
            let said = bundle.format_pattern(pattern, Some(&fluent_args), &mut errors);
            if !errors.is_empty() {
                self.warn_once(candidate, id, &format!("{errors:?}"));
            }
            return said.into_owned();
        }
        self.warn_once(lang, id, "no such message in any language");
        id.to_string()
    }

    fn warn_once(&self, lang: &str, id: &str, what: &str) {
        // Bounded: languages and ids are the code's and the settings', but a bound costs nothing.
        let new = self
            .warned
            .lock()
            .map(|mut w| w.len() < WARNED_AT_MOST && w.insert((lang.to_string(), id.to_string())))
            .unwrap_or(false);
        if new {
            tracing::warn!(lang, id, "phrasebook: {what} (logged once)");
        }
    }
}

/// The files of a folder of languages whose extension is `extension` (`ftl`, `sentences`): `(language, file
/// name, area, text)`, in order.
pub fn read_folder(dir: &Path, extension: &str) -> Result<Vec<(String, String, String, String)>, String> {
    let mut found = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| format!("LOCALES_DIR {}: {e}", dir.display()))?;
    for language in entries.filter_map(Result::ok).filter(|e| e.path().is_dir()) {
        let lang = language.file_name().to_string_lossy().into_owned();
        let files = std::fs::read_dir(language.path()).map_err(|e| format!("{}: {e}", language.path().display()))?;
        for file in files.filter_map(Result::ok).map(|e| e.path()) {
            if file.extension().is_some_and(|e| e == extension) {
                let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
                let area = file.file_stem().unwrap_or_default().to_string_lossy().into_owned();
                found.push((lang.clone(), file.display().to_string(), area, text));
            }
        }
    }
    found.sort();
    Ok(found)
}

/// What each language of the folder `dir` that the gateway does not ship lacks of English's files (the
/// panel's and the carers' board's aside, which only German and English have): a translator's checklist, said
/// at start. What a language lacks is said, or heard, as English's.
pub fn lacking(dir: &Path) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut english: Vec<String> = shipped::SHIPPED
        .iter()
        .filter(|(lang, area, _)| *lang == "en" && !matches!(*area, "admin" | "carer"))
        .map(|(_, area, _)| format!("{area}.ftl"))
        .collect();
    english.extend(
        shipped::SENTENCES
            .iter()
            .filter(|(lang, ..)| *lang == "en")
            .map(|(_, name, _)| name.to_string()),
    );
    let shipped_languages: HashSet<&str> = shipped::SHIPPED.iter().map(|(lang, ..)| *lang).collect();
    let mut found = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| format!("LOCALES_DIR {}: {e}", dir.display()))?;
    for language in entries.filter_map(Result::ok).filter(|e| e.path().is_dir()) {
        let lang = language.file_name().to_string_lossy().into_owned();
        if shipped_languages.contains(lang.as_str()) {
            continue;
        }
        let has = |name: &String| language.path().join(name).is_file();
        let lacks: Vec<String> = english.iter().filter(|name| !has(name)).cloned().collect();
        if !lacks.is_empty() {
            found.push((lang, lacks));
        }
    }
    found.sort();
    Ok(found)
}

/// A parse error with the file and line a translator looks for.
fn parse_error(name: &str, text: &str, errors: &[fluent_syntax::parser::ParserError]) -> String {
    match errors.first() {
        Some(e) => {
            // The entry the error is in: its first line is what a translator finds.
            let at = e.slice.as_ref().map_or(e.pos.start, |s| s.start);
            let line = text[..at.min(text.len())].matches('\n').count() + 1;
            format!("{name}: the message at line {line}: {e}")
        }
        None => format!("{name}: does not parse"),
    }
}

#[cfg(test)]
mod tests;
