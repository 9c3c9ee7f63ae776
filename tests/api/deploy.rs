//! Two gateway binaries on one PostgreSQL behind nginx, configured by `docs/deploy.md` itself: quotas and the
//! help button are exact across the instances, an admin's change through one reaches the other, a voice turn
//! passes the proxy's WebSocket upgrade, and killing one instance mid-load loses no acknowledged write.
//!
//! Ignored by a plain `cargo test` (it needs PostgreSQL and nginx); `scripts/test.sh` runs it in its
//! PostgreSQL run.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use reqwest::Method;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use crate::common::{ADMIN_KEY, eventually, free_port, fresh_database};
use crate::fakes::{Fake, Reply};
use crate::smtp::{Mode, SmtpServer};

const BIN: &str = env!("CARGO_BIN_EXE_voice-gateway");

/// A child process stopped when the test ends: asked to (SIGTERM), so that nginx's master takes its workers
/// with it.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-TERM", &self.0.id().to_string()]).status();
        let _ = self.0.wait();
    }
}

/// One instance of the gateway on the shared database.
fn instance(name: &str, port: u16, env: &[(&str, String)], dir: &std::path::Path) -> Running {
    let mut command = Command::new(BIN);
    command
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("INSTANCE_ID", name)
        .env("LISTEN_ADDR", format!("127.0.0.1:{port}"))
        .env("DB_PATH", dir.join(format!("{name}.db")))
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    for (k, v) in env {
        command.env(k, v);
    }
    Running(command.spawn().expect("the gateway binary"))
}

/// The nginx configuration of `docs/deploy.md`, pointed at this test's ports.
fn nginx_config(listen: u16, a: u16, b: u16, dir: &std::path::Path) -> String {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/deploy.md")).unwrap();
    let block = doc
        .split("```nginx\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("docs/deploy.md holds an nginx block");
    let site = block
        .replace("127.0.0.1:8081", &format!("127.0.0.1:{a}"))
        .replace("127.0.0.1:8082", &format!("127.0.0.1:{b}"))
        .replace("listen 127.0.0.1:8080;", &format!("listen 127.0.0.1:{listen};"));
    assert!(site.contains(&format!("127.0.0.1:{a}")) && site.contains(&format!("{listen};")));
    let d = dir.display();
    format!(
        "daemon off; pid {d}/nginx.pid; error_log {d}/error.log;\nevents {{ worker_connections 4096; }}\nhttp {{\n    access_log off;\n    \
         client_body_temp_path {d}/body; proxy_temp_path {d}/proxy;\n{site}\n}}\n"
    )
}

async fn call(client: &reqwest::Client, url: String, method: Method, who: &str, body: Option<Value>) -> (u16, Value) {
    let mut request = client.request(method, url);
    request = if who == "admin" {
        request.header("X-Admin-Key", ADMIN_KEY)
    } else {
        request.bearer_auth(who)
    };
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Through the proxy, the name of the deploy guide's `ALLOWED_HOSTS` is served and a foreign one (a
/// DNS-rebinding page's) is refused.
async fn only_its_names_pass(port_proxy: u16) {
    let named = reqwest::Client::builder()
        .resolve("voice.example.org", ([127, 0, 0, 1], port_proxy).into())
        .build()
        .unwrap();
    let config = format!("http://voice.example.org:{port_proxy}/api/config");
    assert_eq!(named.get(&config).send().await.unwrap().status(), 200);
    let foreign = named
        .get(&config)
        .header("Host", "attacker.example")
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status(), 421);
}

/// The fakes the instances call, and the settings both share (the deploy guide's table).
struct Backends {
    llm: Fake,
    stt: Fake,
    smtp: SmtpServer,
}

impl Backends {
    async fn start() -> Self {
        let llm = Fake::answering(&["Fine, thanks."]).await;
        let stt = Fake::start().await;
        stt.always(
            "/v1/audio/transcriptions",
            Reply::Json(json!({"text": "Wie spät ist es?"})),
        );
        let smtp = SmtpServer::start(Mode::Accept).await;
        Self { llm, stt, smtp }
    }

    fn env(&self, database: String) -> Vec<(&'static str, String)> {
        vec![
            ("DATABASE_URL", database),
            ("ADMIN_API_KEY", ADMIN_KEY.into()),
            ("AUTH_ENABLED", "true".into()),
            ("ENGINES", "off".into()),
            ("LOCAL_LLM_URL", self.llm.v1()),
            ("DEFAULT_LLM_PROVIDER", "local".into()),
            ("OPENAI_STT_URL", self.stt.v1()),
            ("DEFAULT_STT_PROVIDER", "openai".into()),
            ("DEFAULT_TTS_PROVIDER", "espeak".into()),
            ("SMTP_HOST", "127.0.0.1".into()),
            ("SMTP_PORT", self.smtp.port.to_string()),
            ("SMTP_SECURITY", "none".into()),
            ("TRUSTED_PROXY_IPS", "127.0.0.1".into()),
            ("ALLOWED_HOSTS", "voice.example.org".into()),
            ("OVERRIDES_REFRESH_SECONDS", "5".into()),
            ("MEMORY_EXTRACTION_ENABLED", "false".into()),
            ("WEB_SEARCH_ENABLED", "false".into()),
            ("RUST_LOG", "warn".into()),
        ]
    }
}

/// nginx with the deploy guide's configuration in front of the instances on `a` and `b`, answering on
/// `listen`.
async fn proxy_in_front(client: &reqwest::Client, (listen, a, b): (u16, u16, u16), dir: &std::path::Path) -> Running {
    std::fs::write(dir.join("nginx.conf"), nginx_config(listen, a, b, dir)).unwrap();
    let nginx = Running(
        // Debian puts it in /usr/sbin, which a user's PATH may lack.
        Command::new(
            ["/usr/sbin/nginx", "nginx"]
                .into_iter()
                .find(|p| std::path::Path::new(p).exists())
                .unwrap_or("nginx"),
        )
        .args(["-p", &dir.display().to_string(), "-c"])
        .arg(dir.join("nginx.conf"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nginx"),
    );
    let health = format!("http://127.0.0.1:{listen}/health");
    eventually("nginx to answer", 20, || async {
        client.get(&health).send().await.is_ok_and(|r| r.status() == 200)
    })
    .await;
    nginx
}

/// A person with a daily limit of 151 (a voice turn, then 150 typed ones) and one emergency contact, made
/// through the proxy: her token.
async fn anna(client: &reqwest::Client, proxy: &impl Fn(&str) -> String) -> String {
    let body = Some(json!({"name": "anna"}));
    let (status, user) = call(client, proxy("/api/admin/users"), Method::POST, "admin", body).await;
    assert_eq!(status, 201, "{user}");
    let id = user["id"].as_str().unwrap();
    let prefs = json!({"daily_request_limit": 151, "emergency_contacts": ["tochter@family.example"]});
    let path = proxy(&format!("/api/admin/users/{id}/prefs"));
    assert_eq!(call(client, path, Method::PUT, "admin", Some(prefs)).await.0, 200);
    user["token"].as_str().unwrap().to_string()
}

/// A voice turn through the proxy's WebSocket upgrade.
async fn voice_turn(port_proxy: u16, token: &str) {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{port_proxy}/ws/voice?token={token}"))
        .await
        .expect("the upgrade passes the proxy");
    let start = json!({"type": "start", "language": "de", "text_only": true});
    ws.send(Message::Text(start.to_string().into())).await.unwrap();
    let tone: Vec<u8> = (0..8000)
        .flat_map(|i| (((f64::from(i) / 16.0).sin() * 8000.0) as i16).to_le_bytes())
        .collect();
    ws.send(Message::Binary(tone.into())).await.unwrap();
    ws.send(Message::Text(json!({"type": "end"}).to_string().into()))
        .await
        .unwrap();
    let mut kinds = Vec::new();
    while let Ok(Some(Ok(frame))) = tokio::time::timeout(Duration::from_secs(10), ws.next()).await {
        if let Message::Text(text) = frame {
            let event: Value = serde_json::from_str(&text).unwrap();
            kinds.push(event["type"].as_str().unwrap().to_string());
            if event["type"] == "done" {
                break;
            }
        }
    }
    assert_eq!(kinds, ["transcript", "ack", "semantic", "done"]);
}

/// `n` concurrent requests of `make`, their statuses (0: no answer).
async fn together(n: usize, make: impl Fn(usize) -> reqwest::RequestBuilder) -> Vec<u16> {
    let sent: Vec<_> = (0..n)
        .map(|i| {
            let request = make(i);
            tokio::spawn(async move { request.send().await.map(|r| r.status().as_u16()).unwrap_or(0) })
        })
        .collect();
    let mut statuses = Vec::new();
    for one in sent {
        statuses.push(one.await.unwrap());
    }
    statuses
}

/// 400 concurrent turns spread over both instances: exactly the 150 left of the limit are served; 20
/// concurrent presses of the help button: one alarm, one mail to the contact.
async fn exact_across_instances(
    client: &reqwest::Client,
    proxy: &impl Fn(&str) -> String,
    token: &str,
    smtp: &SmtpServer,
) {
    let statuses = together(400, |n| {
        let body = json!({"text": format!("question {n}"), "text_only": true});
        client.post(proxy("/api/chat")).bearer_auth(token).json(&body)
    })
    .await;
    let count = |code: u16| statuses.iter().filter(|s| **s == code).count();
    assert_eq!((count(200), count(429)), (150, 250), "{statuses:?}");
    let presses = together(20, |_| client.post(proxy("/api/emergency")).bearer_auth(token)).await;
    assert!(presses.iter().all(|s| *s == 200), "{presses:?}");
    // A press answers after its alarm's channels were tried, so once all 20 have answered every mail is in.
    assert_eq!(smtp.mails().len(), 1, "one alarm for 20 presses on two instances");
}

/// An override set through instance a is in effect on instance b within OVERRIDES_REFRESH_SECONDS.
async fn override_reaches_the_other(client: &reqwest::Client, port_a: u16, port_b: u16) {
    let set = json!({"value": "1.1"});
    let a_url = format!("http://127.0.0.1:{port_a}/api/admin/config/llm_temperature");
    assert_eq!(call(client, a_url, Method::PUT, "admin", Some(set)).await.0, 200);
    let b_config = format!("http://127.0.0.1:{port_b}/api/config");
    eventually("instance b taking up the override", 30, || async {
        call(client, b_config.clone(), Method::GET, "admin", None).await.1["llm_temperature"] == json!(1.1)
    })
    .await;
}

/// Writes while instance a is killed: every acknowledged one is kept, and the proxy reaches instance b.
async fn writes_outlive_an_instance(
    client: &reqwest::Client,
    proxy: &impl Fn(&str) -> String,
    token: &str,
    a: &mut Running,
) {
    let mut writes = Vec::new();
    for n in 0..120 {
        let request = client
            .post(proxy("/api/me/memories"))
            .bearer_auth(token)
            .json(&json!({"text": format!("fact {n}")}));
        writes.push(tokio::spawn(async move {
            request.send().await.map(|r| r.status().as_u16()).unwrap_or(0)
        }));
        if n == 40 {
            a.0.kill().unwrap();
        }
        // Pacing, not waiting: the writes are spread over about half a second so that the kill lands among them.
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let mut acknowledged = 0;
    let mut after_the_kill = Vec::new();
    for (n, write) in writes.into_iter().enumerate() {
        let status = write.await.unwrap();
        acknowledged += usize::from(status == 201);
        if n > 60 {
            after_the_kill.push(status);
        }
    }
    assert!(
        after_the_kill.iter().all(|s| *s == 201),
        "the proxy passes to instance b: {after_the_kill:?}"
    );
    let (_, stored) = call(client, proxy("/api/me/memories"), Method::GET, token, None).await;
    let stored = stored.as_array().unwrap().len();
    assert!(stored >= acknowledged, "{acknowledged} acknowledged, {stored} kept");
    assert!(acknowledged >= 100, "{acknowledged} of 120 acknowledged");
}

#[tokio::test]
#[ignore = "needs PostgreSQL (TEST_DATABASE_URL) and nginx; scripts/test.sh runs it"]
async fn two_instances_behind_nginx_share_one_postgresql() {
    let database = fresh_database()
        .await
        .expect("TEST_DATABASE_URL names a PostgreSQL server");
    let backends = Backends::start().await;
    let env = backends.env(database);
    let dir = tempfile::tempdir().unwrap();
    let (port_a, port_b, port_proxy) = (free_port(), free_port(), free_port());
    let mut a = instance("a", port_a, &env, dir.path());
    let _b = instance("b", port_b, &env, dir.path());
    let client = reqwest::Client::new();
    for port in [port_a, port_b] {
        let health = format!("http://127.0.0.1:{port}/health");
        eventually("an instance to start", 60, || async {
            client.get(&health).send().await.is_ok_and(|r| r.status() == 200)
        })
        .await;
    }
    let _nginx = proxy_in_front(&client, (port_proxy, port_a, port_b), dir.path()).await;
    let proxy = |path: &str| format!("http://127.0.0.1:{port_proxy}{path}");
    only_its_names_pass(port_proxy).await;
    let token = anna(&client, &proxy).await;
    voice_turn(port_proxy, &token).await;
    exact_across_instances(&client, &proxy, &token, &backends.smtp).await;
    override_reaches_the_other(&client, port_a, port_b).await;
    writes_outlive_an_instance(&client, &proxy, &token, &mut a).await;
}
