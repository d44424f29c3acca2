"""BM25 after an ingest, on the SQLite synthetic index: what a running process and a new one
wait for before the keyword index answers again.

    .venv/bin/python bench/keyword_after_ingest.py                  # 1M chunks
    .venv/bin/python bench/keyword_after_ingest.py --size 100000 --rounds 3

The index is bench/bm25_latency.py's cached bench/out/bm25-N.sqlite (built there if missing).
Each round, in order, each step a process of its own (a new Python process: what a restarted
server or a new reader pays):

1. `open`: a new process opens the index and times its first BM25 query (F1, public +
   as-of) and the query after it;
2. `ingest`: a running process (index open, its keyword index answering) ingests
   `--docs` synthetic documents (ten chunks each), then times its first 20 queries (new
   terms each: the tf parts of a term are computed on its first query after averages moved);
3. `after`: a new process started after that ingest, as in 1.

The documents appended are removed at the end (`Index.forget`), which is one more state
the next run's first step brings forward. Figures are medians over `--rounds`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

import numpy as np
from bm25_latency import (
    FILTERS,
    SEED,
    VOCABULARY,
    bm25,
    build_index,
    keyword_ready,
    make_queries,
    synthetic_batch,
    vocabulary,
    zipf_probabilities,
)
from common import machine_note, pin_threads, table

from preuve.index import Index

FILTER = FILTERS["F1 public + as-of"]
FIRST_NEW_DOC = 50_000_000  # appended documents are numbered from here (removed after)


def step(path: str, kind: str, docs: int, first_doc: int, seed: int) -> dict:
    """One step in this (new) process: see the module docstring."""
    vocab = vocabulary(VOCABULARY, np.random.default_rng(SEED))
    queries = make_queries(21, vocab, seed)
    with Index(path, embedder="none") as index:
        started = time.perf_counter()
        first_query = None
        if kind != "ingest":
            bm25(index, queries[0], FILTER)
            first_query = time.perf_counter() - started
        _, ready = keyword_ready(index, queries[0])
        out = {"first query s": first_query, "ready s": ready}
        if kind == "ingest":
            cdf = np.cumsum(zipf_probabilities(VOCABULARY))
            rng = np.random.default_rng(seed)
            index.engine.load([synthetic_batch(first_doc, docs, vocab, cdf, rng)])
        latencies = []
        for terms in queries[1:]:
            start = time.perf_counter()
            bm25(index, terms, FILTER)
            latencies.append(time.perf_counter() - start)
        kept = index.engine.stats()["keyword"]
        out.update({"next query ms": latencies[0] * 1000,
                    "next 20 median ms": statistics.median(latencies) * 1000,
                    **{name: kept[name] for name in ("fallbacks", "builds", "parts")}})
    return out


def run_step(path: str, kind: str, docs: int, first_doc: int, seed: int) -> dict:
    done = subprocess.run([sys.executable, __file__, "--step", kind, "--path", path,
                           "--docs", str(docs), "--first-doc", str(first_doc),
                           "--seed", str(seed)], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    pin_threads()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=1_000_000, help="chunks in the index")
    parser.add_argument("--docs", type=int, default=100, help="documents per ingest (x10 chunks)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--step", help=argparse.SUPPRESS)
    parser.add_argument("--path", help=argparse.SUPPRESS)
    parser.add_argument("--first-doc", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step:
        print(json.dumps(step(args.path, args.step, args.docs, args.first_doc, args.seed)))
        return

    path = build_index(args.size, vocabulary(VOCABULARY, np.random.default_rng(SEED))).path
    results: dict[str, list[dict]] = {"open": [], "ingest": [], "after": []}
    appended = []
    for r in range(args.rounds):
        first_doc = FIRST_NEW_DOC + r * args.docs
        for kind in results:
            results[kind].append(run_step(path, kind, args.docs, first_doc, SEED + 100 * r))
        appended += [f"d{n}" for n in range(first_doc, first_doc + args.docs)]
    with Index(path, embedder="none") as index:
        index.forget(appended, exact_ids=True)

    columns = ["first query s", "ready s", "next query ms", "next 20 median ms", "fallbacks",
               "builds", "parts"]
    rows = []
    for kind, found in results.items():
        row = [f"{args.size:,}", kind]
        for column in columns:
            values = [x[column] for x in found if x[column] is not None]
            row.append(statistics.median(values) if values else float("nan"))
        rows.append(row)
    print(f"### BM25 after an ingest of {args.docs * 10:,} chunks, F1 (median of "
          f"{args.rounds} rounds)\n")
    print(table(["chunks", "step", *columns], rows))
    print("\n`open`/`after`: a new process's first query (its keyword index loaded, brought "
          "forward) and until the index answers; `ingest`: the running process that ingested, "
          "its 20 queries after (the first of them brings its index forward). `fallbacks`: "
          "queries answered by SQL meanwhile; `parts`: the snapshot and the parts brought "
          "forward since.")
    print("\n" + machine_note())


if __name__ == "__main__":
    main()
