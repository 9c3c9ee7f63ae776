//! Long-term memories of a user, independent of sessions.

use serde::Serialize;

use super::{Store, StoreError, new_id, now_ms, with_pool};

/// One remembered fact or preference.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Memory {
    /// Identifier.
    pub id: String,
    /// The fact, as the assistant should read it.
    pub text: String,
    /// Who created it: `user`, `admin` or `extraction`.
    pub source: String,
    /// Creation time, epoch milliseconds.
    pub created_at: i64,
}

impl Store {
    /// The user's memories, oldest first.
    pub async fn memories(&self, user_id: &str) -> Result<Vec<Memory>, StoreError> {
        with_pool!(self, pool => {
            let sql = "SELECT id, text, source, created_at FROM memories WHERE user_id = $1 ORDER BY id";
            Ok(sqlx::query_as(sql).bind(user_id).fetch_all(pool).await?)
        })
    }

    /// Adds a memory unless the user already has `cap` of them; `None` then. One statement, so concurrent
    /// adds never pass the cap.
    pub async fn add_memory(
        &self,
        user_id: &str,
        text: &str,
        source: &str,
        cap: u32,
    ) -> Result<Option<Memory>, StoreError> {
        with_pool!(self, pool => {
            // The user's row is locked first: on PostgreSQL two adds at once would otherwise both count the
            // memories before either is committed, and pass the cap together.
            let mut tx = pool.begin().await?;
            sqlx::query(super::users::LOCK_USER).bind(user_id).execute(&mut *tx).await?;
            let sql = "INSERT INTO memories (id, user_id, text, source, created_at) \
                       SELECT $1, $2, $3, $4, $5 WHERE (SELECT COUNT(*) FROM memories WHERE user_id = $2) < $6 \
                       RETURNING id, text, source, created_at";
            let added = sqlx::query_as(sql)
                .bind(new_id())
                .bind(user_id)
                .bind(text)
                .bind(source)
                .bind(now_ms())
                .bind(i64::from(cap))
                .fetch_optional(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(added)
        })
    }

    /// Deletes one of the user's memories; false when the user has no such memory.
    pub async fn delete_memory(&self, user_id: &str, id: &str) -> Result<bool, StoreError> {
        with_pool!(self, pool => {
            let done = sqlx::query("DELETE FROM memories WHERE id = $1 AND user_id = $2")
                .bind(id)
                .bind(user_id)
                .execute(pool)
                .await?;
            Ok(done.rows_affected() == 1)
        })
    }
}
