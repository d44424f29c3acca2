-- 002: embeddings, cached by the hash of the text that was embedded, per model revision,
-- so a re-ingest never re-embeds an unchanged chunk (even one that moved or was renamed).
ALTER TABLE chunks ADD COLUMN text_hash TEXT;
CREATE INDEX chunks_text_hash ON chunks(text_hash);
CREATE TABLE vectors (
    model      TEXT NOT NULL,      -- embedder name and revision
    text_hash  TEXT NOT NULL,
    vector     BLOB NOT NULL,      -- float32, L2-normalised
    PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;
