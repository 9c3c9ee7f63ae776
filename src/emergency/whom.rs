//! Whom an alarm of a person would reach now, on the channels that work: their own contacts, their carers,
//! the house's contact ([`super::reach`] counts them; this names them for the page and the status).

use serde::Serialize;

use super::checks;
use super::reach::{Reachable, channel_phrase};
use crate::app::App;
use crate::phrasebook::Words;

/// Whom an alarm reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Whom {
    /// The person's own contacts.
    Contacts,
    /// Their carers.
    Carers,
    /// The gateway's own contact (`EMERGENCY_CONTACT_EMAIL`).
    Default,
}

/// Whom an alarm now would reach, and on which working channels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Reached {
    pub who: Whom,
    /// `email`, `sms`, `call`.
    pub channels: Vec<&'static str>,
}

/// Whom an alarm of the person would reach now, on channels that work.
pub fn reaches(app: &App, r: &Reachable<'_>) -> Vec<Reached> {
    let own = |to: &str| {
        let contacts = r.prefs.emergency_contacts.iter().flatten();
        contacts
            .chain(r.prefs.emergency_contact_phones.iter().flatten())
            .any(|c| c.eq_ignore_ascii_case(to))
    };
    let mut out: Vec<Reached> = Vec::new();
    let (_, working) = checks::channels(app, r);
    for target in super::targets(app, r.prefs, &r.carers) {
        if !target.is_person() || !working.contains(&target.channel) {
            continue;
        }
        let who = match () {
            () if own(&target.to) => Whom::Contacts,
            () if r.carers.iter().any(|c| c.eq_ignore_ascii_case(&target.to)) => Whom::Carers,
            () => Whom::Default,
        };
        match out.iter_mut().find(|x| x.who == who) {
            Some(x) if !x.channels.contains(&target.channel) => x.channels.push(target.channel),
            Some(_) => {}
            None => out.push(Reached {
                who,
                channels: vec![target.channel],
            }),
        }
    }
    out
}

/// "Ihre Hilfe erreicht Ihre Pflegekraft per E-Mail.": whom an alarm now would reach, in the person's words;
/// none when it reaches nobody.
pub fn reaches_words(reached: &[Reached], carers: usize, t: Words<'_>) -> Option<String> {
    if reached.is_empty() {
        return None;
    }
    let parts: Vec<String> = reached
        .iter()
        .map(|r| {
            let who = match r.who {
                Whom::Contacts => t.get("help-reaches-contacts"),
                Whom::Carers => t.with("help-reaches-carers", &[("count", (carers as i64).into())]),
                Whom::Default => t.get("help-reaches-default"),
            };
            let channels: Vec<String> = r.channels.iter().map(|c| t.get(channel_phrase(c))).collect();
            t.with(
                "help-reaches-by",
                &[("who", who.into()), ("channels", channels.join(", ").into())],
            )
        })
        .collect();
    Some(t.with("help-reaches", &[("who", parts.join("; ").into())]))
}
