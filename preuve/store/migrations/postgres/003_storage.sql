-- 003: keep vectors in the row (pgvector types default to out-of-line TOAST storage: an
-- exact scan then fetched each vector separately, about 3x slower), and index the chunks
-- still waiting for a vector so that `put_vectors` finds them without scanning the table.
ALTER TABLE chunks ALTER COLUMN embedding SET STORAGE MAIN;
ALTER TABLE lexical ALTER COLUMN bm25 SET STORAGE MAIN;
CREATE INDEX chunks_without_vector ON chunks (text_hash) WHERE embedding IS NULL;
