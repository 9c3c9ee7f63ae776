//! The help path, watched: on start and every `HELP_CHECK_SECONDS` the gateway checks that each channel of
//! the help function can deliver, sending nothing: the mail relay takes a connection, its encryption and
//! login (then `NOOP`, `QUIT`); Twilio answers with the account's credentials; the webhook's host resolves and
//! takes a connection; the house's telephone, when alarm calls go over it, is registered. A check that starts failing is logged, counted (`help_check_failures_total{check}`),
//! shown (the admin's banner, and the person's help page where it is their channel) and told to the operator
//! (`OPERATOR_NOTICE_TO`) by a channel that still works; so is its recovery. The results sit beside the
//! providers' breakers ([`crate::providers::breakers`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{mail, targets, twilio};
use crate::app::App;
use crate::config::CallVia;
use crate::lines::LineState;
use crate::metrics::HELP_CHECK_FAILURES_TOTAL;
use crate::phrasebook::Words;
use crate::prefs::Prefs;

/// The mail relay's check.
pub const MAIL: &str = "mail";
/// Twilio's check (SMS and calls).
pub const TWILIO: &str = "twilio";
/// The webhook's check.
pub const WEBHOOK: &str = "webhook";
/// The house's telephone's check (calls over it): registered with the registrar.
pub const SIP: &str = "sip";

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
fn failing(app: &App, channel: &str) -> bool {
    let check = |name| app.breakers.check_failing(name);
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

/// The channels that would carry an alarm of the person with `prefs` (`email`, `sms`, `call`): those whose
/// check fails, and those that work.
pub fn channels(app: &App, prefs: &Prefs) -> (Vec<&'static str>, Vec<&'static str>) {
    let mut all: Vec<&'static str> = Vec::new();
    for target in targets(app, prefs).iter().filter(|t| t.is_person()) {
        if !all.contains(&target.channel) {
            all.push(target.channel);
        }
    }
    all.into_iter().partition(|c| failing(app, c))
}

/// What the person's help page says while their help reaches nobody (no contact is set up) or a channel of
/// theirs cannot deliver, in `language` and their form of address.
pub fn warning(app: &App, prefs: &Prefs, language: &str) -> Option<String> {
    let (failing, working) = channels(app, prefs);
    let t = Words::new(language, prefs.informal());
    if failing.is_empty() && working.is_empty() {
        return Some(t.get("help-nobody-yet"));
    }
    if failing.is_empty() {
        return None;
    }
    let name = |c: &&str| {
        t.get(match *c {
            "email" => "help-by-email",
            "sms" => "help-by-sms",
            _ => "help-by-call",
        })
    };
    if working.is_empty() {
        return Some(t.get("help-path-none"));
    }
    let list = |cs: &[&str]| cs.iter().map(name).collect::<Vec<_>>().join(", ");
    Some(format!(
        "{} {}",
        t.with("help-path-down", &[("channels", list(&failing).into())]),
        t.with("help-path-still", &[("channels", list(&working).into())])
    ))
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

/// How far the help of the person with `prefs` reaches now.
pub fn reach(app: &App, prefs: &Prefs) -> Reach {
    match channels(app, prefs) {
        (failing, working) if failing.is_empty() && working.is_empty() => Reach::Nobody,
        (_, working) if working.is_empty() => Reach::Failing,
        _ => Reach::Somebody,
    }
}

/// The names of the users whose help reaches nobody now: no contact on a configured channel, or every
/// channel of theirs failing its check.
pub async fn stranded(app: &App) -> Result<Vec<String>, crate::store::StoreError> {
    let mut names = Vec::new();
    for user in app.store.list_users().await? {
        let prefs = app.store.prefs(&user.id).await?;
        if reach(app, &prefs) != Reach::Somebody {
            names.push(user.name);
        }
    }
    Ok(names)
}
