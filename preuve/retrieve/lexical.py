"""BM25 over the index's own tokens (see preuve.text); the engine scores, we pick terms."""

from __future__ import annotations

from preuve import text
from preuve.models import Filters, Hit
from preuve.store import Store


def bm25(store: Store, query: str, filters: Filters, k: int) -> list[Hit]:
    """Top k chunks for `query` by BM25, filters applied inside the engine."""
    hits = store.search_bm25(text.query_terms(query), filters, k)
    for hit in hits:
        # (a hit of the store's SQL fallback says so: preuve.store.bm25)
        hit.scores["bm25"] = {**hit.scores.get("bm25", {}), "rank": hit.rank,
                              "score": round(hit.score, 4)}
    return hits
