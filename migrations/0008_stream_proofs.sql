-- Twilio stream proofs already used: a proof opens one media stream (a webhook's answer is for one call). A row
-- is kept for the proof's two minutes of validity; older rows are deleted as new ones come.
CREATE TABLE used_stream_proofs (
    call_sid TEXT PRIMARY KEY,
    used_at  BIGINT NOT NULL
);
