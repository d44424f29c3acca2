"""Fusing the bm25 and dense lists into one ranking.

Two ways to fuse best-first lists, both with weights per method and per hit:

- reciprocal rank fusion (`rrf`): each list gives a hit weight / (constant + rank); ranks
  only, never raw scores (Cormack, Clarke and Büttcher, 2009; constant 60);
- normalised score combination (`combine`): each list's scores scaled to [0, 1] over that
  list (min-max), a hit absent from a list gets 0, then a weighted sum (the convex
  combination of Bruch, Gai and Ingber, 2023). It keeps how far ahead a first hit is,
  which ranks throw away.

`plan` decides per question which fusion and which weights (see `preuve.retrieve.hybrid`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence

from preuve.models import Hit

RRF_CONSTANT = 60
FUSED = "fusion"  # the key of the fused rank and score in `Hit.scores`

# (method, hit) -> multiplier of that hit's contribution (1.0 when None)
HitWeight = Callable[[str, Hit], float]


def rrf(rankings: Mapping[str, Sequence[Hit]], k: int, constant: int = RRF_CONSTANT,
        weights: Mapping[str, float] | None = None,
        hit_weight: HitWeight | None = None) -> list[Hit]:
    """Fuse best-first rankings (method name -> hits) into the top k, ranks from 1.

    Each fused hit keeps every method's own rank and score in `hit.scores` (for
    `--explain`), the fused ones under `FUSED`, and gets the fused score as `hit.score`."""
    def contribution(method: str, position: int, hit: Hit, _scores) -> float:
        return 1.0 / (constant + position)

    return _fuse(rankings, k, weights, hit_weight, contribution)


def combine(rankings: Mapping[str, Sequence[Hit]], k: int,
            weights: Mapping[str, float] | None = None,
            hit_weight: HitWeight | None = None, window: int | None = None) -> list[Hit]:
    """Weighted sum of each list's min-max scaled scores (a hit missing from a list
    gets 0 from it); ties broken by chunk id. A list whose scores are all equal gives
    each of its hits 1. With `window`, each list is scaled over its first `window` hits
    and a hit further down gets 0 from it: the first hits' order is the same however
    deep the lists were read (`search -k 10` and `-k 60` agree on their first ten)."""
    def contribution(method: str, position: int, hit: Hit, scores) -> float:
        low, high = scores[method]
        return max(0.0, (hit.score - low) / (high - low)) if high > low else 1.0

    return _fuse(rankings, k, weights, hit_weight, contribution, window)


def _fuse(rankings, k, weights, hit_weight, contribution, window=None) -> list[Hit]:
    scores = {m: [h.score for h in hits[:window]] for m, hits in rankings.items() if hits}
    bounds = {m: (min(values), max(values)) for m, values in scores.items()}
    fused: dict[str, float] = {}
    first_seen: dict[str, Hit] = {}
    # (method, rank, score) of every list a hit is in; made into `hit.scores` for the k
    # kept only
    seen_in: dict[str, list[tuple[str, int, float]]] = {}
    # lists weighing 0 bring no candidate; their ranks are still shown for --explain
    order = sorted(rankings, key=lambda m: (weights or {}).get(m, 1.0) == 0)
    for method in order:
        hits, weight = rankings[method], (weights or {}).get(method, 1.0)
        for position, hit in enumerate(hits, 1):
            chunk_id = hit.chunk_id
            if weight == 0 and chunk_id not in fused:
                continue
            share = weight * contribution(method, position, hit, bounds)
            if hit_weight is not None:
                share *= hit_weight(method, hit)
            fused[chunk_id] = fused.get(chunk_id, 0.0) + share
            first_seen.setdefault(chunk_id, hit)
            seen_in.setdefault(chunk_id, []).append((method, position, hit.score))
    order = sorted(fused, key=lambda cid: (-fused[cid], cid))[:k]
    out = []
    for rank, chunk_id in enumerate(order, 1):
        hit = copy.copy(first_seen[chunk_id])
        hit.rank, hit.score = rank, fused[chunk_id]
        details = {method: {"rank": position, "score": round(score, 4)}
                   for method, position, score in seen_in[chunk_id]}
        hit.scores = {**details, FUSED: {"rank": rank, "score": round(fused[chunk_id], 5)}}
        out.append(hit)
    return out
