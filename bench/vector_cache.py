"""What bounding the vector cache costs an ingest (SQLite): `preuve.ingest.vectors.prune`
after each ingest that changed something, and `status`, which counts live and cached vectors.

    .venv/bin/python bench/vector_cache.py                  # 100k chunks
    .venv/bin/python bench/vector_cache.py --sizes 20000,100000

A synthetic index of N chunks with their vectors (bench/dense_latency.py's generator,
written with `index.engine.load`), plus N orphan vectors (texts no chunk holds: the bound,
max(N, KEEP_ORPHANS), is just reached), one vector model. Measured, median of `--runs`
runs:
- `prune, nothing to delete`: what an ingest pays while the orphans are within the bound;
- `prune, over the bound`: N/10 + 1 more orphans written, then the prune that deletes
  down to 90% of the bound (the deleting pass, once per tenth of the bound);
- `status`: `Index.status()` (the vector counts are a scan of the vectors' keys).
Orphans are written through `engine.load` with no chunk, as an ingest killed after
embedding leaves them. The index is made in a temporary folder and deleted at the end.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
from bm25_latency import BATCH_DOCS, SEED, VOCABULARY, vocabulary
from common import machine_note, table
from dense_latency import DIM, MODEL, Topics, batches

from preuve.index import Index
from preuve.ingest import vectors


def orphans(n: int, salt: str) -> list[tuple[str, np.ndarray]]:
    rng = np.random.default_rng(abs(hash(salt)) % 2**32)
    values = rng.standard_normal((n, DIM)).astype(np.float32)
    values /= np.linalg.norm(values, axis=1, keepdims=True)
    return [(hashlib.sha1(f"{salt}{i}".encode()).hexdigest(), values[i]) for i in range(n)]


def median(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return sorted(times)[len(times) // 2]


def measure(n_chunks: int, runs: int, folder: Path) -> list:
    vocab = vocabulary(VOCABULARY, np.random.default_rng(SEED))
    topics = Topics.make(SEED + 3)
    path = folder / f"cache-{n_chunks}.sqlite"
    index = Index(path, embedder="none")
    pending: dict[int, list] = {}

    def todo():
        for batch, vecs in batches(0, n_chunks // 10, BATCH_DOCS, vocab, topics,
                                   np.random.default_rng(SEED + n_chunks),
                                   np.random.default_rng(SEED + 7 * n_chunks)):
            pending[id(batch)] = vecs
            yield batch

    engine = index.engine
    engine.load(todo(), vectors=lambda batch: pending.pop(id(batch)), model=MODEL)

    def add_orphans(n: int, salt: str) -> None:
        # vectors written with no chunk, as an ingest killed after embedding leaves them
        engine.load([[]], vectors=lambda batch: orphans(n, salt), model=MODEL)

    add_orphans(n_chunks, "orphan")
    vectors.GRACE_SECONDS = 0.0
    assert engine.prune_vectors() == 0
    idle = median(engine.prune_vectors, runs)
    bound = max(n_chunks, vectors.KEEP_ORPHANS)
    over = []
    for run in range(runs):
        add_orphans(bound // 10 + 1, f"extra{run}")
        started = time.perf_counter()
        deleted = engine.prune_vectors()
        over.append(time.perf_counter() - started)
        assert deleted > 0
    status = median(index.status, runs)
    stats = index.status()
    assert stats["vectors"][MODEL] == n_chunks
    assert stats["cached_vectors"][MODEL] == bound - bound // 10
    index.close()
    return [f"{n_chunks:,}", f"{idle * 1000:.0f} ms", f"{sorted(over)[runs // 2] * 1000:.0f} ms",
            f"{status * 1000:.0f} ms"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="preuve-vector-cache-"))
    try:
        results = [measure(int(n), args.runs, folder) for n in args.sizes.split(",")]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(table(["chunks (and as many orphans)", "prune, nothing to delete",
                 "prune, over the bound", "status"], results))
    print(machine_note())


if __name__ == "__main__":
    main()
