-- 009: a document's pinned web page. For a file of a git repository whose remote is on a
-- known forge (GitHub, GitLab, Gitea/Forgejo, Bitbucket), the URL of the file at the commit
-- it was indexed at (preuve/forges.py), which links use when no --link-base is given; NULL
-- otherwise. Written from the document's meta key `source_url` at each ingest.
ALTER TABLE documents ADD COLUMN source_url TEXT;
