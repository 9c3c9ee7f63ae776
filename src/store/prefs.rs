//! Persistent preferences of a user: one JSON object per user.

use serde_json::Value;

use super::{Store, StoreError, now_ms, retry_busy};
use crate::prefs::{Prefs, PrefsChange};

/// Stored prefs; what does not read (written by an older version) counts as not set.
fn read(data: Option<(String,)>) -> Prefs {
    data.and_then(|(data,)| serde_json::from_str(&data).ok())
        .unwrap_or_default()
}

impl Store {
    /// The user's prefs; none set when none were stored.
    pub async fn prefs(&self, user_id: &str) -> Result<Prefs, StoreError> {
        let row: Option<(String,)> = sqlx::query_as("SELECT data FROM prefs WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(read(row))
    }

    /// Applies `change` to the stored prefs in one transaction and returns the result. The transaction takes
    /// the write lock before it reads, so concurrent merges queue instead of failing, and none loses another's
    /// keys.
    pub async fn merge_prefs(&self, user_id: &str, change: PrefsChange) -> Result<Prefs, StoreError> {
        retry_busy(|| self.try_merge_prefs(user_id, &change)).await
    }

    async fn try_merge_prefs(&self, user_id: &str, change: &PrefsChange) -> Result<Prefs, StoreError> {
        let mut tx = self.write().await?;
        let row: Option<(String,)> = sqlx::query_as("SELECT data FROM prefs WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(&mut *tx)
            .await?;
        let mut prefs = read(row);
        prefs.apply(change.clone());
        let data = serde_json::to_value(&prefs).unwrap_or(Value::Null).to_string();
        sqlx::query(
            "INSERT INTO prefs (user_id, data, updated_at) VALUES ($1, $2, $3) \
             ON CONFLICT (user_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at",
        )
        .bind(user_id)
        .bind(data)
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(prefs)
    }
}
