-- 009: feedback on answers (`Index.feedback`): the verdict a reader gave an answer, with
-- what they were answered. `audience` and `owner` are the caller's (the server stores a
-- digest of the API key, never the key; NULL: the operator); `citations` is a JSON list
-- of {label, path, page, start_line, end_line, chunk_id}, each checked readable by that
-- audience when stored. `review` is the operator's (JSON: relevant, facts, refuse, note).
CREATE TABLE feedback (
    id           INTEGER PRIMARY KEY,
    created_at   TEXT NOT NULL,
    audience     TEXT,
    owner        TEXT,
    channel      TEXT NOT NULL,     -- cli | http | web | mcp | python
    question     TEXT NOT NULL,
    answer       TEXT NOT NULL DEFAULT '',
    refused      INTEGER NOT NULL DEFAULT 0,
    citations    TEXT NOT NULL DEFAULT '[]',
    as_of        TEXT,
    verdict      TEXT NOT NULL,     -- right | wrong | incomplete
    comment      TEXT NOT NULL DEFAULT '',
    reviewed_at  TEXT,
    review       TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX feedback_created ON feedback(created_at);
CREATE INDEX feedback_owner ON feedback(owner, id);
