//! Where each person has connections open, per instance (`care_presence`), and the notification that carries
//! an event to another instance (PostgreSQL's `pg_notify`); see [`crate::bus`].

use super::{Pool, Store, StoreError, now_ms, with_pool};

impl Store {
    /// `instance` holds `connections` of `user_id` now (none: the row goes).
    pub async fn set_presence(&self, instance: &str, user_id: &str, connections: usize) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            let query = match connections {
                0 => sqlx::query("DELETE FROM care_presence WHERE instance = $1 AND user_id = $2")
                    .bind(instance)
                    .bind(user_id),
                n => sqlx::query(
                    "INSERT INTO care_presence (instance, user_id, connections, seen_at) VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (instance, user_id) DO UPDATE SET connections = excluded.connections, \
                     seen_at = excluded.seen_at",
                )
                .bind(instance)
                .bind(user_id)
                .bind(n as i64)
                .bind(now_ms()),
            };
            query.execute(pool).await?;
            Ok(())
        })
    }

    /// `instance` is alive: its rows are fresh again. With `forget`, they are dropped instead (a start: the
    /// connections of its last run are gone).
    pub async fn refresh_presence(&self, instance: &str, forget: bool) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            let query = match forget {
                true => sqlx::query("DELETE FROM care_presence WHERE instance = $1").bind(instance),
                false => sqlx::query("UPDATE care_presence SET seen_at = $1 WHERE instance = $2")
                    .bind(now_ms())
                    .bind(instance),
            };
            query.execute(pool).await?;
            Ok(())
        })
    }

    /// Connections of `user_id` open on instances other than `instance`, seen since `since`.
    pub async fn presence_elsewhere(&self, user_id: &str, instance: &str, since: i64) -> Result<i64, StoreError> {
        let of = self
            .presence_elsewhere_of(&[user_id.to_string()], instance, since)
            .await?;
        Ok(of.get(user_id).copied().unwrap_or(0))
    }

    /// Connections of each of `user_ids` open on instances other than `instance`, seen since `since` (at most
    /// 500 a statement); those without any are left out.
    pub async fn presence_elsewhere_of(
        &self,
        user_ids: &[String],
        instance: &str,
        since: i64,
    ) -> Result<std::collections::HashMap<String, i64>, StoreError> {
        let mut all = std::collections::HashMap::new();
        for chunk in user_ids.chunks(500) {
            let sql = format!(
                "SELECT user_id, CAST(SUM(connections) AS BIGINT) FROM care_presence WHERE instance <> $1 \
                 AND seen_at >= $2 AND user_id IN ({}) GROUP BY user_id",
                super::placeholders_from(3, chunk.len())
            );
            let rows: Vec<(String, i64)> = with_pool!(self, pool => {
                let mut query = sqlx::query_as(&sql).bind(instance).bind(since);
                for id in chunk {
                    query = query.bind(id);
                }
                query.fetch_all(pool).await?
            });
            all.extend(rows);
        }
        Ok(all)
    }

    /// Sends `payload` on the notification channel `channel` (PostgreSQL only; false with SQLite).
    pub async fn notify(&self, channel: &str, payload: &str) -> Result<bool, StoreError> {
        let Pool::Postgres(pool) = &self.pool else {
            return Ok(false);
        };
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(channel)
            .bind(payload)
            .execute(pool)
            .await?;
        Ok(true)
    }

    /// A connection of `user_id` showed the event of `receipt` (pushed from another instance); receipts older
    /// than ten minutes go.
    pub async fn put_receipt(&self, receipt: &str, user_id: &str) -> Result<(), StoreError> {
        let now = now_ms();
        with_pool!(self, pool => {
            sqlx::query("DELETE FROM care_receipts WHERE at < $1")
                .bind(now - 600_000)
                .execute(pool)
                .await?;
            sqlx::query("INSERT INTO care_receipts (receipt, user_id, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
                .bind(receipt)
                .bind(user_id)
                .bind(now)
                .execute(pool)
                .await?;
            Ok(())
        })
    }

    /// Whether a connection of `user_id` showed the event of `receipt` on another instance.
    pub async fn receipt_shown(&self, receipt: &str, user_id: &str) -> Result<bool, StoreError> {
        with_pool!(self, pool => {
            let row: Option<(i64,)> = sqlx::query_as("SELECT at FROM care_receipts WHERE receipt = $1 AND user_id = $2")
                .bind(receipt)
                .bind(user_id)
                .fetch_optional(pool)
                .await?;
            Ok(row.is_some())
        })
    }
}
