//! Reminders and timers of each person, and each attempt to deliver one.

use super::{Store, StoreError, new_id, now_ms, with_pool};

/// A reminder as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StoredReminder {
    pub id: String,
    pub user_id: String,
    pub text: String,
    /// Epoch milliseconds of the next time it is due.
    pub due_at: i64,
    /// The IANA time zone its wall-clock time is kept in.
    pub time_zone: String,
    /// An RFC 5545 rule (`FREQ=DAILY`, `FREQ=WEEKLY;BYDAY=MO,TH`), or none for once.
    pub repeat_rule: Option<String>,
    pub confirm: bool,
    pub timer: bool,
    /// `scheduled`, `delivering`, `confirmed`, `missed`, `done` or `cancelled`.
    pub state: String,
    /// `user`, `admin` or `voice`.
    pub created_by: String,
    pub created_at: i64,
    /// How often it was delivered (this time included, once claimed).
    pub attempts: i64,
    /// The repeating reminder this is an occurrence of.
    pub series_id: Option<String>,
}

/// One attempt to deliver a reminder.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Delivery {
    pub reminder_id: String,
    /// `page`, `house_line`, `phone` or `home_assistant`.
    pub channel: String,
    pub status: String,
    pub detail: Option<String>,
    pub at: i64,
}

/// A reminder missed while the gateway was down, with the time it was for.
#[derive(sqlx::FromRow)]
struct Missed {
    #[sqlx(flatten)]
    reminder: StoredReminder,
    missed_at: i64,
}

/// A new reminder.
pub struct NewReminder<'a> {
    pub text: &'a str,
    pub due_at: i64,
    pub time_zone: &'a str,
    pub repeat_rule: Option<&'a str>,
    pub confirm: bool,
    pub timer: bool,
    pub created_by: &'a str,
}

const COLUMNS: &str = "id, user_id, text, due_at, time_zone, repeat_rule, confirm, timer, state, created_by, \
                       created_at, attempts, series_id";

/// States of a reminder still to come.
const WAITING: &str = "('scheduled', 'delivering')";

impl Store {
    /// The person's reminders that are not cancelled or done, the next first.
    pub async fn reminders(&self, user_id: &str) -> Result<Vec<StoredReminder>, StoreError> {
        with_pool!(self, pool => {
            let sql = format!(
                "SELECT {COLUMNS} FROM reminders WHERE user_id = $1 AND state NOT IN ('cancelled', 'done') \
                 AND NOT (series_id IS NOT NULL AND state IN ('confirmed', 'missed')) ORDER BY due_at, id"
            );
            Ok(sqlx::query_as(&sql).bind(user_id).fetch_all(pool).await?)
        })
    }

    /// One of the person's reminders.
    pub async fn reminder(&self, user_id: &str, id: &str) -> Result<Option<StoredReminder>, StoreError> {
        with_pool!(self, pool => {
            let sql = format!("SELECT {COLUMNS} FROM reminders WHERE id = $1 AND user_id = $2");
            Ok(sqlx::query_as(&sql).bind(id).bind(user_id).fetch_optional(pool).await?)
        })
    }

    /// Adds a reminder unless the person already has `cap` waiting; `None` then. The person's row is locked
    /// first, so two adds at once never pass the cap together.
    pub async fn add_reminder(
        &self,
        user_id: &str,
        new: &NewReminder<'_>,
        cap: u32,
    ) -> Result<Option<StoredReminder>, StoreError> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(super::users::LOCK_USER).bind(user_id).execute(&mut *tx).await?;
            let now = now_ms();
            let sql = format!(
                "INSERT INTO reminders (id, user_id, text, due_at, time_zone, repeat_rule, confirm, timer, state, \
                 created_by, created_at, updated_at) \
                 SELECT $1, $2, $3, $4, $5, $6, $7, $8, 'scheduled', $9, $10, $10 \
                 WHERE (SELECT COUNT(*) FROM reminders WHERE user_id = $2 AND state IN {WAITING}) < $11 \
                 RETURNING {COLUMNS}"
            );
            let added = sqlx::query_as(&sql)
                .bind(new_id())
                .bind(user_id)
                .bind(new.text)
                .bind(new.due_at)
                .bind(new.time_zone)
                .bind(new.repeat_rule)
                .bind(new.confirm)
                .bind(new.timer)
                .bind(new.created_by)
                .bind(now)
                .bind(i64::from(cap))
                .fetch_optional(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(added)
        })
    }

    /// Cancels one of the person's waiting reminders; false when there is no such reminder waiting.
    pub async fn cancel_reminder(&self, user_id: &str, id: &str) -> Result<bool, StoreError> {
        let cancelled = self.move_reminder(user_id, id, WAITING, "cancelled").await?;
        // Of a repeating reminder, the occurrence still waiting for its confirmation goes with it.
        with_pool!(self, pool => {
            let sql = format!(
                "UPDATE reminders SET state = 'cancelled', attempt_at = NULL, claim = NULL, updated_at = $1 \
                 WHERE series_id = $2 AND user_id = $3 AND state IN {WAITING}"
            );
            sqlx::query(&sql).bind(now_ms()).bind(id).bind(user_id).execute(pool).await?;
        });
        Ok(cancelled)
    }

    /// Confirms a reminder: one being delivered becomes `confirmed`; of a repeating one, the last time it was
    /// delivered. False when there is nothing of the person's to confirm.
    pub async fn confirm_reminder(&self, user_id: &str, id: &str) -> Result<bool, StoreError> {
        if self.move_reminder(user_id, id, "('delivering')", "confirmed").await? {
            return Ok(true);
        }
        with_pool!(self, pool => {
            let done = sqlx::query(
                "UPDATE reminder_deliveries SET status = 'confirmed' WHERE id = (SELECT d.id FROM reminder_deliveries d \
                 JOIN reminders r ON r.id = d.reminder_id WHERE r.id = $1 AND r.user_id = $2 \
                 AND r.repeat_rule IS NOT NULL AND r.state = 'scheduled' AND d.status = 'delivered' \
                 ORDER BY d.at DESC LIMIT 1)",
            )
            .bind(id)
            .bind(user_id)
            .execute(pool)
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// Claims what is to be delivered by `now`: reminders due, and reminders being delivered whose next try
    /// has come (no confirmation yet, or an instance that claimed them and stopped before it delivered). They
    /// are `delivering`, counted, marked with `claim` and leased until `lease_until` in the same statement, so
    /// that of several instances on one database exactly one delivers each.
    pub async fn claim_due_reminders(
        &self,
        now: i64,
        lease_until: i64,
        claim: &str,
    ) -> Result<Vec<StoredReminder>, StoreError> {
        with_pool!(self, pool => {
            let sql = format!(
                "UPDATE reminders SET state = 'delivering', attempts = attempts + 1, attempt_at = $2, claim = $3, \
                 updated_at = $1 WHERE (state = 'scheduled' AND due_at <= $1) \
                 OR (state = 'delivering' AND attempt_at IS NOT NULL AND attempt_at <= $1) \
                 RETURNING {COLUMNS}"
            );
            Ok(sqlx::query_as(&sql).bind(now).bind(lease_until).bind(claim).fetch_all(pool).await?)
        })
    }

    /// Renews the lease of the reminders and check-ins `claim` is still delivering until `lease_until`.
    pub async fn renew_care_claims(&self, claim: &str, lease_until: i64) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            for sql in [
                "UPDATE reminders SET attempt_at = $1 WHERE claim = $2 AND state = 'delivering'",
                "UPDATE checkins SET attempt_at = $1 WHERE claim = $2 AND state = 'calling'",
            ] {
                sqlx::query(sql).bind(lease_until).bind(claim).execute(pool).await?;
            }
            Ok(())
        })
    }

    /// This time of the repeating reminder `series` (claimed by `claim`) becomes a reminder of its own, being
    /// delivered under the same claim (leased until `lease_until`), and the series waits for `next` (none: it is
    /// done), in one transaction. None when the claim no longer holds the series.
    pub async fn split_occurrence(
        &self,
        series: &StoredReminder,
        (claim, lease_until): (&str, i64),
        next: Option<i64>,
    ) -> Result<Option<StoredReminder>, StoreError> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let now = now_ms();
            let moved = sqlx::query(
                "UPDATE reminders SET state = $1, due_at = COALESCE($2, due_at), attempts = 0, attempt_at = NULL, \
                 claim = NULL, updated_at = $3 WHERE id = $4 AND claim = $5",
            )
            .bind(if next.is_some() { "scheduled" } else { "done" })
            .bind(next)
            .bind(now)
            .bind(&series.id)
            .bind(claim)
            .execute(&mut *tx)
            .await?;
            if moved.rows_affected() == 0 {
                return Ok(None);
            }
            let sql = format!(
                "INSERT INTO reminders (id, user_id, text, due_at, time_zone, repeat_rule, confirm, timer, state, \
                 attempt_at, attempts, created_by, created_at, updated_at, series_id, claim) \
                 SELECT $1, user_id, text, $2, time_zone, NULL, confirm, timer, 'delivering', $3, 1, created_by, \
                 $4, $4, id, $5 FROM reminders WHERE id = $6 RETURNING {COLUMNS}"
            );
            let occurrence = sqlx::query_as(&sql)
                .bind(new_id())
                .bind(series.due_at)
                .bind(lease_until)
                .bind(now)
                .bind(claim)
                .bind(&series.id)
                .fetch_one(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(Some(occurrence))
        })
    }

    /// After a delivery by `claim`: a repeating reminder waits for `next` (counted afresh); another goes to
    /// `state`, tried again at `retry_at` if given. False when the claim no longer holds it (nothing changed).
    pub async fn after_delivery(
        &self,
        id: &str,
        claim: &str,
        next: Option<i64>,
        state: &str,
        retry_at: Option<i64>,
    ) -> Result<bool, StoreError> {
        with_pool!(self, pool => {
            let done = match next {
                Some(at) => sqlx::query(
                    "UPDATE reminders SET state = 'scheduled', due_at = $1, attempts = 0, attempt_at = NULL, \
                     claim = NULL, updated_at = $2 WHERE id = $3 AND claim = $4",
                )
                .bind(at)
                .bind(now_ms())
                .bind(id)
                .bind(claim),
                // A reminder confirmed while it was being delivered (a 1 on the call) stays confirmed.
                None => sqlx::query(
                    "UPDATE reminders SET state = $1, attempt_at = $2, claim = NULL, updated_at = $3 WHERE id = $4 \
                     AND claim = $5",
                )
                    .bind(state)
                    .bind(retry_at)
                    .bind(now_ms())
                    .bind(id)
                    .bind(claim),
            };
            Ok(done.execute(pool).await?.rows_affected() == 1)
        })
    }

    /// Holds a reminder being delivered by `claim` until `until` (quiet hours): this delivery does not count.
    pub async fn hold_reminder(&self, id: &str, claim: &str, until: i64) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query(
                "UPDATE reminders SET attempt_at = $1, attempts = attempts - 1, claim = NULL, updated_at = $2 \
                 WHERE id = $3 AND claim = $4",
            )
            .bind(until)
            .bind(now_ms())
            .bind(id)
            .bind(claim)
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// Moves a reminder from one of the states `from` to `to`, in one statement.
    async fn move_reminder(&self, user_id: &str, id: &str, from: &str, to: &str) -> Result<bool, StoreError> {
        with_pool!(self, pool => {
            let sql = format!(
                "UPDATE reminders SET state = $1, attempt_at = NULL, claim = NULL, updated_at = $2 \
                 WHERE id = $3 AND user_id = $4 AND state IN {from}"
            );
            let done = sqlx::query(&sql).bind(to).bind(now_ms()).bind(id).bind(user_id).execute(pool).await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// The deliveries of the person's reminders `ids`, oldest first.
    pub async fn reminder_deliveries(&self, ids: &[String]) -> Result<Vec<Delivery>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT reminder_id, channel, status, detail, at FROM reminder_deliveries WHERE reminder_id IN ({}) \
             ORDER BY at, id",
            super::placeholders(ids.len())
        );
        with_pool!(self, pool => {
            let mut query = sqlx::query_as(&sql);
            for id in ids {
                query = query.bind(id);
            }
            Ok(query.fetch_all(pool).await?)
        })
    }

    /// The last `limit` deliveries of all the person's reminders with each reminder's text, newest first.
    pub async fn user_reminder_deliveries(
        &self,
        user_id: &str,
        limit: i64,
    ) -> Result<Vec<(Delivery, String)>, StoreError> {
        with_pool!(self, pool => {
            let rows: Vec<(String, String, String, Option<String>, i64, String)> = sqlx::query_as(
                "SELECT d.reminder_id, d.channel, d.status, d.detail, d.at, r.text FROM reminder_deliveries d \
                 JOIN reminders r ON r.id = d.reminder_id WHERE r.user_id = $1 ORDER BY d.at DESC, d.id DESC LIMIT $2",
            )
            .bind(user_id)
            .bind(limit)
            .fetch_all(pool)
            .await?;
            Ok(rows
                .into_iter()
                .map(|(reminder_id, channel, status, detail, at, text)| {
                    (Delivery { reminder_id, channel, status, detail, at }, text)
                })
                .collect())
        })
    }

    /// Records that the reminder, due at `due_at`, was missed while the gateway was down: to be told to the
    /// person on their next contact.
    pub async fn add_missed_while_down(&self, reminder_id: &str, due_at: i64, detail: &str) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO reminder_deliveries (id, reminder_id, channel, status, detail, at, due_at) \
                 VALUES ($1, $2, 'none', 'missed', $3, $4, $5)",
            )
            .bind(new_id())
            .bind(reminder_id)
            .bind(detail)
            .bind(now_ms())
            .bind(due_at)
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// The person's reminders missed while the gateway was down and not told yet: (reminder, the time it was
    /// for), oldest first; each is marked told (a `told` record on `channel`) in the same transaction, so that
    /// two connections opening at once tell it once.
    pub async fn take_missed_while_down(
        &self,
        user_id: &str,
        channel: &str,
    ) -> Result<Vec<(StoredReminder, i64)>, StoreError> {
        let columns: String = COLUMNS
            .split(", ")
            .map(|c| format!("r.{c}"))
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!(
            "SELECT {columns}, d.due_at AS missed_at FROM reminder_deliveries d JOIN reminders r ON r.id = d.reminder_id \
             WHERE r.user_id = $1 AND d.status = 'missed' AND d.due_at IS NOT NULL AND NOT EXISTS \
             (SELECT 1 FROM reminder_deliveries t WHERE t.reminder_id = d.reminder_id AND t.status = 'told' \
             AND t.due_at = d.due_at) ORDER BY d.due_at"
        );
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(super::users::LOCK_USER).bind(user_id).execute(&mut *tx).await?;
            let rows: Vec<Missed> = sqlx::query_as(&sql).bind(user_id).fetch_all(&mut *tx).await?;
            for m in &rows {
                sqlx::query(
                    "INSERT INTO reminder_deliveries (id, reminder_id, channel, status, detail, at, due_at) \
                     VALUES ($1, $2, $3, 'told', NULL, $4, $5)",
                )
                .bind(new_id())
                .bind(&m.reminder.id)
                .bind(channel)
                .bind(now_ms())
                .bind(m.missed_at)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok(rows.into_iter().map(|m| (m.reminder, m.missed_at)).collect())
        })
    }

    /// Records an attempt to deliver a reminder.
    pub async fn add_reminder_delivery(
        &self,
        reminder_id: &str,
        channel: &str,
        status: &str,
        detail: Option<&str>,
    ) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO reminder_deliveries (id, reminder_id, channel, status, detail, at) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(new_id())
            .bind(reminder_id)
            .bind(channel)
            .bind(status)
            .bind(detail)
            .bind(now_ms())
            .execute(pool)
            .await?;
            Ok(())
        })
    }
}
