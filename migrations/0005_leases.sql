-- Leases: a named task that one gateway instance at a time may run (the local backend switch). Claiming is one
-- conditional upsert, so of two instances asking at once exactly one gets it; an expired lease may be taken.
CREATE TABLE leases (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
