"""preuve's BM25 against tantivy on the same tokens, in the same process, with filters.

    .venv/bin/python bench/keyword_peers.py                  # 100k and 1M chunks
    .venv/bin/python bench/keyword_peers.py --sizes 100000   # chosen sizes

The data is bench/bm25_latency.py's synthetic index (chunks of 80-150 Zipfian words, public
or staff, some versions expired or not yet in force, eleven top folders): its cached SQLite
file bench/out/bm25-N.sqlite, or dense_latency.py's dense-N.sqlite of the same size (the
same generator and seeds: the same chunks, with vectors), built by bm25_latency.py if
neither exists. preuve answers through `Index.search` (method bm25, the filters as its
arguments, its keyword index in memory: BM25F, which on these chunks without title words
is plain BM25, statistics per access label); what is timed is what a user gets: query
analysis, ranking, and the ten hits read back with their columns.

The peer is tantivy (Rust, through its Python binding), fed the very tokens preuve stores
(the `tokens` column, pre-split: whitespace tokenizer, no stemming, no lower-casing) and
queried with the terms preuve derives from the same question (`preuve.text.query_terms`:
every stem and the unstemmed form), as an OR of term queries. Filters are tantivy clauses
that score nothing (const score 0): the access label as a raw term, the dates as integer
range queries (fast fields), the top folder as a raw term. It returns the ten best
(score, stored row id) only, and its statistics are those of the whole index (it knows no
per-label statistics). Its index is built in RAM in this process, one writer thread.

Times are wall-clock p50/p95 and the p50 of the process's CPU time per query (what the
query costs; on a shared machine the wall time adds what other processes took meanwhile).
Also given: the agreement of the two top 10s under F0 (both BM25, k1 1.2, b 0.75; the IDFs
differ: FTS5's log((N-n+0.5)/(n+0.5)) against Lucene's log(1 + (N-n+0.5)/(n+0.5))).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sqlite3
import time

import numpy as np
from bm25_latency import (
    AS_OF,
    FILTERS,
    SEED,
    VOCABULARY,
    build_index,
    keyword_ready,
    make_queries,
    vocabulary,
)
from common import OUT, machine_note, p50_p95_cpu, pin_threads, table

from preuve.index import Index
from preuve.text import query_terms

K = 10
PEER_FILTERS = ("F0 none (operator)", "F1 public + as-of", "F2 F1 + path prefix")
NEVER = 10**6  # days: a bound for open-ended dates


def source(n: int, vocab: list[str]) -> str:
    for name in (f"bm25-{n}.sqlite", f"dense-{n}.sqlite"):
        if (OUT / name).exists():
            return str(OUT / name)
    return build_index(n, vocab).path


def day(value: str | None, default: int) -> int:
    return default if value is None else dt.date.fromisoformat(value[:10]).toordinal()


class Tantivy:
    """The synthetic chunks in a tantivy RAM index: tokens, id, access, dates, top folder."""

    def __init__(self, path: str):
        import tantivy

        self.tantivy = tantivy
        builder = tantivy.SchemaBuilder()
        builder.add_text_field("body", tokenizer_name="whitespace", index_option="freq")
        builder.add_integer_field("id", stored=True)
        builder.add_text_field("access", tokenizer_name="raw", index_option="basic")
        builder.add_text_field("folder", tokenizer_name="raw", index_option="basic")
        builder.add_integer_field("start", fast=True, indexed=True)
        builder.add_integer_field("end", fast=True, indexed=True)
        self.schema = builder.build()
        self.index = tantivy.Index(self.schema)
        started = time.perf_counter()
        writer = self.index.writer(heap_size=1_000_000_000, num_threads=1)
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        self.rows = 0
        for rowid, tokens, access, path_, start, end in db.execute(
                "SELECT c.id, c.tokens, c.access, c.path, d.effective_from, d.effective_to "
                "FROM chunks c JOIN documents d ON d.doc_id = c.doc_id ORDER BY c.id"):
            writer.add_document(tantivy.Document(
                body=tokens, id=rowid, access=access or "", folder=path_.split("/", 1)[0],
                start=day(start, -NEVER), end=day(end, NEVER)))
            self.rows += 1
        db.close()
        writer.commit()
        writer.wait_merging_threads()
        self.index.reload()
        self.searcher = self.index.searcher()
        self.build_seconds = time.perf_counter() - started

    def query(self, terms: list[str], filters: dict):
        t = self.tantivy
        text = t.Query.boolean_query([(t.Occur.Should, t.Query.term_query(self.schema, "body", w))
                                      for w in terms])
        clauses = [(t.Occur.Must, text)]
        if filters.get("audience"):
            clauses.append((t.Occur.Must, t.Query.term_query(self.schema, "access",
                                                             filters["audience"])))
        if filters.get("as_of") not in (None, "none"):
            when = filters["as_of"].toordinal()
            clauses += [(t.Occur.Must, t.Query.range_query(
                self.schema, "start", t.FieldType.Integer, None, when)),
                (t.Occur.Must, t.Query.range_query(
                    self.schema, "end", t.FieldType.Integer, when, None))]
        for prefix in filters.get("paths", ()):
            clauses.append((t.Occur.Must, t.Query.term_query(self.schema, "folder",
                                                             prefix.rstrip("/"))))
        if len(clauses) == 1:
            return text
        return t.Query.boolean_query([clauses[0]] + [
            (occur, t.Query.const_score_query(q, 0.0)) for occur, q in clauses[1:]])

    def search(self, terms: list[str], filters: dict) -> list[int]:
        hits = self.searcher.search(self.query(terms, filters), K, count=False).hits
        return [self.searcher.doc(address)["id"][0] for _, address in hits]


def measure(n: int, vocab: list[str], n_queries: int, runs: int) -> tuple[list, list]:
    path = source(n, vocab)
    index = Index(path, embedder="none")
    keyword_ready(index, make_queries(1, vocab, SEED)[0])  # preuve's index built or loaded
    peer = Tantivy(path)
    print(f"<!-- {n:,}: tantivy built in {peer.build_seconds:.0f} s -->", flush=True)
    texts = [" ".join(t) for t in make_queries(n_queries, vocab, SEED + 1)]
    terms = {text: query_terms(text) for text in texts}
    for text in texts[:10]:  # warm both
        index.search(text, method="bm25", k=K, **FILTERS[PEER_FILTERS[0]])
        peer.search(terms[text], FILTERS[PEER_FILTERS[0]])
    rows = []
    for name in PEER_FILTERS:
        f = FILTERS[name]
        ours = p50_p95_cpu(lambda text, f=f: index.search(text, method="bm25", k=K, **f), texts,
                       runs)
        theirs = p50_p95_cpu(lambda text, f=f: peer.search(terms[text], f), texts, runs)
        rows.append([f"{n:,}", name, *ours, *theirs, f"{ours[0] / theirs[0]:.1f}×",
                     f"{ours[2] / theirs[2]:.1f}×" if theirs[2] else "—"])
        print(f"<!-- {rows[-1]} -->", flush=True)
    f0 = FILTERS[PEER_FILTERS[0]]
    agree = []
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    for text in texts:
        chunk_ids = [h.chunk_id for h in index.search(text, method="bm25", k=K, **f0)]
        peer_ids = peer.search(terms[text], f0)
        peer_chunks = {row[0] for row in db.execute(
            f"SELECT chunk_id FROM chunks WHERE id IN ({','.join('?' * len(peer_ids))})",
            peer_ids)} if peer_ids else set()
        agree.append(len(set(chunk_ids) & peer_chunks) / K)
    db.close()
    cost = [[f"{n:,}", os.path.basename(path), peer.rows, peer.build_seconds,
             float(np.mean(agree))]]
    index.close()
    return rows, cost


def main() -> None:
    pin_threads()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100000,1000000", help="chunk counts, comma-separated")
    parser.add_argument("--queries", type=int, default=0, help="queries per run (default: auto)")
    parser.add_argument("--runs", type=int, default=3, help="runs per cell (median taken)")
    args = parser.parse_args()
    vocab = vocabulary(VOCABULARY, np.random.default_rng(SEED))
    rows, costs = [], []
    for n in (int(s) for s in args.sizes.split(",")):
        more, cost = measure(n, vocab, args.queries or (200 if n <= 200_000 else 60), args.runs)
        rows += more
        costs += cost
    print(f"### BM25 top {K}: preuve (Index.search) against tantivy on the same tokens, same "
          f"process (p50/p95 ms, median of {args.runs} runs)\n")
    print(table(["chunks", "filter", "preuve p50", "preuve p95", "preuve CPU p50",
                 "tantivy p50", "tantivy p95", "tantivy CPU p50", "preuve / tantivy p50",
                 "CPU ratio"], rows))
    print("\n### The peer's index, and the agreement of the top 10s (F0)\n")
    print(table(["chunks", "data", "tantivy docs", "tantivy build s (RAM, 1 thread)",
                 "top-10 overlap F0"], costs))
    print(f"\nAs-of date of F1/F2: {AS_OF}. " + machine_note())


if __name__ == "__main__":
    main()
