//! What the README states that the code can check: the profile table against the settings' own defaults, the
//! token of its `curl` examples in `local-dev`, and the Debian packages its test command installs. (The
//! settings table is checked where the settings are defined, in `src/config/catalog.rs`; the zero-setup
//! start's engines and the free port of its transcription by the end-to-end test.)

use std::process::{Command, Stdio};

use voice_gateway::config::{Profile, Settings};

use crate::common::{eventually, free_port};

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// The rows of the README's profile table, each as its cells.
fn profile_table() -> Vec<Vec<String>> {
    let readme = readme();
    let rows: Vec<Vec<String>> = readme
        .lines()
        .skip_while(|l| !l.starts_with("| | local-dev (default) | hybrid | cloud |"))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| l.trim_matches('|').split(" | ").map(|c| c.trim().to_string()).collect())
        .collect();
    assert!(rows.len() >= 5 && rows.iter().all(|r| r.len() == 4), "{rows:?}");
    rows
}

/// How the README names a provider of the settings.
fn named(provider: &str) -> &str {
    match provider {
        "espeak" => "espeak-ng",
        "openai" => "OpenAI-compatible",
        other => other,
    }
}

#[test]
fn the_profile_table_tells_each_profiles_defaults() {
    let rows = profile_table();
    for (column, profile) in [(1, Profile::LocalDev), (2, Profile::Hybrid), (3, Profile::Cloud)] {
        let defaults = Settings::defaults(profile);
        let default = |name: &str| {
            let setting = defaults.iter().find(|d| d.name == name).expect(name);
            setting.default.clone().unwrap_or_default()
        };
        let cell = |row: &str| {
            let found = rows.iter().find(|r| r[0].starts_with(row)).expect(row);
            found[column].clone()
        };
        let at = profile.as_str();

        let login = if default("AUTH_ENABLED") == "true" { "yes" } else { "no" };
        assert_eq!(cell("login required"), login, "{at}");
        let engines = default("ENGINES") == "auto";
        assert!(cell("local engines").starts_with(&default("ENGINES")), "{at}");

        // Where the engines run, they take a free port; the configured service is what runs without them.
        let stt = cell("speech to text");
        let url = default("OPENAI_STT_URL");
        let service = url.split("://").nth(1).unwrap().trim_end_matches("/v1");
        assert!(stt.contains(service), "{at}: {stt} names {service}");
        assert_eq!(
            stt.starts_with("`whisper`: faster-whisper, started on a free loopback port"),
            engines,
            "{at}: {stt}"
        );

        let llm = cell("language model");
        let provider = default("DEFAULT_LLM_PROVIDER");
        let first = match provider.as_str() {
            "local" if engines => "llama.cpp's server",
            other => other,
        };
        assert!(llm.starts_with(first), "{at}: {llm}");
        let fallback = default("LLM_FALLBACK");
        assert_eq!(
            llm.contains(&format!("{fallback} as fallback")),
            !fallback.is_empty(),
            "{at}: {llm}"
        );

        // The engines choose Piper when they run it; the other languages, and a start without them, espeak-ng.
        let tts = cell("text to speech");
        let voice = default("DEFAULT_TTS_PROVIDER");
        let first = if engines {
            "Piper, started on a free loopback port"
        } else {
            named(&voice)
        };
        assert!(tts.starts_with(first), "{at}: {tts}");
        assert!(tts.contains(named(&voice)), "{at}: {tts}");
        let fallback = default("TTS_FALLBACK");
        let said = format!("{} as fallback", named(&fallback));
        assert_eq!(tts.contains(&said), !fallback.is_empty(), "{at}: {tts}");
    }
}

/// One HTTP/1.1 GET over a plain socket, with a bearer token: (status, body).
fn get(port: u16, path: &str, token: Option<&str>) -> Option<(u16, String)> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(std::time::Duration::from_secs(5))).ok()?;
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Connection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    let status = response.split_whitespace().nth(1)?.parse().ok()?;
    let body = response.split_once("\r\n\r\n").map(|(_, b)| b.to_string())?;
    Some((status, body))
}

#[tokio::test]
async fn in_local_dev_the_readmes_command_prints_the_admins_token() {
    let readme = readme();
    let command = readme
        .split('`')
        .find(|s| s.starts_with("sed ") && s.ends_with("data/admin-link.txt"))
        .expect("the README's command for the token");
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    // The first start as the README has it, without engines.
    let mut gateway = Command::new(env!("CARGO_BIN_EXE_voice-gateway"))
        .current_dir(dir.path())
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("ENGINES", "off")
        .env("LISTEN_ADDR", format!("127.0.0.1:{port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    eventually("the gateway to answer", 20, || async {
        get(port, "/health", None).is_some()
    })
    .await;

    let printed = Command::new("sh")
        .args(["-c", command])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let token = String::from_utf8(printed.stdout).unwrap().trim().to_string();
    let admin = get(port, "/api/me", Some(&token));
    let anonymous = get(port, "/api/me", None);
    Command::new("kill")
        .args(["-TERM", &gateway.id().to_string()])
        .status()
        .unwrap();
    gateway.wait().unwrap();

    let (status, me) = admin.unwrap();
    assert_eq!(status, 200, "{me}");
    let me: serde_json::Value = serde_json::from_str(&me).unwrap();
    assert_eq!(
        (me["name"].as_str(), me["is_admin"].as_bool()),
        (Some("admin"), Some(true))
    );
    let (status, me) = anonymous.unwrap();
    assert_eq!(status, 200, "without a token: {me}");
    assert!(me.contains("\"is_anonymous\":true"), "{me}");
}

#[test]
fn the_readme_names_the_debian_packages_the_test_command_installs_and_that_it_needs_root() {
    let script = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/test.sh")).unwrap();
    let mut installed: Vec<&str> = script
        .lines()
        .filter_map(|l| l.split("need+=(").nth(1))
        .flat_map(|rest| rest.split(')').next().unwrap_or("").split_whitespace())
        .collect();
    installed.sort_unstable();
    assert!(installed.len() >= 10, "{installed:?}");

    let readme = readme().split_whitespace().collect::<Vec<_>>().join(" ");
    let (before, after) = readme
        .split_once("the Debian packages it needs (")
        .expect("the README names the Debian packages");
    let mut listed: Vec<&str> = after.split(')').next().unwrap().split(", ").collect();
    listed.sort_unstable();
    assert_eq!(listed, installed);
    let sentence = &before[before.rfind(". ").unwrap_or(0)..];
    assert!(sentence.contains("as root or through `sudo`"), "{sentence}");
}

/// `docs/decisions.md` opens with a list of its sections, in their order (`scripts/decisions-toc.py`
/// writes it).
#[test]
fn the_decisions_list_their_sections_at_the_top() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/decisions.md")).unwrap();
    let (head, body) = text.split_once("<!-- /contents -->").expect("the contents list");
    let listed: Vec<&str> = head
        .lines()
        .filter_map(|l| l.strip_prefix("- [")?.split_once("](").map(|(name, _)| name))
        .collect();
    let sections: Vec<String> = body
        .lines()
        .filter_map(|l| l.strip_prefix("## "))
        .map(|h| h.replace('`', ""))
        .collect();
    assert_eq!(listed, sections, "run scripts/decisions-toc.py");
}
