"""Dense retrieval: the question embedded once, cosine against the index's vectors."""

from __future__ import annotations

import numpy as np

from preuve import memo
from preuve.errors import InvalidInput
from preuve.ingest.vectors import model_key
from preuve.models import Filters, Hit
from preuve.store import Store


def query_vector(embedder, query: str) -> np.ndarray:
    """The query's embedding, remembered for the last questions (`memo.QUERIES`, keyed on
    the model): hybrid, --explain and `eval --method all` ask one question of several
    methods."""
    return memo.QUERIES.vectors(embedder, [query], embedder.embed_queries)[0]


def dense(store: Store, query: str, filters: Filters, k: int, *, embedder,
          label: str = "dense") -> list[Hit]:
    """Top k chunks by cosine similarity, filters applied before the cut; each hit's rank
    and score are kept under `label` in `hit.scores`."""
    if embedder is None:
        raise InvalidInput("dense search needs an embedder; this index has no vectors "
                           "(ingest with --embedder e5)")
    hits = store.search_dense(query_vector(embedder, query), model_key(embedder), filters, k)
    for hit in hits:
        hit.scores[label] = {"rank": hit.rank, "score": round(hit.score, 4)}
    return hits
