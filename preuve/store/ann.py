"""Approximate dense search for large indexes: an inverted file (IVF) over the vector matrix.

The matrix's rows are grouped by their nearest centroid (spherical k-means), so each list
is a contiguous slice; a query scores the centroids, scans the rows of the `nprobe` best
lists exactly and keeps the top k. Filters stay a boolean mask over rows, applied to the
scanned rows *before* the top k is cut. Under a filter the probe goes on, list by list
from the nearest, until the lists scanned hold enough *allowed* rows (about `nprobe / f**0.75`
lists when the filter keeps a fraction f spread evenly; more when the allowed rows sit in
other regions). When that would scan half the index, when the filter keeps few rows, or
when the scan finds fewer than k allowed rows, the search is exact instead: a filtered
search never returns fewer than k results when k allowed rows exist.

`nprobe` is not a guess: at build time it is calibrated on queries made from the index's
own vectors (perturbed, their source row excluded from the truth) as the smallest value
reaching `CALIBRATION_RECALL` against exact search, times a margin (`SAFETY`), so it
follows the data's structure.

Why an IVF in numpy rather than a graph (HNSW): measured here at 200k × 384 on one thread,
hnswlib (no wheel for this Python: compiled from source) took 111-478 s to build and faiss
HNSW 139-377 s, against 5 s for this index at 200k (30 s at 1M); faiss's filtered HNSW
lost recall on restrictive filters (0.79 at 3 % of rows allowed, ef=256) where the IVF,
scanning its lists exactly under the mask, does not. The index is rebuilt after every
change of the store (its generation), so build time is what a user waits for on the first
query after an ingest. No extra dependency.

Cache files beside the SQLite file (named by `preuve.paths`), per model and generation
(other generations' files are deleted when a new one is saved):
`<index>.ann-<model hash>-g<gen>.npz` (centroids and the list of every row, a few MB at 1M
rows: reused when only the matrix has to be re-read), and
a snapshot of the whole matrix in list order, `...-g<gen>.matrix.npz` (filter columns) with
`...-g<gen>.<token>.vectors.npy` (memory-mapped), so a later process maps it in seconds
instead of reading every vector from SQL (about a minute at 1M chunks).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import time
from dataclasses import dataclass

import numpy as np

from preuve import paths

log = logging.getLogger(__name__)

ANN_THRESHOLD = 200_000  # rows (chunks with vectors) from which the IVF is used
CALIBRATION_RECALL = 0.995  # recall@10 the calibrated nprobe reaches on calibration queries
SAFETY = 1.5  # nprobe = 1.5 × the calibrated value: real questions are not our probes
NOISE = (0.7, 1.4, 2.0)  # calibration queries: stored rows + noise of these norms
MIN_NPROBE = 8
KMEANS_ITERATIONS = 6
SAMPLE_PER_LIST = 32  # k-means training rows per centroid
FILTER_EXPONENT = 0.75  # under a filter keeping a fraction f of rows: nprobe / f**0.75 lists
EXACT_BELOW_ROWS = 10_000  # so few allowed rows: gather them and search exactly
FORMAT = 1
_BLOCK = 16_384  # rows per block when assigning (bounds the temporary score matrix)


def threshold(value: int | None = None) -> int:
    """`value` (the `ann_threshold` setting: `PREUVE_ANN_THRESHOLD`; tests, tuning), else
    ANN_THRESHOLD."""
    return ANN_THRESHOLD if value is None else int(value)


def list_count(n: int) -> int:
    """Number of lists for n rows: 2·√n (~500 rows per list at 1M)."""
    return max(1, min(n // 16, int(round(2 * math.sqrt(n)))))


def _unit(a: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(a, axis=-1, keepdims=True)
    return (a / np.maximum(norms, 1e-12)).astype(np.float32, copy=False)


def assign(vectors: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    """Index of the best centroid (inner product) for every row."""
    out = np.empty(len(vectors), dtype=np.int32)
    ct = np.ascontiguousarray(centroids.T)
    for start in range(0, len(vectors), _BLOCK):
        out[start:start + _BLOCK] = np.argmax(vectors[start:start + _BLOCK] @ ct, axis=1)
    return out


def kmeans(vectors: np.ndarray, nlist: int, rng: np.random.Generator) -> np.ndarray:
    """Spherical k-means centroids (unit norm) trained on a sample of the rows."""
    n = len(vectors)
    size = min(n, SAMPLE_PER_LIST * nlist)
    sample = vectors[np.sort(rng.choice(n, size, replace=False))] if size < n else vectors
    centroids = sample[rng.choice(len(sample), nlist, replace=False)].copy()
    for _ in range(KMEANS_ITERATIONS):
        labels = assign(sample, centroids)
        order = np.argsort(labels, kind="stable")
        counts = np.bincount(labels, minlength=nlist)
        sums = np.zeros_like(centroids)
        present = np.flatnonzero(counts)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])[present]
        sums[present] = np.add.reduceat(sample[order], starts, axis=0)
        empty = counts == 0
        if empty.any():  # reseed empty lists on random rows
            sums[empty] = sample[rng.choice(len(sample), int(empty.sum()), replace=False)]
        centroids = _unit(sums)
    return centroids


def _exact_top(vectors: np.ndarray, queries: np.ndarray, k: int,
               exclude: np.ndarray) -> np.ndarray:
    """(m, k) row indices of the exact top k per query, row `exclude[i]` left out."""
    m = len(queries)
    best_scores = np.full((m, k), -np.inf, dtype=np.float32)
    best_rows = np.zeros((m, k), dtype=np.int64)
    step = 65_536
    for start in range(0, len(vectors), step):
        scores = queries @ vectors[start:start + step].T  # (m, block)
        inside = (exclude >= start) & (exclude < start + scores.shape[1])
        scores[np.flatnonzero(inside), exclude[inside] - start] = -np.inf
        kk = min(k, scores.shape[1])
        part = np.argpartition(-scores, kk - 1, axis=1)[:, :kk]
        merged_scores = np.concatenate([best_scores, np.take_along_axis(scores, part, 1)], 1)
        merged_rows = np.concatenate([best_rows, part + start], 1)
        keep = np.argpartition(-merged_scores, k - 1, axis=1)[:, :k]
        best_scores = np.take_along_axis(merged_scores, keep, 1)
        best_rows = np.take_along_axis(merged_rows, keep, 1)
    return best_rows


def calibrate(vectors: np.ndarray, lists: np.ndarray, centroids: np.ndarray,
              rng: np.random.Generator, queries: int = 200, k: int = 10) -> tuple[int, float]:
    """SAFETY × the smallest nprobe whose recall@k on perturbed copies of stored rows (the
    source row excluded from the truth) reaches CALIBRATION_RECALL; and the recall of the
    nprobe returned on those queries.

    An IVF finds a true neighbour iff its list is among the probed ones, so recall for
    every nprobe follows from the rank of each neighbour's list, without searching."""
    n, dim = vectors.shape
    sources = rng.choice(n, min(queries, n), replace=False)
    noise = _unit(rng.standard_normal((len(sources), dim)).astype(np.float32))
    # a third each at cosine ~0.82, ~0.58 and ~0.45 from their source: the farther ones sit
    # between documents, as questions do, and need more lists than near-copies
    scale = np.array(NOISE, dtype=np.float32)[np.arange(len(sources)) % len(NOISE)][:, None]
    q = _unit(vectors[sources] + scale * noise)
    truth = _exact_top(vectors, q, min(k, n - 1), sources)
    order = np.argsort(-(q @ centroids.T), axis=1)  # lists by score, per query
    rank = np.empty_like(order)
    rank[np.arange(len(q))[:, None], order] = np.arange(centroids.shape[0])[None, :]
    needed = np.take_along_axis(rank, lists[truth], 1)  # list rank of each true neighbour
    found = np.sort(needed.ravel())
    total = found.size
    nlist = centroids.shape[0]
    for nprobe in range(1, nlist + 1):
        recall = np.searchsorted(found, nprobe, side="left") / total
        if recall >= CALIBRATION_RECALL:
            break
    nprobe = max(MIN_NPROBE, math.ceil(SAFETY * nprobe))
    return min(nprobe, nlist), float(np.searchsorted(found, nprobe, side="left") / total)


@dataclass
class IVFIndex:
    centroids: np.ndarray  # float32 (nlist, dim), unit norm
    offsets: np.ndarray  # int64 (nlist + 1,): list i is rows offsets[i]:offsets[i + 1]
    nprobe: int
    calibrated_recall: float
    build_seconds: float = 0.0
    loaded: bool = False  # True when read from the cache file

    @property
    def nlist(self) -> int:
        return len(self.centroids)

    def search(self, vectors: np.ndarray, query: np.ndarray, k: int,
               keep: np.ndarray | None) -> tuple[np.ndarray, np.ndarray] | None:
        """(positions, scores) of the top k allowed rows, best first; None when an exact
        search is as cheap or the probed lists hold fewer than k allowed rows."""
        n = len(vectors)
        allowed = n if keep is None else int(np.count_nonzero(keep))
        if allowed <= max(k, EXACT_BELOW_ROWS):
            return None
        closeness = self.centroids @ query
        lists: np.ndarray | None
        if keep is None:
            if 2 * self.nprobe >= self.nlist:  # data without structure: exact is as cheap
                return None
            lists = np.argpartition(-closeness, self.nprobe - 1)[:self.nprobe]
        else:
            lists = self._filtered_probe(closeness, keep, allowed / n)
            if lists is None:
                return None
        starts, ends = self.offsets[lists], self.offsets[lists + 1]
        positions = _ranges(starts, ends)
        if keep is None:
            scores = np.concatenate([vectors[a:b] @ query
                                     for a, b in zip(starts, ends, strict=True)])
        else:
            positions = positions[keep[positions]]
            scores = vectors[positions] @ query
        if scores.size < k:
            return None
        best = np.argpartition(-scores, k - 1)[:k]
        best = best[np.argsort(-scores[best], kind="stable")]
        return positions[best], scores[best]

    def _filtered_probe(self, closeness: np.ndarray, keep: np.ndarray,
                        fraction: float) -> np.ndarray | None:
        """The lists to scan under a filter, nearest first, until they hold a budget of
        allowed rows: an unfiltered probe's rows × f**(1 - FILTER_EXPONENT). Counting the
        allowed rows list by list (not assuming they are spread evenly) keeps recall when
        the filter follows the topics (a folder about one subject). None: exact is as cheap
        (the lists would cover half the rows)."""
        sizes = np.diff(self.offsets)
        filled = np.flatnonzero(sizes)
        per_list = np.zeros(self.nlist, dtype=np.int64)
        per_list[filled] = np.add.reduceat(keep, self.offsets[filled], dtype=np.int64)
        order = np.argsort(-closeness)
        budget = self.nprobe * len(keep) / self.nlist * fraction ** (1 - FILTER_EXPONENT)
        count = int(np.searchsorted(np.cumsum(per_list[order]), budget)) + 1
        lists = order[:count]
        if 2 * int(sizes[lists].sum()) >= len(keep):
            return None
        return lists


def _ranges(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Concatenation of arange(a, b) for each (a, b), without a Python loop."""
    lengths = ends - starts
    total = int(lengths.sum())
    if total == 0:
        return np.empty(0, dtype=np.int64)
    shift = np.repeat(starts - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths)
    return np.arange(total, dtype=np.int64) + shift


def train(vectors: np.ndarray, seed: int = 0) -> tuple[np.ndarray, np.ndarray, int, float]:
    """(centroids, list of each row, nprobe, calibrated recall) for these vectors."""
    rng = np.random.default_rng(seed)
    centroids = kmeans(vectors, list_count(len(vectors)), rng)
    lists = assign(vectors, centroids)
    nprobe, recall = calibrate(vectors, lists, centroids, rng)
    return centroids, lists, nprobe, recall


def index_for(lists: np.ndarray, centroids: np.ndarray, nprobe: int, recall: float,
              seconds: float, loaded: bool) -> tuple[IVFIndex, np.ndarray]:
    """The index over rows reordered by list, and that order (a permutation of the rows)."""
    order = np.argsort(lists, kind="stable")
    counts = np.bincount(lists, minlength=len(centroids))
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    return IVFIndex(centroids, offsets, nprobe, recall, seconds, loaded), order


# -- cache files ------------------------------------------------------------------------


def rowids_digest(rowids: np.ndarray) -> str:
    return hashlib.blake2b(np.ascontiguousarray(rowids, dtype=np.int64).tobytes(),
                           digest_size=16).hexdigest()


def load(path: str, rowids: np.ndarray, dimension: int):
    """(centroids, lists, nprobe, recall, seconds) from a cache file made for exactly these
    rows, or None (missing, unreadable, or made for other rows)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            info = json.loads(str(data["info"]))
            if (info.get("format") != FORMAT or info.get("rows") != len(rowids)
                    or info.get("dimension") != dimension
                    or info.get("rowids") != rowids_digest(rowids)):
                return None
            return (data["centroids"].astype(np.float32), data["lists"].astype(np.int32),
                    int(info["nprobe"]), float(info["recall"]), float(info["seconds"]))
    except (OSError, ValueError, KeyError):
        return None


def save(path: str, rowids: np.ndarray, centroids: np.ndarray, lists: np.ndarray,
         nprobe: int, recall: float, seconds: float) -> None:
    """Write atomically (temporary file, then rename); a failure only costs a rebuild."""
    info = {"format": FORMAT, "rows": len(rowids), "dimension": int(centroids.shape[1]),
            "rowids": rowids_digest(rowids), "nprobe": nprobe, "recall": recall,
            "seconds": seconds}
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as f:
            np.savez(f, centroids=centroids, lists=lists, info=np.array(json.dumps(info)))
        os.replace(tmp, path)
    except OSError as e:
        log.warning("could not cache the ANN index at %s: %s", path, e)
        if os.path.exists(tmp):
            os.remove(tmp)


def remove_stale(location: str, generation: str) -> None:
    """Delete this index's ANN cache files made for other generations."""
    for other in paths.ann_files(location):
        made_for = paths.ann_generation(location, other)
        if made_for is not None and made_for != generation:
            _remove(other)


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


# -- matrix snapshots: the whole matrix, so a new process skips reading SQL ----------------


def save_snapshot(location: str, model: str, generation: str | None, vectors_count: int,
                  columns: dict, vectors: np.ndarray, index: IVFIndex) -> None:
    """Write the matrix (rows in list order) and its index: the vectors as a .npy file
    (memory-mapped when read back), the rest in a small .npz naming that file. The .npy is
    written first under a fresh name, so a reader never pairs columns with other vectors."""
    path = paths.matrix_file(location, model, generation)
    token = f"{os.getpid()}-{time.time_ns()}"
    vectors_file = paths.matrix_vectors(path, token)
    info = {"format": FORMAT, "vectors_count": vectors_count, "rows": len(vectors),
            "dimension": int(vectors.shape[1]), "vectors_file": os.path.basename(vectors_file),
            "access_codes": columns["access_codes"], "kind_codes": columns["kind_codes"],
            "paths": columns["paths"], "nprobe": index.nprobe,
            "recall": index.calibrated_recall, "seconds": index.build_seconds}
    tmp = f"{path}.{token}.tmp"
    try:
        np.save(vectors_file, np.ascontiguousarray(vectors), allow_pickle=False)
        arrays = {name: columns[name] for name in ("rowids", "access", "kinds", "starts", "ends")}
        for optional in ("path_ids", "navigation"):
            if columns[optional] is not None:
                arrays[optional] = columns[optional]
        with open(tmp, "wb") as f:
            np.savez(f, centroids=index.centroids, offsets=index.offsets,
                     info=np.array(json.dumps(info)), **arrays)
        os.replace(tmp, path)
    except OSError as e:
        log.warning("could not cache the vector matrix at %s: %s", path, e)
        for leftover in (tmp, vectors_file):
            _remove(leftover)
        return
    for other in paths.matrix_vectors_files(path):
        if other != vectors_file:  # an earlier snapshot of this generation (readers that
            _remove(other)  # mapped it keep their copy until they close it)


def load_snapshot(location: str, model: str, generation: str | None, vectors_count: int,
                  dimension: int) -> tuple[dict, np.ndarray, IVFIndex] | None:
    """(columns, memory-mapped vectors, index) saved for exactly this model, generation and
    vector count, or None."""
    path = paths.matrix_file(location, model, generation)
    try:
        with np.load(path, allow_pickle=False) as data:
            info = json.loads(str(data["info"]))
            if (info.get("format") != FORMAT or info.get("vectors_count") != vectors_count
                    or info.get("dimension") != dimension):
                return None
            columns = {name: data[name] for name in ("rowids", "access", "kinds", "starts",
                                                     "ends")}
            for optional in ("path_ids", "navigation"):
                columns[optional] = data[optional] if optional in data.files else None
            centroids, offsets = data["centroids"], data["offsets"]
        vectors = np.load(os.path.join(os.path.dirname(path), info["vectors_file"]),
                          mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError, KeyError):
        return None
    if vectors.shape != (info["rows"], dimension) or len(columns["rowids"]) != info["rows"]:
        return None
    columns.update(access_codes=info["access_codes"], kind_codes=info["kind_codes"],
                   paths=info["paths"])
    index = IVFIndex(centroids, offsets, int(info["nprobe"]), float(info["recall"]),
                     float(info["seconds"]), loaded=True)
    return columns, vectors, index


def load_or_build(vectors: np.ndarray, rowids: np.ndarray, location: str | None, model: str,
                  generation: str | None) -> tuple[IVFIndex, np.ndarray]:
    """The IVF for these rows (from the cache file when it matches, else trained and
    cached) and the row order it needs."""
    path = None
    if location and location != ":memory:" and not location.startswith("file:"):
        path = paths.ann_file(os.path.abspath(location), model, generation or "0")
        cached = load(path, rowids, vectors.shape[1])
        if cached is not None:
            centroids, lists, nprobe, recall, seconds = cached
            return index_for(lists, centroids, nprobe, recall, seconds, loaded=True)
    started = time.perf_counter()
    centroids, lists, nprobe, recall = train(vectors)
    seconds = time.perf_counter() - started
    log.info("ANN index: %d rows, %d lists, nprobe %d (calibrated recall %.3f), %.1f s",
             len(vectors), len(centroids), nprobe, recall, seconds)
    if path is not None and location:  # (a path is only made for a location)
        save(path, rowids, centroids, lists, nprobe, recall, seconds)
        remove_stale(os.path.abspath(location), generation or "0")
    return index_for(lists, centroids, nprobe, recall, seconds, loaded=False)
