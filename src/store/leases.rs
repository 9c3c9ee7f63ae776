//! Leases: a named task that one gateway instance at a time may run, held until released or expired.

use super::{Store, StoreError, now_ms, with_pool};

impl Store {
    /// Takes the lease `name` for `holder` for `ttl_ms` when nobody holds it (or the holder's time ran out);
    /// false when another holds it. One statement, so two instances asking at once cannot both get it.
    pub async fn claim_lease(&self, name: &str, holder: &str, ttl_ms: i64) -> Result<bool, StoreError> {
        with_pool!(self, pool => {
            let now = now_ms();
            let row: Option<(String,)> = sqlx::query_as(
                "INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at \
                 WHERE leases.expires_at < $4 RETURNING holder",
            )
            .bind(name)
            .bind(holder)
            .bind(now + ttl_ms)
            .bind(now)
            .fetch_optional(pool)
            .await?;
            Ok(row.is_some())
        })
    }

    /// Gives the lease back, if `holder` still holds it.
    pub async fn release_lease(&self, name: &str, holder: &str) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query("DELETE FROM leases WHERE name = $1 AND holder = $2")
                .bind(name)
                .bind(holder)
                .execute(pool)
                .await?;
            Ok(())
        })
    }
}
