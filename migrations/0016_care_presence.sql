-- Where each person has a page or voice connection open, per instance (issue 63): an instance that delivers
-- a reminder or asks the check-in knows the person is reachable on another and tells it through
-- PostgreSQL's LISTEN/NOTIFY (the shared store is the bus). Rows are refreshed while connections stay open;
-- one not refreshed for 90 s (its instance stopped) counts for nothing. Unused with SQLite (one instance).
CREATE TABLE care_presence (
    instance    TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    connections BIGINT NOT NULL,
    seen_at     BIGINT NOT NULL,
    PRIMARY KEY (instance, user_id)
);
CREATE INDEX care_presence_user ON care_presence(user_id);
