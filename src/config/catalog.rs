//! The README's table of settings, made from the settings' own definitions: each setting is defined once, where
//! it is read ([`super::Settings`]'s reader and [`super::keys::KEYS`]), with its name, meaning, type, default,
//! profile defaults and whether it is secret; reading an empty environment under each profile lists them all.

use super::Settings;
use super::env::Documented;
use super::profile::Profile;

const PROFILES: [Profile; 3] = [Profile::LocalDev, Profile::Hybrid, Profile::Cloud];

/// The default of a variable under each profile, as one text: `false (local-dev), true (hybrid, cloud)` when
/// the profiles differ.
fn default_text(name: &str, defaults: &[(Profile, Vec<Documented>)]) -> String {
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for (profile, read) in defaults {
        let value = read
            .iter()
            .find(|d| d.name == name)
            .and_then(|d| d.default.clone())
            .unwrap_or_else(|| "(unset)".to_string());
        match groups.iter_mut().find(|(v, _)| *v == value) {
            Some((_, profiles)) => profiles.push(profile.as_str()),
            None => groups.push((value, vec![profile.as_str()])),
        }
    }
    match groups.as_slice() {
        [(value, _)] => value.clone(),
        _ => groups
            .iter()
            .map(|(value, profiles)| format!("{value} ({})", profiles.join(", ")))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// Every documented variable in reading order: name, default, meaning.
pub fn all() -> Vec<(String, String, String)> {
    let defaults = PROFILES.map(|p| (p, Settings::defaults(p)));
    defaults[0]
        .1
        .iter()
        .map(|d| (d.name.clone(), default_text(&d.name, &defaults), d.meaning.clone()))
        .collect()
}

/// The README's configuration table, generated from [`all`].
pub fn markdown_table() -> String {
    let mut out = String::from("| Variable | Default | Meaning |\n|---|---|---|\n");
    for (name, default, meaning) in all() {
        out.push_str(&format!("| `{name}` | {default} | {meaning} |\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_profile_reads_the_same_documented_settings_once() {
        let names = |p| Settings::defaults(p).into_iter().map(|d| d.name).collect::<Vec<_>>();
        let local = names(Profile::LocalDev);
        assert!(local.len() > 100, "{} settings", local.len());
        let mut unique = local.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), local.len());
        assert_eq!(names(Profile::Hybrid), local);
        assert_eq!(names(Profile::Cloud), local);
        let defaults = Settings::defaults(Profile::Cloud);
        let secret = defaults.iter().find(|d| d.name == "SMTP_PASSWORD").unwrap();
        assert!(secret.meaning.ends_with("(secret)") && secret.default.is_none());
        let profiled = defaults.iter().find(|d| d.name == "DEFAULT_TTS_PROVIDER").unwrap();
        assert_eq!(profiled.default.as_deref(), Some("openai"));
    }

    #[test]
    fn the_readme_holds_the_generated_settings_table() {
        let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap_or_default();
        let table = super::markdown_table();
        assert!(
            readme.contains(&table),
            "README.md must contain this table verbatim:\n{table}"
        );
    }
}
