//! The gateway opened to the house (`LISTEN_ADDR=0.0.0.0`) as another machine sees it: its binary runs in a
//! network namespace the test makes (a user namespace with a veth pair of its own, so no packet reaches the
//! machine's network), and requests come from the namespace's second address, as from a phone on the network,
//! and from its loopback, as from the gateway's own machine.
//!
//! Ignored by a plain `cargo test`: it needs `unshare` and `ip` (`scripts/test.sh` installs them).

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_voice-gateway");

/// Inside the namespace (its network made by `in_namespace`): two gateways (one with
/// `ANONYMOUS_FROM_NETWORK`), then the requests, whose answers are the output.
const SCRIPT: &str = r#"
mkdir -p "$DATA/closed" "$DATA/open"
DB_PATH="$DATA/closed/gateway.db" LISTEN_ADDR=0.0.0.0:8080 "$GATEWAY" >"$DATA/closed.log" 2>&1 &
closed=$!
DB_PATH="$DATA/open/gateway.db" LISTEN_ADDR=0.0.0.0:8081 ANONYMOUS_FROM_NETWORK=true "$GATEWAY" >"$DATA/open.log" 2>&1 &
open=$!
for port in 8080 8081; do
  for _ in $(seq 100); do
    (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break
    sleep 0.1
  done
done
python3 - <<'PY'
import http.client, json, os
link = open(os.path.join(os.environ["DATA"], "closed", "admin-link.txt")).read().strip()
token = link.split("k=")[1]

def ask(port, source, path):
    target = "127.0.0.1" if source == "127.0.0.1" else "10.77.0.1"
    conn = http.client.HTTPConnection(target, port, timeout=10, source_address=(source, 0))
    conn.request("GET", path, headers={"Host": f"{target}:{port}"})
    r = conn.getresponse()
    return {"status": r.status, "body": r.read().decode(errors="replace"), "cookie": r.getheader("set-cookie")}

print(json.dumps({
    "closed": {"here": ask(8080, "127.0.0.1", "/api/me"), "phone": ask(8080, "10.77.0.2", "/api/me")},
    "open": {"here": ask(8081, "127.0.0.1", "/api/me"), "phone": ask(8081, "10.77.0.2", "/api/me")},
    "link": {"here": ask(8080, "127.0.0.1", "/?k=" + token), "phone": ask(8080, "10.77.0.2", "/?k=" + token)},
}))
PY
kill -TERM $closed $open
wait $closed $open || true
"#;

#[tokio::test]
#[ignore = "needs a user network namespace (unshare, ip); scripts/test.sh runs it"]
async fn beyond_loopback_nobody_is_anonymous_and_a_link_over_http_says_why_it_cannot_sign_in() {
    let data = tempfile::tempdir().unwrap();
    let out = crate::common::in_namespace(SCRIPT)
        .current_dir(data.path())
        .env("GATEWAY", BIN)
        .env("DATA", data.path())
        .env("ENGINES", "off")
        .env("WYOMING_ZEROCONF", "false")
        .output()
        .await
        .expect("unshare runs (scripts/test.sh installs util-linux)");
    let log = |name: &str| std::fs::read_to_string(data.path().join(name)).unwrap_or_default();
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stderr),
        log("closed.log")
    );
    let seen: Value = serde_json::from_slice(&out.stdout).unwrap();

    // local-dev without sign-in: this machine is the anonymous user, a phone on the network is nobody.
    assert_eq!(seen["closed"]["here"]["status"], 200, "{seen}");
    assert_eq!(seen["closed"]["phone"]["status"], 401, "{seen}");
    // Unless the operator says so.
    assert_eq!(seen["open"]["here"]["status"], 200, "{seen}");
    assert_eq!(seen["open"]["phone"]["status"], 200, "{seen}");
    // And the start message says which it is.
    assert!(
        log("closed.log").contains("without sign-in: this machine only"),
        "{}",
        log("closed.log")
    );
    assert!(
        log("open.log").contains("ANONYMOUS_FROM_NETWORK=true"),
        "{}",
        log("open.log")
    );

    // The personal link signs in on this machine; over plain HTTP from a phone the browser would drop the
    // cookie, so the page says why instead of failing silently.
    assert_eq!(seen["link"]["here"]["status"], 303, "{seen}");
    assert!(
        seen["link"]["here"]["cookie"]
            .as_str()
            .unwrap()
            .starts_with("va_token=")
    );
    let phone = &seen["link"]["phone"];
    assert_eq!(phone["status"], 403, "{seen}");
    assert!(phone["cookie"].is_null(), "no cookie that the browser would drop");
    let body = phone["body"].as_str().unwrap();
    assert!(body.contains("secure (https)") && body.contains("TLS=auto"), "{body}");
}
