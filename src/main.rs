//! The `voice-gateway` binary: settings → tracing → store → serve.

use std::process::ExitCode;
use std::sync::Arc;

use voice_gateway::config::Settings;
use voice_gateway::config::keys::Key;
use voice_gateway::providers::registry::Setup;
use voice_gateway::providers::{LlmId, ProviderId, SttId};
use voice_gateway::store::Store;
use voice_gateway::{App, serve_with_https};

/// mimalloc gives freed memory back to the system; with the system allocator the process kept about 344 MB
/// after 300 voice connections had closed.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Called when a runtime thread has nothing to do: gives its heap's free memory back to the system, at most
/// once a second per thread. mimalloc returns memory while a thread allocates and frees; a thread that went
/// idle after a burst (voice connections closing) would otherwise keep it.
#[expect(unsafe_code, reason = "mi_collect is a C function with no preconditions")]
fn give_back_memory_when_idle() {
    thread_local! {
        static LAST: std::cell::Cell<Option<std::time::Instant>> = const { std::cell::Cell::new(None) };
    }
    LAST.with(|last| {
        if last
            .get()
            .is_some_and(|at| at.elapsed() < std::time::Duration::from_secs(1))
        {
            return;
        }
        last.set(Some(std::time::Instant::now()));
        // SAFETY: mi_collect only frees memory this thread's heap no longer uses; it takes no pointers.
        unsafe { libmimalloc_sys::mi_collect(true) };
    });
}

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

/// Reads the settings, then runs the server; after an
/// admin's restart request the program executes itself again (same arguments, same environment).
fn start() -> ExitCode {
    // The phrasebook first: the settings accept the languages it has.
    let folder = voice_gateway::phrasebook::folder();
    if let Err(err) = voice_gateway::phrasebook::load(folder.as_deref()) {
        eprintln!("voice-gateway: the phrasebook: {err}");
        return ExitCode::from(2);
    }
    if let Err(err) = voice_gateway::hearing::load(folder.as_deref()) {
        eprintln!("voice-gateway: what care hears: {err}");
        return ExitCode::from(2);
    }
    let lacking = folder.as_deref().map(voice_gateway::phrasebook::lacking);
    for (lang, files) in lacking.and_then(Result::ok).unwrap_or_default() {
        eprintln!(
            "voice-gateway: the language {lang} lacks {} (said and heard in English)",
            files.join(", ")
        );
    }
    let settings = match Settings::from_env() {
        Ok(settings) => settings,
        Err(err) => {
            eprintln!("voice-gateway: {err}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .on_thread_park(give_back_memory_when_idle)
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("voice-gateway: cannot start the async runtime: {err}");
            return ExitCode::from(1);
        }
    };
    let (code, restart) = runtime.block_on(run(settings));
    // The last turns' traces leave before the runtime their gRPC client lives on goes.
    voice_gateway::traces::flush();
    // Background work (memory extraction, a running alarm) gets a moment to end.
    runtime.shutdown_timeout(std::time::Duration::from_secs(5));
    if restart {
        return reexecute();
    }
    code
}

/// The personal link of the local admin (`admin`), created on the first start and kept (readable only by the
/// owner) in `admin-link.txt` beside the database; true when it was made now.
async fn admin_link(app: &App, file: &std::path::Path, base: &str) -> Result<(String, bool), String> {
    use voice_gateway::auth::token;
    if let Ok(saved) = std::fs::read_to_string(file)
        && let Some(tok) = saved.trim().rsplit("k=").next()
        && app
            .store
            .user_by_token_hash(&token::hash(tok))
            .await
            .ok()
            .flatten()
            .is_some()
    {
        let link = format!("{base}/?k={tok}");
        if saved.trim() != link {
            // The operator changed PUBLIC_URL or the address: the kept link follows.
            voice_gateway::files::write_private(file, &link).map_err(|e| format!("{}: {e}", file.display()))?;
        }
        return Ok((link, false));
    }
    let fresh = token::generate();
    let hash = token::hash(&fresh);
    let users = app.store.list_users().await.map_err(|e| e.to_string())?;
    match users.iter().find(|u| u.name == "admin") {
        Some(admin) => app
            .store
            .replace_tokens(&admin.id, &hash, "personal link")
            .await
            .map_err(|e| e.to_string())?,
        None => {
            let new = voice_gateway::store::users::NewUser {
                name: "admin",
                display_name: "Admin",
                is_admin: true,
                external_id: None,
                token_hash: Some(&hash),
            };
            app.store.create_user(new).await.map_err(|e| e.to_string())?;
        }
    }
    let link = format!("{base}/?k={fresh}");
    voice_gateway::files::write_private(file, &link).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok((link, true))
}

/// The HTTPS listener and its certificate, when TLS is on.
type Https = Option<(tokio::net::TcpListener, Arc<voice_gateway::tls::Tls>)>;

/// HTTPS as `TLS` asks: its certificate and its bound listener; `None` when off.
async fn https(settings: &Settings) -> Result<Https, String> {
    let Some(tls) = voice_gateway::tls::Tls::start(settings).map_err(|e| format!("HTTPS (TLS): {e}"))? else {
        return Ok(None);
    };
    let addr = settings.tls.https_addr;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on HTTPS_ADDR {addr}: {e}"))?;
    Ok(Some((listener, tls)))
}

/// Where phones and tablets open the gateway: HTTPS on the addresses and names its certificate covers (those
/// other machines reach first).
fn https_urls(settings: &Settings, tls: &voice_gateway::tls::Tls) -> Vec<String> {
    let addr = settings.tls.https_addr;
    let port = addr.port();
    if let Some(domain) = tls.domain() {
        return vec![if port == 443 {
            format!("https://{domain}")
        } else {
            format!("https://{domain}:{port}")
        }];
    }
    let (names, addresses) = tls.covered();
    let mut hosts: Vec<String> = if addr.ip().is_unspecified() {
        let ips = addresses.iter().filter(|ip| !ip.is_loopback()).map(|ip| match ip {
            std::net::IpAddr::V6(v6) => format!("[{v6}]"),
            v4 => v4.to_string(),
        });
        ips.chain(names.iter().filter(|n| n.ends_with(".local")).cloned())
            .collect()
    } else {
        vec![match addr.ip() {
            std::net::IpAddr::V6(v6) => format!("[{v6}]"),
            v4 => v4.to_string(),
        }]
    };
    if hosts.is_empty() {
        hosts.push("localhost".into());
    }
    hosts.iter().map(|h| format!("https://{h}:{port}")).collect()
}

/// The start message's line about HTTPS.
fn https_addresses(settings: &Settings, tls: &voice_gateway::tls::Tls) -> String {
    let urls = https_urls(settings, tls);
    let trust = if tls.covered().0.is_empty() {
        String::new()
    } else {
        format!(
            "; a device trusts this gateway's certificate authority once, as {}/ca explains",
            urls[0]
        )
    };
    format!("HTTPS for phones and tablets: {}{trust}", urls.join(", "))
}

/// One line of what answers: the language model, transcription, voice and the turn-taking models.
async fn running(app: &App) -> String {
    let s = &app.settings;
    let eff = app.runtime.effective().await.ok();
    let get = |key: Key| {
        eff.as_ref()
            .map_or_else(|| s.runtime_env[&key].clone(), |e| e.get(key).to_string())
    };
    // Each engine says where it is and what it runs.
    let described = |id: String, setup: Setup, model: Option<String>| {
        let mut text = match model.or(setup.model) {
            Some(model) => format!("{id} {model}"),
            None => id,
        };
        if let Some(url) = setup.url {
            text = format!("{text} at {url}");
        }
        match setup.backend {
            Some(backend) => format!("{text} ({backend})"),
            None => text,
        }
    };
    let llm = match LlmId::parse(&get(Key::DefaultLlmProvider)) {
        Ok(id) => described(
            id.to_string(),
            app.providers.llm.get(id).setup(),
            Some(get(Key::model_of(id))),
        ),
        Err(_) => get(Key::DefaultLlmProvider),
    };
    let stt = match SttId::parse(&get(Key::DefaultSttProvider)) {
        Ok(id) => described(id.to_string(), app.providers.stt.get(id).setup(), None),
        Err(_) => get(Key::DefaultSttProvider),
    };
    let detector = if app.silero.is_ok() { "Silero VAD" } else { "energy" };
    let turn = if app.smart_turn.is_ok() {
        "Smart Turn"
    } else {
        "fixed silence"
    };
    format!(
        "running: language model {llm}; speech to text {stt}; voice {}; voice detection {detector}; end of turn {turn}",
        get(Key::DefaultTtsProvider)
    )
}

/// The start message's line about the engines' language model when it does not answer in every language of the
/// gateway: which it does, what a person asking in another is told, and how to get a model that speaks more.
fn model_languages(settings: &Settings) -> Option<String> {
    let model = settings.providers.served_model.as_ref()?;
    let languages = model.languages.as_ref()?;
    if languages.len() >= voice_gateway::config::languages().len() {
        return None;
    }
    let which = if languages.as_slice() == ["en"] {
        "English only: a question in German gets an English answer (spoken by the German voice), and the person is told so"
            .to_string()
    } else {
        format!(
            "{}; a person asking in another language is told so",
            languages.join(", ")
        )
    };
    let better = if languages.iter().any(|l| l == "de") {
        "set LOCAL_LLM_URL and LOCAL_LLM_MODEL for a larger model of your own"
    } else {
        "a start with Hugging Face reachable fetches Qwen2.5-1.5B-Instruct (German, English and four more), or set \
         LOCAL_LLM_URL and LOCAL_LLM_MODEL for a model of your own"
    };
    Some(format!("language model {} answers in {which}; {better}", model.name))
}

/// The address other devices open over plain HTTP: `PUBLIC_URL`, else the listening address, a wildcard one as
/// this machine's first network address (loopback only where it has none).
fn network_url(settings: &Settings) -> String {
    let addr = settings.server.listen_addr;
    if settings.emergency.public_url.is_some() || !addr.ip().is_unspecified() {
        return base_url(settings);
    }
    let (_, addresses) = voice_gateway::tls::local_ca::this_machine(None);
    match addresses.iter().find(|ip| ip.is_ipv4() && !ip.is_loopback()) {
        Some(ip) => format!("http://{ip}:{}", addr.port()),
        None => base_url(settings),
    }
}

/// The address people open: `PUBLIC_URL` when the operator set it, else the listening address (a wildcard
/// one as this machine's loopback, which at least works here).
fn base_url(settings: &voice_gateway::config::Settings) -> String {
    if let Some(url) = &settings.emergency.public_url {
        return url.clone();
    }
    let mut addr = settings.server.listen_addr;
    if addr.ip().is_unspecified() {
        addr.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
    }
    format!("http://{addr}")
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

async fn run(mut settings: Settings) -> (ExitCode, bool) {
    voice_gateway::logging::init(&settings.traces);
    let store = match Store::from_settings(&settings).await {
        Ok(store) => store,
        Err(err) if settings.store.database_url.is_some() => {
            eprintln!("voice-gateway: cannot use the database of DATABASE_URL: {err}");
            return (ExitCode::from(1), false);
        }
        Err(err) => {
            eprintln!("voice-gateway: cannot open {}: {err}", settings.store.db_path.display());
            return (ExitCode::from(1), false);
        }
    };
    let shutdown = shutdown_signal();
    // Kept until the server stops: dropping it stops the engines it started.
    let engines = match voice_gateway::engines::start(&mut settings).await {
        Ok(engines) => engines,
        Err(err) => {
            eprintln!("voice-gateway: the local engines could not be started: {err}");
            return (ExitCode::from(1), false);
        }
    };
    if let Some(engines) = &engines {
        tracing::info!(engines = ?engines.names(), "local engines running");
    }
    let link_file = settings.store.db_path.parent().map(|d| d.join("admin-link.txt"));
    voice_gateway::connections::raise_descriptor_limit();
    let app = App::new(settings, store);
    let settings = &app.settings;
    if let Some(shortfall) = app.connections.budget().shortfall(settings.server.max_connections) {
        tracing::warn!("{shortfall}");
    }
    let listener = match tokio::net::TcpListener::bind(settings.server.listen_addr).await {
        Ok(listener) => listener,
        Err(err) => {
            eprintln!("voice-gateway: cannot listen on {}: {err}", settings.server.listen_addr);
            return (ExitCode::from(1), false);
        }
    };
    let https = match https(settings).await {
        Ok(https) => https,
        Err(err) => {
            eprintln!("voice-gateway: {err}");
            return (ExitCode::from(1), false);
        }
    };
    announce(&app, &https, link_file).await;
    let code = match serve_with_https(listener, https, app.clone(), shutdown).await {
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
    drop(engines);
    (code, restart)
}

/// Says that the gateway is ready, where, and how to begin: the addresses, who may use it without signing in,
/// what runs, and (on the first start of `local-dev`) the admin's personal link.
async fn announce(app: &Arc<App>, https: &Https, link_file: Option<std::path::PathBuf>) {
    let settings = &app.settings;
    tracing::info!(
        address = %settings.server.listen_addr,
        profile = settings.profile.as_str(),
        auth = settings.auth.enabled,
        connections = app.connections.budget().total,
        // Who names no language is heard and answered in this one (DEFAULT_LANGUAGE, else the machine's locale).
        language = %settings.turn.default_language,
        version = env!("CARGO_PKG_VERSION"),
        "voice-gateway listening"
    );
    println!(
        "voice-gateway {} is ready: {}",
        env!("CARGO_PKG_VERSION"),
        base_url(settings)
    );
    if let Some((_, tls)) = https {
        println!("{}", https_addresses(settings, tls));
    }
    if !settings.auth.enabled {
        println!(
            "without sign-in: {}",
            if settings.auth.anonymous_from_network {
                "everyone who reaches it is the anonymous user (ANONYMOUS_FROM_NETWORK=true)"
            } else {
                "this machine only; other devices open their personal link"
            }
        );
    }
    println!("{}", running(app).await);
    if let Some(line) = model_languages(settings) {
        println!("{line}");
    }
    if let Some(file) = link_file
        && settings.profile == voice_gateway::config::Profile::LocalDev
    {
        // The link is a credential: shown once when it is made, and only to a person at a terminal (with its QR
        // code, to open it on a phone); otherwise, and afterwards, only its file is named, so that a service
        // manager's log does not collect it.
        // The link is for a phone as much as for this machine: on HTTPS when it is on, else at the address
        // the network reaches (a phone's page then says why it needs HTTPS, instead of not opening at all).
        let base = match (&settings.emergency.public_url, https) {
            (None, Some((_, tls))) => https_urls(settings, tls).remove(0),
            _ => network_url(settings),
        };
        let at_terminal = std::io::IsTerminal::is_terminal(&std::io::stdout());
        match admin_link(app, &file, &base).await {
            Ok((link, true)) if at_terminal => {
                println!("admin's personal link (shown once, kept in {}): {link}", file.display());
                let host = voice_gateway::tls::host_of(base.split("://").nth(1).unwrap_or(&base));
                if voice_gateway::tls::is_loopback_host(&host) {
                    // A code a phone cannot open would only send it to itself.
                    println!(
                        "a phone cannot reach {base}: start with LISTEN_ADDR=0.0.0.0:8080 TLS=auto to open the link \
                         on one (README: Phones and tablets)"
                    );
                } else if let Some(code) = voice_gateway::links::terminal(&link) {
                    println!("scan it with your phone:\n{code}");
                }
            }
            Ok(_) => println!("admin's personal link: see {}", file.display()),
            Err(err) => tracing::warn!(%err, "no admin link"),
        }
    }
    // After the admin's link, which makes the admin's account on the first start.
    if let Some(line) = help_reaches_nobody(app).await {
        tracing::warn!("{line}");
        println!("{line}");
    }
}

/// The start's warning when someone's help would not reach everybody, each person with the cause and what to
/// set: nobody may believe help is set up when it is not. Also when contacts would get a link they cannot open
/// (no `PUBLIC_URL`, or a loopback or link-local one).
async fn help_reaches_nobody(app: &App) -> Option<String> {
    let stranded = match voice_gateway::emergency::checks::stranded(app).await {
        Ok(stranded) => stranded,
        Err(err) => return Some(format!("help: could not be checked ({err})")),
    };
    let mut lines: Vec<String> = stranded
        .iter()
        .filter(|s| s.stuck)
        .filter_map(|s| Some(format!("help: {}: {}", s.name, s.diagnosis.for_operator()?)))
        .collect();
    if lines.is_empty() && matches!(voice_gateway::emergency::checks::nobody_set_up(app).await, Ok(true)) {
        lines.push(
            "help: nobody can be alerted yet: enter each person's contacts (admin panel, Users) or set \
             EMERGENCY_CONTACT_EMAIL"
                .to_string(),
        );
    }
    lines.extend(voice_gateway::emergency::checks::links_warning(app));
    (!lines.is_empty()).then(|| lines.join("\n"))
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
