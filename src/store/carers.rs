//! Who cares for whom (`carers`): set by an admin on the resident, read by the carer's routes, which only
//! ever reach a resident through [`Store::resident_of`] and [`Store::residents_of`], the filter in the query.

use std::collections::HashMap;

use super::checkins::{CareNotice, StoredCheckin};
use super::emergency::Alarm;
use super::prefs::read as read_prefs;
use super::users::User;
use super::{Store, StoreError, now_ms, with_pool};
use crate::prefs::Prefs;

/// The user columns, as the joins name them.
const COLUMNS: &str = "u.id, u.name, u.display_name, u.external_id, u.is_admin, u.is_anonymous, u.created_at";

impl Store {
    /// Makes `carer_ids` the carers of `resident_id`, and nobody else.
    pub async fn set_carers(&self, resident_id: &str, carer_ids: &[String]) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("DELETE FROM carers WHERE resident_id = $1")
                .bind(resident_id)
                .execute(&mut *tx)
                .await?;
            for carer in carer_ids {
                sqlx::query("INSERT INTO carers (resident_id, carer_id, created_at) VALUES ($1, $2, $3)")
                    .bind(resident_id)
                    .bind(carer)
                    .bind(now_ms())
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    /// The carers of `resident_id`, by name.
    pub async fn carers_of(&self, resident_id: &str) -> Result<Vec<User>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM carers c JOIN users u ON u.id = c.carer_id WHERE c.resident_id = $1 ORDER BY u.name"
        );
        with_pool!(self, pool => Ok(sqlx::query_as(&sql).bind(resident_id).fetch_all(pool).await?))
    }

    /// The ids of `resident_id`'s carers.
    pub async fn carer_ids_of(&self, resident_id: &str) -> Result<Vec<String>, StoreError> {
        with_pool!(self, pool => {
            Ok(sqlx::query_scalar("SELECT carer_id FROM carers WHERE resident_id = $1")
                .bind(resident_id)
                .fetch_all(pool)
                .await?)
        })
    }

    /// The residents `carer_id` cares for, by name.
    pub async fn residents_of(&self, carer_id: &str) -> Result<Vec<User>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM carers c JOIN users u ON u.id = c.resident_id WHERE c.carer_id = $1 ORDER BY u.name"
        );
        with_pool!(self, pool => Ok(sqlx::query_as(&sql).bind(carer_id).fetch_all(pool).await?))
    }

    /// `resident_id`, when `carer_id` cares for them; else none, whether or not the user exists.
    pub async fn resident_of(&self, carer_id: &str, resident_id: &str) -> Result<Option<User>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM carers c JOIN users u ON u.id = c.resident_id \
             WHERE c.carer_id = $1 AND c.resident_id = $2"
        );
        with_pool!(self, pool => {
            Ok(sqlx::query_as(&sql).bind(carer_id).bind(resident_id).fetch_optional(pool).await?)
        })
    }

    /// Everybody who cares for somebody.
    pub async fn all_carer_ids(&self) -> Result<Vec<String>, StoreError> {
        with_pool!(self, pool => {
            Ok(sqlx::query_scalar("SELECT DISTINCT carer_id FROM carers").fetch_all(pool).await?)
        })
    }

    /// Claims `carer_id`'s summary of `day`: false when it is claimed already (here or on another instance).
    pub async fn claim_summary(&self, carer_id: &str, day: &str) -> Result<bool, StoreError> {
        with_pool!(self, pool => {
            let done = sqlx::query(
                "INSERT INTO carer_summaries (carer_id, day, sent_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            )
            .bind(carer_id)
            .bind(day)
            .bind(now_ms())
            .execute(pool)
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// Gives a claimed summary back (its mail failed): the next look tries again.
    pub async fn release_summary(&self, carer_id: &str, day: &str) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query("DELETE FROM carer_summaries WHERE carer_id = $1 AND day = $2")
                .bind(carer_id)
                .bind(day)
                .execute(pool)
                .await?;
            Ok(())
        })
    }

    /// Today's care of `carer_id`'s residents (or of `only` of them), for the board: eight statements however
    /// many residents there are, each filtered by the carer in SQL; alarms and notices from `since` on.
    pub async fn board_of(&self, carer_id: &str, only: Option<&str>, since: i64) -> Result<Board, StoreError> {
        let (mine, at) = match only {
            None => ("SELECT resident_id FROM carers WHERE carer_id = $1", "$2"),
            Some(_) => (
                "SELECT resident_id FROM carers WHERE carer_id = $1 AND resident_id = $2",
                "$3",
            ),
        };
        let of = |sql: String| (sql, carer_id, only);
        let users: Vec<User> = fetch(
            self,
            of(format!(
                "SELECT {COLUMNS} FROM users u WHERE u.id IN ({mine}) ORDER BY u.name"
            )),
            None,
        )
        .await?;
        let prefs: Vec<(String, String)> = fetch(
            self,
            of(format!("SELECT user_id, data FROM prefs WHERE user_id IN ({mine})")),
            None,
        )
        .await?;
        let checkins = format!(
            "SELECT {} FROM checkins WHERE user_id IN ({mine})",
            super::checkins::COLUMNS
        );
        let checkins: Vec<StoredCheckin> = fetch(self, of(checkins), None).await?;
        let reminders: Vec<ReminderCounts> = fetch(
            self,
            of(format!("{REMINDER_COUNTS} WHERE user_id IN ({mine}) GROUP BY user_id")),
            None,
        )
        .await?;
        // The last day's alarms, and every older one nobody looked after yet.
        let shown = format!("(created_at >= {at} OR acknowledged_at IS NULL)");
        let alarms = format!(
            "SELECT {} FROM emergency_alarms WHERE user_id IN ({mine}) AND {shown} ORDER BY created_at, id",
            super::emergency::ALARM_COLUMNS
        );
        let alarms: Vec<Alarm> = fetch(self, of(alarms), Some(since)).await?;
        let acks = format!(
            "SELECT e.alarm_id, e.contact FROM emergency_acks e JOIN emergency_alarms a ON a.id = e.alarm_id \
             WHERE a.user_id IN ({mine}) AND a.created_at >= {at} AND e.acknowledged_at IS NOT NULL \
             ORDER BY e.acknowledged_at, e.id"
        );
        let acks: Vec<(String, String)> = fetch(self, of(acks), Some(since)).await?;
        let notices = format!(
            "SELECT user_id, token_hash AS id, about, created_at, acknowledged_at, acknowledged_by FROM care_acks \
             WHERE user_id IN ({mine}) AND created_at >= {at} AND acknowledged_at IS NULL ORDER BY created_at"
        );
        let notices: Vec<CareNotice> = fetch(self, of(notices), Some(since)).await?;
        let carers = format!(
            "SELECT DISTINCT u.name, u.display_name FROM carers c JOIN users u ON u.id = c.carer_id \
             WHERE c.resident_id IN ({mine})"
        );
        let carers: Vec<(String, String)> = fetch(self, of(carers), None).await?;
        let mut board = Board::of(users, prefs, checkins, reminders, (alarms, acks), notices);
        board.carer_names = carers.into_iter().collect();
        Ok(board)
    }
}

/// Each resident's reminders counted: waiting or being delivered, missed (one-off ones: a series keeps its
/// own), and the next one's time; as `Store::reminders` lists them.
const REMINDER_COUNTS: &str = "SELECT user_id, \
    CAST(SUM(CASE WHEN state IN ('scheduled', 'delivering') THEN 1 ELSE 0 END) AS BIGINT) AS waiting, \
    CAST(SUM(CASE WHEN state = 'missed' AND series_id IS NULL THEN 1 ELSE 0 END) AS BIGINT) AS missed, \
    MIN(CASE WHEN state IN ('scheduled', 'delivering') THEN due_at END) AS next_at FROM reminders";

/// A statement of [`Store::board_of`]: its text, the carer, and the one resident it may be limited to.
type Statement<'a> = (String, &'a str, Option<&'a str>);

/// Runs a statement of [`Store::board_of`], with the time alarms and notices count from when it asks for one.
async fn fetch<T>(store: &Store, (sql, carer, only): Statement<'_>, since: Option<i64>) -> Result<Vec<T>, StoreError>
where
    T: Send
        + Unpin
        + for<'r> sqlx::FromRow<'r, sqlx::sqlite::SqliteRow>
        + for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow>,
{
    with_pool!(store, pool => {
        let mut query = sqlx::query_as(&sql).bind(carer);
        if let Some(resident) = only {
            query = query.bind(resident);
        }
        if let Some(since) = since {
            query = query.bind(since);
        }
        Ok(query.fetch_all(pool).await?)
    })
}

/// A resident's reminders, counted.
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct ReminderCounts {
    pub user_id: String,
    /// Waiting or being delivered.
    pub waiting: i64,
    /// Not confirmed in time (one-off reminders; a series keeps its own).
    pub missed: i64,
    /// When the next waiting one is due.
    pub next_at: Option<i64>,
}

/// Today's care of a carer's residents, as [`Store::board_of`] read it.
pub struct Board {
    /// The residents, by name.
    pub residents: Vec<User>,
    pub prefs: HashMap<String, Prefs>,
    pub checkins: HashMap<String, StoredCheckin>,
    pub reminders: HashMap<String, ReminderCounts>,
    /// Each resident's alarms since the time asked for, and older ones nobody looked after, oldest first.
    pub alarms: HashMap<String, Vec<Alarm>>,
    /// Who acknowledged each of those alarms, each once, first first.
    pub acknowledged_by: HashMap<String, Vec<String>>,
    /// Each resident's care notices since the time asked for that nobody looked after yet, oldest first.
    pub notices: HashMap<String, Vec<CareNotice>>,
    /// The display names of the residents' carers, by user name (acknowledgements name them `carer:<name>`).
    pub carer_names: HashMap<String, String>,
}

impl Board {
    fn of(
        residents: Vec<User>,
        prefs: Vec<(String, String)>,
        checkins: Vec<StoredCheckin>,
        reminders: Vec<ReminderCounts>,
        (alarms, acks): (Vec<Alarm>, Vec<(String, String)>),
        notices: Vec<CareNotice>,
    ) -> Self {
        let mut acknowledged_by: HashMap<String, Vec<String>> = HashMap::new();
        for (alarm, contact) in acks {
            let by = acknowledged_by.entry(alarm).or_default();
            if !by.contains(&contact) {
                by.push(contact);
            }
        }
        Self {
            residents,
            prefs: prefs
                .into_iter()
                .map(|(id, data)| (id, read_prefs(Some((data,)))))
                .collect(),
            checkins: checkins.into_iter().map(|c| (c.user_id.clone(), c)).collect(),
            reminders: reminders.into_iter().map(|r| (r.user_id.clone(), r)).collect(),
            alarms: by_resident(alarms, |a| &a.user_id),
            acknowledged_by,
            notices: by_resident(notices, |n| &n.user_id),
            carer_names: HashMap::new(),
        }
    }
}

/// `rows` grouped by their resident, in the order read.
fn by_resident<T>(rows: Vec<T>, of: impl Fn(&T) -> &String) -> HashMap<String, Vec<T>> {
    let mut grouped: HashMap<String, Vec<T>> = HashMap::new();
    for row in rows {
        grouped.entry(of(&row).clone()).or_default().push(row);
    }
    grouped
}
