-- Every look at a person's records by somebody else (issue 75): a carer opening a resident's day, care log or
-- conversations, an admin reading them or exporting them. Who, what and when, never the data. The person reads
-- it; `reader` is the reader's user id, or `admin-key`.
CREATE TABLE access_log (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    reader      TEXT NOT NULL,
    what        TEXT NOT NULL,
    at          BIGINT NOT NULL
);
CREATE INDEX access_log_user_at ON access_log (user_id, at);
CREATE INDEX access_log_at ON access_log (at);
