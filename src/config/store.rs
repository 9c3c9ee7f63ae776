//! The store area: the SQLite file or a PostgreSQL server.

use std::path::PathBuf;

use secrecy::{ExposeSecret, SecretString};

use super::env::{ConfigError, Source, Var};

/// Where the data lives.
#[derive(Debug)]
pub struct StoreSettings {
    /// `DB_PATH`: the embedded SQLite file.
    pub db_path: PathBuf,
    /// `DATABASE_URL`: a PostgreSQL store instead of SQLite, shared by several instances.
    pub database_url: Option<SecretString>,
    /// `DATABASE_MAX_CONNECTIONS`: the PostgreSQL connection pool's size.
    pub database_max_connections: u32,
    /// `DATABASE_WAIT_SECONDS`: how long start-up waits for a PostgreSQL server that does not answer yet.
    pub database_wait_secs: u64,
}

impl StoreSettings {
    /// Reads the area.
    pub(super) fn read(src: &Source) -> Result<Self, ConfigError> {
        Ok(Self {
            db_path: PathBuf::from(
                src.var("DB_PATH", "the embedded SQLite store (created with its folder)")
                    .string("data/gateway.db"),
            ),
            database_url: database_url(src.var("DATABASE_URL", "a `postgres://…` URL (it may hold a password) selects PostgreSQL instead of the SQLite file, for several instances on one store"))?,
            database_wait_secs: src.var("DATABASE_WAIT_SECONDS", "how long start-up waits for a PostgreSQL server that refuses connections or is starting up, then stops saying so").ranged(30, 3600)?.into(),
            database_max_connections: src.var("DATABASE_MAX_CONNECTIONS", "connections each instance keeps to PostgreSQL").ranged(10, 1000)?.max(1),
        })
    }
}

fn database_url(var: Var) -> Result<Option<SecretString>, ConfigError> {
    let name = var.error("").var;
    match var.secret() {
        None => Ok(None),
        Some(url)
            if url.expose_secret().starts_with("postgres://") || url.expose_secret().starts_with("postgresql://") =>
        {
            Ok(Some(url))
        }
        Some(_) => Err(ConfigError::new(&name, "expected a postgres:// URL")),
    }
}
