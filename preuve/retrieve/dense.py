"""Dense retrieval: the question embedded once, cosine against the index's vectors."""

from __future__ import annotations

from preuve.ingest.vectors import model_key
from preuve.models import Filters, Hit
from preuve.store import Store


def dense(store: Store, query: str, filters: Filters, k: int, *, embedder) -> list[Hit]:
    """Top k chunks by cosine similarity, filters applied before the cut."""
    if embedder is None:
        raise ValueError("dense search needs an embedder; this index has no vectors "
                         "(ingest with --embedder e5)")
    vector = embedder.embed_queries([query])[0]
    hits = store.search_dense(vector, model_key(embedder), filters, k)
    for hit in hits:
        hit.scores["dense"] = {"rank": hit.rank, "score": round(hit.score, 4)}
    return hits
