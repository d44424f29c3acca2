"""`Index`: the Python API. One object per index, the CLI verbs as methods.

    from preuve import Index
    index = Index(".preuve/index.sqlite")
    index.ingest(["examples"])
    index.search("télétravail", audience="public")
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterable, Sequence

from preuve import retrieve
from preuve.ingest import IngestReport, ingest
from preuve.ingest.base import ChunkSettings
from preuve.models import Document, Hit
from preuve.retrieve.filters import make_filters
from preuve.store import Changes, Store, open_store


class Index:
    def __init__(self, location: str | os.PathLike | None = None, store: Store | None = None):
        self.store = store or open_store(location)

    def ingest(self, paths: Iterable[str | os.PathLike], *, access: str | None = None,
               settings: ChunkSettings | None = None, max_bytes: int | None = None,
               progress: bool = False) -> IngestReport:
        """Index new and changed files under `paths`, drop deleted ones (one transaction)."""
        kwargs = {"max_bytes": max_bytes} if max_bytes else {}
        return ingest(self.store, paths, settings=settings, default_access=access,
                      progress=progress, **kwargs)

    def search(self, query: str, *, method: str = "bm25", k: int = 10,
               as_of: str | dt.date | None = "today", audience: str | None = None,
               paths: Sequence[str] = (), kinds: Sequence[str] = ()) -> list[Hit]:
        """Best k passages for `query`; filters apply inside each method."""
        filters = make_filters(as_of, audience, paths, kinds)
        return retrieve.search(self.store, query, method=method, k=k, filters=filters)

    def where(self, subject: str, *, k: int = 10, as_of: str | dt.date | None = "today",
              audience: str | None = None, paths: Sequence[str] = ()) -> list[Hit]:
        """Code locations for `subject`, best first."""
        filters = make_filters(as_of, audience, paths)
        return retrieve.where(self.store, subject, k=k, filters=filters)

    def status(self) -> dict:
        return self.store.stats()

    def documents(self) -> list[Document]:
        return self.store.documents()

    def forget(self, targets: Iterable[str]) -> list[Document]:
        """Remove documents by path, path prefix (a folder) or doc_id; returns those removed."""
        docs = self.store.documents()
        chosen: dict[str, Document] = {}
        for target in targets:
            target = target.removeprefix("./").rstrip("/")
            matched = [d for d in docs if target in (d.doc_id, d.path)
                       or d.path.startswith(target + "/")]
            if not matched:
                raise KeyError(f"{target}: no such document in the index")
            chosen.update((d.doc_id, d) for d in matched)
        if chosen:
            self.store.apply(Changes(removals=list(chosen)))
        return list(chosen.values())

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
