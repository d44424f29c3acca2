-- 004: vectors in a rowid table. As a WITHOUT ROWID table each 1.5 KB vector spilled into
-- overflow pages (about 3x its size on disk, and slow full reads); the key stays unique.
CREATE TABLE vectors_rowid (
    id         INTEGER PRIMARY KEY,
    model      TEXT NOT NULL,
    text_hash  TEXT NOT NULL,
    vector     BLOB NOT NULL,
    UNIQUE (model, text_hash)
);
INSERT INTO vectors_rowid (model, text_hash, vector) SELECT model, text_hash, vector FROM vectors;
DROP TABLE vectors;
ALTER TABLE vectors_rowid RENAME TO vectors;
