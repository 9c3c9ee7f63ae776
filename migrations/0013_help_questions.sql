-- The help question asked in a typed conversation (issue 62): a person typed a call for help and was asked
-- whether to alert the contacts; their next typed words, on any text channel and any instance, are the answer.
-- One row per person, taken by the answer in one statement (so a "ja" sent twice raises once); a question
-- older than its lifetime is no question any more.
CREATE TABLE help_questions (
    user_id     TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    asked_at    BIGINT NOT NULL,
    channel     TEXT NOT NULL
);

-- The day a caller was last told the help key in a call's greeting (issue 62): once a day per caller, so that
-- it is known without being said at every call. `day` is the gateway's calendar day (YYYY-MM-DD).
CREATE TABLE help_key_told (
    user_id     TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    day         TEXT NOT NULL
);
