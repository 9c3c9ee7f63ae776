//! HTTPS beside HTTP (`TLS`): phones and tablets give a page the microphone only in a secure context, which on
//! a home network means HTTPS. The certificate comes from the local certificate authority ([`local_ca`], `auto`)
//! or from files (`files`); either is swapped in while the gateway runs (renewed, or reloaded when the files
//! change), so connections never see a restart.

pub mod acme;
pub mod local_ca;

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant, SystemTime};

use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::crypto::CryptoProvider;
use tokio_rustls::rustls::server::{ClientHello, ResolvesServerCert};
use tokio_rustls::rustls::sign::CertifiedKey;
use tokio_rustls::rustls::{self, ServerConfig};

use crate::config::{Settings, TlsMode};
use local_ca::{Issued, LocalCa};

/// How often the certificate's sources are looked at: the files' times, this machine's addresses.
const CHECK_EVERY: Duration = Duration::from_secs(2);
/// The local authority's certificate is renewed when it is this old (it is valid for 90 days)…
const RENEW_AFTER: Duration = Duration::from_secs(30 * 24 * 3600);
/// …or when the machine's addresses changed, looked at this often.
const ADDRESSES_EVERY: Duration = Duration::from_secs(60);

/// The certificate every handshake gets; replaced while the gateway runs.
#[derive(Debug)]
struct Current(RwLock<Arc<CertifiedKey>>);

impl ResolvesServerCert for Current {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        self.0.read().ok().map(|key| key.clone())
    }
}

/// Where the certificate comes from, and what it was made from.
enum Source {
    Auto {
        ca: Box<LocalCa>,
        public_host: Option<String>,
        made: Mutex<(Instant, Vec<String>, Vec<std::net::IpAddr>)>,
    },
    Files {
        cert: PathBuf,
        key: PathBuf,
        seen: Mutex<Option<(SystemTime, SystemTime)>>,
    },
    Acme {
        acme: Box<acme::Acme>,
        /// Whether the certificate in use is the authority's (not the stand-in of the first start).
        obtained: AtomicBool,
    },
}

/// HTTPS of a running gateway.
pub struct Tls {
    current: Arc<Current>,
    provider: Arc<CryptoProvider>,
    acceptor: TlsAcceptor,
    source: Source,
}

impl Tls {
    /// HTTPS as the settings ask; `None` with `TLS=off`. An error says which file or folder is wrong.
    pub fn start(settings: &Settings) -> Result<Option<Arc<Self>>, String> {
        let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
        let (source, first) = match &settings.tls.mode {
            TlsMode::Off => return Ok(None),
            TlsMode::Auto => {
                let data = data_folder(settings);
                let ca = LocalCa::open(&data)?;
                let public_host = settings
                    .emergency
                    .public_url
                    .as_deref()
                    .and_then(|u| reqwest::Url::parse(u).ok())
                    .and_then(|u| u.host_str().map(str::to_string));
                let (names, addresses) = local_ca::this_machine(public_host.as_deref());
                let issued = ca.issue(&names, &addresses)?;
                let made = Mutex::new((Instant::now(), names, addresses));
                let ca = Box::new(ca);
                (Source::Auto { ca, public_host, made }, issued)
            }
            TlsMode::Files { cert, key } => {
                let issued = read_files(cert, key)?;
                let seen = Mutex::new(modified(cert, key));
                let source = Source::Files {
                    cert: cert.clone(),
                    key: key.clone(),
                    seen,
                };
                (source, issued)
            }
            TlsMode::Acme(acme) => {
                let acme = Box::new(acme::Acme::new(acme.clone(), &data_folder(settings)));
                // Until the authority's certificate arrives, HTTPS answers with a stand-in for the domain, which
                // browsers warn about; a certificate of an earlier start is used at once.
                let (issued, obtained) = match acme.cached() {
                    Some(issued) => (issued, true),
                    None => (stand_in(acme.domain())?, false),
                };
                let obtained = AtomicBool::new(obtained);
                (Source::Acme { acme, obtained }, issued)
            }
        };
        let current = Arc::new(Current(RwLock::new(certified(&provider, first)?)));
        let mut config = ServerConfig::builder_with_provider(provider.clone())
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .with_no_client_auth()
            .with_cert_resolver(current.clone());
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(Some(Arc::new(Self {
            current,
            provider,
            acceptor: TlsAcceptor::from(Arc::new(config)),
            source,
        })))
    }

    /// Accepts TLS on a connection.
    pub fn acceptor(&self) -> TlsAcceptor {
        self.acceptor.clone()
    }

    /// The names and addresses the local authority's certificate covers (empty for `files` and `acme`).
    pub fn covered(&self) -> (Vec<String>, Vec<std::net::IpAddr>) {
        match &self.source {
            Source::Auto { made, .. } => made.lock().map(|m| (m.1.clone(), m.2.clone())).unwrap_or_default(),
            Source::Files { .. } | Source::Acme { .. } => (Vec::new(), Vec::new()),
        }
    }

    /// The domain of `TLS=acme`.
    pub fn domain(&self) -> Option<&str> {
        match &self.source {
            Source::Acme { acme, .. } => Some(acme.domain()),
            _ => None,
        }
    }

    /// Keeps the certificate fresh until dropped: renews the local authority's before it expires or when the
    /// machine's addresses change, reloads files when they change. A failed renewal or a half-written file
    /// keeps the certificate in use and is logged.
    pub async fn keep_fresh(self: Arc<Self>) {
        if let Source::Acme { acme, obtained } = &self.source {
            return self.keep_obtained(acme, obtained).await;
        }
        let mut addresses_checked = Instant::now();
        loop {
            tokio::time::sleep(CHECK_EVERY).await;
            let this = self.clone();
            let check_addresses = addresses_checked.elapsed() >= ADDRESSES_EVERY;
            if check_addresses {
                addresses_checked = Instant::now();
            }
            // File reads and key generation are blocking work.
            let outcome = tokio::task::spawn_blocking(move || this.refresh(check_addresses)).await;
            match outcome {
                Ok(Ok(Some(what))) => tracing::info!("HTTPS certificate {what}"),
                Ok(Ok(None)) => {}
                Ok(Err(err)) => tracing::warn!(%err, "the HTTPS certificate could not be renewed; the old one stays"),
                Err(err) => tracing::warn!(%err, "the HTTPS certificate check failed"),
            }
        }
    }

    /// `TLS=acme`: obtains the certificate at once when there is none, renews it when it is due, and after a
    /// failure tries again, waiting twice as long each time (up to an hour).
    async fn keep_obtained(&self, acme: &acme::Acme, obtained: &AtomicBool) {
        const FIRST_RETRY: Duration = Duration::from_secs(10);
        let mut retry = FIRST_RETRY;
        loop {
            if obtained.load(Ordering::Relaxed) && !acme.due() {
                tokio::time::sleep(Duration::from_secs(12 * 3600)).await;
                continue;
            }
            let installed = match acme.obtain().await {
                Ok(issued) => certified(&self.provider, issued).and_then(|key| {
                    *self.current.0.write().map_err(|e| e.to_string())? = key;
                    Ok(())
                }),
                Err(err) => Err(err),
            };
            match installed {
                Ok(()) => {
                    obtained.store(true, Ordering::Relaxed);
                    retry = FIRST_RETRY;
                    tracing::info!(
                        domain = acme.domain(),
                        "HTTPS certificate obtained from the ACME authority"
                    );
                }
                Err(err) => {
                    tracing::warn!(%err, domain = acme.domain(), ?retry, "no ACME certificate yet; trying again");
                    tokio::time::sleep(retry).await;
                    retry = (retry * 2).min(Duration::from_secs(3600));
                }
            }
        }
    }

    /// One look at the sources; says what changed.
    fn refresh(&self, check_addresses: bool) -> Result<Option<&'static str>, String> {
        let (issued, what) = match &self.source {
            Source::Auto { ca, public_host, made } => {
                let (age, old_names, old_addresses) = {
                    let made = made.lock().map_err(|e| e.to_string())?;
                    (made.0.elapsed(), made.1.clone(), made.2.clone())
                };
                let due = age >= RENEW_AFTER;
                if !due && !check_addresses {
                    return Ok(None);
                }
                let (names, addresses) = local_ca::this_machine(public_host.as_deref());
                if !due && names == old_names && addresses == old_addresses {
                    return Ok(None);
                }
                let issued = ca.issue(&names, &addresses)?;
                *made.lock().map_err(|e| e.to_string())? = (Instant::now(), names, addresses);
                (
                    issued,
                    if due {
                        "renewed"
                    } else {
                        "reissued for the machine's new addresses"
                    },
                )
            }
            Source::Files { cert, key, seen } => {
                let now = modified(cert, key);
                let mut seen = seen.lock().map_err(|e| e.to_string())?;
                if now.is_none() || now == *seen {
                    return Ok(None);
                }
                let issued = read_files(cert, key)?;
                *seen = now;
                (issued, "reloaded from its files")
            }
            Source::Acme { .. } => return Ok(None),
        };
        let key = certified(&self.provider, issued)?;
        *self.current.0.write().map_err(|e| e.to_string())? = key;
        Ok(Some(what))
    }
}

/// Marks a request that came over TLS (a handler's extension): a browser keeps a `Secure` cookie only from
/// such a request or from its own machine.
#[derive(Debug, Clone, Copy)]
pub struct OverTls;

/// The host of a `Host` header, without its port (an IPv6 address keeps its brackets).
pub fn host_of(value: &str) -> String {
    let value = value.trim();
    let host = match value.strip_prefix('[') {
        Some(rest) => rest.split_once(']').map_or(value, |(ip, _)| &value[..ip.len() + 2]),
        None => value.split(':').next().unwrap_or_default(),
    };
    host.to_ascii_lowercase()
}

/// `localhost` (and names under it), 127.0.0.0/8 and `[::1]`: this machine, where plain HTTP stays for scripts.
pub fn is_loopback_host(host: &str) -> bool {
    host == "localhost"
        || host.ends_with(".localhost")
        || host
            .trim_matches(['[', ']'])
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// The data folder (beside the database file), where `auto` keeps its authority.
pub fn data_folder(settings: &Settings) -> PathBuf {
    settings
        .store
        .db_path
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// A self-signed certificate for `domain`, served until the ACME authority's arrives.
fn stand_in(domain: &str) -> Result<Issued, String> {
    let made = rcgen::generate_simple_self_signed(vec![domain.to_string()]).map_err(|e| e.to_string())?;
    Ok(Issued {
        chain: vec![made.cert.der().clone()],
        key: PrivateKeyDer::Pkcs8(made.signing_key.serialize_der().into()),
    })
}

fn certified(provider: &CryptoProvider, issued: Issued) -> Result<Arc<CertifiedKey>, String> {
    let key = provider
        .key_provider
        .load_private_key(issued.key)
        .map_err(|e| format!("the private key: {e}"))?;
    let certified = CertifiedKey::new(issued.chain, key);
    certified
        .keys_match()
        .map_err(|e| format!("the certificate and the key do not belong together: {e}"))?;
    Ok(Arc::new(certified))
}

fn read_files(cert: &Path, key: &Path) -> Result<Issued, String> {
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
        .and_then(Iterator::collect)
        .map_err(|e| format!("TLS_CERT_PATH {}: {e}", cert.display()))?;
    if chain.is_empty() {
        return Err(format!("TLS_CERT_PATH {}: no certificate in it", cert.display()));
    }
    let key = PrivateKeyDer::from_pem_file(key).map_err(|e| format!("TLS_KEY_PATH {}: {e}", key.display()))?;
    Ok(Issued { chain, key })
}

/// When the two files last changed; `None` while one is missing (being replaced).
fn modified(cert: &Path, key: &Path) -> Option<(SystemTime, SystemTime)> {
    let time = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    Some((time(cert)?, time(key)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts_stay_on_http_and_others_are_told_apart_by_name() {
        for (header, host) in [
            ("localhost:8080", "localhost"),
            ("127.0.0.1:8080", "127.0.0.1"),
            ("[::1]:8080", "[::1]"),
            ("Gateway.local:8080", "gateway.local"),
            ("[fd00::7]", "[fd00::7]"),
            ("192.0.2.7", "192.0.2.7"),
        ] {
            assert_eq!(host_of(header), host, "{header}");
        }
        for host in ["localhost", "127.0.0.1", "127.1.2.3", "[::1]", "app.localhost"] {
            assert!(is_loopback_host(host), "{host}");
        }
        for host in ["gateway.local", "192.0.2.7", "[fd00::7]", "localhost.example"] {
            assert!(!is_loopback_host(host), "{host}");
        }
    }
}
