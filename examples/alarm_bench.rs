//! Benchmark of the help button: the time from a press to the hand-off of the alarm to the SMTP server (the
//! end of the mail's DATA) and to the Twilio API (the SMS and the call request arriving), with every AI
//! provider (LLM, STT, TTS) unreachable, over `--presses` presses by different users:
//! (a) one after the other, (b) all at the same moment; and from the press to its answer, the moment the
//! person is told. `--ringing S` holds every call request S seconds, as a contact's telephone that rings on
//! (the house line's call is delivered only when picked up).
//!
//! The SMTP server and the Twilio API are small servers on loopback speaking the real protocols; each user has
//! an own e-mail contact and phone number, so every arrival is matched to its press.
//!
//! Run: `cargo run --release --example alarm_bench -- [--presses 200] [--ringing 10]`

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::routing::post;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use voice_gateway::config::Settings;
use voice_gateway::store::Store;
use voice_gateway::{App, serve};

const ADMIN_KEY: &str = "bench-admin-key-0123456789";

/// When each recipient's mail, SMS and call reached its service.
#[derive(Default)]
struct Arrivals {
    mail: HashMap<String, Instant>,
    sms: HashMap<String, Instant>,
    call: HashMap<String, Instant>,
    /// When the press's answer came back.
    told: HashMap<String, Instant>,
}

type Shared = Arc<Mutex<Arrivals>>;

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str, default: u64| {
        args.windows(2)
            .find(|w| w[0] == name)
            .and_then(|w| w[1].parse().ok())
            .unwrap_or(default)
    };
    let presses = flag("--presses", 200) as usize;
    let ringing = Duration::from_secs(flag("--ringing", 0));
    let arrivals = Shared::default();
    let smtp_port = start_smtp(arrivals.clone()).await;
    let twilio = start_twilio(arrivals.clone(), ringing).await;
    let (base, _dir) = start_gateway(smtp_port, &twilio).await;
    let http = reqwest::Client::new();
    let sequential = users(&http, &base, "seq", presses).await;
    let burst = users(&http, &base, "burst", presses).await;

    let mut one_by_one = Vec::new();
    for user in &sequential {
        one_by_one.push(press(&http, &base, user).await);
    }
    let all_at_once = futures_util::future::join_all(burst.iter().map(|u| press(&http, &base, u))).await;

    println!("| presses | to | median ms | p99 ms | max ms |");
    println!("|---|---|---|---|---|");
    for (label, run) in [("one by one", &one_by_one), ("all at once", &all_at_once)] {
        let mut arrivals = arrivals.lock().unwrap();
        arrivals.told = run.iter().map(|(contact, _, told)| (contact.clone(), *told)).collect();
        for (to, table) in [
            ("SMTP (mail accepted)", &arrivals.mail),
            ("Twilio SMS", &arrivals.sms),
            ("Twilio call", &arrivals.call),
            ("the person told (the answer)", &arrivals.told),
        ] {
            let mut ms: Vec<f64> = run
                .iter()
                .filter_map(|(contact, at, _)| Some(table.get(contact)?.duration_since(*at).as_secs_f64() * 1000.0))
                .collect();
            let missing = run.len() - ms.len();
            ms.sort_by(f64::total_cmp);
            println!(
                "| {presses} {label} | {to}{} | {:.1} | {:.1} | {:.1} |",
                if missing > 0 {
                    format!(" ({missing} missing)")
                } else {
                    String::new()
                },
                percentile(&ms, 0.5),
                percentile(&ms, 0.99),
                ms.last().copied().unwrap_or(0.0)
            );
        }
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// A user with an own contact: (token, contact name used as mail local part and phone digits).
struct User {
    token: String,
    contact: String,
}

async fn users(http: &reqwest::Client, base: &str, prefix: &str, n: usize) -> Vec<User> {
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let create = http
            .post(format!("{base}/api/admin/users"))
            .header("X-Admin-Key", ADMIN_KEY);
        let created = json_of(create.json(&json!({"name": format!("{prefix}{i}")}))).await;
        let contact = format!("{}{i:04}", if prefix == "seq" { "4917010" } else { "4917020" });
        let prefs = json!({
            "full_name": format!("Person {prefix} {i}"), "street": "Hauptstraße 5", "city": "Hamburg",
            "emergency_contacts": [format!("{contact}@family.example")],
            "emergency_contact_phones": [format!("+{contact}")], "language": "de",
        });
        let id = created["id"].as_str().unwrap();
        let r = http
            .put(format!("{base}/api/admin/users/{id}/prefs"))
            .header("X-Admin-Key", ADMIN_KEY)
            .json(&prefs)
            .send()
            .await
            .unwrap();
        assert!(r.status().is_success());
        out.push(User {
            token: created["token"].as_str().unwrap().to_string(),
            contact,
        });
    }
    out
}

async fn json_of(req: reqwest::RequestBuilder) -> Value {
    req.send().await.unwrap().json().await.unwrap()
}

/// One press; returns the contact, when the press was sent and when its answer came.
async fn press(http: &reqwest::Client, base: &str, user: &User) -> (String, Instant, Instant) {
    let started = Instant::now();
    let body = json!({"device": {"mobile": true, "platform": "bench"}});
    let answer = json_of(
        http.post(format!("{base}/api/emergency"))
            .bearer_auth(&user.token)
            .json(&body),
    )
    .await;
    assert_eq!(answer["status"], "alerted", "{answer}");
    (user.contact.clone(), started, Instant::now())
}

/// An SMTP server that accepts everything and notes when each mail's DATA ended, by its recipient.
async fn start_smtp(arrivals: Shared) -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let arrivals = arrivals.clone();
            tokio::spawn(async move {
                let (read, mut write) = socket.into_split();
                let mut lines = BufReader::new(read).lines();
                let _ = write.write_all(b"220 bench ESMTP\r\n").await;
                let mut recipient = String::new();
                let mut in_data = false;
                while let Ok(Some(line)) = lines.next_line().await {
                    let upper = line.to_ascii_uppercase();
                    let reply: &[u8] = if in_data {
                        if line != "." {
                            continue;
                        }
                        in_data = false;
                        arrivals.lock().unwrap().mail.insert(recipient.clone(), Instant::now());
                        b"250 queued\r\n"
                    } else if upper.starts_with("EHLO") {
                        b"250-bench\r\n250 8BITMIME\r\n"
                    } else if upper.starts_with("RCPT TO:") {
                        recipient = line[line.find('<').map_or(0, |i| i + 1)..]
                            .split('@')
                            .next()
                            .unwrap_or("")
                            .to_string();
                        b"250 OK\r\n"
                    } else if upper == "DATA" {
                        in_data = true;
                        b"354 go on\r\n"
                    } else if upper.starts_with("QUIT") {
                        let _ = write.write_all(b"221 bye\r\n").await;
                        return;
                    } else {
                        b"250 OK\r\n"
                    };
                    if write.write_all(reply).await.is_err() {
                        return;
                    }
                }
            });
        }
    });
    port
}

/// Twilio's `Messages.json` and `Calls.json`, noting when each request arrived, by its `To` digits; a call is
/// answered after `ringing`.
async fn start_twilio(arrivals: Shared, ringing: Duration) -> String {
    async fn handle(
        State((arrivals, ringing)): State<(Shared, Duration)>,
        Path((_, resource)): Path<(String, String)>,
        body: Bytes,
    ) -> String {
        let now = Instant::now();
        let form: HashMap<String, String> = serde_urlencoded::from_bytes(&body).unwrap_or_default();
        let to = form
            .get("To")
            .map(|t| t.trim_start_matches('+').to_string())
            .unwrap_or_default();
        let call = resource != "Messages.json";
        {
            let mut arrivals = arrivals.lock().unwrap();
            match call {
                false => arrivals.sms.insert(to, now),
                true => arrivals.call.insert(to, now),
            };
        }
        if call {
            tokio::time::sleep(ringing).await;
        }
        json!({"sid": "SM0", "status": "queued"}).to_string()
    }
    let app = axum::Router::new()
        .route("/2010-04-01/Accounts/{sid}/{resource}", post(handle))
        .with_state((arrivals, ringing));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    base
}

/// The gateway with every AI provider pointed at a closed port.
async fn start_gateway(smtp_port: u16, twilio: &str) -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let dead = "http://127.0.0.1:9/v1".to_string();
    let env: HashMap<&str, String> = HashMap::from([
        ("DB_PATH", dir.path().join("bench.db").display().to_string()),
        ("AUTH_ENABLED", "true".into()),
        ("ADMIN_API_KEY", ADMIN_KEY.into()),
        ("ENGINES", "off".into()),
        ("LOCAL_LLM_URL", dead.clone()),
        ("CLOUD_LLM_URL", dead.clone()),
        ("OPENAI_STT_URL", dead.clone()),
        ("OPENAI_TTS_URL", dead),
        ("SMTP_HOST", "127.0.0.1".into()),
        ("SMTP_PORT", smtp_port.to_string()),
        ("SMTP_SECURITY", "none".into()),
        ("TWILIO_API_URL", twilio.into()),
        ("TWILIO_ACCOUNT_SID", "AC0".into()),
        ("TWILIO_AUTH_TOKEN", "bench".into()),
        ("TWILIO_FROM_NUMBER", "+4930000000".into()),
        ("EMERGENCY_ESCALATION_MINUTES", "0".into()),
    ]);
    let settings = Settings::from_lookup(&|k| env.get(k).cloned()).unwrap();
    let store = Store::open(&settings.store.db_path).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(serve(listener, App::new(settings, store), std::future::pending()));
    tokio::time::sleep(Duration::from_millis(100)).await;
    (base, dir)
}
