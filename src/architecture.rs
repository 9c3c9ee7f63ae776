//! The architecture, checked: no two modules depend on each other, even through others, whether top-level
//! modules or the modules inside one; a module's `crate::` and `super::` paths name only modules below it.
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The module a source file is: `["routes", "login"]` for `routes/login.rs`, `["routes"]` for `routes/mod.rs`.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().to_string()).collect();
    let file = parts.pop().unwrap_or_default();
    if file != "mod.rs" {
        parts.push(file.trim_end_matches(".rs").to_string());
    }
    parts
}

/// The leading `ident::ident…` of `text`, and what follows it.
fn idents(text: &str) -> (Vec<String>, &str) {
    let mut names = Vec::new();
    let mut rest = text;
    loop {
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if end == 0 {
            return (names, rest);
        }
        names.push(rest[..end].to_string());
        match rest[end..].strip_prefix("::") {
            Some(more) => rest = more,
            None => return (names, &rest[end..]),
        }
    }
}

/// The paths the code of module `here` names through `crate::`, `super::` and `self::`, made absolute (a
/// `use super::{a, b}` group, on one line or several, gives one path per member).
fn named_paths(code: &str, here: &[String]) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for (at, _) in code
        .match_indices("crate::")
        .chain(code.match_indices("super::"))
        .chain(code.match_indices("self::"))
    {
        if code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
            continue; // the middle of a longer path (`super::super::`, `voice_gateway::self_`)
        }
        let (mut base, mut rest) = (Vec::new(), &code[at..]);
        if let Some(r) = rest.strip_prefix("crate::") {
            rest = r;
        } else {
            base = here.to_vec();
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r;
            }
            rest = rest.strip_prefix("self::").unwrap_or(rest);
        }
        let (names, after) = idents(rest);
        base.extend(names);
        match after.strip_prefix('{') {
            Some(group) => {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                for member in group.split(',') {
                    let (names, _) = idents(member.trim());
                    found.push(base.iter().cloned().chain(names).collect());
                }
            }
            None => found.push(base),
        }
    }
    found
}

/// A module's or an item's path, by its names.
type Names = Vec<String>;

/// Every module (by its file) and, for each, the paths its code names, made absolute. Comments and unit
/// tests are left out, and so are the crate root and the binary.
fn named_everywhere() -> (BTreeSet<Names>, Vec<(Names, Names)>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for path in std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()) {
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(f.strip_prefix(&src).unwrap())).collect();
    let mut named = Vec::new();
    for file in &files {
        let here = module_of(file.strip_prefix(&src).unwrap());
        if here == ["lib"] || here == ["main"] || here == ["architecture"] {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
        let code: Vec<&str> = code.lines().filter(|l| !l.trim_start().starts_with("//")).collect();
        for path in named_paths(&code.join("\n"), &here) {
            named.push((here.clone(), path));
        }
    }
    (modules, named)
}

/// For every module, the siblings it names (its own code or its sub-modules'): the crate's top-level
/// modules among themselves (`routes` → `turn`), and the modules inside one module among themselves
/// (`routes::login` → `routes::ui`).
fn dependencies() -> BTreeMap<String, BTreeSet<String>> {
    let (modules, named) = named_everywhere();
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (here, named) in named {
        // The two modules below the deepest module both lie in.
        let common = here.iter().zip(&named).take_while(|(a, b)| a == b).count();
        if common < here.len() && common < named.len() && modules.contains(&named[..=common]) {
            deps.entry(here[..=common].join("::"))
                .or_default()
                .insert(named[..=common].join("::"));
        }
    }
    deps
}

/// The modules `from` reaches through its dependencies.
fn reached<'a>(deps: &'a BTreeMap<String, BTreeSet<String>>, from: &str) -> BTreeSet<&'a str> {
    let mut seen = BTreeSet::new();
    let mut todo: Vec<&str> = deps.get(from).into_iter().flatten().map(String::as_str).collect();
    while let Some(module) = todo.pop() {
        if seen.insert(module) {
            todo.extend(deps.get(module).into_iter().flatten().map(String::as_str));
        }
    }
    seen
}

#[test]
fn nothing_imports_from_the_crate_root() {
    let (modules, named) = named_everywhere();
    let tops: BTreeSet<&str> = modules.iter().filter_map(|m| m.first()).map(String::as_str).collect();
    let from_root: Vec<String> = named
        .iter()
        .filter(|(_, path)| path.first().is_some_and(|first| !tops.contains(first.as_str())))
        .map(|(here, path)| format!("{} names crate::{}", here.join("::"), path.join("::")))
        .collect();
    assert!(from_root.is_empty(), "lib.rs is only the map: {from_root:#?}");
}

#[test]
fn the_voice_core_knows_no_channel() {
    let deps = dependencies();
    let channels = ["ws", "wyoming", "phone", "sip", "openai", "routes", "server", "serve"];
    for core in ["voice", "listen", "turn"] {
        let reached = reached(&deps, core);
        let wires: Vec<&&str> = channels.iter().filter(|c| reached.contains(**c)).collect();
        assert!(wires.is_empty(), "{core} reaches {wires:?}");
    }
}

#[test]
fn modules_have_no_cycles() {
    let deps = dependencies();
    assert!(
        deps.contains_key("turn") && deps["routes"].contains("turn"),
        "the scan found the top-level modules"
    );
    assert!(
        deps["routes::login"].contains("routes::openapi"),
        "the scan found the modules inside them"
    );
    // A cycle shows as a module that reaches itself.
    for start in deps.keys() {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<(&str, Vec<&str>)> = vec![(start.as_str(), vec![start.as_str()])];
        while let Some((module, path)) = todo.pop() {
            for next in deps.get(module).into_iter().flatten() {
                let mut path = path.clone();
                path.push(next);
                assert_ne!(next, start, "module cycle: {}", path.join(" -> "));
                if seen.insert(next.as_str()) {
                    todo.push((next, path));
                }
            }
        }
    }
}
