//! The help function's records: the atomic cooldown claim, alarms with the state of each channel, the
//! acknowledgement links, pending reminders (escalations), and the log of sends.
//!
//! Every decision that concurrent presses or several gateways could race on is one conditional statement:
//! claiming the window, claiming failed channels for a retry, claiming a due reminder, acknowledging.

use serde::Serialize;

use super::{Store, StoreError, new_id, now_ms, with_pool};

/// One logged send (an alarm, a retry or a reminder).
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct EmergencyEvent {
    /// Identifier.
    pub id: String,
    /// Whose alarm.
    pub user_id: String,
    /// When, epoch milliseconds.
    pub created_at: i64,
    /// The outcome (`alerted`, `no_recipients`, `delivery_failed`) or `escalated` for a reminder.
    pub category: String,
    /// Channels tried and their results, as JSON text.
    pub details: String,
    /// The alarm the send belongs to (none for sends logged before alarms were tracked).
    pub alarm_id: Option<String>,
}

/// One alarm: the press that opened a cooldown window.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Alarm {
    /// Identifier.
    pub id: String,
    /// Whose alarm.
    pub user_id: String,
    /// When it was raised, epoch ms.
    pub created_at: i64,
    /// `sending`, `alerted`, `no_recipients` or `delivery_failed`.
    pub status: String,
    /// The person's language then.
    pub lang: String,
    /// Where acknowledgement links point.
    pub base_url: String,
    /// The press as JSON (position, device).
    pub press: String,
    /// When a reminder is due, if one is.
    pub escalate_at: Option<i64>,
    /// When the reminder went out.
    pub escalated_at: Option<i64>,
    /// When the first contact confirmed.
    pub acknowledged_at: Option<i64>,
}

/// A channel and recipient of an alarm, and what became of it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DeliveryState {
    /// `email`, `sms`, `call` or `webhook`.
    pub channel: String,
    /// Address, number or URL host.
    pub recipient: String,
    /// `sending`, `delivered` or `failed`.
    pub state: String,
}

/// A contact who confirmed having seen an alarm.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Acknowledgement {
    /// The contact's e-mail address or phone number.
    pub contact: String,
    /// When, epoch ms.
    pub at: i64,
    /// `link` or `call`.
    pub via: String,
}

/// The answer of a cooldown claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The window was free and is now this alarm's.
    Claimed,
    /// An alarm was raised at this time (epoch ms) and its window is still open.
    CoolingDown {
        /// When the window's alarm was raised.
        at: i64,
        /// The window's alarm (none for a window opened before alarms were tracked).
        alarm_id: Option<String>,
    },
}

/// What an acknowledgement found.
#[derive(Debug, Clone)]
pub struct Acknowledged {
    /// The alarm.
    pub alarm: Alarm,
    /// False when this link had been used before (a second use changes nothing).
    pub first: bool,
}

/// How an acknowledgement names its link.
#[derive(Clone, Copy)]
pub enum AckKey<'a> {
    /// The SHA-256 of the secret in the link.
    TokenHash(&'a str),
    /// The link's public id (the call's callback, authenticated by Twilio's signature).
    Id(&'a str),
}

/// Deliveries that reached a person (not the webhook) make an alarm `alerted`.
const PERSON_DELIVERED: &str = "SELECT 1 FROM emergency_deliveries d WHERE d.alarm_id = $1 \
     AND d.state = 'delivered' AND d.channel <> 'webhook'";

pub(super) const ALARM_COLUMNS: &str =
    "id, user_id, created_at, status, lang, base_url, press, escalate_at, escalated_at, acknowledged_at";

impl Store {
    /// Claims the alarm window of a user for `alarm_id`: succeeds when the last alarm is older than
    /// `window_ms` (or there is none), in one conditional upsert, so concurrent presses claim it once.
    pub async fn claim_emergency(&self, user_id: &str, window_ms: i64, alarm_id: &str) -> Result<Claim, StoreError> {
        with_pool!(self, pool => {
            let now = now_ms();
            let claimed: Option<(i64,)> = sqlx::query_as(
                "INSERT INTO emergency_cooldowns (user_id, last_at, alarm_id) VALUES ($1, $2, $4) \
                 ON CONFLICT (user_id) DO UPDATE SET last_at = excluded.last_at, alarm_id = excluded.alarm_id \
                 WHERE emergency_cooldowns.last_at <= $3 RETURNING last_at",
            )
            .bind(user_id)
            .bind(now)
            .bind(now - window_ms)
            .bind(alarm_id)
            .fetch_optional(pool)
            .await?;
            if claimed.is_some() {
                return Ok(Claim::Claimed);
            }
            let row: Option<(i64, Option<String>)> =
                sqlx::query_as("SELECT last_at, alarm_id FROM emergency_cooldowns WHERE user_id = $1")
                    .bind(user_id)
                    .fetch_optional(pool)
                    .await?;
            let (at, alarm_id) = row.unwrap_or((now, None));
            Ok(Claim::CoolingDown { at, alarm_id })
        })
    }

    /// When the user's last alarm was raised, epoch ms.
    pub async fn last_emergency(&self, user_id: &str) -> Result<Option<i64>, StoreError> {
        with_pool!(self, pool => {
            let row: Option<(i64,)> = sqlx::query_as("SELECT last_at FROM emergency_cooldowns WHERE user_id = $1")
                .bind(user_id)
                .fetch_optional(pool)
                .await?;
            Ok(row.map(|(at,)| at))
        })
    }

    /// Records a new alarm and its channels (all `sending`) in one transaction.
    pub async fn insert_alarm(&self, alarm: &Alarm, targets: &[(&str, &str)]) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(
                "INSERT INTO emergency_alarms (id, user_id, created_at, status, lang, base_url, press, escalate_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(&alarm.id)
            .bind(&alarm.user_id)
            .bind(alarm.created_at)
            .bind(&alarm.status)
            .bind(&alarm.lang)
            .bind(&alarm.base_url)
            .bind(&alarm.press)
            .bind(alarm.escalate_at)
            .execute(&mut *tx)
            .await?;
            for (channel, recipient) in targets {
                sqlx::query(
                    "INSERT INTO emergency_deliveries (alarm_id, channel, recipient, state, updated_at) \
                     VALUES ($1, $2, $3, 'sending', $4) ON CONFLICT DO NOTHING",
                )
                .bind(&alarm.id)
                .bind(channel)
                .bind(recipient)
                .bind(alarm.created_at)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    /// One alarm.
    pub async fn alarm(&self, id: &str) -> Result<Option<Alarm>, StoreError> {
        with_pool!(self, pool => {
            let sql = format!("SELECT {ALARM_COLUMNS} FROM emergency_alarms WHERE id = $1");
            Ok(sqlx::query_as(&sql).bind(id).fetch_optional(pool).await?)
        })
    }

    /// The alarm that opened the user's cooldown window (none for a window opened before alarms were tracked).
    pub async fn cooldown_alarm(&self, user_id: &str) -> Result<Option<String>, StoreError> {
        with_pool!(self, pool => {
            let row: Option<(Option<String>,)> =
                sqlx::query_as("SELECT alarm_id FROM emergency_cooldowns WHERE user_id = $1")
                    .bind(user_id)
                    .fetch_optional(pool)
                    .await?;
            Ok(row.and_then(|(id,)| id))
        })
    }

    /// The newest alarm of a user.
    pub async fn latest_alarm(&self, user_id: &str) -> Result<Option<Alarm>, StoreError> {
        with_pool!(self, pool => {
            let sql = format!(
                "SELECT {ALARM_COLUMNS} FROM emergency_alarms WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1"
            );
            Ok(sqlx::query_as(&sql).bind(user_id).fetch_optional(pool).await?)
        })
    }

    /// The channels of an alarm and their states.
    pub async fn deliveries(&self, alarm_id: &str) -> Result<Vec<DeliveryState>, StoreError> {
        with_pool!(self, pool => {
            Ok(sqlx::query_as(
                "SELECT channel, recipient, state FROM emergency_deliveries WHERE alarm_id = $1 \
                 ORDER BY channel, recipient",
            )
            .bind(alarm_id)
            .fetch_all(pool)
            .await?)
        })
    }

    /// Ends the person's cooldown window (an operator fixed the channels): the next press sends at once. True
    /// when a window was open; the alarms and their log stay.
    pub async fn end_cooldown(&self, user_id: &str, now: i64, window_ms: i64) -> Result<bool, StoreError> {
        with_pool!(self, pool => {
            let row: Option<(i64,)> =
                sqlx::query_as("DELETE FROM emergency_cooldowns WHERE user_id = $1 AND last_at > $2 RETURNING last_at")
                    .bind(user_id)
                    .bind(now - window_ms)
                    .fetch_optional(pool)
                    .await?;
            Ok(row.is_some())
        })
    }

    /// Stores what the sends achieved (a channel that delivered once stays delivered) and returns the
    /// alarm's status: `alerted` when any person was reached, `sending` while channels are still out,
    /// else `delivery_failed`; an alarm without recipients (only the webhook) stays `no_recipients`.
    pub async fn record_deliveries(
        &self,
        alarm_id: &str,
        results: &[(&str, &str, Option<&str>)],
    ) -> Result<String, StoreError> {
        with_pool!(self, pool => {
            let now = now_ms();
            let mut tx = pool.begin().await?;
            for (channel, recipient, error) in results {
                sqlx::query(
                    "UPDATE emergency_deliveries SET updated_at = $4, error = $5, \
                     state = CASE WHEN $5 IS NULL OR state = 'delivered' THEN 'delivered' ELSE 'failed' END \
                     WHERE alarm_id = $1 AND channel = $2 AND recipient = $3",
                )
                .bind(alarm_id)
                .bind(channel)
                .bind(recipient)
                .bind(now)
                .bind(error)
                .execute(&mut *tx)
                .await?;
            }
            let sql = format!(
                "UPDATE emergency_alarms SET status = CASE \
                   WHEN status = 'no_recipients' THEN status \
                   WHEN EXISTS ({PERSON_DELIVERED}) THEN 'alerted' \
                   WHEN EXISTS (SELECT 1 FROM emergency_deliveries d WHERE d.alarm_id = $1 AND d.state = 'sending') \
                     THEN 'sending' \
                   ELSE 'delivery_failed' END \
                 WHERE id = $1 RETURNING status"
            );
            let (status,): (String,) = sqlx::query_as(&sql).bind(alarm_id).fetch_one(&mut *tx).await?;
            tx.commit().await?;
            Ok(status)
        })
    }

    /// Stores acknowledgement links of an alarm (contact, hash of the secret) in one transaction; returns each
    /// link's public id, in order.
    pub async fn issue_acks(
        &self,
        alarm_id: &str,
        links: &[(&str, String)],
        expires_at: i64,
    ) -> Result<Vec<String>, StoreError> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let mut ids = Vec::with_capacity(links.len());
            for (contact, token_hash) in links {
                let id = new_id();
                sqlx::query(
                    "INSERT INTO emergency_acks (id, alarm_id, contact, token_hash, expires_at) \
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(&id)
                .bind(alarm_id)
                .bind(contact)
                .bind(token_hash)
                .bind(expires_at)
                .execute(&mut *tx)
                .await?;
                ids.push(id);
            }
            tx.commit().await?;
            Ok(ids)
        })
    }

    /// The alarm of a valid (known, unexpired) link, without acknowledging.
    pub async fn ack_alarm(&self, key: AckKey<'_>) -> Result<Option<Alarm>, StoreError> {
        with_pool!(self, pool => {
            let (column, value) = key.column();
            let sql = format!(
                "SELECT {ALARM_COLUMNS} FROM emergency_alarms WHERE id = \
                 (SELECT alarm_id FROM emergency_acks WHERE {column} = $1 AND expires_at > $2)"
            );
            Ok(sqlx::query_as(&sql)
                .bind(value)
                .bind(now_ms())
                .fetch_optional(pool)
                .await?)
        })
    }

    /// Acknowledges through a valid link: marks the link and the alarm and cancels a pending reminder.
    /// `None` for an unknown or expired link; a second use finds the alarm and changes nothing.
    pub async fn acknowledge(&self, key: AckKey<'_>, via: &str) -> Result<Option<Acknowledged>, StoreError> {
        with_pool!(self, pool => {
            let (column, value) = key.column();
            let now = now_ms();
            let mut tx = pool.begin().await?;
            let sql = format!(
                "UPDATE emergency_acks SET acknowledged_at = $2, via = $3 \
                 WHERE {column} = $1 AND expires_at > $2 AND acknowledged_at IS NULL RETURNING alarm_id"
            );
            let first: Option<(String,)> = sqlx::query_as(&sql)
                .bind(value)
                .bind(now)
                .bind(via)
                .fetch_optional(&mut *tx)
                .await?;
            if let Some((alarm_id,)) = &first {
                sqlx::query(
                    "UPDATE emergency_alarms SET acknowledged_at = COALESCE(acknowledged_at, $2), escalate_at = NULL \
                     WHERE id = $1",
                )
                .bind(alarm_id)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            let alarm = self.ack_alarm(key).await?;
            Ok(alarm.map(|alarm| Acknowledged {
                alarm,
                first: first.is_some(),
            }))
        })
    }

    /// `who` (a carer, `carer:<name>`) acknowledges `alarm_id` of `user_id` as a contact's link would: the
    /// acknowledgement recorded (via `carer`), the alarm marked and its pending reminder cancelled. `None`
    /// when `user_id` has no such alarm; `Some(false)` when `who` had acknowledged it already.
    pub async fn acknowledge_as(&self, user_id: &str, alarm_id: &str, who: &str) -> Result<Option<bool>, StoreError> {
        with_pool!(self, pool => {
            let now = now_ms();
            let mut tx = pool.begin().await?;
            let marked = sqlx::query(
                "UPDATE emergency_alarms SET acknowledged_at = COALESCE(acknowledged_at, $3), escalate_at = NULL \
                 WHERE id = $1 AND user_id = $2",
            )
            .bind(alarm_id)
            .bind(user_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            if marked.rows_affected() == 0 {
                return Ok(None);
            }
            // No link: the row's hash is an id, which no secret's SHA-256 can equal.
            let first = sqlx::query(
                "INSERT INTO emergency_acks (id, alarm_id, contact, token_hash, expires_at, acknowledged_at, via) \
                 SELECT $1, $2, $3, $1, $4, $4, 'carer' WHERE NOT EXISTS \
                 (SELECT 1 FROM emergency_acks WHERE alarm_id = $2 AND contact = $3)",
            )
            .bind(new_id())
            .bind(alarm_id)
            .bind(who)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(Some(first.rows_affected() == 1))
        })
    }

    /// The contacts who confirmed an alarm, each once, first confirmation first.
    pub async fn acknowledged_by(&self, alarm_id: &str) -> Result<Vec<Acknowledgement>, StoreError> {
        with_pool!(self, pool => {
            let rows: Vec<Acknowledgement> = sqlx::query_as(
                "SELECT contact, acknowledged_at AS at, via FROM emergency_acks \
                 WHERE alarm_id = $1 AND acknowledged_at IS NOT NULL ORDER BY acknowledged_at, id",
            )
            .bind(alarm_id)
            .fetch_all(pool)
            .await?;
            let mut seen = std::collections::HashSet::new();
            Ok(rows.into_iter().filter(|a| seen.insert(a.contact.clone())).collect())
        })
    }

    /// Claims the reminders that are due: pushes each forward by `lease_ms` (so a gateway that dies while
    /// sending leaves it to be sent again) and returns their alarms. One conditional UPDATE: of several
    /// gateways, one sends each reminder.
    pub async fn claim_due_escalations(&self, lease_ms: i64) -> Result<Vec<Alarm>, StoreError> {
        with_pool!(self, pool => {
            let now = now_ms();
            let sql = format!(
                "UPDATE emergency_alarms SET escalate_at = $2 \
                 WHERE escalate_at <= $1 AND acknowledged_at IS NULL AND escalated_at IS NULL \
                 RETURNING {ALARM_COLUMNS}"
            );
            Ok(sqlx::query_as(&sql)
                .bind(now)
                .bind(now + lease_ms)
                .fetch_all(pool)
                .await?)
        })
    }

    /// Marks a reminder as sent.
    pub async fn finish_escalation(&self, alarm_id: &str) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query("UPDATE emergency_alarms SET escalate_at = NULL, escalated_at = $2 WHERE id = $1")
                .bind(alarm_id)
                .bind(now_ms())
                .execute(pool)
                .await?;
            Ok(())
        })
    }

    /// When the next reminder is due, if any.
    pub async fn next_escalation(&self) -> Result<Option<i64>, StoreError> {
        with_pool!(self, pool => {
            let (at,): (Option<i64>,) = sqlx::query_as(
                "SELECT MIN(escalate_at) FROM emergency_alarms WHERE escalate_at IS NOT NULL AND acknowledged_at IS NULL",
            )
            .fetch_one(pool)
            .await?;
            Ok(at)
        })
    }

    /// Logs a send.
    pub async fn log_emergency(
        &self,
        user_id: &str,
        category: &str,
        details: &str,
        alarm_id: Option<&str>,
    ) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO emergency_events (id, user_id, created_at, category, details, alarm_id) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(new_id())
            .bind(user_id)
            .bind(now_ms())
            .bind(category)
            .bind(details)
            .bind(alarm_id)
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// The newest logged sends of all users first.
    pub async fn emergency_events(&self, limit: i64) -> Result<Vec<EmergencyEvent>, StoreError> {
        with_pool!(self, pool => {
            Ok(sqlx::query_as(
                "SELECT id, user_id, created_at, category, details, alarm_id FROM emergency_events \
                 ORDER BY created_at DESC, id DESC LIMIT $1",
            )
            .bind(limit)
            .fetch_all(pool)
            .await?)
        })
    }

    /// When the user's alarms at or after `since` were raised, oldest first (at most 20).
    pub async fn alarm_times(&self, user_id: &str, since: i64) -> Result<Vec<i64>, StoreError> {
        with_pool!(self, pool => {
            let rows: Vec<(i64,)> = sqlx::query_as(
                "SELECT created_at FROM emergency_alarms WHERE user_id = $1 AND created_at >= $2 \
                 ORDER BY created_at, id LIMIT 20",
            )
            .bind(user_id)
            .bind(since)
            .fetch_all(pool)
            .await?;
            Ok(rows.into_iter().map(|(at,)| at).collect())
        })
    }

    /// The newest logged send of a user at or after `since`, epoch ms.
    pub async fn alarm_since(&self, user_id: &str, since: i64) -> Result<Option<EmergencyEvent>, StoreError> {
        with_pool!(self, pool => {
            Ok(sqlx::query_as(
                "SELECT id, user_id, created_at, category, details, alarm_id FROM emergency_events \
                 WHERE user_id = $1 AND created_at >= $2 ORDER BY created_at DESC, id DESC LIMIT 1",
            )
            .bind(user_id)
            .bind(since)
            .fetch_optional(pool)
            .await?)
        })
    }
}

impl AckKey<'_> {
    fn column(&self) -> (&'static str, &str) {
        match self {
            Self::TokenHash(hash) => ("token_hash", hash),
            Self::Id(id) => ("id", id),
        }
    }
}
