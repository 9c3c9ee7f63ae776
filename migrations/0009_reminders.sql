-- Reminders and timers (issue 49): each person's, due at an instant, kept in the time zone they were set in
-- so that a repeating one keeps its wall-clock time across daylight-saving changes. `state`: scheduled,
-- delivering, confirmed, missed, done, cancelled. `attempt_at`: when a reminder being delivered is tried
-- again (its claim's lease, then the next retry while it waits for its confirmation); `attempts`: how often it
-- was delivered.
CREATE TABLE reminders (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    text        TEXT NOT NULL,
    due_at      BIGINT NOT NULL,
    time_zone   TEXT NOT NULL,
    repeat_rule TEXT,
    confirm     BOOLEAN NOT NULL,
    timer       BOOLEAN NOT NULL,
    state       TEXT NOT NULL,
    attempt_at  BIGINT,
    attempts    BIGINT NOT NULL DEFAULT 0,
    created_by  TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE INDEX reminders_due ON reminders(state, due_at);
CREATE INDEX reminders_attempt ON reminders(state, attempt_at);
CREATE INDEX reminders_user ON reminders(user_id, state);

-- Each attempt to deliver a reminder: the channel, how it went, when.
CREATE TABLE reminder_deliveries (
    id          TEXT PRIMARY KEY,
    reminder_id TEXT NOT NULL REFERENCES reminders(id) ON DELETE CASCADE,
    channel     TEXT NOT NULL,
    status      TEXT NOT NULL,
    detail      TEXT,
    at          BIGINT NOT NULL
);
CREATE INDEX reminder_deliveries_reminder ON reminder_deliveries(reminder_id);
