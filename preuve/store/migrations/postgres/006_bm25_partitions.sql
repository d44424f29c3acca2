-- 006: BM25 statistics per access label. Document frequencies, chunk count, total length
-- and the average length the stored weights use are kept per label (a partition;
-- unlabelled chunks are one too), so a caller's scores come from the labels it may read and
-- nothing else: adding, changing or removing a document it cannot read moves none of its
-- scores. `terms` keeps only the ids (the sparse vectors' dimensions). The store's Python
-- step after this migration rewrites each partition's weights for its own average length.
CREATE TABLE lexicon_parts (
    part        SERIAL PRIMARY KEY,
    label       TEXT,                -- the chunks' access label; NULL: unlabelled
    chunks      BIGINT NOT NULL DEFAULT 0,
    tokens      BIGINT NOT NULL DEFAULT 0,
    avgdl_used  DOUBLE PRECISION NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX lexicon_parts_label ON lexicon_parts ((coalesce(label, '')));

-- df of each term in each partition (no row: 0)
CREATE TABLE term_df (
    part  INTEGER NOT NULL,
    term  INTEGER NOT NULL,
    df    INTEGER NOT NULL,
    PRIMARY KEY (part, term)
);

INSERT INTO lexicon_parts (label, chunks, tokens)
SELECT access, count(*), sum(length) FROM chunks GROUP BY access;
INSERT INTO term_df (part, term, df)
SELECT p.part, t.term, count(*) FROM lexical l
JOIN lexicon_parts p ON coalesce(p.label, '') = coalesce(l.access, '')
CROSS JOIN LATERAL unnest(l.terms) AS t(term)
GROUP BY p.part, t.term;

DROP TABLE lexicon_stats;
ALTER TABLE terms DROP COLUMN df;
