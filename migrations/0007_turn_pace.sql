-- Each person's pace: the end-of-turn patience learned from their pauses (lengthened by every continuation
-- joined to a question that was cut off, shortened slowly by clean turns), kept per user so that it survives
-- restarts and follows the person to every channel and device.
CREATE TABLE turn_pace (
    user_id     TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    patience_ms BIGINT NOT NULL,
    joined      BIGINT NOT NULL,
    clean       BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
