//! Running the gateway: every door (HTTP, HTTPS, Wyoming, AudioSocket, SIP) and the background tasks
//! (reminders, checkpoints, the backend switch, probes, help checks), until a shutdown signal or an admin's
//! restart.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;

use crate::app::App;
use crate::task::AbortOnDrop;
use crate::{emergency, phone, probes, server, sip, tls, wyoming};

/// Takes up the stored local backend every `OVERRIDES_REFRESH_SECONDS`.
async fn follow_backend(app: Arc<App>) {
    let mut tick = tokio::time::interval(Duration::from_secs(app.settings.server.overrides_refresh_secs));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        tick.tick().await;
        app.restore_backend().await;
    }
}

/// Serves the gateway on `listener` until `shutdown` completes (or an admin asks for a restart), then lets
/// running requests finish for up to [`SHUTDOWN_GRACE`](crate::task::SHUTDOWN_GRACE) before returning.
pub async fn serve(
    listener: TcpListener,
    app: Arc<App>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_with_https(listener, None, app, shutdown).await
}

/// [`serve`], and HTTPS on `https`'s listener with its certificate (kept fresh meanwhile); HTTP then sends
/// other machines' requests to HTTPS.
pub async fn serve_with_https(
    listener: TcpListener,
    https: Option<(TcpListener, Arc<tls::Tls>)>,
    app: Arc<App>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    app.restore_backend().await;
    let _background = background(&app);
    // The doors besides HTTP stop with it.
    let _doors = other_doors(&app, app.stop.hold()).await?;
    let mut restart = app.restart.subscribe();
    let stopping = app.clone();
    let shutdown = async move {
        tokio::select! {
            () = shutdown => {}
            _ = restart.wait_for(|r| *r) => tracing::info!("restarting on an admin's request"),
        }
        // Event streams end, sockets close, calls say goodbye: none holds the stop for long.
        stopping.stop.begin();
    };
    let mut doors = vec![server::Door {
        listener,
        tls: None,
        https_port: None,
    }];
    let _keep_fresh = match https {
        Some((listener, tls)) => {
            doors[0].https_port = Some(listener.local_addr()?.port());
            doors.push(server::Door {
                listener,
                tls: Some(tls.acceptor()),
                https_port: None,
            });
            Some(AbortOnDrop(tokio::spawn(tls.keep_fresh())))
        }
        None => None,
    };
    server::run(doors, app.clone(), shutdown).await;
    if !app.stop.drained(crate::task::STOP_WAIT).await {
        tracing::warn!(
            "sockets or calls still open {:?} after the stop; closed",
            crate::task::STOP_WAIT
        );
    }
    Ok(())
}

/// The background tasks, which stop when dropped.
fn background(app: &Arc<App>) -> [AbortOnDrop; 9] {
    [
        // Reminders of unconfirmed alarms are due from the database, so this picks up those of before a
        // restart.
        AbortOnDrop(tokio::spawn(emergency::escalation::run(app.clone()))),
        AbortOnDrop(tokio::spawn(app.store.clone().run_checkpoints())),
        // An admin may switch the local backend through another instance of the gateway: take it up in time.
        AbortOnDrop(tokio::spawn(follow_backend(app.clone()))),
        // Failing providers are probed when their breaker's cooldown has passed.
        AbortOnDrop(tokio::spawn(probes::run(app.clone()))),
        // The help path is checked at start and then every HELP_CHECK_SECONDS, sending nothing.
        AbortOnDrop(tokio::spawn(emergency::checks::run(app.clone()))),
        // Reminders and timers due, from the database: one due while the gateway was down is found at start.
        AbortOnDrop(tokio::spawn(crate::care::schedule::run(app.clone()))),
        // With PostgreSQL, care's events reach the person's connections on every instance.
        AbortOnDrop(tokio::spawn(crate::bus::run(app.clone()))),
        AbortOnDrop(tokio::spawn(crate::care::summary::run(app.clone()))),
        // What is older than its retention, at start and every hour.
        AbortOnDrop(tokio::spawn(crate::retention::run(app.clone()))),
    ]
}

/// The doors that are set: Wyoming (`WYOMING_ADDR`) and AudioSocket (`AUDIOSOCKET_ADDR`), which stop when
/// `stop` turns true, and the house's telephone (`SIP_REGISTRAR` or `SIP_ADDR`); an address that cannot be
/// bound is an error that names its setting.
async fn other_doors(app: &Arc<App>, stop: tokio::sync::watch::Receiver<bool>) -> std::io::Result<Vec<AbortOnDrop>> {
    let named = |setting: &str, addr: SocketAddr| {
        let setting = setting.to_string();
        move |e: std::io::Error| std::io::Error::new(e.kind(), format!("{setting} {addr}: {e}"))
    };
    let mut doors = Vec::new();
    if let Some(addr) = app.settings.wyoming.addr {
        let listener = TcpListener::bind(addr).await.map_err(named("WYOMING_ADDR", addr))?;
        doors.push(AbortOnDrop(tokio::spawn(wyoming::run(
            listener,
            app.clone(),
            stop.clone(),
        ))));
    }
    if let Some(addr) = app.settings.phone.audiosocket_addr {
        let listener = TcpListener::bind(addr).await.map_err(named("AUDIOSOCKET_ADDR", addr))?;
        doors.push(AbortOnDrop(tokio::spawn(phone::audiosocket::run(
            listener,
            app.clone(),
            stop,
        ))));
    }
    if let Some(addr) = app.settings.sip.listen() {
        let endpoint = sip::endpoint::Endpoint::bind(addr)
            .await
            .map_err(named("SIP_ADDR", addr))?;
        // TCP on the port UDP got (SIP_ADDR may ask for any port).
        let tcp = TcpListener::bind(endpoint.local_addr()?)
            .await
            .map_err(named("SIP_ADDR", addr))?;
        doors.push(AbortOnDrop(tokio::spawn(sip::run(app.clone(), endpoint, tcp))));
    }
    Ok(doors)
}
