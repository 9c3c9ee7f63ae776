-- The daily check-in (issue 49): one row per person who set a window (`checkin_window` pref). `opens_at` and
-- `due_at` are this day's window; at `due_at` a person with no sign of life since `opens_at` is called.
-- `state`: waiting (for the window's end), calling (asked, waiting for an answer or the next try). `attempts`:
-- how often the person was asked today; `attempt_at`: the next try (or a claim's lease). `signed_at`: the last
-- sign of life (a turn, a call, a confirmed reminder, "I am fine" on the page).
CREATE TABLE checkins (
    user_id     TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    opens_at    BIGINT NOT NULL,
    due_at      BIGINT NOT NULL,
    state       TEXT NOT NULL,
    attempts    BIGINT NOT NULL DEFAULT 0,
    attempt_at  BIGINT,
    signed_at   BIGINT,
    updated_at  BIGINT NOT NULL
);
CREATE INDEX checkins_due ON checkins(state, due_at);
CREATE INDEX checkins_attempt ON checkins(state, attempt_at);

-- What care did for a person beyond a reminder's own deliveries: each check-in's outcome and each try to ask.
-- `what`: checkin; `channel`: page, house_line, phone, mail or none; `status`: ok, away, asked, unreachable,
-- held, missed, sent, failed, no_contacts.
CREATE TABLE care_log (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    what        TEXT NOT NULL,
    channel     TEXT NOT NULL,
    status      TEXT NOT NULL,
    detail      TEXT,
    at          BIGINT NOT NULL
);
CREATE INDEX care_log_user ON care_log(user_id, at);

-- A reminder missed while the gateway was down (more than 120 minutes late) is told to the person on their next
-- contact: `due_at` is the time it was for (set only on such a `missed` record); the telling is a `told` record.
ALTER TABLE reminder_deliveries ADD COLUMN due_at BIGINT;

-- A care notice's acknowledgement link: a contact says they are looking after it ("Ich kümmere mich"). Only
-- the token's hash is kept; `about` is the notice's subject, `lang` the person's language for the page.
CREATE TABLE care_acks (
    token_hash      TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    about           TEXT NOT NULL,
    lang            TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    acknowledged_at BIGINT
);
CREATE INDEX care_acks_user ON care_acks(user_id);
