-- 005: a conversation belongs to the caller that opened it (the server stores a digest of
-- the API key, never the key); NULL: the operator (CLI, Python API).
ALTER TABLE conversations ADD COLUMN owner TEXT;
