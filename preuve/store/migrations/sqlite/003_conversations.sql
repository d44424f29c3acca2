-- 003: conversations for `chat`, bound to the audience they were opened with.
CREATE TABLE conversations (
    id          TEXT PRIMARY KEY,
    audience    TEXT,               -- NULL: the operator
    created_at  TEXT NOT NULL
);
CREATE TABLE messages (
    id               INTEGER PRIMARY KEY,
    conversation_id  TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    role             TEXT NOT NULL,  -- user | assistant
    content          TEXT NOT NULL,
    standalone       TEXT,           -- the rewritten question retrieval used (user turns)
    data             TEXT NOT NULL DEFAULT '{}',
    created_at       TEXT NOT NULL
);
CREATE INDEX messages_conversation ON messages(conversation_id, id);
