//! The phone line's records: which user each caller number belongs to (kept beside the prefs key
//! `caller_numbers`, written in the same transaction, so that a number is one user's at most), and the calls of
//! each user and day with their length and cost.

use super::{Store, StoreError, now_ms, today, with_pool};

/// Replaces a user's caller numbers inside a prefs transaction (`$conn`: the transaction's connection); a
/// number that is another user's fails the transaction with [`StoreError::Conflict`].
macro_rules! assign_numbers {
    ($conn:expr, $user_id:expr, $numbers:expr) => {{
        sqlx::query("DELETE FROM caller_numbers WHERE user_id = $1")
            .bind($user_id)
            .execute($conn)
            .await?;
        for number in $numbers {
            sqlx::query("INSERT INTO caller_numbers (number, user_id) VALUES ($1, $2)")
                .bind(number)
                .bind($user_id)
                .execute($conn)
                .await
                .map_err($crate::store::conflict_as("a user with this caller number"))?;
        }
    }};
}
pub(crate) use assign_numbers;

impl Store {
    /// Takes the stream proof of `call_sid` for its one stream: true the first time within `valid_ms`, false
    /// after (on every instance: the insert is the one atomic step). Proofs older than that are forgotten.
    pub async fn use_stream_proof(&self, call_sid: &str, valid_ms: i64) -> Result<bool, StoreError> {
        let now = now_ms();
        with_pool!(self, pool => {
            sqlx::query("DELETE FROM used_stream_proofs WHERE used_at < $1")
                .bind(now - valid_ms)
                .execute(pool)
                .await?;
            let taken = sqlx::query("INSERT INTO used_stream_proofs (call_sid, used_at) VALUES ($1, $2) ON CONFLICT (call_sid) DO NOTHING")
                .bind(call_sid)
                .bind(now)
                .execute(pool)
                .await?;
            Ok(taken.rows_affected() == 1)
        })
    }

    /// The id of the user a caller number (E.164) belongs to.
    pub async fn user_of_number(&self, number: &str) -> Result<Option<String>, StoreError> {
        with_pool!(self, pool => {
            let row: Option<(String,)> = sqlx::query_as("SELECT user_id FROM caller_numbers WHERE number = $1")
                .bind(number)
                .fetch_optional(pool)
                .await?;
            Ok(row.map(|(id,)| id))
        })
    }

    /// Adds one call of `seconds` costing `cost` to the user's day, atomically.
    pub async fn add_call(&self, user_id: &str, seconds: i64, cost: f64) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO call_usage (user_id, day, calls, seconds, cost) VALUES ($1, $2, 1, $3, $4) \
                 ON CONFLICT (user_id, day) DO UPDATE SET calls = call_usage.calls + 1, \
                 seconds = call_usage.seconds + excluded.seconds, cost = call_usage.cost + excluded.cost",
            )
            .bind(user_id)
            .bind(today())
            .bind(seconds)
            .bind(cost)
            .execute(pool)
            .await?;
            Ok(())
        })
    }
}
