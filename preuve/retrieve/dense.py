"""Dense retrieval: the question embedded once, cosine against the index's vectors."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from preuve.errors import InvalidInput
from preuve.ingest.vectors import model_key
from preuve.models import Filters, Hit
from preuve.store import Store

_RECENT: OrderedDict[tuple[int, str], np.ndarray] = OrderedDict()


def query_vector(embedder, query: str) -> np.ndarray:
    """The query's embedding, remembered for the last few questions: hybrid, --explain
    and `eval --method all` ask the same question of several methods."""
    key = (id(embedder), query)
    if key in _RECENT:
        _RECENT.move_to_end(key)
        return _RECENT[key]
    vector = embedder.embed_queries([query])[0]
    _RECENT[key] = vector
    if len(_RECENT) > 256:
        _RECENT.popitem(last=False)
    return vector


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
