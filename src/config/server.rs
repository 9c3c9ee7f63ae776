//! The server area: address, connection limits and timeouts, this instance's name, the restart command.

use std::net::SocketAddr;

use super::env::{ConfigError, Source, Var};

/// The HTTP server: its address, what one client may hold of it (connections, the time to send a request),
/// and this instance among several.
#[derive(Debug, Clone)]
pub struct ServerSettings {
    /// `LISTEN_ADDR`: the address the server binds.
    pub listen_addr: SocketAddr,
    /// `MAX_CONNECTIONS`: open connections of every door (WebSockets included) served in full; beyond them a
    /// connection is answered 503, except `/health`, or closed on a raw protocol.
    pub max_connections: usize,
    /// `MAX_CONNECTIONS_PER_CLIENT`: the same for one client address (not applied to `TRUSTED_PROXY_IPS`).
    pub max_connections_per_client: usize,
    /// `HEADER_READ_TIMEOUT_SECONDS`: time to send a request's headers, which is also how long an idle
    /// keep-alive connection (or a WebSocket handshake) may wait.
    pub header_timeout_secs: u64,
    /// `BODY_READ_TIMEOUT_SECONDS`: time to send a request's body.
    pub body_timeout_secs: u64,
    /// `INSTANCE_ID`: this instance's name among the gateway's instances (metrics, live log, leases).
    pub instance_id: String,
    /// `OVERRIDES_REFRESH_SECONDS`: how old the runtime overrides an instance uses may be.
    pub overrides_refresh_secs: u64,
    /// `ALLOWED_HOSTS`: host names served besides the machine's own (`.example.org`: the domain and its
    /// names; `*`: any).
    pub allowed_hosts: Vec<String>,
    /// `RESTART_COMMAND`: the privileged command that restarts the service (split at spaces, no shell).
    pub restart_command: Option<Vec<String>>,
}

impl ServerSettings {
    /// Reads the area.
    pub(super) fn read(src: &Source) -> Result<Self, ConfigError> {
        let listen_addr = listen_addr(src.var("LISTEN_ADDR", "address the server binds"))?;
        Ok(Self {
            max_connections: src.var("MAX_CONNECTIONS", "open connections of every door together (HTTP, HTTPS, Wyoming, AudioSocket; fewer when the descriptor limit cannot hold them); beyond, 503 except `/health`, or a close on a raw protocol").ranged(4096, 1_000_000)?.max(1) as usize,
            max_connections_per_client: src.var("MAX_CONNECTIONS_PER_CLIENT", "the same per client address, all doors together (not for `TRUSTED_PROXY_IPS`)").ranged(256, 1_000_000)?.max(1)
                as usize,
            header_timeout_secs: src.var("HEADER_READ_TIMEOUT_SECONDS", "time to send a request's headers; also the idle time of a keep-alive connection").ranged(10, 3600)?.max(1).into(),
            body_timeout_secs: src.var("BODY_READ_TIMEOUT_SECONDS", "time to send a request's body; slower gets 408").ranged(60, 3600)?.max(1).into(),
            instance_id: src
                .var("INSTANCE_ID", "this instance's name when several gateways share one database: in metrics, the live log and leases")
                .shown("host name:port")
                .raw()
                .unwrap_or_else(|| format!("{}:{}", host_name(), listen_addr.port())),
            overrides_refresh_secs: src.var("OVERRIDES_REFRESH_SECONDS", "how old the runtime overrides (and the local backend) an instance uses may be; an admin's change through another instance takes effect within it").ranged(30, 3600)?.max(1).into(),
            allowed_hosts: src
                .var("ALLOWED_HOSTS", "comma list of host names served besides `localhost`, this machine's names and addresses, `PUBLIC_URL`'s host and `ACME_DOMAIN` (`.example.org`: the domain and the names under it; `*`: any); another `Host` gets 421")
                .list(),
            restart_command: src
                .var("RESTART_COMMAND", "privileged command that restarts the service, e.g. `sudo -n systemctl restart voice-gateway` (no shell)")
                .shown("(unset: the gateway re-executes itself)")
                .raw()
                .map(|c| c.split_whitespace().map(String::from).collect::<Vec<_>>())
                .filter(|parts| !parts.is_empty()),
            listen_addr,
        })
    }
}

fn listen_addr(var: Var) -> Result<SocketAddr, ConfigError> {
    let listen = var.string("127.0.0.1:8080");
    listen
        .parse()
        .map_err(|_| var.error(format!("{listen:?} is not an address like 127.0.0.1:8080")))
}

/// This machine's name (for the default instance id).
fn host_name() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "gateway".to_string())
}
