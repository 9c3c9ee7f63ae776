//! A person's rows, table by table, as JSON: every table that names her (found from the schema, so a table
//! added later is in the archive without a list to update), without the columns that hold a secret's hash or
//! an instance's claim. Read a page at a time, so that a long history is never held whole.

use super::{Store, StoreError, with_pool};

/// Columns never handed over: hashes of secrets (a token, a link) and instances' claims.
const WITHHELD: &[&str] = &["hash", "token_hash", "claim"];
/// Tables never handed over: the sign-in tokens (hashes) themselves.
const WITHHELD_TABLES: &[&str] = &["tokens"];
/// Rows a page holds.
pub const PAGE: i64 = 500;

/// One table of a person's data: its name, the columns handed over and which rows are hers (`$1` her id).
#[derive(Debug, Clone)]
pub struct Table {
    pub name: String,
    columns: Vec<String>,
    mine: String,
}

/// Which rows of `table` (with `columns`) are the person's, if any are.
fn mine(table: &str, columns: &[String]) -> Option<String> {
    let has = |c: &str| columns.iter().any(|x| x == c);
    Some(match table {
        "users" => "id = $1".into(),
        "carers" => "resident_id = $1 OR carer_id = $1".into(),
        "carer_summaries" => "carer_id = $1".into(),
        "audit_log" => "target = $1".into(),
        // Who looked at hers, and whose she looked at as a carer.
        "access_log" => "user_id = $1 OR reader = $1".into(),
        "reminder_deliveries" => "reminder_id IN (SELECT id FROM reminders WHERE user_id = $1)".into(),
        "emergency_deliveries" | "emergency_acks" => {
            "alarm_id IN (SELECT id FROM emergency_alarms WHERE user_id = $1)".into()
        }
        _ if has("user_id") => "user_id = $1".into(),
        _ => return None,
    })
}

impl Store {
    /// Every column of every table of the schema, `(table, column)`, table by table in column order: from the
    /// database's own catalogue, so that a table added later is seen without a list to update.
    pub async fn schema_columns(&self) -> Result<Vec<(String, String)>, StoreError> {
        with_pool!(self, pool => {
            let sql = if self.is_sqlite() {
                "SELECT m.name, c.name FROM sqlite_master m JOIN pragma_table_info(m.name) c \
                 WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '_sqlx%' ORDER BY m.name, c.cid"
            } else {
                "SELECT table_name::text, column_name::text FROM information_schema.columns \
                 WHERE table_schema = current_schema() AND table_name NOT LIKE '_sqlx%' ORDER BY table_name, ordinal_position"
            };
            Ok(sqlx::query_as(sql).fetch_all(pool).await?)
        })
    }

    /// The tables that hold rows of a person, by name.
    pub async fn export_tables(&self) -> Result<Vec<Table>, StoreError> {
        let columns = self.schema_columns().await?;
        let mut tables: Vec<(String, Vec<String>)> = Vec::new();
        for (table, column) in columns {
            match tables.last_mut() {
                Some((name, cols)) if *name == table => cols.push(column),
                _ => tables.push((table, vec![column])),
            }
        }
        Ok(tables
            .into_iter()
            .filter(|(name, _)| !WITHHELD_TABLES.contains(&name.as_str()))
            .filter_map(|(name, columns)| {
                let mine = mine(&name, &columns)?;
                let columns = columns
                    .into_iter()
                    .filter(|c| !WITHHELD.contains(&c.as_str()))
                    .collect();
                Some(Table { name, columns, mine })
            })
            .collect())
    }

    /// Page `page` (from 0) of `user_id`'s rows of `table`, each a JSON object's text.
    pub async fn export_page(&self, table: &Table, user_id: &str, page: i64) -> Result<Vec<String>, StoreError> {
        let quoted: Vec<String> = table.columns.iter().map(|c| format!("\"{c}\"")).collect();
        let (name, mine) = (&table.name, &table.mine);
        let sql = if self.is_sqlite() {
            let pairs: Vec<String> = table.columns.iter().map(|c| format!("'{c}', \"{c}\"")).collect();
            format!(
                "SELECT json_object({}) FROM \"{name}\" WHERE {mine} ORDER BY 1 LIMIT $2 OFFSET $3",
                pairs.join(", ")
            )
        } else {
            format!(
                "SELECT row_to_json(x)::text FROM (SELECT {} FROM \"{name}\" WHERE {mine} ORDER BY 1 LIMIT $2 OFFSET $3) x",
                quoted.join(", ")
            )
        };
        with_pool!(self, pool => {
            Ok(sqlx::query_scalar(&sql).bind(user_id).bind(PAGE).bind(page * PAGE).fetch_all(pool).await?)
        })
    }
}
