//! Forgetting a person whole: every row that is theirs, in every table, and their name and id where the records
//! of others keep them (a resident's care log names the carer who confirmed; the audit log the admin who acted
//! and the person acted on), replaced by "deleted user". The residents of a carer deleted keep their records.
//! [`super::Store::mentions`] finds any value left anywhere, table by table from the schema itself, so that a
//! table added later is checked without a list to update.

use super::users::User;
use super::{Store, StoreError, with_pool};

/// What stands where a deleted person's name or id was.
pub const DELETED: &str = "deleted user";

/// The deletions, children first (each binds the person's id as `$1`).
pub const STATEMENTS: &[&str] = &[
    "DELETE FROM emergency_deliveries WHERE alarm_id IN (SELECT id FROM emergency_alarms WHERE user_id = $1)",
    "DELETE FROM emergency_acks WHERE alarm_id IN (SELECT id FROM emergency_alarms WHERE user_id = $1)",
    "DELETE FROM emergency_events WHERE user_id = $1",
    "DELETE FROM emergency_cooldowns WHERE user_id = $1",
    "DELETE FROM emergency_alarms WHERE user_id = $1",
    "DELETE FROM reminder_deliveries WHERE reminder_id IN (SELECT id FROM reminders WHERE user_id = $1)",
    "DELETE FROM care_outbox WHERE user_id = $1",
    "DELETE FROM reminders WHERE user_id = $1",
    "DELETE FROM messages WHERE user_id = $1",
    "DELETE FROM sessions WHERE user_id = $1",
    "DELETE FROM memories WHERE user_id = $1",
    "DELETE FROM devices WHERE user_id = $1",
    "DELETE FROM usage WHERE user_id = $1",
    "DELETE FROM web_search_usage WHERE user_id = $1",
    "DELETE FROM cost_usage WHERE user_id = $1",
    "DELETE FROM call_usage WHERE user_id = $1",
    "DELETE FROM caller_numbers WHERE user_id = $1",
    "DELETE FROM checkins WHERE user_id = $1",
    "DELETE FROM care_log WHERE user_id = $1",
    "DELETE FROM care_acks WHERE user_id = $1",
    "DELETE FROM care_presence WHERE user_id = $1",
    "DELETE FROM care_receipts WHERE user_id = $1",
    "DELETE FROM help_questions WHERE user_id = $1",
    "DELETE FROM help_key_told_to WHERE user_id = $1",
    "DELETE FROM turn_pace WHERE user_id = $1",
    "DELETE FROM carers WHERE resident_id = $1 OR carer_id = $1",
    "DELETE FROM carer_summaries WHERE carer_id = $1",
    "DELETE FROM access_log WHERE user_id = $1",
    "UPDATE access_log SET reader = 'deleted user' WHERE reader = $1",
    "DELETE FROM prefs WHERE user_id = $1",
    "DELETE FROM tokens WHERE user_id = $1",
    "UPDATE audit_log SET target = 'deleted user' WHERE target = $1",
    "UPDATE audit_log SET detail = replace(detail, $1, 'deleted user') WHERE replace(detail, $1, '') <> detail",
];

/// Where others' records keep a name: `(sql, name)`, each binding the name as `$1` and [`DELETED`] as `$2`.
/// Free text (a care log's "by the carer Olga") is rewritten only for names of three characters or more, so
/// that a short name does not rewrite other words.
pub fn scrubbing(user: &User) -> Vec<(String, String)> {
    let exact = [
        ("config_overrides", "updated_by"),
        ("checkins", "missed_acknowledged_by"),
        ("care_acks", "acknowledged_by"),
    ];
    let free = [("care_log", "detail"), ("reminder_deliveries", "detail")];
    let mut names = vec![user.name.clone()];
    if !user.display_name.trim().is_empty() && !names.contains(&user.display_name) {
        names.push(user.display_name.clone());
    }
    names.extend(user.external_id.clone().filter(|e| !names.contains(e)));
    let mut out = Vec::new();
    for name in names {
        for (table, column) in exact {
            out.push((
                format!("UPDATE {table} SET {column} = $2 WHERE {column} = $1"),
                name.clone(),
            ));
        }
        // The audit names an admin by name, a carer as `carer:<name>`.
        out.push((
            "UPDATE audit_log SET actor = replace(actor, $1, $2) WHERE actor = $1 OR actor = 'carer:' || $1".into(),
            name.clone(),
        ));
        // As a JSON string in the audit's details.
        let quoted = "'\"' || $1 || '\"'";
        out.push((
            format!(
                "UPDATE audit_log SET detail = replace(detail, {quoted}, '\"' || $2 || '\"') \
                 WHERE replace(detail, {quoted}, '') <> detail"
            ),
            name.clone(),
        ));
        if name.chars().count() >= 3 {
            for (table, column) in free {
                let sql = format!(
                    "UPDATE {table} SET {column} = replace({column}, $1, $2) WHERE replace({column}, $1, '') <> {column}"
                );
                out.push((sql, name.clone()));
            }
        }
    }
    out
}

impl Store {
    /// Deletes a user and all of the user's data in one transaction, and their name where the records of others
    /// keep it ([`scrubbing`]); false when the user does not exist.
    pub async fn delete_user(&self, id: &str) -> Result<bool, StoreError> {
        let Some(user) = self.user_by_id(id).await? else {
            return Ok(false);
        };
        if user.is_anonymous {
            return Ok(false);
        }
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            for sql in STATEMENTS {
                sqlx::query(sql).bind(id).execute(&mut *tx).await?;
            }
            for (sql, name) in scrubbing(&user) {
                sqlx::query(&sql).bind(name).bind(DELETED).execute(&mut *tx).await?;
            }
            let done = sqlx::query("DELETE FROM users WHERE id = $1 AND is_anonymous = FALSE")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// Every table and column holding `needle` (equal, or within a text): `(table, column, rows)`.
    pub async fn mentions(&self, needle: &str) -> Result<Vec<(String, String, i64)>, StoreError> {
        let columns = self.schema_columns().await?;
        let mut found = Vec::new();
        for (table, column) in columns {
            let cast = if self.is_sqlite() {
                "CAST(\"{c}\" AS TEXT)"
            } else {
                "\"{c}\"::text"
            }
            .replace("{c}", &column);
            let sql = format!("SELECT COUNT(*) FROM \"{table}\" WHERE replace({cast}, $1, '') <> {cast}");
            let rows: i64 = with_pool!(self, pool => sqlx::query_scalar(&sql).bind(needle).fetch_one(pool).await?);
            if rows > 0 {
                found.push((table, column, rows));
            }
        }
        Ok(found)
    }
}
