-- 007: what several `preuve serve` processes on one database share besides the index.
-- The bytes of uploaded files, by SHA-256 (the digest each document records in its meta):
-- every server shows them, and while a replacement is under way both the version the
-- index holds and the new one are here. Rows no document refers to are swept.
CREATE TABLE files (
    sha256     TEXT PRIMARY KEY,
    bytes      BYTEA NOT NULL,
    stored_at  TEXT NOT NULL
);

-- Token buckets of the rate limits (per key, per address, failed authentications), spent
-- by one statement each; on the database's clock, so servers on several machines agree.
-- UNLOGGED: after a crash the buckets start full, which is what no row means too.
CREATE UNLOGGED TABLE rate_buckets (
    name     TEXT PRIMARY KEY,
    tokens   DOUBLE PRECISION NOT NULL,
    at       DOUBLE PRECISION NOT NULL,  -- seconds since the epoch of the last take
    full_at  DOUBLE PRECISION NOT NULL,  -- when it is full again: past it, the row can go
    spent    BOOLEAN NOT NULL            -- whether the last take got a token
);
