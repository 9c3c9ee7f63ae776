//! Conversation sessions and their messages.

use serde::Serialize;
use serde_json::{Map, Value};

use super::{Store, StoreError, new_id, now_ms, with_pool};

/// A session row: owner, title and the per-session route overrides.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Session {
    /// Identifier.
    pub id: String,
    /// Owner.
    pub user_id: String,
    /// Title shown in the session list.
    pub title: String,
    /// Route overrides as JSON text (provider, model, voice, language keys).
    #[serde(skip)]
    pub overrides: String,
    /// Creation time, epoch milliseconds.
    pub created_at: i64,
    /// Last change or message, epoch milliseconds.
    pub updated_at: i64,
    /// Number of stored messages.
    pub message_count: i64,
}

impl Session {
    /// The route overrides as an object.
    pub fn overrides_map(&self) -> Map<String, Value> {
        serde_json::from_str(&self.overrides).unwrap_or_default()
    }
}

/// One stored turn half.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Message {
    /// Identifier (sorts by creation).
    pub id: String,
    /// `user` or `assistant`.
    pub role: String,
    /// What was said.
    pub text: String,
    /// Time, epoch milliseconds.
    pub created_at: i64,
}

const SESSION_COLUMNS: &str = "s.id, s.user_id, s.title, s.overrides, s.created_at, s.updated_at, \
    (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id) AS message_count";

impl Store {
    /// Creates a session for a user.
    pub async fn create_session(
        &self,
        user_id: &str,
        title: &str,
        overrides: &Map<String, Value>,
    ) -> Result<String, StoreError> {
        with_pool!(self, pool => {
            let id = new_id();
            let now = now_ms();
            sqlx::query(
                "INSERT INTO sessions (id, user_id, title, overrides, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)",
            )
            .bind(&id)
            .bind(user_id)
            .bind(title)
            .bind(Value::Object(overrides.clone()).to_string())
            .bind(now)
            .execute(pool)
            .await?;
            Ok(id)
        })
    }

    /// Room for one more session of `user_id` under `cap`: the oldest empty ones (no message) are removed as
    /// far as needed; false when every one of them holds a conversation.
    pub async fn room_for_session(&self, user_id: &str, cap: u32) -> Result<bool, StoreError> {
        with_pool!(self, pool => {
            let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM sessions WHERE user_id = $1")
                .bind(user_id)
                .fetch_one(pool)
                .await?;
            let over = count + 1 - i64::from(cap);
            if over <= 0 {
                return Ok(true);
            }
            let removed = sqlx::query(
                "DELETE FROM sessions WHERE id IN (SELECT s.id FROM sessions s WHERE s.user_id = $1 \
                 AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id) \
                 ORDER BY s.updated_at, s.id LIMIT $2)",
            )
            .bind(user_id)
            .bind(over)
            .execute(pool)
            .await?
            .rows_affected();
            Ok(removed as i64 >= over)
        })
    }

    /// The session with this identifier, created for the user first when there is none (a channel that names
    /// its conversations itself, such as Home Assistant's `conversation_id`, derives the identifier from that
    /// name). Two requests that race both get the one session.
    pub async fn ensure_session(&self, id: &str, user_id: &str, title: &str) -> Result<Session, StoreError> {
        with_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO sessions (id, user_id, title, overrides, created_at, updated_at) \
                 VALUES ($1, $2, $3, '{}', $4, $4) ON CONFLICT (id) DO NOTHING",
            )
            .bind(id)
            .bind(user_id)
            .bind(title)
            .bind(now_ms())
            .execute(pool)
            .await?;
        });
        self.session(id)
            .await?
            .ok_or(StoreError::Setup("session missing after insert".into()))
    }

    /// A session by identifier, whoever owns it (the caller checks ownership).
    pub async fn session(&self, id: &str) -> Result<Option<Session>, StoreError> {
        with_pool!(self, pool => {
            let sql = format!("SELECT {SESSION_COLUMNS} FROM sessions s WHERE s.id = $1");
            Ok(sqlx::query_as(&sql).bind(id).fetch_optional(pool).await?)
        })
    }

    /// The user's sessions, most recently used first.
    pub async fn sessions(&self, user_id: &str) -> Result<Vec<Session>, StoreError> {
        with_pool!(self, pool => {
            let sql = format!(
                "SELECT {SESSION_COLUMNS} FROM sessions s WHERE s.user_id = $1 ORDER BY s.updated_at DESC, s.id DESC"
            );
            Ok(sqlx::query_as(&sql).bind(user_id).fetch_all(pool).await?)
        })
    }

    /// Updates title and overrides of a session.
    pub async fn update_session(
        &self,
        id: &str,
        title: &str,
        overrides: &Map<String, Value>,
    ) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            sqlx::query("UPDATE sessions SET title = $1, overrides = $2, updated_at = $3 WHERE id = $4")
                .bind(title)
                .bind(Value::Object(overrides.clone()).to_string())
                .bind(now_ms())
                .bind(id)
                .execute(pool)
                .await?;
            Ok(())
        })
    }

    /// Deletes a session and its messages.
    pub async fn delete_session(&self, id: &str) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("DELETE FROM messages WHERE session_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM sessions WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    /// Deletes all sessions and messages of a user; returns how many sessions went.
    pub async fn delete_history(&self, user_id: &str) -> Result<u64, StoreError> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("DELETE FROM messages WHERE user_id = $1")
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
            let done = sqlx::query("DELETE FROM sessions WHERE user_id = $1")
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(done.rows_affected())
        })
    }

    /// The messages of a session a person sees, in order: not those of a spoken question that may still be
    /// continued ([`Store::store_turn_as`]'s `visible_at`).
    pub async fn messages(&self, session_id: &str) -> Result<Vec<Message>, StoreError> {
        with_pool!(self, pool => {
            let sql = "SELECT id, role, text, created_at FROM messages \
                       WHERE session_id = $1 AND (visible_at IS NULL OR visible_at <= $2) ORDER BY id";
            Ok(sqlx::query_as(sql).bind(session_id).bind(now_ms()).fetch_all(pool).await?)
        })
    }

    /// The last `limit` messages of a session, in order, those not shown yet too (the model's history).
    pub async fn recent_messages(&self, session_id: &str, limit: u32) -> Result<Vec<Message>, StoreError> {
        with_pool!(self, pool => {
            let sql = "SELECT id, role, text, created_at FROM \
                       (SELECT id, role, text, created_at FROM messages WHERE session_id = $1 ORDER BY id DESC LIMIT $2) r \
                       ORDER BY id";
            Ok(sqlx::query_as(sql)
                .bind(session_id)
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await?)
        })
    }

    /// Stores one turn (the user's text and the answer) in one transaction.
    pub async fn store_turn(
        &self,
        session_id: &str,
        user_id: &str,
        question: &str,
        answer: &str,
    ) -> Result<(), StoreError> {
        let ids = [new_id(), new_id()];
        self.store_turn_as(session_id, user_id, (question, answer), &ids, None)
            .await
    }

    /// Stores one turn as [`Store::store_turn`] does, its two messages under `ids` (question, answer), shown
    /// to the person from `visible_at` (epoch ms; none: at once).
    pub async fn store_turn_as(
        &self,
        session_id: &str,
        user_id: &str,
        (question, answer): (&str, &str),
        ids: &[String; 2],
        visible_at: Option<i64>,
    ) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let now = now_ms();
            for ((role, text), id) in [("user", question), ("assistant", answer)].into_iter().zip(ids) {
                sqlx::query(
                    "INSERT INTO messages (id, session_id, user_id, role, text, created_at, visible_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(id)
                .bind(session_id)
                .bind(user_id)
                .bind(role)
                .bind(text)
                .bind(now)
                .bind(visible_at)
                .execute(&mut *tx)
                .await?;
            }
            sqlx::query("UPDATE sessions SET updated_at = $1 WHERE id = $2")
                .bind(now)
                .bind(session_id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(())
        })
    }
}

impl Store {
    /// Deletes messages by id (a question answered in half and then continued: the whole is stored instead).
    pub async fn delete_messages(&self, ids: &[String]) -> Result<(), StoreError> {
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            for id in ids {
                sqlx::query("DELETE FROM messages WHERE id = $1").bind(id).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    /// Cuts the session's latest assistant message that reads `answer` to `kept` (what the listener heard of
    /// it); false when there is none.
    pub async fn trim_answer(&self, session_id: &str, answer: &str, kept: &str) -> Result<bool, StoreError> {
        with_pool!(self, pool => {
            let done = sqlx::query(
                "UPDATE messages SET text = $1 WHERE id = (SELECT id FROM messages \
                 WHERE session_id = $2 AND role = 'assistant' AND text = $3 ORDER BY id DESC LIMIT 1)",
            )
            .bind(kept)
            .bind(session_id)
            .bind(answer)
            .execute(pool)
            .await?;
            Ok(done.rows_affected() > 0)
        })
    }

    /// How many questions of a user are stored, over all sessions (the turn count of memory extraction).
    pub async fn stored_turns(&self, user_id: &str) -> Result<i64, StoreError> {
        with_pool!(self, pool => {
            let row: (i64,) = sqlx::query_as("SELECT COUNT(*) FROM messages WHERE user_id = $1 AND role = 'user'")
                .bind(user_id)
                .fetch_one(pool)
                .await?;
            Ok(row.0)
        })
    }
}
