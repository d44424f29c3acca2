-- 001: documents, chunks (with their filter columns), BM25 over pre-tokenized text.
CREATE TABLE documents (
    doc_id          TEXT PRIMARY KEY,
    path            TEXT NOT NULL,      -- relative to root, as cited
    root            TEXT NOT NULL,      -- the folder it was ingested through
    kind            TEXT NOT NULL,
    title           TEXT NOT NULL DEFAULT '',
    language        TEXT NOT NULL DEFAULT '',
    content_hash    TEXT NOT NULL,
    access          TEXT,               -- NULL: no label, readable by the operator only
    version         TEXT,
    effective_from  TEXT,               -- YYYY-MM-DD inclusive, NULL: since always
    effective_to    TEXT,               -- YYYY-MM-DD inclusive, NULL: still in force
    size            INTEGER NOT NULL DEFAULT 0,
    pages           INTEGER NOT NULL DEFAULT 0,
    meta            TEXT NOT NULL DEFAULT '{}',
    indexed_at      TEXT NOT NULL,
    UNIQUE (root, path)
);

-- Filter columns (path, kind, access, dates) are copied from the document so that every
-- retriever filters on one table, inside its own query, before the top k is cut.
CREATE TABLE chunks (
    id              INTEGER PRIMARY KEY,
    chunk_id        TEXT NOT NULL UNIQUE,
    doc_id          TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    ordinal         INTEGER NOT NULL,
    path            TEXT NOT NULL,
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
    tokens          TEXT NOT NULL
);
CREATE INDEX chunks_doc ON chunks(doc_id);
CREATE INDEX chunks_path ON chunks(path);
CREATE INDEX chunks_symbol ON chunks(symbol) WHERE symbol IS NOT NULL;

-- FTS5 over our own tokens: the text is already split, stemmed and folded by preuve.text,
-- so the FTS tokenizer only splits on spaces (and keeps - _ . inside codes).
CREATE VIRTUAL TABLE chunks_fts USING fts5(
    tokens, content='chunks', content_rowid='id',
    tokenize="unicode61 remove_diacritics 0 tokenchars '-_.'"
);
CREATE TRIGGER chunks_ai AFTER INSERT ON chunks BEGIN
    INSERT INTO chunks_fts(rowid, tokens) VALUES (new.id, new.tokens);
END;
CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
    INSERT INTO chunks_fts(chunks_fts, rowid, tokens) VALUES ('delete', old.id, old.tokens);
END;

CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE ingests (
    id          INTEGER PRIMARY KEY,
    started_at  TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    added       INTEGER NOT NULL,
    updated     INTEGER NOT NULL,
    removed     INTEGER NOT NULL,
    unchanged   INTEGER NOT NULL,
    failed      INTEGER NOT NULL
);
