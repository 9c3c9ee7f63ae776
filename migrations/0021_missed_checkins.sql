-- A check-in the person left unanswered (asked, asked again, the contacts told) stays on the carers' board until
-- a carer looks after it: `missed_due_at` is the end of that day's window, `missed_acknowledged_at` and
-- `missed_acknowledged_by` (`carer:<name>`) who looked after it. A later missed day replaces the record.
ALTER TABLE checkins ADD COLUMN missed_due_at BIGINT;
ALTER TABLE checkins ADD COLUMN missed_acknowledged_at BIGINT;
ALTER TABLE checkins ADD COLUMN missed_acknowledged_by TEXT;
