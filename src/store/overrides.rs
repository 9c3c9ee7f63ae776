//! Runtime configuration overrides: key → value, written by admins.

use std::collections::HashMap;

use super::{Store, StoreError, now_ms, with_pool};

impl Store {
    /// Every stored override.
    pub async fn overrides(&self) -> Result<HashMap<String, String>, StoreError> {
        with_pool!(self, pool => {
            let rows: Vec<(String, String)> = sqlx::query_as("SELECT key, value FROM config_overrides")
                .fetch_all(pool)
                .await?;
            Ok(rows.into_iter().collect())
        })
    }

    /// Sets or replaces an override.
    pub async fn set_override(&self, key: &str, value: &str, actor: &str) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO config_overrides (key, value, updated_at, updated_by) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at, \
                 updated_by = excluded.updated_by",
            )
            .bind(key)
            .bind(value)
            .bind(now_ms())
            .bind(actor)
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// Removes an override; false when none was set.
    pub async fn delete_override(&self, key: &str) -> Result<bool, StoreError> {
        with_pool!(self, pool => {
            let done = sqlx::query("DELETE FROM config_overrides WHERE key = $1")
                .bind(key)
                .execute(pool)
                .await?;
            Ok(done.rows_affected() == 1)
        })
    }
}
