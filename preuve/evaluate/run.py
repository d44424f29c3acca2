"""Running a retrieval method over reference questions and scoring it.

Two sources of questions: public collections (BEIR, PIAF, Cranfield), whose corpus is
indexed into an eval index of its own beside the main one, and the project's reference
file, asked against the main index with each question's own as-of date and audience.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from preuve import retrieve
from preuve.evaluate.datasets import EvalSet, load
from preuve.evaluate.metrics import Report, evaluate_run
from preuve.evaluate.reference import load_reference
from preuve.ingest import ingest_records
from preuve.retrieve.filters import make_filters
from preuve.store import Store, open_store

REFERENCE_SUFFIXES = (".yaml", ".yml", ".jsonl", ".ndjson")


def is_reference_file(path: str | Path) -> bool:
    return Path(path).suffix in REFERENCE_SUFFIXES


def evaluate_reference(store: Store, path: str | Path, method: str, k: int = 10) -> Report:
    """Score `method` on a reference file against the index in `store`.

    A hit counts for the first judged passage it matches; the ideal ranking is one hit per
    judged passage, so asking for two passages and finding one scores recall 0.5."""
    run, qrels, types = {}, {}, {}
    for question in load_reference(path):
        if question.refuse:
            continue  # nothing to retrieve; counted by answer evaluation instead
        filters = make_filters(question.as_of or "today", question.audience)
        hits = retrieve.search(store, question.question, method=method, k=k, filters=filters)
        ranked = []
        for hit in hits:
            match = next((i for i, rel in enumerate(question.relevant) if rel.matches(hit)), None)
            ranked.append(f"rel{match}" if match is not None else hit.chunk_id)
        run[question.id] = ranked
        qrels[question.id] = {f"rel{i}": 1 for i in range(len(question.relevant))}
        types[question.id] = question.type
    return evaluate_run(run, qrels, types, k=k)


def eval_index_path(main_index: str | None, evalset: EvalSet) -> str:
    """Where a collection's own index lives: `<main index folder>/eval/<name>-<hash>.sqlite`."""
    folder = os.path.dirname(os.path.abspath(main_index or os.path.join(".preuve", "x")))
    digest = hashlib.sha1(evalset.name.encode()).hexdigest()[:8]
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in evalset.name)[:40]
    return os.path.join(folder, "eval", f"{safe}-{digest}.sqlite")


def index_collection(evalset: EvalSet, location: str, progress: bool = False) -> Store:
    """Open (and bring up to date, incrementally) the eval index of a collection."""
    store = open_store(location)
    ingest_records(store, evalset.corpus, source=f"eval:{evalset.name}",
                   language=evalset.language, progress=progress)
    return store


def evaluate_collection(store: Store, evalset: EvalSet, method: str, k: int = 10) -> Report:
    """Score `method` on a collection already indexed in `store` (documents = records)."""
    run, types = {}, {}
    depth = min(200, k * 5)  # records may span several chunks: rank records, not chunks
    filters = make_filters("none")
    for query in evalset.queries:
        hits = retrieve.search(store, query.text, method=method, k=depth, filters=filters)
        ranked: list[str] = []
        for hit in hits:
            if hit.path not in ranked:
                ranked.append(hit.path)
        run[query.id] = ranked[:k]
        types[query.id] = query.type
    return evaluate_run(run, evalset.qrels, types, k=k)


def evaluate(target: str | Path, *, method: str = "bm25", k: int = 10,
             index: str | None = None, progress: bool = False) -> Report:
    """Evaluate on a reference file (against `index`) or a collection (its own index)."""
    if is_reference_file(target):
        store = open_store(index)
        try:
            return evaluate_reference(store, target, method, k)
        finally:
            store.close()
    evalset = load(target)
    store = index_collection(evalset, eval_index_path(index, evalset), progress)
    try:
        return evaluate_collection(store, evalset, method, k)
    finally:
        store.close()
