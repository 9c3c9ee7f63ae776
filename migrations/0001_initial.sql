-- The gateway's records. Portable SQL: runs on SQLite and PostgreSQL alike
-- (TEXT ids, BIGINT epoch-millisecond times, BOOLEAN flags, DOUBLE PRECISION money).

CREATE TABLE users (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL UNIQUE,
    display_name TEXT NOT NULL,
    external_id  TEXT UNIQUE,
    is_admin     BOOLEAN NOT NULL DEFAULT FALSE,
    is_anonymous BOOLEAN NOT NULL DEFAULT FALSE,
    created_at   BIGINT NOT NULL
);

-- Only the SHA-256 of a token is kept; a user may hold several (one per device login).
CREATE TABLE tokens (
    hash       TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    label      TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX tokens_user ON tokens(user_id);

CREATE TABLE prefs (
    user_id    TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    data       TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE sessions (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    title      TEXT NOT NULL,
    overrides  TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id, updated_at);

CREATE TABLE messages (
    id         TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    text       TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX messages_session ON messages(session_id, id);

CREATE TABLE memories (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    text       TEXT NOT NULL,
    source     TEXT NOT NULL CHECK (source IN ('user', 'admin', 'extraction')),
    created_at BIGINT NOT NULL
);
CREATE INDEX memories_user ON memories(user_id, id);

CREATE TABLE devices (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    kind         TEXT NOT NULL,
    platform     TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL
);
CREATE INDEX devices_user ON devices(user_id);

CREATE TABLE usage (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    day     TEXT NOT NULL,
    count   BIGINT NOT NULL,
    PRIMARY KEY (user_id, day)
);

CREATE TABLE web_search_usage (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    day     TEXT NOT NULL,
    count   BIGINT NOT NULL,
    PRIMARY KEY (user_id, day)
);

CREATE TABLE cost_usage (
    user_id  TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    day      TEXT NOT NULL,
    category TEXT NOT NULL CHECK (category IN ('llm', 'web_search')),
    cost     DOUBLE PRECISION NOT NULL,
    requests BIGINT NOT NULL,
    PRIMARY KEY (user_id, day, category)
);

CREATE TABLE emergency_events (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    category   TEXT NOT NULL,
    details    TEXT NOT NULL
);
CREATE INDEX emergency_events_user ON emergency_events(user_id, created_at);

CREATE TABLE config_overrides (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    updated_by TEXT NOT NULL
);

CREATE TABLE audit_log (
    id     TEXT PRIMARY KEY,
    at     BIGINT NOT NULL,
    actor  TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE INDEX audit_log_at ON audit_log(at);
