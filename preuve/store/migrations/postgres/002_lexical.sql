-- 002: the BM25 columns move to a narrow table of their own, with copies of the filter
-- columns. An OR query over common terms reads every matching row: at 3.7 KB per chunk row
-- (text, tokens, vector) that was most of its time; a lexical row is about 1.2 KB.
CREATE TABLE lexical (
    id              BIGINT PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
    path            TEXT COLLATE "C" NOT NULL,
    kind            TEXT NOT NULL,
    access          TEXT,
    effective_from  TEXT,
    effective_to    TEXT,
    terms           INTEGER[] NOT NULL,  -- ids of the distinct terms: which chunks match
    bm25            sparsevec NOT NULL   -- BM25 document-side weight of each term
);
INSERT INTO lexical SELECT id, path, kind, access, effective_from, effective_to, terms, bm25
FROM chunks;
CREATE INDEX lexical_terms ON lexical USING gin (terms);
CREATE INDEX lexical_path ON lexical (path);
DROP INDEX chunks_terms;
ALTER TABLE chunks DROP COLUMN terms, DROP COLUMN bm25;
ANALYZE lexical;
