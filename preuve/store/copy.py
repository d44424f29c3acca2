"""Copy a whole index from one store to another (`preuve migrate`): SQLite to PostgreSQL
when a team outgrows one machine, or back.

Vectors are copied, never recomputed; the documents and chunks go through the target's own
`apply`, so it derives what it needs (PostgreSQL's lexicon and BM25 weights) exactly as an
ingest would. The target must be empty; the source is only read. Counts are checked at the
end and any difference is an error.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

from preuve.errors import Conflict, NoSuchFile
from preuve.store import Changes, IndexStore, is_postgres, open_store
from preuve.store.sql import PLAIN_TABLES


@dataclass
class CopyReport:
    source: str
    target: str
    documents: int = 0
    chunks: int = 0
    vectors: dict[str, int] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def open_existing(location: str) -> IndexStore:
    """Open an index that must already exist (opening a missing SQLite path would create it)."""
    if not is_postgres(location) and not os.path.isfile(location):
        raise NoSuchFile(f"{location}: no such index file")
    return open_store(location)


def copy_index(source: str, target: str, batch: int = 500,
               progress: Callable[[int], None] | None = None) -> CopyReport:
    """Copy the index at `source` into the empty index at `target`; return what was copied."""
    src = open_existing(source)
    try:
        dst = open_store(target)
    except BaseException:
        src.close()
        raise
    try:
        return _copy(src, dst, batch, progress)
    finally:
        src.close()
        dst.close()


def _copy(src: IndexStore, dst: IndexStore, batch: int, progress) -> CopyReport:
    report = CopyReport(source=src.location, target=dst.location)
    before = dst.stats()
    if (before["documents"] or before["chunks"] or any(before.get("vectors", {}).values())
            or any(before.get("cached_vectors", {}).values())):
        raise Conflict(f"{dst.location} is not empty ({before['documents']} documents): "
                       "migrate copies into an empty index only")
    # meta first: the target learns which embedder the index uses before any vector arrives
    meta = [row for row in src.export_rows("meta") if row[0] != "generation"]
    dst.import_rows("meta", meta)
    # vectors before chunks, so each chunk is written once, with its vector
    for model, items in src.export_vectors():
        dst.put_vectors(model, items)
        report.vectors[model] = report.vectors.get(model, 0) + len(items)
    # a store with an approximate index builds it once, after the last batch
    with dst.deferred_index():
        for part in src.export_documents(batch):
            dst.apply(Changes(upserts=part))
            report.documents += len(part)
            report.chunks += sum(len(chunks) for _, chunks in part)
            if progress:
                progress(sum(len(chunks) for _, chunks in part))
    for table in PLAIN_TABLES:
        if table != "meta":
            rows = src.export_rows(table)
            dst.import_rows(table, rows)
            report.rows[table] = len(rows)
    if src.files is not None and dst.files is not None:  # uploads' bytes (PostgreSQL)
        digests = src.files.digests()
        for digest in digests:
            data = src.files.get(digest)
            if data is not None:
                dst.files.put(data)
        report.rows["files"] = len(digests)
    _check(src, dst, report)
    return report


def _check(src: IndexStore, dst: IndexStore, report: CopyReport) -> None:
    """Both sides hold the same numbers of documents, chunks, vectors and messages."""
    a, b = src.stats(), dst.stats()
    wrong = [f"{key}: {a.get(key)} in the source, {b.get(key)} in the target"
             for key in ("documents", "chunks", "vectors", "cached_vectors")
             if a.get(key) != b.get(key)]
    for table in ("conversations", "messages", "feedback"):
        n, m = report.rows[table], len(dst.export_rows(table))
        if n != m:
            wrong.append(f"{table}: {n} in the source, {m} in the target")
    if wrong:
        raise Conflict(f"{dst.location}: the copy does not match the source ("
                       + "; ".join(wrong) + ")")
