//! The `voice-gateway` binary: settings → tracing → store → serve.

use std::process::ExitCode;
use std::sync::Arc;

use tracing_subscriber::EnvFilter;
use voice_gateway::config::Settings;
use voice_gateway::store::Store;
use voice_gateway::{App, serve};

const USAGE: &str = "usage: voice-gateway [serve] | --version | --help\n\
    Settings come from the environment (and a .env file); see README.md.";

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        [] | ["serve"] => run().await,
        ["--version" | "-V"] => {
            println!("voice-gateway {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        ["--help" | "-h"] => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

async fn run() -> ExitCode {
    let settings = match Settings::from_env() {
        Ok(settings) => settings,
        Err(err) => {
            eprintln!("voice-gateway: {err}");
            return ExitCode::from(2);
        }
    };
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")))
        .init();
    if settings.database_url.is_some() {
        eprintln!(
            "voice-gateway: invalid setting DATABASE_URL: PostgreSQL is not supported by this build yet; unset it to use DB_PATH"
        );
        return ExitCode::from(2);
    }
    let store = match Store::open(&settings.db_path).await {
        Ok(store) => store,
        Err(err) => {
            eprintln!("voice-gateway: cannot open {}: {err}", settings.db_path.display());
            return ExitCode::from(1);
        }
    };
    let listener = match tokio::net::TcpListener::bind(settings.listen_addr).await {
        Ok(listener) => listener,
        Err(err) => {
            eprintln!("voice-gateway: cannot listen on {}: {err}", settings.listen_addr);
            return ExitCode::from(1);
        }
    };
    tracing::info!(
        address = %settings.listen_addr,
        profile = settings.profile.as_str(),
        auth = settings.auth_enabled,
        version = env!("CARGO_PKG_VERSION"),
        "voice-gateway listening"
    );
    match serve(listener, Arc::new(App::new(settings, store)), shutdown_signal()).await {
        Ok(()) => {
            tracing::info!("stopped");
            ExitCode::SUCCESS
        }
        Err(err) => {
            tracing::error!(%err, "server failed");
            ExitCode::from(1)
        }
    }
}

/// Completes on SIGINT (Ctrl-C) or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { () = ctrl_c => {}, () = term => {} }
    tracing::info!("shutdown signal received; finishing running requests");
}
