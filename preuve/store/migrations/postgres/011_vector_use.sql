-- 011: when each cached vector was last of use (seconds since the epoch: written, or a chunk
-- with its text went away), so that an ingest keeps the orphans most recently of use and
-- drops the rest (preuve.ingest.vectors.prune). Rows from before are 0: the oldest. A
-- constant default: no table rewrite.
ALTER TABLE vectors ADD COLUMN used DOUBLE PRECISION NOT NULL DEFAULT 0;
