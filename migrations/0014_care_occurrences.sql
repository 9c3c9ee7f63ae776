-- Each occurrence of a repeating reminder to confirm is a reminder of its own (issue 63): delivered, retried,
-- confirmed, missed and told to the contacts like a one-off, while its series waits for its next time.
-- `series_id`: the repeating reminder an occurrence is of (none: a reminder as set).
ALTER TABLE reminders ADD COLUMN series_id TEXT;
CREATE INDEX reminders_series ON reminders(series_id);

-- The claim of the look that delivers a reminder (issue 63): its lease (`attempt_at`) is renewed while the
-- delivery runs, and every state change after the delivery checks it, so that no other look or instance
-- delivers the same occurrence again however long a delivery takes.
ALTER TABLE reminders ADD COLUMN claim TEXT;
CREATE INDEX reminders_claim ON reminders(claim);
ALTER TABLE checkins ADD COLUMN claim TEXT;
CREATE INDEX checkins_claim ON checkins(claim);
