"""BM25 query latency of the SQLite store at 100k and 1M synthetic chunks, with filters.

    .venv/bin/python bench/bm25_latency.py                 # 100k and 1M chunks
    .venv/bin/python bench/bm25_latency.py --quick         # 10k chunks only
    .venv/bin/python bench/bm25_latency.py --sizes 100000  # chosen sizes

Chunks of 80-150 words drawn from a Zipfian vocabulary, ten chunks per document,
documents labelled public or staff, some versions expired or not yet in force, spread over
eleven top folders. The index is built through `index.engine.load` in batches (one transaction
each, exactly as an ingest writes), and cached under bench/out/ (rebuilt when the schema
gains a migration; delete a file there to force it). Queries go through `Index.search`
(method bm25, the filters as its arguments): what is timed is what a user gets, query
analysis included; the SQL rows open the same file with `Settings(bm25="sql")`.

Callers and filters: F0 none (the operator); public and staff (audiences alone: BM25
statistics are those of the labels a caller reads, so a public caller ranks one partition
and a staff caller two, rescaled to their joint IDF); F1 audience public + as-of date
(keeps ~1/3); F2 F1 + a path prefix (~3 %). Queries: OR of 2-5 terms, one common term
(Zipf rank 30-300, in 3-30 % of the chunks) and the others spread log-uniformly over the
vocabulary (mostly rare).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sqlite3
import statistics
import string
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from common import OUT, machine_note, percentile, pin_threads, table

from preuve.index import Index
from preuve.models import Chunk, Document
from preuve.settings import Settings

SEED = 20251129
VOCABULARY = 100_000
ZIPF_S = 1.0
CHUNKS_PER_DOC = 10
TOP_FOLDERS = 11  # one folder holds ~9 % of the chunks; with F1: ~3 %
BATCH_DOCS = 1_000  # documents per `apply` (one transaction each)
AS_OF = dt.date(2026, 6, 1)
FILTERS = {  # the filters of `Index.search` (and `Index.documents`), as a caller gives them
    "F0 none (operator)": {"as_of": "none"},
    "public caller": {"as_of": "none", "audience": "public"},
    "staff caller": {"as_of": "none", "audience": "staff"},
    "F1 public + as-of": {"as_of": AS_OF, "audience": "public"},
    "F2 F1 + path prefix": {"as_of": AS_OF, "audience": "public", "paths": ("03/",)},
}
CACHE_KEY = "bench.synthetic"


@dataclass
class Built:
    path: str
    chunks: int
    seconds: float  # whole build: generating text and writing it
    apply_seconds: float  # time spent writing the chunks (index.engine.load's "apply")
    cached: bool


def vocabulary(size: int, rng: np.random.Generator) -> list[str]:
    """`size` distinct lower-case pseudo-words of 3-10 letters."""
    letters = np.array(list(string.ascii_lowercase))
    words: dict[str, None] = {}
    while len(words) < size:
        for length in rng.integers(3, 11, size=size):
            words.setdefault("".join(rng.choice(letters, size=length)), None)
            if len(words) == size:
                break
    return list(words)


def zipf_probabilities(size: int) -> np.ndarray:
    weights = 1.0 / np.arange(1, size + 1) ** ZIPF_S
    return weights / weights.sum()


def synthetic_batch(first_doc: int, n_docs: int, vocab: list[str], cdf: np.ndarray,
                    rng: np.random.Generator) -> list[tuple[Document, list[Chunk]]]:
    """Documents `first_doc`.. with their chunks (tokens precomputed, text = tokens)."""
    lengths = rng.integers(80, 151, size=n_docs * CHUNKS_PER_DOC)
    ids = np.searchsorted(cdf, rng.random(int(lengths.sum())), side="right").tolist()
    access = rng.choice(["public", "staff"], size=n_docs)
    period = rng.integers(0, 3, size=n_docs)  # always, expired, in force since 2026
    folders = rng.integers(0, TOP_FOLDERS, size=n_docs)
    out, pos = [], 0
    for i in range(n_docs):
        n = first_doc + i
        doc = Document(
            doc_id=f"d{n}", path=f"{folders[i]:02d}/{n % 97:02d}/doc{n}.txt", root="/bench",
            kind="text", title=f"Document {n}", language="en", content_hash=f"h{n}",
            access=str(access[i]),
            effective_to="2025-12-31" if period[i] == 1 else None,
            effective_from="2026-01-01" if period[i] == 2 else None,
        )
        chunks = []
        for ordinal in range(CHUNKS_PER_DOC):
            length = int(lengths[i * CHUNKS_PER_DOC + ordinal])
            words = [vocab[j] for j in ids[pos:pos + length]]
            pos += length
            chunks.append(Chunk(text=" ".join(words), ordinal=ordinal, tokens=words,
                                chunk_id=f"d{n}:{ordinal}", doc_id=doc.doc_id, start_line=1,
                                end_line=1))
        out.append((doc, chunks))
    return out


def remove_index(path: str) -> None:
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def build_index(n_chunks: int, vocab: list[str]) -> Built:
    """The cached synthetic index of `n_chunks` chunks, built if missing or incomplete."""
    path = str(OUT / f"bm25-{n_chunks}.sqlite")
    params = {"chunks": n_chunks, "seed": SEED, "vocabulary": VOCABULARY, "zipf": ZIPF_S}
    if os.path.exists(path):
        with Index(path, embedder="none") as index:  # opening migrates: a new one rebuilds
            info = json.loads(index.engine.meta(CACHE_KEY) or "{}")
            schema = index.engine.schema_version
        if info.get("params") == {**params, "schema": schema}:
            return Built(path, n_chunks, info["seconds"], info["apply_seconds"], cached=True)
    remove_index(path)
    index = Index(path, embedder="none")
    params["schema"] = index.engine.schema_version
    rng = np.random.default_rng(SEED + n_chunks)
    cdf = np.cumsum(zipf_probabilities(VOCABULARY))
    n_docs = n_chunks // CHUNKS_PER_DOC
    started = time.perf_counter()
    spent = index.engine.load(
        synthetic_batch(first, min(BATCH_DOCS, n_docs - first), vocab, cdf, rng)
        for first in range(0, n_docs, BATCH_DOCS))
    seconds = time.perf_counter() - started
    info = {"params": params, "seconds": seconds, "apply_seconds": spent["apply"]}
    index.engine.set_meta(CACHE_KEY, json.dumps(info))
    index.close()
    return Built(path, n_chunks, seconds, spent["apply"], cached=False)


def file_size(path: str) -> int:
    return sum(os.path.getsize(path + s) for s in ("", "-wal") if os.path.exists(path + s))


def make_queries(n: int, vocab: list[str], seed: int) -> list[list[str]]:
    """OR queries of 2-5 distinct terms: one common, the rest log-uniform over ranks."""
    rng = np.random.default_rng(seed)
    queries = []
    for _ in range(n):
        ranks = {int(rng.integers(30, 301))}
        size = int(rng.integers(2, 6))
        while len(ranks) < size:
            ranks.add(int(np.exp(rng.uniform(np.log(30), np.log(VOCABULARY)))))
        queries.append([vocab[r - 1] for r in ranks])
    return queries


def kept_fraction(index: Index, filters: dict) -> float:
    """Share of the chunks `filters` keep (every synthetic document has ten chunks)."""
    return len(index.documents(**filters)) / len(index.documents())


def fts_query(terms: list[str]) -> str:
    """An FTS5 OR query of quoted terms."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


class FtsAlone:
    """The peer: one FTS5 table of the file ranked alone by SQLite itself (no join, no
    filter, no hit rows): the whole index's table (before per-label statistics) or the
    public partition's (after)."""

    def __init__(self, path: str):
        self.db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        try:
            part = self.db.execute("SELECT part FROM lexicon_parts WHERE label = 'public'"
                                   ).fetchone()
        except sqlite3.OperationalError:
            part = None
        self.table = "chunks_fts" if part is None else f"lex_{int(part[0])}"

    def search(self, terms: list[str], k: int) -> list:
        return self.db.execute(
            f"SELECT rowid, bm25({self.table}) AS s FROM {self.table} WHERE {self.table} "
            "MATCH ? ORDER BY s LIMIT ?", [fts_query(terms), k]).fetchall()

    def kept(self, index: Index) -> float:
        return 1.0 if self.table == "chunks_fts" else kept_fraction(
            index, {"as_of": "none", "audience": "public"})

    def close(self) -> None:
        self.db.close()


def bm25(index: Index, terms: list[str], filters: dict, k: int = 10) -> list:
    """A user's BM25 query: the words, the filters, through the door."""
    return index.search(" ".join(terms), method="bm25", k=k, **filters)


def keyword_ready(index: Index, terms: list[str]) -> tuple[float, float]:
    """(seconds of the first BM25 query, seconds until the keyword index answers). From
    20,000 rows a missing index is built in the background, the first queries answered by
    the store's SQL BM25 meanwhile: this waits for the build, then queries again."""
    started = time.perf_counter()
    bm25(index, terms, FILTERS["F0 none (operator)"])
    first = time.perf_counter() - started
    while index.engine.stats()["keyword"]["building"]:
        time.sleep(0.1)
    bm25(index, terms, FILTERS["F0 none (operator)"])  # takes it up
    assert index.engine.stats()["keyword"]["rows"] is not None, f"no index used: {terms}"
    return first, time.perf_counter() - started


def latencies(search: Callable[[list[str]], object], queries: list[list[str]]) -> list[float]:
    out = []
    for terms in queries:
        start = time.perf_counter()
        search(terms)
        out.append(time.perf_counter() - start)
    return out


def measure(built: Built, queries: list[list[str]], runs: int, sql_runs: int,
            keep: bool = False) -> tuple[list[list[object]], list[list[object]]]:
    """A row per filter for the store's in-memory keyword index, for the store's SQL
    (FTS5 bm25(), what search_bm25 ran before: `sql_runs` runs) and one for the peer:
    kept fraction, p50/p95 (median over runs), ratios to the SQL path and to FTS5 alone.
    Also the keyword index's cost: built from the rows, then loaded by a new process."""
    with Index(built.path, embedder="none") as index:
        saved = index.engine.stats()["keyword"]["files"]
    for leftover in saved if not keep else []:
        os.remove(leftover)
    index = Index(built.path, embedder="none")
    first_s, build_s = keyword_ready(index, queries[0])  # builds the keyword index, saves it
    index.close()
    index = Index(built.path, embedder="none")
    _, load_s = keyword_ready(index, queries[0])  # a new process: loads the saved index
    stats = index.engine.stats()["keyword"]
    size = sum(os.path.getsize(f) for f in stats["files"])
    cost = [[f"{built.chunks:,}", first_s, build_s, load_s, stats["builds"],
             f"{stats['rows']:,}", f"{stats['postings']:,}", f"{size / 1e9:.2f} GB"]]
    for terms in queries[:20]:  # warm the page cache
        bm25(index, terms, FILTERS["F0 none (operator)"])
    sql_index = Index(built.path, embedder="none", settings=Settings(bm25="sql"))

    variants = []
    for name, f in FILTERS.items():
        kept = f"{kept_fraction(index, f):.1%}"
        variants.append((name, kept, runs, lambda terms, f=f: bm25(index, terms, f)))
        if sql_runs:
            variants.append((f"{name}, SQL (before)", kept, sql_runs,
                             lambda terms, f=f: bm25(sql_index, terms, f)))
    peer = FtsAlone(built.path)
    variants.append((f"peer: FTS5 alone ({peer.table}), no filter",
                     f"{peer.kept(index):.1%}", runs, lambda terms: peer.search(terms, 10)))
    results = []
    for name, kept, n_runs, search in variants:
        p50s, p95s = [], []
        for _ in range(n_runs):
            times = latencies(search, queries)
            p50s.append(percentile(times, 50) * 1000)
            p95s.append(percentile(times, 95) * 1000)
        results.append((name, kept, statistics.median(p50s), statistics.median(p95s)))
        print(f"<!-- {built.chunks} {name}: {results[-1][2:]} -->", flush=True)
    peer.close()
    sql_index.close()
    index.close()
    by_name = {name: p50 for name, _, p50, _ in results}
    peer = results[-1][2]
    rows = []
    for name, kept, p50, p95 in results:
        before = by_name.get(f"{name}, SQL (before)")
        rows.append([f"{built.chunks:,}", name, kept, p50, p95,
                     f"{before / p50:.1f}×" if before else "", f"{p50 / peer:.2f}×"])
    return rows, cost


def main() -> None:
    pin_threads()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100000,1000000", help="chunk counts, comma-separated")
    parser.add_argument("--quick", action="store_true", help="10k chunks, fewer queries")
    parser.add_argument("--queries", type=int, default=0, help="queries per run (default: auto)")
    parser.add_argument("--runs", type=int, default=3, help="runs per filter (median taken)")
    parser.add_argument("--keep-index", action="store_true",
                        help="reuse a saved keyword index (its build time is then a load)")
    parser.add_argument("--sql-runs", type=int, default=1,
                        help="runs of the SQL path (FTS5 bm25(), before) per filter; 0: none")
    args = parser.parse_args()
    sizes = [10_000] if args.quick else [int(s) for s in args.sizes.split(",")]
    OUT.mkdir(parents=True, exist_ok=True)
    vocab = vocabulary(VOCABULARY, np.random.default_rng(SEED))

    build_rows, latency_rows, cost_rows = [], [], []
    for n in sizes:
        built = build_index(n, vocab)
        size = file_size(built.path)
        build_rows.append([f"{n:,}", built.seconds, built.apply_seconds,
                           n / built.apply_seconds, f"{size / 1e9:.2f} GB",
                           "cached" if built.cached else "built now"])
        n_queries = args.queries or (50 if args.quick else 200 if n <= 200_000 else 60)
        rows, cost = measure(built, make_queries(n_queries, vocab, SEED + 1), args.runs,
                             args.sql_runs, args.keep_index)
        latency_rows += rows
        cost_rows += cost

    print("### Building the synthetic index (index.engine.load, 1,000 documents per batch)\n")
    print(table(["chunks", "build s (all)", "apply s", "chunks/s (apply)", "file size", ""],
                build_rows))
    print("\n### The keyword index (preuve/keyword/): first query of a process without it "
          "(built from the rows, saved beside the file), then of a new process (loads it)\n")
    print(table(["chunks", "first query s", "build s", "load s", "builds", "rows",
                 "postings", "files"], cost_rows))
    print("\nFirst query: answered by the store's SQL BM25 while the index is built in the "
          "background (from 20,000 rows; below, the first query builds it).")
    print(f"\n### BM25 OR queries through Index.search (method bm25), top 10 (p50/p95 in ms, "
          f"median of {args.runs} runs; SQL rows: {args.sql_runs})\n")
    print(table(["chunks", "query", "chunks kept", "p50 ms", "p95 ms", "SQL / index",
                 "p50 vs FTS5 alone"], latency_rows))
    print("\nThe peer runs the same FTS5 MATCH and bm25() on the same file but returns rowids "
          "only: the floor preuve's search (query analysis, joins, filters, hit columns) is "
          "compared to.")
    print("\n" + machine_note())


if __name__ == "__main__":
    main()
