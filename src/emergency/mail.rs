//! The alarm e-mail through the SMTP relay (`SMTP_*`): one message to every recipient, body in base64 so that
//! every relay carries its umlauts unchanged.

use std::time::Duration;

use lettre::message::header::{ContentTransferEncoding, ContentType};
use lettre::message::{Mailbox, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use secrecy::ExposeSecret;

use crate::config::SmtpSettings;

/// Sends the mail; the error is a short reason for the log and the event record.
pub async fn send(
    smtp: &SmtpSettings,
    to: &[String],
    subject: &str,
    body: String,
    timeout: Duration,
) -> Result<(), String> {
    let host = smtp.host.as_deref().ok_or("SMTP_HOST is not set")?;
    let from: Mailbox = smtp.from.parse().map_err(|e| format!("SMTP_FROM: {e}"))?;
    let mut builder = Message::builder().from(from).subject(subject);
    for address in to {
        builder = builder.to(address.parse().map_err(|e| format!("recipient {address}: {e}"))?);
    }
    let part = SinglePart::builder()
        .header(ContentType::TEXT_PLAIN)
        .header(ContentTransferEncoding::Base64)
        .body(body);
    let message = builder.singlepart(part).map_err(|e| e.to_string())?;
    transport(smtp, host, timeout)?
        .send(message)
        .await
        .map(|_| ())
        .map_err(|e| format!("SMTP: {e}"))
}

/// Whether the relay takes mail now, without sending any: connects, says hello, encrypts and logs in as a
/// send would, then `NOOP` and `QUIT`.
pub async fn check(smtp: &SmtpSettings, timeout: Duration) -> Result<(), String> {
    let host = smtp.host.as_deref().ok_or("SMTP_HOST is not set")?;
    match transport(smtp, host, timeout)?.test_connection().await {
        Ok(true) => Ok(()),
        Ok(false) => Err("SMTP: the server did not answer NOOP".into()),
        Err(e) => Err(format!("SMTP: {e}")),
    }
}

/// The relay's transport as `SMTP_*` describe it.
fn transport(smtp: &SmtpSettings, host: &str, timeout: Duration) -> Result<AsyncSmtpTransport<Tokio1Executor>, String> {
    let mut transport = match smtp.security.as_str() {
        "tls" => AsyncSmtpTransport::<Tokio1Executor>::relay(host).map_err(|e| e.to_string())?,
        "starttls" => AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(host).map_err(|e| e.to_string())?,
        _ => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host),
    }
    .port(smtp.port)
    .timeout(Some(timeout));
    if let (Some(user), Some(password)) = (&smtp.user, &smtp.password) {
        transport = transport.credentials(Credentials::new(user.clone(), password.expose_secret().to_string()));
    }
    Ok(transport.build())
}
