//! The local certificate authority of `TLS=auto`, for the devices of the house: `GET /ca.crt` (the certificate
//! in DER, the form phones, Windows and macOS offer to install), `GET /ca.pem` (the same in PEM, which Linux's
//! `update-ca-certificates` wants) and `GET /ca` (how to trust it on each system, with its fingerprint to
//! compare). Public: the certificate is no secret, and a phone must fetch it before it can log in over HTTPS.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{Html, IntoResponse, Response};
use rustls_pki_types::CertificateDer;
use rustls_pki_types::pem::PemObject;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::openapi::PUBLIC;
use crate::app::AppState;
use crate::error::error_response;
use crate::tls::{data_folder, local_ca};

/// The two pages, and the answers to `TLS=acme`'s challenges.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(certificate))
        .routes(routes!(certificate_pem))
        .routes(routes!(explained))
        .routes(routes!(acme_challenge))
}

/// The HTTP-01 answer of a `TLS=acme` challenge under way: how the ACME authority checks that this gateway
/// serves the domain.
#[utoipa::path(get, path = "/.well-known/acme-challenge/{token}", tag = PUBLIC,
    params(("token" = String, Path, description = "the challenge's token")),
    responses((status = 200, description = "the key authorization", content_type = "text/plain"),
        (status = 404, description = "no such challenge under way")))]
async fn acme_challenge(Path(token): Path<String>) -> Response {
    match crate::tls::acme::challenge(&token) {
        Some(answer) => ([(CONTENT_TYPE, "text/plain"), (CACHE_CONTROL, "no-store")], answer).into_response(),
        None => error_response(StatusCode::NOT_FOUND, "not_found", "no such ACME challenge"),
    }
}

/// The authority's certificate as PEM, when `TLS=auto` made one.
async fn authority(app: &AppState) -> Option<String> {
    let file = local_ca::folder(&data_folder(&app.settings)).join("ca.crt");
    tokio::fs::read_to_string(file).await.ok()
}

fn no_authority() -> Response {
    error_response(
        StatusCode::NOT_FOUND,
        "not_found",
        "this gateway has no local certificate authority (TLS=auto makes one)",
    )
}

/// The local certificate authority's certificate in DER as `application/x-x509-ca-cert`, the type Android
/// and iOS offer to install.
#[utoipa::path(get, path = "/ca.crt", tag = PUBLIC, responses(
    (status = 200, description = "the certificate (DER)", content_type = "application/x-x509-ca-cert"),
    (status = 404, description = "no local certificate authority (TLS is not `auto`)")))]
async fn certificate(State(app): State<AppState>) -> Response {
    let Some(der) = authority(&app)
        .await
        .and_then(|pem| CertificateDer::from_pem_slice(pem.as_bytes()).ok())
    else {
        return no_authority();
    };
    (
        [
            (CONTENT_TYPE, "application/x-x509-ca-cert"),
            (CONTENT_DISPOSITION, "attachment; filename=\"voice-gateway-ca.crt\""),
            (CACHE_CONTROL, "no-cache"),
        ],
        der.to_vec(),
    )
        .into_response()
}

/// The local certificate authority's certificate in PEM, for Linux's system store and Firefox.
#[utoipa::path(get, path = "/ca.pem", tag = PUBLIC, responses(
    (status = 200, description = "the certificate (PEM)", content_type = "application/x-pem-file"),
    (status = 404, description = "no local certificate authority (TLS is not `auto`)")))]
async fn certificate_pem(State(app): State<AppState>) -> Response {
    let Some(pem) = authority(&app).await else {
        return no_authority();
    };
    (
        [
            (CONTENT_TYPE, "application/x-pem-file"),
            (CONTENT_DISPOSITION, "attachment; filename=\"voice-gateway-ca.pem\""),
            (CACHE_CONTROL, "no-cache"),
        ],
        pem,
    )
        .into_response()
}

/// How to trust the local certificate authority on each system, with its SHA-256 fingerprint.
#[utoipa::path(get, path = "/ca", tag = PUBLIC, responses(
    (status = 200, description = "the page", content_type = "text/html"),
    (status = 404, description = "no local certificate authority (TLS is not `auto`)")))]
async fn explained(State(app): State<AppState>) -> Response {
    let Some(print) = authority(&app).await.as_deref().and_then(local_ca::fingerprint) else {
        return no_authority();
    };
    Html(PAGE.replace("{fingerprint}", &print)).into_response()
}

const PAGE: &str = r##"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trust this voice assistant on your device</title>
<link rel="manifest" href="/manifest.webmanifest">
<meta name="theme-color" content="#1f5f8b">
<link rel="stylesheet" href="/ui/ack.css">
</head>
<body>
<main>
<h1>Trust this voice assistant on your device</h1>
<p>The assistant uses its own certificate authority, made on this machine, so that phones and tablets can use
the microphone over HTTPS on your home network. Install it once on each device.</p>
<p><a href="/ca.crt" download>Download the certificate (voice-gateway-ca.crt)</a> for a phone, Windows or macOS;
<a href="/ca.pem" download>the same as PEM (voice-gateway-ca.pem)</a> for Linux and Firefox.</p>
<p>Before trusting it, compare its SHA-256 fingerprint with the one your device shows:</p>
<p><code id="fingerprint">{fingerprint}</code></p>
<h2>Android</h2>
<ol>
<li>Download the certificate above.</li>
<li>Open Settings, Security (or Security and privacy), More security settings, Encryption and credentials,
Install a certificate, CA certificate.</li>
<li>Choose "Install anyway" and pick the downloaded file.</li>
</ol>
<h2>iPhone and iPad</h2>
<ol>
<li>Open this page in Safari and download the certificate; allow the profile download.</li>
<li>Open Settings, General, VPN and Device Management, the downloaded profile, and install it.</li>
<li>Open Settings, General, About, Certificate Trust Settings, and switch on full trust for
"voice-gateway local CA".</li>
</ol>
<h2>Windows</h2>
<ol>
<li>Download the certificate and open it; choose Install Certificate.</li>
<li>Choose Current User, then "Place all certificates in the following store", Trusted Root Certification
Authorities, and finish.</li>
</ol>
<h2>macOS</h2>
<ol>
<li>Download the certificate and open it: Keychain Access adds it to the login keychain.</li>
<li>Open the certificate there, expand Trust, and set "When using this certificate" to Always Trust.</li>
</ol>
<h2>Linux</h2>
<ol>
<li>Chromium and Chrome: Settings, Privacy and security, Security, Manage certificates, Authorities, Import
either file; tick "Trust this certificate for identifying websites".</li>
<li>For the whole system (Debian, Ubuntu), with the PEM file (the tool takes PEM only, named <code>.crt</code>):
<code>sudo cp voice-gateway-ca.pem /usr/local/share/ca-certificates/voice-gateway-ca.crt</code> and
<code>sudo update-ca-certificates</code>.</li>
</ol>
<h2>Firefox (every system)</h2>
<ol>
<li>Firefox keeps its own list: Settings, Privacy and Security, Certificates, View Certificates, Authorities,
Import the PEM file; tick "Trust this CA to identify websites".</li>
</ol>
<p>Then open the assistant's https address again; the microphone works there.</p>
</main>
</body>
</html>
"##;
