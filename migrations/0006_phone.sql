-- The phone line: which user a caller's number belongs to (the prefs key `caller_numbers`, kept here so that
-- a number is one user's at most and a call finds its user by one lookup), and the calls per user and day.
CREATE TABLE caller_numbers (
    number  TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE
);
CREATE INDEX caller_numbers_user ON caller_numbers(user_id);

CREATE TABLE call_usage (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    day     TEXT NOT NULL,
    calls   BIGINT NOT NULL,
    seconds BIGINT NOT NULL,
    cost    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, day)
);
