-- Who looked after a care notice: `link` (a contact, by the mail's link) or `carer:<name>` (on the board).
ALTER TABLE care_acks ADD COLUMN acknowledged_by TEXT;
CREATE INDEX care_acks_user_created ON care_acks(user_id, created_at);
