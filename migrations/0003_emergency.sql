-- The cooldown of the help function: one row per user holding the time of the last alarm that was sent.
-- Claiming the window is one conditional upsert, so two presses at the same moment send one alarm.
CREATE TABLE emergency_cooldowns (
    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    last_at BIGINT NOT NULL
);
