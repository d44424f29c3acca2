"""Retrieval quality on both stores: the same collections, methods and questions, nDCG@10.

    .venv/bin/python bench/eval_stores.py                      # starts a local PostgreSQL
    .venv/bin/python bench/eval_stores.py --pg postgresql://user@host/db
    .venv/bin/python bench/eval_stores.py --keyword-only   # bm25 alone, no model (minutes)

Each collection (Python FAQ, PIAF, Cranfield) is indexed with e5 into its SQLite eval index
(bench/out/eval/, built by `preuve eval` and reused: embedding is the slow part), then copied
into its own PostgreSQL schema by `preuve.index.copy_index` (vectors copied, never
recomputed), and every question is asked of both; on PostgreSQL twice, dense search exact
(these collections are under the HNSW threshold) and then through an HNSW index built for
the purpose. Differences can only come from the stores:
BM25 (FTS5 vs sparse vectors with the same formula), dense (float32 exact vs halfvec, HNSW
above the threshold) and ties.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from common import OUT, ROOT, machine_note, pin_threads, table

from preuve.evaluate.datasets import load
from preuve.evaluate.run import eval_index_path, evaluate_collection
from preuve.index import Index, copy_index, local_postgres
from preuve.settings import Settings

DATA = ROOT.parent / "shared" / "eval-data"
COLLECTIONS = {
    "python311-faq-en": DATA / "python311-faq-en",
    "piaf": DATA / "piaf" / "piaf-v1.1.json",
    "cranfield": DATA / "cranfield",
}
METHODS = ["bm25", "dense", "hybrid"]
MAIN = OUT / "main.sqlite"  # eval indexes live beside it, in OUT/eval/


def run(pg_base: str, names: list[str], keyword_only: bool = False) -> None:
    rows, notes = [], []
    # keyword-only: indexes without vectors, bm25 alone (what a change to the keyword engine
    # can move), no embedding
    embedder, methods = ("none", ["bm25"]) if keyword_only else ("e5", METHODS)
    for name in names:
        evalset = load(str(COLLECTIONS[name]))
        sqlite_path = eval_index_path(str(MAIN), evalset, embedder)
        pg_url = eval_index_path(pg_base, evalset, embedder)
        with Index(sqlite_path, embedder=embedder) as lite:
            lite.ingest_records(evalset.corpus, source=f"eval:{evalset.name}",
                                language=evalset.language)
        started = time.perf_counter()
        with Index(pg_url, embedder=embedder) as pg:
            empty = pg.status()["documents"] == 0
        if empty:
            copy_index(sqlite_path, pg_url)
            notes.append(f"{name}: copied to PostgreSQL in {time.perf_counter() - started:.1f} s")
        scores = {}
        with Index(pg_url, embedder=embedder) as pg:  # dense exact first: no HNSW index yet
            pg.engine.drop_hnsw()
        stores = [("sqlite", sqlite_path), ("postgres", pg_url), ("hnsw", pg_url)]
        for label, location in stores[:2] if keyword_only else stores:
            if label == "hnsw":
                with Index(pg_url, embedder="e5", settings=Settings(hnsw_threshold=1)) as pg:
                    pg.engine.build_hnsw()
            with Index(location, embedder=embedder) as index:
                report = index.ingest_records(evalset.corpus, source=f"eval:{evalset.name}",
                                              language=evalset.language)
                assert not report.added and not report.updated, f"{label}: index not current"
                for method in methods if label != "hnsw" else methods[1:]:
                    result = evaluate_collection(index, evalset, method, k=10)
                    scores[label, method] = result.metrics["ndcg@10"]
        for method in methods:
            a, b = scores["sqlite", method], scores["postgres", method]
            c = scores.get(("hnsw", method))
            rows.append([name, method, len(evalset.queries), f"{a:.3f}", f"{b:.3f}",
                         f"{b - a:+.3f}", "—" if c is None else f"{c:.3f}",
                         "—" if c is None else f"{c - a:+.3f}"])
    # latency is bench/stores.py's subject: here the query embeddings are cached after the
    # first store, so timings would favour the second
    print(table(["collection", "method", "queries", "SQLite", "PostgreSQL (exact dense)",
                 "difference", "PostgreSQL (HNSW)", "difference"], rows))
    for note in notes:
        print(f"- {note}")
    print(machine_note())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pg", help="PostgreSQL database URL (default: start a local one)")
    parser.add_argument("--only", nargs="*", choices=list(COLLECTIONS), default=list(COLLECTIONS))
    parser.add_argument("--keyword-only", action="store_true",
                        help="indexes without vectors, bm25 alone (no model, minutes)")
    args = parser.parse_args()
    pin_threads()
    if args.pg:
        run(args.pg, args.only, args.keyword_only)
        return
    folder = Path(tempfile.mkdtemp(prefix="preuve-pg-eval-"))
    with local_postgres(folder / "data") as base:
        run(base, args.only, args.keyword_only)


if __name__ == "__main__":
    main()
