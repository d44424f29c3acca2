"""Filter columns: the rows' filter values as numpy arrays, for the in-memory engines.

Both in-memory engines, dense (`preuve.store.matrix.VectorMatrix`, a `FilterColumns` with
vectors) and keyword (`preuve.keyword.segment.Segment.columns`), cut their candidates with
the same mask of the same columns *before* the top k is taken (never a post-filter that
returns fewer than k): the access label (the security boundary), the kind, the effective
dates, the role (navigation chunks) and, when the rows came with it, the path.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field, fields

import numpy as np

from preuve.models import NAVIGATION, Filters

NO_START, NO_END = 0, 99_999_999
_MASKS = 32  # filter masks remembered per set of columns
_MISSING = object()


def day_number(day: str | None, default: int) -> int:
    """'2026-11-05' -> 20261105; None -> default (open interval)."""
    return int(day.replace("-", "")) if day else default


@dataclass
class FilterColumns:
    """The filter columns of some rows, and their rowids."""

    rowids: np.ndarray  # int64 chunks.id (ascending unless an ANN index reordered the rows)
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
    # when the rows are permuted: (sorted rowids, their positions), for rowid lookups
    _sorted: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False)
    # masks of recent filters (without allowed_rowids): a filtered query at a million rows
    # spent ~20 ms recomputing its mask (np.isin over the labels, the date columns)
    _masks: dict = field(default_factory=dict, repr=False)

    ARRAYS = ("rowids", "access", "kinds", "starts", "ends", "path_ids", "navigation")

    @classmethod
    def build(cls, rows: Sequence[tuple], first: int = 1) -> FilterColumns:
        """From rows in ascending rowid order: the rowid at position 0, then from `first`
        on (access, kind, effective_from, effective_to, role[, path]). With the path,
        prefix filters need no SQL."""
        return cls(**columns_of(rows, first))

    def __len__(self) -> int:
        return len(self.rowids)

    @property
    def has_paths(self) -> bool:
        return self.path_ids is not None

    def values(self) -> dict:
        """The columns by name (what `build` and the constructor take)."""
        return {f.name: getattr(self, f.name) for f in fields(FilterColumns)
                if not f.name.startswith("_")}

    def reorder(self, order: np.ndarray) -> None:
        """Put the rows in `order` (positions)."""
        self._masks = {}  # made for the rows in their former order
        for name in self._permuted():
            if getattr(self, name) is not None:
                setattr(self, name, getattr(self, name)[order])
        positions = np.argsort(self.rowids, kind="stable")
        self._sorted = (self.rowids[positions], positions)

    def _permuted(self) -> tuple[str, ...]:
        return self.ARRAYS

    def mask(self, filters: Filters, allowed_rowids: np.ndarray | None = None
             ) -> np.ndarray | None:
        """Boolean mask of rows the filters allow (None: all rows). Path prefixes are
        matched here when the rows came with their paths; otherwise `allowed_rowids`
        (the store's answer for the prefixes) stands for them."""
        if allowed_rowids is None:
            found = self._masks.get(filters, _MISSING)  # (one lookup: threads share them)
            if found is not _MISSING:
                return found
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


def columns_of(rows: Sequence[tuple], first: int) -> dict:
    """The constructor arguments of `FilterColumns` for `rows` (see `FilterColumns.build`)."""
    access_codes: dict[str, int] = {}
    kind_codes: dict[str, int] = {}
    n = len(rows)
    a, k, f, t, r, p = range(first, first + 6)
    rowids = np.fromiter((row[0] for row in rows), dtype=np.int64, count=n)
    access = np.fromiter(
        (-1 if row[a] is None else access_codes.setdefault(row[a], len(access_codes))
         for row in rows), dtype=np.int32, count=n)
    kinds = np.fromiter((kind_codes.setdefault(row[k], len(kind_codes)) for row in rows),
                        dtype=np.int32, count=n)
    starts = np.fromiter((day_number(row[f], NO_START) for row in rows), np.int32, count=n)
    ends = np.fromiter((day_number(row[t], NO_END) for row in rows), np.int32, count=n)
    navigation = np.fromiter((row[r] == NAVIGATION for row in rows), dtype=bool, count=n)
    paths = path_ids = None
    if n and len(rows[0]) > p:
        seen: dict[str, int] = {}
        order = np.fromiter((seen.setdefault(row[p], len(seen)) for row in rows), np.int32,
                            count=n)
        paths = sorted(seen)
        rank = np.empty(len(seen), dtype=np.int32)
        rank[[seen[x] for x in paths]] = np.arange(len(paths), dtype=np.int32)
        path_ids = rank[order]
    return {"rowids": rowids, "access": access, "access_codes": access_codes, "kinds": kinds,
            "kind_codes": kind_codes, "starts": starts, "ends": ends, "paths": paths,
            "path_ids": path_ids, "navigation": navigation if navigation.any() else None}
