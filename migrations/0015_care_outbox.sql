-- Care notices to a person's contacts (issue 63): each channel's message is a row, written in the same
-- transaction that makes what it tells final (a reminder missed, a check-in without a sign of life), and sent
-- by the scheduler with retries and backoff until it is delivered or expires; a mail relay that is down, or a
-- restart, loses none. `state`: waiting, sent, expired. `next_at`: the next try (the lease, while a look
-- sends it); `claim`: the look sending it, which the row's change after the send checks.
CREATE TABLE care_outbox (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    reminder_id TEXT,
    channel     TEXT NOT NULL,
    recipient   TEXT NOT NULL,
    subject     TEXT NOT NULL,
    body        TEXT NOT NULL,
    state       TEXT NOT NULL,
    attempts    BIGINT NOT NULL DEFAULT 0,
    next_at     BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL,
    claim       TEXT,
    last_error  TEXT,
    created_at  BIGINT NOT NULL,
    sent_at     BIGINT
);
CREATE INDEX care_outbox_next ON care_outbox(state, next_at);
