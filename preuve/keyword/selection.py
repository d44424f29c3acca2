"""Top-k selection as small numpy functions (no store, no files:
tests/retrieval/test_keyword_maths.py).

The filters are applied before the cut (`keep`), ties at the k-th score are kept for the
final sort, and the final order is by score, then rowid.
"""

from __future__ import annotations

import numpy as np


def at_least_kth(rows: np.ndarray, scores: np.ndarray, keep: np.ndarray | None, k: int
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The (rows, scores) the mask `keep` (per row; None: all) allows that score at least
    the k-th best of them (ties kept for the sort)."""
    if keep is not None:
        allowed = keep[rows]
        rows, scores = rows[allowed], scores[allowed]
    if rows.size > k:
        kth = np.partition(scores, rows.size - k)[rows.size - k]
        best = scores >= kth
        rows, scores = rows[best], scores[best]
    return rows, scores


def at_least_kth_of_all(sums: np.ndarray, keep: np.ndarray | None, k: int) -> np.ndarray:
    """For a score per row (0: no query term), the rows `keep` allows scoring at least the
    k-th best (ties kept for the sort), never a row scoring 0."""
    if keep is not None:
        sums = np.where(keep, sums, 0.0)
    if sums.size > k:
        kth = np.partition(sums, sums.size - k)[sums.size - k]
        return np.flatnonzero(sums >= kth) if kth > 0 else np.flatnonzero(sums)
    return np.flatnonzero(sums)


def ranked(ids: np.ndarray, scores: np.ndarray, k: int) -> list[tuple[int, float]]:
    """(id, score) of the k best, best first, ties by id."""
    if ids.size == 1:
        return [(int(ids[0]), float(scores[0]))]
    order = np.lexsort((ids, -scores))[:k]
    return list(zip(ids[order].tolist(), scores[order].tolist(), strict=True))
