"""Dense search in memory for the embedded store: one float32 matrix per model, with the
filter columns beside it as numpy arrays, so the filters cut the candidates *before* the
top k is taken (never a post-filter that returns fewer than k).

Exact by default; from `ann.threshold()` rows on, an inverted-file index (preuve.store.ann)
scans only the lists near the query, still under the filter mask, and falls back to the
exact search whenever that is as cheap or would return fewer than k rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from preuve.columns import FilterColumns, columns_of
from preuve.store import ann as ivf


@dataclass
class VectorMatrix(FilterColumns):
    """The filter columns of the rows (`FilterColumns`, shared with the keyword engine) and
    their vectors."""

    vectors: np.ndarray = field(kw_only=True)  # float32 (n, dim), L2-normalised
    ann: ivf.IVFIndex | None = field(default=None, kw_only=True)  # set by prepare_ann
    use_ann: bool = field(default=True, kw_only=True)  # False: always exact (benchmarks)
    from_cache: bool = field(default=False, kw_only=True)  # loaded from the snapshot file
    # queries the approximate index answered itself, and those it left to the exact scan
    # (too few allowed rows found) (benchmarks)
    ann_answered: int = field(default=0, kw_only=True)
    ann_fell_back: int = field(default=0, kw_only=True)

    @classmethod
    def build(cls, rows: Sequence[tuple], dimension: int) -> VectorMatrix:  # type: ignore[override]
        """From (rowid, vector bytes, access, kind, effective_from, effective_to, role[,
        path]) rows, in ascending rowid order. With the path, prefix filters need no SQL."""
        n = len(rows)
        # read-only view of one joined buffer: no second copy of 1.5 GB at 1M rows
        vectors = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
        return cls(**columns_of(rows, 2), vectors=vectors.reshape(n, dimension))

    def prepare_ann(self, location: str | None, model: str, generation: str | None,
                    vectors_count: int | None = None, threshold: int | None = None) -> None:
        """Load or build the approximate index when the matrix is large enough, and put the
        rows in its order. Call before computing masks: it permutes the rows. The index is
        cached as a file beside `location` (the SQLite file) per model and generation; with
        `vectors_count` (the store's key for this matrix), so is the whole matrix, which
        `cached` then returns to later processes without reading the vectors from SQL.
        `threshold`: rows from which the index is used (default `ann.ANN_THRESHOLD`)."""
        if self.ann is not None or len(self) < max(2, ivf.threshold(threshold)):
            return
        index, order = ivf.load_or_build(self.vectors, self.rowids, location, model,
                                         generation)
        self.reorder(order)
        self.ann = index
        if vectors_count is not None and location:
            ivf.save_snapshot(location, model, generation, vectors_count, self.values(),
                              self.vectors, index)

    @classmethod
    def cached(cls, location: str | None, model: str, generation: str | None,
               vectors_count: int, dimension: int,
               threshold: int | None = None) -> VectorMatrix | None:
        """The matrix saved by `prepare_ann` for this model, generation and vector count
        (vectors memory-mapped), or None."""
        if vectors_count < max(2, ivf.threshold(threshold)) or not location:
            return None
        found = ivf.load_snapshot(location, model, generation, vectors_count, dimension)
        if found is None:
            return None
        columns, vectors, index = found
        matrix = cls(**columns, vectors=vectors, ann=index, from_cache=True)
        positions = np.argsort(matrix.rowids, kind="stable")
        matrix._sorted = (matrix.rowids[positions], positions)
        return matrix

    def _permuted(self) -> tuple[str, ...]:
        return (*self.ARRAYS, "vectors")

    def top_k(self, query: np.ndarray, k: int, keep: np.ndarray | None, *,
              exact: bool = False) -> list[tuple[int, float]]:
        """(rowid, cosine) of the k best allowed rows, best first. Approximate when an
        index is prepared (unless `exact`), still never fewer than k allowed rows."""
        if k <= 0 or len(self) == 0:
            return []
        if self.ann is not None and self.use_ann and not exact:
            found = self.ann.search(self.vectors, query, k, keep)
            if found is None:
                self.ann_fell_back += 1
            else:
                self.ann_answered += 1
                positions, scores = found
                return [(int(self.rowids[p]), float(s))
                        for p, s in zip(positions, scores, strict=True)]
        if keep is None:
            candidates = None
            scores = self.vectors @ query
        else:
            candidates = np.flatnonzero(keep)
            if candidates.size == 0:
                return []
            # few allowed rows: gather them first; many: one matrix-vector product
            if candidates.size < len(self.rowids) // 4:
                scores = self.vectors[candidates] @ query
            else:
                scores = (self.vectors @ query)[candidates]
        k = min(k, scores.size)
        if k <= 0:
            return []
        best = np.argpartition(-scores, k - 1)[:k]
        best = best[np.argsort(-scores[best], kind="stable")]
        positions = best if candidates is None else candidates[best]
        pairs = zip(positions, best, strict=True)
        return [(int(self.rowids[p]), float(scores[b])) for p, b in pairs]
