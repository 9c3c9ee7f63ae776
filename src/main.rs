//! The `voice-gateway` binary: settings → tracing → store → serve.

use std::process::ExitCode;
use std::sync::Arc;

use voice_gateway::config::Settings;
use voice_gateway::store::Store;
use voice_gateway::{App, serve};

const USAGE: &str = "usage: voice-gateway [serve] | --version | --help\n\
    Settings come from the environment (and a .env file); see README.md.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        [] | ["serve"] => start(),
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

/// Reads the settings, applies the GPU mask while the process has one thread, then runs the server; after an
/// admin's restart request the program executes itself again (same arguments, same environment).
fn start() -> ExitCode {
    let settings = match Settings::from_env() {
        Ok(settings) => settings,
        Err(err) => {
            eprintln!("voice-gateway: {err}");
            return ExitCode::from(2);
        }
    };
    apply_gpu_mask(&settings.gpus);
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("voice-gateway: cannot start the async runtime: {err}");
            return ExitCode::from(1);
        }
    };
    let (code, restart) = runtime.block_on(run(settings));
    // Background work (memory extraction, a running alarm) gets a moment to end.
    runtime.shutdown_timeout(std::time::Duration::from_secs(5));
    if restart {
        return reexecute();
    }
    code
}

/// `GPUS` becomes `CUDA_VISIBLE_DEVICES` before any engine (or child process) can look at it: `none` hides
/// every GPU, a list shows those devices, `auto` leaves the environment alone.
#[expect(
    unsafe_code,
    reason = "set_var is unsafe with other threads; it runs before the runtime starts any"
)]
fn apply_gpu_mask(gpus: &str) {
    let mask = match gpus {
        "auto" => return,
        "none" => String::new(),
        list => list.split(',').map(str::trim).collect::<Vec<_>>().join(","),
    };
    // SAFETY: called from `start` before the tokio runtime exists, while this is the only thread.
    unsafe { std::env::set_var("CUDA_VISIBLE_DEVICES", mask) };
}

/// Replaces this process with a fresh start of the same program.
#[cfg(unix)]
fn reexecute() -> ExitCode {
    use std::os::unix::process::CommandExt;
    let program = std::env::current_exe().unwrap_or_else(|_| "voice-gateway".into());
    let err = std::process::Command::new(program)
        .args(std::env::args_os().skip(1))
        .exec();
    eprintln!("voice-gateway: restart failed: {err}");
    ExitCode::from(1)
}

#[cfg(not(unix))]
fn reexecute() -> ExitCode {
    eprintln!("voice-gateway: restart by re-execution needs Unix; set RESTART_COMMAND");
    ExitCode::from(1)
}

async fn run(settings: Settings) -> (ExitCode, bool) {
    voice_gateway::logging::init();
    if settings.database_url.is_some() {
        eprintln!(
            "voice-gateway: invalid setting DATABASE_URL: PostgreSQL is not supported by this build yet; unset it to use DB_PATH"
        );
        return (ExitCode::from(2), false);
    }
    let store = match Store::open(&settings.db_path).await {
        Ok(store) => store,
        Err(err) => {
            eprintln!("voice-gateway: cannot open {}: {err}", settings.db_path.display());
            return (ExitCode::from(1), false);
        }
    };
    let shutdown = shutdown_signal();
    let app = Arc::new(App::new(settings, store));
    let settings = &app.settings;
    let listener = match tokio::net::TcpListener::bind(settings.listen_addr).await {
        Ok(listener) => listener,
        Err(err) => {
            eprintln!("voice-gateway: cannot listen on {}: {err}", settings.listen_addr);
            return (ExitCode::from(1), false);
        }
    };
    tracing::info!(
        address = %settings.listen_addr,
        profile = settings.profile.as_str(),
        auth = settings.auth_enabled,
        version = env!("CARGO_PKG_VERSION"),
        "voice-gateway listening"
    );
    let code = match serve(listener, app.clone(), shutdown).await {
        Ok(()) => {
            tracing::info!("stopped");
            ExitCode::SUCCESS
        }
        Err(err) => {
            tracing::error!(%err, "server failed");
            ExitCode::from(1)
        }
    };
    let restart = *app.restart.borrow();
    (code, restart)
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
