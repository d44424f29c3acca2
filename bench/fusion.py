"""How to fuse bm25 and dense: measured on every public set, chosen with held-out folds.

For each set the two candidate lists of every question (bm25 and dense, DEPTH chunks each,
with the question's own filters) are fetched once through preuve's own retrievers and
cached in bench/out/fusion/ (keyed by the eval index's fingerprint); every fusion is then
a pure function of those lists, the same function `hybrid` calls, so the sweep is cheap.

The grid: RRF (the fusion before issue 13), RRF with weights, and the normalised
combination over bm25's weight, per-hit language, the crossing test, bm25's score spread,
the translated list and (with per-hit language 1 and translated 0.5) the coverage of the
question by bm25's first hit (`adaptive.coverage`).

Sets: the three public collections (each in its eval index, as `preuve eval` builds it),
and the sample's reference files asked against an index of examples/.

    OMP_NUM_THREADS=1 PYTHONPATH=. .venv/bin/python bench/fusion.py \
        [--sets faq piaf cranfield sample crosslingual] [--index-dir DIR] [--piaf-queries N]
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import pickle
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import OUT, ROOT, machine_note, pin_threads  # noqa: E402
from common import table as _table  # noqa: E402

DATA = Path("/work/shared/eval-data")
COLLECTIONS = {"faq": DATA / "python311-faq-en", "piaf": DATA / "piaf" / "piaf-v1.1.json",
               "cranfield": DATA / "cranfield"}
REFERENCES = {"sample": ROOT / "examples" / "questions.yaml",
              "crosslingual": ROOT / "examples" / "crosslingual.yaml"}
DEPTH = 50  # candidates per method kept in the cache (evaluate_collection asks for 50)
K = 10


@dataclass
class Question:
    """One question with its two candidate lists, and how to judge a ranking of hits."""

    id: str
    text: str
    type: str
    bm25: list  # Hits, best first
    dense: list
    translated: list  # bm25 of the question translated, hits in the other language
    judged: Callable[[list], list[str]] | None = None  # hits -> ids for the qrels
    qrels: dict[str, int] | None = None
    companion: list = field(default_factory=list)  # the companion embedder's (use-m3)


def table(headers, rows) -> str:
    """Markdown table with nDCG to three decimals."""
    return _table(headers, [[f"{v:.3f}" if isinstance(v, float) and v == v else v
                             for v in row] for row in rows])


def _fingerprint(path: str) -> str:
    """What the index holds (documents as indexed, embedder), not when it was touched."""
    from preuve.index import Index

    with Index(path) as index:
        docs = sorted((d.path, d.content_hash) for d in index.documents())
        model = index.engine.meta("embedder_model")
    return hashlib.sha1(repr((docs, model)).encode()).hexdigest()[:12]


def _lists(index, text: str, filters: dict) -> tuple[list, list, list, list]:
    """The three lists hybrid fuses (`index.engine.rankings`), DEPTH deep."""
    lists = index.engine.rankings(text, k=DEPTH, **filters)
    return lists["bm25"], lists["dense"], lists["translated"], lists["companion"]


def _strip(hits: list) -> list:
    for hit in hits:
        hit.text = hit.text[:2000]
    return hits


def collection_questions(name: str, index_dir: str, limit: int | None) -> list[Question]:
    """Questions of a public collection, over its eval index (built if missing)."""
    from preuve.evaluate.datasets import load
    from preuve.evaluate.run import eval_index_path
    from preuve.index import Index

    evalset = load(COLLECTIONS[name])
    path = eval_index_path(str(Path(index_dir) / "x"), evalset, "e5")
    with Index(path, embedder="e5") as index:
        index.ingest_records(evalset.corpus, source=f"eval:{evalset.name}",
                             language=evalset.language, progress=True)
    queries = [q for q in evalset.queries if evalset.qrels.get(q.id)]
    if limit and limit < len(queries):
        queries = random.Random(13).sample(queries, limit)
    cache = OUT / "fusion" / f"{name}-{_fingerprint(path)}-{len(queries)}-v3.pkl"
    if cache.exists():
        rows = pickle.loads(cache.read_bytes())
    else:
        rows = []
        filters = {"as_of": "none"}
        with Index(path, embedder="e5") as index:
            for n, query in enumerate(queries, 1):
                b, d, t, c = _lists(index, query.text, filters)
                rows.append((query.id, query.text, query.type, _strip(b), _strip(d),
                             _strip(t), _strip(c)))
                if n % 200 == 0:
                    print(f"[{name}] {n}/{len(queries)}", file=sys.stderr, flush=True)
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_bytes(pickle.dumps(rows))

    def records(hits: list) -> list[str]:
        ranked: list[str] = []
        for hit in hits:
            if hit.path not in ranked:
                ranked.append(hit.path)
        return ranked[:K]

    return [Question(qid, text, qtype, b, d, t, records, evalset.qrels[qid], c)
            for qid, text, qtype, b, d, t, c in rows]


def reference_questions(name: str, index_path: str) -> list[Question]:
    """Questions of a reference file over an index of examples/ (built if missing)."""
    from preuve.evaluate.reference import load_reference
    from preuve.index import Index

    with Index(index_path, embedder="e5") as index:
        index.ingest([str(ROOT / "examples")])
    questions = [q for q in load_reference(REFERENCES[name]) if not q.refuse]
    cache = OUT / "fusion" / f"{name}-{_fingerprint(index_path)}-v3.pkl"
    if cache.exists():
        rows = pickle.loads(cache.read_bytes())
    else:
        rows = []
        with Index(index_path, embedder="e5") as index:
            for q in questions:
                filters = {"as_of": q.as_of or "today", "audience": q.audience}
                b, d, t, c = _lists(index, q.question, filters)
                rows.append((q.id, q.question, q.type, b, d, t, c))
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_bytes(pickle.dumps(rows))
    by_id = {q.id: q for q in questions}
    out = []
    for qid, text, qtype, b, d, t, c in rows:
        relevant = by_id[qid].relevant

        def judged(hits: list, relevant=relevant) -> list[str]:
            ranked = []
            for hit in hits[:K]:
                match = next((i for i, rel in enumerate(relevant) if rel.matches(hit)), None)
                ranked.append(f"rel{match}" if match is not None else hit.chunk_id)
            return ranked

        out.append(Question(qid, text, qtype, b, d, t, judged,
                            {f"rel{i}": 1 for i in range(len(relevant))}, c))
    return out


def load_sets(names: list[str], index_dir: str, piaf_queries: int | None) -> dict:
    sets = {}
    for name in names:
        if name in COLLECTIONS:
            sets[name] = collection_questions(name, index_dir,
                                              piaf_queries if name == "piaf" else None)
        else:
            sets[name] = reference_questions(name, str(Path(index_dir) / "examples.sqlite"))
        print(f"[{name}] {len(sets[name])} questions", file=sys.stderr)
    return sets


def ndcg(questions: list[Question], rank: Callable[[Question], list]) -> float:
    """Mean nDCG@10 of a ranking function over questions."""
    from preuve.evaluate.metrics import ndcg_at_k

    return sum(ndcg_at_k(q.judged(rank(q)), q.qrels, K) for q in questions) / len(questions)


def fused(config, depth: int) -> Callable[[Question], list]:
    """The ranking `hybrid` makes from a question's two lists under a `Fusion` config."""
    from preuve.retrieve import Hybrid, Options, fuse
    from preuve.retrieve.adaptive import COMPANION, TRANSLATED

    options = Options(params={"hybrid": Hybrid(fusion=config, candidates=depth)})

    def rank(q: Question) -> list:
        lists = {"bm25": q.bm25[:depth], "dense": q.dense[:depth],
                 TRANSLATED: q.translated[:depth], COMPANION: q.companion[:depth]}
        return fuse(q.text, lists, depth, options)
    return rank


def depth_of(name: str) -> int:
    """Candidates per method as `preuve eval` asks: k=10 for reference files (20 candidates),
    50 chunks for collections (records span several chunks)."""
    return 20 if name in REFERENCES else DEPTH


def grid() -> list:
    """Every field but identifier_bm25 pinned, so a change of defaults leaves the grid as is."""
    from preuve.retrieve import Fusion

    base = {"identifier_bm25": 2.0, "foreign_bm25": 1.0, "spread": 0.0, "coverage": 0.0,
            "covered": 0.0, "companion": 0.0}
    configs = [Fusion(**{**base, "kind": "rrf", "bm25": 1.0, "crossing_bm25": 0.0,
                         "translated": 0.5})]  # before: RRF (as the first lines of issue 13)
    for bm25, crossing, translated in itertools.product((0.3, 1.0), (0.0, 1.0), (0.0, 0.5)):
        configs.append(Fusion(**{**base, "kind": "rrf", "bm25": bm25, "crossing_bm25": crossing,
                                 "translated": translated}))
    for bm25, foreign, crossing, spread, translated in itertools.product(
            (0.1, 0.2, 0.3, 0.5, 1.0), (0.0, 1.0), (0.0, 1.0), (0.0, 1.0), (0.0, 0.5)):
        coverages = [(0.0, 0.0)]
        if foreign == 1.0 and translated == 0.5:  # the coverage of the question by bm25's first hit
            coverages += list(itertools.product((1.0, 2.0, 4.0), (0.0, 0.5)))
        for (coverage, covered), companion in itertools.product(coverages, (0.0, 1.0)):
            configs.append(Fusion(kind="combine", bm25=bm25, identifier_bm25=2.0,
                                  foreign_bm25=foreign, crossing_bm25=crossing, spread=spread,
                                  translated=translated, coverage=coverage, covered=covered,
                                  companion=companion))
    return configs


def choose(scores: dict, best: dict, names: list[str]) -> int:
    """The config with the best worst margin over the best single method on `names`
    (ties: the best mean margin)."""
    def key(i):
        margins = [scores[i][n] - best[n] for n in names]
        return (round(min(margins), 4), sum(margins) / len(margins))
    return max(scores, key=key)


def main(argv: list[str] | None = None) -> int:
    pin_threads()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="+", default=[*COLLECTIONS, *REFERENCES],
                        choices=[*COLLECTIONS, *REFERENCES])
    parser.add_argument("--index-dir", default=str(OUT / "fusion-index"))
    parser.add_argument("--piaf-queries", type=int, default=2000,
                        help="fixed-seed sample of PIAF questions (0 = all 7,569)")
    args = parser.parse_args(argv)
    from preuve.retrieve import Fusion

    sets = load_sets(args.sets, args.index_dir, args.piaf_queries or None)
    single = {n: {"bm25": ndcg(qs, lambda q: q.bm25), "dense": ndcg(qs, lambda q: q.dense)}
              for n, qs in sets.items()}
    best = {n: max(v.values()) for n, v in single.items()}
    configs = grid()
    if Fusion() not in configs:
        configs.append(Fusion())
    scores = {i: {n: ndcg(qs, fused(c, depth_of(n))) for n, qs in sets.items()}
              for i, c in enumerate(configs)}
    default = next(i for i, c in enumerate(configs) if c == Fusion())
    names = list(sets)

    print(f"## Fusion on the public sets, nDCG@{K}\n")
    rows = []
    for n in names:
        held = choose(scores, best, [m for m in names if m != n]) if len(names) > 1 else default
        rows.append([n, len(sets[n]), single[n]["bm25"], single[n]["dense"], scores[0][n],
                     scores[default][n], scores[held][n], scores[default][n] - best[n],
                     _name(configs[held])])
    print(table(["set", "questions", "bm25", "dense", "hybrid before (RRF)",
                 "hybrid now (default Fusion)", "chosen without this set",
                 "default − best single", "config chosen without this set"], rows))
    top = choose(scores, best, names)
    print(f"\nchosen on all sets: {_name(configs[top])}; default: {_name(configs[default])}")
    print("\ntop 10 configs by worst margin over the best single method:\n")
    order = sorted(scores, key=lambda i: -min(scores[i][n] - best[n] for n in names))[:10]
    print(table(["config", *names, "worst margin"],
                [[_name(configs[i]), *(scores[i][n] for n in names),
                  min(scores[i][n] - best[n] for n in names)] for i in order]))
    print(f"\n{machine_note()}")
    return 0


def _name(config) -> str:
    return (f"{config.kind} bm25={config.bm25} foreign={config.foreign_bm25} "
            f"crossing={config.crossing_bm25} spread={config.spread} "
            f"translated={config.translated} coverage={config.coverage}/{config.covered} "
            f"companion={config.companion}")


if __name__ == "__main__":
    raise SystemExit(main())
