"""Dense and hybrid query latency at 100k and 1M synthetic chunks, exact vs ANN, with filters.

    .venv/bin/python bench/dense_latency.py                  # 100k and 1M chunks
    .venv/bin/python bench/dense_latency.py --quick          # 10k chunks only
    .venv/bin/python bench/dense_latency.py --sizes 200000   # chosen sizes

The text side is bench/bm25_latency.py's generator (chunks of 80-150 Zipfian words, ten per
document, public or staff, some versions expired or not yet in force, eleven top folders),
written through `SQLiteStore.apply`; each chunk also gets a 384-d normalised vector through
`store.put_vectors`. The index is cached under bench/out/ (delete a file to rebuild it).

Vectors have the structure embeddings have, not uniform noise (on which no approximate
index finds anything: the "nearest" neighbours of a random direction are all about as far):
4,000 topics in 200 groups with Zipfian popularity; a document sits near one topic and its
chunks near the document. Half of a folder's documents take their topic from the folder's
own groups, so a path filter follows the topics, as real folders do.

Queries (vector and words drawn independently): half perturbed copies of stored vectors
(cosine ~0.89 to their source), half new documents' chunks of a random topic. Recall@10 of
the ANN against exact search is also given for uniformly random directions (out of
distribution: a sanity check, not a target). Hybrid = `preuve.retrieve.hybrid` with an
embedder returning the query's fixed vector, so the time excludes the model (e5 query
embedding measured separately).

Exact and ANN are measured in the same run on the same store, by switching the matrix's
`use_ann`. The ANN is forced on at every size here (ann_threshold=1); by default it
starts at 200,000 chunks.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import time
from dataclasses import dataclass

import numpy as np
from bm25_latency import (
    BATCH_DOCS,
    CHUNKS_PER_DOC,
    FILTERS,
    SEED,
    TOP_FOLDERS,
    VOCABULARY,
    kept_fraction,
    make_queries,
    remove_index,
    synthetic_batch,
    vocabulary,
    zipf_probabilities,
)
from common import OUT, machine_note, percentile, pin_threads, table

from preuve.ingest.vectors import model_key
from preuve.retrieve import Options, hybrid
from preuve.store import Changes, ann
from preuve.store.sqlite import SQLiteStore

DIM = 384
GROUPS, PER_GROUP = 200, 20  # 4,000 topics
TOPIC_ZIPF = 0.7
DOC_SPREAD, CHUNK_SPREAD = 0.8, 0.5  # noise norms around the topic, then the document
OWN_TOPIC = 0.5  # share of a folder's documents about the folder's own groups
PERTURB = 0.5  # noise norm of perturbed-copy queries (cosine ~0.89 to the source)
CACHE_KEY = "bench.dense"
K = 10
FORCED = 1  # ann_threshold: the approximate index at every size, to compare with exact


class FixedEmbedder:
    """Returns the vector it was given: hybrid timing without the model."""

    name, revision, dimension = "bench-synthetic", "1", DIM

    def __init__(self) -> None:
        self.vector = np.zeros(DIM, dtype=np.float32)

    def embed_queries(self, texts):
        return self.vector[None, :]


MODEL = model_key(FixedEmbedder)


def unit(a: np.ndarray) -> np.ndarray:
    return (a / np.linalg.norm(a, axis=-1, keepdims=True)).astype(np.float32)


def noise(rng: np.random.Generator, n: int) -> np.ndarray:
    return unit(rng.standard_normal((n, DIM), dtype=np.float32))


@dataclass
class Topics:
    centres: np.ndarray  # (GROUPS * PER_GROUP, DIM)
    popularity: np.ndarray
    by_folder: list[tuple[np.ndarray, np.ndarray]]  # (topic ids, probabilities) per folder

    @classmethod
    def make(cls, seed: int) -> Topics:
        rng = np.random.default_rng(seed)
        groups = noise(rng, GROUPS)
        centres = unit(np.repeat(groups, PER_GROUP, 0) + 0.7 * noise(rng, GROUPS * PER_GROUP))
        popularity = 1.0 / np.arange(1, len(centres) + 1) ** TOPIC_ZIPF
        popularity = popularity[rng.permutation(len(centres))]
        by_folder = []
        for folder in range(TOP_FOLDERS):
            ids = np.flatnonzero(np.arange(len(centres)) // PER_GROUP % TOP_FOLDERS == folder)
            by_folder.append((ids, popularity[ids] / popularity[ids].sum()))
        return cls(centres, popularity / popularity.sum(), by_folder)

    def pick(self, rng: np.random.Generator, folder: int | None = None) -> int:
        if folder is not None and rng.random() < OWN_TOPIC:
            ids, p = self.by_folder[folder]
            return int(rng.choice(ids, p=p))
        return int(rng.choice(len(self.centres), p=self.popularity))

    def chunks(self, rng: np.random.Generator, topic: int, n: int) -> np.ndarray:
        """n chunk vectors of one new document about `topic`."""
        doc = unit(self.centres[topic] + DOC_SPREAD * noise(rng, 1)[0])
        return unit(doc + CHUNK_SPREAD * noise(rng, n))


@dataclass
class Built:
    path: str
    chunks: int
    seconds: float
    cached: bool


def build_index(n_chunks: int, vocab: list[str], topics: Topics) -> Built:
    """The cached synthetic index with vectors, built if missing or made otherwise."""
    path = str(OUT / f"dense-{n_chunks}.sqlite")
    params = {"chunks": n_chunks, "seed": SEED, "vocabulary": VOCABULARY, "model": MODEL,
              "topics": [GROUPS, PER_GROUP, TOPIC_ZIPF, DOC_SPREAD, CHUNK_SPREAD, OWN_TOPIC]}
    if os.path.exists(path):
        store = SQLiteStore(path)
        info = json.loads(store.get_meta(CACHE_KEY) or "{}")
        store.close()
        if info.get("params") == params:
            return Built(path, n_chunks, info["seconds"], cached=True)
    remove_index(path)
    for stale in OUT.glob(f"dense-{n_chunks}.sqlite.ann-*"):
        stale.unlink()
    store = SQLiteStore(path)
    rng = np.random.default_rng(SEED + n_chunks)
    vrng = np.random.default_rng(SEED + 7 * n_chunks)
    cdf = np.cumsum(zipf_probabilities(VOCABULARY))
    n_docs = n_chunks // CHUNKS_PER_DOC
    started = time.perf_counter()
    for first in range(0, n_docs, BATCH_DOCS):
        batch = synthetic_batch(first, min(BATCH_DOCS, n_docs - first), vocab, cdf, rng)
        vectors = []
        for doc, chunks in batch:
            topic = topics.pick(vrng, int(doc.path[:2]))
            for chunk, vector in zip(chunks, topics.chunks(vrng, topic, len(chunks)),
                                     strict=True):
                chunk.text_hash = hashlib.sha1(chunk.chunk_id.encode()).hexdigest()
                vectors.append((chunk.text_hash, vector))
        store.apply(Changes(upserts=batch))
        store.put_vectors(MODEL, vectors)
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    seconds = time.perf_counter() - started
    store.set_meta(CACHE_KEY, json.dumps({"params": params, "seconds": seconds}))
    store.close()
    return Built(path, n_chunks, seconds, cached=False)


def query_vectors(store: SQLiteStore, topics: Topics, n: int, seed: int) -> dict:
    """{kind: (n, DIM) array}: perturbed copies, fresh chunks, uniform directions."""
    rng = np.random.default_rng(seed)
    total = store.db.execute("SELECT MAX(id) FROM chunks").fetchone()[0]
    picks = [int(x) for x in rng.choice(np.arange(1, total + 1), n // 2, replace=False)]
    stored = np.stack([np.frombuffer(row[0], dtype=np.float32) for row in store.db.execute(
        "SELECT v.vector FROM chunks c JOIN vectors v ON v.model = ? AND "
        f"v.text_hash = c.text_hash WHERE c.id IN ({','.join(map(str, picks))})", (MODEL,))])
    fresh = np.stack([topics.chunks(rng, topics.pick(rng), 1)[0] for _ in range(n - n // 2)])
    return {"perturbed": unit(stored + PERTURB * noise(rng, len(stored))), "fresh": fresh,
            "uniform": noise(rng, n // 2)}


def run_queries(store, vectors, texts, filters, method, embedder) -> tuple[list, list]:
    """(seconds per query, chunk ids per query)."""
    times, results = [], []
    for vector, words in zip(vectors, texts, strict=True):
        start = time.perf_counter()
        if method == "dense":
            hits = store.search_dense(vector, MODEL, filters, K)
        else:
            embedder.vector = vector
            hits = hybrid(store, words, filters, K, Options(embedder=embedder))
        times.append(time.perf_counter() - start)
        results.append([h.chunk_id for h in hits])
    return times, results


def recall(approx: list[list[str]], exact: list[list[str]]) -> float:
    return float(np.mean([len(set(a) & set(e)) / max(1, len(e))
                          for a, e in zip(approx, exact, strict=True)]))


def ann_share(matrix, vectors, filters) -> float:
    """Share of queries the ANN answered itself (the rest fell back to exact search)."""
    keep = matrix.mask(filters)
    return float(np.mean([matrix.ann.search(matrix.vectors, v, K, keep) is not None
                          for v in vectors]))


def measure(built: Built, topics: Topics, vocab: list[str], n_queries: int, runs: int):
    for cached in OUT.glob(os.path.basename(built.path) + ".ann-*"):
        cached.unlink()  # as after an ingest: the first query builds, the next process maps
    started = time.perf_counter()
    probe = SQLiteStore(built.path, ann_threshold=FORCED)
    rows = probe.db.execute(
        "SELECT c.id, v.vector, c.access, c.kind, c.effective_from, c.effective_to, c.role, "
        "c.path "
        "FROM chunks c JOIN vectors v ON v.model = ? AND v.text_hash = c.text_hash "
        "ORDER BY c.id", (MODEL,)).fetchall()
    sql_read = time.perf_counter() - started
    del rows
    probe.close()

    store = SQLiteStore(built.path, ann_threshold=FORCED)
    started = time.perf_counter()
    matrix = store._vector_matrix(MODEL, DIM)  # what the first dense query pays
    first = time.perf_counter() - started
    index = matrix.ann
    # a later process: the matrix mapped from its cache
    again = SQLiteStore(built.path, ann_threshold=FORCED)
    started = time.perf_counter()
    reopened = again._vector_matrix(MODEL, DIM)
    second = time.perf_counter() - started
    assert reopened.from_cache and reopened.ann.loaded
    del reopened
    again.close()
    size = sum(f.stat().st_size for f in OUT.glob(os.path.basename(built.path) + ".ann-*"))
    setup = [f"{built.chunks:,}", sql_read, first, index.build_seconds, second,
             f"{size / 1e6:,.0f} MB", index.nlist, index.nprobe, index.calibrated_recall]

    qv = query_vectors(store, topics, n_queries, SEED + 11)
    vectors = np.concatenate([qv["perturbed"], qv["fresh"]])
    texts = [" ".join(t) for t in make_queries(len(vectors), vocab, SEED + 1)]
    embedder = FixedEmbedder()
    for v, t in zip(vectors[:10], texts[:10], strict=True):  # warm caches
        store.search_dense(v, MODEL, FILTERS["F0 none"], K)
        store.search_bm25(t.split(), FILTERS["F0 none"], K)

    latency_rows, recall_rows = [], []
    for name, filters in FILTERS.items():
        kept = kept_fraction(store, filters)
        cells: dict[tuple[str, str], tuple[float, float]] = {}
        ids: dict[tuple[str, str], list] = {}
        for method in ("dense", "hybrid"):
            for mode in ("exact", "ann"):
                matrix.use_ann = mode == "ann"
                p50s, p95s = [], []
                for _ in range(runs):
                    times, ids[method, mode] = run_queries(store, vectors, texts, filters,
                                                           method, embedder)
                    p50s.append(percentile(times, 50) * 1000)
                    p95s.append(percentile(times, 95) * 1000)
                cells[method, mode] = (statistics.median(p50s), statistics.median(p95s))
        matrix.use_ann = True
        for method in ("dense", "hybrid"):
            (e50, e95), (a50, a95) = cells[method, "exact"], cells[method, "ann"]
            latency_rows.append([f"{built.chunks:,}", name, f"{kept:.1%}", method, e50, e95,
                                 a50, a95, f"{e50 / a50:.1f}×"])
        half = n_queries // 2
        exact_ids = {}
        for kind in ("uniform",):
            matrix.use_ann = False
            _, exact_ids[kind] = run_queries(store, qv[kind], qv[kind], filters, "dense", None)
            matrix.use_ann = True
        _, ann_uniform = run_queries(store, qv["uniform"], qv["uniform"], filters, "dense",
                                     None)
        dense_exact, dense_ann = ids["dense", "exact"], ids["dense", "ann"]
        recall_rows.append([
            f"{built.chunks:,}", name, f"{kept:.1%}",
            recall(dense_ann[:half], dense_exact[:half]),
            recall(dense_ann[half:], dense_exact[half:]),
            recall(dense_ann, dense_exact),
            min(len(set(a) & set(e)) / K for a, e in zip(dense_ann, dense_exact, strict=True)),
            recall(ids["hybrid", "ann"], ids["hybrid", "exact"]),
            recall(ann_uniform, exact_ids["uniform"]),
            f"{ann_share(matrix, vectors, filters):.0%}",
            min(len(r) for r in dense_ann),
        ])
    store.close()
    return setup, latency_rows, recall_rows


def e5_query_cost() -> str:
    """Median ms of one e5 query embedding (the ONNX int8 default), or why not measured."""
    try:
        from preuve.embed import get_embedder
        from preuve.settings import Settings

        embedder = get_embedder("e5", Settings.load())  # $PREUVE_CACHE
        questions = ["Quelle est la durée du préavis en cas de démission ?",
                     "How do I renew a residence permit after it expired?",
                     "télétravail combien de jours par semaine",
                     "refund policy for cancelled orders"]
        embedder.embed_queries(questions[:1])
        times = []
        for _ in range(5):
            for q in questions:
                start = time.perf_counter()
                embedder.embed_queries([q])
                times.append(time.perf_counter() - start)
        return f"{statistics.median(times) * 1000:.1f} ms (p95 {percentile(times, 95) * 1000:.1f})"
    except Exception as e:  # noqa: BLE001 - a benchmark note, not a failure
        return f"not measured ({type(e).__name__}: {e})"


def main() -> None:
    pin_threads()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100000,1000000", help="chunk counts, comma-separated")
    parser.add_argument("--quick", action="store_true", help="10k chunks, fewer queries")
    parser.add_argument("--queries", type=int, default=0, help="queries per run (default: auto)")
    parser.add_argument("--runs", type=int, default=3, help="runs per cell (median taken)")
    args = parser.parse_args()
    sizes = [10_000] if args.quick else [int(s) for s in args.sizes.split(",")]
    OUT.mkdir(parents=True, exist_ok=True)
    vocab = vocabulary(VOCABULARY, np.random.default_rng(SEED))
    topics = Topics.make(SEED + 3)

    build_rows, setup_rows, latency_rows, recall_rows = [], [], [], []
    for n in sizes:
        built = build_index(n, vocab, topics)
        build_rows.append([f"{n:,}", built.seconds, "cached" if built.cached else "built now"])
        n_queries = args.queries or (50 if args.quick else 200 if n <= 200_000 else 100)
        setup, latency, recalls = measure(built, topics, vocab, n_queries, args.runs)
        setup_rows.append(setup)
        latency_rows += latency
        recall_rows += recalls
        progress = json.dumps([setup, latency, recalls], default=str)
        print(f"<!-- {n:,} chunks: {progress} -->", flush=True)  # the tables follow at the end

    print("### Synthetic index (SQLiteStore.apply + put_vectors, 1,000 documents per batch)\n")
    print(table(["chunks", "build s", ""], build_rows))
    print("\n### First dense query of a process: vectors into memory, the ANN index\n")
    print(table(["chunks", "SQL read of the vectors s", "first query after a change s",
                 "of which ANN training s", "first query of a later process s",
                 "cache files", "lists", "nprobe", "calibrated recall"], setup_rows))
    print(f"\n### Query latency, top {K}, ms (p50/p95 per run, median of {args.runs} runs; "
          "hybrid = bm25 + dense + RRF, model time excluded)\n")
    print(table(["chunks", "filter", "kept", "method", "exact p50", "exact p95", "ANN p50",
                 "ANN p95", "p50 exact/ANN"], latency_rows))
    print("\n### ANN recall@10 against exact search (same filters)\n")
    print(table(["chunks", "filter", "kept", "dense: perturbed", "dense: fresh", "dense: all",
                 "dense: worst query", "hybrid top 10", "uniform random (OOD)",
                 "answered by ANN", "fewest hits"], recall_rows))
    print(f"\ne5 query embedding (ONNX int8, one thread), not included above: {e5_query_cost()}.")
    print(f"Default ANN threshold: {ann.ANN_THRESHOLD:,} chunks (forced on here).")
    print("\n" + machine_note())


if __name__ == "__main__":
    main()
