//! The manual help function: claim the cooldown window atomically, send the alarm on every channel at once
//! (e-mail, SMS, call, webhook), each with its own timeout, decide the outcome, log it, answer in the person's
//! language. It needs no STT, LLM or TTS provider and ignores the daily quota.
//!
//! Inside the window a press sends nothing, as the specification's table has it, and never hides a failure: it
//! answers `cooldown` and says whom the window's alarm reached (and who confirmed), or that it reached nobody and
//! when a press sends again; an operator can end the window ([`end_cooldown`]). Contacts confirm through a link
//! ([`ack`]); without a confirmation a reminder goes out once ([`escalation`]). A call for help typed or spoken
//! goes through one dialogue ([`dialogue`], [`typed`]). The rules are written out in `docs/decisions.md`.

pub mod ack;
pub mod checks;
pub mod dialogue;
pub mod dossier;
pub mod escalation;
pub mod hearing;
pub mod mail;
pub mod reach;
pub mod send;
pub mod spoken;
pub mod twilio;
pub mod typed;
pub mod whom;

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::app::App;
use crate::config::keys::Key;
use crate::config::runtime::Effective;
use crate::error::Result;
use crate::phrasebook::Words;
use crate::prefs::Prefs;
use crate::store::emergency::{Acknowledgement, Alarm, Claim};
use crate::store::users::User;
use crate::store::{new_id, now_ms};
use dossier::{Dossier, Position};
use send::{Delivery, Sending, Target};

/// What the emergency log keeps of an alarm's sending: its kind, every delivery, whether the position was
/// sent, and for a reminder how many minutes after the alarm it went.
#[derive(Serialize)]
pub struct Logged<'a> {
    kind: &'a str,
    deliveries: &'a [Delivery],
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    minutes_after: Option<i64>,
}

impl<'a> Logged<'a> {
    /// A reminder's entry.
    pub fn escalation(deliveries: &'a [Delivery], minutes_after: i64) -> Self {
        Self {
            kind: "escalation",
            deliveries,
            position: None,
            minutes_after: Some(minutes_after),
        }
    }

    /// As the log stores it.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// What the caller sent with the press.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Press {
    /// The position fix, if the device had one: latitude, longitude, accuracy (m), timestamp (ms).
    pub fix: Option<(f64, f64, Option<f64>, Option<i64>)>,
    /// Why the device has no fix.
    pub geo_error: Option<String>,
    /// Whether the device is a mobile one.
    pub mobile: Option<bool>,
    /// The device's platform.
    pub platform: Option<String>,
    /// The language of the page or channel the press came from, for a person who set none.
    #[serde(default)]
    pub language: Option<String>,
    /// How the person asked for help.
    #[serde(default)]
    pub way: Way,
    /// The person's own words, when they typed or said them ("Hilfe, ich bin gestürzt"): one line, at most
    /// [`SAID_MAX_CHARS`].
    #[serde(default)]
    pub said: Option<String>,
}

/// The most of a person's words an alarm repeats.
pub const SAID_MAX_CHARS: usize = 300;

impl Press {
    /// `text` on one line, without control characters (a newline would add lines to a mail), at most `max`
    /// characters.
    pub fn clip(text: &str, max: usize) -> String {
        let line: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .take(max)
            .collect();
        line.split_whitespace().collect::<Vec<_>>().join(" ")
    }
}

/// How a person asked for help: what the contacts' messages say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Way {
    /// The help button (of the page, or `POST /api/emergency`).
    #[default]
    Button,
    /// A call for help by voice, confirmed (or not answered) on a voice channel.
    Spoken,
    /// A call for help typed in a conversation, confirmed by a typed yes.
    Typed,
    /// The help key on a telephone.
    Key,
    /// A no to the daily check-in's question, then a yes.
    Checkin,
}

impl Way {
    /// Its name, as stored and as the phrasebook selects by (`help-how`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Button => "button",
            Self::Spoken => "spoken",
            Self::Typed => "typed",
            Self::Key => "key",
            Self::Checkin => "checkin",
        }
    }
}

/// The answer to a press.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = EmergencyAnswer)]
pub struct Answer {
    /// `alerted`, `no_recipients`, `delivery_failed` or `cooldown`.
    pub status: &'static str,
    /// What this press sent to people, channel by channel (empty when it sent nothing).
    pub notified: Vec<Delivery>,
    /// Whether any channel with a recipient is set up.
    pub notify_ready: bool,
    /// Age of the window's alarm in minutes; null when this press raised it.
    pub minutes_ago: Option<i64>,
    /// Time left in the window.
    pub remaining_seconds: i64,
    /// What to tell the person, in the person's language.
    pub message: String,
    /// The window's alarm.
    pub alarm_id: Option<String>,
}

/// One press and what it needs to know.
struct Context<'a> {
    app: &'a App,
    user: &'a User,
    prefs: Prefs,
    /// The person's carers' addresses, mailed as their contacts are ([`crate::carers::mail_to`]).
    carers: Vec<String>,
    lang: String,
    /// The person chose to be addressed informally.
    informal: bool,
    window_ms: i64,
    press: Press,
}

/// Every channel and recipient of the person: one e-mail per address (the person's contacts, their `carers`
/// and `EMERGENCY_CONTACT_EMAIL`), an SMS (Twilio) and a call (Twilio or the house's telephone) per phone number,
/// then the webhook. An internal number of the house (`**613`) is only called over the house's telephone.
fn targets(app: &App, prefs: &Prefs, carers: &[String]) -> Vec<Target> {
    let mut emails: Vec<String> = Vec::new();
    if app.settings.smtp.host.is_some() {
        let contacts = prefs.emergency_contacts.iter().flatten();
        let global = app.settings.emergency.contact_email.iter();
        for address in contacts.chain(carers).chain(global) {
            if !emails.iter().any(|e| e.eq_ignore_ascii_case(address)) {
                emails.push(address.clone());
            }
        }
    }
    let settings = &app.settings.emergency;
    let via = settings.call_via;
    let mut targets: Vec<Target> = emails.into_iter().map(|to| Target { channel: "email", to }).collect();
    for phone in prefs.emergency_contact_phones.clone().unwrap_or_default() {
        let public = phone.starts_with('+');
        if public && settings.twilio_configured() {
            targets.push(Target {
                channel: "sms",
                to: phone.clone(),
            });
        }
        if via.is_some_and(|via| via.sip() || public) {
            targets.push(Target {
                channel: "call",
                to: phone,
            });
        }
    }
    if let Some(url) = &app.settings.emergency.webhook_url {
        let host = reqwest::Url::parse(url)
            .ok()
            .and_then(|u| u.host_str().map(String::from))
            .unwrap_or_default();
        targets.push(Target {
            channel: "webhook",
            to: host,
        });
    }
    targets
}

/// Whether a press would reach anybody: a configured channel with a recipient (the webhook does not count;
/// it tells a system, not a person).
pub fn notify_ready(app: &App, prefs: &Prefs, carers: &[String]) -> bool {
    targets(app, prefs, carers).iter().any(Target::is_person)
}

/// The cooldown in minutes: the user's pref (`""` = global, `"0"` = off), else the global setting.
pub fn cooldown_minutes(prefs: &Prefs, eff: &Effective) -> i64 {
    let own = Prefs::text(&prefs.emergency_cooldown_minutes).parse::<i64>().ok();
    own.unwrap_or_else(|| i64::from(eff.count(Key::EmergencyCooldownMinutes)))
}

/// The language the help function speaks to a person in: their own, else the page's or channel's (`asked`),
/// else the gateway's default.
pub fn language(app: &App, prefs: &Prefs, asked: Option<&str>) -> String {
    let known = |l: &&str| crate::config::languages().contains(l);
    prefs
        .language
        .as_deref()
        .filter(known)
        .or(asked.filter(known))
        .map_or_else(|| app.settings.turn.default_language.clone(), String::from)
}

/// The state of the help function for a person.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = EmergencyStatus)]
pub struct Status {
    /// A press now would fall into the window of the last alarm.
    pub cooldown_active: bool,
    /// Minutes since the last press; null when there was none.
    pub minutes_ago: Option<i64>,
    pub remaining_seconds: i64,
    pub cooldown_minutes: i64,
    /// While the window is open: what a press now answers (whom the window's alarm reached, or that it reached
    /// nobody and when a press sends again), in the person's language, word for word as the press says it.
    pub cooldown_message: Option<String>,
    /// Whether any channel with a recipient is set up.
    pub notify_ready: bool,
    /// The newest alarm.
    pub alarm: Option<AlarmView>,
    pub acknowledged: bool,
    /// The contacts who confirmed the newest alarm.
    pub acknowledged_by: Vec<Acknowledgement>,
    /// How far a press would reach now: `somebody`, `failing` (every channel of theirs fails its check) or
    /// `nobody` (no contact is set up on a configured channel). Their own contacts, their carers and
    /// `EMERGENCY_CONTACT_EMAIL` all count.
    pub reach: checks::Reach,
    /// Whom a press now would reach, on the channels that work.
    pub reaches: Vec<whom::Reached>,
    /// The same in the person's words ("Ihre Hilfe erreicht Ihre Pflegekraft per E-Mail."); null when nobody.
    pub reaches_text: Option<String>,
    /// While the help does not reach everybody: the cause in their language and form of address (no contact;
    /// contacts without a channel, naming what is missing; channels failing their checks; the newest alarm not
    /// delivered to some contacts).
    pub warning: Option<String>,
    /// The cause of the warning, and its particulars.
    #[serde(flatten)]
    pub diagnosis: checks::Diagnosis,
}

/// An alarm as its person sees it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct AlarmView {
    pub id: String,
    /// Epoch ms.
    pub at: i64,
    pub status: String,
    /// When a reminder goes out unless somebody confirms (epoch ms).
    pub escalation_due_at: Option<i64>,
    pub escalated_at: Option<i64>,
}

/// `GET /api/emergency/status`: the window, whether a press would reach anybody, and the newest alarm with
/// the contacts who confirmed it; its words in the person's language, else `asked` (the page's).
pub async fn status(app: &App, user: &User, asked: Option<&str>) -> Result<Status> {
    let eff = app.runtime.effective().await?;
    let prefs = app.store.prefs(&user.id).await?;
    let window_ms = cooldown_minutes(&prefs, &eff) * 60_000;
    let last = app.store.last_emergency(&user.id).await?;
    let now = now_ms();
    let (minutes_ago, remaining) = match last {
        Some(at) => ((now - at) / 60_000, ((at + window_ms - now).max(0) + 999) / 1000),
        None => (-1, 0),
    };
    let latest = app.store.latest_alarm(&user.id).await?;
    let acknowledged_by = match &latest {
        Some(alarm) => app.store.acknowledged_by(&alarm.id).await?,
        None => Vec::new(),
    };
    let lang = language(app, &prefs, asked);
    let words = Words::new(&lang, prefs.informal());
    let cooldown_message = match last.filter(|_| remaining > 0) {
        Some(at) => {
            let window = Window {
                user_id: user.id.clone(),
                at,
                alarm_id: app.store.cooldown_alarm(&user.id).await?,
                remaining_ms: at + window_ms - now,
            };
            Some(window.text(app, words).await?)
        }
        None => None,
    };
    let r = reach::Reachable::of(app, &user.id, &prefs).await;
    let diagnosis = checks::diagnose_user(app, &user.id, &r).await?;
    let reaches = whom::reaches(app, &r);
    Ok(Status {
        cooldown_active: remaining > 0,
        minutes_ago: last.map(|_| minutes_ago),
        remaining_seconds: remaining,
        cooldown_minutes: window_ms / 60_000,
        cooldown_message,
        notify_ready: notify_ready(app, &prefs, &r.carers),
        alarm: latest.map(|a| AlarmView {
            id: a.id,
            at: a.created_at,
            status: a.status,
            escalation_due_at: a.escalate_at,
            escalated_at: a.escalated_at,
        }),
        acknowledged: !acknowledged_by.is_empty(),
        acknowledged_by,
        reach: checks::reach(app, &r),
        reaches_text: whom::reaches_words(&reaches, r.carers.len(), words),
        reaches,
        warning: diagnosis.warning(words),
        diagnosis,
    })
}

/// `POST /api/emergency`: one press. `base_url` is where acknowledgement links point.
///
/// The press runs as a task of its own: whoever pressed may go (a hang-up, a closed page, a turn cancelled by
/// the next words), the alarm is claimed, sent and recorded all the same.
pub async fn raise(app: &App, user: &User, press: Press, base_url: String) -> Result<Answer> {
    let (app, user) = (app.shared(), user.clone());
    let pressed = tokio::spawn(async move { raise_here(&app, &user, press, base_url).await });
    pressed
        .await
        .map_err(|err| crate::error::ApiError::Internal(format!("the alarm's task failed: {err}")))?
}

/// Ends the window of `user` (an operator fixed their channels): true when one was open. Counted and logged;
/// the caller audits it.
pub async fn end_cooldown(app: &App, user: &User) -> Result<bool> {
    let eff = app.runtime.effective().await?;
    let prefs = app.store.prefs(&user.id).await?;
    let window_ms = cooldown_minutes(&prefs, &eff) * 60_000;
    let ended = app.store.end_cooldown(&user.id, now_ms(), window_ms).await?;
    if ended {
        app.metrics.incr(crate::metrics::EMERGENCY_COOLDOWNS_ENDED_TOTAL, &[]);
        tracing::warn!(user = %user.name, "an operator ended the help cooldown window; the next press sends at once");
    }
    Ok(ended)
}

/// Raises the alarm of a call for help on a channel without a position (voice, text, a telephone): the device
/// is the channel `platform`, whose `language` speaks to a person who set none; links point at `PUBLIC_URL`,
/// else at the gateway's own address.
pub async fn raise_on(app: &App, user: &User, (platform, way): (&str, Way), language: &str) -> Result<Answer> {
    raise_said(app, user, (platform, way, None), language).await
}

/// As [`raise_on`], telling the contacts the person's own words (`said`: what they typed or said).
pub async fn raise_said(
    app: &App,
    user: &User,
    (platform, way, said): (&str, Way, Option<String>),
    language: &str,
) -> Result<Answer> {
    let press = Press {
        platform: Some(platform.into()),
        language: Some(language.into()),
        way,
        said: said.map(|s| Press::clip(&s, SAID_MAX_CHARS)).filter(|s| !s.is_empty()),
        ..Press::default()
    };
    let base_url = app
        .settings
        .emergency
        .public_url
        .clone()
        .unwrap_or_else(|| format!("http://{}", app.settings.server.listen_addr));
    raise(app, user, press, base_url).await
}

#[tracing::instrument(skip_all, fields(user = %user.name))]
async fn raise_here(app: &App, user: &User, press: Press, base_url: String) -> Result<Answer> {
    let eff = app.runtime.effective().await?;
    let prefs = app.store.prefs(&user.id).await?;
    let cx = Context {
        app,
        user,
        carers: crate::carers::mail_to(app, &user.id, &prefs).await,
        lang: language(app, &prefs, press.language.as_deref()),
        informal: prefs.informal(),
        window_ms: cooldown_minutes(&prefs, &eff) * 60_000,
        prefs,
        press,
    };
    let alarm_id = new_id();
    match app.store.claim_emergency(&user.id, cx.window_ms, &alarm_id).await? {
        Claim::Claimed => cx.new_alarm(alarm_id, base_url).await,
        Claim::CoolingDown { at, alarm_id } => cx.inside_window(at, alarm_id).await,
    }
}

impl Context<'_> {
    /// The window was free: raise a new alarm on every channel.
    async fn new_alarm(&self, id: String, base_url: String) -> Result<Answer> {
        let app = self.app;
        let targets = targets(app, &self.prefs, &self.carers);
        let people = targets.iter().any(Target::is_person);
        let now = now_ms();
        let escalation_ms = app.settings.emergency.escalation_ms;
        let alarm = Alarm {
            id,
            user_id: self.user.id.clone(),
            created_at: now,
            status: if people { "sending" } else { "no_recipients" }.into(),
            lang: self.lang.clone(),
            base_url,
            press: serde_json::to_string(&self.press).unwrap_or_default(),
            escalate_at: (people && escalation_ms > 0).then_some(now + escalation_ms),
            escalated_at: None,
            acknowledged_at: None,
        };
        let pairs: Vec<(&str, &str)> = targets.iter().map(|t| (t.channel, t.to.as_str())).collect();
        app.store.insert_alarm(&alarm, &pairs).await?;
        app.metrics.incr(crate::metrics::EMERGENCY_TOTAL, &[]);
        crate::carers::changed(app, &alarm.user_id).await;
        let dossier = build_dossier(app, self.user, &self.prefs, (&self.lang, &self.press));
        let (status, deliveries) = self.send(&alarm, &dossier, &targets, "alarm").await?;
        if status == "alerted" {
            tracing::info!(status, channels = deliveries.len(), "emergency alarm sent");
        } else {
            tracing::warn!(
                status,
                "emergency alarm reached nobody; the person was told to call 112"
            );
        }
        Ok(self.answer(
            status,
            deliveries,
            None,
            self.window_ms,
            Some(&alarm.id),
            match status {
                "no_recipients" => {
                    let r = reach::Reachable {
                        prefs: &self.prefs,
                        carers: self.carers.clone(),
                        health: reach::Health::read(app).await,
                    };
                    nobody_message(app, &r, self.words())
                }
                _ => message(&self.lang, self.informal, status),
            },
        ))
    }

    /// A press inside the window: as the specification's table has it, no second send and no log entry, status
    /// `cooldown`. It waits for a send that is running (at most the channel timeout + 2 s), so that it can say
    /// truthfully what the window's alarm achieved, and when a press will send again.
    async fn inside_window(&self, at: i64, alarm_id: Option<String>) -> Result<Answer> {
        let app = self.app;
        let minutes_ago = (now_ms() - at) / 60_000;
        let remaining_ms = at + self.window_ms - now_ms();
        if let Some(id) = &alarm_id {
            let timeout = Duration::from_secs(app.settings.emergency.channel_timeout_secs + 2);
            wait_for_sends(app, id, tokio::time::Instant::now() + timeout).await?;
        }
        let window = Window {
            user_id: self.user.id.clone(),
            at,
            alarm_id: alarm_id.clone(),
            remaining_ms,
        };
        let text = window.text(app, self.words()).await?;
        Ok(self.answer(
            "cooldown",
            Vec::new(),
            Some(minutes_ago),
            remaining_ms,
            alarm_id.as_deref(),
            text,
        ))
    }

    /// What the person reads and hears, in their language and form of address.
    fn words(&self) -> Words<'_> {
        Words::new(&self.lang, self.informal)
    }

    /// Sends the alarm until a person is reached: the outcome and what each channel answered by then. The
    /// channels still being sent go on by themselves; the log gets the whole send when they end.
    async fn send(
        &self,
        alarm: &Alarm,
        dossier: &Dossier,
        targets: &[Target],
        kind: &'static str,
    ) -> Result<(&'static str, Vec<Delivery>)> {
        let app = self.app;
        let mut sending = Sending::start(app, self.user, alarm, dossier, targets, None).await;
        let reached = sending.until_reached().await;
        let so_far = sending.so_far();
        let entry = Entry {
            user_id: self.user.id.clone(),
            alarm_id: alarm.id.clone(),
            kind,
            position: !matches!(dossier.position, Position::NoConsent),
        };
        if !sending.finished() {
            // Even when the store failed just now: the contacts not reached yet are still called.
            let app = app.shared();
            tokio::spawn(async move {
                let (all, status) = sending.to_end().await;
                if let Err(err) = entry.write(&app, outcome(&status), &all).await {
                    tracing::error!(%err, "an alarm was sent but not logged");
                }
            });
            return Ok((outcome(&reached?), so_far));
        }
        let status = outcome(&reached?);
        entry.write(app, status, &so_far).await?;
        Ok((status, so_far))
    }

    fn answer(
        &self,
        status: &'static str,
        deliveries: Vec<Delivery>,
        minutes_ago: Option<i64>,
        remaining_ms: i64,
        alarm_id: Option<&str>,
        message: String,
    ) -> Answer {
        Answer {
            status,
            notified: deliveries.into_iter().filter(|d| d.channel != "webhook").collect(),
            notify_ready: notify_ready(self.app, &self.prefs, &self.carers),
            minutes_ago,
            remaining_seconds: (remaining_ms.max(0) + 999) / 1000,
            message,
            alarm_id: alarm_id.map(String::from),
        }
    }
}

/// An open cooldown window: the alarm that opened it and the time left.
pub struct Window {
    /// Whose window.
    pub user_id: String,
    /// When its alarm was raised, epoch ms.
    pub at: i64,
    /// Its alarm (none for a window opened before alarms were tracked).
    pub alarm_id: Option<String>,
    /// Until a press sends again.
    pub remaining_ms: i64,
}

impl Window {
    /// What a press inside the window tells, the same in the press's answer and the status: whom its alarm
    /// reached (and who confirmed), that it is still being sent, or that it reached nobody, when a press will
    /// send again and that whoever looks after the gateway can end the wait.
    pub async fn text(&self, app: &App, t: Words<'_>) -> Result<String> {
        // A press seconds ago is "a minute ago", never "0 minutes ago".
        let minutes = ((now_ms() - self.at) / 60_000).max(1);
        let left = (self.remaining_ms.max(0) + 59_999) / 60_000;
        let (reached, sending, seen) = match &self.alarm_id {
            Some(id) => {
                let deliveries = app.store.deliveries(id).await?;
                let reached: Vec<(String, String)> = deliveries
                    .iter()
                    .filter(|d| d.state == "delivered" && d.channel != "webhook")
                    .map(|d| (d.channel.clone(), d.recipient.clone()))
                    .collect();
                let sending = deliveries.iter().any(|d| d.state == "sending");
                (reached, sending, app.store.acknowledged_by(id).await?)
            }
            None => {
                // A window opened before alarms were tracked: what its logged send achieved.
                let logged = app.store.alarm_since(&self.user_id, self.at).await?;
                (
                    logged.map(|e| reached_in_log(&e.details)).unwrap_or_default(),
                    false,
                    Vec::new(),
                )
            }
        };
        if reached.is_empty() && sending {
            return Ok(t.get("help-cooldown-sending"));
        }
        if reached.is_empty() {
            return Ok(t.with(
                "help-cooldown-nobody",
                &[("minutes", minutes.into()), ("left", left.into())],
            ));
        }
        let mut text = t.with(
            "help-cooldown-reached",
            &[("minutes", minutes.into()), ("who", who(t.lang, &reached).into())],
        );
        if !seen.is_empty() {
            let names: Vec<&str> = seen.iter().map(|a| a.contact.as_str()).collect();
            text.push(' ');
            text.push_str(&t.with("help-seen-by", &[("who", names.join(", ").into())]));
        }
        // When a press sends again, and that the wait can be ended.
        text.push(' ');
        text.push_str(&t.with("help-cooldown-again", &[("left", left.into())]));
        Ok(text)
    }
}

/// Waits (polling the store) until no channel of the alarm is being sent, or the deadline; `None` while
/// the alarm's row does not exist yet.
async fn wait_for_sends(app: &App, alarm_id: &str, deadline: tokio::time::Instant) -> Result<Option<Alarm>> {
    loop {
        let alarm = app.store.alarm(alarm_id).await?;
        let settled = match &alarm {
            // Alerted counts at once: a telephone still ringing must not hold back "help is on the way".
            Some(a) => a.status == "alerted" || (a.status != "sending" && !still_sending(app, alarm_id).await?),
            None => false,
        };
        if settled || tokio::time::Instant::now() >= deadline {
            return Ok(alarm);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn still_sending(app: &App, alarm_id: &str) -> Result<bool> {
    Ok(app
        .store
        .deliveries(alarm_id)
        .await?
        .iter()
        .any(|d| d.state == "sending"))
}

/// Stores the results and returns the alarm's status.
pub(crate) async fn record(app: &App, alarm_id: &str, deliveries: &[Delivery]) -> Result<String> {
    let results: Vec<(&str, &str, Option<&str>)> = deliveries
        .iter()
        .map(|d| {
            (
                d.channel,
                d.to.as_str(),
                d.error.as_deref().or((!d.delivered).then_some("failed")),
            )
        })
        .collect();
    Ok(app.store.record_deliveries(alarm_id, &results).await?)
}

/// The answer's status for a stored alarm status.
fn outcome(status: &str) -> &'static str {
    match status {
        "alerted" => "alerted",
        "no_recipients" => "no_recipients",
        _ => "delivery_failed",
    }
}

/// The emergency log's entry of one send, written once every channel ended.
struct Entry {
    user_id: String,
    alarm_id: String,
    /// `alarm` (an escalation writes its own entry).
    kind: &'static str,
    /// Whether the position went out.
    position: bool,
}

impl Entry {
    async fn write(&self, app: &App, status: &str, deliveries: &[Delivery]) -> Result<()> {
        let details = Logged {
            kind: self.kind,
            deliveries,
            position: Some(self.position),
            minutes_after: None,
        };
        let (store, details) = (&app.store, details.to_json());
        Ok(store
            .log_emergency(&self.user_id, status, &details, Some(&self.alarm_id))
            .await?)
    }
}

/// The message of an outcome in the person's language and form of address; for `no_recipients`, with its
/// cause as [`checks::diagnose`] reads it now.
pub fn message(lang: &str, informal: bool, status: &str) -> String {
    let t = Words::new(lang, informal);
    t.get(match status {
        "alerted" => "help-alerted",
        _ => "help-delivery-failed",
    })
}

/// The message of a press, or a call for help, that reaches nobody: why (no contact, or no channel for the
/// contacts) and the 112 advice.
pub fn nobody_message(app: &App, r: &reach::Reachable<'_>, t: Words<'_>) -> String {
    let cause = checks::diagnose(app, r).cause_words(t);
    t.with("help-no-recipients", &[("cause", cause.into())])
}

/// "address (e-mail), number (SMS, call)": who an alarm reached, by recipient.
fn who(lang: &str, reached: &[(String, String)]) -> String {
    let t = Words::formal(lang);
    let mut by_recipient: Vec<(&str, Vec<String>)> = Vec::new();
    for (channel, to) in reached {
        let name = t.get(reach::channel_phrase(channel));
        match by_recipient.iter_mut().find(|(r, _)| r == to) {
            Some((_, channels)) => channels.push(name),
            None => by_recipient.push((to, vec![name])),
        }
    }
    by_recipient
        .iter()
        .map(|(to, channels)| format!("{to} ({})", channels.join(", ")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The people a logged send reached, as (channel, recipient), from its details.
fn reached_in_log(details: &str) -> Vec<(String, String)> {
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

/// The dossier of a press: the profile, the position (only with consent), the device, whether anybody is
/// called, the person's time zone.
pub fn build_dossier(app: &App, user: &User, prefs: &Prefs, (lang, press): (&str, &Press)) -> Dossier {
    let mut dossier = Dossier::from_prefs(prefs, &user.display_name, lang);
    dossier.calls = targets(app, prefs, &[]).iter().any(|t| t.channel == "call");
    dossier.zone = crate::zones::person_zone_name(app, prefs);
    let t = Words::formal(lang);
    let consent = prefs.location_consent.unwrap_or(false);
    dossier.position = match (&press.fix, &press.geo_error) {
        _ if !consent => Position::NoConsent,
        (Some((latitude, longitude, accuracy, timestamp)), _) => Position::Fix {
            latitude: *latitude,
            longitude: *longitude,
            accuracy: *accuracy,
            timestamp: *timestamp,
        },
        (None, Some(reason)) => Position::Unavailable(reason.clone()),
        (None, None) => Position::Unavailable(t.get("help-not-reported")),
    };
    let kind = t.get(match press.mobile {
        Some(true) => "help-mobile-device",
        Some(false) => "help-computer",
        None => "help-unknown-device",
    });
    dossier.way = press.way;
    dossier.said = press.said.clone();
    dossier.device = match &press.platform {
        Some(p) if !p.is_empty() => format!("{kind} ({p})"),
        _ => kind.to_string(),
    };
    dossier
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn who_groups_the_channels_of_one_recipient() {
        let reached = [
            ("email".to_string(), "a@x.example".to_string()),
            ("sms".to_string(), "+491".to_string()),
            ("call".to_string(), "+491".to_string()),
        ];
        assert_eq!(who("de", &reached), "a@x.example (E-Mail), +491 (SMS, Anruf)");
        assert_eq!(who("en", &reached), "a@x.example (e-mail), +491 (SMS, call)");
    }
}
