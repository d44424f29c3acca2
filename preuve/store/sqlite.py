"""The embedded index: one SQLite file, WAL mode, numbered migrations.

BM25 is ranked by the keyword engine (preuve.keyword, through preuve.store.bm25), its
files saved beside the SQLite file. The `bm25` setting `sql`, and the fallback while a big
engine is built, rank with FTS5: one FTS5 table per access label (a partition, `lex_<n>`;
unlabelled chunks are one too), so that a caller's scores come from the statistics of the
labels it may read and nothing else: the IDF of each term from the chunk counts and
document frequencies summed over its readable partitions, the length normalisation from
each chunk's own partition. A caller that reads one partition (public) is ranked by FTS5's
bm25() on that table as is; one that reads several gets each row's per-term bm25()
rescaled from the partition's IDF to the readable set's (`_rank_parts`).

Every write of an ingest happens in one transaction, so a crash or a SIGKILL leaves the
file exactly as it was before the ingest or after it. Readers are never blocked by the
writer (WAL).
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import cast

import numpy as np

from preuve import keyword as kw
from preuve.errors import InvalidInput
from preuve.models import Filters, Hit
from preuve.store import Changes
from preuve.store.bm25 import KeywordStore, declared, rows_sql
from preuve.store.matrix import VectorMatrix
from preuve.store.sql import (
    DOC_COLUMNS,
    DOC_WIDTH,
    FTS_TOKENIZE,
    HIT_COLUMNS,
    ORPHAN,
    VECTOR_MODELS,
    SqlStore,
    bm25_idf,
    document_row,
    filter_sql,
    fts_query,
    hit_from_row,
    migrations,
)
from preuve.store.sql import now as sql_now


class SQLiteStore(KeywordStore, SqlStore):
    """`Store` over one SQLite file."""

    def __init__(self, location: str, ann_threshold: int | None = None,
                 bm25_engine: bool = True):
        super().__init__()
        self.location = location
        self.ann_threshold = ann_threshold  # vectors from which dense search is approximate
        folder = os.path.dirname(os.path.abspath(location))
        os.makedirs(folder, exist_ok=True)
        _refuse_foreign_file(location)
        self.db = sqlite3.connect(location, isolation_level=None, check_same_thread=False)
        self.db.row_factory = sqlite3.Row
        _refuse_foreign_database(self.db, location)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.execute("PRAGMA busy_timeout=30000")
        self.db.execute("PRAGMA cache_size=-65536")  # 64 MB page cache per connection
        self.db.execute("PRAGMA mmap_size=1073741824")  # read pages through the OS cache
        self._lock = threading.RLock()  # one transaction at a time on this connection
        self._migrate()
        if self.get_meta("state") is None:  # an index made before states were recorded
            self.set_meta("state", _new_state())
        # per vector model (the embedder's, its companion's): (cache key, matrix), stamp
        self._matrices: dict[str, tuple[tuple, VectorMatrix]] = {}
        self._matrix_stamps: dict[str, tuple] = {}
        # BM25 through the keyword engine, one reader per file in this process (the `bm25`
        # setting `sql`: FTS5's bm25(); FTS5 answers while a big one is built: bm25.py)
        path = kw.snapshot_path(location)
        self._open_keywords(("sqlite", path) if path else None, path)
        self.bm25_engine = bm25_engine
        # the searcher of the state this connection read last: (`_stamp`, reader version,
        # searcher)
        self._searcher: tuple[tuple, int, kw.Searcher] | None = None
        self._read_version: int | None = None  # data_version of the open snapshot (_stamp)
        self._memo = _StateMemo(None)  # what was read in the current state (_state_memo)

    @contextmanager
    def _snapshot(self) -> Iterator[None]:
        """One read transaction: every statement inside sees the same committed state, so
        ids ranked by one statement are read back by the next from that same state (WAL
        keeps it readable while a writer commits a new one)."""
        with self._lock:
            if self.db.in_transaction:  # already inside a snapshot of this connection
                yield
                return
            self.db.execute("BEGIN")
            try:
                # the first read opens the read transaction: the state is fixed from here
                self._read_version = self.db.execute("PRAGMA data_version").fetchone()[0]
                yield
            finally:
                self._read_version = None
                self.db.execute("COMMIT")

    def _stamp(self) -> tuple[int, int]:
        """Which state this connection reads: (data_version: moves when another connection
        commits; total_changes: moves when this one writes). Inside a snapshot, its
        data_version was read when it opened and cannot move until it closes."""
        version = self._read_version
        if version is None:
            version = self.db.execute("PRAGMA data_version").fetchone()[0]
        return version, self.db.total_changes

    def _state_memo(self) -> _StateMemo:
        """What this connection has read in the state it reads now (call inside a snapshot):
        emptied as soon as that state changes, or when it grows past _MEMO_ENTRIES entries."""
        stamp = self._stamp()
        if self._memo.stamp != stamp or self._memo.entries > _MEMO_ENTRIES:
            self._memo = _StateMemo(stamp)
        return self._memo

    @contextmanager
    def _cursor(self) -> Iterator[sqlite3.Connection]:
        """The connection: each statement commits on its own (or with the transaction
        this thread has open)."""
        yield self.db

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (all of it or none of it), one at a time per connection."""
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    # -- schema -----------------------------------------------------------------------
    def _migrate(self) -> None:
        current = self.db.execute("PRAGMA user_version").fetchone()[0]
        pending = [(n, sql) for n, sql in migrations("sqlite") if n > current]
        if not pending:
            return
        self.db.execute("BEGIN IMMEDIATE")
        try:
            # another process may have migrated while we waited for the lock
            current = self.db.execute("PRAGMA user_version").fetchone()[0]
            for number, sql in pending:
                if number <= current:
                    continue
                for statement in _statements(sql):
                    self.db.execute(statement)
                if number == PARTITIONS_MIGRATION:
                    _partition_existing(self.db)
                self.db.execute(f"PRAGMA user_version = {number}")
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def _schema_version(self, cur) -> int:
        return cur.execute("PRAGMA user_version").fetchone()[0]

    # -- documents ----------------------------------------------------------------------
    def apply(self, changes: Changes) -> None:
        now = sql_now()
        with self._write() as db:
            parent = self.get_meta("state") or ""
            deleted: list[int] = []  # chunk ids, for the keyword index's change record
            gone: set[str] = set()  # the text hashes of the chunks that go

            def drop_chunks(doc_id: str) -> None:
                for rowid, text_hash in db.execute(
                        "DELETE FROM chunks WHERE doc_id = ? RETURNING id, text_hash",
                        (doc_id,)).fetchall():
                    deleted.append(rowid)
                    if text_hash:
                        gone.add(text_hash)

            # removals first: a renamed file keeps its explicit id under its new path
            upserted = {doc.doc_id for doc, _ in changes.upserts}
            removed = 0
            for doc_id in changes.removals:
                if doc_id in upserted:
                    continue
                drop_chunks(doc_id)
                removed += db.execute("DELETE FROM documents WHERE doc_id = ?", (doc_id,)).rowcount
            added = updated = 0
            for doc, _ in changes.upserts:
                existing = db.execute(
                    "SELECT doc_id FROM documents WHERE doc_id = ? OR (root = ? AND path = ?)",
                    (doc.doc_id, doc.root, doc.path),
                ).fetchall()
                for row in existing:
                    drop_chunks(row["doc_id"])
                    db.execute("DELETE FROM documents WHERE doc_id = ?", (row["doc_id"],))
                if existing:
                    updated += 1
                else:
                    added += 1
            for label in dict.fromkeys(doc.access for doc, _ in changes.upserts):
                _partition(db, label)  # before its chunks: its triggers route them
            low = db.execute("SELECT coalesce(max(id), 0) FROM chunks").fetchone()[0]
            for doc, chunks in changes.upserts:
                db.execute(f"INSERT INTO documents ({DOC_COLUMNS}) VALUES "
                           f"({','.join('?' * DOC_WIDTH)})", document_row(doc, now))
                db.executemany(
                    "INSERT INTO chunks (chunk_id, doc_id, ordinal, path, kind, access, "
                    "effective_from, effective_to, heading, page, page_label, start_line, "
                    "end_line, symbol, symbol_kind, text, tokens, text_hash, role, title_tokens) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    [(c.chunk_id, doc.doc_id, c.ordinal, doc.path, doc.kind, doc.access,
                      doc.effective_from, doc.effective_to, c.heading, c.page, c.page_label,
                      c.start_line, c.end_line, c.symbol, c.symbol_kind, c.text,
                      " ".join(c.tokens), c.text_hash or None, c.role, c.title_tokens)
                     for c in chunks],
                )
            high = db.execute("SELECT coalesce(max(id), 0) FROM chunks").fetchone()[0]
            _mark_used(db, gone)
            generation = db.execute(
                "INSERT INTO meta (key, value) VALUES ('generation', '1') ON CONFLICT(key) "
                "DO UPDATE SET value = CAST(value AS INTEGER) + 1 RETURNING value").fetchone()[0]
            state = _new_state()
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('state', ?)", (state,))
            # what this ingest changed, for keyword indexes made for an earlier state
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                       (f"{kw.LOG_PREFIX}{generation}",
                        kw.log_entry(parent, state, deleted, low, high,
                                     sum(len(chunks) for _, chunks in changes.upserts))))
            db.execute("DELETE FROM meta WHERE key LIKE ? AND CAST(substr(key, ?) AS INTEGER) "
                       "<= ?", (kw.LOG_PREFIX + "%", len(kw.LOG_PREFIX) + 1,
                                int(generation) - kw.LOG_KEEP))
            db.execute(
                "INSERT INTO ingests (started_at, finished_at, added, updated, removed, "
                "unchanged, failed) VALUES (?,?,?,?,?,?,?)",
                (changes.started_at or now, now, added, updated, removed, changes.unchanged,
                 changes.failed),
            )
        self._persist_keywords()

    # -- retrieval ----------------------------------------------------------------------
    def search_bm25(self, terms: Sequence[str], filters: Filters, k: int) -> list[Hit]:
        """Ranks row ids first and reads the k winners' columns after, in the same snapshot
        and under the same filters: scoring touches every matching row, so the ranking
        query must not drag wide chunk rows along."""
        if not terms or k <= 0:
            return []
        with self._snapshot():
            searcher = self._keyword_searcher() if self.bm25_engine else None
            if searcher is not None:
                return self._hits_by_rowid(searcher.search(terms, filters, k), filters)
            # the `sql` setting, or the keyword engine being built in the background: FTS5
            parts = self._readable_parts(filters)
            # the audience is the choice of partitions (each holds one label's chunks):
            # ranking joins the chunk rows only for the other filters; the winners' rows
            # are read back under every filter, the audience included
            rest = dataclasses.replace(filters, audience=None)
            # nothing but the default role filter: rank without the join, and rank again
            # with it only when a navigation chunk was among the winners (rare)
            quick = dataclasses.replace(rest, navigation=True) == UNFILTERED
            for ranking in ([UNFILTERED, rest] if quick and not rest.navigation else [rest]):
                if len(parts) == 1:
                    ranked = self._rank_part(parts[0][0], fts_query(terms), ranking, k)
                else:
                    ranked = self._rank_parts(parts, terms, ranking, k)
                hits = self._hits_by_rowid([(rowid, -score) for score, rowid in ranked],
                                           filters)
                if len(hits) == len(ranked):
                    break
            return declared(hits) if self.bm25_engine else hits

    def _keyword_searcher(self) -> kw.Searcher | None:
        """The searcher of the state this read transaction sees (call inside one), or None
        while a big one is built in the background."""
        stamp, held, reader = self._stamp(), self._searcher, self.keywords
        if held is not None and held[:2] == (stamp, reader.version):
            return held[2]
        searcher = reader.get(self.state(), self._change_records, self._keyword_rows,
                              self._max_chunk_id, self._keyword_opener())
        self._searcher = None if searcher is None else (stamp, reader.version, searcher)
        return searcher

    def _keyword_opener(self):
        return None if self.keywords.path is None else self._keyword_snapshot

    @contextmanager
    def _keyword_snapshot(self) -> Iterator[kw.Snapshot]:
        """A read snapshot on a connection of its own, for a background build."""
        db = sqlite3.connect(self.location, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA busy_timeout=30000")
            db.execute("BEGIN")
            meta = dict(db.execute("SELECT key, value FROM meta WHERE key IN "
                                   "('generation', 'state')").fetchall())
            key = f"{meta.get('generation') or 0}x{meta.get('state')}"
            yield (key, lambda: _change_records(db), lambda ranges: db.execute(
                *rows_sql(ranges)), lambda: _max_chunk_id(db))
        finally:
            db.close()

    def _max_chunk_id(self) -> int:
        return _max_chunk_id(self.db)

    def _change_records(self) -> dict[int, str]:
        return _change_records(self.db)

    def _keyword_rows(self, ranges: list[tuple[int, int]] | None) -> Iterator[tuple]:
        yield from self.db.execute(*rows_sql(ranges))

    def readable_chunks(self, filters: Filters) -> int:
        return sum(n for _, n in self._readable_parts(filters))

    def _readable_parts(self, filters: Filters) -> list[tuple[int, int]]:
        """(partition, chunk count) of the labels `filters` may read (all: the operator)."""
        labels = filters.readable_labels()
        if labels is None:
            return [tuple(row) for row in self.db.execute(
                "SELECT part, chunks FROM lexicon_parts ORDER BY part")]
        return [tuple(row) for row in self.db.execute(
            f"SELECT part, chunks FROM lexicon_parts WHERE label IN "
            f"({','.join('?' * len(labels))}) ORDER BY part", labels)]

    def _rank_part(self, part: int, match: str, filters: Filters,
                   k: int) -> list[tuple[float, int]]:
        """(bm25, row id) of the top k of one partition under the filters, by FTS5."""
        table = _part_table(part)
        if filters == UNFILTERED:
            sql, params = (f"SELECT bm25({table}) AS s, rowid FROM {table} "
                           f"WHERE {table} MATCH ? ORDER BY s, rowid LIMIT ?"), [match, k]
        else:
            where, extra = filter_sql(filters)
            sql = (f"SELECT bm25({table}) AS s, c.id FROM {table} "
                   f"JOIN chunks c ON c.id = {table}.rowid "
                   f"WHERE {table} MATCH ? AND {where} ORDER BY s, c.id LIMIT ?")
            params = [match, *extra, k]
        return [(row[0], row[1]) for row in self.db.execute(sql, params)]

    def _rank_parts(self, parts: list[tuple[int, int]], terms: Sequence[str],
                    filters: Filters, k: int) -> list[tuple[float, int]]:
        """(bm25, row id) of the top k over several partitions. FTS5's bm25() of a one-term
        query is IDF_partition(t) × the row's length-normalised tf; rescaled by
        IDF_readable(t) / IDF_partition(t) and summed over the query's terms, it is BM25
        with the IDF of the partitions read together (N and df summed)."""
        counts = Counter(terms)  # a repeated query term counts again, as in FTS5
        n_total = sum(n for _, n in parts)
        hits = {(part, term): self._hit_count(part, term) for part, _ in parts for term in counts}
        branches, params = [], []
        for term, repeats in counts.items():
            readable = bm25_idf(n_total, sum(hits[part, term] for part, _ in parts))
            for part, n_chunks in parts:
                if hits[part, term]:
                    table = _part_table(part)
                    factor = repeats * readable / bm25_idf(n_chunks, hits[part, term])
                    branches.append(f"SELECT rowid AS id, bm25({table}) * ? AS s FROM {table} "
                                    f"WHERE {table} MATCH ?")
                    params += [factor, fts_query([term])]
        if not branches:
            return []
        # MATERIALIZED: bm25() is only valid in its own FTS5 query, never flattened
        sql = f"WITH s AS MATERIALIZED ({' UNION ALL '.join(branches)}) "
        if filters == UNFILTERED:
            sql += "SELECT sum(s) AS score, id FROM s GROUP BY id"
        else:
            where, extra = filter_sql(filters)
            sql += (f"SELECT sum(s.s) AS score, s.id AS id FROM s JOIN chunks c ON c.id = s.id "
                    f"WHERE {where} GROUP BY s.id")
            params += extra
        rows = self.db.execute(sql + " ORDER BY 1, 2 LIMIT ?", [*params, k])
        return [(row[0], row[1]) for row in rows]

    def _hit_count(self, part: int, term: str) -> int:
        """Rows of a partition that match `term`: its document frequency, from the FTS5
        vocabulary (or a count when the term is more than one FTS5 token)."""
        table = _part_table(part)
        row = self.db.execute(f"SELECT doc FROM {table}_terms WHERE term = ?",
                              (term,)).fetchone()
        if row is not None:
            return row[0]
        return self.db.execute(f"SELECT COUNT(*) FROM {table} WHERE {table} MATCH ?",
                               (fts_query([term]),)).fetchone()[0]

    # -- vectors ------------------------------------------------------------------------
    def put_vectors(self, model: str, items: Sequence[tuple[str, np.ndarray]]) -> None:
        """Cache vectors by text hash. Committed on its own: the cache is not what searches
        see (chunks are), so a killed ingest keeps the work done without changing results."""
        used = time.time()
        with self._write() as db:
            db.executemany(
                "INSERT OR REPLACE INTO vectors (model, text_hash, vector, used) "
                "VALUES (?, ?, ?, ?)",
                [(model, h, np.asarray(v, dtype=np.float32).tobytes(), used) for h, v in items])

    def prune_vectors(self, over: int, keep: int, used_before: float) -> int:
        """Of each model with more than `over` orphan vectors (no chunk holds their text),
        delete those past the `keep` most recently used, except those used since
        `used_before`; returns how many.
        One write transaction: no chunk can come to need a vector while it runs."""
        deleted = 0
        with self._write() as db:
            for (model,) in db.execute(VECTOR_MODELS).fetchall():
                # counted on the key index first: the ordered scan reads the vector rows
                if db.execute(f"SELECT COUNT(*) FROM vectors v WHERE v.model = ? AND {ORPHAN}",
                              (model,)).fetchone()[0] <= over:
                    continue
                deleted += db.execute(
                    "DELETE FROM vectors WHERE id IN (SELECT v.id FROM vectors v WHERE "
                    f"v.model = ? AND {ORPHAN} ORDER BY v.used DESC, v.id DESC "
                    "LIMIT -1 OFFSET ?) AND used < ?", (model, keep, used_before)).rowcount
        return deleted

    def passages_without_vectors(self, model: str) -> list[tuple[str, str, str, str, str, str]]:
        """(text_hash, path, title, heading, symbol, text) of indexed chunks with no vector
        for `model`: what an ingest embeds to back-fill an index made without vectors."""
        return [tuple(row) for row in self.db.execute(
            "SELECT c.text_hash, c.path, d.title, c.heading, c.symbol, c.text "
            "FROM chunks c JOIN documents d ON d.doc_id = c.doc_id "
            "WHERE c.text_hash IS NOT NULL AND NOT EXISTS (SELECT 1 FROM vectors v "
            "WHERE v.model = ? AND v.text_hash = c.text_hash) GROUP BY c.text_hash", (model,))]

    def search_dense(self, query: np.ndarray, model: str, filters: Filters, k: int) -> list[Hit]:
        """Exact cosine top k among the chunks the filters allow."""
        with self._snapshot():
            matrix = self._vector_matrix(model, query.shape[-1])
            allowed = None
            if filters.path_prefixes and not matrix.has_paths:
                where, params = filter_sql(Filters(path_prefixes=filters.path_prefixes,
                                                   navigation=True))
                allowed = np.fromiter((r[0] for r in self.db.execute(
                    f"SELECT c.id FROM chunks c WHERE {where} ORDER BY c.id", params)),
                    np.int64)
            best = matrix.top_k(np.asarray(query, dtype=np.float32), k,
                                matrix.mask(filters, allowed))
            return self._hits_by_rowid(best, filters)

    def _vector_matrix(self, model: str, dimension: int) -> VectorMatrix:
        # nothing written since the last look (by another connection: data_version; by this
        # one: total_changes): the matrix is current, skip the COUNT(*) (a scan of the
        # vector blobs, ~2 s at 1M chunks)
        stamp = self._stamp()
        held = self._matrices.get(model)
        if held is not None and self._matrix_stamps.get(model) == stamp:
            return held[1]
        self._matrix_stamps[model] = stamp
        key = (model, self.state(), self._vectors_count(model))
        if held is None or held[0] != key:
            self._matrices.pop(model, None)  # free the old matrix before reading the new one
            # large matrices (see preuve.store.ann) are cached beside this file with their
            # approximate index: a new process maps them instead of reading every vector
            matrix = VectorMatrix.cached(self.location, model, key[1], key[2], dimension,
                                         self.ann_threshold)
            if matrix is None:
                rows = self.db.execute(
                    "SELECT c.id, v.vector, c.access, c.kind, c.effective_from, "
                    "c.effective_to, c.role, c.path FROM chunks c JOIN vectors v "
                    "ON v.model = ? AND v.text_hash = c.text_hash ORDER BY c.id",
                    (model,)).fetchall()
                matrix = VectorMatrix.build(rows, dimension)
                del rows
                matrix.prepare_ann(self.location, model, key[1], key[2], self.ann_threshold)
            self._matrices[model] = (key, matrix)
        return self._matrices[model][1]

    @property
    def vector_matrix(self) -> VectorMatrix | None:
        """The vectors dense search holds in memory for the index's embedder (None until a
        dense query loaded them): what `index.engine.stats` reports."""
        held = self._matrices.get(self.get_meta("embedder_model") or "")
        return None if held is None else held[1]

    def state(self) -> str:
        """What derived files (vector matrix, ANN index) are keyed on: the generation and a
        random token drawn by every write. Another index file at this path (deleted and made
        again, restored from a backup, copied over) never matches a file made for this one."""
        return f"{self.get_meta('generation') or 0}x{self.get_meta('state')}"

    def _vectors_count(self, model: str) -> int:
        return self.db.execute("SELECT COUNT(*) FROM vectors WHERE model = ?",
                               (model,)).fetchone()[0]

    def _hits_by_rowid(self, scored: Sequence[tuple[int, float]],
                       filters: Filters) -> list[Hit]:
        """The rows of ranked ids that pass the filters now, in this snapshot (call inside
        one): an id that no longer names a row the caller may read is dropped, never shown.
        Which ids pass is the database's answer under the caller's filters, asked in this
        state (remembered for it: the same state, filters and id give the same answer); the
        columns of the rows that pass are read in this state too (and remembered for it)."""
        if not scored:
            return []
        memo = self._state_memo()
        verdicts = memo.verdicts.get(filters)
        if verdicts is None:
            verdicts = memo.verdicts[filters] = {}
        unknown = [rowid for rowid, _ in scored if rowid not in verdicts]
        if unknown:
            where, params = filter_sql(filters)
            passing = {rowid for (rowid,) in self._plain().execute(
                f"SELECT c.id FROM chunks c WHERE c.id IN ({','.join('?' * len(unknown))}) "
                f"AND {where}", [*unknown, *params])}
            for rowid in unknown:
                verdicts[rowid] = rowid in passing
            memo.entries += len(unknown)
        rows = memo.rows
        missing = [rowid for rowid, _ in scored if verdicts[rowid] and rowid not in rows]
        if missing:
            for row in self._plain().execute(
                    f"SELECT {HIT_COLUMNS}, c.id FROM chunks c JOIN documents d "
                    f"ON d.doc_id = c.doc_id WHERE c.id IN ({','.join('?' * len(missing))})",
                    missing):
                rows[row[-1]] = row  # the last column is c.id
            memo.entries += len(missing)
        found = [(rows[rowid], score) for rowid, score in scored
                 if verdicts[rowid] and rowid in rows]
        return [hit_from_row(row, rank, score) for rank, (row, score) in enumerate(found, 1)]

    def _plain(self) -> sqlite3.Cursor:
        """A cursor whose rows are plain tuples (no sqlite3.Row to build)."""
        cursor = self.db.cursor()
        cursor.row_factory = None
        return cursor

    # -- copying an index (preuve migrate): the vector cache; the rest is SqlStore's ------
    def export_vectors(self, batch: int = 5000
                       ) -> Iterator[tuple[str, list[tuple[str, np.ndarray]]]]:
        last = 0
        while True:
            rows = self.db.execute("SELECT id, model, text_hash, vector FROM vectors "
                                   "WHERE id > ? ORDER BY id LIMIT ?", (last, batch)).fetchall()
            if not rows:
                return
            last = rows[-1][0]
            by_model: dict[str, list] = {}
            for _, model, text_hash, blob in rows:
                by_model.setdefault(model, []).append(
                    (text_hash, np.frombuffer(blob, dtype=np.float32)))
            yield from by_model.items()

    # -- bookkeeping --------------------------------------------------------------------
    def _engine_stats(self, cur) -> dict:
        files = (self.location, self.location + "-wal")
        return {"size_bytes": sum(os.path.getsize(p) for p in files if os.path.exists(p)),
                "keyword_snapshot": self.keyword_snapshot()}

    def close(self) -> None:
        self._close_keywords()
        self.db.close()


PARTITIONS_MIGRATION = 7  # the migration that split BM25 into partitions per label


_MEMO_ENTRIES = 20_000  # rows and verdicts remembered for the current state (_state_memo)


class _StateMemo:
    """What one connection read in one state of the file (`_stamp`): chunk rows
    (HIT_COLUMNS, then c.id) by id, and per filters which ids pass them. Never consulted
    in another state: `_state_memo` starts a new one as soon as the state moves."""

    __slots__ = ("stamp", "rows", "verdicts", "entries")

    def __init__(self, stamp: tuple | None) -> None:
        self.stamp = stamp
        self.rows: dict[int, tuple] = {}
        self.verdicts: dict[Filters, dict[int, bool]] = {}
        self.entries = 0


_HEADER = b"SQLite format 3\x00"


def _refuse_foreign_file(location: str) -> None:
    """A folder, or a file that is not SQLite (a typo naming a PDF, a note): InvalidInput
    naming it, before SQLite opens it."""
    if os.path.isdir(location):
        raise InvalidInput(f"{location}: a folder, not an index file (give the file, e.g. "
                           f"{os.path.join(location, 'index.sqlite')})")
    try:
        with open(location, "rb") as handle:
            head = handle.read(len(_HEADER))
    except FileNotFoundError:
        return  # a new index
    except OSError as exc:
        raise InvalidInput(f"{location}: cannot read it ({exc.strerror})") from None
    if head and head != _HEADER:
        raise InvalidInput(f"{location}: not a preuve index (not a SQLite database)")


def _refuse_foreign_database(db: sqlite3.Connection, location: str) -> None:
    """Another program's SQLite database is not made into an index (tables added to it):
    InvalidInput. An empty database becomes one."""
    try:
        tables = {row[0] for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as exc:
        db.close()
        raise InvalidInput(f"{location}: not a preuve index ({exc})") from None
    if tables and "meta" not in tables:
        db.close()
        raise InvalidInput(f"{location}: a SQLite database of another program, not a preuve "
                           f"index (tables: {', '.join(sorted(tables)[:5])})")


def _max_chunk_id(db: sqlite3.Connection) -> int:
    return db.execute("SELECT coalesce(max(id), 0) FROM chunks").fetchone()[0]


def _change_records(db: sqlite3.Connection) -> dict[int, str]:
    return {int(key[len(kw.LOG_PREFIX):]): value for key, value in db.execute(
        "SELECT key, value FROM meta WHERE key LIKE ?", (kw.LOG_PREFIX + "%",))}


def _part_table(part: int) -> str:
    """The FTS5 table of partition `part` (a number: no label is ever written into SQL)."""
    return f"lex_{int(part)}"


def _partition(db: sqlite3.Connection, label: str | None) -> int:
    """The partition of `label` (None: unlabelled), made with its FTS5 table and the
    triggers that keep it in step with the chunks of that label, if it is new."""
    row = db.execute("SELECT part FROM lexicon_parts WHERE label IS ?", (label,)).fetchone()
    if row is not None:
        return row[0]
    part = cast(int, db.execute("INSERT INTO lexicon_parts (label) VALUES (?)",
                                (label,)).lastrowid)  # (set by an INSERT)
    table = _part_table(part)
    mine = f"(SELECT label FROM lexicon_parts WHERE part = {int(part)})"
    count = f"UPDATE lexicon_parts SET chunks = chunks + {{}} WHERE part = {int(part)};"
    add = f"INSERT INTO {table}(rowid, tokens) VALUES (new.id, new.tokens); {count.format(1)}"
    drop = (f"INSERT INTO {table}({table}, rowid, tokens) VALUES ('delete', old.id, "
            f"old.tokens); {count.format(-1)}")
    db.execute(f"CREATE VIRTUAL TABLE {table} USING fts5(tokens, content='chunks', "
               f"content_rowid='id', tokenize=\"{FTS_TOKENIZE}\")")
    # its vocabulary: the document frequency of each term, read by `_hit_count`
    db.execute(f"CREATE VIRTUAL TABLE {table}_terms USING fts5vocab({table}, 'row')")
    db.execute(f"CREATE TRIGGER {table}_ai AFTER INSERT ON chunks "
               f"WHEN new.access IS {mine} BEGIN {add} END")
    db.execute(f"CREATE TRIGGER {table}_ad AFTER DELETE ON chunks "
               f"WHEN old.access IS {mine} BEGIN {drop} END")
    db.execute(f"CREATE TRIGGER {table}_au AFTER UPDATE OF access, tokens ON chunks BEGIN "
               f"INSERT INTO {table}({table}, rowid, tokens) SELECT 'delete', old.id, "
               f"old.tokens WHERE old.access IS {mine}; "
               f"UPDATE lexicon_parts SET chunks = chunks - 1 WHERE part = {int(part)} "
               f"AND old.access IS {mine}; INSERT INTO {table}(rowid, tokens) "
               f"SELECT new.id, new.tokens WHERE new.access IS {mine}; "
               f"UPDATE lexicon_parts SET chunks = chunks + 1 WHERE part = {int(part)} "
               f"AND new.access IS {mine}; END")
    return part


def _partition_existing(db: sqlite3.Connection) -> None:
    """Migration 7's data step: a partition per label of the existing chunks, filled."""
    labels = [row[0] for row in db.execute("SELECT DISTINCT access FROM chunks")]
    for label in sorted(labels, key=lambda x: (x is not None, x or "")):
        part = _partition(db, label)
        table = _part_table(part)
        db.execute(f"INSERT INTO {table}(rowid, tokens) SELECT id, tokens FROM chunks "
                   "WHERE access IS ? ORDER BY id", (label,))
        db.execute("UPDATE lexicon_parts SET chunks = (SELECT COUNT(*) FROM chunks "
                   "WHERE access IS ?) WHERE part = ?", (label, part))


# what ranking inside one BM25 partition needs no join for: no filter at all (roles
# included; the caller drops navigation chunks when it reads the winners back)
UNFILTERED = Filters(navigation=True)



def _mark_used(db: sqlite3.Connection, text_hashes: set[str]) -> None:
    """The vectors of texts whose chunks went were of use until now (they may come back)."""
    if not text_hashes:
        return
    used, hashes = time.time(), sorted(text_hashes)
    for (model,) in db.execute(VECTOR_MODELS).fetchall():
        for i in range(0, len(hashes), 500):
            part = hashes[i:i + 500]
            db.execute(f"UPDATE vectors SET used = ? WHERE model = ? AND text_hash IN "
                       f"({','.join('?' * len(part))})", [used, model, *part])


def _new_state() -> str:
    return uuid.uuid4().hex[:16]


def _statements(script: str) -> list[str]:
    """Split a migration into statements (sqlite3.complete_statement knows about triggers)."""
    out, buf = [], ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip() and not buf.strip().startswith("--"):
        out.append(buf.strip())
    return [s for s in out if s]
