"""Dense search in memory for the embedded store: one float32 matrix per model, with the
filter columns beside it as numpy arrays, so the filters cut the candidates *before* the
top k is taken (never a post-filter that returns fewer than k).

Exact by default; from `ann.threshold()` rows on, an inverted-file index (preuve.store.ann)
scans only the lists near the query, still under the filter mask, and falls back to the
exact search whenever that is as cheap or would return fewer than k rows."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from preuve.models import NAVIGATION, Filters
from preuve.store import ann as ivf

_NO_START, _NO_END = 0, 99_999_999
_MASKS = 32  # filter masks remembered per matrix


def day_number(day: str | None, default: int) -> int:
    """'2026-11-05' -> 20261105; None -> default (open interval)."""
    return int(day.replace("-", "")) if day else default


@dataclass
class VectorMatrix:
    rowids: np.ndarray  # int64 chunks.id (ascending unless an ANN index reordered the rows)
    vectors: np.ndarray  # float32 (n, dim), L2-normalised
    access: np.ndarray  # int32 code per row, -1 = unlabelled
    access_codes: dict[str, int]
    kinds: np.ndarray  # int32 code per row
    kind_codes: dict[str, int]
    starts: np.ndarray  # int32 yyyymmdd
    ends: np.ndarray  # int32 yyyymmdd
    paths: list[str] | None = None  # sorted distinct paths, when the rows came with them
    path_ids: np.ndarray | None = None  # int32 index into `paths` per row
    # bool per row: a navigation chunk (table of contents, index); None: there are none
    navigation: np.ndarray | None = None
    ann: ivf.IVFIndex | None = None  # set by prepare_ann on large matrices
    use_ann: bool = True  # False: always exact (benchmarks compare both)
    from_cache: bool = False  # True when loaded from the snapshot file, not from SQL
    ann_answered: int = 0  # queries the approximate index answered itself (benchmarks)
    ann_fell_back: int = 0  # queries it left to the exact scan (too few allowed rows found)
    # when the rows are permuted: (sorted rowids, their positions), for rowid lookups
    _sorted: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False)
    # masks of recent filters (without allowed_rowids): a filtered query at a million rows
    # spent ~20 ms recomputing its mask (np.isin over the labels, the date columns)
    _masks: dict = field(default_factory=dict, repr=False)

    @classmethod
    def build(cls, rows: Sequence[tuple], dimension: int) -> VectorMatrix:
        """From (rowid, vector bytes, access, kind, effective_from, effective_to, role[,
        path]) rows, in ascending rowid order. With the path, prefix filters need no SQL."""
        access_codes: dict[str, int] = {}
        kind_codes: dict[str, int] = {}
        n = len(rows)
        rowids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=n)
        # read-only view of one joined buffer: no second copy of 1.5 GB at 1M rows
        vectors = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
        vectors = vectors.reshape(n, dimension)
        access = np.fromiter(
            (-1 if r[2] is None else access_codes.setdefault(r[2], len(access_codes))
             for r in rows), dtype=np.int32, count=n)
        kinds = np.fromiter((kind_codes.setdefault(r[3], len(kind_codes)) for r in rows),
                            dtype=np.int32, count=n)
        starts = np.fromiter((day_number(r[4], _NO_START) for r in rows), np.int32, count=n)
        ends = np.fromiter((day_number(r[5], _NO_END) for r in rows), np.int32, count=n)
        navigation = np.fromiter((r[6] == NAVIGATION for r in rows), dtype=bool, count=n)
        paths = path_ids = None
        if n and len(rows[0]) > 7:
            seen: dict[str, int] = {}
            first = np.fromiter((seen.setdefault(r[7], len(seen)) for r in rows), np.int32,
                                count=n)
            paths = sorted(seen)
            rank = np.empty(len(seen), dtype=np.int32)
            rank[[seen[x] for x in paths]] = np.arange(len(paths), dtype=np.int32)
            path_ids = rank[first]
        return cls(rowids, vectors, access, access_codes, kinds, kind_codes, starts, ends,
                   paths, path_ids, navigation=navigation if navigation.any() else None)

    def __len__(self) -> int:
        return len(self.rowids)

    @property
    def has_paths(self) -> bool:
        return self.path_ids is not None

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
        self._reorder(order)
        self.ann = index
        if vectors_count is not None and location:
            ivf.save_snapshot(location, model, generation, vectors_count, self._columns(),
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
        matrix = cls(columns["rowids"], vectors, columns["access"], columns["access_codes"],
                     columns["kinds"], columns["kind_codes"], columns["starts"],
                     columns["ends"], columns["paths"], columns["path_ids"],
                     navigation=columns["navigation"], ann=index,
                     from_cache=True)
        positions = np.argsort(matrix.rowids, kind="stable")
        matrix._sorted = (matrix.rowids[positions], positions)
        return matrix

    def _columns(self) -> dict:
        return {"rowids": self.rowids, "access": self.access, "access_codes": self.access_codes,
                "kinds": self.kinds, "kind_codes": self.kind_codes, "starts": self.starts,
                "ends": self.ends, "navigation": self.navigation, "paths": self.paths,
                "path_ids": self.path_ids}

    def _reorder(self, order: np.ndarray) -> None:
        self._masks = {}  # made for the rows in their former order
        for name in ("rowids", "vectors", "access", "kinds", "starts", "ends", "navigation",
                     "path_ids"):
            if getattr(self, name) is not None:
                setattr(self, name, getattr(self, name)[order])
        positions = np.argsort(self.rowids, kind="stable")
        self._sorted = (self.rowids[positions], positions)

    def mask(self, filters: Filters, allowed_rowids: np.ndarray | None = None) -> np.ndarray | None:
        """Boolean mask of rows the filters allow (None: all rows). Path prefixes are
        matched here when the rows came with their paths; otherwise `allowed_rowids`
        (the store's answer for the prefixes) stands for them."""
        if allowed_rowids is None and filters in self._masks:
            return self._masks[filters]
        keep = self._mask(filters, allowed_rowids)
        if allowed_rowids is None:
            if len(self._masks) >= _MASKS:
                self._masks.clear()
            self._masks[filters] = keep
        return keep

    def _mask(self, filters: Filters, allowed_rowids: np.ndarray | None) -> np.ndarray | None:
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
        if not filters.navigation and self.navigation is not None:
            keep = both(~self.navigation)
        if filters.path_prefixes and self.has_paths and allowed_rowids is None:
            keep = both(self._under(filters.path_prefixes))
        elif allowed_rowids is not None:
            keep = both(self._rows_in(np.asarray(allowed_rowids, dtype=np.int64)))
        return keep

    def _under(self, prefixes: Sequence[str]) -> np.ndarray:
        """Rows whose path starts with one of `prefixes` (the store's [prefix, prefix +
        U+10FFFF) range: the distinct paths are sorted, so each prefix is a range of ids)."""
        out = np.zeros(len(self), dtype=bool)
        assert self.paths is not None and self.path_ids is not None  # callers: has_paths
        for prefix in prefixes:
            prefix = prefix.removeprefix("./")
            low = bisect.bisect_left(self.paths, prefix)
            high = bisect.bisect_left(self.paths, prefix + "\U0010ffff")
            if high > low:
                out |= (self.path_ids >= low) & (self.path_ids < high)
        return out

    def _rows_in(self, allowed: np.ndarray) -> np.ndarray:
        """Boolean mask of the rows whose rowid is in `allowed` (binary search, O(m log n))."""
        out = np.zeros(len(self), dtype=bool)
        if allowed.size == 0 or len(self) == 0:
            return out
        if self._sorted is None:  # rows in rowid order
            ordered, positions = self.rowids, None
        else:
            ordered, positions = self._sorted
        at = np.searchsorted(ordered, allowed)
        valid = at < len(ordered)
        at = at[valid]
        at = at[ordered[at] == allowed[valid]]
        out[at if positions is None else positions[at]] = True
        return out

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
