-- Costs estimated for answers cut before their provider reported the cost (issue 51): category `llm_estimated`
-- beside `llm` and `web_search`. The table is made again with the wider check (SQLite cannot change a check).
CREATE TABLE cost_usage_new (
    user_id  TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    day      TEXT NOT NULL,
    category TEXT NOT NULL CHECK (category IN ('llm', 'llm_estimated', 'web_search')),
    cost     DOUBLE PRECISION NOT NULL,
    requests BIGINT NOT NULL,
    PRIMARY KEY (user_id, day, category)
);
INSERT INTO cost_usage_new (user_id, day, category, cost, requests)
    SELECT user_id, day, category, cost, requests FROM cost_usage;
DROP TABLE cost_usage;
ALTER TABLE cost_usage_new RENAME TO cost_usage;
