-- Each occurrence of a repeating reminder to confirm is a reminder of its own (issue 63): delivered, retried,
-- confirmed, missed and told to the contacts like a one-off, while its series waits for its next time.
-- `series_id`: the repeating reminder an occurrence is of (none: a reminder as set).
ALTER TABLE reminders ADD COLUMN series_id TEXT;
CREATE INDEX reminders_series ON reminders(series_id);

-- The claim of the look that delivers a reminder (issue 63): its lease (`attempt_at`) is renewed while the
-- delivery runs, and every state change after the delivery checks it, so that no other look or instance
-- delivers the same occurrence again however long a delivery takes.
-- Every state change by another hand (a confirmation, a cancellation) clears it, so a row is named by its key
-- and its claim alone. No index on it, and no state beside them: every row a look claims shares its token,
-- and PostgreSQL, its statistics not yet knowing a thousand rows just turned `delivering`, took the state's
-- index for such a statement and read all of the look's rows for each (measured: a thousand rows read per
-- reminder delivered). The renewal finds its rows by state, which is indexed.
ALTER TABLE reminders ADD COLUMN claim TEXT;
ALTER TABLE checkins ADD COLUMN claim TEXT;
