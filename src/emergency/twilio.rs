//! SMS and calls through Twilio's REST API: `POST {TWILIO_API_URL}/2010-04-01/Accounts/{sid}/Messages.json`
//! (`To`, `From`, `Body`) and `…/Calls.json` (`To`, `From`, `Twiml`), with HTTP basic auth (account SID, token).

use secrecy::ExposeSecret;

use crate::config::EmergencySettings;

/// Sends one SMS.
pub async fn sms(http: &reqwest::Client, settings: &EmergencySettings, to: &str, body: &str) -> Result<(), String> {
    post(http, settings, "Messages.json", &[("To", to), ("Body", body)]).await
}

/// Places one call that says the TwiML.
pub async fn call(http: &reqwest::Client, settings: &EmergencySettings, to: &str, twiml: &str) -> Result<(), String> {
    post(http, settings, "Calls.json", &[("To", to), ("Twiml", twiml)]).await
}

/// Whether the account answers with its credentials (`GET …/Accounts/{sid}.json`), without sending anything.
pub async fn check(http: &reqwest::Client, settings: &EmergencySettings) -> Result<(), String> {
    let (Some(sid), Some(token)) = (&settings.twilio_account_sid, &settings.twilio_auth_token) else {
        return Err("Twilio is not configured".into());
    };
    let url = format!(
        "{}/2010-04-01/Accounts/{sid}.json",
        settings.twilio_api_url.trim_end_matches('/')
    );
    let response = http
        .get(url)
        .basic_auth(sid, Some(token.expose_secret()))
        .send()
        .await
        .map_err(|e| format!("Twilio could not be reached: {}", e.without_url()))?;
    match response.status() {
        s if s.is_success() => Ok(()),
        s if s == reqwest::StatusCode::UNAUTHORIZED => Err("Twilio refused the account's credentials (401)".into()),
        s => Err(format!("Twilio answered HTTP {}", s.as_u16())),
    }
}

async fn post(
    http: &reqwest::Client,
    settings: &EmergencySettings,
    resource: &str,
    fields: &[(&str, &str)],
) -> Result<(), String> {
    let (Some(sid), Some(token), Some(from)) = (
        &settings.twilio_account_sid,
        &settings.twilio_auth_token,
        &settings.twilio_from,
    ) else {
        return Err("Twilio is not configured".into());
    };
    let url = format!(
        "{}/2010-04-01/Accounts/{sid}/{resource}",
        settings.twilio_api_url.trim_end_matches('/')
    );
    let mut form: Vec<(&str, &str)> = vec![("From", from.as_str())];
    form.extend_from_slice(fields);
    let response = http
        .post(url)
        .basic_auth(sid, Some(token.expose_secret()))
        .form(&form)
        .send()
        .await
        .map_err(|e| {
            if e.is_timeout() {
                "Twilio timed out".to_string()
            } else {
                "Twilio unreachable".to_string()
            }
        })?;
    let status = response.status();
    if status.is_success() {
        return Ok(());
    }
    let body = response.text().await.unwrap_or_default();
    Err(format!(
        "Twilio answered {}: {}",
        status.as_u16(),
        body.chars().take(200).collect::<String>()
    ))
}
