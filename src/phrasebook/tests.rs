use std::collections::{BTreeMap, BTreeSet, HashSet};

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};

use super::*;

/// Areas only the staff read (the operator's panel, the carers' board): German and English; another language
/// may leave them out whole (English is shown), never in part.
const OPERATOR_AREAS: [&str; 2] = ["admin", "carer"];

/// Every message of a shipped language with the variables it uses (`$form` aside: every message gets it).
fn messages(lang: &str) -> BTreeMap<String, BTreeSet<String>> {
    area_messages(lang, None)
}

/// [`messages`] of one area, or of all.
fn area_messages(lang: &str, area: Option<&str>) -> BTreeMap<String, BTreeSet<String>> {
    let mut found = BTreeMap::new();
    let files = shipped::SHIPPED
        .iter()
        .filter(|(l, a, _)| *l == lang && area.is_none_or(|area| area == *a));
    for (_, _, text) in files {
        let resource = FluentResource::try_new(text.to_string()).unwrap();
        for entry in resource.entries() {
            if let Entry::Message(m) = entry {
                let mut vars = BTreeSet::new();
                if let Some(value) = &m.value {
                    pattern_vars(value, &mut vars);
                }
                vars.remove("form");
                found.insert(m.id.name.to_string(), vars);
            }
        }
    }
    found
}

/// The variables English's comment on a message offers after "Offered:": a language may use each or leave
/// it out (the parts of a time of day, of which English says "8:30 pm" and German "20:30 Uhr").
fn offered(area: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut found = BTreeMap::new();
    for (_, _, text) in shipped::SHIPPED.iter().filter(|(l, a, _)| *l == FALLBACK && *a == area) {
        // The runtime's parser drops comments; the full one keeps them.
        let resource = fluent_syntax::parser::parse(*text).unwrap();
        for entry in &resource.body {
            if let Entry::Message(m) = entry
                && let Some(comment) = &m.comment
                && let Some((_, after)) = comment.content.join(" ").split_once("Offered:")
            {
                let vars = after
                    .split_whitespace()
                    .filter_map(|w| w.strip_prefix('$'))
                    .map(|w| w.trim_end_matches(|c: char| !c.is_ascii_alphanumeric()).to_string())
                    .collect();
                found.insert(m.id.name.to_string(), vars);
            }
        }
    }
    found
}

fn pattern_vars(pattern: &Pattern<&str>, vars: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let PatternElement::Placeable { expression } = element {
            expression_vars(expression, vars);
        }
    }
}

fn expression_vars(expression: &Expression<&str>, vars: &mut BTreeSet<String>) {
    match expression {
        Expression::Select { selector, variants } => {
            inline_vars(selector, vars);
            for variant in variants {
                pattern_vars(&variant.value, vars);
            }
        }
        Expression::Inline(inline) => inline_vars(inline, vars),
    }
}

fn inline_vars(inline: &InlineExpression<&str>, vars: &mut BTreeSet<String>) {
    match inline {
        InlineExpression::VariableReference { id } => {
            vars.insert(id.name.to_string());
        }
        InlineExpression::FunctionReference { arguments, .. } => {
            for argument in &arguments.positional {
                inline_vars(argument, vars);
            }
        }
        InlineExpression::Placeable { expression } => expression_vars(expression, vars),
        _ => {}
    }
}

#[test]
fn every_shipped_language_has_every_message_of_english_with_its_arguments() {
    let english = messages(FALLBACK);
    assert!(english.len() >= 50, "{}", english.len());
    let languages: BTreeSet<&str> = shipped::SHIPPED.iter().map(|(l, _, _)| *l).collect();
    assert_eq!(languages.len(), 8, "{languages:?}");
    let areas: BTreeSet<&str> = shipped::SHIPPED.iter().map(|(_, a, _)| *a).collect();
    for lang in languages {
        for area in &areas {
            let (english, own) = (area_messages(FALLBACK, Some(area)), area_messages(lang, Some(area)));
            if own.is_empty() && OPERATOR_AREAS.contains(area) {
                continue;
            }
            let offered = offered(area);
            for (id, vars) in &english {
                let theirs = own.get(id).unwrap_or_else(|| panic!("{lang} has no {id}"));
                let may = offered.get(id).cloned().unwrap_or_default();
                let unknown: Vec<_> = theirs
                    .iter()
                    .filter(|v| !vars.contains(*v) && !may.contains(*v))
                    .collect();
                let left_out: Vec<_> = vars
                    .iter()
                    .filter(|v| !theirs.contains(*v) && !may.contains(*v))
                    .collect();
                assert!(
                    unknown.is_empty() && left_out.is_empty(),
                    "{lang} {id}: its arguments differ from English: uses {unknown:?}, leaves out {left_out:?}"
                );
            }
            let extra: Vec<_> = own.keys().filter(|id| !english.contains_key(*id)).collect();
            assert!(
                extra.is_empty(),
                "{lang} has messages English lacks in {area}: {extra:?}"
            );
        }
    }
    // A time's parts are offered, each to use or leave out ("8:30 pm", "20:30 Uhr").
    let offered_care = offered("care");
    assert!(offered_care["care-time"].contains("hour12") && offered_care["care-time"].contains("hour"));
    // The admin panel speaks German too.
    for area in OPERATOR_AREAS {
        assert_eq!(
            area_messages("de", Some(area)).len(),
            area_messages(FALLBACK, Some(area)).len()
        );
    }
}

/// Literals in `src/` shaped like a message id that are not one.
const NOT_MESSAGES: &[&str] = &["phone-guest"];

#[test]
fn every_message_the_code_asks_for_exists() {
    let areas: BTreeSet<&str> = shipped::SHIPPED.iter().map(|(_, area, _)| *area).collect();
    let english = messages(FALLBACK);
    let mut asked = 0;
    let mut missing = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut asks: Vec<(PathBuf, Vec<String>)> = Vec::new();
    for file in code_files(&root.join("src"), "rs") {
        let code = std::fs::read_to_string(&file).unwrap();
        asks.push((file, code.split('"').skip(1).step_by(2).map(String::from).collect()));
    }
    // The pages ask by id too: `t('page-…')` in their scripts (not the vendored library), `data-t="page-…"`
    // and `data-tp` in their markup.
    let after = |code: &str, opening: &str, closing: char| -> Vec<String> {
        code.split(opening)
            .skip(1)
            .filter_map(|rest| rest.split(closing).next().map(String::from))
            .collect()
    };
    for file in code_files(&root.join("ui"), "js")
        .into_iter()
        .filter(|f| !f.starts_with(root.join("ui/vendor")))
    {
        let code = std::fs::read_to_string(&file).unwrap();
        asks.push((file, after(&code, "t('", '\'')));
    }
    for file in code_files(&root.join("ui"), "html") {
        let code = std::fs::read_to_string(&file).unwrap();
        let mut ids = after(&code, "data-t=\"", '"');
        ids.extend(after(&code, "data-tp=\"", '"'));
        asks.push((file, ids));
    }
    for (file, literals) in &asks {
        for literal in literals.iter().map(String::as_str) {
            let is_id = literal
                .split_once('-')
                .is_some_and(|(area, rest)| areas.contains(area) && !rest.is_empty())
                && literal
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            if is_id && !NOT_MESSAGES.contains(&literal) {
                asked += 1;
                if !english.contains_key(literal) {
                    missing.push(format!("{}: {literal}", file.display()));
                }
            }
        }
    }
    assert!(asked >= 100, "{asked}");
    assert!(missing.is_empty(), "asked for but not in locales/en: {missing:#?}");
}

/// The files under `dir` whose name ends in `.ext`.
fn code_files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            files.extend(code_files(&path, ext));
        } else if path.extension().is_some_and(|e| e == ext) {
            files.push(path);
        }
    }
    files
}

/// A folder with a translator's Turkish: one message of help, nothing else.
fn with_turkish(text: &str) -> (tempfile::TempDir, Result<Phrasebook, String>) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("tr")).unwrap();
    std::fs::write(dir.path().join("tr/help.ftl"), text).unwrap();
    let book = Phrasebook::read(Some(dir.path()));
    (dir, book)
}

#[test]
fn a_language_added_as_a_folder_is_known_and_a_message_it_lacks_is_said_in_english() {
    let (_dir, book) = with_turkish("help-alerted = Yardım yolda: kişileriniz bilgilendirildi.\n");
    let book = book.unwrap();
    assert!(
        book.languages.contains(&"tr") && book.languages.contains(&"de"),
        "{:?}",
        book.languages
    );
    assert_eq!(
        book.format("tr", "help-alerted", &[], false),
        "Yardım yolda: kişileriniz bilgilendirildi."
    );
    assert_eq!(
        book.format("tr", "help-seen-by", &[("who", "Ayşe".into())], false),
        "Seen and confirmed by Ayşe."
    );
    assert!(
        book.warned
            .lock()
            .unwrap()
            .contains(&("tr".to_string(), "help-seen-by".to_string()))
    );
    // A region falls back to its language first.
    assert_eq!(
        book.format("de-AT", "help-by-call", &[], false),
        book.format("de", "help-by-call", &[], false)
    );
}

#[test]
fn a_browser_gets_the_language_it_weighs_highest_among_those_present() {
    assert_eq!(negotiate(Some("de-DE,de;q=0.9,en;q=0.8")), "de");
    assert_eq!(negotiate(Some("tr-TR, fr;q=0.5, en;q=0.4")), "fr");
    assert_eq!(negotiate(Some("en;q=0.2, pl;q=0.9")), "pl");
    assert_eq!(negotiate(Some("xx, yy;q=0")), FALLBACK);
    assert_eq!(negotiate(Some("de;q=abc")), FALLBACK);
    assert_eq!(negotiate(None), FALLBACK);
}

#[test]
fn a_file_that_does_not_parse_is_named_with_its_line() {
    let (_dir, book) = with_turkish("help-alerted = Yardım yolda.\nhelp-seen-by = \u{7b} $who\n"); // a placeable left open
    let err = book.err().unwrap();
    assert!(err.contains("tr/help.ftl: the message at line 2: "), "{err}");
}

#[test]
fn a_folder_corrects_a_built_in_phrase() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("en")).unwrap();
    std::fs::write(dir.path().join("en/help.ftl"), "help-by-sms = text message\n").unwrap();
    let book = Phrasebook::read(Some(dir.path())).unwrap();
    assert_eq!(book.format("en", "help-by-sms", &[], false), "text message");
    assert_eq!(book.format("en", "help-by-call", &[], false), "call");
}

#[test]
fn minutes_are_counted_in_the_language_and_german_says_du_only_to_who_chose_it() {
    let one = [("minutes", FluentValue::from(1)), ("who", "Anna".into())];
    let five = [("minutes", FluentValue::from(5)), ("who", "Anna".into())];
    let en = Words::formal("en");
    assert!(
        en.with("help-cooldown-reached", &one)
            .starts_with("The alarm was raised a minute ago and reached Anna.")
    );
    assert!(
        en.with("help-cooldown-reached", &five)
            .starts_with("The alarm was raised 5 minutes ago")
    );
    let de = Words::formal("de");
    assert!(
        de.with("help-cooldown-reached", &one)
            .starts_with("Der Alarm wurde vor einer Minute ausgelöst")
    );
    assert!(de.get("help-alerted").contains("Ihre"));
    let du = Words::new("de", true);
    assert!(du.get("help-alerted").contains("deine"));
    assert!(du.get("help-no-recipients").contains("Ruf bitte"));
    // The contacts are addressed as Sie all the same.
    assert_eq!(du.get("help-ack-hint"), de.get("help-ack-hint"));
}

#[test]
fn every_advice_to_call_for_help_names_112() {
    let advice = [
        "help-no-recipients",
        "help-delivery-failed",
        "help-cooldown-nobody",
        "help-cooldown-reached",
        "help-call-112",
        "help-nobody-yet",
        "help-path-none",
    ];
    for lang in languages() {
        for informal in [false, true] {
            for id in advice {
                let said = Words::new(lang, informal).with(id, &[("minutes", 3.into()), ("who", "Anna".into())]);
                assert!(said.contains("112"), "{lang} {id}: {said}");
            }
        }
    }
}

#[test]
fn german_says_sie_unless_the_person_chose_du() {
    let du = [" du ", " dich ", " dein", " ruf ", "Ruf ", "Deine "];
    let english = messages(FALLBACK);
    let args = [
        ("minutes", FluentValue::from(3)),
        ("who", "Anna".into()),
        ("name", "Anna".into()),
    ];
    for id in english.keys().filter(|id| id.starts_with("help-")) {
        let said = Words::formal("de").with(id, &args);
        assert!(!du.iter().any(|w| said.contains(w)), "de {id} says du: {said}");
    }
}

/// Files whose sentences are not said to a person, or not yet moved: each with the reason.
const NOT_SAID: &[(&str, &str)] = &[
    (
        "src/emergency/spoken.rs",
        "what the gateway hears: calls for help, and the recogniser's prompt",
    ),
    (
        "src/metrics.rs",
        "the metrics' descriptions, for the operator's monitoring",
    ),
    ("src/turn/translate.rs", "the instruction to the model"),
];

/// Marks of the lines a literal of a log, an error, a setting's or an API body's description, the model's
/// instructions or a test stands in.
const NOT_A_PERSON: &[&str] = &[
    "tracing::",
    "warn!",
    "info!",
    "error!",
    "debug!",
    "trace!",
    "ApiError",
    "expect(",
    "panic!",
    ".var(",
    "#[",
    "Err(",
    "map_err",
    "description",
    "reason",
    "eprintln!",
    "println!",
    "assert",
    "SYSTEM_PROMPT",
    "_BODY: &str",
];

/// The string literals of Rust `code` (outside comments and test modules) with their line numbers.
fn literals(code: &str) -> Vec<(usize, String)> {
    let code = code.split("#[cfg(test)]").next().unwrap_or_default();
    let chars: Vec<char> = code.chars().collect();
    let (mut found, mut line, mut i) = (Vec::new(), 1, 0);
    while i < chars.len() {
        match chars[i] {
            '\n' => line += 1,
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            // A char literal ('"', '\'', 'x'), not a lifetime.
            '\'' if chars.get(i + 1) == Some(&'\\') => i += 3,
            '\'' if chars.get(i + 2) == Some(&'\'') => i += 2,
            'r' if chars.get(i + 1) == Some(&'#') => {
                // A raw string: markup or SQL, skipped to its end.
                let end = code[code.char_indices().nth(i).map_or(0, |(b, _)| b)..]
                    .find("\"#")
                    .unwrap_or(0);
                let skipped = code[code.char_indices().nth(i).map_or(0, |(b, _)| b)..][..end].chars();
                line += skipped.clone().filter(|c| *c == '\n').count();
                i += skipped.count();
            }
            '"' => {
                let (start, mut text) = (line, String::new());
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' {
                        // A continued line: its break and the next line's indentation are not in the text.
                        if chars.get(i + 1) == Some(&'\n') {
                            line += 1;
                            i += 2;
                            while chars.get(i).is_some_and(|c| c.is_whitespace()) {
                                i += 1;
                            }
                            continue;
                        }
                        text.push(chars[i + 1]);
                        i += 2;
                        continue;
                    }
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    text.push(chars[i]);
                    i += 1;
                }
                found.push((start, text));
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// Whether `text` reads as a sentence a person would be told: a capital, three words or more, an end mark.
fn is_sentence(text: &str) -> bool {
    let text = text.trim();
    text.chars()
        .next()
        .is_some_and(|c| c.is_uppercase() || "¿¡".contains(c))
        && text.ends_with(['.', '?', '!'])
        && text
            .split_whitespace()
            .filter(|w| w.chars().any(char::is_alphabetic))
            .count()
            >= 3
        && !text.contains('\u{7b}') // a placeable's opening brace
}

#[test]
fn no_sentence_for_a_person_is_left_in_the_code_outside_the_phrasebook() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut left = Vec::new();
    for file in code_files(&root.join("src"), "rs") {
        let name = file.strip_prefix(root).unwrap().to_string_lossy().into_owned();
        if name.ends_with("tests.rs") || NOT_SAID.iter().any(|(f, _)| *f == name) {
            continue;
        }
        let code = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = code.lines().collect();
        for (line, text) in literals(&code) {
            let context = lines[line.saturating_sub(4)..line.min(lines.len())].join("\n");
            if is_sentence(&text) && !NOT_A_PERSON.iter().any(|m| context.contains(m)) {
                left.push(format!("{name}:{line}: {text}"));
            }
        }
    }
    assert!(left.is_empty(), "sentences for a person outside locales/: {left:#?}");
}

#[test]
fn the_sentence_finder_finds_a_sentence_in_a_literal_and_not_in_a_comment() {
    let code = "// Say: \"Hello there, how are you?\"\nfn f() -> &'static str {\n    \"Good morning, \\\n     how are you?\"\n}\n";
    let found = literals(code);
    assert_eq!(found, [(3, "Good morning, how are you?".to_string())]);
    assert!(is_sentence(&found[0].1));
    assert!(!is_sentence("application/json") && !is_sentence("Hello {name}."));
}

/// The words and phrases the shipped hearing files of a language listen for, four letters or more, lower case.
fn heard_words(language: &str) -> HashSet<String> {
    let mut heard = HashSet::new();
    for (_, _, text) in super::shipped_sentences().iter().filter(|(lang, ..)| *lang == language) {
        for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
            let Some((_, words)) = line.split_once(['=', ':']) else {
                continue;
            };
            let parts = words
                .split(['{', '<'])
                .map(|part| part.split_once(['}', '>']).map_or(part, |(_, rest)| rest));
            for fragment in parts.flat_map(|part| part.split(['(', ')', '[', ']', '|'])) {
                let phrase = fragment.trim().to_lowercase();
                if phrase.chars().filter(|c| c.is_alphabetic()).count() >= 4 {
                    heard.insert(phrase);
                }
            }
        }
    }
    heard
}

/// Files whose words are the gateway's speech, not its hearing: the numbers and words the speech pipeline writes
/// out, and a person's words turned to her when said back ("meine Tabletten" → "Ihre Tabletten").
const SAID_NOT_HEARD: [&str; 2] = ["src/text/", "src/care/say.rs"];
/// Literals that are words of a language by chance: a slot's name, a command, a pref's value, voices' names.
const NOT_WORDS: [&str; 5] = ["todo", "serve", "male", "nova", "sage"];

#[test]
fn no_word_the_gateway_listens_for_is_left_in_the_code_outside_locales() {
    // English's words are also the code's own vocabulary ("timer", "help", "cancel"): a literal is a word the
    // gateway listens for when another language's files hear it and English's do not.
    let english = heard_words("en");
    let heard: HashSet<String> = ["de", "es", "fr", "it", "nl", "pl", "pt"]
        .iter()
        .flat_map(|l| heard_words(l))
        .filter(|w| !english.contains(w) && !NOT_WORDS.contains(&w.as_str()))
        .collect();
    assert!(heard.contains("au secours") && heard.contains("halb") && heard.contains("tschüss"));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut left = Vec::new();
    for file in code_files(&root.join("src"), "rs") {
        let name = file.strip_prefix(root).unwrap().to_string_lossy().into_owned();
        if name.ends_with("tests.rs") || SAID_NOT_HEARD.iter().any(|f| name.starts_with(f)) {
            continue;
        }
        let code = std::fs::read_to_string(&file).unwrap();
        // The code, not its tests: a test says what a person says.
        let code = code.split("#[cfg(test)]").next().unwrap_or_default();
        for (line, text) in literals(code) {
            if heard.contains(&text.trim().to_lowercase()) {
                left.push(format!("{name}:{line}: {text}"));
            }
        }
    }
    assert!(
        left.is_empty(),
        "words the gateway listens for, outside locales/: {left:#?}"
    );
}

#[test]
fn a_new_languages_folder_is_told_which_of_englishs_files_it_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let turkish = dir.path().join("tr");
    std::fs::create_dir(&turkish).unwrap();
    for file in ["care.sentences", "page.ftl", "help.ftl"] {
        std::fs::write(turkish.join(file), "").unwrap();
    }
    // A shipped language's folder only corrects or adds: it lacks nothing.
    std::fs::create_dir(dir.path().join("de")).unwrap();
    let lacking = lacking(dir.path()).unwrap();
    assert_eq!(lacking.len(), 1, "{lacking:?}");
    let (lang, files) = &lacking[0];
    assert_eq!(lang, "tr");
    for file in [
        "times.sentences",
        "help.sentences",
        "phone.sentences",
        "turn.sentences",
        "care.ftl",
        "turn.ftl",
    ] {
        assert!(files.contains(&file.to_string()), "{file}: {files:?}");
    }
    assert!(
        !files
            .iter()
            .any(|f| ["care.sentences", "page.ftl", "help.ftl", "admin.ftl"].contains(&f.as_str()))
    );
}

/// The German messages of the page, the panel and the board: id and text, continuation lines included.
fn german_messages() -> Vec<(String, String)> {
    let mut all: Vec<(String, String)> = Vec::new();
    for area in ["page", "admin", "carer"] {
        for line in super::source("de", area).unwrap_or_default().lines() {
            let starts = line
                .split_once(" = ")
                .filter(|(id, _)| !id.starts_with([' ', '#']) && !id.is_empty());
            match (starts, all.last_mut()) {
                (Some((id, text)), _) => all.push((id.to_string(), text.to_string())),
                (None, Some((_, text))) if line.starts_with(' ') => text.push_str(line),
                _ => {}
            }
        }
    }
    all
}

#[test]
fn german_calls_the_assistants_memories_never_reminders_and_the_reminders_never_memories() {
    // One German word for one thing (issue 77): "Erinnerung" is a reminder; what the assistant remembers is
    // what it "merkt".
    let all = german_messages();
    assert!(all.len() > 100, "{}", all.len());
    for (id, text) in &all {
        if id.contains("memor") {
            assert!(!text.to_lowercase().contains("erinnerung"), "{id} = {text}");
        }
        if id.contains("reminder") {
            assert!(!text.to_lowercase().contains("merk"), "{id} = {text}");
        }
    }
}

/// Each thing's German word, and the words of the other things its messages never use.
const GERMAN_WORDS: [(&str, &[&str]); 5] = [
    ("reminder", &["merk", "nachfrage", "alarm"]),
    ("memor", &["erinnerung"]),
    ("checkin", &["erinnerung", "merk", "alarm"]),
    ("alarm", &["erinnerung", "merk", "nachfrage"]),
    ("notice", &["erinnerung", "merk"]),
];

#[test]
fn german_keeps_one_word_for_each_thing_across_the_page_the_panel_and_the_board() {
    // A reminder is an "Erinnerung", a memory what the assistant "merkt", the check-in the "tägliche Nachfrage"
    // (never the English "Check-in"), a call for help an "Alarm" or "Hilferuf", a notice a "Hinweis": no message
    // about one of them says another's word. Selector keys (`[checkin]`) are names, not words.
    for (id, text) in german_messages() {
        let text = without_selector_keys(&text).to_lowercase();
        assert!(!text.contains("check-in") && !text.contains("checkin"), "{id} = {text}");
        for (thing, others) in GERMAN_WORDS {
            if let Some(word) = others.iter().find(|w| id.contains(thing) && text.contains(*w)) {
                panic!("{id} is about the {thing} and says \"{word}\": {text}");
            }
        }
    }
}

/// `text` without its selector keys (`[checkin]`, `*[other]`).
fn without_selector_keys(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let key = rest[open + 1..]
            .find(']')
            .map(|close| &rest[open + 1..open + 1 + close]);
        match key.filter(|k| !k.is_empty() && k.chars().all(|c| c.is_ascii_lowercase() || "_-".contains(c))) {
            Some(key) => {
                out.push_str(&rest[..open]);
                rest = &rest[open + key.len() + 2..];
            }
            None => {
                out.push_str(&rest[..=open]);
                rest = &rest[open + 1..];
            }
        }
    }
    out + rest
}
