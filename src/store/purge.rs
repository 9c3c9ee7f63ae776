//! Retention: what is older than its kind's retention is deleted, in batches of at most `batch` rows a
//! statement, so that a purge never holds the store for long (each statement is its own short transaction).

use super::{Store, StoreError, with_pool};
pub use crate::config::privacy::Kind;

/// The statements of a kind.
trait Statements {
    fn statements(self) -> &'static [&'static str];
}

impl Statements for Kind {
    /// The statements that delete one batch, children first: each binds the cut-off (epoch milliseconds, or
    /// for the daily counters its day `YYYY-MM-DD`) as `$1` and the batch size as `$2`.
    fn statements(self) -> &'static [&'static str] {
        match self {
            Kind::Conversations => &[
                "DELETE FROM messages WHERE id IN (SELECT id FROM messages WHERE created_at < $1 LIMIT $2)",
                "DELETE FROM sessions WHERE id IN (SELECT s.id FROM sessions s WHERE s.updated_at < $1 \
                 AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id) LIMIT $2)",
            ],
            // A reminder's deliveries, and an alarm's deliveries and acknowledgements, go with it (`ON DELETE
            // CASCADE`, a few rows each).
            Kind::Care => &[
                "DELETE FROM care_log WHERE id IN (SELECT id FROM care_log WHERE at < $1 LIMIT $2)",
                "DELETE FROM reminders WHERE id IN (SELECT id FROM reminders \
                 WHERE state IN ('confirmed', 'missed', 'done', 'cancelled') AND updated_at < $1 LIMIT $2)",
            ],
            Kind::Alarms => &[
                "DELETE FROM emergency_alarms WHERE id IN (SELECT id FROM emergency_alarms WHERE created_at < $1 LIMIT $2)",
                "DELETE FROM emergency_events WHERE id IN (SELECT id FROM emergency_events WHERE created_at < $1 LIMIT $2)",
            ],
            Kind::Notices => &[
                "DELETE FROM care_outbox WHERE id IN (SELECT id FROM care_outbox \
                 WHERE state <> 'waiting' AND created_at < $1 LIMIT $2)",
                "DELETE FROM care_acks WHERE token_hash IN (SELECT token_hash FROM care_acks WHERE created_at < $1 LIMIT $2)",
            ],
            Kind::Usage => &[
                "DELETE FROM usage WHERE (user_id, day) IN (SELECT user_id, day FROM usage WHERE day < $1 LIMIT $2)",
                "DELETE FROM web_search_usage WHERE (user_id, day) IN \
                 (SELECT user_id, day FROM web_search_usage WHERE day < $1 LIMIT $2)",
                "DELETE FROM cost_usage WHERE (user_id, day, category) IN \
                 (SELECT user_id, day, category FROM cost_usage WHERE day < $1 LIMIT $2)",
                "DELETE FROM call_usage WHERE (user_id, day) IN (SELECT user_id, day FROM call_usage WHERE day < $1 LIMIT $2)",
            ],
            Kind::Audit => &["DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE at < $1 LIMIT $2)"],
            Kind::Access => &["DELETE FROM access_log WHERE id IN (SELECT id FROM access_log WHERE at < $1 LIMIT $2)"],
        }
    }
}

impl Store {
    /// How many steps a purge of `kind` takes, each run to its end before the next ([`Store::purge_batch`]).
    pub fn purge_steps(kind: Kind) -> usize {
        kind.statements().len()
    }

    /// Deletes one batch of step `step` of `kind` older than `before` (epoch milliseconds): the rows deleted, at
    /// most `batch`; 0 when the step is done. The steps go children first, and a step runs only once the one
    /// before it is done: a parent's "no children left" is then a short look, not a scan of every old parent
    /// whose children wait (which held the write lock of a SQLite store long enough to refuse a turn's write).
    pub async fn purge_batch(&self, kind: Kind, step: usize, before: i64, batch: i64) -> Result<u64, StoreError> {
        let Some(sql) = kind.statements().get(step) else {
            return Ok(0);
        };
        let day = crate::store::day_of(before);
        Ok(with_pool!(self, pool => {
            let query = sqlx::query(sql);
            let query = if kind == Kind::Usage { query.bind(day) } else { query.bind(before) };
            query.bind(batch).execute(pool).await?.rows_affected()
        }))
    }

    /// Deletes one batch of `user_id`'s messages older than `before` (the person keeps less than the gateway),
    /// and the conversations they leave empty; steps as in [`Store::purge_batch`].
    pub async fn purge_conversations_of(
        &self,
        user_id: &str,
        step: usize,
        before: i64,
        batch: i64,
    ) -> Result<u64, StoreError> {
        let statements = [
            "DELETE FROM messages WHERE id IN (SELECT id FROM messages WHERE user_id = $3 AND created_at < $1 LIMIT $2)",
            "DELETE FROM sessions WHERE id IN (SELECT s.id FROM sessions s WHERE s.user_id = $3 AND s.updated_at < $1 \
             AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id) LIMIT $2)",
        ];
        let Some(sql) = statements.get(step) else {
            return Ok(0);
        };
        Ok(with_pool!(self, pool => {
            sqlx::query(sql).bind(before).bind(batch).bind(user_id).execute(pool).await?.rows_affected()
        }))
    }
}

impl Store {
    /// The people who keep their conversations fewer days than the gateway: `(user id, days)`.
    pub async fn own_conversation_retention(&self) -> Result<Vec<(String, u64)>, StoreError> {
        let rows: Vec<(String, String)> = with_pool!(self, pool => {
            sqlx::query_as("SELECT user_id, data FROM prefs WHERE data LIKE '%conversation_retention_days%'")
                .fetch_all(pool)
                .await?
        });
        Ok(rows
            .into_iter()
            .filter_map(|(user, data)| {
                let prefs: crate::prefs::Prefs = serde_json::from_str(&data).ok()?;
                Some((user, prefs.conversation_retention_days?))
            })
            .collect())
    }
}
