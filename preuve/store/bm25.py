"""BM25 for both stores: the keyword engine (`preuve.keyword`) a store ranks with, and its
plumbing (the rows it is made of, a snapshot of its own for a background build, the
searcher left saved after each write, the reader shared with the other stores of the
index in this process).

While a background build runs (indexes from `ReloadPolicy.background_rows` rows whose
searcher no saved file or change record leads to), the store ranks through its SQL BM25
(FTS5, sparse vectors: plain BM25, not BM25F) and each hit says so in
`hit.scores["bm25"]["fallback"]`; below that size the query waits for the engine, so the
same query gets the same ranking whatever a thread is doing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING

from preuve import keyword as kw
from preuve.keyword.changes import merged_ranges
from preuve.models import Hit


class KeywordStore:
    """What a store adds to keep the keyword engine: `keywords` (the shared reader).

    Each store supplies `_keyword_snapshot` (SQLiteStore and PostgresStore do): the base
    here raises NotImplementedError, as `SqlStore`'s engine hooks do."""

    keywords: kw.IndexReader
    bm25_engine: bool = True  # False: the `bm25` setting `sql` (FTS5 / sparse vectors)
    _keyword_identity: tuple | None = None
    _deferring = False

    def _open_keywords(self, identity: tuple | None, path: str | None) -> None:
        """The reader of this index (`identity`: location and schema) in this process,
        its base saved at `path` (None: in memory only)."""
        self._keyword_identity = identity
        self.keywords = kw.shared(identity, path)

    def _keyword_snapshot(self) -> AbstractContextManager[kw.Snapshot]:
        """A read snapshot on a connection of its own (a background build, `persist`)."""
        raise NotImplementedError

    def _keyword_opener(self):
        """The opener a background build uses (None: this store has none)."""
        return self._keyword_snapshot

    def _persist_keywords(self) -> None:
        """After a write: the searcher of the new state made and left saved (from
        SAVE_MIN_ROWS rows), so that a new process maps it (`IndexReader.persist`)."""
        opener = self._keyword_opener()
        if self._deferring or not self.bm25_engine or opener is None:
            return
        with opener() as (key, entries, rows, size):
            self.keywords.persist(key, entries, rows, size)

    @contextmanager
    def deferred_index(self) -> Iterator[None]:
        """Bulk loading (`preuve migrate`, benchmarks): derived indexes (the keyword
        engine's saved searcher; PostgreSQL's HNSW) are made once when the block ends."""
        self._deferring = True
        try:
            yield
        finally:
            self._deferring = False
        self._after_bulk()

    def _after_bulk(self) -> None:
        self._persist_keywords()

    def keyword_snapshot(self) -> str:
        """Whether the keyword engine's saved files serve the current state ("current"),
        an earlier one ("earlier": reloaded from it by the change log) or none ("none":
        in memory only, or not saved yet)."""
        saved = kw.files.saved_keys(self.keywords.path)
        if not saved:
            return "none"
        return "current" if self.state() in saved else "earlier"

    if TYPE_CHECKING:
        def state(self) -> str: ...

    def _close_keywords(self) -> None:
        kw.release(self._keyword_identity, self.keywords, self._keyword_opener())


def declared(hits: list[Hit]) -> list[Hit]:
    """Hits ranked by the store's SQL BM25 while the engine is built: each says so."""
    for hit in hits:
        hit.scores["bm25"] = {"fallback": kw.FALLBACK}
    return hits


def rows_sql(ranges: list[tuple[int, int]] | None, mark: str = "?") -> tuple[str, list]:
    """The query for the rows the keyword engine is made of (all of them, or those of
    (low, high] id ranges), in rowid order; `mark` is the driver's placeholder. The ranges
    are merged first (successive ingests give adjacent or overlapping ones), and each is
    its own SELECT: with five OR'ed ranges SQLite chose a scan of the whole table (1.2 s at
    1M) over five rowid searches."""
    columns = ("SELECT id, tokens, access, kind, effective_from, effective_to, role, path, "
               "title_tokens FROM chunks")
    if ranges is None:
        return columns + " ORDER BY id", []
    merged = merged_ranges(ranges)
    if not merged:
        return columns + " WHERE 0 = 1", []
    sql = " UNION ALL ".join([f"{columns} WHERE id > {mark} AND id <= {mark}"] * len(merged))
    return sql + " ORDER BY id", [x for pair in merged for x in pair]
