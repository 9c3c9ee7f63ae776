//! The help path's channels' health, shared by every instance: the periodic checks and the alarms' deliveries
//! write what they found, the newest finding wins.

use super::{Store, StoreError, with_pool};

/// A channel's health as last found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelHealth {
    /// The check's name (`mail`, `twilio`, `webhook`, `sip`).
    pub name: String,
    pub failing: bool,
    /// Why it fails.
    pub error: Option<String>,
    /// When it was found, epoch ms.
    pub at: i64,
}

impl Store {
    /// Records what a check or a delivery found of channel `name` at `at`; an older finding than the one stored
    /// is ignored (a slow check never undoes a delivery that came after it began).
    pub async fn found_channel(
        &self,
        name: &str,
        failing: bool,
        error: Option<&str>,
        at: i64,
    ) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO help_channels (name, failing, error, at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (name) DO UPDATE SET failing = excluded.failing, error = excluded.error, \
                 at = excluded.at WHERE help_channels.at <= excluded.at",
            )
            .bind(name)
            .bind(i64::from(failing))
            .bind(error)
            .bind(at)
            .execute(pool)
            .await?;
            Ok(())
        })
    }

    /// Every channel's health as last found.
    pub async fn channel_health(&self) -> Result<Vec<ChannelHealth>, StoreError> {
        with_pool!(self, pool => {
            let rows: Vec<(String, i64, Option<String>, i64)> =
                sqlx::query_as("SELECT name, failing, error, at FROM help_channels ORDER BY name")
                    .fetch_all(pool)
                    .await?;
            Ok(rows
                .into_iter()
                .map(|(name, failing, error, at)| ChannelHealth {
                    name,
                    failing: failing != 0,
                    error,
                    at,
                })
                .collect())
        })
    }
}
