-- The health of each channel of the help path (issue 73): what the periodic checks and the alarms' deliveries
-- last found, whichever came last, on whichever instance. A delivery that succeeded marks its channel working
-- at once, so a person is never told "no alert can be sent" right after one was. `failing` is 0 or 1.
CREATE TABLE help_channels (
    name        TEXT PRIMARY KEY,
    failing     BIGINT NOT NULL,
    error       TEXT,
    at          BIGINT NOT NULL
);

-- The day a calling number was last told the help key in a call's greeting (issue 73): once a day per number,
-- not per user, so that every unknown caller (who all share the guest user) hears it on their first call.
CREATE TABLE help_key_told_to (
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    caller      TEXT NOT NULL,
    day         TEXT NOT NULL,
    PRIMARY KEY (user_id, caller)
);
DROP TABLE help_key_told;

-- The words of the call for help a typed question asks about (issue 73), so that the alarm the yes raises
-- tells the contacts what the person wrote ("Hilfe, ich bin gestürzt").
ALTER TABLE help_questions ADD COLUMN said TEXT;

-- Receipts of pushed reminders and check-in questions (issue 73) shown by a connection on another instance than
-- the one that pushed them: the pusher looks here until its wait ends. Rows live minutes.
CREATE TABLE care_receipts (
    receipt     TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    at          BIGINT NOT NULL
);
