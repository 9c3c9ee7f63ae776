//! The store under load, on SQLite and on PostgreSQL (run by hand, not in CI):
//! (a) text-only `POST /api/chat` turns per second against a fake OpenAI-compatible model on loopback, with one
//!     gateway on SQLite, one on PostgreSQL, and two on one PostgreSQL (the client alternating between them,
//!     and behind nginx configured by `docs/deploy.md` when nginx is installed);
//! (b) the cost of the quota step (one conditional upsert) per request on each store.
//!
//! Run: `eval "$(scripts/postgres.sh start)"; cargo run --release --example store_bench -- [--seconds 10]
//! [--concurrency 32] [--quota 2000]; scripts/postgres.sh stop "$PG_TEST_DIR"` (the PostgreSQL runs need
//! `TEST_DATABASE_URL`; without it only SQLite is measured).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::response::Response;
use axum::routing::post;
use serde_json::json;
use sqlx::Connection;
use voice_gateway::config::Settings;
use voice_gateway::store::Store;
use voice_gateway::store::usage::Counter;
use voice_gateway::{App, serve};

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    args.windows(2)
        .find(|w| w[0] == name)
        .and_then(|w| w[1].parse().ok())
        .unwrap_or(default)
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seconds = arg(&args, "--seconds", 10);
    let concurrency = arg(&args, "--concurrency", 32) as usize;
    let quota_steps = arg(&args, "--quota", 2000);
    let llm = fake_llm().await;
    let server = std::env::var("TEST_DATABASE_URL").ok();

    println!("| store | instances | turns/s | errors |\n|---|---|---|---|");
    let dir = tempfile::tempdir().unwrap();
    let sqlite = start(&llm, &[("DB_PATH", &dir.path().join("bench.db").display().to_string())]).await;
    let (rate, errors) = turns(&[sqlite.0], seconds, concurrency).await;
    println!("| SQLite | 1 | {rate:.0} | {errors} |");
    let mut quota = vec![("SQLite", per_step(&sqlite.1, quota_steps).await)];
    if let Some(server) = &server {
        let url = fresh_database(server).await;
        let one = start(&llm, &[("DATABASE_URL", &url)]).await;
        let (rate, errors) = turns(&[one.0], seconds, concurrency).await;
        println!("| PostgreSQL | 1 | {rate:.0} | {errors} |");
        let two = start(&llm, &[("DATABASE_URL", &url), ("INSTANCE_ID", "b")]).await;
        let (rate, errors) = turns(&[one.0, two.0], seconds, concurrency).await;
        println!("| PostgreSQL | 2, the client alternating | {rate:.0} | {errors} |");
        if let Some((proxy, _nginx, _dir)) = nginx(one.0.port(), two.0.port()).await {
            let (rate, errors) = turns(&[proxy], seconds, concurrency).await;
            println!("| PostgreSQL | 2, behind nginx (docs/deploy.md) | {rate:.0} | {errors} |");
        }
        quota.push(("PostgreSQL", per_step(&one.1, quota_steps).await));
    }
    println!("\n| store | quota step, µs per request (median of {quota_steps}) |\n|---|---|");
    for (store, micros) in quota {
        println!("| {store} | {micros:.0} |");
    }
}

/// A fake model that answers every request with one short streamed sentence.
async fn fake_llm() -> String {
    async fn answer() -> Response {
        let chunk = json!({"choices": [{"index": 0, "delta": {"content": "Fine, thanks."}}]});
        let end = json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]});
        let body = format!("data: {chunk}\n\ndata: {end}\n\ndata: [DONE]\n\n");
        Response::builder()
            .header("content-type", "text/event-stream")
            .body(Body::from(Bytes::from(body)))
            .unwrap()
    }
    let app = axum::Router::new().route("/v1/chat/completions", post(answer));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/v1", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    base
}

/// A gateway on the given store, without login, quota or background work.
async fn start(llm: &str, store: &[(&str, &str)]) -> (SocketAddr, Store) {
    let mut env: HashMap<String, String> = [
        ("AUTH_ENABLED", "false"),
        ("DAILY_REQUEST_LIMIT", "0"),
        ("MEMORY_EXTRACTION_ENABLED", "false"),
        ("WEB_SEARCH_ENABLED", "false"),
        ("LOCAL_LLM_URL", llm),
        ("DEFAULT_LLM_PROVIDER", "local"),
        ("ENGINES", "off"),
        ("RUST_LOG", "warn"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    env.extend(store.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let settings = Settings::from_lookup(&|k| env.get(k).cloned()).unwrap();
    let store = Store::from_settings(&settings).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = App::new(settings, store.clone());
    tokio::spawn(serve(listener, app, std::future::pending()));
    (addr, store)
}

/// Text-only turns from `concurrency` clients for `seconds`, alternating between the gateways.
async fn turns(gateways: &[SocketAddr], seconds: u64, concurrency: usize) -> (f64, u64) {
    let done = Arc::new(AtomicU64::new(0));
    let failed = Arc::new(AtomicU64::new(0));
    let until = Instant::now() + Duration::from_secs(seconds);
    let client = reqwest::Client::new();
    let mut tasks = Vec::new();
    for n in 0..concurrency {
        let url = format!("http://{}/api/chat", gateways[n % gateways.len()]);
        let (client, done, failed) = (client.clone(), done.clone(), failed.clone());
        tasks.push(tokio::spawn(async move {
            while Instant::now() < until {
                let turn = json!({"text": "How are you?", "text_only": true});
                match client.post(&url).json(&turn).send().await {
                    Ok(r) if r.status() == 200 => done.fetch_add(1, Ordering::Relaxed),
                    _ => failed.fetch_add(1, Ordering::Relaxed),
                };
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    (
        done.load(Ordering::Relaxed) as f64 / seconds as f64,
        failed.load(Ordering::Relaxed),
    )
}

/// The median time of one quota step (the atomic count of a request) on `store`, in microseconds.
async fn per_step(store: &Store, steps: u64) -> f64 {
    let user = store.ensure_anonymous().await.unwrap();
    let mut times = Vec::with_capacity(steps as usize);
    for _ in 0..steps {
        let started = Instant::now();
        store.count_within(Counter::Requests, &user.id, 0).await.unwrap();
        times.push(started.elapsed().as_secs_f64() * 1e6);
    }
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// nginx with the configuration of `docs/deploy.md` in front of the two instances, when nginx is installed.
async fn nginx(a: u16, b: u16) -> Option<(SocketAddr, KillOnDrop, tempfile::TempDir)> {
    let bin = ["/usr/sbin/nginx", "/usr/bin/nginx"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())?;
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/deploy.md")).ok()?;
    let block = doc.split("```nginx\n").nth(1)?.split("```").next()?;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .ok()?
        .local_addr()
        .ok()?
        .port();
    let site = block
        .replace("127.0.0.1:8081", &format!("127.0.0.1:{a}"))
        .replace("127.0.0.1:8082", &format!("127.0.0.1:{b}"))
        .replace("listen 127.0.0.1:8080;", &format!("listen 127.0.0.1:{port};"));
    let dir = tempfile::tempdir().ok()?;
    let d = dir.path().display();
    let conf = format!(
        "daemon off; pid {d}/nginx.pid; error_log {d}/error.log;\nevents {{ worker_connections 4096; }}\n\
         http {{ access_log off; client_body_temp_path {d}/body; proxy_temp_path {d}/proxy;\n{site}\n}}\n"
    );
    std::fs::write(dir.path().join("nginx.conf"), conf).ok()?;
    let child = std::process::Command::new(bin)
        .args(["-p", &d.to_string(), "-c", &format!("{d}/nginx.conf")])
        .spawn()
        .ok()?;
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().ok()?;
    for _ in 0..100 {
        if reqwest::get(format!("http://{addr}/health"))
            .await
            .is_ok_and(|r| r.status() == 200)
        {
            return Some((addr, KillOnDrop(child), dir));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    None
}

/// A child process stopped when dropped.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        // SIGTERM, so that nginx's master takes its workers with it.
        let _ = std::process::Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status();
        let _ = self.0.wait();
    }
}

/// A new database on the PostgreSQL server of `server`.
async fn fresh_database(server: &str) -> String {
    let name = format!("bench{}", uuid::Uuid::now_v7().simple());
    let mut admin = sqlx::PgConnection::connect(server).await.unwrap();
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .unwrap();
    let mut url = reqwest::Url::parse(server).unwrap();
    url.set_path(&name);
    url.to_string()
}
