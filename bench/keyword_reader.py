"""The keyword engine's reader: a server pool's memory, and what an ingest costs.

    .venv/bin/python bench/keyword_reader.py pool --chunks 100000   # RSS, 8 pooled Index objects
    .venv/bin/python bench/keyword_reader.py ingest --chunks 30000  # seconds per ingest

`pool`: the cached synthetic index of bench/bm25_latency.py (`--chunks` chunks of 80-150
tokens), its keyword engine built and saved first; then, per run, a new process opens
`--pool` Index objects on it, as the server's IndexPool does, and each answers BM25
queries: its resident memory (VmRSS) after, minus before the first was opened (median of
`--runs` processes). Run it with PYTHONPATH pointing at another checkout to compare.

`ingest`: `--chunks` records (one chunk each, ~100 words) ingested through
`Index.ingest_records` into a fresh SQLite index (one ingest), then `--more` new records
in a second ingest (the first ones given again, unchanged): the seconds of each (median of
`--runs`), whether the keyword engine's files serve the new state after it
(`status()["keyword_snapshot"]`, where the code has it), and the second ingest again on
copies of the index opened with `Settings(bm25="sql")` (no keyword engine kept), with and
without the FTS5 triggers that keep the SQL BM25: what that upkeep costs an ingest.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from bm25_latency import SEED, VOCABULARY, build_index, vocabulary, zipf_probabilities
from common import machine_note, pin_threads, table

from preuve.evaluate.datasets import Record
from preuve.index import Index
from preuve.settings import Settings


def rss_kb() -> int:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


def ready(index: Index, terms: str) -> None:
    """Until BM25 is answered by the keyword engine (a background build may run first)."""
    while True:
        index.search(terms, method="bm25", k=10, audience="public")
        stats = index.engine.stats()["keyword"]
        if stats["rows"] is not None and not stats["building"]:
            return
        time.sleep(1)


def pool_child(path: str, size: int, queries: list[str]) -> None:
    """One process: `size` Index objects on `path`, each answering the queries."""
    before = rss_kb()
    pool = [Index(path, embedder="none") for _ in range(size)]
    started = time.perf_counter()
    for index in pool:
        ready(index, queries[0])
        for query in queries:
            index.search(query, method="bm25", k=10, audience="public")
    seconds = time.perf_counter() - started
    stats = pool[0].engine.stats()["keyword"]
    print(json.dumps({"rss_mb": (rss_kb() - before) / 1024, "seconds": seconds,
                      "builds": sum(i.engine.stats()["keyword"]["builds"] for i in pool),
                      "users": stats.get("users")}))
    for index in pool:
        index.close()


def bench_pool(n_chunks: int, size: int, runs: int) -> None:
    vocab = vocabulary(VOCABULARY, np.random.default_rng(SEED))
    built = build_index(n_chunks, vocab)
    queries = [" ".join(vocab[i] for i in (30 + q, 300 + 7 * q, 3000 + 13 * q)) for q in range(20)]
    with Index(built.path, embedder="none") as index:  # built and saved once, waited for
        started = time.perf_counter()
        ready(index, queries[0])
        prepared = time.perf_counter() - started
        time.sleep(2)  # (impacts saved by a thread of the code before)
    rows = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, __file__, "pool-child", built.path, str(size), json.dumps(queries)],
            check=True, capture_output=True, text=True, env=os.environ)
        rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
    rss = statistics.median(r["rss_mb"] for r in rows)
    print(table(["chunks", "Index objects", "RSS added (MB, median)", "runs (MB)",
                 "builds in the pool", "readers' users", "first process ready (s)"],
                [[f"{n_chunks:,}", size, f"{rss:.0f}",
                  " / ".join(f"{r['rss_mb']:.0f}" for r in rows), rows[0]["builds"],
                  rows[0]["users"], f"{prepared:.1f}"]]))


def records(n: int, first: int, seed: int) -> list[Record]:
    rng = np.random.default_rng(seed)
    vocab = vocabulary(5000, np.random.default_rng(SEED))
    cdf = np.cumsum(zipf_probabilities(5000))
    out = []
    for i in range(first, first + n):
        words = np.searchsorted(cdf, rng.random(int(rng.integers(80, 121))), side="right")
        out.append(Record(f"r{i}", f"Record {i}",
                          " ".join(vocab[min(w, 4999)] for w in words) + "."))
    return out


def ingest_seconds(path: str, batch: list[Record], settings: Settings | None = None
                   ) -> tuple[float, str]:
    with Index(path, embedder="none", settings=settings) as index:
        started = time.perf_counter()
        report = index.ingest_records(batch, source="bench", language="en")
        seconds = time.perf_counter() - started
        assert report.added, "nothing ingested"
        return seconds, str(index.status().get("keyword_snapshot", "(not reported)"))


def without_fts_triggers(path: str) -> None:
    db = sqlite3.connect(path)
    for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' "
                              "AND name LIKE 'lex_%'").fetchall():
        db.execute(f"DROP TRIGGER {name}")
    db.commit()
    db.close()


def bench_ingest(n: int, more: int, runs: int) -> None:
    # (a collection's ingest removes the records it is not given: the second gives all)
    first_batch = records(n, 0, 1)
    second_batch = first_batch + records(more, n, 2)
    found: dict[str, list[float]] = {}
    states: dict[str, str] = {}
    for _ in range(runs):
        folder = Path(tempfile.mkdtemp(prefix="preuve-kw-ingest-"))
        try:
            path = str(folder / "index.sqlite")
            for name, batch in (("first", first_batch), ("second", second_batch)):
                if name == "second":  # copies before it: the SQL-only variants
                    for copy in ("sql", "sql-no-fts"):
                        shutil.copy(path, folder / f"{copy}.sqlite")
                seconds, state = ingest_seconds(path, batch)
                found.setdefault(name, []).append(seconds)
                states[name] = state
            for copy in ("sql", "sql-no-fts"):
                location = str(folder / f"{copy}.sqlite")
                if copy == "sql-no-fts":
                    without_fts_triggers(location)
                seconds, _ = ingest_seconds(location, second_batch, Settings(bm25="sql"))
                found.setdefault(f"second, {copy}", []).append(seconds)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    labels = {"first": f"first ingest, {n:,} records into a new index",
              "second": f"second ingest, {more:,} more",
              "second, sql": f"second ingest, {more:,} more, bm25=sql (no keyword engine kept)",
              "second, sql-no-fts": "the same without the FTS5 triggers (no SQL BM25 upkeep)"}
    print(table(["ingest", "seconds (median)", "runs", "keyword files after"],
                [[labels[k], f"{statistics.median(v):.2f}", " / ".join(f"{x:.2f}" for x in v),
                  states.get(k, "")] for k, v in found.items()]))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "pool-child":
        pool_child(sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["pool", "ingest"])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--pool", type=int, default=8, help="Index objects (IndexPool: 8)")
    parser.add_argument("--more", type=int, default=3_000, help="records of the second ingest")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    pin_threads()
    if args.what == "pool":
        bench_pool(args.chunks, args.pool, args.runs)
    else:
        bench_ingest(args.chunks, args.more, args.runs)
    print(machine_note())


if __name__ == "__main__":
    main()
