-- Trigram matching for search inside Finnish compounds and for typos (both engines ship it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
