-- 001: the whole index in PostgreSQL + pgvector. The same tables as the SQLite store, with
-- BM25 and vectors on the chunk row so every retriever filters inside one query.
-- Paths use the "C" collation: byte order, as in SQLite, so a prefix is a btree range.
CREATE TABLE documents (
    doc_id          TEXT PRIMARY KEY,
    path            TEXT COLLATE "C" NOT NULL,
    root            TEXT NOT NULL,
    kind            TEXT NOT NULL,
    title           TEXT NOT NULL DEFAULT '',
    language        TEXT NOT NULL DEFAULT '',
    content_hash    TEXT NOT NULL,
    access          TEXT,               -- NULL: no label, readable by the operator only
    version         TEXT,
    effective_from  TEXT,               -- YYYY-MM-DD inclusive, NULL: since always
    effective_to    TEXT,               -- YYYY-MM-DD inclusive, NULL: still in force
    size            BIGINT NOT NULL DEFAULT 0,
    pages           INTEGER NOT NULL DEFAULT 0,
    meta            TEXT NOT NULL DEFAULT '{}',
    indexed_at      TEXT NOT NULL,
    UNIQUE (root, path)
);

CREATE TABLE chunks (
    id              BIGSERIAL PRIMARY KEY,
    chunk_id        TEXT NOT NULL UNIQUE,
    doc_id          TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    ordinal         INTEGER NOT NULL,
    path            TEXT COLLATE "C" NOT NULL,
    kind            TEXT NOT NULL,
    access          TEXT,
    effective_from  TEXT,
    effective_to    TEXT,
    heading         TEXT NOT NULL DEFAULT '',
    page            INTEGER,
    page_label      TEXT,
    start_line      INTEGER,
    end_line        INTEGER,
    symbol          TEXT,
    symbol_kind     TEXT,
    text            TEXT NOT NULL,
    tokens          TEXT NOT NULL,      -- preuve.text tokens, space separated
    text_hash       TEXT,
    length          INTEGER NOT NULL,   -- number of tokens (BM25 document length)
    terms           INTEGER[] NOT NULL, -- ids of the distinct terms: which chunks match
    bm25            sparsevec NOT NULL, -- BM25 document-side weight of each term
    embedding       halfvec             -- the index's embedder, L2-normalised, half precision
                                        -- (NULL: none yet)
);
CREATE INDEX chunks_doc ON chunks(doc_id);
CREATE INDEX chunks_path ON chunks(path);
CREATE INDEX chunks_symbol ON chunks(symbol) WHERE symbol IS NOT NULL;
CREATE INDEX chunks_text_hash ON chunks(text_hash);
CREATE INDEX chunks_access ON chunks(access);
CREATE INDEX chunks_terms ON chunks USING gin (terms);

-- The lexicon: term ids (the sparse vectors' dimensions) and document frequencies, kept
-- in step with every insert and delete by the same transaction.
CREATE TABLE terms (
    id      SERIAL PRIMARY KEY,
    term    TEXT NOT NULL UNIQUE,
    df      INTEGER NOT NULL DEFAULT 0
);

-- Collection statistics for BM25: chunk count and total length, and the average length the
-- stored weights were computed with (weights are rewritten when the average drifts).
CREATE TABLE lexicon_stats (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    chunks      BIGINT NOT NULL,
    tokens      BIGINT NOT NULL,
    avgdl_used  DOUBLE PRECISION NOT NULL
);
INSERT INTO lexicon_stats VALUES (1, 0, 0, 0);

-- Vectors cached in full precision by the hash of the embedded text, per model revision: a re-ingest never
-- re-embeds an unchanged chunk.
CREATE TABLE vectors (
    model      TEXT NOT NULL,
    text_hash  TEXT NOT NULL,
    vector     vector NOT NULL,
    PRIMARY KEY (model, text_hash)
);

CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE ingests (
    id          BIGSERIAL PRIMARY KEY,
    started_at  TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    added       INTEGER NOT NULL,
    updated     INTEGER NOT NULL,
    removed     INTEGER NOT NULL,
    unchanged   INTEGER NOT NULL,
    failed      INTEGER NOT NULL
);

CREATE TABLE conversations (
    id          TEXT PRIMARY KEY,
    audience    TEXT,
    created_at  TEXT NOT NULL
);
CREATE TABLE messages (
    id               BIGSERIAL PRIMARY KEY,
    conversation_id  TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    role             TEXT NOT NULL,
    content          TEXT NOT NULL,
    standalone       TEXT,
    data             TEXT NOT NULL DEFAULT '{}',
    created_at       TEXT NOT NULL
);
CREATE INDEX messages_conversation ON messages(conversation_id, id);
