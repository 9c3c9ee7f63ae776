//! Read-only figures for the admin views: usage and cost per user, conversation overview, and the snapshot.

use std::path::Path;

use serde::Serialize;

use super::{Store, StoreError, today, with_pool};

/// Usage and cost of one user.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct UserUsage {
    /// User id.
    pub user_id: String,
    /// User name.
    pub name: String,
    /// Requests today.
    pub requests_today: i64,
    /// Requests this calendar month.
    pub requests_month: i64,
    /// Phone calls this month.
    pub calls_month: i64,
    /// Their length in seconds.
    pub call_seconds_month: i64,
    /// Cost charged this month (all categories, calls too).
    pub cost_month: f64,
    /// Of it, the cost estimated for answers cut before the provider reported theirs (`llm_estimated`).
    pub cost_estimated_month: f64,
    /// Cost charged since the beginning.
    pub cost_total: f64,
}

/// A user's conversations at a glance.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct ConversationSummary {
    /// User id.
    pub user_id: String,
    /// User name.
    pub name: String,
    /// Display name.
    pub display_name: String,
    /// Sessions.
    pub sessions: i64,
    /// Stored messages.
    pub messages: i64,
    /// Newest session change, epoch ms (null without sessions).
    pub last_active: Option<i64>,
}

impl Store {
    /// Usage and cost per user for the month of today (`YYYY-MM`).
    pub async fn usage_by_user(&self) -> Result<Vec<UserUsage>, StoreError> {
        with_pool!(self, pool => {
            let day = today();
            let month = format!("{}%", &day[..7]);
            Ok(sqlx::query_as(
                "SELECT u.id AS user_id, u.name AS name, \
                   COALESCE((SELECT count FROM usage WHERE user_id = u.id AND day = $1), 0) AS requests_today, \
                   COALESCE((SELECT CAST(SUM(count) AS BIGINT) FROM usage WHERE user_id = u.id AND day LIKE $2), 0) AS requests_month, \
                   COALESCE((SELECT CAST(SUM(calls) AS BIGINT) FROM call_usage WHERE user_id = u.id AND day LIKE $2), 0) AS calls_month, \
                   COALESCE((SELECT CAST(SUM(seconds) AS BIGINT) FROM call_usage WHERE user_id = u.id AND day LIKE $2), 0) AS call_seconds_month, \
                   COALESCE((SELECT SUM(cost) FROM cost_usage WHERE user_id = u.id AND day LIKE $2), 0.0) \
                     + COALESCE((SELECT SUM(cost) FROM call_usage WHERE user_id = u.id AND day LIKE $2), 0.0) AS cost_month, \
                   COALESCE((SELECT SUM(cost) FROM cost_usage WHERE user_id = u.id AND day LIKE $2 AND category = 'llm_estimated'), 0.0) AS cost_estimated_month, \
                   COALESCE((SELECT SUM(cost) FROM cost_usage WHERE user_id = u.id), 0.0) \
                     + COALESCE((SELECT SUM(cost) FROM call_usage WHERE user_id = u.id), 0.0) AS cost_total \
                 FROM users u ORDER BY u.name",
            )
            .bind(day)
            .bind(month)
            .fetch_all(pool)
            .await?)
        })
    }

    /// Every user with the number of sessions and messages, most recently active first.
    pub async fn conversation_summaries(&self) -> Result<Vec<ConversationSummary>, StoreError> {
        with_pool!(self, pool => {
            Ok(sqlx::query_as(
                "SELECT u.id AS user_id, u.name AS name, u.display_name AS display_name, \
                   (SELECT COUNT(*) FROM sessions WHERE user_id = u.id) AS sessions, \
                   (SELECT COUNT(*) FROM messages WHERE user_id = u.id) AS messages, \
                   (SELECT MAX(updated_at) FROM sessions WHERE user_id = u.id) AS last_active \
                 FROM users u ORDER BY last_active DESC, u.name",
            )
            .fetch_all(pool)
            .await?)
        })
    }

    /// A consistent copy of the whole SQLite database in a new file, taken while writes go on (`VACUUM INTO`);
    /// `None` on PostgreSQL, whose own tools (`pg_dump`) make the backup.
    pub async fn snapshot_to(&self, path: &Path) -> Result<Option<()>, StoreError> {
        let super::Pool::Sqlite(pool) = &self.pool else {
            return Ok(None);
        };
        sqlx::query("VACUUM INTO $1")
            .bind(path.display().to_string())
            .execute(pool)
            .await?;
        Ok(Some(()))
    }
}
