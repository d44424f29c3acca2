"""Retrieval methods, chosen by name: `search(store, query, method=...)`."""

from __future__ import annotations

from collections.abc import Callable

from preuve.models import Filters, Hit
from preuve.retrieve.lexical import bm25
from preuve.store import Store

METHODS: dict[str, Callable[[Store, str, Filters, int], list[Hit]]] = {"bm25": bm25}


def search(store: Store, query: str, *, method: str = "bm25", k: int = 10,
           filters: Filters | None = None) -> list[Hit]:
    """The top k hits for `query` with `method`, best first, ranks from 1."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (available: {', '.join(METHODS)})")
    if not query.strip():
        raise ValueError("empty query")
    return METHODS[method](store, query, filters or Filters(), k)


def where(store: Store, subject: str, *, k: int = 10,
          filters: Filters | None = None) -> list[Hit]:
    """Code locations for a subject ("où est gérée la numérotation"), no model call."""
    base = filters or Filters()
    code_only = Filters(as_of=base.as_of, audience=base.audience,
                        path_prefixes=base.path_prefixes, kinds=("code",))
    return search(store, subject, method="bm25", k=k, filters=code_only)
