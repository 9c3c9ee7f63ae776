//! Persistent preferences of a user: one JSON object per user.

use std::collections::HashMap;

use serde_json::Value;

use super::{Pool, Store, StoreError, now_ms, retry_busy, with_pool};
use crate::prefs::{Prefs, PrefsChange};

/// Stored prefs; what does not read (written by an older version) counts as not set.
pub(super) fn read(data: Option<(String,)>) -> Prefs {
    data.and_then(|(data,)| serde_json::from_str(&data).ok())
        .unwrap_or_default()
}

impl Store {
    /// The prefs of each of `user_ids` (at most 500 a statement): one look of the scheduler asks once for all
    /// it delivers.
    pub async fn prefs_of(&self, user_ids: &[String]) -> Result<HashMap<String, Prefs>, StoreError> {
        let mut all = HashMap::new();
        for chunk in user_ids.chunks(500) {
            let sql = format!(
                "SELECT user_id, data FROM prefs WHERE user_id IN ({})",
                super::placeholders(chunk.len())
            );
            let rows: Vec<(String, String)> = with_pool!(self, pool => {
                let mut query = sqlx::query_as(&sql);
                for id in chunk {
                    query = query.bind(id);
                }
                query.fetch_all(pool).await?
            });
            all.extend(rows.into_iter().map(|(id, data)| (id, read(Some((data,))))));
        }
        Ok(all)
    }

    /// The user's prefs; none set when none were stored.
    pub async fn prefs(&self, user_id: &str) -> Result<Prefs, StoreError> {
        with_pool!(self, pool => {
            let row: Option<(String,)> = sqlx::query_as("SELECT data FROM prefs WHERE user_id = $1")
                .bind(user_id)
                .fetch_optional(pool)
                .await?;
            Ok(read(row))
        })
    }

    /// Applies `change` to the stored prefs in one transaction and returns the result. The transaction locks
    /// the user's row before it reads (SQLite: `BEGIN IMMEDIATE`; PostgreSQL: the row made sure of, then
    /// `FOR UPDATE`), so concurrent merges, on any instance, queue instead of failing, and none loses another's
    /// keys.
    pub async fn merge_prefs(&self, user_id: &str, change: PrefsChange) -> Result<Prefs, StoreError> {
        retry_busy(|| self.try_merge_prefs(user_id, &change)).await
    }

    async fn try_merge_prefs(&self, user_id: &str, change: &PrefsChange) -> Result<Prefs, StoreError> {
        let (tx, lock) = match &self.pool {
            Pool::Sqlite(pool) => (Tx::Sqlite(pool.begin_with("BEGIN IMMEDIATE").await?), ""),
            Pool::Postgres(pool) => {
                let mut tx = pool.begin().await?;
                sqlx::query(
                    "INSERT INTO prefs (user_id, data, updated_at) VALUES ($1, '{}', $2) ON CONFLICT DO NOTHING",
                )
                .bind(user_id)
                .bind(now_ms())
                .execute(&mut *tx)
                .await?;
                (Tx::Postgres(tx), " FOR UPDATE")
            }
        };
        let select = format!("SELECT data FROM prefs WHERE user_id = $1{lock}");
        let write = "INSERT INTO prefs (user_id, data, updated_at) VALUES ($1, $2, $3) \
             ON CONFLICT (user_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at";
        macro_rules! merge {
            ($tx:ident) => {{
                let row: Option<(String,)> = sqlx::query_as(&select)
                    .bind(user_id)
                    .fetch_optional(&mut *$tx)
                    .await?;
                let mut prefs = read(row);
                if let Some(numbers) = &change.caller_numbers {
                    super::phone::assign_numbers!(&mut *$tx, user_id, numbers.as_deref().unwrap_or_default());
                }
                prefs.apply(change.clone());
                let data = serde_json::to_value(&prefs).unwrap_or(Value::Null).to_string();
                sqlx::query(write)
                    .bind(user_id)
                    .bind(data)
                    .bind(now_ms())
                    .execute(&mut *$tx)
                    .await?;
                $tx.commit().await?;
                Ok(prefs)
            }};
        }
        match tx {
            Tx::Sqlite(mut tx) => merge!(tx),
            Tx::Postgres(mut tx) => merge!(tx),
        }
    }
}

/// A transaction of either database.
enum Tx {
    Sqlite(sqlx::Transaction<'static, sqlx::Sqlite>),
    Postgres(sqlx::Transaction<'static, sqlx::Postgres>),
}
