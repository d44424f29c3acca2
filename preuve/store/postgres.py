"""The server index: PostgreSQL + pgvector, for many readers, replicas and managed backups.

Same guarantees as the SQLite store: one transaction per ingest (a killed ingest leaves the
previous state), the filters in the `WHERE` of every retriever's query, numbered
migrations. Retrieval runs inside the database:

- BM25: the keyword engine (preuve.keyword, through preuve.store.bm25), its base saved in
  the user's cache folder for the other processes; the `bm25` setting `sql`, and the
  fallback while a big engine is built, rank with sparse vectors every ingest keeps
  (`pglexicon.py`).
- Dense: the chunk row holds its vector in half precision (`halfvec`: half the memory for
  the HNSW graph, cosines within ~1e-3; the cache keeps full precision). Below
  `hnsw_threshold` chunks the search is exact, above it an HNSW index (inner product on
  normalised vectors = cosine) with `hnsw.iterative_scan = relaxed_order`, so a filtered
  query keeps scanning until it has k rows, and an exact query as a last resort when it
  still has fewer.

Connections come from a pool (`pool_size`: `PREUVE_PG_POOL`, default 4 per store), each
method borrows one for one transaction, so a store can be shared by threads.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
import uuid
from collections import Counter
from collections.abc import Iterator, Sequence
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import numpy as np

from preuve import keyword as kw
from preuve.errors import Conflict, InvalidInput, Unavailable
from preuve.models import Chunk, Document, Filters, Hit
from preuve.store import Changes
from preuve.store import pglexicon as lexicon
from preuve.store.bm25 import KeywordStore, declared, rows_sql
from preuve.store.pgshared import BucketTable, StoredFiles
from preuve.store.sql import (
    DOC_COLUMNS,
    DOC_WIDTH,
    HIT_COLUMNS,
    ORPHAN,
    VECTOR_MODELS,
    SqlStore,
    document_row,
    filter_sql,
    hit_from_row,
    migrations,
)
from preuve.store.sql import now as sql_now

AVGDL_DRIFT = 0.05  # rewrite stored BM25 weights when the mean length moves more than 5 %
SPARSE_DIM = 1_000_000_000  # pgvector's largest sparsevec dimension: one per term id
HNSW_INDEX = "chunks_embedding_hnsw"
_WRITE_LOCK = 0x70726575  # advisory lock: one writer at a time per database ("preu")
_MIGRATE_LOCK = _WRITE_LOCK + 1
# (_WRITE_LOCK + 2: uploads and deletions of uploaded files, across servers: pgshared.py)
PARTITIONS_MIGRATION = 6  # the migration that split BM25 statistics per access label

_CHUNK_COLUMNS = ("chunk_id, doc_id, ordinal, path, kind, access, effective_from, effective_to, "
                  "heading, page, page_label, start_line, end_line, symbol, symbol_kind, text, "
                  "tokens, text_hash, length, role, title_tokens")


def vector_literal(vector: np.ndarray) -> str:
    return json.dumps(np.asarray(vector, dtype=np.float32).tolist())


def redact(url: str) -> str:
    """The URL without its password: what messages and `status` may show."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def with_schema(url: str, schema: str) -> str:
    """`url` with its search_path set to `schema` (libpq `options`): one index per schema."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "options"]
    query.append(("options", f"-csearch_path={schema}"))
    return urlunsplit(parts._replace(query=urlencode(query)))


DEFAULT_HNSW_THRESHOLD = 50_000  # chunks from which an HNSW index is built
DEFAULT_EF_SEARCH = 200
DEFAULT_POOL = 4  # connections per store


class PostgresStore(KeywordStore, SqlStore):
    """`Store` over a PostgreSQL database (its schema: the first of the URL's search_path).
    It also keeps what several servers on the database share: the bytes of uploaded files
    (`files`) and the rate limits' buckets (`rates`)."""

    mark = "%s"

    def __init__(self, location: str, pool_size: int | None = None,
                 hnsw_threshold: int | None = None, ef_search: int | None = None,
                 bm25_engine: bool = True, cache: str | None = None):
        import psycopg  # imported here: SQLite users never load the driver
        from psycopg_pool import ConnectionPool

        super().__init__()
        self.files = StoredFiles(self)
        self.rates = BucketTable(self)
        self.location = redact(location)
        self.hnsw_threshold = int(DEFAULT_HNSW_THRESHOLD if hnsw_threshold is None
                                  else hnsw_threshold)
        self.ef_search = int(DEFAULT_EF_SEARCH if ef_search is None else ef_search)
        try:
            setup = psycopg.connect(location, autocommit=True, connect_timeout=10)
        except psycopg.OperationalError as exc:
            raise Unavailable(f"{self.location}: cannot connect to PostgreSQL "
                              f"({str(exc).strip().splitlines()[0]})") from None
        with setup:
            self.schema, self._search_path = self._prepare(setup)
            database = _database_identity(setup) or self.location
        self._dense: tuple[str, int] | None = None  # (model, dimension), fixed once set
        self.pool = ConnectionPool(
            location, min_size=1, max_size=pool_size or DEFAULT_POOL,
            configure=self._configure, open=True, timeout=60, name="preuve")
        self._migrate()
        # BM25 through the keyword engine, one reader per database and schema in this
        # process, its base saved in the user's cache folder (preuve.store.bm25)
        self._open_keywords(("postgresql", database, self.schema),
                            kw.cache_path(database, self.schema, cache))
        self.bm25_engine = bm25_engine

    # -- connections and schema ---------------------------------------------------------
    def _prepare(self, conn) -> tuple[str, str]:
        """Create our schema (first of the search_path) and pgvector if they are missing."""
        import psycopg

        path = conn.execute("SHOW search_path").fetchone()[0]
        names = [p.strip().strip('"') for p in path.split(",") if p.strip()]
        names = [n for n in names if n != "$user"] or ["public"]
        schema = names[0]
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", schema):
            raise InvalidInput(f"{self.location}: schema name {schema!r} is not a plain name")
        conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
        row = conn.execute("SELECT extnamespace::regnamespace::text FROM pg_extension "
                           "WHERE extname = 'vector'").fetchone()
        if row is None:
            try:
                conn.execute(f'CREATE EXTENSION IF NOT EXISTS vector SCHEMA "{schema}"')
            except psycopg.Error as exc:
                raise Unavailable(f"{self.location}: the pgvector extension is not "
                                  f"installed and cannot be created here ({exc}); ask the "
                                  "operator to run CREATE EXTENSION vector") from None
            ext_schema = schema
        else:
            ext_schema = row[0].strip('"')
        search_path = f'"{schema}"' + (f', "{ext_schema}"' if ext_schema != schema else "")
        return schema, search_path

    def _configure(self, conn) -> None:
        conn.execute(f"SET search_path TO {self._search_path}")
        conn.execute(f"SET hnsw.ef_search = {self.ef_search}")
        conn.execute("SET hnsw.iterative_scan = relaxed_order")
        conn.commit()

    def _migrate(self) -> None:
        with self.pool.connection() as conn:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATE_LOCK,))
            conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations "
                         "(version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
            current = conn.execute(
                "SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()[0]
            for number, sql in migrations("postgres"):
                if number > current:
                    conn.execute(sql)
                    if number == PARTITIONS_MIGRATION:
                        with conn.cursor() as cur:
                            lexicon.reweigh_all(cur)
                    conn.execute("INSERT INTO schema_migrations VALUES (%s, %s)",
                                 (number, sql_now()))

    def _schema_version(self, cur) -> int:
        return cur.execute("SELECT max(version) FROM schema_migrations").fetchone()[0]

    # -- documents ----------------------------------------------------------------------
    def apply(self, changes: Changes) -> None:
        now = sql_now()
        with self.pool.connection() as conn, conn.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (_WRITE_LOCK,))
            parent = self.get_meta("state", cur) or ""
            upserted = {doc.doc_id for doc, _ in changes.upserts}
            dropped = [d for d in changes.removals if d not in upserted]
            # what each upserted document replaces: the same id, or the same file
            docs = [doc for doc, _ in changes.upserts]
            cur.execute(
                "SELECT u.i, d.doc_id FROM unnest(%s::text[]) WITH ORDINALITY u(doc_id, i) "
                "JOIN documents d ON d.doc_id = u.doc_id UNION "
                "SELECT u.i, d.doc_id FROM unnest(%s::text[], %s::text[]) WITH ORDINALITY "
                "u(root, path, i) JOIN documents d ON d.root = u.root AND d.path = u.path",
                ([d.doc_id for d in docs], [d.root for d in docs], [d.path for d in docs]))
            found = cur.fetchall()
            replaced = [doc_id for _, doc_id in found]
            updated = len({i for i, _ in found})
            added = len(docs) - updated
            gone = list(dict.fromkeys(dropped + replaced))
            # each label's lexicon loses the terms of every chunk that goes
            change = lexicon.LexiconChange()
            if gone:
                cur.execute("SELECT access, tokens FROM chunks WHERE doc_id = ANY(%s)", (gone,))
                for access, tokens in cur:
                    change.add(access, tokens.split(), -1)
                cur.execute("DELETE FROM chunks WHERE doc_id = ANY(%s) RETURNING id, text_hash",
                            (gone,))
                dropped_rows = cur.fetchall()
                deleted = [row[0] for row in dropped_rows]
                _mark_used(cur, {row[1] for row in dropped_rows if row[1]})
                cur.execute("DELETE FROM documents WHERE doc_id = ANY(%s) RETURNING doc_id",
                            (dropped,))
                removed = len(cur.fetchall())
                cur.execute("DELETE FROM documents WHERE doc_id = ANY(%s)", (replaced,))
            else:
                removed, deleted = 0, []
            new_chunks = [(doc, c) for doc, chunks in changes.upserts for c in chunks]
            for doc, chunk in new_chunks:
                change.add(doc.access, chunk.tokens, +1)
            ids = lexicon.term_ids(cur, change.terms())
            avgdls, reweigh = {}, []
            for label in change.labels():
                avgdls[label], drifted = lexicon.update_partition(cur, label, change, ids)
                if drifted:
                    reweigh.append(label)
            if changes.upserts:
                cur.executemany(
                    f"INSERT INTO documents ({DOC_COLUMNS}) VALUES "
                    f"({','.join(['%s'] * DOC_WIDTH)})",
                    [document_row(doc, now) for doc, _ in changes.upserts])
            low = cur.execute("SELECT coalesce(max(id), 0) FROM chunks").fetchone()[0]
            if new_chunks:
                self._insert_chunks(cur, new_chunks, ids, avgdls)
            high = cur.execute("SELECT coalesce(max(id), 0) FROM chunks").fetchone()[0]
            for label in reweigh:
                lexicon.reweigh(cur, label, avgdls[label], skip=list(upserted))
            cur.execute("INSERT INTO meta (key, value) VALUES ('generation', '1') ON CONFLICT "
                        "(key) DO UPDATE SET value = (meta.value::bigint + 1)::text "
                        "RETURNING value")
            generation = int(cur.fetchone()[0])
            state = _new_state()
            self.set_meta("state", state, cur)
            # what this ingest changed, for keyword indexes made for an earlier state
            self.set_meta(f"{kw.LOG_PREFIX}{generation}",
                          kw.log_entry(parent, state, deleted, low, high,
                                       len(new_chunks)), cur)
            cur.execute("DELETE FROM meta WHERE key LIKE %s AND "
                        "substr(key, %s)::bigint <= %s",
                        (kw.LOG_PREFIX + "%", len(kw.LOG_PREFIX) + 1, generation - kw.LOG_KEEP))
            cur.execute(
                "INSERT INTO ingests (started_at, finished_at, added, updated, removed, "
                "unchanged, failed) VALUES (%s,%s,%s,%s,%s,%s,%s)",
                (changes.started_at or now, now, added, updated, removed, changes.unchanged,
                 changes.failed))
        self._maybe_build_hnsw()
        self._persist_keywords()

    def _insert_chunks(self, cur, new_chunks: list[tuple[Document, Chunk]],
                       ids: dict[str, int], avgdls: dict[str | None, float]) -> None:
        """COPY into a staging table, then one INSERT that joins the cached vectors."""
        cur.execute("CREATE TEMP TABLE IF NOT EXISTS chunks_in (LIKE chunks INCLUDING DEFAULTS, "
                    "terms int[], bm25 sparsevec) ON COMMIT DELETE ROWS")
        with cur.copy(f"COPY chunks_in ({_CHUNK_COLUMNS}, terms, bm25) FROM STDIN") as copy:
            for doc, c in new_chunks:
                tf = Counter(c.tokens)
                avgdl = avgdls[doc.access]
                weights = {ids[t]: lexicon.bm25_weight(n, len(c.tokens), avgdl)
                           for t, n in tf.items()}
                copy.write_row((
                    c.chunk_id, doc.doc_id, c.ordinal, doc.path, doc.kind, doc.access,
                    doc.effective_from, doc.effective_to, c.heading, c.page, c.page_label,
                    c.start_line, c.end_line, c.symbol, c.symbol_kind, c.text,
                    " ".join(c.tokens), c.text_hash or None, len(c.tokens), c.role, c.title_tokens,
                    "{" + ",".join(str(i) for i in sorted(weights)) + "}",
                    lexicon.sparse_literal(weights)))
        model = self.get_meta("dense_model", cur)
        cur.execute(
            f"INSERT INTO chunks ({_CHUNK_COLUMNS}, embedding) "
            f"SELECT {', '.join('s.' + c.strip() for c in _CHUNK_COLUMNS.split(','))}, "
            "v.vector::halfvec "
            "FROM chunks_in s LEFT JOIN vectors v ON v.model = %s AND v.text_hash = s.text_hash "
            "ORDER BY s.doc_id, s.ordinal", (model,))
        cur.execute(
            "INSERT INTO lexical (id, path, kind, access, effective_from, effective_to, role, "
            "terms, bm25) SELECT c.id, c.path, c.kind, c.access, c.effective_from, "
            "c.effective_to, c.role, s.terms, s.bm25 FROM chunks_in s "
            "JOIN chunks c ON c.chunk_id = s.chunk_id "
            "ORDER BY c.id")
        cur.execute("TRUNCATE chunks_in")

    # -- retrieval ----------------------------------------------------------------------
    def search_bm25(self, terms: Sequence[str], filters: Filters, k: int) -> list[Hit]:
        if not terms or k <= 0:
            return []
        if self.bm25_engine:
            with self._cursor() as cur:
                # one snapshot for the state, the rows the engine is made of and the hits
                cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                searcher = self.keywords.get(
                    self._state_key(cur), lambda: self._change_records(cur),
                    lambda ranges: self._keyword_rows(cur, ranges),
                    lambda: _max_chunk_id(cur), self._keyword_opener())
                if searcher is not None:
                    return self._hits_by_id(cur, searcher.search(terms, filters, k), filters)
        with self._cursor() as cur:  # the `sql` setting, or a big engine being built
            hits = lexicon.search(cur, terms, filters, k)
        return declared(hits) if self.bm25_engine else hits

    @staticmethod
    def _hits_by_id(cur, ranked: list[tuple[int, float]], filters: Filters) -> list[Hit]:
        """The rows of ranked ids, read by `cur` (the ranking's snapshot) under the same
        filters: an id that no longer names a row the caller may read is dropped, never
        shown."""
        if not ranked:
            return []
        where, params = filter_sql(filters, "c", "%s")
        cur.execute(f"SELECT c.id, {HIT_COLUMNS} FROM chunks c JOIN documents d "
                    f"ON d.doc_id = c.doc_id WHERE c.id = ANY(%s) AND {where}",
                    [[rowid for rowid, _ in ranked], *params])
        by_id = {row[0]: row[1:] for row in cur.fetchall()}
        found = [(by_id[rowid], score) for rowid, score in ranked if rowid in by_id]
        return [hit_from_row(row, rank, score) for rank, (row, score) in enumerate(found, 1)]

    @staticmethod
    def _state_key(cur) -> str:
        cur.execute("SELECT key, value FROM meta WHERE key IN ('generation', 'state')")
        meta = dict(cur.fetchall())
        return f"{meta.get('generation', 0)}x{meta.get('state', '')}"

    @contextlib.contextmanager
    def _keyword_snapshot(self) -> Iterator[kw.Snapshot]:
        """A read snapshot on a connection of its own (not the pool's: a build holds it for
        minutes), for a background build."""
        import psycopg

        # (the pool was made with a conninfo string and a dict: see __init__)
        with psycopg.connect(self.pool.conninfo,  # type: ignore[arg-type]
                             **(self.pool.kwargs or {})) as conn:  # type: ignore[arg-type]
            self._configure(conn)
            with conn.cursor() as cur:
                cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                yield (self._state_key(cur), lambda: self._change_records(cur),
                       lambda ranges: self._keyword_rows(cur, ranges),
                       lambda: _max_chunk_id(cur))
            conn.rollback()

    def state(self) -> str:
        """What the keyword index is keyed on: the generation and a random token drawn by
        every write."""
        return f"{self.get_meta('generation') or 0}x{self.get_meta('state') or ''}"

    @staticmethod
    def _change_records(cur) -> dict[int, str]:
        cur.execute("SELECT key, value FROM meta WHERE key LIKE %s", (kw.LOG_PREFIX + "%",))
        return {int(key[len(kw.LOG_PREFIX):]): value for key, value in cur.fetchall()}

    @staticmethod
    def _keyword_rows(cur, ranges: list[tuple[int, int]] | None) -> Iterator[tuple]:
        """The rows the keyword index is made of, streamed in the transaction of `cur`."""
        with cur.connection.cursor(name="keyword_rows") as rows:
            rows.itersize = 20_000
            rows.execute(*rows_sql(ranges, "%s"))
            yield from rows

    def readable_chunks(self, filters: Filters) -> int:
        wanted = filters.readable_labels()
        labels = None if wanted is None else list(wanted)
        with self._cursor() as cur:
            cur.execute("SELECT coalesce(sum(p.chunks), 0) FROM lexicon_parts p "
                        "WHERE %s::text[] IS NULL OR p.label = ANY(%s::text[])",
                        (labels, labels))
            return int(cur.fetchone()[0])

    def search_dense(self, query: np.ndarray, model: str, filters: Filters, k: int) -> list[Hit]:
        if k <= 0:
            return []
        with self._cursor() as cur:
            space = self._dense_space(cur)
            if space is None:
                return []
            stored, dim = space
            if stored != model:
                return self._search_other_space(cur, query, model, filters, k)
            if query.shape[-1] != dim:
                raise Conflict(f"{self.location}: query vector has {query.shape[-1]} "
                               f"dimensions, the index {dim}")
            where, params = filter_sql(filters, "c", "%s")
            vec = vector_literal(query)

            def run(order: str) -> list[tuple]:
                cur.execute(
                    f"WITH top AS MATERIALIZED (SELECT c.id, {order} AS s FROM chunks c "
                    f"WHERE c.embedding IS NOT NULL AND {where} ORDER BY s LIMIT %s) "
                    f"SELECT top.s, {HIT_COLUMNS} FROM top JOIN chunks c ON c.id = top.id "
                    "JOIN documents d ON d.doc_id = c.doc_id ORDER BY top.s, c.id",
                    [vec, *params, k])
                return cur.fetchall()

            # the expression the HNSW index is built on (same cast, same operator)
            rows = run(f"(c.embedding::halfvec({dim})) <#> %s::halfvec({dim})")
            if len(rows) < k and self._hnsw_ready(cur):
                # the graph walk gave up before k rows passed the filters: exact scan
                rows = run(f"((c.embedding::halfvec({dim})) <#> %s::halfvec({dim})) + 0")
            return [hit_from_row(row[1:], rank, -row[0]) for rank, row in enumerate(rows, 1)]

    def _search_other_space(self, cur, query: np.ndarray, model: str, filters: Filters,
                            k: int) -> list[Hit]:
        """Dense search in a vector space other than the chunks' own (a companion
        embedder's): exact, over the vector cache joined by text hash. There is no HNSW
        index on it, so it is searched up to `hnsw_threshold` chunks only (an exact scan
        of that many takes tens of milliseconds); above, [] (docs/postgres.md)."""
        cur.execute("SELECT coalesce(sum(chunks), 0) FROM lexicon_parts")
        if cur.fetchone()[0] > self.hnsw_threshold:
            return []
        where, params = filter_sql(filters, "c", "%s")
        cur.execute(
            f"WITH top AS MATERIALIZED (SELECT c.id, v.vector <#> %s::vector AS s "
            f"FROM chunks c JOIN vectors v ON v.model = %s AND v.text_hash = c.text_hash "
            f"AND vector_dims(v.vector) = %s WHERE {where} ORDER BY s, c.id LIMIT %s) "
            f"SELECT top.s, {HIT_COLUMNS} FROM top JOIN chunks c ON c.id = top.id "
            "JOIN documents d ON d.doc_id = c.doc_id ORDER BY top.s, c.id",
            [vector_literal(query), model, int(query.shape[-1]), *params, k])
        return [hit_from_row(row[1:], rank, -row[0])
                for rank, row in enumerate(cur.fetchall(), 1)]

    def _dense_space(self, cur) -> tuple[str, int] | None:
        """(model, dimension) of the vectors dense search reads; read once, as neither
        changes after the first vector is stored."""
        if self._dense is None:
            model, dim = self.get_meta("dense_model", cur), self.get_meta("dense_dimension", cur)
            if model and dim:
                self._dense = (model, int(dim))
        return self._dense

    def _hnsw_ready(self, cur) -> bool:
        cur.execute("SELECT i.indisvalid FROM pg_index i WHERE i.indexrelid = "
                    "to_regclass(%s)", (f'"{self.schema}".{HNSW_INDEX}',))
        row = cur.fetchone()
        return bool(row and row[0])

    def _after_bulk(self) -> None:
        """Bulk loading (`deferred_index`) ends: the HNSW index is built once, instead of
        inserting every vector into a graph that grew batch after batch."""
        self._maybe_build_hnsw()
        self._persist_keywords()

    def _maybe_build_hnsw(self) -> None:
        """Build the HNSW index once the table is large enough."""
        if self._deferring:
            return
        with self._cursor() as cur:
            cur.execute("SELECT coalesce(sum(chunks), 0) FROM lexicon_parts")
            if cur.fetchone()[0] < self.hnsw_threshold:
                return
        self.build_hnsw()

    def build_hnsw(self) -> bool:
        """Build the HNSW index if the index has vectors and none is ready (CONCURRENTLY:
        readers and writers go on during the build; an interrupted build is redone)."""
        with self._cursor() as cur:
            dim = self.get_meta("dense_dimension", cur)
            if dim is None or self._hnsw_ready(cur):
                return False
            invalid = cur.execute("SELECT to_regclass(%s) IS NOT NULL",
                                  (f'"{self.schema}".{HNSW_INDEX}',)).fetchone()[0]
        with self.pool.connection() as conn:
            conn.autocommit = True
            try:
                if invalid:
                    conn.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {HNSW_INDEX}")
                conn.execute(f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {HNSW_INDEX} ON chunks "
                             f"USING hnsw ((embedding::halfvec({int(dim)})) halfvec_ip_ops) "
                             "WITH (m = 16, ef_construction = 64)")
                conn.execute("ANALYZE chunks")
            finally:
                conn.autocommit = False
        return True

    def drop_hnsw(self) -> None:
        """Back to exact dense search (until the next ingest over the threshold)."""
        with self.pool.connection() as conn:
            conn.autocommit = True
            try:
                conn.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {HNSW_INDEX}")
            finally:
                conn.autocommit = False

    def hnsw_ready(self) -> bool:
        """Whether dense search goes through the HNSW index (else it is exact)."""
        with self._cursor() as cur:
            return self._hnsw_ready(cur)

    # -- vectors ------------------------------------------------------------------------
    def put_vectors(self, model: str, items: Sequence[tuple[str, np.ndarray]]) -> None:
        """Cache vectors by text hash, and give them to the chunks with that text (the
        first model stored becomes the one dense search uses)."""
        if not items:
            return
        with self.pool.connection() as conn, conn.cursor() as cur:
            cur.execute("CREATE TEMP TABLE IF NOT EXISTS vectors_in (text_hash TEXT, "
                        "vector vector) ON COMMIT DELETE ROWS")
            with cur.copy("COPY vectors_in (text_hash, vector) FROM STDIN") as copy:
                for text_hash, vector in items:
                    copy.write_row((text_hash, vector_literal(vector)))
            cur.execute(
                "INSERT INTO vectors (model, text_hash, vector, used) "
                "SELECT DISTINCT ON (text_hash) %s, text_hash, vector, %s FROM vectors_in "
                "ON CONFLICT (model, text_hash) DO UPDATE SET vector = excluded.vector, "
                "used = excluded.used", (model, time.time()))
            # dense search uses one model: the one the index records, else the first stored
            stored = (self.get_meta("dense_model", cur) or self.get_meta("embedder_model", cur)
                      or model)
            self.set_meta("dense_model", stored, cur)
            if stored == model and self.get_meta("dense_dimension", cur) is None:
                self.set_meta("dense_dimension", str(len(items[0][1])), cur)
            if stored == model:
                cur.execute("UPDATE chunks c SET embedding = s.vector::halfvec FROM vectors_in s "
                            "WHERE c.text_hash = s.text_hash AND c.embedding IS NULL")
            cur.execute("TRUNCATE vectors_in")
        self._maybe_build_hnsw()

    def prune_vectors(self, over: int, keep: int, used_before: float) -> int:
        """Of each model with more than `over` orphan vectors (no chunk holds their text),
        delete those past the `keep` most recently used, except those used since
        `used_before`; returns how many.
        Under the write lock `apply` takes: no chunk can come to need a vector meanwhile."""
        deleted = 0
        with self._cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (_WRITE_LOCK,))
            for (model,) in cur.execute(VECTOR_MODELS).fetchall():
                cur.execute(f"SELECT COUNT(*) FROM vectors v WHERE v.model = %s AND {ORPHAN}",
                            (model,))
                if cur.fetchone()[0] <= over:
                    continue
                cur.execute(
                    "DELETE FROM vectors WHERE model = %s AND text_hash IN (SELECT v.text_hash "
                    f"FROM vectors v WHERE v.model = %s AND {ORPHAN} "
                    "ORDER BY v.used DESC, v.text_hash DESC OFFSET %s) AND used < %s",
                    (model, model, keep, used_before))
                deleted += cur.rowcount
        return deleted

    def passages_without_vectors(self, model: str) -> list[tuple[str, str, str, str, str, str]]:
        with self._cursor() as cur:
            cur.execute(
                "SELECT DISTINCT ON (c.text_hash) c.text_hash, c.path, d.title, c.heading, "
                "c.symbol, c.text FROM chunks c JOIN documents d ON d.doc_id = c.doc_id "
                "WHERE c.text_hash IS NOT NULL AND NOT EXISTS (SELECT 1 FROM vectors v "
                "WHERE v.model = %s AND v.text_hash = c.text_hash) ORDER BY c.text_hash",
                (model,))
            return [tuple(row) for row in cur.fetchall()]

    # -- copying an index (preuve migrate): the vector cache; the rest is SqlStore's ------
    def export_vectors(self, batch: int = 5000
                       ) -> Iterator[tuple[str, list[tuple[str, np.ndarray]]]]:
        with self.pool.connection() as conn, conn.cursor(name="vectors_out") as cur:
            cur.itersize = batch
            cur.execute("SELECT model, text_hash, vector::text FROM vectors ORDER BY model")
            while rows := cur.fetchmany(batch):
                by_model: dict[str, list] = {}
                for model, text_hash, vector in rows:
                    by_model.setdefault(model, []).append(
                        (text_hash, np.array(json.loads(vector), dtype=np.float32)))
                yield from by_model.items()

    # -- bookkeeping --------------------------------------------------------------------
    def _engine_stats(self, cur) -> dict:
        cur.execute("SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                    "JOIN pg_namespace n ON n.oid = c.relnamespace "
                    "WHERE n.nspname = %s AND c.relkind = 'r'", (self.schema,))
        return {
            "size_bytes": int(cur.fetchone()[0]),
            "keyword_snapshot": self.keyword_snapshot(),
            "dense_index": "hnsw" if self._hnsw_ready(cur) else "exact",
            "dense_index_bytes": cur.execute(
                "SELECT coalesce(pg_relation_size(to_regclass(%s)), 0)",
                (f'"{self.schema}".{HNSW_INDEX}',)).fetchone()[0],
        }

    def close(self) -> None:
        self._close_keywords()
        self.pool.close()

    # -- helpers ----------------------------------------------------------------------
    @contextlib.contextmanager
    def _cursor(self) -> Iterator:
        """A cursor in its own transaction (committed when the block ends without error)."""
        with self.pool.connection() as conn, conn.cursor() as cur:
            yield cur

    _write = _cursor  # every cursor is one transaction




def _mark_used(cur, text_hashes: set[str]) -> None:
    """The vectors of texts whose chunks went were of use until now (they may come back)."""
    if text_hashes:
        models = [row[0] for row in cur.execute(VECTOR_MODELS).fetchall()]
        cur.execute("UPDATE vectors SET used = %s WHERE model = ANY(%s) AND text_hash = ANY(%s)",
                    (time.time(), models, sorted(text_hashes)))


def _max_chunk_id(cur) -> int:
    return cur.execute("SELECT coalesce(max(id), 0) FROM chunks").fetchone()[0]


def _database_identity(conn) -> str | None:
    """The cluster's system identifier and the database's name: the same whatever URL
    reaches it (another port after a restart, another host name, a replica), so that the
    keyword snapshot saved for it is found again. None when the server does not tell."""
    import psycopg

    try:
        ident = conn.execute("SELECT system_identifier FROM pg_control_system()").fetchone()[0]
        name = conn.execute("SELECT current_database()").fetchone()[0]
    except psycopg.Error:  # a managed server may hide it: the URL keys it then
        return None
    return f"postgresql cluster {ident} database {name}"


def _new_state() -> str:
    return uuid.uuid4().hex[:16]
