-- 005: a chunk's role: "body", or "navigation" for a table of contents, an index or a list
-- of links, which retrieval leaves out unless asked (Filters.navigation). Copied to the
-- lexical table, whose filter columns BM25 reads.
ALTER TABLE chunks ADD COLUMN role TEXT NOT NULL DEFAULT 'body';
ALTER TABLE lexical ADD COLUMN role TEXT NOT NULL DEFAULT 'body';
