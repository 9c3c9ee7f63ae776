//! The help path, watched: on start and every `HELP_CHECK_SECONDS` the gateway checks that each channel of
//! the help function can deliver, sending nothing: the mail relay takes a connection, its encryption and
//! login (then `NOOP`, `QUIT`); Twilio answers with the account's credentials; the webhook's host resolves and
//! takes a connection; the house's telephone, when alarm calls go over it, is registered. A check that starts failing is logged, counted (`help_check_failures_total{check}`),
//! shown (the admin's banner, and the person's help page where it is their channel) and told to the operator
//! (`OPERATOR_NOTICE_TO`) by a channel that still works; so is its recovery. The results sit beside the
//! providers' breakers ([`crate::providers::breakers`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::reach::{Reachable, found};
use super::{mail, targets, twilio};
use crate::app::App;
use crate::config::CallVia;
use crate::lines::LineState;
use crate::metrics::HELP_CHECK_FAILURES_TOTAL;
use crate::phrasebook::Words;
use crate::prefs::Prefs;

pub use super::reach::{MAIL, SIP, TWILIO, WEBHOOK};

/// How often a registration under way is looked at while its check waits for it.
const REGISTRATION_POLL: Duration = Duration::from_millis(200);

/// Checks the help path now and then every `HELP_CHECK_SECONDS`, for as long as the gateway runs.
pub async fn run(app: Arc<App>) {
    let mut tick = tokio::time::interval(Duration::from_secs(app.settings.emergency.check_secs));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        check_all(&app).await;
    }
}

/// One round of the checks of every configured channel.
async fn check_all(app: &App) {
    let timeout = Duration::from_secs(app.settings.emergency.channel_timeout_secs);
    let (mail, twilio, webhook, sip) = tokio::join!(
        timed("SMTP", mail_check(app, timeout), timeout),
        timed("Twilio", twilio_check(app), timeout),
        timed("the webhook's host", webhook_check(app, timeout), timeout),
        timed("the house's telephone's registrar", sip_check(app), timeout),
    );
    // In the gateway's default language: the operator's notice is the admin panel's words.
    let words = Words::formal(&app.settings.turn.default_language);
    let mut changes = Vec::new();
    for (name, outcome) in [(MAIL, mail), (TWILIO, twilio), (WEBHOOK, webhook), (SIP, sip)] {
        let Some((took, result)) = outcome else {
            continue;
        };
        if result.is_err() {
            app.metrics.incr(HELP_CHECK_FAILURES_TOTAL, &[("check", name)]);
        }
        let error = result.as_ref().err().cloned();
        // Found when it began: a delivery that ended while the check ran is newer.
        let began = crate::store::now_ms() - took.as_millis() as i64;
        found(app, name, error.as_deref(), began).await;
        match (app.breakers.checked(name, took, result), error) {
            (Some(true), Some(error)) => {
                tracing::error!(check = name, %error, "the help path cannot deliver on this channel");
                changes.push(words.with(
                    "admin-notice-fails",
                    &[("channel", name.into()), ("error", error.into())],
                ));
            }
            (Some(false), _) => {
                tracing::info!(check = name, "the help path delivers on this channel again");
                changes.push(words.with("admin-notice-works", &[("channel", name.into())]));
            }
            _ => {}
        }
    }
    if !changes.is_empty() {
        notify(app, words, &changes, timeout).await;
    }
}

/// A check's time and result, failed when it takes longer than `timeout` (a relay that accepts the connection
/// and never speaks holds a client longer than its own time-outs); none when its channel is not configured.
async fn timed(
    what: &str,
    check: impl Future<Output = Option<Result<(), String>>>,
    timeout: Duration,
) -> Option<(Duration, Result<(), String>)> {
    let began = Instant::now();
    let result = match tokio::time::timeout(timeout, check).await {
        Ok(result) => result?,
        Err(_) => Err(format!("{what}: no answer within {} s", timeout.as_secs())),
    };
    Some((began.elapsed(), result))
}

async fn mail_check(app: &App, timeout: Duration) -> Option<Result<(), String>> {
    app.settings.smtp.host.as_ref()?;
    Some(mail::check(&app.settings.smtp, timeout).await)
}

async fn twilio_check(app: &App) -> Option<Result<(), String>> {
    let settings = &app.settings.emergency;
    if !settings.twilio_configured() {
        return None;
    }
    Some(twilio::check(&app.providers.http, settings).await)
}

/// Whether the house's telephone can call out: registered (a registration under way is waited for, within
/// the check's timeout).
async fn sip_check(app: &App) -> Option<Result<(), String>> {
    if !app.settings.emergency.call_via.is_some_and(CallVia::sip) {
        return None;
    }
    // At start the line may not have been looked up yet: no state is as undecided as registering.
    loop {
        let state = app.lines.status("sip").map(|l| l.state);
        if !matches!(state, None | Some(LineState::Registering)) {
            return Some(app.lines.dialer().map(drop));
        }
        tokio::time::sleep(REGISTRATION_POLL).await;
    }
}

async fn webhook_check(app: &App, timeout: Duration) -> Option<Result<(), String>> {
    let url = app.settings.emergency.webhook_url.as_deref()?;
    Some(reachable(url, timeout).await)
}

/// Whether `url`'s host resolves and takes a TCP connection within `timeout` (no request is sent).
async fn reachable(url: &str, timeout: Duration) -> Result<(), String> {
    let url = reqwest::Url::parse(url).map_err(|e| format!("the webhook's address is not valid: {e}"))?;
    let host = url.host_str().ok_or("the webhook's address has no host")?.to_string();
    let port = url.port_or_known_default().unwrap_or(443);
    let connect = async {
        let mut addresses = tokio::net::lookup_host((host.trim_matches(['[', ']']), port))
            .await
            .map_err(|e| format!("{host} does not resolve: {e}"))?;
        let address = addresses.next().ok_or_else(|| format!("{host} does not resolve"))?;
        tokio::net::TcpStream::connect(address)
            .await
            .map(drop)
            .map_err(|e| format!("{host}:{port} refuses the connection: {e}"))
    };
    tokio::time::timeout(timeout, connect)
        .await
        .unwrap_or_else(|_| Err(format!("{host}:{port} did not answer within {} s", timeout.as_secs())))
}

/// Tells the operator what changed, by mail and SMS where those work.
async fn notify(app: &App, words: Words<'_>, changes: &[String], timeout: Duration) {
    let recipients = &app.settings.emergency.operator_notice_to;
    if recipients.is_empty() {
        return;
    }
    let text = words.with(
        "admin-notice",
        &[
            ("instance", app.instance.clone().into()),
            ("changes", changes.join("; ").into()),
        ],
    );
    let (phones, emails): (Vec<&String>, Vec<&String>) = recipients.iter().partition(|r| r.starts_with('+'));
    if !emails.is_empty() && app.settings.smtp.host.is_some() && !app.breakers.check_failing(MAIL) {
        let to: Vec<String> = emails.into_iter().cloned().collect();
        let subject = words.get("admin-notice-subject");
        if let Err(error) = mail::send(&app.settings.smtp, &to, &subject, text.clone(), timeout).await {
            tracing::error!(%error, "the operator's notice by e-mail failed");
        }
    }
    if app.settings.emergency.twilio_configured() && !app.breakers.check_failing(TWILIO) {
        for phone in phones {
            if let Err(error) = twilio::sms(&app.providers.http, &app.settings.emergency, phone, &text).await {
                tracing::error!(%error, "the operator's notice by SMS failed");
            }
        }
    }
}

/// Whether the checks a channel of an alarm depends on fail: a call fails when every line it may go over
/// does.
fn failing(app: &App, health: &super::reach::Health, channel: &str) -> bool {
    let check = |name| health.fails(name);
    match channel {
        "email" => check(MAIL),
        "sms" => check(TWILIO),
        "call" => match app.settings.emergency.call_via {
            Some(CallVia::Twilio) => check(TWILIO),
            Some(CallVia::Sip) => check(SIP),
            Some(CallVia::Both) => check(TWILIO) && check(SIP),
            None => true,
        },
        _ => check(WEBHOOK),
    }
}

/// The channels that would carry an alarm of the person (`email`, `sms`, `call`), to their own contacts, their
/// carers and `EMERGENCY_CONTACT_EMAIL`: those whose check fails, and those that work.
pub fn channels(app: &App, r: &Reachable<'_>) -> (Vec<&'static str>, Vec<&'static str>) {
    let mut all: Vec<&'static str> = Vec::new();
    for target in targets(app, r.prefs, &r.carers).iter().filter(|t| t.is_person()) {
        if !all.contains(&target.channel) {
            all.push(target.channel);
        }
    }
    all.into_iter().partition(|c| failing(app, &r.health, c))
}

/// A setting the gateway lacks to reach contacts a person entered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Missing {
    /// E-mail addresses are entered, `SMTP_HOST` is not set.
    MailRelay,
    /// Phone numbers are entered, Twilio is not set up (SMS).
    Sms,
    /// Phone numbers are entered, no line carries alarm calls to them (Twilio, or the house line for its own
    /// numbers).
    Calls,
}

impl Missing {
    /// The settings an operator sets, as the start's line names them.
    pub fn settings(self) -> &'static str {
        match self {
            Self::MailRelay => "SMTP_HOST (and SMTP_FROM)",
            Self::Sms => "TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER",
            Self::Calls => "Twilio or the house line (SIP_*), EMERGENCY_CALL_VIA",
        }
    }

    /// Its name in the phrasebook (`help-missing-…`).
    pub fn phrase(self) -> &'static str {
        match self {
            Self::MailRelay => "help-missing-mail",
            Self::Sms => "help-missing-sms",
            Self::Calls => "help-missing-calls",
        }
    }
}

/// Why a person's help would not reach everybody: one cause, the same on the page, in the spoken answer, the
/// help button's answer, the status, the admin panel and at the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// No contact is entered (no address, no number, no `EMERGENCY_CONTACT_EMAIL`).
    NoContact,
    /// Contacts are entered, but no channel for any of them is set up ([`Diagnosis::missing`]).
    NoChannel,
    /// Every channel with a recipient fails its check.
    ChannelsFailing,
    /// Some channels fail their checks, others work.
    SomeFailing,
    /// The newest alarm could not be delivered to some contacts ([`Diagnosis::failed_to`]).
    LastDeliveryFailed,
}

/// A person's help path, read: the cause and its particulars.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct Diagnosis {
    /// None while help reaches everybody.
    pub cause: Option<Cause>,
    /// Settings missing for contacts the person entered (also beside a channel that works).
    pub missing: Vec<Missing>,
    /// Channels whose checks fail (`email`, `sms`, `call`).
    pub failing: Vec<&'static str>,
    /// Channels that work.
    pub working: Vec<&'static str>,
    /// Contacts the newest alarm could not reach.
    pub failed_to: Vec<String>,
}

/// The settings missing for the contacts of the person (their own, their carers' addresses, the gateway's).
fn missing(app: &App, r: &Reachable<'_>) -> Vec<Missing> {
    let (settings, prefs) = (&app.settings.emergency, r.prefs);
    let mut out = Vec::new();
    let emails = prefs.emergency_contacts.as_ref().is_some_and(|e| !e.is_empty())
        || !r.carers.is_empty()
        || settings.contact_email.is_some();
    if emails && app.settings.smtp.host.is_none() {
        out.push(Missing::MailRelay);
    }
    let phones = prefs.emergency_contact_phones.clone().unwrap_or_default();
    if phones.iter().any(|p| p.starts_with('+')) && !settings.twilio_configured() {
        out.push(Missing::Sms);
    }
    let called = |p: &String| settings.call_via.is_some_and(|via| via.sip() || p.starts_with('+'));
    if !phones.iter().all(called) {
        out.push(Missing::Calls);
    }
    out
}

/// Reads the help path of the person as the gateway is set up now (the newest alarm aside).
pub fn diagnose(app: &App, r: &Reachable<'_>) -> Diagnosis {
    let (failing, working) = channels(app, r);
    let missing = missing(app, r);
    let prefs = r.prefs;
    let entered = prefs.emergency_contacts.as_ref().is_some_and(|e| !e.is_empty())
        || prefs.emergency_contact_phones.as_ref().is_some_and(|p| !p.is_empty())
        || !r.carers.is_empty()
        || app.settings.emergency.contact_email.is_some();
    let cause = match () {
        () if failing.is_empty() && working.is_empty() && !entered => Some(Cause::NoContact),
        () if failing.is_empty() && working.is_empty() => Some(Cause::NoChannel),
        () if working.is_empty() => Some(Cause::ChannelsFailing),
        () if !failing.is_empty() => Some(Cause::SomeFailing),
        () => None,
    };
    Diagnosis {
        cause,
        missing,
        failing,
        working,
        failed_to: Vec::new(),
    }
}

/// [`diagnose`], with the newest alarm of `user_id`: while nothing else is wrong, contacts it could not
/// reach are the cause.
pub async fn diagnose_user(app: &App, user_id: &str, r: &Reachable<'_>) -> Result<Diagnosis, crate::store::StoreError> {
    let mut diagnosis = diagnose(app, r);
    if let Some(alarm) = app.store.latest_alarm(user_id).await? {
        diagnosis.failed_to = app
            .store
            .deliveries(&alarm.id)
            .await?
            .into_iter()
            .filter(|d| d.state == "failed" && d.channel != "webhook")
            .map(|d| d.recipient)
            .fold(Vec::new(), |mut all, r| {
                if !all.contains(&r) {
                    all.push(r);
                }
                all
            });
    }
    if diagnosis.cause.is_none() && !diagnosis.failed_to.is_empty() {
        diagnosis.cause = Some(Cause::LastDeliveryFailed);
    }
    Ok(diagnosis)
}

impl Diagnosis {
    /// The settings missing, in the person's words ("E-Mail-Versand, SMS-Versand").
    fn missing_words(&self, t: Words<'_>) -> String {
        self.missing
            .iter()
            .map(|m| t.get(m.phrase()))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The cause as one sentence in the person's language and form of address (for a press that reached
    /// nobody): no contact, or contacts without a channel.
    pub fn cause_words(&self, t: Words<'_>) -> String {
        match self.cause {
            Some(Cause::NoChannel) => t.with("help-cause-no-channel", &[("missing", self.missing_words(t).into())]),
            Some(Cause::ChannelsFailing) => t.get("help-path-none"),
            _ => t.get("help-cause-no-contact"),
        }
    }

    /// What the person's help page says about the cause, in `t`'s language and form of address; none while
    /// help reaches everybody.
    pub fn warning(&self, t: Words<'_>) -> Option<String> {
        let name = |c: &&str| t.get(super::reach::channel_phrase(c));
        let list = |cs: &[&str]| cs.iter().map(name).collect::<Vec<_>>().join(", ");
        Some(match self.cause? {
            Cause::NoContact => t.get("help-nobody-yet"),
            Cause::NoChannel => t.with("help-nobody-channel", &[("missing", self.missing_words(t).into())]),
            Cause::ChannelsFailing => t.get("help-path-none"),
            Cause::SomeFailing => format!(
                "{} {}",
                t.with("help-path-down", &[("channels", list(&self.failing).into())]),
                t.with("help-path-still", &[("channels", list(&self.working).into())])
            ),
            Cause::LastDeliveryFailed => t.with("help-last-failed", &[("who", self.failed_to.join(", ").into())]),
        })
    }

    /// The cause for the operator (the start's line, the log): what to set or look at.
    pub fn for_operator(&self) -> Option<String> {
        let settings = || self.missing.iter().map(|m| m.settings()).collect::<Vec<_>>().join("; ");
        Some(match self.cause? {
            Cause::NoContact => "no contact entered (admin panel, Users)".to_string(),
            Cause::NoChannel => format!("contacts entered but no channel for them: set {}", settings()),
            Cause::ChannelsFailing => format!("every channel fails its check ({})", self.failing.join(", ")),
            Cause::SomeFailing => format!("{} fail their checks", self.failing.join(", ")),
            Cause::LastDeliveryFailed => format!("the last alarm did not reach {}", self.failed_to.join(", ")),
        })
    }
}

/// How far a person's help reaches now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Reach {
    /// A channel with a recipient works.
    Somebody,
    /// Channels with recipients are set up, but every one fails its check.
    Failing,
    /// No contact is set up on any configured channel.
    Nobody,
}

/// How far the help of the person reaches now.
pub fn reach(app: &App, r: &Reachable<'_>) -> Reach {
    match channels(app, r) {
        (failing, working) if failing.is_empty() && working.is_empty() => Reach::Nobody,
        (_, working) if working.is_empty() => Reach::Failing,
        _ => Reach::Somebody,
    }
}

/// A person whose help does not reach everybody, for the operator.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct Stranded {
    /// The user's name.
    pub name: String,
    /// The user's id (for ending their cooldown window).
    pub user_id: String,
    /// How far their help reaches now.
    pub reach: Reach,
    /// Why, with its particulars.
    #[serde(flatten)]
    pub diagnosis: Diagnosis,
    /// Their last press reached nobody.
    pub last_press_reached_nobody: bool,
    /// Seconds left in their cooldown window (0: a press sends at once).
    pub cooldown_remaining_seconds: i64,
    /// Their help matters and does not reach everybody (else they are listed for their open window alone).
    pub stuck: bool,
}

/// The users whose help matters ([`matters`]) and does not reach everybody now, or whose last press reached
/// nobody, each with the cause; and everybody whose cooldown window is open.
pub async fn stranded(app: &App) -> crate::error::Result<Vec<Stranded>> {
    let eff = app.runtime.effective().await?;
    let carers = app.store.all_carer_ids().await?;
    let mut out = Vec::new();
    for user in app.store.list_users().await? {
        let prefs = app.store.prefs(&user.id).await?;
        let window_ms = super::cooldown_minutes(&prefs, &eff) * 60_000;
        let remaining_ms = match app.store.last_emergency(&user.id).await? {
            Some(at) => (at + window_ms - crate::store::now_ms()).max(0),
            None => 0,
        };
        // Whoever's window is open is listed, so that the operator can end the wait.
        let matters = matters(app, &user, &prefs, &carers);
        if remaining_ms == 0 && !matters {
            continue;
        }
        let r = Reachable::of(app, &user.id, &prefs).await;
        let diagnosis = diagnose_user(app, &user.id, &r).await?;
        let latest = app.store.latest_alarm(&user.id).await?;
        let last_press_reached_nobody = latest
            .as_ref()
            .is_some_and(|a| a.status == "no_recipients" || a.status == "delivery_failed");
        let reach = reach(app, &r);
        let stuck = matters && (reach != Reach::Somebody || diagnosis.cause.is_some() || last_press_reached_nobody);
        if stuck || remaining_ms > 0 {
            out.push(Stranded {
                name: user.name,
                user_id: user.id,
                reach,
                diagnosis,
                last_press_reached_nobody,
                cooldown_remaining_seconds: (remaining_ms + 999) / 1000,
                stuck,
            });
        }
    }
    Ok(out)
}

/// Whether the gateway's own help path reaches nobody while no account's help matters yet (the first start,
/// before anybody but the admin exists): no `EMERGENCY_CONTACT_EMAIL` on a working relay, and the admin entered
/// no contact. The start says so, so that nobody believes help is set up when it is not.
pub async fn nobody_set_up(app: &App) -> crate::error::Result<bool> {
    let carers = app.store.all_carer_ids().await?;
    let mut admin = None;
    for user in app.store.list_users().await? {
        let prefs = app.store.prefs(&user.id).await?;
        if matters(app, &user, &prefs, &carers) {
            return Ok(false);
        }
        if admin.is_none() && crate::auth::is_admin(app, &user) {
            admin = Some((user, prefs));
        }
    }
    let Some((user, prefs)) = admin else {
        return Ok(false);
    };
    Ok(reach(app, &Reachable::of(app, &user.id, &prefs).await) == Reach::Nobody)
}

/// Whether the operator must hear of `user`'s help path: anybody who entered contacts of their own; else
/// everybody but the development and telephone guest users, admins and carers (accounts that administer or
/// care, `carers` being every carer's id), who need no help of the gateway's until they enter a contact.
pub fn matters(app: &App, user: &crate::store::users::User, prefs: &Prefs, carers: &[String]) -> bool {
    let entered = prefs.emergency_contacts.as_ref().is_some_and(|e| !e.is_empty())
        || prefs.emergency_contact_phones.as_ref().is_some_and(|p| !p.is_empty());
    let guest = user.is_anonymous || user.id == crate::store::users::PHONE_GUEST_ID;
    entered || !(guest || crate::auth::is_admin(app, user) || carers.contains(&user.id))
}

/// Whether contacts could not open a link to `url`: the gateway's own loopback or a link-local address.
pub fn local_address(url: &str) -> bool {
    let Ok(url) = reqwest::Url::parse(url) else {
        return true;
    };
    let Some(host) = url.host_str() else {
        return true;
    };
    match host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<std::net::IpAddr>()
    {
        Ok(std::net::IpAddr::V4(ip)) => ip.is_loopback() || ip.is_link_local() || ip.is_unspecified(),
        Ok(std::net::IpAddr::V6(ip)) => ip.is_loopback() || ip.is_unicast_link_local() || ip.is_unspecified(),
        Err(_) => host.eq_ignore_ascii_case("localhost") || host.ends_with(".localhost"),
    }
}

/// Why contacts would get acknowledgement or care links they cannot open: a mail relay or Twilio is set up,
/// and `PUBLIC_URL` is `unset` (links point at the address a press came from, or at `LISTEN_ADDR` for a
/// voice channel) or `local` (a loopback or link-local address); with the address concerned.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct LinksProblem {
    /// `unset` or `local`.
    pub kind: &'static str,
    /// `LISTEN_ADDR` when unset, else `PUBLIC_URL`.
    pub address: String,
}

/// The links' problem, if any (see [`LinksProblem`]).
pub fn links_problem(app: &App) -> Option<LinksProblem> {
    let links_go_out = app.settings.smtp.host.is_some() || app.settings.emergency.twilio_configured();
    if !links_go_out {
        return None;
    }
    match &app.settings.emergency.public_url {
        None => Some(LinksProblem {
            kind: "unset",
            address: app.settings.server.listen_addr.to_string(),
        }),
        Some(url) if local_address(url) => Some(LinksProblem {
            kind: "local",
            address: url.clone(),
        }),
        Some(_) => None,
    }
}

/// The operator's warning of the links' problem, in English (the log, the API); the messages then say how to
/// confirm instead.
pub fn links_warning(app: &App) -> Option<String> {
    let problem = links_problem(app)?;
    Some(match problem.kind {
        "unset" => format!(
            "help: PUBLIC_URL is not set: the confirmation links in alarm and care messages point at the address \
             a press came from, or at {} for a call for help by voice, which a contact's phone may not open; set \
             PUBLIC_URL to the address contacts reach the gateway at",
            problem.address
        ),
        _ => format!(
            "help: PUBLIC_URL {} is a loopback or link-local address: no contact can open the confirmation \
             links in alarm and care messages; set it to the address contacts reach the gateway at",
            problem.address
        ),
    })
}
