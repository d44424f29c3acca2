-- 008: BM25F's title field. `title_tokens` counts the first words of `tokens` that are the
-- chunk's context (its path, title, heading path and symbol), which the in-memory keyword
-- index scores as a field of its own (preuve/store/keyword.py). Chunks ingested before
-- this have 0 (no title field) until they are ingested again (PIPELINE_VERSION 4).
ALTER TABLE chunks ADD COLUMN title_tokens INTEGER NOT NULL DEFAULT 0;
