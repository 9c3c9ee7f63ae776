//! The access log: who else looked at a person's records, what and when (never the data itself).

use std::collections::HashMap;
use std::sync::Mutex;

use serde::Serialize;

use super::{Store, StoreError, new_id, now_ms, with_pool};

/// The reader of the admin key, who is nobody's account.
pub const ADMIN_KEY: &str = "admin-key";
/// Within this time the same reader's same look at the same person is one look.
pub const SAME_LOOK_MS: i64 = 3_600_000;

/// Looks remembered by an instance before the oldest are forgotten (the store still holds them).
const REMEMBERED: usize = 10_000;

/// The looks this instance recorded in the last hour: `(person, reader, what)` → when.
#[derive(Default)]
pub struct Looks(Mutex<HashMap<(String, String, &'static str), i64>>);

impl Looks {
    /// Whether a look is new (not recorded by this instance within [`SAME_LOOK_MS`]); remembers it.
    pub fn new_look(&self, key: (String, String, &'static str), now: i64) -> bool {
        let mut seen = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if seen.get(&key).is_some_and(|at| now - at < SAME_LOOK_MS) {
            return false;
        }
        if seen.len() >= REMEMBERED {
            seen.retain(|_, at| now - *at < SAME_LOOK_MS);
        }
        seen.insert(key, now);
        true
    }
}

/// One look.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Access {
    /// When, epoch milliseconds.
    pub at: i64,
    /// Who: the reader's display name (else their name), `admin-key`, or `deleted user`.
    pub reader: String,
    /// Whether the reader was one of the person's carers at the time of reading the log.
    pub carer: bool,
    /// What was read: `day` (the carers' board), `care_log`, `reminders`, `conversations`, `export`, `profile`.
    pub what: String,
}

impl Store {
    /// Records that `reader` (a user id, or [`ADMIN_KEY`]) read `what` of `user_id`; the same look again within
    /// [`SAME_LOOK_MS`] (a board reading a day every few seconds) is the one recorded already.
    pub async fn record_access(&self, user_id: &str, reader: &str, what: &str) -> Result<(), StoreError> {
        let now = now_ms();
        with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO access_log (id, user_id, reader, what, at) SELECT $1, $2, $3, $4, $5 \
                 WHERE NOT EXISTS (SELECT 1 FROM access_log WHERE user_id = $2 AND reader = $3 AND what = $4 AND at > $6)",
            )
            .bind(new_id())
            .bind(user_id)
            .bind(reader)
            .bind(what)
            .bind(now)
            .bind(now - SAME_LOOK_MS)
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// The looks at `user_id`'s records, newest first, at most `limit`.
    pub async fn access_log(&self, user_id: &str, limit: i64) -> Result<Vec<Access>, StoreError> {
        with_pool!(self, pool => {
            let sql = "SELECT a.at, COALESCE(NULLIF(u.display_name, ''), u.name, a.reader) AS reader, \
                       EXISTS (SELECT 1 FROM carers c WHERE c.resident_id = a.user_id AND c.carer_id = a.reader) AS carer, \
                       a.what FROM access_log a LEFT JOIN users u ON u.id = a.reader \
                       WHERE a.user_id = $1 ORDER BY a.at DESC, a.id DESC LIMIT $2";
            Ok(sqlx::query_as(sql).bind(user_id).bind(limit).fetch_all(pool).await?)
        })
    }
}
