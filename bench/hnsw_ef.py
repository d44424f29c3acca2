"""HNSW recall@10 and latency against `hnsw.ef_search`, on bench/stores.py's PostgreSQL index.

    .venv/bin/python bench/hnsw_ef.py                     # 100k (the cached stores_100000)
    .venv/bin/python bench/hnsw_ef.py --sizes 100000,1000000 --ef 40,100,200,400

Uses the schemas bench/stores.py built in bench/out/pg (run it first) and the same query
vectors (perturbed copies of stored vectors and fresh chunks of a random topic). Exact
search is the same query with `+ 0` in the order expression, which keeps the planner off
the index. The store's own fallback (an exact query when HNSW returns fewer than k rows)
is not involved: the queries here are issued directly.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from bm25_latency import FILTERS, SEED, kept_fraction
from common import OUT, machine_note, percentile, pin_threads, table
from dense_latency import DIM, Topics, query_vectors

from preuve.store import pgserver
from preuve.store.postgres import PostgresStore, vector_literal, with_schema
from preuve.store.sql import filter_sql
from preuve.store.sqlite import SQLiteStore

PG_DIR = OUT / "pg"
K = 10


def search(store: PostgresStore, vector: np.ndarray, filters, exact: bool,
           ef: int = 100) -> list[int]:
    where, params = filter_sql(filters, "c", "%s")
    order = f"(c.embedding::halfvec({DIM})) <#> %s::halfvec({DIM})"
    order = f"({order}) + 0" if exact else order
    with store.pool.connection() as conn:
        conn.execute(f"SET LOCAL hnsw.ef_search = {int(ef)}")
        rows = conn.execute(f"SELECT c.id FROM chunks c WHERE c.embedding IS NOT NULL AND "
                            f"{where} ORDER BY {order} LIMIT {K}",
                            [*params, vector_literal(vector)]).fetchall()
    return [r[0] for r in rows]


def main() -> None:
    pin_threads()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100000")
    parser.add_argument("--ef", default="40,100,200,400")
    parser.add_argument("--queries", type=int, default=100)
    args = parser.parse_args()
    efs = [int(e) for e in args.ef.split(",")]
    pgserver.stop(PG_DIR)
    base = pgserver.start(PG_DIR, durable=True)
    rows = []
    try:
        for n in (int(s) for s in args.sizes.split(",")):
            lite = SQLiteStore(str(OUT / f"dense-{n}.sqlite"))
            qv = query_vectors(lite, Topics.make(SEED + 3), args.queries, SEED + 11)
            vectors = np.concatenate([qv["perturbed"], qv["fresh"]])
            store = PostgresStore(with_schema(base, f"stores_{n}"))
            assert store.hnsw_ready(), f"stores_{n}: no HNSW index (run bench/stores.py)"
            for name, filters in FILTERS.items():
                exact = [search(store, v, filters, True) for v in vectors]
                for ef in efs:
                    times, found = [], []
                    for v in vectors:
                        t = time.perf_counter()
                        found.append(search(store, v, filters, False, ef))
                        times.append((time.perf_counter() - t) * 1000)
                    recall = [len(set(a) & set(e)) / max(1, min(K, len(e)))
                              for a, e in zip(found, exact, strict=True)]
                    rows.append([f"{n:,}", name, f"{kept_fraction(lite, filters):.1%}", ef,
                                 f"{statistics.mean(recall):.3f}", f"{min(recall):.2f}",
                                 statistics.median(times), percentile(times, 95),
                                 min(len(f) for f in found)])
            store.close()
            lite.close()
    finally:
        pgserver.stop(PG_DIR)
    print(table(["chunks", "filter", "kept", "ef_search", "recall@10", "worst query",
                 "p50 ms", "p95 ms", "fewest rows"], rows))
    print(machine_note())


if __name__ == "__main__":
    main()
