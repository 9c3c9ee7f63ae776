//! The manual help function: claim the cooldown window atomically, send the alarm on every channel at once
//! (e-mail, SMS, call, webhook), each with its own timeout, decide the outcome, log it, answer in the person's
//! language. It needs no STT, LLM or TTS provider and ignores the daily quota.

pub mod dossier;
mod mail;
mod twilio;

use std::future::Future;
use std::time::Duration;

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::app::App;
use crate::config::runtime::Effective;
use crate::error::Result;
use crate::store::emergency::Claim;
use crate::store::now_ms;
use crate::store::users::User;
use dossier::{Dossier, Position, cooldown_message, message};

/// What the caller sent with the press.
#[derive(Debug, Clone, Default)]
pub struct Press {
    /// The position fix, if the device had one.
    pub fix: Option<(f64, f64, Option<f64>, Option<i64>)>,
    /// Why the device has no fix.
    pub geo_error: Option<String>,
    /// Whether the device is a mobile one.
    pub mobile: Option<bool>,
    /// The device's platform.
    pub platform: Option<String>,
}

/// One delivery attempt.
#[derive(Debug, Clone, Serialize)]
pub struct Delivery {
    /// `email`, `sms`, `call` or `webhook`.
    pub channel: &'static str,
    /// Recipient (address, number or URL host).
    pub to: String,
    /// Whether the channel accepted it.
    pub delivered: bool,
    /// Why not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The person's recipients by channel.
struct Recipients {
    emails: Vec<String>,
    phones: Vec<String>,
}

fn list(prefs: &Map<String, Value>, key: &str) -> Vec<String> {
    prefs
        .get(key)
        .and_then(Value::as_array)
        .map(|l| l.iter().filter_map(Value::as_str).map(String::from).collect())
        .unwrap_or_default()
}

fn recipients(app: &App, prefs: &Map<String, Value>) -> Recipients {
    let mut emails = Vec::new();
    if app.settings.smtp.host.is_some() {
        emails = list(prefs, "emergency_contacts");
        if let Some(global) = &app.settings.emergency_contact_email
            && !emails.iter().any(|e| e.eq_ignore_ascii_case(global))
        {
            emails.push(global.clone());
        }
    }
    let phones = if app.settings.emergency.twilio_configured() {
        list(prefs, "emergency_contact_phones")
    } else {
        Vec::new()
    };
    Recipients { emails, phones }
}

/// Whether a press would reach anybody: a configured channel with a recipient (the webhook does not count;
/// it tells a system, not a person).
pub fn notify_ready(app: &App, prefs: &Map<String, Value>) -> bool {
    let r = recipients(app, prefs);
    !r.emails.is_empty() || !r.phones.is_empty()
}

/// The cooldown in minutes: the user's pref (`""` = global, `"0"` = off), else the global setting.
pub fn cooldown_minutes(prefs: &Map<String, Value>, eff: &Effective) -> i64 {
    let own = prefs
        .get("emergency_cooldown_minutes")
        .and_then(|v| {
            v.as_str()
                .map(str::to_string)
                .or_else(|| v.as_u64().map(|n| n.to_string()))
        })
        .filter(|s| !s.trim().is_empty())
        .and_then(|s| s.trim().parse::<i64>().ok());
    own.unwrap_or_else(|| i64::from(eff.count("emergency_cooldown_minutes")))
}

fn language(app: &App, prefs: &Map<String, Value>) -> String {
    prefs
        .get("language")
        .and_then(Value::as_str)
        .map(String::from)
        .unwrap_or_else(|| app.settings.default_language.clone())
}

/// `GET /api/emergency/status`.
pub async fn status(app: &App, user: &User) -> Result<Value> {
    let eff = app.runtime.effective().await?;
    let prefs = app.store.prefs(&user.id).await?;
    let window_ms = cooldown_minutes(&prefs, &eff) * 60_000;
    let last = app.store.last_emergency(&user.id).await?;
    let now = now_ms();
    let (minutes_ago, remaining) = match last {
        Some(at) => ((now - at) / 60_000, ((at + window_ms - now).max(0) + 999) / 1000),
        None => (-1, 0),
    };
    Ok(json!({
        "cooldown_active": remaining > 0,
        "minutes_ago": last.map(|_| minutes_ago),
        "remaining_seconds": remaining,
        "cooldown_minutes": window_ms / 60_000,
        "notify_ready": notify_ready(app, &prefs),
    }))
}

/// `POST /api/emergency`: one press.
#[tracing::instrument(skip_all, fields(user = %user.name))]
pub async fn raise(app: &App, user: &User, press: Press) -> Result<Value> {
    let eff = app.runtime.effective().await?;
    let prefs = app.store.prefs(&user.id).await?;
    let lang = language(app, &prefs);
    let ready = notify_ready(app, &prefs);
    let window_ms = cooldown_minutes(&prefs, &eff) * 60_000;
    if let Claim::CoolingDown(at) = app.store.claim_emergency(&user.id, window_ms).await? {
        let now = now_ms();
        let minutes_ago = (now - at) / 60_000;
        // Say what really happened to the alarm that opened the window, never a blanket "notified".
        let opened = app.store.alarm_since(&user.id, at).await?;
        let reached = opened.as_ref().map(|e| reached(&e.details));
        return Ok(json!({
            "status": "cooldown",
            "notified": [],
            "notify_ready": ready,
            "minutes_ago": minutes_ago,
            "remaining_seconds": ((at + window_ms - now).max(0) + 999) / 1000,
            "message": cooldown_message(&lang, minutes_ago, reached.as_deref()),
        }));
    }
    app.metrics.incr("emergency_total", &[]);
    let dossier = build_dossier(user, &prefs, &lang, &press);
    let deliveries = deliver(app, user, &prefs, &dossier).await;
    let people: Vec<&Delivery> = deliveries.iter().filter(|d| d.channel != "webhook").collect();
    let status = if people.iter().any(|d| d.delivered) {
        "alerted"
    } else if people.is_empty() {
        "no_recipients"
    } else {
        "delivery_failed"
    };
    if status != "alerted" {
        tracing::warn!(
            status,
            "emergency alarm reached nobody; the person was told to call 112"
        );
    } else {
        tracing::info!(status, channels = people.len(), "emergency alarm sent");
    }
    let details = json!({"deliveries": deliveries, "position": !matches!(dossier.position, Position::NoConsent)});
    app.store.log_emergency(&user.id, status, &details.to_string()).await?;
    Ok(json!({
        "status": status,
        "notified": people,
        "notify_ready": ready,
        "minutes_ago": null,
        "remaining_seconds": window_ms / 1000,
        "message": message(&lang, status),
    }))
}

/// The people an alarm reached, as "channel to" pairs, from its logged details.
fn reached(details: &str) -> Vec<(String, String)> {
    let details: Value = serde_json::from_str(details).unwrap_or(Value::Null);
    details["deliveries"]
        .as_array()
        .map(|list| {
            list.iter()
                .filter(|d| d["delivered"] == true && d["channel"] != "webhook")
                .filter_map(|d| Some((d["channel"].as_str()?.to_string(), d["to"].as_str()?.to_string())))
                .collect()
        })
        .unwrap_or_default()
}

fn build_dossier(user: &User, prefs: &Map<String, Value>, lang: &str, press: &Press) -> Dossier {
    let mut dossier = Dossier::from_prefs(prefs, &user.display_name, lang);
    let consent = prefs.get("location_consent").and_then(Value::as_bool).unwrap_or(false);
    dossier.position = match (&press.fix, &press.geo_error) {
        _ if !consent => Position::NoConsent,
        (Some((latitude, longitude, accuracy, timestamp)), _) => Position::Fix {
            latitude: *latitude,
            longitude: *longitude,
            accuracy: *accuracy,
            timestamp: *timestamp,
        },
        (None, Some(reason)) => Position::Unavailable(reason.clone()),
        (None, None) => Position::Unavailable(if lang == "de" { "keine Angabe" } else { "not reported" }.into()),
    };
    let kind = match press.mobile {
        Some(true) => {
            if lang == "de" {
                "Mobilgerät"
            } else {
                "mobile device"
            }
        }
        Some(false) => {
            if lang == "de" {
                "Computer"
            } else {
                "computer"
            }
        }
        None => {
            if lang == "de" {
                "unbekanntes Gerät"
            } else {
                "unknown device"
            }
        }
    };
    dossier.device = match &press.platform {
        Some(p) if !p.is_empty() => format!("{kind} ({p})"),
        _ => kind.to_string(),
    };
    dossier
}

/// Tries every channel at once; each has its own timeout, so one slow channel delays no other.
async fn deliver(app: &App, user: &User, prefs: &Map<String, Value>, dossier: &Dossier) -> Vec<Delivery> {
    let timeout = Duration::from_secs(app.settings.emergency.channel_timeout_secs);
    let r = recipients(app, prefs);
    // The shared client; `within` bounds each channel by its own timeout.
    let http = &app.providers.http;
    let settings = &app.settings.emergency;
    let mut jobs: Vec<std::pin::Pin<Box<dyn Future<Output = Vec<Delivery>> + Send + '_>>> = Vec::new();
    if !r.emails.is_empty() {
        let emails = r.emails.clone();
        let (subject, body) = (dossier.subject(), dossier.email_body());
        jobs.push(Box::pin(async move {
            let result = within(
                timeout,
                mail::send(&app.settings.smtp, &emails, &subject, body, timeout),
            )
            .await;
            emails.into_iter().map(|to| outcome("email", to, &result)).collect()
        }));
    }
    for phone in &r.phones {
        let (sms_http, sms, phone_sms) = (http.clone(), dossier.sms(), phone.clone());
        jobs.push(Box::pin(async move {
            let result = within(timeout, twilio::sms(&sms_http, settings, &phone_sms, &sms)).await;
            vec![outcome("sms", phone_sms, &result)]
        }));
        let (call_http, twiml, phone_call) = (http.clone(), dossier.twiml(), phone.clone());
        jobs.push(Box::pin(async move {
            let result = within(timeout, twilio::call(&call_http, settings, &phone_call, &twiml)).await;
            vec![outcome("call", phone_call, &result)]
        }));
    }
    if let Some(url) = &settings.webhook_url {
        let payload = webhook_payload(user, dossier);
        let http = http.clone();
        jobs.push(Box::pin(async move {
            let call = async {
                let response = http.post(url).json(&payload).send().await.map_err(|e| e.to_string())?;
                if response.status().is_success() {
                    Ok(())
                } else {
                    Err(format!("answered {}", response.status().as_u16()))
                }
            };
            let result = within(timeout, call).await;
            if let Err(err) = &result {
                tracing::warn!(error = %err, "emergency webhook failed (best effort)");
            }
            let host = reqwest::Url::parse(url)
                .ok()
                .and_then(|u| u.host_str().map(String::from))
                .unwrap_or_default();
            vec![outcome("webhook", host, &result)]
        }));
    }
    let results: Vec<Delivery> = futures_util::future::join_all(jobs)
        .await
        .into_iter()
        .flatten()
        .collect();
    for d in results.iter().filter(|d| !d.delivered) {
        tracing::warn!(channel = d.channel, to = %d.to, error = d.error.as_deref().unwrap_or(""), "alarm channel failed");
    }
    results
}

async fn within(timeout: Duration, job: impl Future<Output = Result<(), String>>) -> Result<(), String> {
    tokio::time::timeout(timeout, job)
        .await
        .unwrap_or_else(|_| Err(format!("no answer within {} s", timeout.as_secs())))
}

fn outcome(channel: &'static str, to: String, result: &Result<(), String>) -> Delivery {
    Delivery {
        channel,
        to,
        delivered: result.is_ok(),
        error: result.as_ref().err().cloned(),
    }
}

/// The webhook's JSON: who, when, where (only with consent), and what the person's profile says.
fn webhook_payload(user: &User, d: &Dossier) -> Value {
    let position = match &d.position {
        Position::Fix {
            latitude,
            longitude,
            accuracy,
            timestamp,
        } => json!({
            "latitude": latitude, "longitude": longitude, "accuracy": accuracy, "timestamp": timestamp,
            "map": d.map_link(),
        }),
        Position::Unavailable(reason) => json!({"unavailable": reason}),
        Position::NoConsent => Value::Null,
    };
    json!({
        "event": "emergency",
        "at": now_ms(),
        "user": {"id": user.id, "name": user.name, "display_name": user.display_name},
        "person": {"name": d.name, "address": d.address(), "phone_mobile": d.phone_mobile,
            "phone_landline": d.phone_landline},
        "position": position,
        "device": d.device,
    })
}
