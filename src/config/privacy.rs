//! The privacy area: `RETENTION_*_DAYS`, how long each kind of a person's data is kept (0: for ever, set
//! explicitly), and `LOCAL_ONLY`, whether people's words stay on local providers unless they say otherwise.

use super::env::{ConfigError, Source};

/// Days each kind of data is kept; `None` = for ever. Whether words stay at home by default.
#[derive(Debug, Clone)]
pub struct PrivacySettings {
    days: Vec<(Kind, Option<u32>)>,
    /// `LOCAL_ONLY`: everybody's turns on local providers, unless a person's `local_only` pref is false.
    pub local_only: bool,
}

/// Each kind's setting, its default in days and what it covers.
const SETTINGS: [(Kind, &str, u32, &str); 7] = [
    (
        Kind::Conversations,
        "RETENTION_CONVERSATIONS_DAYS",
        90,
        "days the messages of conversations are kept (a person may keep fewer: `conversation_retention_days`); 0: for ever",
    ),
    (
        Kind::Care,
        "RETENTION_CARE_DAYS",
        180,
        "days the care log and reminders done (with their deliveries) are kept; 0: for ever",
    ),
    (
        Kind::Alarms,
        "RETENTION_ALARMS_DAYS",
        365,
        "days alarms with their dossiers, deliveries and acknowledgements are kept; 0: for ever",
    ),
    (
        Kind::Notices,
        "RETENTION_NOTICES_DAYS",
        90,
        "days care notices sent (the outbox) and their links are kept; 0: for ever",
    ),
    (
        Kind::Usage,
        "RETENTION_USAGE_DAYS",
        400,
        "days the daily counters of requests, searches, calls and costs are kept; 0: for ever",
    ),
    (
        Kind::Audit,
        "RETENTION_AUDIT_DAYS",
        730,
        "days the admins' audit log is kept; 0: for ever",
    ),
    (
        Kind::Access,
        "RETENTION_ACCESS_DAYS",
        730,
        "days the access log (who looked at a person's records) is kept; 0: for ever",
    ),
];

impl PrivacySettings {
    /// Reads the area.
    pub(super) fn read(src: &Source) -> Result<Self, ConfigError> {
        let mut days = Vec::new();
        for (kind, name, default, meaning) in SETTINGS {
            let value = src.var(name, meaning).ranged(default, 36_500)?;
            days.push((kind, (value > 0).then_some(value)));
        }
        let local_only = src
            .var(
                "LOCAL_ONLY",
                "every person's words go only to providers on this machine or its network (a person's `local_only` pref says otherwise for them); web search off for them",
            )
            .bool(false)?;
        Ok(Self { days, local_only })
    }

    /// The days `kind` is kept; `None` = for ever.
    pub fn days(&self, kind: Kind) -> Option<u32> {
        self.days.iter().find(|(k, _)| *k == kind).and_then(|(_, d)| *d)
    }
}

/// The kinds of data with a retention of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Messages, and the conversations left empty.
    Conversations,
    /// The care log, and reminders done (confirmed, missed, done, cancelled) with their deliveries.
    Care,
    /// Alarms with their deliveries and acknowledgements, and the help button's events.
    Alarms,
    /// Care notices sent or expired, and their acknowledgement links.
    Notices,
    /// The daily counters of requests, searches, calls and costs.
    Usage,
    /// The admins' audit log.
    Audit,
    /// The access log.
    Access,
}

impl Kind {
    /// Every kind, in the order a purge goes through them.
    pub const ALL: [Kind; 7] = [
        Kind::Conversations,
        Kind::Care,
        Kind::Alarms,
        Kind::Notices,
        Kind::Usage,
        Kind::Audit,
        Kind::Access,
    ];

    /// The label of `purged_rows_total{kind}` and the settings' names.
    pub const fn as_str(self) -> &'static str {
        match self {
            Kind::Conversations => "conversations",
            Kind::Care => "care",
            Kind::Alarms => "alarms",
            Kind::Notices => "notices",
            Kind::Usage => "usage",
            Kind::Audit => "audit",
            Kind::Access => "access",
        }
    }
}
