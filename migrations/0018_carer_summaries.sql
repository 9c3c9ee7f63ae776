-- A carer's daily summary of their residents' day: one row per carer and day (in the carer's zone), written
-- before the mail goes out, so that of several instances exactly one sends it; removed again when the mail
-- could not be sent, so that the next look tries again.
CREATE TABLE carer_summaries (
    carer_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    day      TEXT NOT NULL,
    sent_at  BIGINT NOT NULL,
    PRIMARY KEY (carer_id, day)
);
