//! The help function's records: the atomic cooldown claim and the log of alarms.

use serde::Serialize;

use super::{Store, StoreError, new_id, now_ms};

/// One logged alarm.
#[derive(Debug, Clone, Serialize, sqlx::FromRow)]
pub struct EmergencyEvent {
    /// Identifier.
    pub id: String,
    /// Whose alarm.
    pub user_id: String,
    /// When, epoch milliseconds.
    pub created_at: i64,
    /// The outcome: `alerted`, `no_recipients` or `delivery_failed`.
    pub category: String,
    /// Channels tried and their results, as JSON text.
    pub details: String,
}

/// The answer of a cooldown claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// The window was free and is now this alarm's.
    Claimed,
    /// An alarm was sent at this time (epoch ms) and its window is still open.
    CoolingDown(i64),
}

impl Store {
    /// Claims the alarm window of a user: succeeds when the last alarm is older than `window_ms` (or there is
    /// none), in one conditional upsert, so concurrent presses claim it once.
    pub async fn claim_emergency(&self, user_id: &str, window_ms: i64) -> Result<Claim, StoreError> {
        let now = now_ms();
        let claimed: Option<(i64,)> = sqlx::query_as(
            "INSERT INTO emergency_cooldowns (user_id, last_at) VALUES ($1, $2) \
             ON CONFLICT (user_id) DO UPDATE SET last_at = excluded.last_at \
             WHERE emergency_cooldowns.last_at <= $3 RETURNING last_at",
        )
        .bind(user_id)
        .bind(now)
        .bind(now - window_ms)
        .fetch_optional(&self.pool)
        .await?;
        if claimed.is_some() {
            return Ok(Claim::Claimed);
        }
        Ok(Claim::CoolingDown(self.last_emergency(user_id).await?.unwrap_or(now)))
    }

    /// When the user's last alarm was sent, epoch ms.
    pub async fn last_emergency(&self, user_id: &str) -> Result<Option<i64>, StoreError> {
        let row: Option<(i64,)> = sqlx::query_as("SELECT last_at FROM emergency_cooldowns WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|(at,)| at))
    }

    /// The newest logged alarm of a user sent at or after `since` (epoch ms): the outcome of the alarm that
    /// opened the current window, or `None` while that alarm is still being sent.
    pub async fn alarm_since(&self, user_id: &str, since: i64) -> Result<Option<EmergencyEvent>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT id, user_id, created_at, category, details FROM emergency_events \
             WHERE user_id = $1 AND created_at >= $2 ORDER BY created_at DESC, id DESC LIMIT 1",
        )
        .bind(user_id)
        .bind(since)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Logs an alarm.
    pub async fn log_emergency(&self, user_id: &str, category: &str, details: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO emergency_events (id, user_id, created_at, category, details) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(new_id())
        .bind(user_id)
        .bind(now_ms())
        .bind(category)
        .bind(details)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The newest alarms of all users first.
    pub async fn emergency_events(&self, limit: i64) -> Result<Vec<EmergencyEvent>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT id, user_id, created_at, category, details FROM emergency_events \
             ORDER BY created_at DESC, id DESC LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }
}
