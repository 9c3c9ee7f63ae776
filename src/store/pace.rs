//! Each person's pace: the end-of-turn patience learned from their pauses ([`crate::listen::pace`]). Every
//! change is one SQL statement, so two devices of one person never lose each other's lesson.

use super::{Store, StoreError, now_ms, with_pool};

/// What was learned of a user's pace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct Learned {
    /// The patience learned, in ms.
    pub patience_ms: i64,
    /// Continuations joined to a question that was cut off.
    pub joined: i64,
    /// Turns that ended cleanly since the first continuation.
    pub clean: i64,
}

/// How a continuation lengthens the patience: by `step` at least, to `floor` (the pause it took plus a margin)
/// at least, to `max` at most; `start` is the value of a user without a row yet.
#[derive(Debug, Clone, Copy)]
pub struct Lengthen {
    pub start: i64,
    pub step: i64,
    pub floor: i64,
    pub max: i64,
}

impl Store {
    /// What was learned of the user's pace; none before the first continuation.
    pub async fn pace(&self, user_id: &str) -> Result<Option<Learned>, StoreError> {
        with_pool!(self, pool => {
            let row: Option<(i64, i64, i64)> =
                sqlx::query_as("SELECT patience_ms, joined, clean FROM turn_pace WHERE user_id = $1")
                    .bind(user_id)
                    .fetch_optional(pool)
                    .await?;
            Ok(row.map(|(patience_ms, joined, clean)| Learned { patience_ms, joined, clean }))
        })
    }

    /// A continuation was joined: the patience grows (see [`Lengthen`]); the new value.
    pub async fn pace_joined(&self, user_id: &str, by: Lengthen) -> Result<i64, StoreError> {
        // max(p + step, floor), then at most max; CASE rather than MIN/MAX, which SQLite and PostgreSQL spell
        // differently.
        let grown = "CASE WHEN turn_pace.patience_ms + $3 > $4 THEN turn_pace.patience_ms + $3 ELSE $4 END";
        let sql = format!(
            "INSERT INTO turn_pace (user_id, patience_ms, joined, clean, updated_at) VALUES ($1, $2, 1, 0, $6) \
             ON CONFLICT (user_id) DO UPDATE SET patience_ms = CASE WHEN {grown} > $5 THEN $5 ELSE {grown} END, \
             joined = turn_pace.joined + 1, updated_at = $6 RETURNING patience_ms"
        );
        let first = (by.start + by.step).max(by.floor).min(by.max);
        with_pool!(self, pool => {
            let (patience,): (i64,) = sqlx::query_as(&sql)
                .bind(user_id)
                .bind(first)
                .bind(by.step)
                .bind(by.floor)
                .bind(by.max)
                .bind(now_ms())
                .fetch_one(pool)
                .await?;
            Ok(patience)
        })
    }

    /// A turn ended cleanly: the patience shrinks by an eighth of what it is above `base` (20 ms at least),
    /// never below `base`; the new value (none: nothing was learned, the user is at the base).
    pub async fn pace_clean(&self, user_id: &str, base: i64) -> Result<Option<i64>, StoreError> {
        let step = "CASE WHEN (patience_ms - $2) / 8 > 20 THEN (patience_ms - $2) / 8 ELSE 20 END";
        let sql = format!(
            "UPDATE turn_pace SET patience_ms = CASE WHEN patience_ms - {step} < $2 THEN $2 \
             ELSE patience_ms - {step} END, clean = clean + 1, updated_at = $3 \
             WHERE user_id = $1 RETURNING patience_ms"
        );
        with_pool!(self, pool => {
            let row: Option<(i64,)> = sqlx::query_as(&sql)
                .bind(user_id)
                .bind(base)
                .bind(now_ms())
                .fetch_optional(pool)
                .await?;
            Ok(row.map(|(p,)| p))
        })
    }
}
