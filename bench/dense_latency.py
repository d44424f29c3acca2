"""Dense and hybrid query latency at 100k and 1M synthetic chunks, exact vs ANN, with filters.

    .venv/bin/python bench/dense_latency.py                  # 100k and 1M chunks
    .venv/bin/python bench/dense_latency.py --quick          # 10k chunks only
    .venv/bin/python bench/dense_latency.py --sizes 200000   # chosen sizes

The text side is bench/bm25_latency.py's generator (chunks of 80-150 Zipfian words, ten per
document, public or staff, some versions expired or not yet in force, eleven top folders),
written through `index.engine.load`, which also stores each chunk's 384-d normalised vector. The
index is cached under bench/out/ (delete a file to rebuild it).

Vectors have the structure embeddings have, not uniform noise (on which no approximate
index finds anything: the "nearest" neighbours of a random direction are all about as far):
4,000 topics in 200 groups with Zipfian popularity; a document sits near one topic and its
chunks near the document. Half of a folder's documents take their topic from the folder's
own groups, so a path filter follows the topics, as real folders do.

Queries (vector and words drawn independently): half perturbed copies of stored vectors
(cosine ~0.89 to their source), half new documents' chunks of a random topic. Recall@10 of
the ANN against exact search is also given for uniformly random directions (out of
distribution: a sanity check, not a target). Every query is `Index.search` (method dense or
hybrid, the filters as its arguments) on an Index whose embedder returns the query's fixed
vector, so the time excludes the model (e5 query embedding measured separately).

Exact and ANN are measured in the same run on the same file, through two Index objects:
one with `Settings(ann_threshold=1)` (the ANN forced on at every size; by default it starts
at 200,000 chunks), one with a threshold never reached (exact). Each holds its own vectors
in memory.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import sqlite3
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
    keyword_ready,
    make_queries,
    remove_index,
    synthetic_batch,
    vocabulary,
    zipf_probabilities,
)
from common import OUT, machine_note, percentile, pin_threads, table

from preuve.index import Index
from preuve.ingest.vectors import model_key
from preuve.settings import VARIABLES, Settings

DIM = 384
GROUPS, PER_GROUP = 200, 20  # 4,000 topics
TOPIC_ZIPF = 0.7
DOC_SPREAD, CHUNK_SPREAD = 0.8, 0.5  # noise norms around the topic, then the document
OWN_TOPIC = 0.5  # share of a folder's documents about the folder's own groups
PERTURB = 0.5  # noise norm of perturbed-copy queries (cosine ~0.89 to the source)
CACHE_KEY = "bench.dense"
K = 10
FORCED = 1  # ann_threshold: the approximate index at every size, to compare with exact
EXACT = 10**12  # an ann_threshold never reached: dense search stays exact


class FixedEmbedder:
    """Returns the vector given for a query's words: dense and hybrid timing without the
    model. preuve remembers a question's embedding by its words (`query_vector` in
    preuve.retrieve.dense), so one set of words must always go with one vector: `give`
    refuses to map words already given to another vector."""

    name, revision, dimension = "bench-synthetic", "1", DIM

    def __init__(self) -> None:
        self.vectors: dict[str, np.ndarray] = {}

    def give(self, words: str, vector: np.ndarray) -> None:
        known = self.vectors.setdefault(words, vector)
        if known is not vector and not np.array_equal(known, vector):
            raise ValueError(f"bench: the words {words!r} already went with another vector")

    def embed_queries(self, texts):
        return np.stack([self.vectors[t] for t in texts])


MODEL = model_key(FixedEmbedder)


def open_index(path: str, ann_threshold: int = FORCED,
               embedder: FixedEmbedder | None = None) -> Index:
    """The synthetic index through the door, its dense search exact or approximate."""
    return Index(path, embedder=embedder or FixedEmbedder(),
                 settings=Settings(ann_threshold=ann_threshold))


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


def batches(first_doc: int, n_docs: int, per_batch: int, vocab: list[str], topics: Topics,
            rng: np.random.Generator, vrng: np.random.Generator):
    """(documents with chunks, [(text_hash, vector)]) per batch of the synthetic index
    (stores.py appends more with other seeds)."""
    cdf = np.cumsum(zipf_probabilities(VOCABULARY))
    for first in range(first_doc, first_doc + n_docs, per_batch):
        batch = synthetic_batch(first, min(per_batch, first_doc + n_docs - first), vocab, cdf,
                                rng)
        vectors = []
        for doc, chunks in batch:
            topic = topics.pick(vrng, int(doc.path[:2]))
            for chunk, vector in zip(chunks, topics.chunks(vrng, topic, len(chunks)),
                                     strict=True):
                chunk.text_hash = hashlib.sha1(chunk.chunk_id.encode()).hexdigest()
                vectors.append((chunk.text_hash, vector))
        yield batch, vectors


def build_index(n_chunks: int, vocab: list[str], topics: Topics) -> Built:
    """The cached synthetic index with vectors, built if missing or made otherwise."""
    path = str(OUT / f"dense-{n_chunks}.sqlite")
    params = {"chunks": n_chunks, "seed": SEED, "vocabulary": VOCABULARY, "model": MODEL,
              "topics": [GROUPS, PER_GROUP, TOPIC_ZIPF, DOC_SPREAD, CHUNK_SPREAD, OWN_TOPIC]}
    if os.path.exists(path):
        with open_index(path) as index:
            info = json.loads(index.engine.meta(CACHE_KEY) or "{}")
        if info.get("params") == params:
            return Built(path, n_chunks, info["seconds"], cached=True)
    remove_index(path)
    for stale in OUT.glob(f"dense-{n_chunks}.sqlite.ann-*"):
        stale.unlink()
    index = open_index(path)
    n_docs = n_chunks // CHUNKS_PER_DOC
    pending: dict[int, list] = {}  # a batch's (text_hash, vector) pairs, until it is written

    def todo():
        for batch, vectors in batches(0, n_docs, BATCH_DOCS, vocab, topics,
                                      np.random.default_rng(SEED + n_chunks),
                                      np.random.default_rng(SEED + 7 * n_chunks)):
            pending[id(batch)] = vectors
            yield batch

    started = time.perf_counter()
    index.engine.load(todo(), vectors=lambda batch: pending.pop(id(batch)), model=MODEL)
    seconds = time.perf_counter() - started
    index.engine.set_meta(CACHE_KEY, json.dumps({"params": params, "seconds": seconds}))
    index.close()
    return Built(path, n_chunks, seconds, cached=False)


def read_only(path: str) -> contextlib.closing[sqlite3.Connection]:
    """The bench's own look at its file (sqlite3, read only): no preuve code involved."""
    return contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True))


def query_vectors(path: str, topics: Topics, n: int, seed: int) -> dict:
    """{kind: (n, DIM) array}: perturbed copies, fresh chunks, uniform directions."""
    rng = np.random.default_rng(seed)
    with read_only(path) as db:
        total = db.execute("SELECT MAX(id) FROM chunks").fetchone()[0]
        picks = [int(x) for x in rng.choice(np.arange(1, total + 1), n // 2, replace=False)]
        stored = np.stack([np.frombuffer(row[0], dtype=np.float32) for row in db.execute(
            "SELECT v.vector FROM chunks c JOIN vectors v ON v.model = ? AND "
            f"v.text_hash = c.text_hash WHERE c.id IN ({','.join(map(str, picks))})",
            (MODEL,))])
    fresh = np.stack([topics.chunks(rng, topics.pick(rng), 1)[0] for _ in range(n - n // 2)])
    return {"perturbed": unit(stored + PERTURB * noise(rng, len(stored))), "fresh": fresh,
            "uniform": noise(rng, n // 2)}


def search(index: Index, embedder: FixedEmbedder, vector, words: str, filters: dict,
           method: str, k: int = K) -> list:
    """A user's query through the door, its embedding being `vector`."""
    embedder.give(words, vector)
    return index.search(words, method=method, k=k, **filters)


def run_queries(index: Index, embedder: FixedEmbedder, vectors, texts, filters,
                method) -> tuple[list, list]:
    """(seconds per query, chunk ids per query)."""
    times, results = [], []
    for vector, words in zip(vectors, texts, strict=True):
        start = time.perf_counter()
        hits = search(index, embedder, vector, words, filters, method)
        times.append(time.perf_counter() - start)
        results.append([h.chunk_id for h in hits])
    return times, results


def recall(approx: list[list[str]], exact: list[list[str]]) -> float:
    return float(np.mean([len(set(a) & set(e)) / max(1, len(e))
                          for a, e in zip(approx, exact, strict=True)]))


def ann_counts(index: Index) -> tuple[int, int]:
    """(queries the ANN answered itself, queries it left to the exact scan) so far."""
    ann = index.engine.stats()["dense"]["ann"]
    return ann["answered"], ann["fell_back"]


def measure(built: Built, topics: Topics, vocab: list[str], n_queries: int, runs: int):
    for cached in OUT.glob(os.path.basename(built.path) + ".ann-*"):
        cached.unlink()  # as after an ingest: the first query builds, the next process maps
    started = time.perf_counter()
    with read_only(built.path) as db:
        rows = db.execute(
            "SELECT c.id, v.vector, c.access, c.kind, c.effective_from, c.effective_to, "
            "c.role, c.path "
            "FROM chunks c JOIN vectors v ON v.model = ? AND v.text_hash = c.text_hash "
            "ORDER BY c.id", (MODEL,)).fetchall()
    sql_read = time.perf_counter() - started
    del rows

    qv = query_vectors(built.path, topics, n_queries, SEED + 11)
    vectors = np.concatenate([qv["perturbed"], qv["fresh"]])
    texts = [" ".join(t) for t in make_queries(len(vectors), vocab, SEED + 1)]
    unfiltered = FILTERS["F0 none (operator)"]
    embedder = FixedEmbedder()
    approx = open_index(built.path, FORCED, embedder)
    started = time.perf_counter()
    search(approx, embedder, vectors[0], texts[0], unfiltered, "dense")  # loads the vectors
    first = time.perf_counter() - started
    index = approx.engine.stats()["dense"]["ann"]
    # a later process: the matrix mapped from its cache
    again_embedder = FixedEmbedder()
    again = open_index(built.path, FORCED, again_embedder)
    started = time.perf_counter()
    search(again, again_embedder, vectors[0], texts[0], unfiltered, "dense")
    second = time.perf_counter() - started
    reopened = again.engine.stats()["dense"]
    assert reopened["from_cache"] and reopened["ann"]["loaded"]
    again.close()
    size = sum(os.path.getsize(f) for f in reopened["files"])
    setup = [f"{built.chunks:,}", sql_read, first, index["build_seconds"], second,
             f"{size / 1e6:,.0f} MB", index["nlist"], index["nprobe"],
             index["calibrated_recall"]]

    exact_embedder = FixedEmbedder()
    exact = open_index(built.path, EXACT, exact_embedder)
    by_mode = {"exact": (exact, exact_embedder), "ann": (approx, embedder)}
    for idx, _ in by_mode.values():  # the keyword index built (in the background) or loaded
        keyword_ready(idx, texts[0].split())
    for v, t in zip(vectors[:10], texts[:10], strict=True):  # warm caches
        for idx, emb in by_mode.values():
            search(idx, emb, v, t, unfiltered, "dense")
            search(idx, emb, v, t, unfiltered, "bm25")

    latency_rows, recall_rows = [], []
    for name, filters in FILTERS.items():
        kept = kept_fraction(approx, filters)
        cells: dict[tuple[str, str], tuple[float, float]] = {}
        ids: dict[tuple[str, str], list] = {}
        answered = fell_back = 0
        for method in ("dense", "hybrid"):
            for mode in ("exact", "ann"):
                idx, emb = by_mode[mode]
                p50s, p95s = [], []
                for _ in range(runs):
                    before = ann_counts(approx)
                    times, ids[method, mode] = run_queries(idx, emb, vectors, texts, filters,
                                                           method)
                    if (method, mode) == ("dense", "ann"):
                        after = ann_counts(approx)
                        answered += after[0] - before[0]
                        fell_back += after[1] - before[1]
                    p50s.append(percentile(times, 50) * 1000)
                    p95s.append(percentile(times, 95) * 1000)
                cells[method, mode] = (statistics.median(p50s), statistics.median(p95s))
        for method in ("dense", "hybrid"):
            (e50, e95), (a50, a95) = cells[method, "exact"], cells[method, "ann"]
            latency_rows.append([f"{built.chunks:,}", name, f"{kept:.1%}", method, e50, e95,
                                 a50, a95, f"{e50 / a50:.1f}×"])
        half = n_queries // 2
        uniform_texts = [f"uniform {i}" for i in range(len(qv["uniform"]))]
        _, exact_uniform = run_queries(exact, exact_embedder, qv["uniform"], uniform_texts,
                                       filters, "dense")
        _, ann_uniform = run_queries(approx, embedder, qv["uniform"], uniform_texts, filters,
                                     "dense")
        dense_exact, dense_ann = ids["dense", "exact"], ids["dense", "ann"]
        recall_rows.append([
            f"{built.chunks:,}", name, f"{kept:.1%}",
            recall(dense_ann[:half], dense_exact[:half]),
            recall(dense_ann[half:], dense_exact[half:]),
            recall(dense_ann, dense_exact),
            min(len(set(a) & set(e)) / K for a, e in zip(dense_ann, dense_exact, strict=True)),
            recall(ids["hybrid", "ann"], ids["hybrid", "exact"]),
            recall(ann_uniform, exact_uniform),
            f"{answered / max(1, answered + fell_back):.0%}",
            min(len(r) for r in dense_ann),
        ])
    exact.close()
    approx.close()
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

    print("### Synthetic index (index.engine.load with vectors, 1,000 documents per batch)\n")
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
    default = next(v.default for v in VARIABLES if v.field == "ann_threshold").strip("`")
    print(f"Default ANN threshold: {int(default):,} chunks (forced on here).")
    print("\n" + machine_note())


if __name__ == "__main__":
    main()
