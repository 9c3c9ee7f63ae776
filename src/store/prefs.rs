//! Persistent preferences of a user: one JSON object per user.

use serde_json::{Map, Value};

use super::{Store, StoreError, now_ms, retry_busy};

impl Store {
    /// The user's prefs; an empty object when none were stored.
    pub async fn prefs(&self, user_id: &str) -> Result<Map<String, Value>, StoreError> {
        let row: Option<(String,)> = sqlx::query_as("SELECT data FROM prefs WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row
            .and_then(|(data,)| serde_json::from_str(&data).ok())
            .unwrap_or_default())
    }

    /// Merges `changes` into the stored prefs in one transaction (a `null` value removes the key)
    /// and returns the result. The transaction takes the write lock before it reads, so concurrent merges
    /// queue instead of failing, and none loses another's keys.
    pub async fn merge_prefs(
        &self,
        user_id: &str,
        changes: Map<String, Value>,
    ) -> Result<Map<String, Value>, StoreError> {
        retry_busy(|| self.try_merge_prefs(user_id, &changes)).await
    }

    async fn try_merge_prefs(
        &self,
        user_id: &str,
        changes: &Map<String, Value>,
    ) -> Result<Map<String, Value>, StoreError> {
        let mut tx = self.write().await?;
        let row: Option<(String,)> = sqlx::query_as("SELECT data FROM prefs WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(&mut *tx)
            .await?;
        let mut prefs: Map<String, Value> = row
            .and_then(|(data,)| serde_json::from_str(&data).ok())
            .unwrap_or_default();
        for (key, value) in changes {
            if value.is_null() {
                prefs.remove(key);
            } else {
                prefs.insert(key.clone(), value.clone());
            }
        }
        sqlx::query(
            "INSERT INTO prefs (user_id, data, updated_at) VALUES ($1, $2, $3) \
             ON CONFLICT (user_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at",
        )
        .bind(user_id)
        .bind(Value::Object(prefs.clone()).to_string())
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(prefs)
    }
}
