"""Exact dense search in memory for the embedded store: one float32 matrix per model,
with the filter columns beside it as numpy arrays, so the filters cut the candidates
*before* the top k is taken (never a post-filter that returns fewer than k)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from preuve.models import Filters

_NO_START, _NO_END = 0, 99_999_999


def day_number(day: str | None, default: int) -> int:
    """'2026-11-05' -> 20261105; None -> default (open interval)."""
    return int(day.replace("-", "")) if day else default


@dataclass
class VectorMatrix:
    rowids: np.ndarray  # int64, ascending: chunks.id
    vectors: np.ndarray  # float32 (n, dim), L2-normalised
    access: np.ndarray  # int32 code per row, -1 = unlabelled
    access_codes: dict[str, int]
    kinds: np.ndarray  # int32 code per row
    kind_codes: dict[str, int]
    starts: np.ndarray  # int32 yyyymmdd
    ends: np.ndarray  # int32 yyyymmdd

    @classmethod
    def build(cls, rows: Sequence[tuple], dimension: int) -> VectorMatrix:
        """From (rowid, vector bytes, access, kind, effective_from, effective_to) rows."""
        access_codes: dict[str, int] = {}
        kind_codes: dict[str, int] = {}
        n = len(rows)
        rowids = np.empty(n, dtype=np.int64)
        vectors = np.empty((n, dimension), dtype=np.float32)
        access = np.empty(n, dtype=np.int32)
        kinds = np.empty(n, dtype=np.int32)
        starts = np.empty(n, dtype=np.int32)
        ends = np.empty(n, dtype=np.int32)
        for i, (rowid, blob, label, kind, start, end) in enumerate(rows):
            rowids[i] = rowid
            vectors[i] = np.frombuffer(blob, dtype=np.float32)
            access[i] = -1 if label is None else access_codes.setdefault(label, len(access_codes))
            kinds[i] = kind_codes.setdefault(kind, len(kind_codes))
            starts[i] = day_number(start, _NO_START)
            ends[i] = day_number(end, _NO_END)
        return cls(rowids, vectors, access, access_codes, kinds, kind_codes, starts, ends)

    def mask(self, filters: Filters, allowed_rowids: np.ndarray | None = None) -> np.ndarray | None:
        """Boolean mask of rows the filters allow (None: all rows). `allowed_rowids`
        (sorted) is the path-prefix filter, resolved by the store's path index."""
        keep = None

        def both(m):
            return m if keep is None else keep & m

        labels = filters.readable_labels()
        if labels is not None:
            codes = [self.access_codes[x] for x in labels if x in self.access_codes]
            keep = both(np.isin(self.access, codes))
        if filters.as_of is not None:
            day = int(filters.as_of.strftime("%Y%m%d"))
            keep = both((self.starts <= day) & (self.ends >= day))
        if filters.kinds:
            codes = [self.kind_codes[x] for x in filters.kinds if x in self.kind_codes]
            keep = both(np.isin(self.kinds, codes))
        if allowed_rowids is not None:
            keep = both(np.isin(self.rowids, allowed_rowids, assume_unique=True))
        return keep

    def top_k(self, query: np.ndarray, k: int, keep: np.ndarray | None) -> list[tuple[int, float]]:
        """(rowid, cosine) of the k best allowed rows, best first."""
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
