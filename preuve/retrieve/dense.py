"""Dense retrieval: the question embedded once, cosine against the index's vectors."""

from __future__ import annotations

import weakref
from collections import OrderedDict

import numpy as np

from preuve.errors import InvalidInput
from preuve.ingest.vectors import model_key
from preuve.models import Filters, Hit
from preuve.store import Store

_RECENT: OrderedDict[tuple[int, str], tuple[weakref.ref, np.ndarray]] = OrderedDict()


def query_vector(embedder, query: str) -> np.ndarray:
    """The query's embedding, remembered for the last few questions: hybrid, --explain
    and `eval --method all` ask the same question of several methods. An entry holds its
    embedder weakly and serves only that object: an embedder made after another was freed
    may get its id (an embedder given as an object, a wrapper per request)."""
    key = (id(embedder), query)
    held = _RECENT.get(key)
    if held is not None and held[0]() is embedder:
        _RECENT.move_to_end(key)
        return held[1]
    vector = embedder.embed_queries([query])[0]
    try:
        _RECENT[key] = (weakref.ref(embedder), vector)
    except TypeError:  # an object that cannot be referenced weakly is not remembered
        return vector
    _RECENT.move_to_end(key)
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
