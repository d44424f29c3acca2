"""Where the index lives. `Store` is the seam; SQLite (one file) is the embedded default.

A store owns persistence and the queries that must run *inside* the engine so that filters
apply before the top k is cut. Everything else (parsing, tokens, fusion, answers) lives
above it. `Store` is what ingest and retrieval call; `preuve.store.sql.SqlStore` holds what
both engines do alike, each engine (sqlite.py, postgres.py) its migrations, `apply`,
searches and vectors.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from preuve.models import Chunk, Document, Filters, Hit

if TYPE_CHECKING:
    from preuve.keyword import IndexReader
    from preuve.store.matrix import VectorMatrix
    from preuve.store.pgshared import BucketTable, StoredFiles
    from preuve.store.sql import Conversations, FeedbackRows

DEFAULT_INDEX = os.path.join(".preuve", "index.sqlite")


@dataclass
class Changes:
    """One ingest's worth of writes, applied atomically: all of it or none of it."""

    upserts: list[tuple[Document, list[Chunk]]] = field(default_factory=list)
    removals: list[str] = field(default_factory=list)  # doc_ids
    started_at: str = ""
    unchanged: int = 0
    failed: int = 0


class Store(Protocol):
    """What ingest and retrieval call on an index: persistence and the queries that run
    inside the engine. Both engines are a `SqlStore` (preuve.store.sql), which adds
    counts, conversations (`conversations`) and export/import for `preuve migrate`."""

    location: str

    # -- ingest -----------------------------------------------------------------------
    def documents(self, filters: Filters | None = None) -> list[Document]:
        """Documents the filters allow (all of them when None), ordered by path."""
        ...

    def apply(self, changes: Changes) -> None:
        """Replace the upserted documents' chunks and drop the removed ones, atomically."""
        ...

    def deferred_index(self) -> AbstractContextManager[None]:
        """Bulk loading: inside the block, derived indexes (PostgreSQL's HNSW) are not
        maintained batch after batch but built once when it ends."""
        ...

    def missing_vectors(self, model: str, text_hashes: Sequence[str]) -> set[str]:
        """Which of `text_hashes` have no vector for `model` yet."""
        ...

    def put_vectors(self, model: str, items: Sequence[tuple[str, np.ndarray]]) -> None:
        """Cache vectors by text hash (committed at once: the cache changes no results)."""
        ...

    def prune_vectors(self, over: int, keep: int, used_before: float) -> int:
        """Of each model with more than `over` orphan vectors (no chunk holds their text),
        delete those past the `keep` most recently used, but none used at or after
        `used_before` (a time.time()), in one write transaction under the write lock
        `apply` takes; returns how many (`preuve.ingest.vectors.prune` sets the bound)."""
        ...

    def passages_without_vectors(self, model: str) -> list[tuple[str, str, str, str, str, str]]:
        """(text_hash, path, title, heading, symbol, text) of chunks lacking a vector."""
        ...

    # -- retrieval --------------------------------------------------------------------
    def search_bm25(self, terms: Sequence[str], filters: Filters, k: int) -> list[Hit]:
        """Top k chunks by BM25 over `terms` (OR), filters applied before the cut."""
        ...

    def search_dense(self, query: np.ndarray, model: str, filters: Filters, k: int) -> list[Hit]:
        """Top k chunks by cosine to `query` in `model`'s vectors, filters before the cut."""
        ...

    def languages(self, filters: Filters) -> frozenset[str]:
        """The languages of the documents the caller's labels let it read."""
        ...

    def readable_chunks(self, filters: Filters) -> int:
        """How many chunks the audience of `filters` may read (its labels only; a cheap
        count kept per label, for statistics such as IDF)."""
        ...

    def chunks(self, chunk_ids: Sequence[str], filters: Filters) -> list[Hit]:
        """Chunks by id that the filters allow, in the order asked (rank 0, score 0)."""
        ...

    # -- what the index records (embedder, calibration) -------------------------------
    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    def close(self) -> None: ...


class IndexStore(Store, Protocol):
    """What `preuve.Index` holds (`open_store` gives one): a `Store` and what both SQL
    engines add (`preuve.store.sql.SqlStore`): counts, conversations, feedback, what
    servers on one database share, export and import for `preuve migrate`."""

    conversations: Conversations
    feedback: FeedbackRows
    files: StoredFiles | None  # uploads' bytes every server shares (PostgreSQL)
    rates: BucketTable | None  # rate-limit buckets every server shares (PostgreSQL)

    @property
    def schema_version(self) -> int: ...

    def stats(self) -> dict: ...

    def document_chunks(self, doc_id: str, filters: Filters) -> list[Hit]: ...

    def export_documents(self, batch: int = 500
                         ) -> Iterator[list[tuple[Document, list[Chunk]]]]: ...

    def export_vectors(self, batch: int = 5000
                       ) -> Iterator[tuple[str, list[tuple[str, np.ndarray]]]]: ...

    def export_rows(self, table: str) -> list[tuple]: ...

    def import_rows(self, table: str, rows: Sequence[tuple]) -> None: ...


# -- optional abilities: a store has them or not; callers check with isinstance -------------
@runtime_checkable
class HnswStore(Protocol):
    """A store whose dense search can run through an HNSW index (PostgreSQL)."""

    def hnsw_ready(self) -> bool: ...

    def build_hnsw(self) -> bool: ...

    def drop_hnsw(self) -> None: ...


@runtime_checkable
class KeywordHolder(Protocol):
    """A store that ranks BM25 with the keyword engine (`keywords`: its reader, shared by
    the stores of one index in a process; preuve.keyword)."""

    keywords: IndexReader


@runtime_checkable
class DenseMatrixHolder(Protocol):
    """A store that holds the vectors dense search scans in memory (SQLite):
    `vector_matrix`, None until a dense query loaded them."""

    @property
    def vector_matrix(self) -> VectorMatrix | None: ...


def is_postgres(location: str) -> bool:
    """Whether `location` names a PostgreSQL database rather than a SQLite file."""
    return location.startswith(("postgres://", "postgresql://"))


def shown(location: str) -> str:
    """`location` as messages and logs may show it: a database URL loses its password
    (one of an unknown scheme is shown by its scheme only)."""
    from preuve.errors import InvalidInput
    from preuve.registry import store_for

    try:
        spec = store_for(location)
    except InvalidInput:
        return location.split("://", 1)[0] + "://..."
    return spec.shown(location) if spec.shown else location


def open_store(location: str | os.PathLike | None = None, settings=None) -> IndexStore:
    """Open (creating if needed) the index at `location`, else the `index` setting, else
    the default, with the store registered for its URL scheme (`preuve.registry.stores`;
    a file path: SQLite). `settings` (a `preuve.settings.Settings`) tunes the store:
    pg_pool, hnsw_threshold, hnsw_ef_search, ann_threshold, bm25, cache."""
    from preuve.registry import store_for

    location = os.fspath(location or (settings.index if settings else None) or DEFAULT_INDEX)
    return store_for(location).open(location, settings)
