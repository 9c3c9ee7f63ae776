//! spawn_app(): a real gateway on port 0 with a fresh SQLite file, and a typed HTTP client for it.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

use reqwest::{Method, RequestBuilder, StatusCode};
use serde_json::Value;
use tokio::sync::oneshot;
use voice_gateway::config::Settings;
use voice_gateway::store::Store;
use voice_gateway::{App, serve_with_https};

use crate::fakes::Fake;

/// The admin key every test app is started with.
pub const ADMIN_KEY: &str = "test-admin-key-0123456789";

/// A running gateway.
pub struct TestApp {
    pub addr: SocketAddr,
    /// The HTTPS address, when the settings turn `TLS` on.
    pub https: Option<SocketAddr>,
    pub client: reqwest::Client,
    pub store: Store,
    /// The serving gateway itself, for what a test drives with the clock passed in (the care scheduler).
    pub app: Arc<App>,
    /// The PostgreSQL database of this gateway, when the suite runs on PostgreSQL.
    pub database_url: Option<String>,
    _dir: tempfile::TempDir,
    _stop: oneshot::Sender<()>,
}

/// With `TEST_DATABASE_URL` (a PostgreSQL server, set by `scripts/test.sh` for the suite's run on PostgreSQL),
/// a fresh database there for one gateway; else `None`, and the gateway has a fresh SQLite file.
pub async fn fresh_database() -> Option<String> {
    use sqlx::Connection;
    let server = std::env::var("TEST_DATABASE_URL").ok().filter(|u| !u.is_empty())?;
    let name = format!("t{}", uuid::Uuid::now_v7().simple());
    let mut admin = sqlx::PgConnection::connect(&server)
        .await
        .expect("the PostgreSQL server of TEST_DATABASE_URL");
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .expect("a test database");
    let mut url = reqwest::Url::parse(&server).expect("TEST_DATABASE_URL is a URL");
    url.set_path(&name);
    Some(url.to_string())
}

/// A stage whose first provider a fake plays (see [`Gateway::first`]).
pub enum Stage {
    /// The language model, as the `cloud` provider.
    Llm,
    /// Speech synthesis, as the `openai` provider.
    Tts,
}

/// A gateway for one test, described in one sentence:
/// `TestApp::with().llm(&llm).env(&[("HISTORY_MAX_MESSAGES", "4")]).user("anna").await`.
#[derive(Default)]
pub struct Gateway {
    env: Vec<(String, String)>,
}

impl Gateway {
    /// The language model is `llm` (the local provider, OpenAI-compatible); answers are spoken by
    /// espeak-ng; memory extraction and web search are off unless set again.
    pub fn llm(self, llm: &Fake) -> Self {
        let url = llm.v1();
        self.env(&[
            ("LOCAL_LLM_URL", &url),
            ("DEFAULT_LLM_PROVIDER", "local"),
            ("DEFAULT_TTS_PROVIDER", "espeak"),
            ("MEMORY_EXTRACTION_ENABLED", "false"),
            ("WEB_SEARCH_ENABLED", "false"),
        ])
    }

    /// Speech is transcribed by `stt` (OpenAI-compatible).
    pub fn stt(self, stt: &Fake) -> Self {
        let url = stt.v1();
        self.env(&[("OPENAI_STT_URL", &url), ("DEFAULT_STT_PROVIDER", "openai")])
    }

    /// `stage`'s provider is the OpenAI-compatible `fake`, asked first: the cloud LLM (key `k`) or the `openai`
    /// voice; `then` is the chain tried after it fails (`LLM_FALLBACK`, `TTS_FALLBACK`), `""` for none.
    /// `TestApp::with().llm(&local).first(Stage::Llm, &cloud, "local")`: the cloud model, else the local one.
    pub fn first(self, stage: Stage, fake: &Fake, then: &str) -> Self {
        let url = fake.v1();
        let this = match stage {
            Stage::Llm => self.env(&[
                ("DEFAULT_LLM_PROVIDER", "cloud"),
                ("CLOUD_LLM_URL", &url),
                ("CLOUD_LLM_API_KEY", "k"),
            ]),
            Stage::Tts => self.env(&[("DEFAULT_TTS_PROVIDER", "openai"), ("OPENAI_TTS_URL", &url)]),
        };
        let chain = match stage {
            Stage::Llm => "LLM_FALLBACK",
            Stage::Tts => "TTS_FALLBACK",
        };
        if then.is_empty() {
            this
        } else {
            this.env(&[(chain, then)])
        }
    }

    /// On the same database as `other`: another instance of the same gateway.
    pub fn beside(self, other: &TestApp) -> Self {
        let db = other.db_path().display().to_string();
        let this = self.env(&[("DB_PATH", &db)]);
        match &other.database_url {
            Some(url) => this.env(&[("DATABASE_URL", url)]),
            None => this,
        }
    }

    /// Settings; a later value of a name wins.
    pub fn env(mut self, pairs: &[(&str, &str)]) -> Self {
        self.env
            .extend(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        self
    }

    /// The running gateway.
    pub async fn start(self) -> TestApp {
        let pairs: Vec<(&str, &str)> = self.env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        spawn_app(&pairs).await
    }

    /// The running gateway with one user: `(app, token, user id)`.
    pub async fn user(self, name: &str) -> (TestApp, String, String) {
        let app = self.start().await;
        let (id, token) = app.create_user(name).await;
        (app, token, id)
    }
}

/// Starts a gateway with AUTH_ENABLED=true, an admin key, and the given extra settings.
pub async fn spawn_app(extra: &[(&str, &str)]) -> TestApp {
    voice_gateway::logging::init_for_tests();
    let dir = tempfile::tempdir().expect("tempdir");
    let db_path = dir.path().join("gateway.db");
    let mut env: HashMap<String, String> = HashMap::from([
        ("AUTH_ENABLED".into(), "true".into()),
        ("ADMIN_API_KEY".into(), ADMIN_KEY.into()),
        ("DB_PATH".into(), db_path.display().to_string()),
        // No announcement on the machine's network: the test that checks it makes a network of its own.
        ("WYOMING_ZEROCONF".into(), "false".into()),
    ]);
    for (k, v) in extra {
        env.insert(k.to_string(), v.to_string());
    }
    if !env.contains_key("DATABASE_URL")
        && let Some(url) = fresh_database().await
    {
        env.insert("DATABASE_URL".into(), url);
    }
    let database_url = env.get("DATABASE_URL").cloned();
    let settings = Settings::from_lookup(&|k| env.get(k).cloned()).expect("settings");
    let store = Store::from_settings(&settings).await.expect("store");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = oneshot::channel::<()>();
    // HTTPS on a port of its own, as `main` binds `HTTPS_ADDR`.
    let tls = voice_gateway::tls::Tls::start(&settings).expect("TLS settings");
    let https = match tls {
        Some(tls) => Some((
            tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind https"),
            tls,
        )),
        None => None,
    };
    let https_addr = https.as_ref().map(|(l, _)| l.local_addr().expect("https addr"));
    let app = App::new(settings, store.clone());
    tokio::spawn(serve_with_https(listener, https, app.clone(), async {
        let _ = stopped.await;
    }));
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    TestApp {
        addr,
        https: https_addr,
        client,
        store,
        app,
        database_url,
        _dir: dir,
        _stop: stop,
    }
}

/// Credentials a request is sent with.
#[derive(Clone, Copy)]
pub enum As<'a> {
    Nobody,
    Bearer(&'a str),
    AdminKey,
}

/// A response: status, JSON body (Null when not JSON) and headers.
pub struct Reply {
    pub status: StatusCode,
    pub body: Value,
    pub headers: reqwest::header::HeaderMap,
}

impl Reply {
    /// Asserts the contract's error body with this status and returns its code.
    pub fn error(&self, status: u16) -> String {
        assert_eq!(self.status.as_u16(), status, "body: {}", self.body);
        let err = &self.body["error"];
        assert_eq!(err["status"], status, "body: {}", self.body);
        assert!(
            err["message"].as_str().is_some_and(|m| !m.is_empty()),
            "body: {}",
            self.body
        );
        err["code"].as_str().expect("error code").to_string()
    }
}

impl TestApp {
    /// The gateway's SQLite file.
    pub fn db_path(&self) -> std::path::PathBuf {
        self._dir.path().join("gateway.db")
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    pub fn request(&self, method: Method, path: &str, who: As) -> RequestBuilder {
        let req = self.client.request(method, self.url(path));
        match who {
            As::Nobody => req,
            As::Bearer(token) => req.bearer_auth(token),
            As::AdminKey => req.header("X-Admin-Key", ADMIN_KEY),
        }
    }

    pub async fn send(&self, req: RequestBuilder) -> Reply {
        let resp = req.send().await.expect("request");
        let status = resp.status();
        let headers = resp.headers().clone();
        let text = resp.text().await.expect("body");
        let body = serde_json::from_str(&text).unwrap_or(Value::Null);
        Reply { status, body, headers }
    }

    pub async fn call(&self, method: Method, path: &str, who: As<'_>, body: Option<Value>) -> Reply {
        let mut req = self.request(method, path, who);
        if let Some(body) = body {
            req = req.json(&body);
        }
        self.send(req).await
    }

    pub async fn get(&self, path: &str, who: As<'_>) -> Reply {
        self.call(Method::GET, path, who, None).await
    }

    /// A new session of the user with `token`; its id.
    pub async fn new_session(&self, token: &str) -> String {
        let r = self.call(Method::POST, "/api/sessions", As::Bearer(token), None).await;
        r.body["id"].as_str().expect("a session id").to_string()
    }

    /// Sets a user's prefs as the admin; fails the test unless they were taken.
    pub async fn set_prefs(&self, id: &str, prefs: Value) {
        let path = format!("/api/admin/users/{id}/prefs");
        let r = self.call(Method::PUT, &path, As::AdminKey, Some(prefs)).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    }

    /// Creates a user through the admin API and returns (id, token).
    pub async fn create_user(&self, name: &str) -> (String, String) {
        let r = self
            .call(
                Method::POST,
                "/api/admin/users",
                As::AdminKey,
                Some(serde_json::json!({"name": name})),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
        (
            r.body["id"].as_str().unwrap().to_string(),
            r.body["token"].as_str().unwrap().to_string(),
        )
    }

    /// Creates a user linked to a single-sign-on identity and returns its token.
    pub async fn create_sso_user(&self, name: &str, external_id: &str) -> String {
        let body = serde_json::json!({"name": name, "external_id": external_id});
        let r = self
            .call(Method::POST, "/api/admin/users", As::AdminKey, Some(body))
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
        r.body["token"].as_str().unwrap().to_string()
    }

    /// The metrics in the Prometheus text format, as a scraper gets them.
    pub async fn prometheus(&self) -> String {
        self.request(Method::GET, "/api/metrics?format=prometheus", As::AdminKey)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    }

    /// The texts of a session's stored messages, oldest first.
    /// The session's texts once `n` are shown: a spoken question that may still be continued is shown only
    /// when its continuation window has passed (up to 7.5 s for a patience of 4 s).
    pub async fn shown_texts(&self, session: &str, token: &str, n: usize) -> Vec<String> {
        eventually("the turn shown", 10, || async {
            let stored = self.stored_texts(session, token).await;
            (stored.len() == n).then_some(stored)
        })
        .await
    }

    pub async fn stored_texts(&self, session: &str, token: &str) -> Vec<String> {
        let stored = self.get(&format!("/api/sessions/{session}"), As::Bearer(token)).await;
        stored.body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap().to_string())
            .collect()
    }

    /// Number of rows of a table that belong to a user.
    pub async fn rows_of(&self, table: &str, user_id: &str) -> i64 {
        let sql = format!("SELECT COUNT(*) FROM {table} WHERE user_id = $1");
        let (n,): (i64,) = voice_gateway::with_pool!(self.store, pool => sqlx::query_as(&sql)
            .bind(user_id)
            .fetch_one(pool)
            .await
            .unwrap());
        n
    }
}

impl TestApp {
    /// Starts describing a gateway.
    pub fn with() -> Gateway {
        Gateway::default()
    }
}

/// What a check given to [`eventually`] answers: `bool` (done or not yet), or `Option<T>` (done with a value,
/// which `eventually` hands back).
pub trait Done {
    /// What a finished wait gives back.
    type Value;
    /// `Some` once the awaited thing happened.
    fn done(self) -> Option<Self::Value>;
}

impl Done for bool {
    type Value = ();
    fn done(self) -> Option<()> {
        self.then_some(())
    }
}

impl<T> Done for Option<T> {
    type Value = T;
    fn done(self) -> Option<T> {
        self
    }
}

/// How often [`eventually`] and [`throughout`] look.
const POLL: std::time::Duration = std::time::Duration::from_millis(50);

/// Waits until `check` is done (the mail arrived, the row is there, the port answers), looking every 50 ms for
/// up to `seconds`, and returns what it found; fails the test naming `what`. Tests wait with this for what they
/// expect instead of sleeping: a fixed sleep is too short on a busy machine and too long everywhere else.
pub async fn eventually<F, Fut, D>(what: &str, seconds: u64, mut check: F) -> D::Value
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = D>,
    D: Done,
{
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    loop {
        if let Some(value) = check().await.done() {
            return value;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{what} did not happen within {seconds} s"
        );
        tokio::time::sleep(POLL).await;
    }
}

/// Waits up to `seconds` for a line of the gateway's live log (subscribed to before the cause) for which
/// `matches` holds; fails the test naming `what`.
pub async fn logged(
    log: &mut tokio::sync::broadcast::Receiver<String>,
    what: &str,
    seconds: u64,
    matches: impl Fn(&str) -> bool,
) {
    let wait = async {
        loop {
            match log.recv().await {
                Ok(line) if matches(&line) => return,
                Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(tokio::sync::broadcast::error::RecvError::Closed) => panic!("the log closed"),
            }
        }
    };
    let seen = tokio::time::timeout(std::time::Duration::from_secs(seconds), wait).await;
    assert!(seen.is_ok(), "{what} was not logged within {seconds} s");
}

/// Asserts that `check` holds for all of `window`, looking every 50 ms: for what must *not* happen (a second
/// reminder, a second extraction). Nothing can be waited for there, so each caller keeps `window` as short as
/// the gateway's own timing allows and says why; it fails as soon as `check` turns false.
pub async fn throughout<F, Fut>(what: &str, window: std::time::Duration, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let end = std::time::Instant::now() + window;
    loop {
        assert!(check().await, "{what}: it did not hold");
        if std::time::Instant::now() >= end {
            return;
        }
        tokio::time::sleep(POLL.min(end.saturating_duration_since(std::time::Instant::now()))).await;
    }
}

/// A port nobody listens on at this moment (for a process the test starts itself).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free loopback port")
        .port()
}

/// Runs a client script of a real client library (the `openai` SDK, the `wyoming` package) and reads the JSON
/// report it prints; `venv` names where `scripts/test.sh` installs its Python.
pub async fn client_report(run: &mut tokio::process::Command, venv: &str) -> serde_json::Value {
    let run = run
        .output()
        .await
        .unwrap_or_else(|e| panic!("python in {venv} (scripts/test.sh installs it): {e}"));
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    serde_json::from_slice(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&run.stdout)))
}

/// Settings that run Silero VAD and Smart Turn from the models `scripts/test.sh` fetches into target/engines.
pub fn turn_taking_env() -> Vec<(&'static str, String)> {
    let engines = concat!(env!("CARGO_MANIFEST_DIR"), "/target/engines");
    vec![
        ("ONNXRUNTIME_LIB", format!("{engines}/onnxruntime/libonnxruntime.so")),
        ("SILERO_VAD_MODEL", format!("{engines}/models/silero_vad.onnx")),
        ("SMART_TURN_MODEL", format!("{engines}/models/smart-turn-v3.2-cpu.onnx")),
        ("VAD_ENGINE", "silero".into()),
        ("TURN_ENGINE", "smart-turn".into()),
    ]
}

/// What a QR code drawn by the gateway's SVG (`M{x} {y}h{n}v1h-{n}z` runs of dark modules) says, read by rqrr
/// from a picture of it at four pixels a module.
pub fn read_qr(svg: &str) -> String {
    let size: usize = svg
        .split("viewBox=\"0 0 ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("a square viewBox");
    let mut dark = vec![false; size * size];
    let path = svg
        .split(" d=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a path");
    for run in path.split('z').filter(|r| !r.is_empty()) {
        let numbers: Vec<usize> = run
            .split(|c: char| !c.is_ascii_digit())
            .filter(|n| !n.is_empty())
            .map(|n| n.parse().unwrap())
            .collect();
        let (x, y, n) = (numbers[0], numbers[1], numbers[2]);
        dark[y * size + x..y * size + x + n].fill(true);
    }
    const SCALE: usize = 4;
    let mut image = rqrr::PreparedImage::prepare_from_greyscale(size * SCALE, size * SCALE, |x, y| {
        if dark[(y / SCALE) * size + x / SCALE] { 0 } else { 255 }
    });
    let grids = image.detect_grids();
    assert_eq!(grids.len(), 1, "one QR code in the drawing");
    grids[0].decode().expect("a readable QR code").1
}

/// The network of a namespace the test makes: loopback and a veth pair, 10.77.0.1 and 10.77.0.2, up.
const NAMESPACE_NETWORK: &str = r#"
set -e
ip link set lo up
ip link add v0 type veth peer name v1
ip addr add 10.77.0.1/24 dev v0
ip addr add 10.77.0.2/24 dev v1
ip link set v0 up
ip link set v1 up
for _ in $(seq 50); do
  ip -br link show v0 | grep -qw UP && break
  sleep 0.1
done
"#;

/// A command that runs the bash `script` in a user and network namespace of its own with that network (so no
/// packet reaches the machine's), with `PATH` alone of this environment.
pub fn in_namespace(script: &str) -> tokio::process::Command {
    let mut run = tokio::process::Command::new("unshare");
    run.args(["--user", "--map-root-user", "--net", "bash", "-c"])
        .arg(format!("{NAMESPACE_NETWORK}{script}"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default());
    run
}

/// This machine's `<host>.local`, which a certificate of `TLS=auto` must cover.
pub fn dot_local() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    format!("{}.local", host.trim().split('.').next().unwrap().to_ascii_lowercase())
}

/// A task that ends with its owner.
pub struct Aborting(pub tokio::task::JoinHandle<()>);

impl Drop for Aborting {
    fn drop(&mut self) {
        self.0.abort();
    }
}
