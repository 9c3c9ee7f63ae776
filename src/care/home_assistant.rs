//! Reminders and the check-in announced on the person's Assist satellite in Home Assistant (`home_assistant`):
//! `POST {HA_URL}/api/services/assist_satellite/announce` with `{"entity_id": <ha_satellite>, "message": …}`
//! and the long-lived access token as a bearer token (Home Assistant's REST API). The satellite speaks the
//! message with its own pipeline's voice; an announcement cannot be confirmed, so a reminder to confirm comes
//! again as on the page.

use std::time::Duration;

use secrecy::ExposeSecret;

use crate::app::App;

/// How long Home Assistant may take to take the announcement.
const TIMEOUT: Duration = Duration::from_secs(10);

/// Announces `message` on `satellite`: done, or why not.
pub async fn announce(app: &App, satellite: &str, message: &str) -> Result<(), String> {
    let care = &app.settings.care;
    let (Some(url), Some(token)) = (&care.ha_url, &care.ha_token) else {
        return Err("Home Assistant is not set up (HA_URL, HA_TOKEN)".into());
    };
    let body = serde_json::json!({"entity_id": satellite, "message": message});
    let response = app
        .providers
        .http
        .post(format!("{url}/api/services/assist_satellite/announce"))
        .bearer_auth(token.expose_secret())
        .json(&body)
        .timeout(TIMEOUT)
        .send()
        .await
        .map_err(|e| {
            if e.is_timeout() {
                "Home Assistant timed out".to_string()
            } else {
                "Home Assistant could not be reached".to_string()
            }
        })?;
    match response.status().as_u16() {
        200..=299 => Ok(()),
        401 | 403 => Err("Home Assistant refused the token (HA_TOKEN)".into()),
        status => {
            let text = response.text().await.unwrap_or_default();
            Err(format!(
                "Home Assistant answered {status}: {}",
                text.chars().take(200).collect::<String>()
            ))
        }
    }
}
