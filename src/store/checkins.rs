//! Each person's daily check-in (their window of the day, the last sign of life, how often they were asked)
//! and the care log: what care did for a person beyond a reminder's own deliveries.

use super::{Store, StoreError, new_id, now_ms, with_pool};

/// A care notice told to a person's contacts (and carers), and who looked after it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CareNotice {
    pub user_id: String,
    /// The acknowledgement link's hash: the notice's id (the link's secret is never kept).
    pub id: String,
    /// The notice's subject.
    pub about: String,
    pub created_at: i64,
    pub acknowledged_at: Option<i64>,
    /// `link` (a contact) or `carer:<name>`.
    pub acknowledged_by: Option<String>,
}

/// A person's check-in as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StoredCheckin {
    pub user_id: String,
    /// This day's window: from `opens_at` to `due_at` (epoch milliseconds).
    pub opens_at: i64,
    pub due_at: i64,
    /// `waiting` (for the window's end) or `calling` (asked, or being asked).
    pub state: String,
    /// How often the person was asked today (this time included, once claimed).
    pub attempts: i64,
    /// The last sign of life.
    pub signed_at: Option<i64>,
    /// The end of the window of the last day the person left unanswered (the contacts were told), if any.
    pub missed_due_at: Option<i64>,
    /// Who looked after that day (`carer:<name>`); none while nobody does.
    pub missed_acknowledged_by: Option<String>,
}

/// A care notice's acknowledgement link, as stored (by its token's hash).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CareAck {
    pub user_id: String,
    /// The notice's subject.
    pub about: String,
    pub lang: String,
    pub acknowledged_at: Option<i64>,
}

/// One entry of the care log.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CareEntry {
    /// `checkin`, `notice` or `alarm` (a carer looked after it).
    pub what: String,
    /// `page`, `house_line`, `phone`, `mail`, `none`, or `carer` for a carer's act (the detail names them).
    pub channel: String,
    pub status: String,
    pub detail: Option<String>,
    pub at: i64,
}

pub(super) const COLUMNS: &str =
    "user_id, opens_at, due_at, state, attempts, signed_at, missed_due_at, missed_acknowledged_by";

/// Plans a person's check-in: `$1` the person, `$2`..`$3` the window, `$4` now.
pub(super) const PLAN: &str = "INSERT INTO checkins (user_id, opens_at, due_at, state, attempts, attempt_at, \
     updated_at) VALUES ($1, $2, $3, 'waiting', 0, NULL, $4) ON CONFLICT (user_id) DO UPDATE SET \
     opens_at = excluded.opens_at, due_at = excluded.due_at, state = 'waiting', attempts = 0, attempt_at = NULL, \
     claim = NULL, updated_at = excluded.updated_at";
/// Plans a person's check-in anew after their window changed (`$1`..`$4` as [`PLAN`]): a check-in asking them
/// now goes on (its next window is planned when it closes).
pub(super) const REPLAN: &str = "INSERT INTO checkins (user_id, opens_at, due_at, state, attempts, attempt_at, \
     updated_at) VALUES ($1, $2, $3, 'waiting', 0, NULL, $4) ON CONFLICT (user_id) DO UPDATE SET \
     opens_at = excluded.opens_at, due_at = excluded.due_at, attempts = 0, attempt_at = NULL, claim = NULL, \
     updated_at = excluded.updated_at WHERE checkins.state = 'waiting'";
/// Records the day that ended without an answer: `$1` the person, `$2` its window's end.
pub(super) const MISSED: &str = "UPDATE checkins SET missed_due_at = $2, missed_acknowledged_at = NULL, \
     missed_acknowledged_by = NULL WHERE user_id = $1";
/// Ends a person's check-ins (no window): `$1` the person.
pub(super) const UNPLAN: &str = "DELETE FROM checkins WHERE user_id = $1";

impl Store {
    /// The person's check-in, if they have a window.
    pub async fn checkin(&self, user_id: &str) -> Result<Option<StoredCheckin>, StoreError> {
        with_pool!(self, pool => {
            let sql = format!("SELECT {COLUMNS} FROM checkins WHERE user_id = $1");
            Ok(sqlx::query_as(&sql).bind(user_id).fetch_optional(pool).await?)
        })
    }

    /// Plans the person's next check-in in the window `(opens_at, due_at)`, or none; the last sign of life is
    /// kept.
    pub async fn plan_checkin(&self, user_id: &str, window: Option<(i64, i64)>) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            let query = match window {
                Some((opens_at, due_at)) => sqlx::query(PLAN)
                    .bind(user_id)
                    .bind(opens_at)
                    .bind(due_at)
                    .bind(now_ms()),
                None => sqlx::query(UNPLAN).bind(user_id),
            };
            query.execute(pool).await?;
            Ok(())
        })
    }

    /// Plans the person's check-in in the window `(opens_at, due_at)` after its window or zone changed (or
    /// ends it: none); a check-in asking the person now is left asking, so that changing the plan (a carer's
    /// act) never ends the day's question as if the person had answered.
    pub async fn replan_checkin(&self, user_id: &str, window: Option<(i64, i64)>) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            let query = match window {
                Some((opens_at, due_at)) => sqlx::query(REPLAN)
                    .bind(user_id)
                    .bind(opens_at)
                    .bind(due_at)
                    .bind(now_ms()),
                None => sqlx::query(UNPLAN).bind(user_id),
            };
            query.execute(pool).await?;
            Ok(())
        })
    }

    /// A carer (`who`, `carer:<name>`) looks after the person's missed check-in: true the first time (one
    /// statement, so two taps count once), false when looked after already; none when no day was missed.
    pub async fn acknowledge_missed_checkin(&self, user_id: &str, who: &str) -> Result<Option<bool>, StoreError> {
        with_pool!(self, pool => {
            let done = sqlx::query(
                "UPDATE checkins SET missed_acknowledged_at = $1, missed_acknowledged_by = $2 \
                 WHERE user_id = $3 AND missed_due_at IS NOT NULL AND missed_acknowledged_at IS NULL",
            )
            .bind(now_ms())
            .bind(who)
            .bind(user_id)
            .execute(pool)
            .await?;
            if done.rows_affected() == 1 {
                return Ok(Some(true));
            }
            let missed: Option<(Option<i64>,)> =
                sqlx::query_as("SELECT missed_due_at FROM checkins WHERE user_id = $1")
                    .bind(user_id)
                    .fetch_optional(pool)
                    .await?;
            Ok(missed.and_then(|(at,)| at).map(|_| false))
        })
    }

    /// Records a sign of life of the person at `at`. A check-in that is asking them is looked at again at
    /// once (the scheduler closes it). True when one was asking.
    pub async fn sign_of_life(&self, user_id: &str, at: i64) -> Result<bool, StoreError> {
        with_pool!(self, pool => {
            let asking: Option<(String,)> = sqlx::query_as(
                "UPDATE checkins SET signed_at = $1, \
                 attempt_at = CASE WHEN state = 'calling' AND attempt_at > $1 THEN $1 ELSE attempt_at END, \
                 updated_at = $1 WHERE user_id = $2 RETURNING state",
            )
            .bind(at)
            .bind(user_id)
            .fetch_optional(pool)
            .await?;
            Ok(asking.is_some_and(|(state,)| state == "calling"))
        })
    }

    /// Claims the check-ins to look at by `now`: windows that ended, and check-ins asking whose next try has
    /// come. They are `calling`, counted and leased until `lease_until` in the same statement, so that of
    /// several instances on one database exactly one looks at each.
    pub async fn claim_due_checkins(
        &self,
        now: i64,
        lease_until: i64,
        claim: &str,
    ) -> Result<Vec<StoredCheckin>, StoreError> {
        with_pool!(self, pool => {
            let sql = format!(
                "UPDATE checkins SET state = 'calling', attempts = attempts + 1, attempt_at = $2, claim = $3, \
                 updated_at = $1 WHERE (state = 'waiting' AND due_at <= $1) \
                 OR (state = 'calling' AND attempt_at IS NOT NULL AND attempt_at <= $1) \
                 RETURNING {COLUMNS}"
            );
            Ok(sqlx::query_as(&sql).bind(now).bind(lease_until).bind(claim).fetch_all(pool).await?)
        })
    }

    /// After a person was asked by the look holding `claim`: the next try at `retry_at`; `counted` false when
    /// this try was held back (quiet hours) and does not count.
    pub async fn retry_checkin(
        &self,
        user_id: &str,
        claim: &str,
        retry_at: i64,
        counted: bool,
    ) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query(
                "UPDATE checkins SET attempt_at = $1, attempts = attempts - $2, claim = NULL, updated_at = $3 \
                 WHERE user_id = $4 AND claim = $5",
            )
            .bind(retry_at)
            .bind(i64::from(!counted))
            .bind(now_ms())
            .bind(user_id)
            .bind(claim)
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// When care has something to do next: the earliest reminder due or to try again, the earliest check-in
    /// window ending or to ask again, the earliest care notice to send (five index lookups); none when nothing
    /// waits.
    pub async fn next_care_due(&self) -> Result<Option<i64>, StoreError> {
        with_pool!(self, pool => {
            let (next,): (Option<i64>,) = sqlx::query_as(
                "SELECT MIN(at) FROM (\
                 SELECT MIN(due_at) AS at FROM reminders WHERE state = 'scheduled' \
                 UNION ALL SELECT MIN(attempt_at) FROM reminders WHERE state = 'delivering' \
                 UNION ALL SELECT MIN(due_at) FROM checkins WHERE state = 'waiting' \
                 UNION ALL SELECT MIN(attempt_at) FROM checkins WHERE state = 'calling' \
                 UNION ALL SELECT MIN(next_at) FROM care_outbox WHERE state = 'waiting') AS next",
            )
            .fetch_one(pool)
            .await?;
            Ok(next)
        })
    }

    /// Keeps the acknowledgement link of a care notice about `user_id`, by its token's hash.
    pub async fn add_care_ack(
        &self,
        token_hash: &str,
        user_id: &str,
        about: &str,
        lang: &str,
    ) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO care_acks (token_hash, user_id, about, lang, created_at) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(token_hash)
            .bind(user_id)
            .bind(about)
            .bind(lang)
            .bind(now_ms())
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// The acknowledgement link of the token hash `token_hash`, if any.
    pub async fn care_ack(&self, token_hash: &str) -> Result<Option<CareAck>, StoreError> {
        with_pool!(self, pool => {
            Ok(sqlx::query_as(
                "SELECT user_id, about, lang, acknowledged_at FROM care_acks WHERE token_hash = $1",
            )
            .bind(token_hash)
            .fetch_optional(pool)
            .await?)
        })
    }

    /// Acknowledges the link of `token_hash`: true the first time (in one statement, so two clicks count once).
    pub async fn acknowledge_care(&self, token_hash: &str) -> Result<bool, StoreError> {
        with_pool!(self, pool => {
            let done = sqlx::query(
                "UPDATE care_acks SET acknowledged_at = $1, acknowledged_by = 'link' WHERE token_hash = $2 \
                 AND acknowledged_at IS NULL",
            )
            .bind(now_ms())
            .bind(token_hash)
            .execute(pool)
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// Acknowledges `user_id`'s care notice `id` (its link's hash) as `who` (`carer:<name>`): whether this was
    /// the first time (in one statement, so two taps count once), and what the notice was about; none when the
    /// person has no such notice.
    pub async fn acknowledge_care_as(
        &self,
        user_id: &str,
        id: &str,
        who: &str,
    ) -> Result<Option<(bool, String)>, StoreError> {
        with_pool!(self, pool => {
            let known: Option<(String,)> =
                sqlx::query_as("SELECT about FROM care_acks WHERE token_hash = $1 AND user_id = $2")
                    .bind(id)
                    .bind(user_id)
                    .fetch_optional(pool)
                    .await?;
            let Some((about,)) = known else {
                return Ok(None);
            };
            let done = sqlx::query(
                "UPDATE care_acks SET acknowledged_at = $1, acknowledged_by = $2 WHERE token_hash = $3 \
                 AND user_id = $4 AND acknowledged_at IS NULL",
            )
            .bind(now_ms())
            .bind(who)
            .bind(id)
            .bind(user_id)
            .execute(pool)
            .await?;
            Ok(Some((done.rows_affected() == 1, about)))
        })
    }

    /// `user_id`'s care notices since `since`, newest first (at most 20).
    pub async fn care_notices(&self, user_id: &str, since: i64) -> Result<Vec<CareNotice>, StoreError> {
        with_pool!(self, pool => {
            Ok(sqlx::query_as(
                "SELECT user_id, token_hash AS id, about, created_at, acknowledged_at, acknowledged_by FROM care_acks \
                 WHERE user_id = $1 AND created_at >= $2 ORDER BY created_at DESC LIMIT 20",
            )
            .bind(user_id)
            .bind(since)
            .fetch_all(pool)
            .await?)
        })
    }

    /// Adds an entry to the person's care log.
    pub async fn add_care_log(
        &self,
        user_id: &str,
        what: &str,
        channel: &str,
        status: &str,
        detail: Option<&str>,
    ) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO care_log (id, user_id, what, channel, status, detail, at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(new_id())
            .bind(user_id)
            .bind(what)
            .bind(channel)
            .bind(status)
            .bind(detail)
            .bind(now_ms())
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// The person's last `limit` care log entries, newest first.
    pub async fn care_log(&self, user_id: &str, limit: i64) -> Result<Vec<CareEntry>, StoreError> {
        with_pool!(self, pool => {
            Ok(sqlx::query_as(
                "SELECT what, channel, status, detail, at FROM care_log WHERE user_id = $1 \
                 ORDER BY at DESC, id DESC LIMIT $2",
            )
            .bind(user_id)
            .bind(limit)
            .fetch_all(pool)
            .await?)
        })
    }
}
