-- The help function knows what happened to each alarm: which channel reached whom, who confirmed having seen
-- it, and whether a reminder (escalation) is still due. The cooldown row names the alarm that opened its window.

-- One alarm: the press that opened a cooldown window, and its state.
CREATE TABLE emergency_alarms (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    -- sending | alerted | no_recipients | delivery_failed: what the window's sends achieved so far.
    status TEXT NOT NULL,
    -- The person's language when the alarm was raised; texts of retries and reminders follow it.
    lang TEXT NOT NULL,
    -- Where acknowledgement links and the call's callback point (PUBLIC_URL or the press's own address).
    base_url TEXT NOT NULL,
    -- The press (position, device) as JSON, so a reminder carries the same dossier.
    press TEXT NOT NULL,
    -- When a reminder is due; NULL when none is (off, sent, or acknowledged). A sending reminder pushes it
    -- forward by a lease, so a crash in the middle sends it again rather than never.
    escalate_at BIGINT,
    escalated_at BIGINT,
    acknowledged_at BIGINT
);
CREATE INDEX emergency_alarms_user ON emergency_alarms (user_id, created_at);
CREATE INDEX emergency_alarms_due ON emergency_alarms (escalate_at);

-- One channel and recipient of an alarm: sending | delivered | failed. Claiming a retry is one conditional
-- UPDATE of the failed rows, so concurrent presses retry each channel once.
CREATE TABLE emergency_deliveries (
    alarm_id TEXT NOT NULL REFERENCES emergency_alarms(id) ON DELETE CASCADE,
    channel TEXT NOT NULL,
    recipient TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 1,
    error TEXT,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (alarm_id, channel, recipient)
);

-- Acknowledgement links: one per contact and send, only the SHA-256 of the secret is kept. `id` is not
-- secret; it names the link in the call's callback, which Twilio's signature authenticates.
CREATE TABLE emergency_acks (
    id TEXT PRIMARY KEY,
    alarm_id TEXT NOT NULL REFERENCES emergency_alarms(id) ON DELETE CASCADE,
    contact TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    expires_at BIGINT NOT NULL,
    acknowledged_at BIGINT,
    -- link | call
    via TEXT
);
CREATE INDEX emergency_acks_alarm ON emergency_acks (alarm_id);

ALTER TABLE emergency_cooldowns ADD COLUMN alarm_id TEXT;
ALTER TABLE emergency_events ADD COLUMN alarm_id TEXT;
