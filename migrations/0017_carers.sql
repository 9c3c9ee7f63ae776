-- Who cares for whom: a carer (any user an admin names on a resident) sees and acts on the care of their
-- residents only. Every carer route reads a resident through this table, in the same query.
CREATE TABLE carers (
    resident_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    carer_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (resident_id, carer_id)
);
CREATE INDEX carers_carer ON carers (carer_id);
