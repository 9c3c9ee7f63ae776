//! HTTPS built in (`TLS=auto`, `TLS=files`), spoken to by reqwest (rustls) over loopback only: names the
//! certificate must cover are resolved to 127.0.0.1 by the client, as a phone on the network would reach them.

use std::net::SocketAddr;
use std::time::Duration;

use reqwest::tls::TlsInfo;
use reqwest::{Certificate, Client, StatusCode};
use sha2::{Digest, Sha256};

use crate::common::{TestApp, dot_local, eventually, free_port, spawn_app};

/// The authority `TLS=auto` made in the gateway's data folder.
fn authority(app: &TestApp) -> String {
    let file = app.db_path().parent().unwrap().join("tls/ca.crt");
    std::fs::read_to_string(file).expect("TLS=auto made its authority")
}

/// A client that trusts only `pem`, reaching `names` at `addr`, showing the certificate it was given.
fn trusting(pem: &str, names: &[&str], addr: SocketAddr) -> Client {
    let mut builder = Client::builder()
        .tls_certs_only([Certificate::from_pem(pem.as_bytes()).unwrap()])
        .tls_info(true)
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(10));
    for name in names {
        builder = builder.resolve(name, addr);
    }
    builder.build().unwrap()
}

#[tokio::test]
async fn tls_auto_serves_https_for_every_name_of_the_machine_and_sends_others_there() {
    // 192.0.2.7 stands for an address a router forwards to this machine, which ALLOWED_HOSTS names.
    let app = spawn_app(&[("TLS", "auto"), ("ALLOWED_HOSTS", "192.0.2.7")]).await;
    let https = app.https.expect("HTTPS is on");
    let ca = authority(&app);
    let local = dot_local();
    let client = trusting(&ca, &["localhost", &local, "elsewhere.example"], https);

    // Every name and address the machine is reached by verifies against the authority.
    for url in [
        format!("https://localhost:{}/health", https.port()),
        format!("https://{local}:{}/health", https.port()),
        format!("https://127.0.0.1:{}/health", https.port()),
    ] {
        let r = client.get(&url).send().await.unwrap_or_else(|e| panic!("{url}: {e:?}"));
        assert_eq!(r.status(), 200, "{url}");
    }
    // A name it does not cover, and a client that does not trust the authority, are refused.
    let foreign = client
        .get(format!("https://elsewhere.example:{}/health", https.port()))
        .send()
        .await;
    assert!(foreign.is_err(), "a name outside the certificate");
    let stranger = Client::builder()
        .resolve("localhost", https)
        .build()
        .unwrap()
        .get(format!("https://localhost:{}/health", https.port()))
        .send()
        .await;
    let err = stranger.expect_err("an untrusted authority");
    assert!(format!("{err:?}").to_lowercase().contains("certificate"), "{err:?}");

    // A personal link made by an admin is on HTTPS under the name the admin used, and so is its QR code.
    let (id, _) = app.create_user("pia").await;
    let made = app
        .call(
            reqwest::Method::POST,
            &format!("/api/admin/users/{id}/token"),
            crate::common::As::AdminKey,
            None,
        )
        .await;
    assert_eq!(made.status, 200, "{}", made.body);
    let token = made.body["token"].as_str().unwrap();
    let link = format!("https://127.0.0.1:8443/?k={token}");
    assert_eq!(
        made.body["link"],
        link.as_str(),
        "HTTPS_ADDR's port (8443 in the settings)"
    );
    assert_eq!(crate::common::read_qr(made.body["qr_svg"].as_str().unwrap()), link);

    // Plain HTTP: this machine stays on it, another machine's name goes to the same path on HTTPS.
    let plain = Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let at = |host: &str| {
        plain
            .get(format!("http://{}/api/config?lang=de", app.addr))
            .header("host", host.to_string())
            .send()
    };
    for host in ["127.0.0.1", "localhost:8080", "[::1]:8080"] {
        assert_eq!(at(host).await.unwrap().status(), 200, "{host}");
    }
    for host in [format!("{local}:8080"), "192.0.2.7:8080".to_string()] {
        let r = at(&host).await.unwrap();
        assert_eq!(r.status(), StatusCode::TEMPORARY_REDIRECT, "{host}");
        let name = host.rsplit_once(':').unwrap().0;
        assert_eq!(
            r.headers()["location"],
            format!("https://{name}:{}/api/config?lang=de", https.port()).as_str()
        );
    }
}

#[tokio::test]
async fn the_authority_is_offered_to_devices_with_its_fingerprint() {
    let app = spawn_app(&[("TLS", "auto")]).await;
    let ca = authority(&app);
    let der = der_of(&ca);

    let r = app.client.get(app.url("/ca.crt")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "application/x-x509-ca-cert");
    assert_eq!(r.bytes().await.unwrap().to_vec(), der, "the authority itself, in DER");
    // PEM for Linux's update-ca-certificates, which takes no DER.
    let r = app.client.get(app.url("/ca.pem")).send().await.unwrap();
    assert_eq!(r.headers()["content-type"], "application/x-pem-file");
    assert_eq!(r.text().await.unwrap(), ca, "the authority itself, in PEM");

    let page = app
        .client
        .get(app.url("/ca"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let print: Vec<String> = Sha256::digest(&der).iter().map(|b| format!("{b:02X}")).collect();
    assert!(
        page.contains(&print.join(":")),
        "the page shows the SHA-256 fingerprint"
    );
    for system in ["Android", "iPhone", "Windows", "macOS", "Linux", "Firefox"] {
        assert!(page.contains(system), "{system} is explained");
    }

    // Without TLS=auto there is no authority to offer.
    let plain = spawn_app(&[]).await;
    let r = plain.get("/ca.crt", crate::common::As::Nobody).await;
    assert_eq!(r.error(404), "not_found");
    assert!(plain.https.is_none());
}

/// A certificate for `names` signed by a fresh authority, as PEM files an operator has: (ca, cert, key).
fn operator_files(names: &[&str]) -> (String, String, String) {
    use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
    let ca_key = KeyPair::generate().unwrap();
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca_params, ca_key);
    let key = KeyPair::generate().unwrap();
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let cert = CertificateParams::new(names).unwrap().signed_by(&key, &issuer).unwrap();
    (ca.pem(), cert.pem(), key.serialize_pem())
}

/// The DER of a PEM certificate.
fn der_of(pem: &str) -> Vec<u8> {
    use rustls_pki_types::pem::PemObject;
    rustls_pki_types::CertificateDer::from_pem_slice(pem.as_bytes())
        .unwrap()
        .to_vec()
}

/// The DER of the certificate `client` is shown at `url`.
async fn shown(client: &Client, url: &str) -> Option<Vec<u8>> {
    let r = client.get(url).send().await.ok()?;
    r.extensions().get::<TlsInfo>()?.peer_certificate().map(<[u8]>::to_vec)
}

#[tokio::test]
async fn tls_files_reloads_a_replaced_certificate_without_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let (cert_path, key_path) = (dir.path().join("cert.pem"), dir.path().join("key.pem"));
    let (first_ca, first_cert, first_key) = operator_files(&["localhost"]);
    std::fs::write(&cert_path, &first_cert).unwrap();
    std::fs::write(&key_path, &first_key).unwrap();
    let app = spawn_app(&[
        ("TLS", "files"),
        ("TLS_CERT_PATH", cert_path.to_str().unwrap()),
        ("TLS_KEY_PATH", key_path.to_str().unwrap()),
    ])
    .await;
    let https = app.https.unwrap();
    let url = format!("https://localhost:{}/health", https.port());
    let first = trusting(&first_ca, &["localhost"], https);
    assert_eq!(shown(&first, &url).await, Some(der_of(&first_cert)));

    // A half-written file is not taken: the certificate in use stays.
    let mut log = voice_gateway::logging::subscribe();
    std::fs::write(&cert_path, "-----BEGIN CERTIFICATE-----\nbroken").unwrap();
    let path = cert_path.display().to_string();
    crate::common::logged(&mut log, "the broken file refused", 10, |line| {
        line.contains("the old one stays") && line.contains(&path)
    })
    .await;
    assert!(
        shown(&first, &url).await.is_some(),
        "the old certificate is still served"
    );

    // The operator renews: the new certificate is served within seconds, on a new connection.
    let (second_ca, second_cert, second_key) = operator_files(&["localhost"]);
    std::fs::write(&key_path, &second_key).unwrap();
    std::fs::write(&cert_path, &second_cert).unwrap();
    let second = trusting(&second_ca, &["localhost"], https);
    let second_der = der_of(&second_cert);
    let served = eventually("the renewed certificate", 100, || async {
        shown(&second, &url).await.filter(|der| *der == second_der)
    })
    .await;
    assert_eq!(served, second_der);
}

/// pebble, the ACME test authority (Debian's `pebble`), on loopback: its directory URL, the PEM of the
/// authority its own HTTPS uses, its management address (which hands out the root it signs with), and the
/// running process. It checks HTTP-01 challenges on `http_port` of `localhost`.
async fn pebble(dir: &std::path::Path, http_port: u16) -> (String, std::path::PathBuf, String, tokio::process::Child) {
    let (ca, cert, key) = operator_files(&["127.0.0.1", "localhost"]);
    let ca_file = dir.join("pebble-ca.pem");
    std::fs::write(&ca_file, ca).unwrap();
    std::fs::write(dir.join("pebble.pem"), cert).unwrap();
    std::fs::write(dir.join("pebble.key"), key).unwrap();
    let (port, management, tls_port) = (free_port(), free_port(), free_port());
    let config = serde_json::json!({"pebble": {
        "listenAddress": format!("127.0.0.1:{port}"),
        "managementListenAddress": format!("127.0.0.1:{management}"),
        "certificate": dir.join("pebble.pem"), "privateKey": dir.join("pebble.key"),
        "httpPort": http_port, "tlsPort": tls_port, "ocspResponderURL": "",
        "externalAccountBindingRequired": false}});
    std::fs::write(dir.join("pebble.json"), config.to_string()).unwrap();
    let child = tokio::process::Command::new("pebble")
        .arg("-config")
        .arg(dir.join("pebble.json"))
        .env("PEBBLE_VA_NOSLEEP", "1")
        .env("PEBBLE_WFE_NONCEREJECT", "0")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("pebble runs (scripts/test.sh installs it)");
    eventually("pebble to listen", 20, || async {
        std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
    })
    .await;
    (
        format!("https://127.0.0.1:{port}/dir"),
        ca_file,
        format!("https://127.0.0.1:{management}"),
        child,
    )
}

#[tokio::test]
#[ignore = "needs pebble, the ACME test server; scripts/test.sh installs it and runs this"]
async fn tls_acme_obtains_a_certificate_from_the_authority_by_http_01() {
    let dir = tempfile::tempdir().unwrap();
    let (http, https) = (free_port(), free_port());
    let (directory, pebble_ca, management, _pebble) = pebble(dir.path(), http).await;
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let _gateway = tokio::process::Command::new(env!("CARGO_BIN_EXE_voice-gateway"))
        .current_dir(dir.path())
        .env("ENGINES", "off")
        .env("WYOMING_ZEROCONF", "false")
        .env("DB_PATH", data.join("gateway.db"))
        .env("LISTEN_ADDR", format!("127.0.0.1:{http}"))
        .env("HTTPS_ADDR", format!("127.0.0.1:{https}"))
        .env("TLS", "acme")
        .env("ACME_DOMAIN", "localhost")
        .env("ACME_EMAIL", "admin@example.org")
        .env("ACME_DIRECTORY", &directory)
        .env("ACME_DIRECTORY_CA", &pebble_ca)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();

    // The root pebble signs with (a new one each run), from its management interface.
    let pebble_client = trusting(
        &std::fs::read_to_string(&pebble_ca).unwrap(),
        &[],
        "127.0.0.1:1".parse().unwrap(),
    );
    let root = pebble_client
        .get(format!("{management}/roots/0"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    // HTTPS answers at once (with a stand-in); with the authority's certificate once the challenge is passed.
    let addr: SocketAddr = format!("127.0.0.1:{https}").parse().unwrap();
    let client = trusting(&root, &["localhost"], addr);
    let url = format!("https://localhost:{https}/health");
    let status = eventually("the ACME certificate", 60, || async {
        client.get(&url).send().await.ok().map(|r| r.status())
    })
    .await;
    assert_eq!(status, 200);
    // Kept for the next start: the certificate, and the account and key readable by the owner alone.
    let acme = data.join("tls/acme");
    assert!(acme.join("localhost.crt").exists());
    #[cfg(unix)]
    for secret in ["localhost.key", "account.json"] {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(acme.join(secret)).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "{secret} is readable by its owner alone");
    }
}

#[tokio::test]
async fn over_https_a_client_beyond_its_share_reads_a_503_with_retry_after_not_a_tls_error() {
    let app = spawn_app(&[
        ("TLS", "auto"),
        ("MAX_CONNECTIONS_PER_CLIENT", "1"),
        ("HEADER_READ_TIMEOUT_SECONDS", "30"),
    ])
    .await;
    let https = app.https.expect("HTTPS is on");
    let client = Client::builder()
        .tls_certs_only([Certificate::from_pem(authority(&app).as_bytes()).unwrap()])
        .resolve("localhost", https)
        .local_address("127.0.0.2".parse::<std::net::IpAddr>().unwrap())
        .pool_max_idle_per_host(0)
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let url = format!("https://localhost:{}/api/config", https.port());
    let hold = || async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind("127.0.0.2:0".parse().unwrap()).unwrap();
        socket.connect(https).await.unwrap()
    };
    let refused = |what: &'static str| {
        let (client, url) = (client.clone(), url.clone());
        async move {
            let r = client
                .get(&url)
                .send()
                .await
                .unwrap_or_else(|e| panic!("{what}: {e:?}"));
            assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE, "{what}");
            assert_eq!(r.headers()["retry-after"], "1", "{what}");
            let body: serde_json::Value = r.json().await.unwrap();
            assert_eq!(body["error"]["code"], "overloaded", "{what}");
        }
    };

    // The address's one place is taken by a connection that never starts its handshake.
    let mut held = vec![hold().await];
    eventually("the held connection to be counted", 5, || async {
        client.get(&url).send().await.is_ok_and(|r| r.status() == 503)
    })
    .await;
    refused("on the overflow lane").await;
    // Its four overflow places too: the next connection is refused at once, after the handshake.
    for _ in 0..4 {
        held.push(hold().await);
    }
    refused("beyond every limit").await;
    // Another address is served.
    let other = trusting(&authority(&app), &["localhost"], https);
    assert_eq!(other.get(&url).send().await.unwrap().status(), 200);
}
