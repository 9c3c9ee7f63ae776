//! Care notices waiting to be sent (`care_outbox`): written with the state change they tell of, in one
//! transaction; claimed, sent and marked sent once by the scheduler ([`crate::care::outbox`]).

use super::{Store, StoreError, new_id, now_ms, with_pool};

/// One message of a care notice, to be written.
#[derive(Debug, Clone)]
pub struct Outgoing {
    /// `mail` or `sms`.
    pub channel: &'static str,
    /// The mail addresses (comma-separated) or the phone number.
    pub recipient: String,
    pub subject: String,
    pub body: String,
}

/// A message waiting, as claimed.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Waiting {
    pub id: String,
    pub user_id: String,
    /// The reminder it tells of (none: the check-in).
    pub reminder_id: Option<String>,
    pub channel: String,
    pub recipient: String,
    pub subject: String,
    pub body: String,
    /// Tries so far, this one included.
    pub attempts: i64,
    pub expires_at: i64,
}

/// How the care notices fare: those waiting, those of them that failed at least twice, the last error.
#[derive(Debug, Clone, Default)]
pub struct OutboxHealth {
    pub waiting: i64,
    pub failing: i64,
    pub last_error: Option<String>,
}

const INSERT: &str = "INSERT INTO care_outbox (id, user_id, reminder_id, channel, recipient, subject, body, state, \
     attempts, next_at, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 'waiting', 0, $8, $9, $8)";

const COLUMNS: &str = "id, user_id, reminder_id, channel, recipient, subject, body, attempts, expires_at";

/// Writes `outgoing` for `user_id` (of `reminder_id`) in the transaction `tx`, to be sent from `now`.
macro_rules! write_outgoing {
    ($tx:expr, $user_id:expr, $reminder_id:expr, $outgoing:expr, ($now:expr, $expires_at:expr)) => {
        for o in $outgoing {
            sqlx::query(INSERT)
                .bind(new_id())
                .bind($user_id)
                .bind($reminder_id)
                .bind(o.channel)
                .bind(&o.recipient)
                .bind(&o.subject)
                .bind(&o.body)
                .bind($now)
                .bind($expires_at)
                .execute(&mut *$tx)
                .await?;
        }
    };
}

impl Store {
    /// The reminder `id`, being delivered by `claim`, is missed, and `outgoing` tells the contacts: one
    /// transaction (sent from `now` until `expires_at`). False when the claim no longer holds it (nothing written).
    pub async fn miss_reminder_telling(
        &self,
        (id, claim, user_id): (&str, &str, &str),
        outgoing: &[Outgoing],
        (now, expires_at): (i64, i64),
    ) -> Result<bool, StoreError> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let missed = sqlx::query(
                "UPDATE reminders SET state = 'missed', attempt_at = NULL, claim = NULL, updated_at = $1 \
                 WHERE id = $2 AND claim = $3",
            )
            .bind(now_ms())
            .bind(id)
            .bind(claim)
            .execute(&mut *tx)
            .await?;
            if missed.rows_affected() == 0 {
                return Ok(false);
            }
            write_outgoing!(tx, user_id, Some(id), outgoing, (now, expires_at));
            tx.commit().await?;
            Ok(true)
        })
    }

    /// The person's check-in day that ended at `missed` is closed (recorded for the carers' board, the next
    /// window planned, or none) and `outgoing` tells the contacts it went without a sign of life: one
    /// transaction.
    pub async fn close_checkin_telling(
        &self,
        user_id: &str,
        (missed, next): (i64, Option<(i64, i64)>),
        outgoing: &[Outgoing],
        (now, expires_at): (i64, i64),
    ) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(super::checkins::MISSED)
                .bind(user_id)
                .bind(missed)
                .execute(&mut *tx)
                .await?;
            let plan = match next {
                Some((opens_at, due_at)) => sqlx::query(super::checkins::PLAN)
                    .bind(user_id)
                    .bind(opens_at)
                    .bind(due_at)
                    .bind(now_ms()),
                None => sqlx::query(super::checkins::UNPLAN).bind(user_id),
            };
            plan.execute(&mut *tx).await?;
            write_outgoing!(tx, user_id, None::<&str>, outgoing, (now, expires_at));
            tx.commit().await?;
            Ok(())
        })
    }

    /// Claims the messages to send by `now`: counted, marked with `claim` and leased until `lease_until` in one
    /// statement, so that of several instances one sends each.
    pub async fn claim_outbox(&self, now: i64, lease_until: i64, claim: &str) -> Result<Vec<Waiting>, StoreError> {
        with_pool!(self, pool => {
            let sql = format!(
                "UPDATE care_outbox SET attempts = attempts + 1, next_at = $2, claim = $3 \
                 WHERE state = 'waiting' AND next_at <= $1 RETURNING {COLUMNS}"
            );
            Ok(sqlx::query_as(&sql).bind(now).bind(lease_until).bind(claim).fetch_all(pool).await?)
        })
    }

    /// The message `id` sent by `claim`: marked once. False when the claim no longer held it.
    pub async fn outbox_sent(&self, id: &str, claim: &str) -> Result<bool, StoreError> {
        with_pool!(self, pool => {
            let done = sqlx::query(
                "UPDATE care_outbox SET state = 'sent', sent_at = $1, claim = NULL, last_error = NULL \
                 WHERE id = $2 AND claim = $3",
            )
            .bind(now_ms())
            .bind(id)
            .bind(claim)
            .execute(pool)
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// The message `id` could not be sent by `claim` (`error`): tried again at `retry_at`, or expired (none).
    pub async fn outbox_failed(
        &self,
        id: &str,
        claim: &str,
        retry_at: Option<i64>,
        error: &str,
    ) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query(
                "UPDATE care_outbox SET state = $1, next_at = COALESCE($2, next_at), claim = NULL, last_error = $3 \
                 WHERE id = $4 AND claim = $5",
            )
            .bind(if retry_at.is_some() { "waiting" } else { "expired" })
            .bind(retry_at)
            .bind(error)
            .bind(id)
            .bind(claim)
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// How the care notices fare now.
    pub async fn outbox_health(&self) -> Result<OutboxHealth, StoreError> {
        with_pool!(self, pool => {
            let (waiting, failing): (i64, i64) = sqlx::query_as(
                "SELECT COUNT(*), COALESCE(SUM(CASE WHEN attempts >= 2 THEN 1 ELSE 0 END), 0) \
                 FROM care_outbox WHERE state = 'waiting'",
            )
            .fetch_one(pool)
            .await?;
            let last_error: Option<(Option<String>,)> = sqlx::query_as(
                "SELECT last_error FROM care_outbox WHERE state = 'waiting' \
                 AND last_error IS NOT NULL ORDER BY next_at DESC LIMIT 1",
            )
            .fetch_optional(pool)
            .await?;
            Ok(OutboxHealth {
                waiting,
                failing,
                last_error: last_error.and_then(|(e,)| e),
            })
        })
    }
}
