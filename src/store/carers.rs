//! Who cares for whom (`carers`): set by an admin on the resident, read by the carer's routes, which only
//! ever reach a resident through [`Store::resident_of`] and [`Store::residents_of`], the filter in the query.

use super::users::User;
use super::{Store, StoreError, now_ms, with_pool};

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
}
