"""SQLite against PostgreSQL + pgvector on the same synthetic index: latency, ingest, recall, load.

    .venv/bin/python bench/stores.py                    # 100k and 1M chunks
    .venv/bin/python bench/stores.py --quick            # 10k chunks only
    .venv/bin/python bench/stores.py --sizes 100000     # chosen sizes
    .venv/bin/python bench/stores.py --seconds 20 --readers 8,32

The data is bench/dense_latency.py's (same generator, same seeds: chunks of 80-150 Zipfian
words, ten per document, filters F0/F1/F2, 384-d topic-structured vectors). The SQLite side
reuses its cached index bench/out/dense-N.sqlite (built there if missing). The PostgreSQL side
runs in a durable server this script starts in bench/out/pg (stopped at the end) and is
cached there, one schema per size (`stores_N`; dropped and rebuilt when the build parameters
change: drop the folder to force it). It is built through `index.engine.load` with the same
batches (vectors first, as `preuve ingest` does, so each chunk row is written once with its
vector): the HNSW index is built once at the end by the store itself (CREATE INDEX
CONCURRENTLY), timed apart (`--no-hnsw` keeps PostgreSQL dense search exact). A cached
schema whose rows still match is reused whatever its schema version (opening migrates it);
a missing HNSW index is built then (`index.engine.build_hnsw`) and timed. Everything preuve does
goes through `preuve.index.Index`, the knobs through `Settings` (hnsw_threshold, pg_pool);
the reference queries the bench writes itself (PostgreSQL exact, its plan) use psycopg.

Measured, PostgreSQL against SQLite in the same run:

1. query latency p50/p95 (median of runs) of bm25, dense and hybrid (`Index.search` with
   the filters as arguments, on an Index whose embedder returns the query's fixed vector:
   model time excluded) per filter.
   Each store in its default mode: SQLite dense exact below 200k chunks, IVF above; PostgreSQL
   dense through HNSW (ef_search 100, iterative scan) once the index exists, which the store
   builds above `PREUVE_HNSW_THRESHOLD` (50k; forced at the 10k quick size);
2. ingest: the bulk build (chunks/s inside put_vectors + apply, HNSW build apart), then an
   appended slice of 20k new chunks into each store at full size (SQLite: a scratch copy of
   the cached file; PostgreSQL: with its HNSW index maintained; removed afterwards);
3. HNSW recall@10 against exact search on the same PostgreSQL data (the order expression
   `+ 0` keeps the planner off the index), per filter, and agreement of PostgreSQL top 10
   (exact and HNSW) with SQLite exact top 10 (half against single precision);
4. 8 and 32 reader processes (each its own connection) cycling hybrid/bm25/dense queries
   under random filters for `--seconds`, without and then with a concurrent ingest
   (put_vectors + apply of 1,000-chunk batches, removed afterwards): queries/s, p50/p95,
   ingest chunks/s under load.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing as mp
import os
import shutil
import statistics
import time
from dataclasses import dataclass

import numpy as np
import psycopg
from bm25_latency import (
    BATCH_DOCS,
    CHUNKS_PER_DOC,
    FILTERS,
    SEED,
    VOCABULARY,
    kept_fraction,
    keyword_ready,
    make_queries,
    remove_index,
    vocabulary,
)
from common import OUT, machine_note, percentile, pin_threads, table
from dense_latency import (
    DIM,
    EXACT,
    MODEL,
    FixedEmbedder,
    Topics,
    batches,
    open_index,
    query_vectors,
)
from dense_latency import build_index as build_sqlite
from dense_latency import search as door_search

from preuve.index import Index, local_postgres
from preuve.models import Filters
from preuve.settings import Settings

K = 10
PG_DIR = OUT / "pg"
CACHE_KEY = "bench.stores"
DEFAULT_HNSW = 50_000  # PostgresStore's default threshold
NO_HNSW = 10**12  # a threshold never reached: the store stays exact
SLICE_DOCS, SLICE_BATCH = 2_000, 500  # appended slice: 20k chunks in 4 applies
LOAD_BATCH = 100  # documents per apply during the concurrent-readers test
METHODS = ("hybrid", "bm25", "dense")


# -- data ---------------------------------------------------------------------------------
def extra_batches(n_chunks: int, n_docs: int, per_batch: int, salt: int, vocab, topics):
    """New documents numbered after the index's own (removed again after each test)."""
    first = n_chunks // CHUNKS_PER_DOC + salt * 1_000_000
    return list(batches(first, n_docs, per_batch, vocab, topics,
                        np.random.default_rng(SEED + n_chunks + salt + 1),
                        np.random.default_rng(SEED + 7 * n_chunks + salt + 1)))


def ingest(index: Index, part) -> tuple[float, float, int]:
    """(put_vectors s, apply s, chunks) of one batch, vectors first as `preuve ingest`."""
    batch, vectors = part
    spent = index.engine.load([batch], vectors=lambda _: vectors, model=MODEL)
    return spent["vectors"], spent["apply"], len(vectors)


def remove_extra(index: Index, url: str, parts) -> None:
    """Drop appended documents (`Index.forget`) and their cached vectors (the bench's own
    SQL: the cache of vectors is not something a user removes): the index as it was built."""
    ids = [doc.doc_id for part, _ in parts for doc, _ in part]
    hashes = [h for _, vectors in parts for h, _ in vectors]
    index.forget(ids, exact_ids=True)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DELETE FROM vectors WHERE model = %s AND text_hash = ANY(%s)",
                     (MODEL, hashes))


def open_pg(url: str, threshold: int | None = None, embedder: FixedEmbedder | None = None,
            pool: int | None = None) -> Index:
    """The PostgreSQL index through the door (`threshold`: hnsw_threshold)."""
    return Index(url, embedder=embedder or FixedEmbedder(),
                 settings=Settings(hnsw_threshold=threshold, pg_pool=pool))


# -- the PostgreSQL index -------------------------------------------------------------------
@dataclass
class PgBuilt:
    url: str
    info: dict
    cached: bool


def pg_url(base: str, n_chunks: int) -> str:
    return f"{base}?options=-csearch_path%3Dstores_{n_chunks}"


def build_pg(base: str, n_chunks: int, vocab, topics, use_hnsw: bool) -> PgBuilt:
    url = pg_url(base, n_chunks)
    threshold = min(DEFAULT_HNSW, n_chunks) if use_hnsw else NO_HNSW
    index = open_pg(url, threshold)
    params = {"chunks": n_chunks, "seed": SEED, "vocabulary": VOCABULARY, "model": MODEL,
              "schema": index.engine.schema_version, "hnsw_threshold": threshold,
              "route": "put_vectors+apply, HNSW at the end"}
    info = json.loads(index.engine.meta(CACHE_KEY) or "{}")

    def data(p: dict) -> dict:  # what decides the rows; opening migrates the schema
        return {k: v for k, v in p.items() if k not in ("schema", "hnsw_threshold")}

    if info.get("params") and data(info["params"]) == data(params):
        if use_hnsw and not index.engine.hnsw_ready:
            started = time.perf_counter()
            index.engine.build_hnsw()
            info["hnsw_seconds"] = time.perf_counter() - started
        elif not use_hnsw and index.engine.hnsw_ready:
            index.engine.drop_hnsw()
        stats = index.status()
        info.update(params=params, size_bytes=stats["size_bytes"],
                    hnsw_bytes=stats["dense_index_bytes"])
        index.engine.set_meta(CACHE_KEY, json.dumps(info))
        index.close()
        return PgBuilt(url, info, cached=True)
    # an interrupted build goes on where it stopped (the batches are deterministic)
    done = json.loads(index.engine.meta(CACHE_KEY + ".partial") or "{}")
    if done.get("params") != params:
        index.close()
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "stores_{int(n_chunks)}" CASCADE')
        index = open_pg(url, threshold)
        done = {"params": params, "batches": 0, "put": 0.0, "apply": 0.0, "load": 0.0}
    # HNSW held back while loading (else each row past the threshold is a graph insert),
    # then built once by the store when `load` ends
    started = time.perf_counter()
    clock = {"mark": started}
    n_docs = n_chunks // CHUNKS_PER_DOC
    pending: list[list] = []

    def todo():
        for i, (batch, vectors) in enumerate(batches(
                0, n_docs, BATCH_DOCS, vocab, topics, np.random.default_rng(SEED + n_chunks),
                np.random.default_rng(SEED + 7 * n_chunks))):
            if i < done["batches"]:
                clock["mark"] = time.perf_counter()
                continue  # generated all the same: the random streams stay in step
            pending.append(vectors)
            yield batch

    def after_batch(step: dict) -> None:
        now = time.perf_counter()
        done.update(batches=done["batches"] + 1, put=done["put"] + step["vectors"],
                    apply=done["apply"] + step["apply"],
                    load=done["load"] + now - clock["mark"])  # generation of the batch included
        clock["mark"] = now
        index.engine.set_meta(CACHE_KEY + ".partial", json.dumps(done))
        if done["batches"] % 20 == 0:
            print(f"<!-- pg {n_chunks:,}: {done['batches'] * BATCH_DOCS * CHUNKS_PER_DOC:,} "
                  f"chunks, {now - started:.0f} s -->", flush=True)

    index.engine.load(todo(), vectors=lambda _: pending.pop(0), model=MODEL, progress=after_batch)
    hnsw = time.perf_counter() - clock["mark"] if use_hnsw else float("nan")
    assert index.engine.hnsw_ready == use_hnsw
    load, put, app = done["load"], done["put"], done["apply"]
    stats = index.status()
    info = {"params": params, "load_seconds": load, "put_vectors_seconds": put,
            "apply_seconds": app, "hnsw_seconds": hnsw,
            "size_bytes": stats["size_bytes"], "hnsw_bytes": stats["dense_index_bytes"]}
    index.engine.set_meta(CACHE_KEY, json.dumps(info))
    index.close()
    return PgBuilt(url, info, cached=False)


# -- measurements ---------------------------------------------------------------------------
def run_one(index: Index, method: str, vector, text: str, filters: dict,
            embedder: FixedEmbedder) -> list[str]:
    return [h.chunk_id for h in door_search(index, embedder, vector, text, filters, method)]


def timed_runs(index, embedder, method, vectors, texts, filters, runs):
    """(median p50 ms, median p95 ms, ids of the last run)."""
    p50s, p95s, ids = [], [], []
    for _ in range(runs):
        times, ids = [], []
        for vector, text in zip(vectors, texts, strict=True):
            start = time.perf_counter()
            ids.append(run_one(index, method, vector, text, filters, embedder))
            times.append(time.perf_counter() - start)
        p50s.append(percentile(times, 50) * 1000)
        p95s.append(percentile(times, 95) * 1000)
    return statistics.median(p50s), statistics.median(p95s), ids


def reference_where(filters: dict) -> tuple[str, list]:
    """The filters as SQL conditions on `chunks c`, for the queries the bench writes
    itself (the same rows `Index.search` is allowed to rank: labels the audience reads,
    in force on the day, under the path prefixes, no navigation chunks)."""
    as_of = filters.get("as_of")
    audience = filters.get("audience")
    labels = Filters(audience=audience).readable_labels()
    clauses, params = ["c.role <> 'navigation'"], []
    if labels is not None:
        clauses.append("c.access = ANY(%s)")
        params.append(list(labels))
    if as_of not in (None, "none"):
        clauses.append("(c.effective_from IS NULL OR c.effective_from <= %s) AND "
                       "(c.effective_to IS NULL OR c.effective_to >= %s)")
        params += [as_of.isoformat()] * 2
    prefixes = list(filters.get("paths", ()))
    if prefixes:
        clauses.append("(" + " OR ".join(["starts_with(c.path, %s)"] * len(prefixes)) + ")")
        params += prefixes
    return " AND ".join(clauses), params


def pg_dense_sql(filters: dict, exact: bool) -> tuple[str, list]:
    where, params = reference_where(filters)
    order = f"(c.embedding::halfvec({DIM})) <#> %s::halfvec({DIM})"
    if exact:
        order = f"({order}) + 0"
    return (f"SELECT c.chunk_id, c.id, {order} AS s FROM chunks c "
            f"WHERE c.embedding IS NOT NULL AND {where} ORDER BY s, c.id LIMIT {K}", params)


def pg_connect(url: str) -> psycopg.Connection:
    """The bench's own connection to the index's schema, pgvector's types on its path."""
    conn = psycopg.connect(url)
    schema = conn.execute("SELECT current_schema()").fetchone()[0]
    ext = conn.execute("SELECT extnamespace::regnamespace::text FROM pg_extension "
                       "WHERE extname = 'vector'").fetchone()[0]
    conn.execute(f'SET search_path TO "{schema}", {ext}')
    return conn


def pg_exact(url: str, vectors, filters) -> tuple[list[float], list[list[str]]]:
    """PostgreSQL exact dense search, the planner kept off the HNSW index (`+ 0`)."""
    sql, params = pg_dense_sql(filters, exact=True)
    times, ids = [], []
    with pg_connect(url) as conn, conn.cursor() as cur:
        for v in vectors:
            start = time.perf_counter()
            cur.execute(sql, [json.dumps(v.tolist()), *params])
            ids.append([row[0] for row in cur.fetchall()])
            times.append(time.perf_counter() - start)
    return times, ids


def pg_plan(url: str, vector, filters) -> str:
    sql, params = pg_dense_sql(filters, exact=False)
    with pg_connect(url) as conn, conn.cursor() as cur:
        cur.execute("EXPLAIN " + sql, [json.dumps(vector.tolist()), *params])
        plan = "\n".join(row[0] for row in cur.fetchall())
    return "HNSW" if "hnsw" in plan else "no index" if "Seq Scan" in plan else "other"


def overlap(a: list[list[str]], b: list[list[str]]) -> float:
    return float(np.mean([len(set(x) & set(y)) / K for x, y in zip(a, b, strict=True)]))


def measure_queries(n, sqlite_path: str, pg_url_: str, threshold: int, vectors, texts, runs,
                    use_hnsw: bool):
    unfiltered = FILTERS["F0 none (operator)"]
    sq_emb, pg_emb, exact_emb = FixedEmbedder(), FixedEmbedder(), FixedEmbedder()
    sq = open_index(sqlite_path, None, sq_emb)  # SQLite's default mode
    sq_exact = open_index(sqlite_path, EXACT, exact_emb)
    pg = open_pg(pg_url_, threshold, pg_emb)
    for index in (sq, pg):  # the keyword index built (in the background) or loaded
        keyword_ready(index, texts[0].split())
    for v, t in zip(vectors[:10], texts[:10], strict=True):  # warm caches, load the matrix
        for index, emb in ((sq, sq_emb), (pg, pg_emb)):
            for method in METHODS:
                run_one(index, method, v, t, unfiltered, emb)
    latency_rows, recall_rows = [], []
    for name, filters in FILTERS.items():
        kept = f"{kept_fraction(sq, filters):.1%}"
        ids = {}
        for method in METHODS:
            s50, s95, _ = timed_runs(sq, sq_emb, method, vectors, texts, filters, runs)
            p50, p95, ids[method] = timed_runs(pg, pg_emb, method, vectors, texts, filters,
                                               runs)
            extra = float("nan")
            if method == "dense" and use_hnsw:
                exact_times, ids["exact"] = pg_exact(pg_url_, vectors, filters)
                extra = percentile(exact_times, 50) * 1000
            elif method == "dense":  # the store's query is the exact one already
                ids["exact"], extra = ids["dense"], p50
            latency_rows.append([f"{n:,}", name, kept, method, s50, s95, p50, p95,
                                 f"{p50 / s50:.2f}×", extra])
        sqlite_exact = [run_one(sq_exact, "dense", v, t, filters, exact_emb)
                        for v, t in zip(vectors, texts, strict=True)]
        hnsw, exact = ids["dense"], ids["exact"]
        recall_rows.append([
            f"{n:,}", name, kept, overlap(hnsw, exact) if use_hnsw else float("nan"),
            min(len(set(a) & set(e)) / K for a, e in zip(hnsw, exact, strict=True))
            if use_hnsw else float("nan"),
            min(len(r) for r in hnsw), overlap(exact, sqlite_exact), overlap(hnsw, sqlite_exact),
            pg_plan(pg_url_, vectors[0], filters)])
        print(f"<!-- {n:,} {name}: {json.dumps(latency_rows[-3:] + recall_rows[-1:])} -->",
              flush=True)
    for index in (sq, sq_exact, pg):
        index.close()
    return latency_rows, recall_rows


def measure_slice(n, sqlite_path: str, pg: Index, url: str, vocab, topics):
    """Appending 20k chunks to the full-size index of each store: chunks/s."""
    parts = extra_batches(n, SLICE_DOCS, SLICE_BATCH, 1, vocab, topics)
    scratch = str(OUT / "stores-scratch.sqlite")
    remove_index(scratch)
    shutil.copyfile(sqlite_path, scratch)
    rows = []
    try:
        sq = open_index(scratch, None)
        results = {}
        for label, index in (("SQLite", sq), ("PostgreSQL", pg)):
            put = app = 0.0
            chunks = 0
            for part in parts:
                p, a, c = ingest(index, part)
                put, app, chunks = put + p, app + a, chunks + c
            results[label] = chunks / (put + app)
            rows.append([f"{n:,}", label, chunks, put, app, chunks / (put + app)])
        sq.close()
    finally:
        remove_index(scratch)
        t0 = time.perf_counter()
        remove_extra(pg, url, parts)
        removal = time.perf_counter() - t0
    for row in rows:
        row.append(f"{row[-1] / results['SQLite']:.2f}×")
    return rows, removal


def reader(url: str, vectors, texts, seed: int, phases: list[float], barrier, results) -> None:
    """One reading process: cycles methods and filters until each phase's time is up.
    Before the first phase it waits until its keyword index answers (a new process loads
    the saved one, or brings it forward, or builds it) and runs each method once: the
    phases measure readers at work, the seconds to get ready are reported apart."""
    embedder = FixedEmbedder()
    started = time.perf_counter()
    index = open_pg(url, embedder=embedder, pool=1)
    keyword_ready(index, texts[0].split())
    for method in METHODS:
        run_one(index, method, vectors[0], texts[0], FILTERS["F0 none (operator)"], embedder)
    results.put(("ready", time.perf_counter() - started))
    rng = np.random.default_rng(seed)
    filters = list(FILTERS.values())
    i = seed
    for phase, seconds in enumerate(phases):
        barrier.wait()
        out = []
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            j = int(rng.integers(len(vectors)))
            method = METHODS[i % len(METHODS)]
            start = time.perf_counter()
            run_one(index, method, vectors[j], texts[j], filters[int(rng.integers(3))],
                    embedder)
            out.append((method, time.perf_counter() - start))
            i += 1
        results.put((phase, out))
    index.close()


def measure_load(n, url: str, pg: Index, vectors, texts, readers: list[int],
                 seconds: float, vocab, topics, slice_rate: float):
    """Readers alone, then readers while an ingest runs: one row per (readers, ingest)."""
    rate = slice_rate if slice_rate == slice_rate else 0  # nan: not measured this run
    need = int(max(rate, 2_000) * seconds * 1.5) // (LOAD_BATCH * CHUNKS_PER_DOC) + 1
    parts = extra_batches(n, need * LOAD_BATCH, LOAD_BATCH, 2, vocab, topics)
    ctx = mp.get_context("spawn")
    rows = []
    for count in readers:
        barrier, results = ctx.Barrier(count + 1), ctx.Queue()
        procs = [ctx.Process(target=reader, args=(url, vectors, texts, seed, [seconds, seconds],
                                                  barrier, results))
                 for seed in range(count)]
        for p in procs:
            p.start()
        ready = [results.get(timeout=3600)[1] for _ in procs]
        for phase, with_ingest in enumerate((False, True)):
            barrier.wait()
            started = time.perf_counter()
            done, applied, written = 0, 0.0, []
            if with_ingest:
                for part in parts:
                    if time.perf_counter() - started >= seconds:
                        break
                    ingest(pg, part)
                    written.append(part)
                    done += len(part[1])
                    applied = time.perf_counter() - started
            lat: dict[str, list[float]] = {m: [] for m in METHODS}
            for _ in range(count):
                got_phase, out = results.get(timeout=seconds + 600)
                assert got_phase == phase
                for method, t in out:
                    lat[method].append(t)
            every = [t for ts in lat.values() for t in ts]
            row = [f"{n:,}", count, "yes" if with_ingest else "no", len(every) / seconds,
                   percentile(every, 50) * 1000, percentile(every, 95) * 1000]
            row += [percentile(lat[m], 50) * 1000 for m in METHODS]
            if with_ingest:
                rate = done / applied if applied else float("nan")
                row += [rate, f"{rate / slice_rate:.2f}×" if slice_rate == slice_rate else "",
                        "ran out of batches" if done == sum(len(p[1]) for p in parts) else ""]
                remove_extra(pg, url, written)  # forget: only documents that exist
            else:
                row += [float("nan"), "", ""]
            row.append(f"{min(ready):.1f}–{max(ready):.1f}")
            rows.append(row)
            print(f"<!-- load {json.dumps(row)} -->", flush=True)
        for p in procs:
            p.join()
    return rows


def main() -> None:
    pin_threads()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100000,1000000", help="chunk counts, comma-separated")
    parser.add_argument("--quick", action="store_true", help="10k chunks, fewer queries")
    parser.add_argument("--queries", type=int, default=0, help="queries per run (default: auto)")
    parser.add_argument("--runs", type=int, default=0, help="runs per cell (default: auto)")
    parser.add_argument("--readers", default="8,32", help="concurrent reader counts")
    parser.add_argument("--seconds", type=float, default=0, help="per load phase (default: auto)")
    parser.add_argument("--port", type=int, default=None, help="port of the benchmark server")
    parser.add_argument("--no-hnsw", action="store_true", help="PostgreSQL dense stays exact")
    parser.add_argument("--readers-only", action="store_true",
                        help="only the concurrent readers (on the cached indexes)")
    parser.add_argument("--pg", metavar="URL",
                        help="measure in the running server at URL (its cached `stores_N` "
                             "schemas reused) instead of starting one in bench/out/pg")
    parser.add_argument("--build-only", metavar="URL",
                        help="only build (or finish building) the PostgreSQL indexes in the "
                             "server at URL, then stop")
    args = parser.parse_args()
    sizes = [10_000] if args.quick else [int(s) for s in args.sizes.split(",")]
    readers = [int(r) for r in args.readers.split(",")]
    seconds = args.seconds or (8 if args.quick else 25)
    OUT.mkdir(parents=True, exist_ok=True)
    vocab = vocabulary(VOCABULARY, np.random.default_rng(SEED))
    topics = Topics.make(SEED + 3)

    use_hnsw = not args.no_hnsw
    if args.build_only:
        for n in sizes:
            print(json.dumps(build_pg(args.build_only, n, vocab, topics, use_hnsw).info))
        return
    build_rows, slice_rows, latency_rows, recall_rows, load_rows = [], [], [], [], []
    notes = []
    t0 = time.perf_counter()
    # a server left over by an interrupted run is stopped first
    server = (contextlib.nullcontext(args.pg) if args.pg
              else local_postgres(PG_DIR, durable=True, port=args.port))
    with server as base:
        print(f"<!-- server {base} started in {time.perf_counter() - t0:.1f} s -->",
              flush=True)
        for n in sizes:
            sq_built = build_sqlite(n, vocab, topics)
            pg_built = build_pg(base, n, vocab, topics, use_hnsw)
            i = pg_built.info
            build_rows.append([f"{n:,}", "SQLite", sq_built.seconds, float("nan"), float("nan"),
                               float("nan"), float("nan"), float("nan"),
                               f"{os.path.getsize(sq_built.path) / 1e9:.2f} GB",
                               "cached" if sq_built.cached else "built now"])
            build_rows.append([f"{n:,}", "PostgreSQL", i["load_seconds"],
                               i["put_vectors_seconds"], i["apply_seconds"],
                               n / (i["put_vectors_seconds"] + i["apply_seconds"]),
                               i["hnsw_seconds"], f"{i.get('hnsw_bytes', 0) / 1e9:.2f} GB",
                               f"{i['size_bytes'] / 1e9:.2f} GB",
                               "cached" if pg_built.cached else "built now"])
            print(f"<!-- built {json.dumps(build_rows[-2:])} -->", flush=True)

            n_queries = args.queries or (30 if args.quick or n > 200_000 else 100)
            runs = args.runs or (2 if args.quick or n > 200_000 else 3)
            threshold = min(DEFAULT_HNSW, n) if use_hnsw else NO_HNSW
            qv = query_vectors(sq_built.path, topics, n_queries, SEED + 11)
            vectors = np.concatenate([qv["perturbed"], qv["fresh"]])
            texts = [" ".join(t) for t in make_queries(len(vectors), vocab, SEED + 1)]
            pg = open_pg(pg_built.url, threshold)
            slice_rate = float("nan")
            if not args.readers_only:
                lat, rec = measure_queries(n, sq_built.path, pg_built.url, threshold, vectors,
                                           texts, runs, use_hnsw)
                latency_rows += lat
                recall_rows += rec
                rows, removal = measure_slice(n, sq_built.path, pg, pg_built.url, vocab,
                                              topics)
                slice_rows += rows
                slice_rate = slice_rows[-1][-2]
                notes.append(f"{n:,}: removing the 20k appended chunks from PostgreSQL took "
                             f"{removal:.1f} s.")
                print(f"<!-- slice {json.dumps(rows)} -->", flush=True)
            load_rows += measure_load(n, pg_built.url, pg, vectors, texts, readers, seconds,
                                      vocab, topics, slice_rate)
            pg.close()

    if not use_hnsw:
        print("**--no-hnsw**: PostgreSQL dense search is exact throughout (threshold set out "
              "of reach), so every `HNSW` column below is empty.\n")
    print("### Building the index (same batches of 1,000 documents; PostgreSQL: put_vectors "
          "then apply, HNSW built at the end)\n")
    print(table(["chunks", "store", "build s (all)", "put_vectors s", "apply s",
                 "chunks/s (put+apply)", "HNSW build s", "HNSW size", "size", ""], build_rows))
    print("\nSQLite's build time is dense_latency.py's (index.engine.load: put_vectors then apply, "
          "text generation included). PostgreSQL's HNSW index is held back while loading and "
          "built once at the end by the store (CREATE INDEX CONCURRENTLY, m=16, "
          "ef_construction=64); size = the schema's tables with their indexes and TOAST.")
    print("\n### Ingest at full size: 20,000 new chunks appended in 4 batches of 500 documents "
          "(put_vectors, then apply)\n")
    print(table(["chunks", "store", "chunks added", "put_vectors s", "apply s", "chunks/s",
                 "vs SQLite"], slice_rows))
    print("\nPostgreSQL maintains its HNSW index on every insert; SQLite rebuilds its vector "
          "matrix (and IVF at ≥200k) lazily at the next dense query, not counted here. "
          + " ".join(notes))
    print(f"\n### Query latency, top {K}, ms (p50/p95 per run, median of runs; hybrid = bm25 + "
          "dense + RRF, model time excluded)\n")
    print(table(["chunks", "filter", "kept", "method", "SQLite p50", "SQLite p95", "PG p50",
                 "PG p95", "PG/SQLite p50", "PG exact p50 (dense)"], latency_rows))
    print("\nSQLite dense: exact below 200,000 chunks, IVF above (its defaults). PostgreSQL "
          "dense: the store's own query (HNSW once built, ef_search 100, iterative scan; exact "
          "retry when fewer than k rows); `PG exact` forces a scan (order by distance + 0).")
    print("\n### Dense top 10 agreement (PostgreSQL HNSW vs exact on the same data; against "
          "SQLite exact, single precision)\n")
    print(table(["chunks", "filter", "kept", "HNSW recall@10", "worst query", "fewest hits",
                 "PG exact ∩ SQLite exact", "PG HNSW ∩ SQLite exact", "plan of the query"],
                recall_rows))
    print(f"\n### Concurrent readers on PostgreSQL ({seconds:.0f} s per row; each reader a "
          "process with its own connection, cycling hybrid/bm25/dense under F0/F1/F2)\n")
    print(table(["chunks", "readers", "ingest", "queries/s", "p50 ms", "p95 ms",
                 "hybrid p50", "bm25 p50", "dense p50", "ingest chunks/s",
                 "vs ingest alone", "", "readers ready s"], load_rows))
    print("\nIngest under load: put_vectors + apply of 1,000-chunk batches in the main "
          "process until the readers stop; `vs ingest alone` = against the appended-slice "
          "rate above. Appended documents are removed after each row. `readers ready s`: "
          "from a reader process's start until its keyword index answered and each method "
          "had run once (fewest–most seconds over the readers; not in the timed phases).")
    print("\n" + machine_note() + f" PostgreSQL server in {PG_DIR} (durable), "
          f"{os.cpu_count()} cores shared by the server, the readers and the ingest.")
    if args.pg:
        print("(The PostgreSQL server was the one given by --pg, not bench/out/pg.)")


if __name__ == "__main__":
    main()
