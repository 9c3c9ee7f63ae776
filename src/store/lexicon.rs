//! Pronunciation lexicon entries stored per language and section.

use super::{Store, StoreError, now_ms, with_pool};

impl Store {
    /// Stored entries of a language as (section, key, value).
    pub async fn lexicon_entries(&self, lang: &str) -> Result<Vec<(String, String, String)>, StoreError> {
        with_pool!(self, pool => {
            let sql = "SELECT section, key, value FROM lexicon_entries WHERE lang = $1 ORDER BY section, key";
            Ok(sqlx::query_as(sql).bind(lang).fetch_all(pool).await?)
        })
    }

    /// Adds or replaces an entry.
    pub async fn put_lexicon_entry(&self, lang: &str, section: &str, key: &str, value: &str) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO lexicon_entries (lang, section, key, value, updated_at) VALUES ($1, $2, $3, $4, $5) \
                 ON CONFLICT (lang, section, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            )
            .bind(lang)
            .bind(section)
            .bind(key)
            .bind(value)
            .bind(now_ms())
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// Removes a stored entry; false when there was none.
    pub async fn delete_lexicon_entry(&self, lang: &str, section: &str, key: &str) -> Result<bool, StoreError> {
        with_pool!(self, pool => {
            let done = sqlx::query("DELETE FROM lexicon_entries WHERE lang = $1 AND section = $2 AND key = $3")
                .bind(lang)
                .bind(section)
                .bind(key)
                .execute(pool)
                .await?;
            Ok(done.rows_affected() == 1)
        })
    }
}
