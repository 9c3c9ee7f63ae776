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
            "HTTPS beside HTTP: `off`, `auto` (a local certificate authority in the data folder; devices trust its `/ca.crt`), `files` (`TLS_CERT_PATH`, `TLS_KEY_PATH`)",
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
        let mode = match mode.as_str() {
            "auto" => TlsMode::Auto,
            "files" => match (cert, key) {
                (Some(cert), Some(key)) => TlsMode::Files {
                    cert: cert.into(),
                    key: key.into(),
                },
                _ => return Err(var.error("`files` needs TLS_CERT_PATH and TLS_KEY_PATH")),
            },
            "acme" => return Err(var.error("`acme` is not available yet; use `auto` or `files`")),
            _ => TlsMode::Off,
        };
        let https = src
            .var("HTTPS_ADDR", "address HTTPS binds when `TLS` is on")
            .shown("(LISTEN_ADDR's host, port 8443)");
        let https_addr = match https.raw() {
            None => SocketAddr::new(listen_addr.ip(), 8443),
            Some(text) => text
                .parse()
                .map_err(|_| https.error(format!("{text:?} is not an address like 0.0.0.0:8443")))?,
        };
        Ok(Self { mode, https_addr })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::super::Settings;
    use super::*;

    fn read(pairs: &[(&str, &str)]) -> Result<Settings, ConfigError> {
        let map: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Settings::from_lookup(&|k| map.get(k).cloned())
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
            vec![("TLS", "auto"), ("HTTPS_ADDR", "8443")],
        ] {
            assert!(read(&wrong).is_err(), "{wrong:?}");
        }
    }
}
