//! The TLS area: HTTPS beside HTTP, with a local certificate authority or certificate files.

use std::net::SocketAddr;
use std::path::PathBuf;

use super::env::{ConfigError, Source};

/// Where the HTTPS certificate comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TlsMode {
    /// No HTTPS.
    Off,
    /// A local certificate authority made once in the data folder issues a certificate for every address and
    /// name of this machine, renewed before it expires.
    Auto,
    /// A certificate chain and key from files, reloaded when they change.
    Files { cert: PathBuf, key: PathBuf },
    /// A certificate for a real domain from an ACME authority (HTTP-01), renewed before it expires.
    Acme(AcmeSettings),
}

/// `TLS=acme`: the domain, the contact and the authority.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcmeSettings {
    /// `ACME_DOMAIN`.
    pub domain: String,
    /// `ACME_EMAIL`: the contact the authority writes to about expiry; `None` = none.
    pub email: Option<String>,
    /// `ACME_DIRECTORY`: the authority's directory URL.
    pub directory: String,
    /// `ACME_DIRECTORY_CA`: a PEM file of the authority's own TLS certificate authority (a private ACME
    /// server); `None` = the system's.
    pub directory_ca: Option<PathBuf>,
}

/// HTTPS: its mode and address.
#[derive(Debug, Clone)]
pub struct TlsSettings {
    /// `TLS`.
    pub mode: TlsMode,
    /// `HTTPS_ADDR`: the address HTTPS binds; by default the host of `LISTEN_ADDR` with port 8443.
    pub https_addr: SocketAddr,
}

impl TlsSettings {
    /// Reads the area; `listen_addr` gives the default HTTPS host.
    pub(super) fn read(src: &Source, listen_addr: SocketAddr) -> Result<Self, ConfigError> {
        let var = src.var(
            "TLS",
            "HTTPS beside HTTP: `off`, `auto` (a local certificate authority in the data folder; devices trust its `/ca.crt`), `files` (`TLS_CERT_PATH`, `TLS_KEY_PATH`), `acme` (`ACME_DOMAIN`, from Let's Encrypt)",
        );
        let mode = var.choice("off", &["off", "auto", "files", "acme"])?;
        let cert = src
            .var(
                "TLS_CERT_PATH",
                "PEM certificate chain for `TLS=files`, reloaded when it changes",
            )
            .raw();
        let key = src
            .var(
                "TLS_KEY_PATH",
                "PEM private key for `TLS=files`, reloaded when it changes",
            )
            .raw();
        // Read in every mode, so that the settings table lists them.
        let acme = acme(src);
        let mode = match mode.as_str() {
            "auto" => TlsMode::Auto,
            "files" => match (cert, key) {
                (Some(cert), Some(key)) => TlsMode::Files {
                    cert: cert.into(),
                    key: key.into(),
                },
                _ => return Err(var.error("`files` needs TLS_CERT_PATH and TLS_KEY_PATH")),
            },
            "acme" => TlsMode::Acme(acme?),
            _ => TlsMode::Off,
        };
        let https = src
            .var("HTTPS_ADDR", "address HTTPS binds when `TLS` is on")
            .shown("(LISTEN_ADDR's host, port 8443)");
        let https_addr = https
            .address("0.0.0.0:8443")?
            .unwrap_or(SocketAddr::new(listen_addr.ip(), 8443));
        Ok(Self { mode, https_addr })
    }
}

fn acme(src: &Source) -> Result<AcmeSettings, ConfigError> {
    let domain = src.var(
        "ACME_DOMAIN",
        "the domain `TLS=acme` gets a certificate for (its port 80 must reach LISTEN_ADDR)",
    );
    let email = src
        .var(
            "ACME_EMAIL",
            "contact address the ACME authority writes to about expiry",
        )
        .raw();
    let directory = src
        .var("ACME_DIRECTORY", "the ACME authority's directory URL")
        .string("https://acme-v02.api.letsencrypt.org/directory");
    let directory_ca = src
        .var(
            "ACME_DIRECTORY_CA",
            "PEM file of a private ACME authority's own TLS certificate authority",
        )
        .raw()
        .map(PathBuf::from);
    let name = domain
        .raw()
        .map(|d| d.trim().trim_end_matches('.').to_ascii_lowercase())
        .filter(|d| !d.is_empty())
        .ok_or_else(|| domain.error("`TLS=acme` needs the domain, e.g. assistant.example.org"))?;
    let valid = name.contains('.')
        && name
            .split('.')
            .all(|l| !l.is_empty() && l.len() <= 63 && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
    if !valid && name != "localhost" {
        return Err(domain.error(format!("{name:?} is not a domain name")));
    }
    Ok(AcmeSettings {
        domain: name,
        email,
        directory,
        directory_ca,
    })
}

#[cfg(test)]
mod tests {
    use super::super::Settings;
    use super::*;

    fn read(pairs: &[(&str, &str)]) -> Result<Settings, ConfigError> {
        Settings::from_pairs(pairs)
    }

    #[test]
    fn off_by_default_and_https_beside_the_listening_host() {
        let s = read(&[]).unwrap();
        assert_eq!(s.tls.mode, TlsMode::Off);
        assert_eq!(s.tls.https_addr.to_string(), "127.0.0.1:8443");
        let s = read(&[("TLS", "auto"), ("LISTEN_ADDR", "0.0.0.0:8080")]).unwrap();
        assert_eq!(s.tls.mode, TlsMode::Auto);
        assert_eq!(s.tls.https_addr.to_string(), "0.0.0.0:8443");
        let s = read(&[
            ("TLS", "files"),
            ("TLS_CERT_PATH", "c.pem"),
            ("TLS_KEY_PATH", "k.pem"),
            ("HTTPS_ADDR", "[::]:443"),
        ])
        .unwrap();
        assert_eq!(
            s.tls.mode,
            TlsMode::Files {
                cert: "c.pem".into(),
                key: "k.pem".into()
            }
        );
        assert_eq!(s.tls.https_addr.port(), 443);
        for wrong in [
            vec![("TLS", "on")],
            vec![("TLS", "files"), ("TLS_CERT_PATH", "c.pem")],
            vec![("TLS", "acme")],
            vec![("TLS", "acme"), ("ACME_DOMAIN", "not a domain")],
            vec![("TLS", "auto"), ("HTTPS_ADDR", "8443")],
        ] {
            assert!(read(&wrong).is_err(), "{wrong:?}");
        }
    }
}
