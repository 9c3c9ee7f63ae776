//! The audit log of admin writes: who did what to which target.

use serde::Serialize;

use super::{Store, StoreError, new_id, now_ms, with_pool};

/// One audited admin action.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct AuditEntry {
    /// Identifier.
    pub id: String,
    /// Time, epoch milliseconds.
    pub at: i64,
    /// The SSO or user name of the admin, or `admin-key`.
    pub actor: String,
    /// What was done (`config.set`, `user.delete`, …).
    pub action: String,
    /// What it was done to (a user id, a config key).
    pub target: String,
    /// Further details as JSON text; never a secret.
    pub detail: String,
}

impl Store {
    /// Appends an entry to the audit log.
    pub async fn audit(&self, actor: &str, action: &str, target: &str, detail: &str) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query("INSERT INTO audit_log (id, at, actor, action, target, detail) VALUES ($1, $2, $3, $4, $5, $6)")
                .bind(new_id())
                .bind(now_ms())
                .bind(actor)
                .bind(action)
                .bind(target)
                .bind(detail)
                .execute(pool)
                .await?;
            Ok(())
        })
    }

    /// The newest audit entries first.
    pub async fn audit_entries(&self, limit: i64) -> Result<Vec<AuditEntry>, StoreError> {
        with_pool!(self, pool => {
            let sql = "SELECT id, at, actor, action, target, detail FROM audit_log ORDER BY id DESC LIMIT $1";
            Ok(sqlx::query_as(sql).bind(limit).fetch_all(pool).await?)
        })
    }
}
