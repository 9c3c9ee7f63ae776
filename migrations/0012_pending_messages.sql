-- A spoken question the person may still go on with (issue 51): its turn's messages are stored at once but
-- shown to the person's devices only from `visible_at` (epoch ms; NULL: at once), when the continuation
-- window has passed; a question that was continued is deleted before then and never shown as a half.
ALTER TABLE messages ADD COLUMN visible_at BIGINT;
