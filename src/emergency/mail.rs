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
    transport
        .build()
        .send(message)
        .await
        .map(|_| ())
        .map_err(|e| format!("SMTP: {e}"))
}
