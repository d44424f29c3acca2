"""SQL both stores share: filter conditions, the columns a hit is read from, migrations,
and `SqlStore`, the methods both engines run the same way (with `Conversations`).

The filters are the security boundary (audience) as well as the as-of / path / kind
choices, so they are written once and placed in the `WHERE` of every retriever's query,
in SQLite and in PostgreSQL alike.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from importlib import resources
from typing import TYPE_CHECKING

from preuve.keyword.scoring import idf
from preuve.models import NAVIGATION, SOURCE_URL, Chunk, Document, Filters, Hit

if TYPE_CHECKING:
    from preuve.store.pgshared import BucketTable, StoredFiles

# Column lists and the records built from rows in that order (sqlite3.Row and psycopg
# tuples both index by position), so the two stores read rows the same way.
HIT_COLUMNS = (
    "c.chunk_id, c.doc_id, c.path, c.kind, d.title, c.heading, c.page, c.page_label, "
    "c.start_line, c.end_line, c.symbol, c.symbol_kind, c.text, d.language, c.access, d.root, "
    "c.role, d.source_url"
)
DOC_COLUMNS = ("doc_id, path, root, kind, title, language, content_hash, access, version, "
               "effective_from, effective_to, size, pages, meta, indexed_at, source_url")
EXPORT_CHUNK_COLUMNS = ("doc_id, chunk_id, ordinal, heading, page, page_label, start_line, "
                        "end_line, symbol, symbol_kind, text, tokens, text_hash, role, "
                        "title_tokens")


def document_from_row(row) -> Document:
    """A Document from a row of DOC_COLUMNS."""
    return Document(
        doc_id=row[0], path=row[1], root=row[2], kind=row[3], title=row[4], language=row[5],
        content_hash=row[6], access=row[7], version=row[8], effective_from=row[9],
        effective_to=row[10], size=row[11], pages=row[12], meta=json.loads(row[13]),
    )


def document_row(doc: Document, now: str) -> tuple:
    """The values of DOC_COLUMNS for `doc`, indexed at `now` (`source_url` is the meta
    key of the same name: the file's page at the commit it was indexed at)."""
    return (doc.doc_id, doc.path, doc.root, doc.kind, doc.title, doc.language,
            doc.content_hash, doc.access, doc.version, doc.effective_from, doc.effective_to,
            doc.size, doc.pages, json.dumps(doc.meta, ensure_ascii=False, default=str), now,
            doc.meta.get(SOURCE_URL) or None)


def chunk_from_row(row) -> Chunk:
    """A Chunk (tokens and text hash included) from a row of EXPORT_CHUNK_COLUMNS."""
    return Chunk(
        doc_id=row[0], chunk_id=row[1], ordinal=row[2], heading=row[3], page=row[4],
        page_label=row[5], start_line=row[6], end_line=row[7], symbol=row[8],
        symbol_kind=row[9], text=row[10], tokens=row[11].split(), text_hash=row[12] or "",
        role=row[13], title_tokens=row[14] or 0,
    )


def hit_from_row(row, rank: int, score: float) -> Hit:
    """A Hit from a row of HIT_COLUMNS (the order of Hit's fields after rank and score)."""
    return Hit(rank, score, *row[:_HIT_WIDTH])


_HIT_WIDTH = len(HIT_COLUMNS.split(","))
DOC_WIDTH = len(DOC_COLUMNS.split(","))

# Tables `preuve migrate` copies row by row, with the column that orders them (documents,
# chunks and vectors go through `Store.apply` and `put_vectors` instead).
PLAIN_TABLES: dict[str, tuple[tuple[str, ...], str]] = {
    "meta": (("key", "value"), "key"),
    "ingests": (("started_at", "finished_at", "added", "updated", "removed", "unchanged",
                 "failed"), "id"),
    "conversations": (("id", "audience", "owner", "created_at"), "id"),
    "messages": (("conversation_id", "role", "content", "standalone", "data", "created_at"),
                 "id"),
    "feedback": (("created_at", "audience", "owner", "channel", "question", "answer",
                  "refused", "citations", "as_of", "verdict", "comment", "reviewed_at",
                  "review"), "id"),
}


# -- the vector cache (preuve.ingest.vectors.prune) -------------------------------------------
# a vector whose text no chunk holds (`v`: the vectors row): an orphan, kept for a while in
# case its text comes back
ORPHAN = "NOT EXISTS (SELECT 1 FROM chunks c WHERE c.text_hash = v.text_hash)"
# the models the cache holds vectors of, one index seek each (a DISTINCT reads every row)
VECTOR_MODELS = (
    "WITH RECURSIVE m(model) AS (SELECT min(model) FROM vectors UNION ALL "
    "SELECT (SELECT min(model) FROM vectors WHERE model > m.model) FROM m "
    "WHERE m.model IS NOT NULL) SELECT model FROM m WHERE model IS NOT NULL")


def migrations(engine: str) -> list[tuple[int, str]]:
    """(number, sql) of `engine`'s bundled migrations in order: `001_init.sql` is number 1."""
    folder = resources.files("preuve.store") / "migrations" / engine
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.read_text("utf-8")))
    return sorted(found)


def filter_sql(filters: Filters, alias: str = "c", mark: str = "?") -> tuple[str, list]:
    """SQL conditions (joined with AND, never empty) and parameters for `filters`, on the
    rows of a table with the chunk filter columns (chunks, lexical). Documents have no
    role: filter them with `document_filters(filters)`.

    `mark` is the driver's placeholder: `?` for sqlite3, `%s` for psycopg.
    """
    clauses: list[str] = ["1=1"]
    params: list = []

    def marks(n: int) -> str:
        return ",".join([mark] * n)

    labels = filters.readable_labels()
    if labels is not None:
        clauses.append(f"{alias}.access IN ({marks(len(labels))})")
        params.extend(labels)
    if filters.as_of is not None:
        day = filters.as_of.isoformat()
        clauses.append(
            f"({alias}.effective_from IS NULL OR {alias}.effective_from <= {mark}) AND "
            f"({alias}.effective_to IS NULL OR {alias}.effective_to >= {mark})"
        )
        params.extend([day, day])
    if filters.path_prefixes:
        # a range, not LIKE, so the path index serves it
        ranges = " OR ".join(f"({alias}.path >= {mark} AND {alias}.path < {mark})"
                             for _ in filters.path_prefixes)
        clauses.append(f"({ranges})")
        for prefix in filters.path_prefixes:
            params.extend(prefix_range(prefix))
    if filters.kinds:
        clauses.append(f"{alias}.kind IN ({marks(len(filters.kinds))})")
        params.extend(filters.kinds)
    if not filters.navigation:
        clauses.append(f"{alias}.role <> {mark}")
        params.append(NAVIGATION)
    return " AND ".join(clauses), params


def document_filters(filters: Filters) -> Filters:
    """`filters` for the documents table: roles belong to chunks, not documents."""
    return dataclasses.replace(filters, navigation=True)


def prefix_range(prefix: str) -> tuple[str, str]:
    """[low, high) bounds of the paths that start with `prefix` (in binary order)."""
    prefix = prefix.removeprefix("./")
    return prefix, prefix + "\U0010ffff"


bm25_idf = idf  # FTS5's IDF, the keyword engine's (preuve.keyword.scoring)


# FTS5 over our own tokens: the text is already split, stemmed and folded by preuve.text, so
# the FTS tokenizer only splits on spaces (and keeps - _ . inside codes).
FTS_TOKENIZE = "unicode61 remove_diacritics 0 tokenchars '-_.'"


def fts_query(terms: Sequence[str]) -> str:
    """An FTS5 OR query of quoted terms (quotes inside a term are doubled)."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


def now() -> str:
    """The time stamps the stores record: UTC, to the second, ISO 8601."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


INGEST_COLUMNS = PLAIN_TABLES["ingests"][0]


class SqlStore:
    """What both engines do the same way, in SQL both accept: documents and chunks read
    back, the vector cache's look-ups, export and import for `preuve migrate`, counts,
    metadata. Each engine keeps its migrations, `apply`, its searches and its vectors.

    An engine supplies `mark` (the driver's placeholder: `?` sqlite3, `%s` psycopg; the
    SQL here is written with `?`), `_cursor()` (something whose `execute` returns a cursor;
    what it writes is committed by the end of the block), `_write()` (one all-or-nothing
    transaction), `_schema_version(cur)`, `_engine_stats(cur)` and `state()` (a key every
    write changes, which derived caches are keyed on).
    """

    location: str
    mark = "?"
    # what several servers on one database share (PostgreSQL); None where a folder beside
    # the index and each process's memory serve instead (SQLite)
    files: StoredFiles | None = None  # bytes of uploaded files
    rates: BucketTable | None = None  # rate-limit token buckets

    def __init__(self) -> None:
        self.conversations = Conversations(self)
        self.feedback = FeedbackRows(self)
        self._languages: dict[tuple, frozenset[str]] = {}  # see languages()

    # -- what an engine supplies --------------------------------------------------------
    def _cursor(self) -> AbstractContextManager:
        raise NotImplementedError

    def _write(self) -> AbstractContextManager:
        raise NotImplementedError

    def _schema_version(self, cur) -> int:
        raise NotImplementedError

    def _engine_stats(self, cur) -> dict:
        """What `stats` adds for this engine (`size_bytes` at least)."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def state(self) -> str:
        """A key that every write changes (generation and a random token)."""
        raise NotImplementedError

    def _sql(self, sql: str) -> str:
        """`sql` (written with `?`) with this driver's placeholder."""
        return sql if self.mark == "?" else sql.replace("?", self.mark)

    def _marks(self, n: int) -> str:
        return ",".join([self.mark] * n)

    # -- documents and chunks -----------------------------------------------------------
    def documents(self, filters: Filters | None = None) -> list[Document]:
        """Documents the filters allow (all of them when None), ordered by path."""
        sql = f"SELECT {DOC_COLUMNS} FROM documents d"
        params: list = []
        if filters is not None:
            where, params = filter_sql(document_filters(filters), "d", self.mark)
            sql += " WHERE " + where
        with self._cursor() as cur:
            rows = cur.execute(sql + " ORDER BY d.path", params).fetchall()
        return [document_from_row(row) for row in rows]

    def languages(self, filters: Filters) -> frozenset[str]:
        """The languages of the documents the caller may read ('' where none was told),
        by its labels only (dates and folders not applied: a superset). Remembered per
        store state (`state`, which every write changes) and set of labels."""
        labels = filters.readable_labels()
        key = (self.state(), labels)
        found = self._languages.get(key)
        if found is None:
            where, params = filter_sql(document_filters(Filters(audience=filters.audience)),
                                       "d", self.mark)
            with self._cursor() as cur:
                rows = cur.execute(f"SELECT DISTINCT d.language FROM documents d WHERE {where}",
                                   params).fetchall()
            found = frozenset(row[0] or "" for row in rows)
            if len(self._languages) > 64:
                self._languages.clear()
            self._languages[key] = found
        return found

    def chunks(self, chunk_ids: Sequence[str], filters: Filters) -> list[Hit]:
        """Chunks by id that the filters allow, in the order asked (rank 0, score 0)."""
        if not chunk_ids:
            return []
        where, params = filter_sql(document_filters(filters), "c", self.mark)  # any role
        with self._cursor() as cur:
            rows = cur.execute(
                f"SELECT {HIT_COLUMNS} FROM chunks c JOIN documents d ON d.doc_id = c.doc_id "
                f"WHERE c.chunk_id IN ({self._marks(len(chunk_ids))}) AND {where}",
                [*chunk_ids, *params]).fetchall()
        by_id = {row[0]: row for row in rows}
        return [hit_from_row(by_id[i], 0, 0.0) for i in chunk_ids if i in by_id]

    def document_chunks(self, doc_id: str, filters: Filters) -> list[Hit]:
        """Every chunk of one document that the filters allow, in document order (any role:
        a diff of two versions reads them all)."""
        where, params = filter_sql(document_filters(filters), "c", self.mark)
        with self._cursor() as cur:
            rows = cur.execute(
                f"SELECT {HIT_COLUMNS} FROM chunks c JOIN documents d ON d.doc_id = c.doc_id "
                f"WHERE c.doc_id = {self.mark} AND {where} ORDER BY c.ordinal",
                [doc_id, *params]).fetchall()
        return [hit_from_row(row, 0, 0.0) for row in rows]

    # -- vectors ------------------------------------------------------------------------
    def missing_vectors(self, model: str, text_hashes: Sequence[str]) -> set[str]:
        """The hashes among `text_hashes` with no cached vector for `model`."""
        have: set[str] = set()
        unique = list(dict.fromkeys(text_hashes))
        with self._cursor() as cur:
            for i in range(0, len(unique), 500):
                part = unique[i:i + 500]
                have.update(row[0] for row in cur.execute(
                    self._sql("SELECT text_hash FROM vectors WHERE model = ? AND text_hash ")
                    + f"IN ({self._marks(len(part))})", [model, *part]).fetchall())
        return set(unique) - have

    @contextmanager
    def deferred_index(self) -> Iterator[None]:
        """Bulk loading (`preuve migrate`, benchmarks): an engine with an approximate index
        builds it once when the block ends; the others have nothing to defer."""
        yield

    # -- copying an index (preuve migrate) ----------------------------------------------
    def export_documents(self, batch: int = 500) -> Iterator[list[tuple[Document, list[Chunk]]]]:
        """Every document with its chunks (tokens and text hashes included), in batches."""
        docs = self.documents()
        for i in range(0, len(docs), batch):
            part = docs[i:i + batch]
            with self._cursor() as cur:
                rows = cur.execute(
                    f"SELECT {EXPORT_CHUNK_COLUMNS} FROM chunks WHERE doc_id "
                    f"IN ({self._marks(len(part))}) ORDER BY doc_id, ordinal",
                    [d.doc_id for d in part]).fetchall()
            by_doc: dict[str, list[Chunk]] = {}
            for row in rows:
                by_doc.setdefault(row[0], []).append(chunk_from_row(row))
            yield [(d, by_doc.get(d.doc_id, [])) for d in part]

    def export_rows(self, table: str) -> list[tuple]:
        """The rows of a plain table (meta, ingests, conversations, messages)."""
        columns, order = PLAIN_TABLES[table]
        with self._cursor() as cur:
            return [tuple(row) for row in cur.execute(
                f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}").fetchall()]

    def import_rows(self, table: str, rows: Sequence[tuple]) -> None:
        """Add rows exported by `export_rows` (meta keys are replaced)."""
        columns = PLAIN_TABLES[table][0]
        sql = (f"INSERT INTO {table} ({', '.join(columns)}) "
               f"VALUES ({self._marks(len(columns))})")
        if table == "meta":
            sql += " ON CONFLICT (key) DO UPDATE SET value = excluded.value"
        with self._write() as cur:
            cur.executemany(sql, rows)

    # -- bookkeeping --------------------------------------------------------------------
    @property
    def schema_version(self) -> int:
        """The number of the last migration applied."""
        with self._cursor() as cur:
            return self._schema_version(cur)

    def stats(self) -> dict:
        """Counts by kind, index size, last ingest."""
        with self._cursor() as cur:
            kinds = {kind: {"documents": docs, "chunks": n} for kind, docs, n in cur.execute(
                "SELECT kind, COUNT(DISTINCT doc_id), COUNT(*) FROM chunks "
                "GROUP BY kind ORDER BY kind").fetchall()}
            live, cached = self._vector_counts(cur)
            last = cur.execute(f"SELECT {', '.join(INGEST_COLUMNS)} FROM ingests "
                               "ORDER BY id DESC LIMIT 1").fetchone()
            out = {
                "index": self.location,
                "schema_version": self._schema_version(cur),
                "documents": cur.execute("SELECT COUNT(*) FROM documents").fetchone()[0],
                "chunks": cur.execute("SELECT COUNT(*) FROM chunks").fetchone()[0],
                "by_kind": kinds,
                "size_bytes": 0,
                "vectors": live,  # per model: the vectors some chunk's text needs
                "cached_vectors": cached,  # and the orphans kept in case their text comes back
                "last_ingest": dict(zip(INGEST_COLUMNS, last, strict=True)) if last else None,
            }
            out.update(self._engine_stats(cur))
        return out

    def _vector_counts(self, cur) -> tuple[dict[str, int], dict[str, int]]:
        """({model: vectors some chunk's text needs}, {model: orphans}), by model."""
        live: dict[str, int] = {}
        cached: dict[str, int] = {}
        for model, orphan, n in cur.execute(
                f"SELECT v.model, {ORPHAN} AS orphan, COUNT(*) FROM vectors v "
                "GROUP BY v.model, orphan ORDER BY v.model").fetchall():
            (cached if orphan else live)[model] = n
        return ({m: live.get(m, 0) for m in sorted(live.keys() | cached.keys())},
                {m: cached.get(m, 0) for m in sorted(live.keys() | cached.keys())})

    def get_meta(self, key: str, cur=None) -> str | None:
        if cur is None:
            with self._cursor() as own:
                return self.get_meta(key, own)
        row = cur.execute(self._sql("SELECT value FROM meta WHERE key = ?"), (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str, cur=None) -> None:
        if cur is None:
            with self._cursor() as own:
                return self.set_meta(key, value, own)
        cur.execute(self._sql("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) "
                              "DO UPDATE SET value = excluded.value"), (key, value))

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Conversations:
    """Conversations and their turns (`Index.chat`, the server's /conversations), kept in
    the index's database: every process on one database sees the same ones."""

    def __init__(self, store: SqlStore):
        self._store = store

    def _run(self, sql: str, params: Sequence) -> list[tuple]:
        with self._store._cursor() as cur:
            found = cur.execute(self._store._sql(sql), params)
            return found.fetchall() if found.description else []

    def create(self, conversation_id: str, audience: str | None,
               owner: str | None = None) -> None:
        self._run("INSERT INTO conversations (id, audience, owner, created_at) "
                  "VALUES (?,?,?,?)", (conversation_id, audience, owner, now()))

    def audience(self, conversation_id: str) -> tuple[bool, str | None]:
        """(exists, audience it was opened with)."""
        rows = self._run("SELECT audience FROM conversations WHERE id = ?", (conversation_id,))
        return (bool(rows), rows[0][0] if rows else None)

    def owner(self, conversation_id: str) -> str | None:
        """Who opened a conversation: a digest of the server key; None for the operator,
        or no such conversation."""
        rows = self._run("SELECT owner FROM conversations WHERE id = ?", (conversation_id,))
        return rows[0][0] if rows else None

    def add(self, conversation_id: str, role: str, content: str,
            standalone: str | None = None, data: dict | None = None) -> None:
        self._run("INSERT INTO messages (conversation_id, role, content, standalone, data, "
                  "created_at) VALUES (?,?,?,?,?,?)",
                  (conversation_id, role, content, standalone,
                   json.dumps(data or {}, ensure_ascii=False, default=str), now()))

    def messages(self, conversation_id: str) -> list[dict]:
        """The turns of a conversation, oldest first."""
        rows = self._run("SELECT role, content, standalone, data, created_at FROM messages "
                         "WHERE conversation_id = ? ORDER BY id", (conversation_id,))
        return [{"role": r[0], "content": r[1], "standalone": r[2], "data": json.loads(r[3]),
                 "created_at": r[4]} for r in rows]


FEEDBACK_COLUMNS = ("id",) + PLAIN_TABLES["feedback"][0]


class FeedbackRows:
    """Feedback on answers (`preuve.feedback.Feedback`, behind `Index.feedback`), kept in
    the index's database. Rows are dicts of FEEDBACK_COLUMNS, `citations` and `review`
    as JSON text; who may read which rows is decided above, by the caller's filters."""

    def __init__(self, store: SqlStore):
        self._store = store

    def add(self, row: dict) -> int:
        columns = PLAIN_TABLES["feedback"][0]
        sql = (f"INSERT INTO feedback ({', '.join(columns)}) "
               f"VALUES ({','.join('?' * len(columns))}) RETURNING id")
        with self._store._write() as cur:
            return int(cur.execute(self._store._sql(sql),
                                   [row.get(c) for c in columns]).fetchone()[0])

    def select(self, *, owner: str | None = None, verdicts=(), since: str | None = None,
               until: str | None = None, audiences=(), ids=(), reviewed: bool | None = None,
               limit: int | None = None) -> list[dict]:
        """Rows matching every condition given, newest first. `owner`: only that
        caller's rows; `since`/`until`: ISO dates or times, `until` inclusive of its day."""
        where, params = [], []
        if owner is not None:
            where.append("owner = ?")
            params.append(owner)
        for column, values in (("verdict", verdicts), ("audience", audiences), ("id", ids)):
            if values:
                where.append(f"{column} IN ({','.join('?' * len(values))})")
                params.extend(values)
        if since:
            where.append("created_at >= ?")
            params.append(since)
        if until:
            where.append("created_at < ?")
            params.append(until)
        if reviewed is not None:
            where.append("reviewed_at IS NOT NULL" if reviewed else "reviewed_at IS NULL")
        sql = (f"SELECT {', '.join(FEEDBACK_COLUMNS)} FROM feedback"
               + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id DESC")
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        with self._store._cursor() as cur:
            found = cur.execute(self._store._sql(sql), params).fetchall()
        return [dict(zip(FEEDBACK_COLUMNS, row, strict=True)) for row in found]

    def set_review(self, feedback_id: int, review: str) -> bool:
        """Record the operator's review (JSON text) of one row; False when there is none."""
        with self._store._write() as cur:
            found = cur.execute(self._store._sql(
                "UPDATE feedback SET review = ?, reviewed_at = ? WHERE id = ? RETURNING id"),
                (review, now(), feedback_id)).fetchall()
        return bool(found)
