-- Pronunciation lexicon entries edited by admins; they overlay the built-in defaults of a language.
CREATE TABLE lexicon_entries (
    lang       TEXT NOT NULL,
    section    TEXT NOT NULL CHECK (section IN ('abbreviations', 'units', 'terms')),
    key        TEXT NOT NULL,
    value      TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (lang, section, key)
);
