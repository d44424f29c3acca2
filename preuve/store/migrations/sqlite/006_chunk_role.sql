-- 006: a chunk's role: "body", or "navigation" for a table of contents, an index or a list
-- of links, which retrieval leaves out unless asked (Filters.navigation).
ALTER TABLE chunks ADD COLUMN role TEXT NOT NULL DEFAULT 'body';
