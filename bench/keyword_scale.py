"""BM25 and hybrid through the in-memory keyword index at scale, on both stores.

    .venv/bin/python bench/keyword_scale.py --sqlite 1000000            # bm25 + dense + hybrid
    .venv/bin/python bench/keyword_scale.py --pg URL --pg-size 1000000  # PostgreSQL bm25, readers
    .venv/bin/python bench/keyword_scale.py --pg URL --pg-vectors      # PostgreSQL hybrid

SQLite: the cached synthetic index of bench/dense_latency.py (text and vectors), each query
under F0 / public / staff / F1 / F2 through `Index.search` (the filters as its arguments):
bm25 (the keyword index; and the FTS5 SQL it replaced, an Index opened with
`Settings(bm25="sql")`, `--sql-runs`), dense (the store's default: IVF at this size) and
hybrid, on an Index whose embedder returns a fixed query vector (model time excluded).

PostgreSQL: a schema loaded in bulk (COPY) with the documents and chunks of
bench/bm25_latency.py's cached SQLite index of that size: what the keyword index reads (the
bench's own COPY through psycopg, into a schema `Index` created).
The `lexical` table and its statistics are not loaded (so the SQL BM25 of before cannot
run on it: its figures are stores.py's), nor vectors. Measured: the index built from the
rows (first query of a process, saved in the cache folder), loaded by a new process, the
bm25 p50/p95 per filter (`Index.search`), and reader processes (an Index with one
connection each) cycling bm25 queries under F0/F1/F2 for `--seconds`. With `--pg-vectors`
the schema is stores.py's `stores_N` instead (built through `index.engine.load`, with vectors and
the HNSW index: `bench/stores.py --build-only URL`), where bm25, dense and hybrid are
measured too.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sqlite3
import time
import uuid

import numpy as np
from bm25_latency import (
    FILTERS,
    SEED,
    VOCABULARY,
    keyword_ready,
    make_queries,
    vocabulary,
)
from common import OUT, machine_note, p50_p95_cpu, percentile, pin_threads, table

from preuve.index import Index, sibling_index
from preuve.settings import Settings

K = 10
NO_HNSW = 10**12  # a threshold never reached: no HNSW index is built
UNFILTERED = FILTERS["F0 none (operator)"]


def bm25(index: Index, terms: list[str], filters: dict) -> list:
    """A user's BM25 query through the door."""
    return index.search(" ".join(terms), method="bm25", k=K, **filters)


def open_pg(url: str, pool: int | None = None) -> Index:
    return Index(url, embedder="none", settings=Settings(hnsw_threshold=NO_HNSW, pg_pool=pool))


def p50_p95(fn, items, runs: int, cpu: list | None = None) -> tuple[float, float]:
    """(p50, p95 ms of wall time); `cpu` gets the p50 ms of this process's CPU time."""
    p50, p95, used = p50_p95_cpu(fn, items, runs)
    if cpu is not None:
        cpu.append(used)
    return p50, p95


# -- SQLite --------------------------------------------------------------------------------
def query_pairs(n: int, queries: int):
    """(query vector, words) pairs: dense_latency's query vectors for its size-n file."""
    from dense_latency import Topics, build_index, query_vectors

    vocab = vocabulary(VOCABULARY, np.random.default_rng(SEED))
    topics = Topics.make(SEED + 3)
    built = build_index(n, vocab, topics)
    qv = query_vectors(built.path, topics, queries, SEED + 11)
    vectors = np.concatenate([qv["perturbed"], qv["fresh"]])
    texts = make_queries(len(vectors), vocab, SEED + 1)
    return built.path, list(zip(vectors, texts, strict=True))


def method_rows(n: int, index: Index, embedder, pairs, runs: int, sql_index: Index | None,
                sql_runs: int) -> list[list[object]]:
    """A row per filter: bm25, dense, hybrid (and bm25 through `sql_index`) p50/p95 ms."""
    from dense_latency import search as door_search

    for v, t in pairs[:5]:  # warm: matrix, ANN, caches
        door_search(index, embedder, v, " ".join(t), UNFILTERED, "hybrid", K)
    rows = []
    for name, f in FILTERS.items():
        def keyword(p, f=f):
            return bm25(index, p[1], f)

        def dense(p, f=f):
            return door_search(index, embedder, p[0], " ".join(p[1]), f, "dense", K)

        def both(p, f=f):
            return door_search(index, embedder, p[0], " ".join(p[1]), f, "hybrid", K)

        def sql(p, f=f):
            return bm25(sql_index, p[1], f)

        row, cpu = [f"{n:,}", name], []
        for fn, r in ((keyword, runs), (dense, runs), (both, runs),
                      (sql, sql_runs if sql_index else 0)):
            row += list(p50_p95(fn, pairs, r, cpu)) if r else [float("nan")] * 2
        rows.append(row + [cpu[0], cpu[2]])
        print(f"<!-- {row} -->", flush=True)
    return rows


def sqlite_rows(n: int, queries: int, runs: int, sql_runs: int) -> list[list[object]]:
    from dense_latency import FixedEmbedder, open_index

    path, pairs = query_pairs(n, queries)
    embedder = FixedEmbedder()
    index = open_index(path, None, embedder)  # the store's defaults
    sql_index = Index(path, embedder=FixedEmbedder(), settings=Settings(bm25="sql"))
    _, first = keyword_ready(index, pairs[0][1])
    rows = method_rows(n, index, embedder, pairs, runs, sql_index, sql_runs)
    sql_index.close()
    index.close()
    print(f"<!-- first query (keyword index built or loaded): {first:.1f} s -->")
    return rows


def pg_vector_rows(base: str, n: int, queries: int, runs: int) -> list[list[object]]:
    """bm25, dense, hybrid on stores.py's schema `stores_N` (vectors, HNSW index): the
    PostgreSQL store's defaults (HNSW from 50,000 chunks), the same query pairs."""
    from dense_latency import FixedEmbedder

    _, pairs = query_pairs(n, queries)
    embedder = FixedEmbedder()
    url = f"{base}?options=-csearch_path%3Dstores_{n}"
    index = Index(url, embedder=embedder, settings=Settings(hnsw_threshold=50_000))
    assert index.status()["chunks"] == n, "build it first: bench/stores.py --build-only URL"
    _, first = keyword_ready(index, pairs[0][1])
    print(f"<!-- PostgreSQL: keyword index ready after {first:.1f} s -->", flush=True)
    rows = method_rows(n, index, embedder, pairs, runs, None, 0)
    index.close()
    return rows


# -- PostgreSQL ----------------------------------------------------------------------------
def load_pg(base: str, n: int) -> str:
    """A schema `kw_N` with the documents and chunks of the SQLite bm25 index of size n."""
    import psycopg

    url = sibling_index(base, f"kw_{n}")
    with open_pg(url) as index:
        if index.status()["chunks"] == n:
            return url
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS kw_{n} CASCADE")
    open_pg(url).close()  # creates the schema, migrated
    # dense_latency.py's file of that size has the same chunks (same generator and seeds)
    name = next((f for f in (f"bm25-{n}.sqlite", f"dense-{n}.sqlite") if (OUT / f).exists()),
                f"bm25-{n}.sqlite")
    source = sqlite3.connect(str(OUT / name))
    started = time.perf_counter()
    with psycopg.connect(url) as conn, conn.cursor() as cur:
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
    return url


def pg_reader(url: str, texts, seed: int, seconds: float, barrier, results) -> None:
    index = open_pg(url, pool=1)
    keyword_ready(index, texts[0])  # loads the saved keyword index
    filters = [FILTERS[name] for name in FILTERS if name.startswith("F")]
    rng = np.random.default_rng(seed)
    barrier.wait()
    out = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        start = time.perf_counter()
        bm25(index, texts[int(rng.integers(len(texts)))],
             filters[int(rng.integers(len(filters)))])
        out.append(time.perf_counter() - start)
    results.put(out)
    index.close()


def pg_rows(base: str, n: int, queries: int, runs: int, readers: list[int], seconds: float,
            keep: bool = False, url: str | None = None):
    url = url or load_pg(base, n)
    with open_pg(url) as index:
        saved = index.engine.stats()["keyword"]["files"]
    for leftover in [] if keep else saved:
        if os.path.exists(leftover):
            os.remove(leftover)
    vocab = vocabulary(VOCABULARY, np.random.default_rng(SEED))
    texts = make_queries(queries, vocab, SEED + 1)
    index = open_pg(url)
    _, build = keyword_ready(index, texts[0])
    index.close()
    index = open_pg(url)
    _, load = keyword_ready(index, texts[0])
    cost = [[f"{n:,}", build, load, index.engine.stats()["keyword"]["builds"]]]
    rows = []
    for name, f in FILTERS.items():
        rows.append([f"{n:,}", name, *p50_p95(lambda t, f=f: bm25(index, t, f), texts, runs)])
        print(f"<!-- {rows[-1]} -->", flush=True)
    index.close()
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
    parser.add_argument("--pg-vectors", action="store_true",
                        help="with --pg: bm25/dense/hybrid on stores.py's schema stores_N "
                             "(vectors and HNSW), then its bm25 rows and readers")
    parser.add_argument("--pg-stores", action="store_true",
                        help="with --pg: the bm25 rows and readers on stores_N, no vectors")
    args = parser.parse_args()
    if args.sqlite:
        rows = sqlite_rows(args.sqlite, args.queries // 2, args.runs, args.sql_runs)
        print(f"\n### SQLite, {args.sqlite:,} chunks: p50 / p95 ms, top {K} (keyword index; "
              "dense: the store's default; hybrid: RRF of both, model time excluded)\n")
        print(table(["chunks", "filter", "bm25 p50", "bm25 p95", "dense p50", "dense p95",
                     "hybrid p50", "hybrid p95", "bm25 SQL p50 (before)",
                     "bm25 SQL p95 (before)", "bm25 CPU p50", "hybrid CPU p50"], rows))
    if args.pg and args.pg_vectors:
        rows = pg_vector_rows(args.pg, args.pg_size, args.queries // 2, args.runs)
        print(f"\n### PostgreSQL, {args.pg_size:,} chunks (stores.py's schema): p50 / p95 ms, "
              f"top {K} (keyword index; dense: HNSW; hybrid: RRF of both, model time "
              "excluded)\n")
        print(table(["chunks", "filter", "bm25 p50", "bm25 p95", "dense p50", "dense p95",
                     "hybrid p50", "hybrid p95", "-", "-", "bm25 CPU p50 (client)",
                     "hybrid CPU p50 (client)"], rows))
    if args.pg:
        readers = [int(r) for r in args.readers.split(",")]
        stores = f"{args.pg}?options=-csearch_path%3Dstores_{args.pg_size}"
        cost, rows, load_rows = pg_rows(args.pg, args.pg_size, args.queries, args.runs,
                                        readers, args.seconds,
                                        args.keep_index or args.pg_vectors or args.pg_stores,
                                        stores if args.pg_vectors or args.pg_stores else None)
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
