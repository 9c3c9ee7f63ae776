//! The program as an operator starts it.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{eventually, free_port};

const BIN: &str = env!("CARGO_BIN_EXE_voice-gateway");

#[test]
fn version_prints_the_package_version() {
    let out = Command::new(BIN).arg("--version").output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("voice-gateway {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn an_unreachable_database_stops_start_up_saying_where_without_the_password() {
    let dir = tempfile::tempdir().unwrap();
    // A port nobody listens on: bound, then closed.
    let port = free_port();
    let started = Instant::now();
    let out = Command::new(BIN)
        .current_dir(dir.path())
        .env("ENGINES", "off")
        .env(
            "DATABASE_URL",
            format!("postgres://voice:s3cret-pass@127.0.0.1:{port}/voice"),
        )
        .env("DATABASE_WAIT_SECONDS", "1")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "it waited about DATABASE_WAIT_SECONDS"
    );
    assert!(said.contains("DATABASE_URL") && said.contains("127.0.0.1"), "{said}");
    assert!(!said.contains("s3cret-pass"), "{said}");
}

#[test]
fn a_bad_setting_stops_start_up_naming_the_variable() {
    let dir = tempfile::tempdir().unwrap();
    for (var, value) in [
        ("DAILY_REQUEST_LIMIT", "many"),
        ("PROFILE", "prod"),
        ("TRUSTED_PROXY_IPS", "1.2.3"),
        // The README's example once: a key anybody can guess.
        ("ADMIN_API_KEY", "change-me"),
    ] {
        let out = Command::new(BIN)
            .current_dir(dir.path())
            .env("ENGINES", "off")
            .env(var, value)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{var}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(var), "{var}");
    }
}

#[tokio::test]
async fn sigterm_stops_the_server_with_exit_code_0() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let child = Command::new(BIN)
        .current_dir(dir.path())
        .env("ENGINES", "off")
        .env("LISTEN_ADDR", format!("127.0.0.1:{port}"))
        .env("ADMIN_API_KEY", "secret-admin-key-in-env")
        .env("PUBLIC_URL", "https://voice.example.org/")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    eventually("the server to accept connections", 20, || async {
        std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
    })
    .await;
    assert!(
        dir.path().join("data/gateway.db").exists(),
        "the default store is created"
    );
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!log.contains("secret-admin-key-in-env"), "a secret reached the log");
    // The addresses printed are the one the operator configured.
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("is ready: https://voice.example.org\n"), "{stdout}");
    assert!(
        stdout.contains("running: language model ") && stdout.contains("; voice espeak; voice detection "),
        "{stdout}"
    );
    // Without a terminal (a service manager's log) the admin's link is only named by its file, which holds it.
    assert!(stdout.contains("admin's personal link: see "), "{stdout}");
    assert!(!stdout.contains("?k="), "the link stays out of the log: {stdout}");
    let kept = std::fs::read_to_string(dir.path().join("data/admin-link.txt")).unwrap();
    assert!(kept.starts_with("https://voice.example.org/?k="), "{kept}");
    // With the engines off and nothing configured, start-up says which stages have no provider and how to
    // configure them.
    assert!(
        log.contains("LOCAL_LLM_URL is not set") && log.contains("ENGINES=auto"),
        "{log}"
    );
    assert!(log.contains("OPENAI_STT_URL is not set"), "{log}");
}

/// The first start at a terminal (`script` gives the gateway one, as a person starting it by hand has; it is
/// stopped after a moment): what it printed, and the link it kept.
fn first_start(env: &[(&str, &str)]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let out = Command::new("timeout")
        .args(["-s", "TERM", "8", "script", "-q", "-e", "-c", BIN, "/dev/null"])
        .current_dir(dir.path())
        .env("ENGINES", "off")
        .env("LISTEN_ADDR", format!("127.0.0.1:{port}"))
        .env("WYOMING_ZEROCONF", "false")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let kept = std::fs::read_to_string(dir.path().join("data/admin-link.txt")).unwrap();
    (String::from_utf8_lossy(&out.stdout).into_owned(), kept)
}

fn qr_lines(shown: &str) -> usize {
    shown
        .lines()
        .filter(|l| l.contains('\u{2588}') || l.contains('\u{2580}'))
        .count()
}

#[tokio::test]
async fn at_a_terminal_the_first_start_shows_the_admins_link_and_its_qr_code() {
    // Where phones reach it: the link and its QR code.
    let (shown, kept) = first_start(&[("PUBLIC_URL", "http://voice.home.arpa:8080")]);
    assert!(kept.starts_with("http://voice.home.arpa:8080/?k="), "{kept}");
    assert!(
        shown.contains(&format!("(shown once, kept in data/admin-link.txt): {kept}")),
        "{shown}"
    );
    assert!(shown.contains("scan it with your phone:"), "{shown}");
    assert!(qr_lines(&shown) > 10, "a QR code of text blocks: {shown}");

    // On this machine's loopback alone no phone can open it: no code, but how to get there.
    let (shown, kept) = first_start(&[]);
    assert!(shown.contains(&kept), "{shown}");
    assert!(!shown.contains("scan it") && qr_lines(&shown) == 0, "{shown}");
    assert!(
        shown.contains("a phone cannot reach") && shown.contains("TLS=auto"),
        "{shown}"
    );
    // Nothing to send an alarm with and nobody to send it to: the start says so before anyone needs help.
    assert!(
        shown.contains("help: nobody can be alerted yet: enter each person's contacts (admin panel, Users)"),
        "{shown}"
    );
}

/// One HTTP/1.1 request over a plain socket: (status, body).
fn http(port: u16, method: &str, path: &str, admin_key: Option<&str>) -> Option<(u16, String)> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let key = admin_key.map(|k| format!("X-Admin-Key: {k}\r\n")).unwrap_or_default();
    let request =
        format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{key}Content-Length: 0\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    let status = response.split_whitespace().nth(1)?.parse().ok()?;
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    Some((status, body))
}

/// The count of `GET /health` answered 200 since the process started, from its metrics.
fn health_requests(port: u16, admin_key: &str) -> Option<u64> {
    let (_, metrics) = http(port, "GET", "/api/metrics", Some(admin_key))?;
    let counters: serde_json::Value = serde_json::from_str(&metrics).ok()?;
    Some(
        counters["counters"]["http_requests_total{method=\"GET\",route=\"/health\",status=\"200\"}"]
            .as_u64()
            .unwrap_or(0),
    )
}

#[tokio::test]
async fn an_admin_restart_brings_the_service_back_with_the_gpu_mask_applied() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut child = Command::new(BIN)
        .current_dir(dir.path())
        .env("ENGINES", "off")
        .env("LISTEN_ADDR", format!("127.0.0.1:{port}"))
        .env("ADMIN_API_KEY", "restart-admin-key-0123")
        .env("GPUS", "1, 0")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    eventually("the server to answer", 20, || async {
        http(port, "GET", "/health", None).is_some()
    })
    .await;
    for _ in 0..5 {
        assert_eq!(http(port, "GET", "/health", None).unwrap().0, 200);
    }
    let (status, body) = http(port, "GET", "/api/admin/status", Some("restart-admin-key-0123")).unwrap();
    assert_eq!(status, 200);
    assert!(body.contains("\"cuda_visible_devices\":\"1,0\""), "{body}");

    let (status, body) = http(
        port,
        "POST",
        "/api/admin/gateway/restart",
        Some("restart-admin-key-0123"),
    )
    .unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("re-exec"));
    // Back as a fresh process: its request counters started again (the old one had answered /health six times).
    eventually("the restarted gateway, with fresh counters", 20, || async {
        health_requests(port, "restart-admin-key-0123").is_some_and(|health| health < 5)
    })
    .await;
    assert_eq!(http(port, "GET", "/health", None).map(|r| r.0), Some(200));
    assert!(child.try_wait().unwrap().is_none(), "the same process id serves again");

    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

/// Starts the binary in `dir`, waits until it answers, stops it with SIGTERM and returns what it printed.
async fn start_and_stop(dir: &std::path::Path) -> String {
    let port = free_port();
    let child = Command::new(BIN)
        .current_dir(dir)
        .env("ENGINES", "off")
        .env("LISTEN_ADDR", format!("127.0.0.1:{port}"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    eventually("the server to answer", 20, || async {
        http(port, "GET", "/health", None).is_some()
    })
    .await;
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[tokio::test]
async fn the_admin_link_is_kept_in_its_file_and_starts_without_a_terminal_only_name_it() {
    let dir = tempfile::tempdir().unwrap();
    let first = start_and_stop(dir.path()).await;
    let file = dir.path().join("data/admin-link.txt");
    let kept = std::fs::read_to_string(&file).unwrap();
    let token = kept.trim().rsplit("k=").next().unwrap().to_string();
    assert!(token.len() >= 40);
    assert!(!first.contains(&token) && first.contains("admin-link.txt"), "{first}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "the link is readable by its owner alone");
    }

    let second = start_and_stop(dir.path()).await;

    assert!(!second.contains(&token) && !second.contains("?k="), "{second}");
    assert!(second.contains("admin-link.txt"), "{second}");
    // The same token, on the address of this start (another free port).
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .ends_with(&format!("/?k={token}")),
        "the same link still works and is kept in the file"
    );
}
