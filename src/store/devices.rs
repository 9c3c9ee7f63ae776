//! Devices a user talks to the gateway from (a browser, a phone, a kitchen speaker).

use serde::Serialize;

use super::{Store, StoreError, new_id, now_ms, with_pool};

/// A registered device.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Device {
    /// Identifier.
    pub id: String,
    /// Name the user gave it ("Kitchen speaker").
    pub name: String,
    /// `browser`, `phone`, `tablet`, `speaker` or `other`.
    pub kind: String,
    /// Free-form platform ("Android 15", "Raspberry Pi").
    pub platform: String,
    /// Registration time, epoch milliseconds.
    pub created_at: i64,
    /// Last registration or rename, epoch milliseconds.
    pub last_seen_at: i64,
}

const COLUMNS: &str = "id, name, kind, platform, created_at, last_seen_at";

impl Store {
    /// The user's devices, oldest first.
    pub async fn devices(&self, user_id: &str) -> Result<Vec<Device>, StoreError> {
        with_pool!(self, pool => {
            let sql = format!("SELECT {COLUMNS} FROM devices WHERE user_id = $1 ORDER BY id");
            Ok(sqlx::query_as(&sql).bind(user_id).fetch_all(pool).await?)
        })
    }

    /// Registers a device.
    pub async fn add_device(
        &self,
        user_id: &str,
        name: &str,
        kind: &str,
        platform: &str,
    ) -> Result<Device, StoreError> {
        with_pool!(self, pool => {
            let now = now_ms();
            let sql = format!(
                "INSERT INTO devices (id, user_id, name, kind, platform, created_at, last_seen_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING {COLUMNS}"
            );
            Ok(sqlx::query_as(&sql)
                .bind(new_id())
                .bind(user_id)
                .bind(name)
                .bind(kind)
                .bind(platform)
                .bind(now)
                .fetch_one(pool)
                .await?)
        })
    }

    /// Renames one of the user's devices; None when the user has no such device.
    pub async fn rename_device(&self, user_id: &str, id: &str, name: &str) -> Result<Option<Device>, StoreError> {
        with_pool!(self, pool => {
            let sql = format!(
                "UPDATE devices SET name = $1, last_seen_at = $2 WHERE id = $3 AND user_id = $4 RETURNING {COLUMNS}"
            );
            Ok(sqlx::query_as(&sql)
                .bind(name)
                .bind(now_ms())
                .bind(id)
                .bind(user_id)
                .fetch_optional(pool)
                .await?)
        })
    }

    /// Removes one of the user's devices; false when the user has no such device.
    pub async fn delete_device(&self, user_id: &str, id: &str) -> Result<bool, StoreError> {
        with_pool!(self, pool => {
            let done = sqlx::query("DELETE FROM devices WHERE id = $1 AND user_id = $2")
                .bind(id)
                .bind(user_id)
                .execute(pool)
                .await?;
            Ok(done.rows_affected() == 1)
        })
    }
}
