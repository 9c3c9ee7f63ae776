//! The `voice-gateway` binary: settings → tracing → store → serve.

use std::process::ExitCode;
use std::sync::Arc;

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
    voice_gateway::logging::init();
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
    let shutdown = shutdown_signal();
    let app = Arc::new(App::new(settings, store));
    let settings = &app.settings;
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
    match serve(listener, app.clone(), shutdown).await {
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

/// Installs the SIGINT and SIGTERM handlers at once (so a signal that arrives while the server starts is not
/// fatal) and returns a future that completes on the first of them.
fn shutdown_signal() -> impl std::future::Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    #[cfg(unix)]
    let mut int = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt()).ok();
    async move {
        #[cfg(unix)]
        {
            let term = async {
                match term.as_mut() {
                    Some(s) => {
                        s.recv().await;
                    }
                    None => std::future::pending().await,
                }
            };
            let int = async {
                match int.as_mut() {
                    Some(s) => {
                        s.recv().await;
                    }
                    None => std::future::pending().await,
                }
            };
            tokio::select! { () = term => {}, () = int => {} }
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("shutdown signal received; finishing running requests");
    }
}
