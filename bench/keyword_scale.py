"""BM25 and hybrid through the in-memory keyword index at scale, on both stores.

    .venv/bin/python bench/keyword_scale.py --sqlite 1000000            # bm25 + dense + hybrid
    .venv/bin/python bench/keyword_scale.py --pg URL --pg-size 1000000  # PostgreSQL bm25, readers

SQLite: the cached synthetic index of bench/dense_latency.py (text and vectors), each query
under F0 / public / staff / F1 / F2 through `search_bm25` (the keyword index; and the FTS5
SQL it replaced, `--sql-runs`), `search_dense` (the store's default: IVF at this size) and
`preuve.retrieve.hybrid` with a fixed query vector (model time excluded).

PostgreSQL: a schema loaded in bulk (COPY) with the documents and chunks of
bench/bm25_latency.py's cached SQLite index of that size: what the keyword index reads.
The `lexical` table and its statistics are not loaded (so the SQL BM25 of before cannot
run on it: its figures are stores.py's), nor vectors. Measured: the index built from the
rows (first query of a process, saved in the cache folder), loaded by a new process, the
bm25 p50/p95 per filter, and reader processes (own connection each) cycling bm25 queries
under F0/F1/F2 for `--seconds`.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import statistics
import time
import uuid

import numpy as np
from bm25_latency import FILTERS, SEED, VOCABULARY, latencies, make_queries, vocabulary
from common import OUT, machine_note, percentile, pin_threads, table

from preuve.models import Filters
from preuve.store import keyword as kw

K = 10


def p50_p95(fn, items, runs: int) -> tuple[float, float]:
    p50s, p95s = [], []
    for _ in range(runs):
        times = latencies(fn, items)
        p50s.append(percentile(times, 50) * 1000)
        p95s.append(percentile(times, 95) * 1000)
    return statistics.median(p50s), statistics.median(p95s)


# -- SQLite --------------------------------------------------------------------------------
def sqlite_rows(n: int, queries: int, runs: int, sql_runs: int) -> list[list[object]]:
    from dense_latency import MODEL, FixedEmbedder, Topics, build_index, query_vectors

    from preuve.retrieve import Options, hybrid
    from preuve.store.sqlite import SQLiteStore

    vocab = vocabulary(VOCABULARY, np.random.default_rng(SEED))
    topics = Topics.make(SEED + 3)
    built = build_index(n, vocab, topics)
    store = SQLiteStore(built.path)
    started = time.perf_counter()
    store.search_bm25(["x"], Filters(), K)
    first = time.perf_counter() - started
    qv = query_vectors(store, topics, queries, SEED + 11)
    vectors = np.concatenate([qv["perturbed"], qv["fresh"]])
    texts = make_queries(len(vectors), vocab, SEED + 1)
    embedder = FixedEmbedder()
    for v, t in zip(vectors[:5], texts[:5], strict=True):  # warm: matrix, ANN, caches
        store.search_dense(v, MODEL, Filters(), K)
        store.search_bm25(t, Filters(), K)
    pairs = list(zip(vectors, texts, strict=True))
    rows = []
    for name, f in FILTERS.items():
        def bm25(p, f=f):
            return store.search_bm25(p[1], f, K)

        def dense(p, f=f):
            return store.search_dense(p[0], MODEL, f, K)

        def both(p, f=f):
            embedder.vector = p[0]
            return hybrid(store, " ".join(p[1]), f, K, Options(embedder=embedder))

        def sql(p, f=f):
            store.bm25_engine = False
            try:
                return store.search_bm25(p[1], f, K)
            finally:
                store.bm25_engine = True

        row = [f"{n:,}", name]
        for fn, r in ((bm25, runs), (dense, runs), (both, runs), (sql, sql_runs)):
            row += list(p50_p95(fn, pairs, r)) if r else [float("nan")] * 2
        rows.append(row)
        print(f"<!-- {row} -->", flush=True)
    store.close()
    print(f"<!-- first query (keyword index built or loaded): {first:.1f} s -->")
    return rows


# -- PostgreSQL ----------------------------------------------------------------------------
def load_pg(base: str, n: int) -> str:
    """A schema `kw_N` with the documents and chunks of the SQLite bm25 index of size n."""
    import sqlite3

    import psycopg

    from preuve.store.postgres import PostgresStore, with_schema

    url = with_schema(base, f"kw_{n}")
    store = PostgresStore(url, hnsw_threshold=10**12)
    with store._cursor() as cur:
        cur.execute("SELECT count(*) FROM chunks")
        if cur.fetchone()[0] == n:
            store.close()
            return url
    store.close()
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS kw_{n} CASCADE")
    store = PostgresStore(url, hnsw_threshold=10**12)
    source = sqlite3.connect(str(OUT / f"bm25-{n}.sqlite"))
    started = time.perf_counter()
    with store.pool.connection() as conn, conn.cursor() as cur:
        with cur.copy("COPY documents (doc_id, path, root, kind, title, language, "
                      "content_hash, access, version, effective_from, effective_to, size, "
                      "pages, meta, indexed_at) FROM STDIN") as copy:
            for row in source.execute(
                    "SELECT doc_id, path, root, kind, title, language, content_hash, access, "
                    "version, effective_from, effective_to, size, pages, meta, indexed_at "
                    "FROM documents ORDER BY doc_id"):
                copy.write_row(row)
        with cur.copy("COPY chunks (id, chunk_id, doc_id, ordinal, path, kind, access, "
                      "effective_from, effective_to, heading, page, page_label, start_line, "
                      "end_line, symbol, symbol_kind, text, tokens, text_hash, length, role, "
                      "title_tokens) FROM STDIN") as copy:
            for row in source.execute(
                    "SELECT id, chunk_id, doc_id, ordinal, path, kind, access, effective_from, "
                    "effective_to, heading, page, page_label, start_line, end_line, symbol, "
                    "symbol_kind, text, tokens, text_hash, role, title_tokens FROM chunks "
                    "ORDER BY id"):
                copy.write_row((*row[:19], len(row[17].split()), *row[19:]))
        cur.execute("SELECT setval(pg_get_serial_sequence('chunks', 'id'), max(id)) FROM chunks")
        cur.execute("INSERT INTO meta (key, value) VALUES ('generation', '1'), ('state', %s) "
                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (uuid.uuid4().hex[:16],))
        cur.execute("INSERT INTO lexicon_parts (label, chunks, tokens) SELECT access, count(*), "
                    "sum(length) FROM chunks GROUP BY access")
    print(f"<!-- loaded {n:,} chunks into PostgreSQL in {time.perf_counter() - started:.0f} s "
          "-->", flush=True)
    source.close()
    store.close()
    return url


def pg_reader(url: str, texts, seed: int, seconds: float, barrier, results) -> None:
    from preuve.store.postgres import PostgresStore

    store = PostgresStore(url, pool_size=1, hnsw_threshold=10**12)
    store.search_bm25(texts[0], Filters(), K)  # loads the saved keyword index
    filters = [FILTERS[name] for name in FILTERS if name.startswith("F")]
    rng = np.random.default_rng(seed)
    barrier.wait()
    out = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        start = time.perf_counter()
        store.search_bm25(texts[int(rng.integers(len(texts)))],
                          filters[int(rng.integers(len(filters)))], K)
        out.append(time.perf_counter() - start)
    results.put(out)
    store.close()


def pg_rows(base: str, n: int, queries: int, runs: int, readers: list[int], seconds: float,
            keep: bool = False):
    from preuve.store.postgres import PostgresStore

    url = load_pg(base, n)
    path = kw.cache_path(PostgresStore(url, hnsw_threshold=10**12).location, f"kw_{n}")
    for leftover in [] if keep else (path, *[p for p in os.listdir(os.path.dirname(path))
                             if p.startswith(os.path.basename(path)[:-4])]):
        full = os.path.join(os.path.dirname(path), os.path.basename(leftover))
        if os.path.exists(full):
            os.remove(full)
    vocab = vocabulary(VOCABULARY, np.random.default_rng(SEED))
    texts = make_queries(queries, vocab, SEED + 1)
    store = PostgresStore(url, hnsw_threshold=10**12)
    started = time.perf_counter()
    store.search_bm25(texts[0], Filters(), K)
    build = time.perf_counter() - started
    store.close()
    store = PostgresStore(url, hnsw_threshold=10**12)
    started = time.perf_counter()
    store.search_bm25(texts[0], Filters(), K)
    load = time.perf_counter() - started
    cost = [[f"{n:,}", build, load, store.keywords.builds]]
    rows = []
    for name, f in FILTERS.items():
        rows.append([f"{n:,}", name, *p50_p95(lambda t, f=f: store.search_bm25(t, f, K),
                                               texts, runs)])
        print(f"<!-- {rows[-1]} -->", flush=True)
    store.close()
    ctx = mp.get_context("spawn")
    load_rows = []
    for count in readers:
        barrier, results = ctx.Barrier(count + 1), ctx.Queue()
        procs = [ctx.Process(target=pg_reader, args=(url, texts, s, seconds, barrier, results))
                 for s in range(count)]
        for p in procs:
            p.start()
        barrier.wait()
        every = [t for _ in procs for t in results.get(timeout=seconds + 900)]
        for p in procs:
            p.join()
        load_rows.append([f"{n:,}", count, len(every) / seconds,
                          percentile(every, 50) * 1000, percentile(every, 95) * 1000])
        print(f"<!-- readers {load_rows[-1]} -->", flush=True)
    return cost, rows, load_rows


def main() -> None:
    pin_threads()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sqlite", type=int, default=0, help="SQLite size (dense_latency's)")
    parser.add_argument("--pg", default="", help="PostgreSQL server URL")
    parser.add_argument("--pg-size", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sql-runs", type=int, default=0)
    parser.add_argument("--readers", default="8")
    parser.add_argument("--keep-index", action="store_true",
                        help="reuse a saved keyword index (its build time is then a load)")
    parser.add_argument("--seconds", type=float, default=25)
    args = parser.parse_args()
    if args.sqlite:
        rows = sqlite_rows(args.sqlite, args.queries // 2, args.runs, args.sql_runs)
        print(f"\n### SQLite, {args.sqlite:,} chunks: p50 / p95 ms, top {K} (keyword index; "
              "dense: the store's default; hybrid: RRF of both, model time excluded)\n")
        print(table(["chunks", "filter", "bm25 p50", "bm25 p95", "dense p50", "dense p95",
                     "hybrid p50", "hybrid p95", "bm25 SQL p50 (before)",
                     "bm25 SQL p95 (before)"], rows))
    if args.pg:
        readers = [int(r) for r in args.readers.split(",")]
        cost, rows, load_rows = pg_rows(args.pg, args.pg_size, args.queries, args.runs,
                                        readers, args.seconds, args.keep_index)
        print(f"\n### PostgreSQL, {args.pg_size:,} chunks: the keyword index built from the "
              "rows (first process), loaded from the cache folder (next process)\n")
        print(table(["chunks", "build s", "load s", "builds (2nd process)"], cost))
        print(f"\n### PostgreSQL bm25 through the keyword index, p50 / p95 ms, top {K}\n")
        print(table(["chunks", "filter", "p50", "p95"], rows))
        print(f"\n### Concurrent bm25 readers ({args.seconds:.0f} s, F0/F1/F2 at random)\n")
        print(table(["chunks", "readers", "queries/s", "p50 ms", "p95 ms"], load_rows))
    print("\n" + machine_note())


if __name__ == "__main__":
    main()
