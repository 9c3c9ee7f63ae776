//! Daily counters (requests, web searches) and cost accounting, all incremented atomically in SQL.

use super::{Store, StoreError, today, with_pool};

/// The per-day counter tables.
#[derive(Debug, Clone, Copy)]
pub enum Counter {
    /// Requests (turns) per user and day.
    Requests,
    /// Web-search result sets per user and day.
    WebSearches,
}

impl Counter {
    fn table(self) -> &'static str {
        match self {
            Self::Requests => "usage",
            Self::WebSearches => "web_search_usage",
        }
    }
}

impl Store {
    /// Counts one more for today unless that would pass `limit` (0 = unlimited), in one SQL statement, so
    /// concurrent requests can never overshoot. Returns the new count, or None when the limit is reached.
    pub async fn count_within(&self, counter: Counter, user_id: &str, limit: u32) -> Result<Option<i64>, StoreError> {
        with_pool!(self, pool => {
            let sql = format!(
                "INSERT INTO {t} (user_id, day, count) VALUES ($1, $2, 1) \
                 ON CONFLICT (user_id, day) DO UPDATE SET count = {t}.count + 1 \
                 WHERE $3 = 0 OR {t}.count < $3 RETURNING count",
                t = counter.table()
            );
            let row: Option<(i64,)> = sqlx::query_as(&sql)
                .bind(user_id)
                .bind(today())
                .bind(i64::from(limit))
                .fetch_optional(pool)
                .await?;
            Ok(row.map(|(count,)| count))
        })
    }

    /// Today's count of a counter.
    pub async fn count_today(&self, counter: Counter, user_id: &str) -> Result<i64, StoreError> {
        with_pool!(self, pool => {
            let sql = format!("SELECT count FROM {} WHERE user_id = $1 AND day = $2", counter.table());
            let row: Option<(i64,)> = sqlx::query_as(&sql)
                .bind(user_id)
                .bind(today())
                .fetch_optional(pool)
                .await?;
            Ok(row.map_or(0, |(count,)| count))
        })
    }

    /// Takes back one count of `day` (a question that was answered in half and then continued: it is counted
    /// once, as the whole), atomically and never below zero.
    pub async fn uncount(&self, counter: Counter, user_id: &str, day: &str) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            let sql = format!(
                "UPDATE {t} SET count = count - 1 WHERE user_id = $1 AND day = $2 AND count > 0",
                t = counter.table()
            );
            sqlx::query(&sql).bind(user_id).bind(day).execute(pool).await?;
            Ok(())
        })
    }

    /// Adds a charged cost to today's row of a category (`llm`, `llm_estimated`, `web_search`).
    pub async fn add_cost(&self, user_id: &str, category: &str, cost: f64) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO cost_usage (user_id, day, category, cost, requests) VALUES ($1, $2, $3, $4, 1) \
                 ON CONFLICT (user_id, day, category) DO UPDATE \
                 SET cost = cost_usage.cost + excluded.cost, requests = cost_usage.requests + 1",
            )
            .bind(user_id)
            .bind(today())
            .bind(category)
            .bind(cost)
            .execute(pool)
            .await?;
            Ok(())
        })
    }
}
