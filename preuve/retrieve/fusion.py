"""Reciprocal rank fusion: combine rankings by rank, never by incomparable raw scores.

Each list gives a hit weight / (constant + rank); a passage ranked well by both methods
beats one ranked first by only one. The constant 60 is the one of the original paper
(Cormack, Clarke and Büttcher, 2009).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence

from preuve.models import Hit

RRF_CONSTANT = 60


def rrf(rankings: Mapping[str, Sequence[Hit]], k: int, constant: int = RRF_CONSTANT,
        weights: Mapping[str, float] | None = None) -> list[Hit]:
    """Fuse best-first rankings (method name -> hits) into the top k, ranks from 1.

    Each fused hit keeps every method's own rank and score in `hit.scores` (for
    `--explain`) and gets the fused score as `hit.score`."""
    fused: dict[str, float] = {}
    first_seen: dict[str, Hit] = {}
    details: dict[str, dict] = {}
    for method, hits in rankings.items():
        weight = (weights or {}).get(method, 1.0)
        for position, hit in enumerate(hits, 1):
            fused[hit.chunk_id] = fused.get(hit.chunk_id, 0.0) + weight / (constant + position)
            first_seen.setdefault(hit.chunk_id, hit)
            details.setdefault(hit.chunk_id, {})[method] = {
                "rank": position, "score": round(hit.score, 4)}
    order = sorted(fused, key=lambda cid: (-fused[cid], cid))[:k]
    out = []
    for rank, chunk_id in enumerate(order, 1):
        hit = copy.copy(first_seen[chunk_id])
        hit.rank, hit.score = rank, fused[chunk_id]
        rrf_detail = {"rank": rank, "score": round(fused[chunk_id], 5)}
        hit.scores = {**details[chunk_id], "rrf": rrf_detail}
        out.append(hit)
    return out
