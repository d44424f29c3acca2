"""HNSW recall@10 and latency against `hnsw.ef_search`, on bench/stores.py's PostgreSQL index.

    .venv/bin/python bench/hnsw_ef.py                     # 100k (the cached stores_100000)
    .venv/bin/python bench/hnsw_ef.py --sizes 100000,1000000 --ef 40,100,200,400

Uses the schemas bench/stores.py built in bench/out/pg (run it first) and the same query
vectors (perturbed copies of stored vectors and fresh chunks of a random topic). Each
`ef_search` is an Index opened with `Settings(hnsw_ef_search=ef)`, and every timed query is
`Index.search` (method dense, the filters as its arguments, an embedder returning the
query's fixed vector): what a user gets, the store's exact retry when HNSW returns fewer
than k rows included. The reference is exact search on the same data, written by the bench
with psycopg (`+ 0` in the order expression keeps the planner off the index).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from bm25_latency import FILTERS, SEED, kept_fraction
from common import OUT, machine_note, percentile, pin_threads, table
from dense_latency import FixedEmbedder, Topics, open_index, query_vectors
from dense_latency import search as door_search
from stores import PG_DIR, open_pg, pg_exact, pg_url

from preuve.index import Index, local_postgres
from preuve.settings import Settings

K = 10


def main() -> None:
    pin_threads()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100000")
    parser.add_argument("--ef", default="40,100,200,400")
    parser.add_argument("--queries", type=int, default=100)
    args = parser.parse_args()
    efs = [int(e) for e in args.ef.split(",")]
    rows = []
    with local_postgres(PG_DIR, durable=True) as base:
        for n in (int(s) for s in args.sizes.split(",")):
            path = str(OUT / f"dense-{n}.sqlite")
            lite = open_index(path)
            qv = query_vectors(path, Topics.make(SEED + 3), args.queries, SEED + 11)
            vectors = np.concatenate([qv["perturbed"], qv["fresh"]])
            url = pg_url(base, n)
            with open_pg(url) as probe:
                assert probe.engine.hnsw_ready, f"stores_{n}: no HNSW index (run bench/stores.py)"
            by_ef = {}
            for ef in efs:
                embedder = FixedEmbedder()
                by_ef[ef] = (Index(url, embedder=embedder,
                                   settings=Settings(hnsw_ef_search=ef)), embedder)
            for name, filters in FILTERS.items():
                _, exact = pg_exact(url, vectors, filters)
                for ef in efs:
                    index, embedder = by_ef[ef]
                    times, found = [], []
                    for i, v in enumerate(vectors):  # words: one per vector (dense ignores them)
                        t = time.perf_counter()
                        hits = door_search(index, embedder, v, f"query {i}", filters, "dense", K)
                        times.append((time.perf_counter() - t) * 1000)
                        found.append([h.chunk_id for h in hits])
                    recall = [len(set(a) & set(e)) / max(1, min(K, len(e)))
                              for a, e in zip(found, exact, strict=True)]
                    rows.append([f"{n:,}", name, f"{kept_fraction(lite, filters):.1%}", ef,
                                 f"{statistics.mean(recall):.3f}", f"{min(recall):.2f}",
                                 statistics.median(times), percentile(times, 95),
                                 min(len(f) for f in found)])
            for index, _ in by_ef.values():
                index.close()
            lite.close()
    print(table(["chunks", "filter", "kept", "ef_search", "recall@10", "worst query",
                 "p50 ms", "p95 ms", "fewest rows"], rows))
    print(machine_note())


if __name__ == "__main__":
    main()
