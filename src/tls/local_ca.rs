//! The local certificate authority of `TLS=auto`: made once in the data folder (`tls/ca.key`, readable by the
//! owner alone, and `tls/ca.crt`, which devices install), it issues the server certificate for every address
//! and name of this machine.

use std::net::IpAddr;
use std::path::{Path, PathBuf};

use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose, SanType, SerialNumber,
};
use rustls_pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use sha2::{Digest, Sha256};
use time::{Duration, OffsetDateTime};

/// How long a server certificate is valid; it is renewed well before.
pub const SERVER_VALIDITY_DAYS: i64 = 90;
/// How long the authority is valid: the devices that trust it should not have to again.
const CA_VALIDITY_DAYS: i64 = 3650;

/// The authority: its certificate as devices install it and the key it signs with.
pub struct LocalCa {
    pub cert_pem: String,
    issuer: Issuer<'static, KeyPair>,
}

/// A server certificate and its key.
pub struct Issued {
    pub chain: Vec<CertificateDer<'static>>,
    pub key: PrivateKeyDer<'static>,
}

/// The folder of the authority's files.
pub fn folder(data: &Path) -> PathBuf {
    data.join("tls")
}

impl LocalCa {
    /// The authority of `data`'s `tls` folder, made there on the first start.
    pub fn open(data: &Path) -> Result<Self, String> {
        let dir = folder(data);
        let (key_file, cert_file) = (dir.join("ca.key"), dir.join("ca.crt"));
        let failed = |what: &str, file: &Path, e: &dyn std::fmt::Display| format!("{what} {}: {e}", file.display());
        if key_file.exists() && cert_file.exists() {
            let pem = std::fs::read_to_string(&key_file).map_err(|e| failed("cannot read", &key_file, &e))?;
            let key = KeyPair::from_pem(&pem).map_err(|e| failed("not a key:", &key_file, &e))?;
            let cert_pem = std::fs::read_to_string(&cert_file).map_err(|e| failed("cannot read", &cert_file, &e))?;
            return Ok(Self {
                cert_pem,
                issuer: Issuer::new(ca_params(&key), key),
            });
        }
        std::fs::create_dir_all(&dir).map_err(|e| failed("cannot create", &dir, &e))?;
        let key = KeyPair::generate().map_err(|e| e.to_string())?;
        let mut params = ca_params(&key);
        let now = OffsetDateTime::now_utc();
        params.not_before = now - Duration::days(1);
        params.not_after = now + Duration::days(CA_VALIDITY_DAYS);
        params.serial_number = Some(serial());
        let cert = params.self_signed(&key).map_err(|e| e.to_string())?;
        crate::files::write_private(&key_file, &key.serialize_pem())
            .map_err(|e| failed("cannot write", &key_file, &e))?;
        std::fs::write(&cert_file, cert.pem()).map_err(|e| failed("cannot write", &cert_file, &e))?;
        tracing::info!(file = %cert_file.display(), "a local certificate authority was made; devices trust it through /ca.crt");
        Ok(Self {
            cert_pem: cert.pem(),
            issuer: Issuer::new(params, key),
        })
    }

    /// A server certificate for `names` and `addresses`, valid for [`SERVER_VALIDITY_DAYS`].
    pub fn issue(&self, names: &[String], addresses: &[IpAddr]) -> Result<Issued, String> {
        let mut params = CertificateParams::default();
        params.distinguished_name = DistinguishedName::new();
        let common = names.first().map_or("voice-gateway", String::as_str);
        params.distinguished_name.push(DnType::CommonName, common);
        params.subject_alt_names = names
            .iter()
            .filter_map(|n| n.clone().try_into().ok().map(SanType::DnsName))
            .chain(addresses.iter().map(|&ip| SanType::IpAddress(ip)))
            .collect();
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        params.use_authority_key_identifier_extension = true;
        let now = OffsetDateTime::now_utc();
        params.not_before = now - Duration::hours(1);
        params.not_after = now + Duration::days(SERVER_VALIDITY_DAYS);
        // Browsers refuse a second certificate with an issuer's serial number: every one gets its own.
        params.serial_number = Some(serial());
        let key = KeyPair::generate().map_err(|e| e.to_string())?;
        let cert = params.signed_by(&key, &self.issuer).map_err(|e| e.to_string())?;
        let ca = rustls_pki_types::pem::PemObject::from_pem_slice(self.cert_pem.as_bytes())
            .map_err(|e| format!("the authority's certificate: {e}"))?;
        Ok(Issued {
            chain: vec![cert.der().clone(), ca],
            key: PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der())),
        })
    }
}

/// The authority's name and uses. Its name comes from its key, so the same key always makes the same issuer
/// (the certificate devices trusted keeps verifying what the authority signs after a restart).
fn ca_params(key: &KeyPair) -> CertificateParams {
    let digest = Sha256::digest(rcgen::PublicKeyData::der_bytes(key));
    let id: String = digest[..4].iter().map(|b| format!("{b:02X}")).collect();
    let mut params = CertificateParams::default();
    params.distinguished_name = DistinguishedName::new();
    params
        .distinguished_name
        .push(DnType::OrganizationName, "voice-gateway");
    params
        .distinguished_name
        .push(DnType::CommonName, format!("voice-gateway local CA {id}"));
    params.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
    params.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    params
}

/// A random positive serial number of 16 bytes.
fn serial() -> SerialNumber {
    let mut bytes: [u8; 16] = rand::random();
    bytes[0] &= 0x7F;
    bytes[0] |= 0x01;
    SerialNumber::from_slice(&bytes)
}

/// The SHA-256 fingerprint of a PEM certificate, as browsers and phones show it (`AB:CD:…`).
pub fn fingerprint(cert_pem: &str) -> Option<String> {
    let der: CertificateDer<'static> = rustls_pki_types::pem::PemObject::from_pem_slice(cert_pem.as_bytes()).ok()?;
    let digest = Sha256::digest(der.as_ref());
    Some(digest.iter().map(|b| format!("{b:02X}")).collect::<Vec<_>>().join(":"))
}

/// The names and addresses this machine is reached by: `localhost`, its host name and `<host>.local`,
/// `extra` (the host of `PUBLIC_URL`), and the addresses of its interfaces.
pub fn this_machine(extra: Option<&str>) -> (Vec<String>, Vec<IpAddr>) {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let label = host.split('.').next().unwrap_or_default().to_string();
    let mut names = vec!["localhost".to_string()];
    for name in [
        host.clone(),
        format!("{label}.local"),
        extra.unwrap_or_default().to_ascii_lowercase(),
    ] {
        let valid = !name.is_empty()
            && !name.starts_with('.')
            && name.parse::<IpAddr>().is_err()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.');
        if valid && !names.contains(&name) {
            names.push(name);
        }
    }
    let mut addresses: Vec<IpAddr> = vec![
        IpAddr::from([127, 0, 0, 1]),
        IpAddr::from(std::net::Ipv6Addr::LOCALHOST),
    ];
    if let Some(ip) = extra.and_then(|e| e.trim_matches(['[', ']']).parse::<IpAddr>().ok()) {
        addresses.push(ip);
    }
    for interface in if_addrs::get_if_addrs().unwrap_or_default() {
        let ip = interface.ip();
        // A link-local IPv6 address needs its zone in a URL, which no browser takes.
        let link_local = matches!(ip, IpAddr::V6(v6) if (v6.segments()[0] & 0xFFC0) == 0xFE80);
        if !link_local && !addresses.contains(&ip) {
            addresses.push(ip);
        }
    }
    (names, addresses)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_authority_is_made_once_and_its_key_is_private() {
        let dir = tempfile::tempdir().unwrap();
        let first = LocalCa::open(dir.path()).unwrap();
        let again = LocalCa::open(dir.path()).unwrap();
        assert_eq!(first.cert_pem, again.cert_pem, "the same authority after a restart");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(folder(dir.path()).join("ca.key"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o077, 0, "the key is readable by the owner alone");
        }
        let print = fingerprint(&first.cert_pem).unwrap();
        assert_eq!(print.len(), 32 * 3 - 1);
        let issued = again
            .issue(&["gateway.local".into()], &[IpAddr::from([192, 0, 2, 7])])
            .unwrap();
        assert_eq!(issued.chain.len(), 2);
    }

    #[test]
    fn this_machine_has_its_loopback_names() {
        let (names, addresses) = this_machine(Some("assistant.example.org"));
        assert_eq!(names[0], "localhost");
        assert!(names.contains(&"assistant.example.org".to_string()));
        assert!(names.iter().any(|n| n.ends_with(".local")));
        assert!(addresses.contains(&IpAddr::from([127, 0, 0, 1])));
    }
}
