//! The program as an operator starts it.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
fn a_bad_setting_stops_start_up_naming_the_variable() {
    let dir = tempfile::tempdir().unwrap();
    for (var, value) in [
        ("DAILY_REQUEST_LIMIT", "many"),
        ("PROFILE", "prod"),
        ("TRUSTED_PROXY_IPS", "1.2.3"),
    ] {
        let out = Command::new(BIN)
            .current_dir(dir.path())
            .env(var, value)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{var}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(var), "{var}");
    }
}

#[test]
fn sigterm_stops_the_server_with_exit_code_0() {
    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(BIN)
        .current_dir(dir.path())
        .env("LISTEN_ADDR", format!("127.0.0.1:{port}"))
        .env("ADMIN_API_KEY", "secret-admin-key-in-env")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(started.elapsed() < Duration::from_secs(20), "server did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
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
}
