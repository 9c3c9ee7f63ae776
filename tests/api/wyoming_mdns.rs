//! Discovery of the Wyoming server as Home Assistant does it: the gateway's binary runs in a network namespace
//! the test makes (a user namespace with a veth pair of its own, so no packet reaches the machine's network),
//! and `tests/wyoming/discover.py` browses for `_wyoming._tcp.local.` with the `zeroconf` package, then asks the
//! server it found to describe itself with the reference `wyoming` client.
//!
//! Ignored by a plain `cargo test`: it needs the clients in `target/wyoming-venv` (`scripts/test.sh` installs
//! them) and `unshare` and `ip` for the namespace.

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_voice-gateway");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Inside the namespace (its network made by `in_namespace`): the gateway, then the browser, whose report is the
/// output.
const SCRIPT: &str = r#"
"$GATEWAY" >"$DATA/gateway.log" 2>&1 &
gateway=$!
for _ in $(seq 100); do
  (exec 3<>/dev/tcp/127.0.0.1/10300) 2>/dev/null && break
  sleep 0.1
done
"$PYTHON" "$DISCOVER"
kill -TERM $gateway
wait $gateway || true
"#;

#[tokio::test]
#[ignore = "needs the wyoming and zeroconf clients in target/wyoming-venv and a user network namespace; scripts/test.sh runs it"]
async fn home_assistant_discovers_the_wyoming_server_by_zeroconf() {
    let data = tempfile::tempdir().unwrap();
    let mut run = crate::common::in_namespace(SCRIPT);
    run.current_dir(data.path())
        .env("GATEWAY", BIN)
        .env("DATA", data.path())
        .env("PYTHON", format!("{ROOT}/target/wyoming-venv/bin/python"))
        .env("DISCOVER", format!("{ROOT}/tests/wyoming/discover.py"))
        .env("ENGINES", "off")
        .env("LISTEN_ADDR", "127.0.0.1:8080")
        .env("WYOMING_ADDR", "0.0.0.0:10300")
        .env("WYOMING_ZEROCONF_NAME", "Kitchen");
    let seen: Value = crate::common::client_report(&mut run, "target/wyoming-venv").await;

    let log = std::fs::read_to_string(data.path().join("gateway.log")).unwrap_or_default();
    let service = &seen["services"]["Kitchen._wyoming._tcp.local."];
    assert_eq!(service["port"], 10300, "{seen}\n{log}");
    let addresses: Vec<&str> = service["addresses"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        !addresses.is_empty() && addresses.iter().all(|a| a.starts_with("10.77.0.")),
        "the addresses of the network, never loopback: {addresses:?}"
    );
    // What Home Assistant does next: connect to the announced address and ask.
    assert_eq!(
        seen["described"],
        serde_json::json!(["voice-gateway", "voice-gateway", "voice-gateway"]),
        "{seen}"
    );
}
