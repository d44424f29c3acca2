-- 007: BM25 statistics per access label. The one FTS5 table over every chunk becomes one
-- FTS5 table per label (`lex_<part>`, unlabelled chunks are a partition of their own), so
-- a caller's scores use the chunk counts, document frequencies and average lengths of the
-- labels it may read and nothing else: adding, changing or removing a document it cannot
-- read moves none of its scores. Partitions are numbered here (a label is never written
-- into SQL); their tables and routing triggers are made by the store when a label first
-- appears, and this migration's Python step fills them from the existing chunks.
DROP TRIGGER chunks_ai;
DROP TRIGGER chunks_ad;
DROP TABLE chunks_fts;
CREATE TABLE lexicon_parts (
    part   INTEGER PRIMARY KEY,
    label  TEXT,                -- the chunks' access label; NULL: unlabelled
    chunks INTEGER NOT NULL DEFAULT 0   -- rows of its FTS5 table (kept by its triggers)
);
CREATE UNIQUE INDEX lexicon_parts_label ON lexicon_parts (coalesce(label, ''));
