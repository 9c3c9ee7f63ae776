//! The help question of a typed conversation: asked, answered (taken once), or lapsed; and the day a caller
//! was last told the telephone's help key.

use super::{Store, StoreError, now_ms, with_pool};

impl Store {
    /// Notes that the person was asked the help question just now, on `channel`, about the words `said` (none:
    /// asked again, about the words it first asked about).
    pub async fn ask_help(&self, user_id: &str, channel: &str, said: Option<&str>) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO help_questions (user_id, asked_at, channel, said) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (user_id) DO UPDATE SET asked_at = excluded.asked_at, channel = excluded.channel, \
                 said = COALESCE(excluded.said, help_questions.said)",
            )
            .bind(user_id)
            .bind(now_ms())
            .bind(channel)
            .bind(said)
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// Whether the person's help question was asked at or after `since` (epoch ms) and not answered yet.
    pub async fn help_asked(&self, user_id: &str, since: i64) -> Result<bool, StoreError> {
        with_pool!(self, pool => {
            let row: Option<(i64,)> =
                sqlx::query_as("SELECT asked_at FROM help_questions WHERE user_id = $1 AND asked_at >= $2")
                    .bind(user_id)
                    .bind(since)
                    .fetch_optional(pool)
                    .await?;
            Ok(row.is_some())
        })
    }

    /// Takes the person's open help question (asked at or after `since`, or any with `since` 0): the words it
    /// asked about for the one caller that took it, so an answer sent twice, or on two instances, is acted on
    /// once.
    pub async fn settle_help(&self, user_id: &str, since: i64) -> Result<Option<String>, StoreError> {
        with_pool!(self, pool => {
            let row: Option<(Option<String>,)> = sqlx::query_as(
                "DELETE FROM help_questions WHERE user_id = $1 AND asked_at >= $2 RETURNING said",
            )
            .bind(user_id)
            .bind(since)
            .fetch_optional(pool)
            .await?;
            Ok(row.map(|(said,)| said.unwrap_or_default()))
        })
    }
}

impl Store {
    /// Whether the help key is to be told today (`day`) to the caller of `user_id` calling from `number` (the
    /// number as the line gave it; empty when withheld or unknown): true once a day per number, for the one call
    /// that claims it (one statement, so two calls at once tell it once). Every unknown caller shares the guest
    /// user, so the number, not the user, decides.
    pub async fn tell_help_key(&self, user_id: &str, number: &str, day: &str) -> Result<bool, StoreError> {
        with_pool!(self, pool => {
            let row: Option<(String,)> = sqlx::query_as(
                "INSERT INTO help_key_told_to (user_id, caller, day) VALUES ($1, $2, $3) \
                 ON CONFLICT (user_id, caller) DO UPDATE SET day = excluded.day \
                 WHERE help_key_told_to.day <> excluded.day RETURNING day",
            )
            .bind(user_id)
            .bind(number)
            .bind(day)
            .fetch_optional(pool)
            .await?;
            Ok(row.is_some())
        })
    }
}
