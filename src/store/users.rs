//! Users and their tokens (only SHA-256 hashes are stored).

use serde::Serialize;

use super::{Store, StoreError, conflict_as, new_id, now_ms, with_pool};

/// A user record.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct User {
    /// Identifier (UUIDv7, or `anonymous` for the development user).
    pub id: String,
    /// Unique login name (the SSO name for provisioned users).
    pub name: String,
    /// Name the assistant calls the user by.
    pub display_name: String,
    /// Identity delivered by the trusted single-sign-on header.
    pub external_id: Option<String>,
    /// The persistent admin flag (ADMIN_USERS is applied on top of it, see `auth`).
    pub is_admin: bool,
    /// The anonymous development user, which cannot be deleted.
    pub is_anonymous: bool,
    /// Creation time, epoch milliseconds.
    pub created_at: i64,
}

/// Identifier and name of the anonymous development user.
pub const ANONYMOUS_ID: &str = "anonymous";
/// Identifier and name of the phone's guest user.
pub const PHONE_GUEST_ID: &str = "phone-guest";

const INSERT_TOKEN: &str = "INSERT INTO tokens (hash, user_id, label, created_at) VALUES ($1, $2, $3, $4)";

const COLUMNS: &str = "id, name, display_name, external_id, is_admin, is_anonymous, created_at";

/// What a new user is created with.
pub struct NewUser<'a> {
    /// Unique login name.
    pub name: &'a str,
    /// Name the assistant uses; the login name when empty.
    pub display_name: &'a str,
    /// Persistent admin flag.
    pub is_admin: bool,
    /// SSO identity, for provisioned users.
    pub external_id: Option<&'a str>,
    /// Hash of the first token, if one is issued.
    pub token_hash: Option<&'a str>,
}

/// Names a single-sign-on identity never gets as its user name.
pub const RESERVED_NAMES: &[&str] = &["admin", ANONYMOUS_ID, PHONE_GUEST_ID];

/// The prefix of users provisioned from an SSO identity whose name was taken or reserved. Admin-created names
/// cannot contain `:`, so it never collides with one.
pub const SSO_PREFIX: &str = "sso:";

/// Locks a user's row until the transaction ends (a no-op write, valid on SQLite and PostgreSQL), so that a
/// check and the write it guards (the memory cap, the token reset) run one after the other for that user.
pub(crate) const LOCK_USER: &str = "UPDATE users SET id = id WHERE id = $1";
impl Store {
    /// Creates a user (and its first token) in one transaction.
    pub async fn create_user(&self, new: NewUser<'_>) -> Result<User, StoreError> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let display = if new.display_name.is_empty() {
                new.name
            } else {
                new.display_name
            };
            let user: User = sqlx::query_as(
                "INSERT INTO users (id, name, display_name, external_id, is_admin, is_anonymous, created_at) \
                 VALUES ($1, $2, $3, $4, $5, FALSE, $6) \
                 RETURNING id, name, display_name, external_id, is_admin, is_anonymous, created_at",
            )
            .bind(new_id())
            .bind(new.name)
            .bind(display)
            .bind(new.external_id)
            .bind(new.is_admin)
            .bind(now_ms())
            .fetch_one(&mut *tx)
            .await
            .map_err(conflict_as("user"))?;
            if let Some(hash) = new.token_hash {
                sqlx::query(INSERT_TOKEN)
                    .bind(hash)
                    .bind(&user.id)
                    .bind("created")
                    .bind(now_ms())
                    .execute(&mut *tx)
                    .await
                    .map_err(conflict_as("token"))?;
            }
            tx.commit().await?;
            Ok(user)
        })
    }

    /// The anonymous development user, created on first use.
    pub async fn ensure_anonymous(&self) -> Result<User, StoreError> {
        self.ensure_nameless(ANONYMOUS_ID).await
    }

    /// The phone's guest user (unknown callers with `PHONE_UNKNOWN_CALLERS=guest`), created on first use.
    pub async fn ensure_phone_guest(&self) -> Result<User, StoreError> {
        self.ensure_nameless(PHONE_GUEST_ID).await
    }

    /// A user that stands for nobody in particular (no memories, no name in the prompt, never deleted),
    /// named after its id.
    async fn ensure_nameless(&self, id: &str) -> Result<User, StoreError> {
        with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO users (id, name, display_name, external_id, is_admin, is_anonymous, created_at) \
                 VALUES ($1, $1, '', NULL, FALSE, TRUE, $2) ON CONFLICT DO NOTHING",
            )
            .bind(id)
            .bind(now_ms())
            .execute(pool)
            .await?;
            self.user_by_id(id)
                .await?
                .ok_or_else(|| StoreError::Setup(format!("the user {id} is missing (is its name taken?)")))
        })
    }

    /// A user by identifier.
    pub async fn user_by_id(&self, id: &str) -> Result<Option<User>, StoreError> {
        with_pool!(self, pool => {
            let sql =
                "SELECT id, name, display_name, external_id, is_admin, is_anonymous, created_at FROM users WHERE id = $1";
            Ok(sqlx::query_as(sql).bind(id).fetch_optional(pool).await?)
        })
    }

    /// Each of `ids` that exists (at most 500 a statement).
    pub async fn users_of(&self, ids: &[String]) -> Result<Vec<User>, StoreError> {
        let mut all = Vec::new();
        for chunk in ids.chunks(500) {
            let sql = format!(
                "SELECT id, name, display_name, external_id, is_admin, is_anonymous, created_at FROM users \
                 WHERE id IN ({})",
                super::placeholders(chunk.len())
            );
            let users: Vec<User> = with_pool!(self, pool => {
                let mut query = sqlx::query_as(&sql);
                for id in chunk {
                    query = query.bind(id);
                }
                query.fetch_all(pool).await?
            });
            all.extend(users);
        }
        Ok(all)
    }

    /// A user by name.
    pub async fn user_by_name(&self, name: &str) -> Result<Option<User>, StoreError> {
        with_pool!(self, pool => {
            let sql = format!("SELECT {COLUMNS} FROM users WHERE name = $1");
            Ok(sqlx::query_as(&sql).bind(name).fetch_optional(pool).await?)
        })
    }

    /// The user holding a token with this hash.
    pub async fn user_by_token_hash(&self, hash: &str) -> Result<Option<User>, StoreError> {
        with_pool!(self, pool => {
            let sql = "SELECT u.id, u.name, u.display_name, u.external_id, u.is_admin, u.is_anonymous, u.created_at \
                       FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.hash = $1";
            Ok(sqlx::query_as(sql).bind(hash).fetch_optional(pool).await?)
        })
    }

    /// The user an SSO identity belongs to: the one provisioned from it (or linked to it by an admin through
    /// `external_id`), else a new user. A local account is never taken over because it shares the name: when
    /// the name is taken or reserved (`admin`, `anonymous`), the new user is named `sso:<identity>`.
    pub async fn user_for_external_id(&self, external_id: &str) -> Result<User, StoreError> {
        with_pool!(self, pool => {
            let sql = "SELECT id, name, display_name, external_id, is_admin, is_anonymous, created_at FROM users WHERE external_id = $1";
            let find = || {
                sqlx::query_as::<_, User>(sql)
                    .bind(external_id)
                    .fetch_optional(pool)
            };
            if let Some(user) = find().await? {
                return Ok(user);
            }
            let namespaced = format!("{SSO_PREFIX}{external_id}");
            let reserved = RESERVED_NAMES.iter().any(|r| r.eq_ignore_ascii_case(external_id));
            let names = if reserved {
                vec![namespaced.as_str()]
            } else {
                vec![external_id, namespaced.as_str()]
            };
            for name in names {
                let new = NewUser {
                    name,
                    display_name: external_id,
                    is_admin: false,
                    external_id: Some(external_id),
                    token_hash: None,
                };
                match self.create_user(new).await {
                    // Either two first requests of one person raced (the other created it), or the name belongs
                    // to a local account (then the namespaced name is tried).
                    Err(StoreError::Conflict(_)) => {
                        if let Some(user) = find().await? {
                            return Ok(user);
                        }
                    }
                    other => return other,
                }
            }
            Err(StoreError::Conflict("user name"))
        })
    }

    /// All users, oldest first.
    pub async fn list_users(&self) -> Result<Vec<User>, StoreError> {
        with_pool!(self, pool => {
            let sql = format!("SELECT {COLUMNS} FROM users ORDER BY created_at, id");
            Ok(sqlx::query_as(&sql).fetch_all(pool).await?)
        })
    }

    /// Sets the display name; false when the user does not exist.
    pub async fn rename_user(&self, id: &str, display_name: &str) -> Result<bool, StoreError> {
        with_pool!(self, pool => {
            let done = sqlx::query("UPDATE users SET display_name = $1 WHERE id = $2")
                .bind(display_name)
                .bind(id)
                .execute(pool)
                .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// Sets the persistent admin flag; false when the user does not exist.
    pub async fn set_admin(&self, id: &str, is_admin: bool) -> Result<bool, StoreError> {
        with_pool!(self, pool => {
            let done = sqlx::query("UPDATE users SET is_admin = $1 WHERE id = $2")
                .bind(is_admin)
                .bind(id)
                .execute(pool)
                .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// Replaces every token of the user by one new token, atomically: old tokens stop working at once. The user's
    /// row is locked first, so two resets at once (on any instances) run one after the other and leave one token.
    pub async fn replace_tokens(&self, user_id: &str, hash: &str, label: &str) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(LOCK_USER).bind(user_id).execute(&mut *tx).await?;
            sqlx::query("DELETE FROM tokens WHERE user_id = $1")
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
            sqlx::query(INSERT_TOKEN)
                .bind(hash)
                .bind(user_id)
                .bind(label)
                .bind(now_ms())
                .execute(&mut *tx)
                .await
                .map_err(conflict_as("token"))?;
            tx.commit().await?;
            Ok(())
        })
    }

    /// Adds a token (a new device login) beside the user's others.
    pub async fn add_token(&self, user_id: &str, hash: &str, label: &str) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query(INSERT_TOKEN)
                .bind(hash)
                .bind(user_id)
                .bind(label)
                .bind(now_ms())
                .execute(pool)
                .await
                .map_err(conflict_as("token"))?;
            Ok(())
        })
    }
}
