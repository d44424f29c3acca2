"""Retrieval methods, chosen by name: `search(store, query, method=...)`. The names are
those of `preuve.registry.methods`, where these are registered and plugins add theirs.

- `bm25`: keyword ranking inside the store (FTS5 over preuve's own tokens);
- `dense`: cosine over the embedder's vectors;
- `hybrid`: reciprocal rank fusion of the two (20 candidates each by default);
- `rerank`: a cross-encoder re-scores the hybrid candidates (see `rerank.py`).

Every method receives the same `Filters` and applies them before its top k.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from preuve.errors import InvalidInput
from preuve.models import Filters, Hit
from preuve.registry import Method, methods
from preuve.retrieve.dense import dense
from preuve.retrieve.fusion import RRF_CONSTANT, rrf
from preuve.retrieve.lexical import bm25
from preuve.store import Store


def __getattr__(name: str):
    if name == "METHODS":  # the registered names, plugins' included
        return methods.names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass
class Options:
    """What methods beyond bm25 need, and their knobs."""

    embedder: object | None = None
    reranker: object | None = None
    candidates: int = 20  # per method, before fusion
    rrf_constant: int = RRF_CONSTANT
    weights: dict[str, float] = field(default_factory=dict)  # e.g. {"bm25": 2.0}


def identifier_query(query: str) -> bool:
    """True for questions that are (mostly) a code or identifier: `LB-1`, `PALIERS_RELANCE`.

    Embeddings know nothing of such strings; fusion must not let them drown the one
    method that matches them exactly."""
    words = query.split()
    codes = [w for w in words if any(c.isdigit() for c in w) and any(c.isalpha() for c in w)
             or "_" in w.strip("_") or (w[:1].islower() and any(c.isupper() for c in w))]
    return bool(codes) and len(words) <= 3


def hybrid(store: Store, query: str, filters: Filters, k: int, options: Options) -> list[Hit]:
    """RRF of bm25 and dense candidates; a lone identifier gives bm25 double weight."""
    depth = max(options.candidates, k)
    rankings = {
        "bm25": bm25(store, query, filters, depth),
        "dense": dense(store, query, filters, depth, embedder=options.embedder),
    }
    weights = dict(options.weights)
    if identifier_query(query):
        weights.setdefault("bm25", 2.0)
    return rrf(rankings, k, options.rrf_constant, weights)


def search(store: Store, query: str, *, method: str = "bm25", k: int = 10,
           filters: Filters | None = None, options: Options | None = None) -> list[Hit]:
    """The top k hits for `query` with `method`, best first, ranks from 1."""
    filters = filters or Filters()
    options = options or Options()
    if not query.strip():
        raise InvalidInput("empty query")
    return methods.get(method).run(store, query, filters, k, options)


def _bm25(store: Store, query: str, filters: Filters, k: int, options: Options) -> list[Hit]:
    return bm25(store, query, filters, k)


def _dense(store: Store, query: str, filters: Filters, k: int, options: Options) -> list[Hit]:
    return dense(store, query, filters, k, embedder=options.embedder)


def _rerank(store: Store, query: str, filters: Filters, k: int, options: Options) -> list[Hit]:
    from preuve.retrieve.rerank import rerank

    candidates = hybrid(store, query, filters, max(options.candidates, k), options)
    return rerank(query, candidates, k, options.reranker)


for _method in (
    Method("bm25", _bm25, needs_vectors=False, help="keyword ranking (no model)"),
    Method("dense", _dense, help="cosine over the embedder's vectors"),
    Method("hybrid", hybrid, help="reciprocal rank fusion of bm25 and dense"),
    Method("rerank", _rerank, needs_reranker=True,
           help="a cross-encoder re-scores the hybrid candidates (--reranker)"),
):
    methods.register(_method.name, _method, replace=True)


def where(store: Store, subject: str, *, k: int = 10, filters: Filters | None = None,
          method: str = "bm25", options: Options | None = None) -> list[Hit]:
    """Code locations for a subject ("où est gérée la numérotation"), no model call."""
    base = filters or Filters()
    code_only = Filters(as_of=base.as_of, audience=base.audience,
                        path_prefixes=base.path_prefixes, kinds=("code",))
    return search(store, subject, method=method, k=k, filters=code_only, options=options)


__all__ = ["Options", "hybrid", "search", "where"]
