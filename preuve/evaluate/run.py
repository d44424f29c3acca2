"""Running a retrieval method over reference questions and scoring it.

Two sources of questions: public collections (BEIR, PIAF, Cranfield), whose corpus is
indexed into an eval index of its own beside the main one, and the project's reference
file, asked against the main index with each question's own as-of date and audience.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from preuve.errors import InvalidInput
from preuve.evaluate.datasets import EvalSet, load
from preuve.evaluate.metrics import Report, evaluate_run
from preuve.evaluate.reference import load_reference
from preuve.index import Index, is_database, sibling_index
from preuve.ingest.base import ChunkSettings

REFERENCE_SUFFIXES = (".yaml", ".yml", ".jsonl", ".ndjson")


def is_reference_file(path: str | Path) -> bool:
    return Path(path).suffix in REFERENCE_SUFFIXES


def evaluate_reference(index: Index, path: str | Path, method: str, k: int = 10) -> Report:
    """Score `method` on a reference file against `index`.

    A hit counts for the first judged passage it matches; the ideal ranking is one hit per
    judged passage, so asking for two passages and finding one scores recall 0.5."""
    run, qrels, types = {}, {}, {}
    for question in load_reference(path):
        if question.refuse:
            continue  # nothing to retrieve; counted by answer evaluation instead
        hits = index.search(question.question, method=method, k=k,
                            as_of=question.as_of or "today", audience=question.audience)
        ranked = []
        for hit in hits:
            match = next((i for i, rel in enumerate(question.relevant) if rel.matches(hit)), None)
            ranked.append(f"rel{match}" if match is not None else hit.chunk_id)
        run[question.id] = ranked
        qrels[question.id] = {f"rel{i}": 1 for i in range(len(question.relevant))}
        types[question.id] = question.type
    return evaluate_run(run, qrels, types, k=k)


def eval_index_path(main_index: str | None, evalset: EvalSet, embedder: str,
                    chunking: ChunkSettings | None = None) -> str:
    """A collection's own index: `<main index folder>/eval/<name>-<embedder>-<hash>.sqlite`,
    or, beside a PostgreSQL index, the schema `eval_<name>_<embedder>_<hash>` of its database.
    A chunking other than the default gets an index of its own (`<name>-fixed-100-20-...`)."""
    digest = hashlib.sha1(evalset.name.encode()).hexdigest()[:8]
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in evalset.name)[:40]
    if chunking is not None and chunking.describe() != ChunkSettings().describe():
        safe += "-" + chunking.describe().replace("/", "-")
    if main_index and is_database(main_index):
        return sibling_index(main_index, f"eval_{safe}_{embedder}_{digest}")
    return sibling_index(main_index, f"{safe}-{embedder}-{digest}")


def evaluate_collection(index: Index, evalset: EvalSet, method: str, k: int = 10) -> Report:
    """Score `method` on a collection indexed in `index` (one document per record)."""
    run, types = {}, {}
    for query in evalset.queries:
        run[query.id] = ranked_records(index, query.text, method, record_depth(k))[0][:k]
        types[query.id] = query.type
    return evaluate_run(run, evalset.qrels, types, k=k)


def record_depth(k: int) -> int:
    """Passages searched to rank k records: records may span several chunks."""
    return min(200, k * 5)


def ranked_records(index: Index, text: str, method: str, depth: int) -> tuple[list[str], list]:
    """The record ids (a collection's document paths) in the order of their first passage
    among the top `depth` passages, and those passages."""
    hits = index.search(text, method=method, k=depth, as_of="none")
    return list(dict.fromkeys(hit.path for hit in hits)), hits


def evaluate(target: str | Path, *, methods: list[str | None], k: int = 10,
             index: str | None = None, embedder: str | None = None,
             progress: bool = False, chunking: ChunkSettings | None = None,
             settings=None) -> dict[str, Report]:
    """Evaluate each method (None: the index's default) on a reference file (against the
    index at `index`) or on a collection (indexed, incrementally, into its own index; one
    per `chunking`). `settings`: a `preuve.settings.Settings` for the indexes opened (store
    tuning, cache)."""
    if is_reference_file(target):
        if chunking is not None:
            raise InvalidInput("--chunking compares chunkings on a collection (BEIR, SQuAD, "
                               "Cranfield); for a reference file, ingest one index per "
                               "chunking and evaluate each")
        with Index(index, embedder=embedder, settings=settings) as main:
            names = [m or main.engine.default_method() for m in methods]
            return {m: evaluate_reference(main, target, m, k) for m in names}
    with collection_index(target, methods, index=index, embedder=embedder,
                          progress=progress, chunking=chunking, settings=settings) as (
            own, evalset):
        names = [m or own.engine.default_method() for m in methods]
        return {m: evaluate_collection(own, evalset, m, k) for m in names}


@contextmanager
def collection_index(target: str | Path, methods: list[str | None], *,
                     index: str | None = None, embedder: str | None = None,
                     progress: bool = False, chunking: ChunkSettings | None = None,
                     settings=None) -> Iterator[tuple[Index, EvalSet]]:
    """A collection loaded and its own eval index opened, its corpus ingested
    (incrementally): what `evaluate` and the report of a collection ask. The embedder
    defaults to none when only bm25 is asked, else e5."""
    evalset = load(target)
    embedder = embedder or ("none" if methods == ["bm25"] else "e5")
    with Index(eval_index_path(index, evalset, embedder, chunking), embedder=embedder,
               settings=settings) as own:
        own.ingest_records(evalset.corpus, source=f"eval:{evalset.name}",
                           language=evalset.language, settings=chunking, progress=progress)
        yield own, evalset


def default_versus_best(reports: dict[str, Report], default: str, k: int = 10) -> str | None:
    """One line comparing the default method with the best of the others measured, by
    nDCG@k: what `eval` prints under its tables. None when fewer than two methods ran or
    the default is not among them."""
    key = f"ndcg@{k}"
    if default not in reports or len(reports) < 2:
        return None
    others = {m: r.metrics[key] for m, r in reports.items() if m != default}
    best = max(others, key=lambda m: (others[m], m == "dense"))
    mine, theirs = reports[default].metrics[key], others[best]
    verdict = ("ahead" if mine > theirs + 0.005 else "behind" if mine < theirs - 0.005
               else "level (within 0.005)")
    return (f"default {default} {key} {mine:.3f} vs best other method {best} {theirs:.3f}: "
            f"{mine - theirs:+.3f}, {verdict}")


def default_method(target: str | Path, index: str | None = None,
                   embedder: str | None = None) -> str:
    """The method `search` uses when none is named, for the index `evaluate` asks."""
    if is_reference_file(target):
        with Index(index, embedder=embedder) as main:
            return main.engine.default_method()
    return "bm25" if (embedder or "e5") == "none" else "hybrid"


def plain_dense(evalset: EvalSet, embedder, k: int = 10, passages=None) -> Report:
    """The reference a dense index is held to: each record's title and text embedded once
    (`passage: `), each question once (`query: `), records ranked by cosine; no index, no
    chunking. `passages` may give the record vectors already made (same order as the
    corpus)."""
    import numpy as np

    if passages is None:
        passages = embedder.embed_passages([f"{r.title}\n{r.text}" if r.title else r.text
                                            for r in evalset.corpus])
    queries = [q for q in evalset.queries if evalset.qrels.get(q.id)]
    vectors = embedder.embed_queries([q.text for q in queries])
    ids = [r.id for r in evalset.corpus]
    run = {}
    for row, query in zip(vectors @ np.asarray(passages).T, queries, strict=True):
        run[query.id] = [ids[i] for i in np.argsort(-row, kind="stable")[:k]]
    return evaluate_run(run, evalset.qrels, {q.id: q.type for q in queries}, k=k)
