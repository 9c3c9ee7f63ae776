-- Retention (issue 75): the purge finds what is older than its kind's retention by time, across all people;
-- these indexes keep each of its batches a short range scan however much is stored.
CREATE INDEX messages_created ON messages (created_at);
CREATE INDEX sessions_updated ON sessions (updated_at);
CREATE INDEX care_log_at ON care_log (at);
CREATE INDEX reminders_updated ON reminders (state, updated_at);
CREATE INDEX emergency_alarms_created ON emergency_alarms (created_at);
CREATE INDEX emergency_events_created ON emergency_events (created_at);
CREATE INDEX care_outbox_created ON care_outbox (created_at);
CREATE INDEX care_acks_created ON care_acks (created_at);
CREATE INDEX usage_day ON usage (day);
CREATE INDEX web_search_usage_day ON web_search_usage (day);
CREATE INDEX cost_usage_day ON cost_usage (day);
CREATE INDEX call_usage_day ON call_usage (day);
