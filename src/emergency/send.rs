//! Sending an alarm on its channels: one e-mail per address, one SMS and one call per phone number, the
//! webhook; all at once, each within its own timeout, each contact with a fresh acknowledgement link, each
//! delivery recorded as it ends.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use futures_util::stream::FuturesUnordered;
use futures_util::{FutureExt, StreamExt};

use serde::Serialize;

use super::dossier::{Dossier, Personal, Position};
use super::{mail, twilio};
use crate::app::App;
use crate::auth::token;
use crate::lines::{AlarmCall, Confirm};
use crate::store::emergency::Alarm;
use crate::store::now_ms;
use crate::store::users::User;

/// How long an acknowledgement link works.
pub const ACK_VALID_MS: i64 = 24 * 60 * 60 * 1000;

/// A channel and recipient.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// `email`, `sms`, `call` or `webhook`.
    pub channel: &'static str,
    /// Address, number or (for the webhook) the URL's host.
    pub to: String,
}

impl Target {
    /// A target from its stored names; `None` for a channel this build does not know.
    pub fn from_stored(channel: &str, to: &str) -> Option<Self> {
        let channel = ["email", "sms", "call", "webhook"]
            .into_iter()
            .find(|c| *c == channel)?;
        Some(Self {
            channel,
            to: to.to_string(),
        })
    }

    /// Whether the channel reaches a person (the webhook tells a system).
    pub fn is_person(&self) -> bool {
        self.channel != "webhook"
    }
}

/// One delivery attempt.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
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
    /// Still being sent when the answer was given (a telephone still ringing); the emergency log and the
    /// alarm's deliveries record how it ended.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub sending: bool,
}

/// A contact's acknowledgement: the link for e-mail and SMS, the callback of the call (Twilio) and its id
/// (the house's telephone confirms it by id).
#[derive(Clone)]
struct Ack {
    link: String,
    callback: String,
    id: String,
}

type Job = Pin<Box<dyn Future<Output = Delivery> + Send>>;

/// How long an answer waits, once a person was reached, for the messages (e-mail, SMS, webhook) still being
/// sent: enough for an e-mail or an SMS. A call still ringing is not waited for.
const ONE_MOMENT: Duration = Duration::from_secs(1);

/// An alarm being sent: every channel at once, each delivery recorded the moment it ends. The alarm counts as
/// `alerted` as soon as one person was reached, so the person in need hears so then, not when the slowest
/// telephone gave up ringing.
pub struct Sending {
    app: Arc<App>,
    alarm_id: String,
    targets: Vec<Target>,
    running: FuturesUnordered<Job>,
    ended: Vec<Delivery>,
}

impl Sending {
    /// Starts sending the alarm to the targets.
    pub async fn start(
        app: &App,
        user: &User,
        alarm: &Alarm,
        dossier: &Dossier,
        targets: &[Target],
        reminder: Option<i64>,
    ) -> Self {
        let app = app.shared();
        let timeout = Duration::from_secs(app.settings.emergency.channel_timeout_secs);
        let acks = issue_acks(&app, alarm, targets).await;
        let person = Arc::new((user.clone(), alarm.lang.clone(), dossier.clone()));
        let running = targets
            .iter()
            .map(|target| {
                let ack = acks.get(target.to.as_str()).filter(|_| target.is_person()).cloned();
                job(app.clone(), person.clone(), target.clone(), ack, reminder, timeout)
            })
            .collect();
        Self {
            app,
            alarm_id: alarm.id.clone(),
            targets: targets.to_vec(),
            running,
            ended: Vec::new(),
        }
    }

    /// Sends until a person was reached and the messages still being sent ended (for at most [`ONE_MOMENT`]),
    /// or every channel ended; the alarm's status then.
    pub async fn until_reached(&mut self) -> crate::error::Result<String> {
        let (mut until, mut status) = (None, None);
        loop {
            let next = match until {
                Some(until) => match tokio::time::timeout_at(until, self.running.next()).await {
                    Ok(next) => next,
                    Err(_) => break,
                },
                None => self.running.next().await,
            };
            let Some(delivery) = next else { break };
            let now = self.record(delivery).await?;
            if now == "alerted" {
                // A call rings for as long as it rings: only messages are worth the moment.
                if self.only_calls_left() {
                    status = Some(now);
                    break;
                }
                until.get_or_insert(tokio::time::Instant::now() + ONE_MOMENT);
            }
            status = Some(now);
        }
        match status {
            Some(status) => Ok(status),
            None => super::record(&self.app, &self.alarm_id, &[]).await,
        }
    }

    /// Whether every channel still being sent is a call.
    fn only_calls_left(&self) -> bool {
        let ended = |t: &Target| self.ended.iter().any(|d| d.channel == t.channel && d.to == t.to);
        self.targets.iter().all(|t| t.channel == "call" || ended(t))
    }

    /// Whether every channel ended.
    pub fn finished(&self) -> bool {
        self.running.is_empty()
    }

    /// What each channel answered so far, in the targets' order; a channel still being sent as `sending`.
    pub fn so_far(&self) -> Vec<Delivery> {
        self.targets
            .iter()
            .map(|t| {
                let ended = self.ended.iter().find(|d| d.channel == t.channel && d.to == t.to);
                ended.cloned().unwrap_or_else(|| Delivery {
                    channel: t.channel,
                    to: t.to.clone(),
                    delivered: false,
                    error: None,
                    sending: true,
                })
            })
            .collect()
    }

    /// Sends to the end: every channel's answer, in the targets' order, and the alarm's status then. A
    /// delivery the store did not take is logged, not lost: the emergency log still gets it.
    pub async fn to_end(mut self) -> (Vec<Delivery>, String) {
        let mut status = None;
        while let Some(delivery) = self.running.next().await {
            match self.record(delivery).await {
                Ok(now) => status = Some(now),
                Err(err) => tracing::error!(%err, "an alarm's delivery was not recorded"),
            }
        }
        let status = match status {
            Some(status) => Ok(status),
            None => super::record(&self.app, &self.alarm_id, &[]).await,
        };
        let status = status.unwrap_or_else(|err| {
            tracing::error!(%err, "an alarm's status was not read back");
            "sending".into()
        });
        (self.so_far(), status)
    }

    /// Records an ended delivery, with every other that ended with it in one transaction; the alarm's status
    /// after them.
    async fn record(&mut self, delivery: Delivery) -> crate::error::Result<String> {
        let mut ended = vec![delivery];
        while let Some(Some(more)) = self.running.next().now_or_never() {
            ended.push(more);
        }
        for failed in ended.iter().filter(|d| !d.delivered) {
            let error = failed.error.as_deref().unwrap_or("");
            tracing::warn!(channel = failed.channel, to = %failed.to, error, "alarm channel failed");
        }
        let status = super::record(&self.app, &self.alarm_id, &ended).await;
        delivered(&self.app, &ended).await;
        self.ended.extend(ended);
        status
    }
}

/// One link per contact (a phone number's SMS and call share it), stored as hashes in one transaction. Empty
/// (and an error logged) when the store refuses, because a missing link must not hold the alarm back.
async fn issue_acks<'t>(app: &App, alarm: &Alarm, targets: &'t [Target]) -> HashMap<&'t str, Ack> {
    let mut seen = std::collections::HashSet::new();
    let contacts: Vec<&str> = targets
        .iter()
        .filter(|t| t.is_person() && seen.insert(t.to.as_str()))
        .map(|t| t.to.as_str())
        .collect();
    let secrets: Vec<String> = contacts.iter().map(|_| token::generate()).collect();
    let rows: Vec<(&str, String)> = contacts
        .iter()
        .zip(&secrets)
        .map(|(c, s)| (*c, token::hash(s)))
        .collect();
    let ids = match app.store.issue_acks(&alarm.id, &rows, now_ms() + ACK_VALID_MS).await {
        Ok(ids) => ids,
        Err(err) => {
            tracing::error!(%err, "acknowledgement links not stored; the alarm goes out without them");
            return HashMap::new();
        }
    };
    contacts
        .into_iter()
        .zip(secrets.iter().zip(ids))
        .map(|(contact, (secret, id))| {
            let ack = Ack {
                link: format!("{}/api/emergency/ack/{secret}", alarm.base_url),
                callback: format!("{}/api/emergency/call/{id}", alarm.base_url),
                id,
            };
            (contact, ack)
        })
        .collect()
}

fn job(
    app: Arc<App>,
    person: Arc<(User, String, Dossier)>,
    target: Target,
    ack: Option<Ack>,
    reminder: Option<i64>,
    timeout: Duration,
) -> Job {
    Box::pin(async move {
        let (user, language, dossier) = &*person;
        let (settings, http) = (&app.settings.emergency, &app.providers.http);
        let copy = Personal {
            link: ack.as_ref().map(|a| a.link.as_str()),
            reminder,
        };
        let result = match target.channel {
            "email" => {
                let to = std::slice::from_ref(&target.to);
                let subject = dossier.subject(copy);
                let sending = mail::send(&app.settings.smtp, to, &subject, dossier.email_body(copy), timeout);
                within(timeout, sending).await
            }
            "sms" => within(timeout, twilio::sms(http, settings, &target.to, &dossier.sms(copy))).await,
            "call" => {
                let call = Call {
                    to: &target.to,
                    user,
                    language,
                    dossier,
                    copy,
                    ack: ack.as_ref(),
                };
                call.place(&app, timeout).await
            }
            _ => {
                let result = within(timeout, webhook(&app, user, dossier, reminder)).await;
                if let Err(err) = &result {
                    tracing::warn!(error = %err, "emergency webhook failed (best effort)");
                }
                result
            }
        };
        Delivery {
            channel: target.channel,
            to: target.to,
            delivered: result.is_ok(),
            error: result.err(),
            sending: false,
        }
    })
}

/// An alarm call to one contact.
struct Call<'a> {
    to: &'a str,
    user: &'a User,
    language: &'a str,
    dossier: &'a Dossier,
    copy: Personal<'a>,
    ack: Option<&'a Ack>,
}

impl Call<'_> {
    /// Places the call over the lines of `EMERGENCY_CALL_VIA`: the house's telephone first, Twilio when that
    /// did not reach the contact (an internal number only over the house's telephone).
    async fn place(&self, app: &App, timeout: Duration) -> Result<(), String> {
        let Some(via) = app.settings.emergency.call_via else {
            return Err("no line for calls is set up".into());
        };
        let mut failures = Vec::new();
        if via.sip() {
            match self.over_the_house_line(app, timeout).await {
                Ok(()) => return Ok(()),
                Err(why) => failures.push(format!("house line: {why}")),
            }
        }
        if via.twilio() && self.to.starts_with('+') {
            let twiml = self.dossier.twiml(self.copy, self.ack.map(|a| a.callback.as_str()));
            let settings = &app.settings.emergency;
            match within(timeout, twilio::call(&app.providers.http, settings, self.to, &twiml)).await {
                Ok(()) => return Ok(()),
                Err(why) => failures.push(why),
            }
        }
        Err(failures.join("; "))
    }

    /// Rings for `timeout`; delivered once the contact picked up (the message and the question then go on).
    async fn over_the_house_line(&self, app: &App, timeout: Duration) -> Result<(), String> {
        let dialer = app.lines.dialer()?;
        let t = self.dossier.words();
        let call = AlarmCall {
            to: self.to.to_string(),
            user: self.user.clone(),
            language: self.language.to_string(),
            message: self.dossier.call_text(self.copy),
            ask: t.get("help-call-press-1"),
            thanks: t.with("help-call-thanks", &[("name", self.dossier.name.as_str().into())]),
            confirms: self.ack.map(|a| Confirm::Alarm(a.id.clone())),
            ring: timeout,
        };
        // The ringing has its own bound; the registrar's silence and the words' synthesis get a little more.
        within(timeout + HOUSE_LINE_SLACK, dialer.dial(call)).await
    }
}

/// What a call over the house's telephone may take beyond its ringing.
const HOUSE_LINE_SLACK: Duration = Duration::from_secs(10);

async fn within(timeout: Duration, job: impl Future<Output = Result<(), String>>) -> Result<(), String> {
    tokio::time::timeout(timeout, job)
        .await
        .unwrap_or_else(|_| Err(format!("no answer within {} s", timeout.as_secs())))
}

async fn webhook(app: &App, user: &User, dossier: &Dossier, reminder: Option<i64>) -> Result<(), String> {
    let Some(url) = &app.settings.emergency.webhook_url else {
        return Err("EMERGENCY_WEBHOOK_URL is not set".into());
    };
    let payload = webhook_payload(user, dossier, reminder);
    let response = app
        .providers
        .http
        .post(url)
        .json(&payload)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if response.status().is_success() {
        Ok(())
    } else {
        Err(format!("answered {}", response.status().as_u16()))
    }
}

/// The webhook's JSON: who, when, where (only with consent), and what the person's profile says.
fn webhook_payload<'a>(user: &'a User, d: &'a Dossier, reminder: Option<i64>) -> WebhookPayload<'a> {
    let position = match &d.position {
        Position::Fix {
            latitude,
            longitude,
            accuracy,
            timestamp,
        } => Some(WebhookPosition::Fix {
            latitude: *latitude,
            longitude: *longitude,
            accuracy: *accuracy,
            timestamp: *timestamp,
            map: d.map_link(),
        }),
        Position::Unavailable(reason) => Some(WebhookPosition::Unavailable { unavailable: reason }),
        Position::NoConsent => None,
    };
    WebhookPayload {
        event: if reminder.is_some() {
            "emergency_reminder"
        } else {
            "emergency"
        },
        at: now_ms(),
        user: WebhookUser {
            id: &user.id,
            name: &user.name,
            display_name: &user.display_name,
        },
        person: WebhookPerson {
            name: &d.name,
            address: d.address(),
            phone_mobile: &d.phone_mobile,
            phone_landline: &d.phone_landline,
        },
        position,
        device: &d.device,
    }
}

/// The webhook's JSON.
#[derive(Serialize)]
struct WebhookPayload<'a> {
    /// `emergency`, or `emergency_reminder` for an unconfirmed alarm's reminder.
    event: &'static str,
    /// Epoch ms.
    at: i64,
    /// The gateway's user.
    user: WebhookUser<'a>,
    /// What the person's profile says.
    person: WebhookPerson<'a>,
    /// Null without location consent.
    position: Option<WebhookPosition<'a>>,
    /// The kind of device and its platform.
    device: &'a str,
}

/// The user in the webhook's JSON.
#[derive(Serialize)]
struct WebhookUser<'a> {
    id: &'a str,
    name: &'a str,
    display_name: &'a str,
}

/// The person in the webhook's JSON.
#[derive(Serialize)]
struct WebhookPerson<'a> {
    name: &'a str,
    address: String,
    phone_mobile: &'a str,
    phone_landline: &'a str,
}

/// The position in the webhook's JSON: a fix, or why there is none.
#[derive(Serialize)]
#[serde(untagged)]
enum WebhookPosition<'a> {
    /// A fix from the device, with a map link.
    Fix {
        latitude: f64,
        longitude: f64,
        accuracy: Option<f64>,
        timestamp: Option<i64>,
        map: Option<String>,
    },
    /// The device's reason.
    Unavailable { unavailable: &'a str },
}

/// Records what ended deliveries of an alarm found of their channels: a channel that delivered to anybody works,
/// one that delivered to nobody of them fails. Calls say nothing of their line (a contact may not answer).
async fn delivered(app: &crate::app::App, deliveries: &[Delivery]) {
    let at = crate::store::now_ms();
    for (check, error) in findings(deliveries) {
        super::reach::found(app, check, error.as_deref(), at).await;
    }
}

/// What ended deliveries found, by check: none for a channel they did not use.
fn findings(deliveries: &[Delivery]) -> Vec<(&'static str, Option<String>)> {
    use super::reach;
    let checks = [
        ("email", reach::MAIL),
        ("sms", reach::TWILIO),
        ("webhook", reach::WEBHOOK),
    ];
    let mut out = Vec::new();
    for (channel, check) in checks {
        let ours: Vec<&Delivery> = deliveries
            .iter()
            .filter(|d| d.channel == channel && !d.sending)
            .collect();
        if ours.is_empty() {
            continue;
        }
        let error = match ours.iter().any(|d| d.delivered) {
            true => None,
            false => Some(ours[0].error.clone().unwrap_or_else(|| "failed".into())),
        };
        out.push((check, error));
    }
    out
}
