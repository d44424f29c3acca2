"""Our BM25 (`Index.search`, SQLite, over preuve tokens) side by side with rank_bm25 and bm25s.

    .venv/bin/python bench/bm25_peers.py [--data DIR] [--runs N] [--quick]

On an evaluation set (default: the Python 3.11 FAQ set in ../shared/eval-data; any layout
`preuve.evaluate.load` reads: BEIR, PIAF's SQuAD JSON, Cranfield), every engine
indexes the same tokens (`preuve.text.tokens`, one document per corpus record; ours loaded
by `index.engine.load`) and is asked the same question: the peers its terms
(`preuve.text.query_terms`), ours the question itself through `Index.search`, which
derives the same terms, so the comparison is about the engines:
nDCG@10 and queries per second (one query at a time, median of several runs), with the
ratio against ours measured in the same run. bm25s with its own tokenizer and stemmer is
shown for reference, in the set's language (French Snowball and bm25s's French stop words on
PIAF). Peers use k1=1.2, b=0.75 like FTS5's bm25().
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable

import bm25s
import numpy as np
import snowballstemmer
from common import ROOT, machine_note, pin_threads, table
from rank_bm25 import BM25Okapi

from preuve import text
from preuve.evaluate import EvalSet, evaluate_run, load
from preuve.index import Index
from preuve.models import Chunk, Document

DEFAULT_DATA = ROOT.parent / "shared" / "eval-data" / "python311-faq-en"
K = 10
K1, B = 1.2, 0.75
TARGET_GAP = 0.02

Search = Callable[[list[str]], list[str]]  # query terms -> ranked doc ids


def record_tokens(es: EvalSet) -> list[list[str]]:
    """Each record's tokens, stemmed in its language, as an ingest would."""
    out = []
    for record in es.corpus:
        body = "\n".join(filter(None, [record.title, record.text]))
        language = es.language or text.detect_language(body)
        out.append(text.tokens(body, language if language in text.LANGUAGES else ""))
    return out


def build_ours(es: EvalSet, tokens: list[list[str]], folder: str) -> Callable[[str], list[str]]:
    """preuve through its door: the same tokens loaded by `index.engine.load`, each question asked
    of `Index.search` (bm25, no date filter), which analyses it as a user's would be."""
    index = Index(os.path.join(folder, "index.sqlite"), embedder="none")
    upserts = []
    for record, toks in zip(es.corpus, tokens, strict=True):
        doc = Document(doc_id=record.id, path=f"{record.id}.txt", root=folder, kind="text",
                       title=record.title, language=es.language or "en",
                       content_hash=record.id)
        chunk = Chunk(text=record.text, chunk_id=record.id, doc_id=record.id, tokens=toks)
        upserts.append((doc, [chunk]))
    index.engine.load([upserts])
    return lambda question: [h.doc_id for h in index.search(question, method="bm25", k=K,
                                                             as_of="none")]


def afresh(search: Callable[[str], list[str]]) -> Callable[[str], list[str]]:
    """Our search with each question analysed as if never seen: `text.query_terms` is
    swapped for its unremembered function during the call (its per-word stems stay
    remembered, as in any process that has run a while). The memory itself is left as it
    is, so the passes of the row that remembers, interleaved with these, keep it."""
    remembered = text.query_terms

    def search_afresh(question: str) -> list[str]:
        text.query_terms = remembered.__wrapped__
        try:
            return search(question)
        finally:
            text.query_terms = remembered

    return search_afresh


def build_rank_bm25(es: EvalSet, tokens: list[list[str]]) -> Search:
    engine = BM25Okapi(tokens, k1=K1, b=B)
    ids = [r.id for r in es.corpus]

    def search(terms: list[str]) -> list[str]:
        scores = engine.get_scores(terms)
        top = np.argsort(-scores, kind="stable")[:K]
        return [ids[i] for i in top if scores[i] > 0]

    return search


def build_bm25s(es: EvalSet, tokens: list[list[str]]) -> Search:
    engine = bm25s.BM25(k1=K1, b=B)
    engine.index(tokens, show_progress=False)
    ids = [r.id for r in es.corpus]

    def search(terms: list[str]) -> list[str]:
        docs, scores = engine.retrieve([terms], k=K, show_progress=False)
        return [ids[d] for d, s in zip(docs[0], scores[0], strict=True) if s > 0]

    return search


def build_bm25s_own(es: EvalSet) -> Search:
    """bm25s as its README shows it: its tokenizer, stop words and Snowball stemmer of the
    set's language (English unless the set says French), default parameters (Lucene
    variant, k1=1.5)."""
    french = es.language == "fr"
    stemmer = snowballstemmer.stemmer("french" if french else "english")
    stop = bm25s.stopwords.STOPWORDS_FRENCH if french else "en"
    corpus = [f"{r.title}\n{r.text}" for r in es.corpus]
    engine = bm25s.BM25()
    engine.index(bm25s.tokenize(corpus, stopwords=stop, stemmer=stemmer, show_progress=False),
                 show_progress=False)
    ids = [r.id for r in es.corpus]

    def search(question: str) -> list[str]:
        query = bm25s.tokenize([question], stopwords=stop, stemmer=stemmer,
                               show_progress=False, return_ids=False)
        docs, scores = engine.retrieve(query, k=K, show_progress=False)
        return [ids[d] for d, s in zip(docs[0], scores[0], strict=True) if s > 0]

    return search


def run_queries(engines: list[tuple[Callable, dict[str, object]]], runs: int):
    """Per engine (run: query id -> ranked ids, median seconds for the whole query set).
    The passes are interleaved (each pass runs every engine in turn), so that a busy
    moment of the machine weighs on every engine alike and the ratios hold."""
    times: list[list[float]] = [[] for _ in engines]
    results: list[dict] = [{} for _ in engines]
    for _ in range(runs):
        for i, (search, queries) in enumerate(engines):
            start = time.perf_counter()
            results[i] = {qid: search(q) for qid, q in queries.items()}
            times[i].append(time.perf_counter() - start)
    return [(run, statistics.median(t)) for run, t in zip(results, times, strict=True)]


def main() -> None:
    pin_threads()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=str(DEFAULT_DATA),
                        help="evaluation set (BEIR folder, SQuAD .json, Cranfield folder)")
    parser.add_argument("--runs", type=int, default=7, help="timed passes over the queries")
    parser.add_argument("--quick", action="store_true", help="3 timed passes")
    args = parser.parse_args()
    runs = 3 if args.quick else args.runs
    es = load(args.data)
    terms = {q.id: list(text.query_terms(q.text)) for q in es.queries}
    questions = {q.id: q.text for q in es.queries}

    with tempfile.TemporaryDirectory(prefix="preuve-bench-") as folder:
        t0 = time.perf_counter()
        tokens = record_tokens(es)
        tokenize_s = time.perf_counter() - t0
        engines = []  # (name, build seconds, search, queries)
        for name, build in [
            ("preuve (Index.search, SQLite)", lambda: build_ours(es, tokens, folder)),
            ("preuve, each question analysed afresh", lambda: afresh(engines[0][2])),
            ("rank_bm25 BM25Okapi", lambda: build_rank_bm25(es, tokens)),
            ("bm25s (numpy)", lambda: build_bm25s(es, tokens)),
        ]:
            t0 = time.perf_counter()
            search = build()
            engines.append((name, time.perf_counter() - t0, search,
                            questions if name.startswith("preuve") else terms))
        t0 = time.perf_counter()
        own = build_bm25s_own(es)
        engines.append(("bm25s, own tokenizer + stemmer (reference)",
                         time.perf_counter() - t0, own, questions))

        for _, _, search, queries in engines:
            search(next(iter(queries.values())))  # warm up
        measured = run_queries([(search, queries) for _, _, search, queries in engines], runs)
        rows, scores, ours = [], [], None
        for (name, build_s, _, queries), (run, seconds) in zip(engines, measured, strict=True):
            ndcg = evaluate_run(run, es.qrels, k=K).metrics["ndcg@10"]
            qps = len(queries) / seconds
            ours = ours or (ndcg, qps)
            scores.append(ndcg)
            rows.append([name, f"{ndcg:.3f}", f"{ndcg - ours[0]:+.3f}", build_s * 1000, qps,
                         f"{qps / ours[1]:.2f}×"])

    print(f"### BM25 engines on {es.name}: {len(es.corpus)} documents, {len(es.queries)} "
          f"queries, top {K}\n")
    print(table(["engine", "nDCG@10", "Δ vs preuve", "index ms", "queries/s",
                 "speed vs preuve"], rows))
    gap = max(abs(s - ours[0]) for s in scores[2:4])  # rank_bm25 and bm25s, same tokens
    verdict = "met" if gap <= TARGET_GAP else "NOT met"
    print(f"\nSame tokens for preuve, rank_bm25 and bm25s (tokenizing the corpus: "
          f"{tokenize_s * 1000:.0f} ms, not counted); queries/s is one query at a time, median "
          f"of {runs} interleaved passes. Query tokenization is excluded from the peers' rows; "
          f"preuve's rows analyse the question in Index.search (the first remembers the "
          f"analysis per question, the second does it afresh each time), and so does the "
          f"reference row. Largest nDCG@10 gap with the "
          f"same tokens: {gap:.3f} (target ≤ {TARGET_GAP}: {verdict}).\n")
    print(machine_note())


if __name__ == "__main__":
    main()
