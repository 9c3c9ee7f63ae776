//! The database: SQLite in WAL mode (the default), or PostgreSQL when several instances share one store;
//! the same migrations run on both at start; one file per group of tables.
//!
//! All SQL here is written so both accept it (`$n` placeholders, BIGINT epoch milliseconds, BOOLEAN flags,
//! `ON CONFLICT … DO UPDATE`, `RETURNING`); each query is compiled for both drivers by [`with_pool!`].
//! Counters are incremented in SQL, never read-modify-write in Rust, and every step that must be exact
//! (quotas, the cooldown claim, leases) is one statement, so it holds between instances, not only tasks.

pub mod access;
pub mod audit;
pub mod carers;
pub mod checkins;
pub mod devices;
pub mod emergency;
pub mod export;
pub mod forget;
pub mod help_channels;
pub mod help_questions;
pub mod leases;
pub mod lexicon;
pub mod memories;
pub mod outbox;
pub mod overrides;
pub mod pace;
pub mod phone;
pub mod prefs;
pub mod presence;
pub mod purge;
pub mod reminders;
pub mod sessions;
pub mod stats;
pub mod usage;
pub mod users;

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

/// The size the write-ahead log is held to: SQLite cuts the file back to it after a checkpoint, and a log that
/// grew past it under constant reading is truncated by [`Store::checkpoint`].
pub const WAL_LIMIT_BYTES: i64 = 64 * 1024 * 1024;

/// How often [`Store::run_checkpoints`] checkpoints.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(10);

/// Failures of the store that callers distinguish.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A unique constraint was hit (for example a user name that exists).
    #[error("{0} already exists")]
    Conflict(&'static str),
    /// Anything else the database reported.
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    /// The database file or its folder could not be prepared.
    #[error("cannot prepare database: {0}")]
    Setup(String),
}

impl From<StoreError> for crate::error::ApiError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Conflict(what) => Self::Conflict(format!("{what} already exists")),
            other => Self::Internal(other.to_string()),
        }
    }
}

/// Maps a unique-constraint violation to `Conflict`, anything else to `Db`.
pub(crate) fn conflict_as(what: &'static str) -> impl Fn(sqlx::Error) -> StoreError {
    move |err| match &err {
        sqlx::Error::Database(db) if db.is_unique_violation() => StoreError::Conflict(what),
        _ => StoreError::Db(err),
    }
}

/// The connection pool of either database.
#[derive(Clone, Debug)]
pub enum Pool {
    /// The embedded SQLite file (the default).
    Sqlite(sqlx::SqlitePool),
    /// A PostgreSQL server (`DATABASE_URL`), shared by several instances of the gateway.
    Postgres(sqlx::PgPool),
}

/// Runs `$body` with `$pool` bound to the store's pool, whichever database it is: the body is written once
/// and compiled for each, so every query is checked against both drivers' types.
#[macro_export]
macro_rules! with_pool {
    ($store:expr, $pool:ident => $body:expr) => {
        match &$store.pool {
            $crate::store::Pool::Sqlite($pool) => $body,
            $crate::store::Pool::Postgres($pool) => $body,
        }
    };
}
pub(crate) use with_pool;

/// `$1, $2, …, $n`: the placeholders of a list of `n` values.
pub(crate) fn placeholders(n: usize) -> String {
    placeholders_from(1, n)
}

/// `$first, …`: `n` placeholders numbered from `first`.
pub(crate) fn placeholders_from(first: usize, n: usize) -> String {
    (first..first + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A handle to the database; cheap to clone.
#[derive(Clone, Debug)]
pub struct Store {
    /// The connection pool.
    pub pool: Pool,
}

impl Store {
    /// Opens (creating if missing) the SQLite file and runs the migrations.
    pub async fn open(path: &Path) -> Result<Self, StoreError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            tokio::fs::create_dir_all(dir)
                .await
                .map_err(|e| StoreError::Setup(format!("{}: {e}", dir.display())))?;
        }
        let options = SqliteConnectOptions::from_str(&format!("sqlite://{}", path.display()))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5))
            // When a checkpoint has emptied the write-ahead log, the file is cut back to this size.
            .pragma("journal_size_limit", WAL_LIMIT_BYTES.to_string());
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations")
            .run(&pool)
            .await
            .map_err(|e| StoreError::Setup(format!("migrations: {e}")))?;
        Ok(Self {
            pool: Pool::Sqlite(pool),
        })
    }

    /// Connects to PostgreSQL at `url` with up to `connections` connections, waiting (with growing pauses, at
    /// most `patience`) for a server that is still starting, then runs the migrations.
    pub async fn connect(url: &str, connections: u32, patience: Duration) -> Result<Self, StoreError> {
        let options = sqlx::postgres::PgConnectOptions::from_str(url)?;
        let started = std::time::Instant::now();
        let mut pause = Duration::from_millis(250);
        let pool = loop {
            let attempt = sqlx::postgres::PgPoolOptions::new()
                .max_connections(connections)
                .acquire_timeout(patience.clamp(Duration::from_secs(1), Duration::from_secs(10)))
                .connect_with(options.clone())
                .await;
            match attempt {
                Ok(pool) => break pool,
                Err(err) if started.elapsed() < patience && is_unreachable(&err) => {
                    tracing::warn!(%err, "PostgreSQL does not answer yet; trying again");
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(4));
                }
                Err(err) => {
                    return Err(StoreError::Setup(format!(
                        "PostgreSQL at {} cannot be used: {err}",
                        options.get_host()
                    )));
                }
            }
        };
        sqlx::migrate!("./migrations")
            .run(&pool)
            .await
            .map_err(|e| StoreError::Setup(format!("migrations: {e}")))?;
        Ok(Self {
            pool: Pool::Postgres(pool),
        })
    }

    /// The store the settings name: PostgreSQL at `DATABASE_URL`, else the SQLite file at `DB_PATH`.
    pub async fn from_settings(settings: &crate::config::Settings) -> Result<Self, StoreError> {
        match &settings.store.database_url {
            Some(url) => {
                use secrecy::ExposeSecret;
                let patience = Duration::from_secs(settings.store.database_wait_secs);
                Self::connect(url.expose_secret(), settings.store.database_max_connections, patience).await
            }
            None => Self::open(&settings.store.db_path).await,
        }
    }

    /// Whether this is the embedded SQLite store.
    pub fn is_sqlite(&self) -> bool {
        matches!(self.pool, Pool::Sqlite(_))
    }

    /// Copies the write-ahead log into the database (SQLite only). A passive checkpoint never waits; when the
    /// log has grown past [`WAL_LIMIT_BYTES`] anyway (readers kept it from being reset), a truncating one
    /// waits for them (holding writers back for that moment) and empties the file. Returns the log's size in
    /// pages before.
    pub async fn checkpoint(&self) -> Result<i64, StoreError> {
        self.checkpoint_over(WAL_LIMIT_BYTES).await
    }

    /// [`Store::checkpoint`] with another limit (tests use a small one).
    pub async fn checkpoint_over(&self, limit_bytes: i64) -> Result<i64, StoreError> {
        let Pool::Sqlite(pool) = &self.pool else {
            return Ok(0);
        };
        let (_busy, log, _done): (i64, i64, i64) =
            sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)").fetch_one(pool).await?;
        let (page_size,): (i64,) = sqlx::query_as("PRAGMA page_size").fetch_one(pool).await?;
        if log * page_size > limit_bytes {
            tracing::info!(pages = log, "write-ahead log over its limit; truncating");
            sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)").execute(pool).await?;
        }
        Ok(log)
    }

    /// Checkpoints every [`CHECKPOINT_EVERY`] until the task is dropped (nothing to do on PostgreSQL).
    pub async fn run_checkpoints(self) {
        if !self.is_sqlite() {
            return;
        }
        let mut tick = tokio::time::interval(CHECKPOINT_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            tick.tick().await;
            if let Err(err) = self.checkpoint().await {
                tracing::warn!(%err, "write-ahead log checkpoint failed");
            }
        }
    }

    /// Whether the database answers (used by `/health`).
    pub async fn ping(&self) -> bool {
        with_pool!(self, pool => sqlx::query("SELECT 1").execute(pool).await.is_ok())
    }
}

/// Connection refused, or the server still starting up.
fn is_unreachable(err: &sqlx::Error) -> bool {
    match err {
        sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut => true,
        // 57P03: the database system is starting up.
        sqlx::Error::Database(db) => db.code().as_deref() == Some("57P03"),
        _ => false,
    }
}

/// Runs a write again, with a growing pause (10, 20, 40, 80, 160 ms), while the database reports that it is
/// busy, so that contention beyond the busy timeout becomes a wait rather than an error.
pub(crate) async fn retry_busy<T, F, Fut>(mut write: F) -> Result<T, StoreError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, StoreError>>,
{
    let mut pause = Duration::from_millis(10);
    for _ in 0..5 {
        match write().await {
            Err(StoreError::Db(err)) if is_busy(&err) => {
                tracing::debug!(%err, "database busy; writing again");
                tokio::time::sleep(pause).await;
                pause *= 2;
            }
            other => return other,
        }
    }
    write().await
}

/// SQLITE_BUSY (5) and SQLITE_LOCKED (6) with their extended codes (517 is BUSY_SNAPSHOT).
fn is_busy(err: &sqlx::Error) -> bool {
    let sqlx::Error::Database(db) = err else {
        return false;
    };
    db.code()
        .and_then(|c| c.parse::<i32>().ok())
        .is_some_and(|code| matches!(code & 0xff, 5 | 6))
}

/// A new identifier: a UUIDv7, so identifiers sort by creation time.
pub fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

/// Now, in milliseconds since the epoch.
pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// The counting day (as [`today`] writes it) of the instant `ms`.
pub fn day_of(ms: i64) -> String {
    use chrono::TimeZone;
    chrono::Local
        .timestamp_millis_opt(ms)
        .earliest()
        .map_or_else(today, |t| t.format("%Y-%m-%d").to_string())
}

/// The counting day of quotas and costs: the server's local calendar day.
pub fn today() -> String {
    chrono::Local::now().format("%Y-%m-%d").to_string()
}
