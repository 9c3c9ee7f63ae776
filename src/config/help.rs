//! The help-function area: mail relay, SMS and calls, webhook, reminders.

use secrecy::SecretString;

use super::env::{ConfigError, Source, Var};

/// Channels of the help function besides e-mail.
#[derive(Debug)]
pub struct EmergencySettings {
    /// `TWILIO_API_URL`: base address of the Twilio REST API.
    pub twilio_api_url: String,
    /// `TWILIO_ACCOUNT_SID`.
    pub twilio_account_sid: Option<String>,
    /// `TWILIO_AUTH_TOKEN`.
    pub twilio_auth_token: Option<SecretString>,
    /// `TWILIO_FROM_NUMBER`: the sending number, international format.
    pub twilio_from: Option<String>,
    /// `EMERGENCY_WEBHOOK_URL`: an address told of every alarm (best effort).
    pub webhook_url: Option<String>,
    /// `EMERGENCY_CHANNEL_TIMEOUT_SECONDS`: longest any one channel may take.
    pub channel_timeout_secs: u64,
    /// `EMERGENCY_ESCALATION_MINUTES` in milliseconds: a reminder goes out when no contact confirmed an
    /// alarm within this time; 0 = no reminders.
    pub escalation_ms: i64,
    /// `EMERGENCY_CONTACT_EMAIL`: a recipient of every alarm.
    pub contact_email: Option<String>,
    /// `HELP_CHECK_SECONDS`: how often the help path's channels are checked (and once at start).
    pub check_secs: u64,
    /// `OPERATOR_NOTICE_TO`: e-mail addresses and phone numbers (`+…`) told when a check of the help path
    /// starts failing or works again.
    pub operator_notice_to: Vec<String>,
    /// `PUBLIC_URL`: the address contacts reach the gateway at, for acknowledgement links; without it the
    /// address the help button was pressed at.
    pub public_url: Option<String>,
    /// `EMERGENCY_CALL_VIA`: the lines alarm calls go over; `None` when neither Twilio nor the house's
    /// telephone is set up.
    pub call_via: Option<CallVia>,
}

/// The lines an alarm call goes over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallVia {
    /// Twilio's REST API.
    Twilio,
    /// The house's own telephone (`SIP_REGISTRAR`).
    Sip,
    /// The house's telephone first, Twilio when it does not reach the contact.
    Both,
}

impl CallVia {
    pub fn twilio(self) -> bool {
        self != CallVia::Sip
    }

    pub fn sip(self) -> bool {
        self != CallVia::Twilio
    }
}

impl EmergencySettings {
    /// Whether SMS and calls can be sent.
    pub fn twilio_configured(&self) -> bool {
        self.twilio_account_sid.is_some() && self.twilio_auth_token.is_some() && self.twilio_from.is_some()
    }
}

impl EmergencySettings {
    /// Reads the area; `sip` says whether the house's telephone registers (it can call out).
    pub(super) fn read(src: &Source, sip: bool) -> Result<Self, ConfigError> {
        let twilio_account_sid = src
            .var(
                "TWILIO_ACCOUNT_SID",
                "Twilio account; with the token and number it enables SMS and calls",
            )
            .raw();
        let twilio_auth_token = src.var("TWILIO_AUTH_TOKEN", "Twilio auth token").secret();
        let twilio_from = src
            .var(
                "TWILIO_FROM_NUMBER",
                "the Twilio number alarms are sent and called from (+4930…)",
            )
            .raw();
        let twilio = twilio_account_sid.is_some() && twilio_auth_token.is_some() && twilio_from.is_some();
        Ok(Self {
            call_via: call_via(
                src.var(
                    "EMERGENCY_CALL_VIA",
                    "the lines alarm calls go over: `twilio`, `sip` (the house's telephone, SIP_REGISTRAR) or `both` (the house's telephone first, Twilio when it does not reach the contact)",
                )
                .shown("whichever is set up (both when both are)"),
                twilio,
                sip,
            )?,
            twilio_account_sid,
            twilio_auth_token,
            twilio_from,
            check_secs: src
                .var(
                    "HELP_CHECK_SECONDS",
                    "how often the help function's channels are checked without sending anything (mail relay login, Twilio account, webhook host), and once at start",
                )
                .ranged(900, 86_400)?
                .max(1)
                .into(),
            operator_notice_to: src
                .var(
                    "OPERATOR_NOTICE_TO",
                    "comma list of e-mail addresses and phone numbers (+49…) told when a check of the help function's channels starts failing or works again (by a channel that still works)",
                )
                .list(),
            contact_email: src
                .var(
                    "EMERGENCY_CONTACT_EMAIL",
                    "recipient of every alarm, besides the user's own contacts",
                )
                .raw(),
            twilio_api_url: src
                .var(
                    "TWILIO_API_URL",
                    "base address of the Twilio REST API (SMS and calls of the help function)",
                )
                .string("https://api.twilio.com"),
            webhook_url: src
                .var(
                    "EMERGENCY_WEBHOOK_URL",
                    "address that receives a JSON POST of every alarm (best effort)",
                )
                .raw(),
            channel_timeout_secs: src
                .var(
                    "EMERGENCY_CHANNEL_TIMEOUT_SECONDS",
                    "longest one alarm channel (mail, each SMS or call, webhook) may take",
                )
                .ranged(15, 300)?
                .max(1)
                .into(),
            escalation_ms: escalation_ms(src.var(
                "EMERGENCY_ESCALATION_MINUTES",
                "a reminder goes out on every channel when no contact confirmed an alarm within this time (0 = off)",
            ))?,
            public_url: public_url(src.var(
                "PUBLIC_URL",
                "address contacts reach the gateway at (acknowledgement links); else the address help was pressed at",
            ))?,
        })
    }
}

/// The SMTP relay.
#[derive(Debug)]
pub struct SmtpSettings {
    /// `SMTP_HOST`; without it no mail is sent.
    pub host: Option<String>,
    /// `SMTP_PORT`.
    pub port: u16,
    /// `SMTP_USER`.
    pub user: Option<String>,
    /// `SMTP_PASSWORD`.
    pub password: Option<SecretString>,
    /// `SMTP_FROM`.
    pub from: String,
    /// `SMTP_SECURITY`: `none`, `starttls` or `tls`.
    pub security: String,
}

/// `SMTP_*`: the port's default follows the security.
pub(super) fn smtp(src: &Source) -> Result<SmtpSettings, ConfigError> {
    let security = src
        .var("SMTP_SECURITY", "`none`, `starttls` or `tls`")
        .choice("starttls", &["none", "starttls", "tls"])?;
    let port = match security.as_str() {
        "tls" => 465,
        "none" => 25,
        _ => 587,
    };
    Ok(SmtpSettings {
        host: src.var("SMTP_HOST", "mail relay; without it no mail is sent").raw(),
        port: src
            .var("SMTP_PORT", "mail relay port")
            .shown("587 (starttls), 465 (tls), 25 (none)")
            .number(port)?,
        user: src.var("SMTP_USER", "mail relay login").raw(),
        password: src.var("SMTP_PASSWORD", "mail relay password").secret(),
        from: src
            .var("SMTP_FROM", "sender address of alarms")
            .string("voice-gateway@localhost"),
        security,
    })
}

/// `EMERGENCY_ESCALATION_MINUTES`: 0 = off, fractions allowed (0.5 = 30 s), at most a day.
fn escalation_ms(var: Var) -> Result<i64, ConfigError> {
    let minutes: f64 = var.number(3.0)?;
    if !(0.0..=1440.0).contains(&minutes) {
        return Err(var.error(format!("{minutes} is not between 0 and 1440 minutes")));
    }
    Ok((minutes * 60_000.0).round() as i64)
}

/// `EMERGENCY_CALL_VIA`: the lines named must be set up; unset, whichever are.
fn call_via(var: Var, twilio: bool, sip: bool) -> Result<Option<CallVia>, ConfigError> {
    let Some(text) = var.raw() else {
        return Ok(match (twilio, sip) {
            (true, true) => Some(CallVia::Both),
            (true, false) => Some(CallVia::Twilio),
            (false, true) => Some(CallVia::Sip),
            (false, false) => None,
        });
    };
    let via = match text.trim() {
        "twilio" => CallVia::Twilio,
        "sip" => CallVia::Sip,
        "both" => CallVia::Both,
        other => return Err(var.error(format!("{other:?} is not one of twilio, sip, both"))),
    };
    if via.twilio() && !twilio {
        return Err(var.error(format!(
            "{text} needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM_NUMBER"
        )));
    }
    if via.sip() && !sip {
        return Err(var.error(format!("{text} needs SIP_REGISTRAR (the house's telephone)")));
    }
    Ok(Some(via))
}

/// `PUBLIC_URL`: an http(s) address without a trailing slash.
fn public_url(var: Var) -> Result<Option<String>, ConfigError> {
    let Some(url) = var.raw() else {
        return Ok(None);
    };
    match reqwest::Url::parse(&url) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") && parsed.host_str().is_some() => {
            Ok(Some(url.trim_end_matches('/').to_string()))
        }
        _ => Err(var.error(format!("{url:?} is not an http(s) address"))),
    }
}
