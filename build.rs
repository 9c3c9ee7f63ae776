//! Embeds the shipped phrasebook (`locales/<lang>/<area>.ftl`) and what the gateway hears for care
//! (`locales/<lang>/care.sentences`) in the binary, so the gateway speaks and hears without the folder beside
//! it; a folder given at start adds to both (see `src/phrasebook.rs`, `src/care/hearing.rs`).

use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=locales");
    // `sqlx::migrate!` embeds the migrations: a new or changed one must rebuild the crate.
    println!("cargo:rerun-if-changed=migrations");
    let root = Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("locales");
    let (mut files, mut sentences) = (Vec::new(), Vec::new());
    for language in sorted(&root) {
        for file in sorted(&language) {
            if file.extension().is_some_and(|e| e == "sentences") {
                let lang = language.file_name().unwrap().to_string_lossy().into_owned();
                let name = file.file_name().unwrap().to_string_lossy().into_owned();
                sentences.push(format!(
                    "    ({lang:?}, {name:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/locales/{lang}/{name}\"))),\n"
                ));
            }
            if file.extension().is_some_and(|e| e == "ftl") {
                let (lang, area) = (
                    language.file_name().unwrap().to_string_lossy(),
                    file.file_stem().unwrap().to_string_lossy(),
                );
                // Relative to the package being compiled, not to where this script ran: two checkouts
                // sharing one target folder would otherwise read each other's files.
                files.push(format!(
                    "    ({lang:?}, {area:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/locales/{lang}/{area}.ftl\"))),\n"
                ));
            }
        }
    }
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("locales.rs");
    let code = format!(
        "/// Every shipped file: language, area, text.\npub static SHIPPED: &[(&str, &str, &str)] = &[\n{}];\n\
         /// Every shipped file of what care hears: language, file name, text.\n\
         pub static SENTENCES: &[(&str, &str, &str)] = &[\n{}];\n",
        files.concat(),
        sentences.concat()
    );
    std::fs::write(out, code).unwrap();
}

/// The entries of a folder, by name.
fn sorted(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    entries.sort();
    entries
}
