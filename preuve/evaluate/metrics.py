"""Retrieval metrics: small pure functions over one ranked list, and a run-level report.

Conventions every function here relies on (loaders are responsible for producing them):

* A judgment maps a document id to a *gain*: bigger is better, and a gain of 0 (or an id
  that is absent) means "not relevant". Collections whose grades run the other way, such
  as Cranfield (1 = best), are converted when they are loaded, never here.
* ``ranked`` is what the system returned, best first. If the same id appears more than
  once (for instance chunk hits mapped back to their documents), only its first position
  earns credit; later copies still occupy their slot. That keeps every score within
  [0, 1] while ``k`` keeps meaning "the first k results shown". Deduplicate the list
  beforehand if you want document-level ranks instead.
* Cut-offs ``k`` must be at least 1: ``k=0`` is always a mistake, not an edge case.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field

from preuve.errors import InvalidInput

DEFAULT_TYPE = "all"


def _check_k(k: int) -> None:
    if k < 1:
        raise InvalidInput(f"cut-off k must be at least 1, got {k}")


def _relevant_ids(relevant: Mapping[str, int]) -> set[str]:
    return {doc_id for doc_id, gain in relevant.items() if gain > 0}


def _first_occurrences(ranked: Sequence[str], k: int | None = None) -> Iterator[tuple[int, str]]:
    """Yield (1-based rank, id) for the first occurrence of each id within the top k."""
    seen: set[str] = set()
    for rank, doc_id in enumerate(ranked if k is None else ranked[:k], start=1):
        if doc_id in seen:
            continue
        seen.add(doc_id)
        yield rank, doc_id


def hit_at_k(ranked: Sequence[str], relevant: Mapping[str, int], k: int) -> float:
    """1.0 if any relevant document (gain > 0) is among the first ``k`` results, else 0.0.

    The question a user asks of a QA tool is "was something useful shown to me at all";
    this is that measure, and the one that matters most when the answer step reads the
    top k passages.
    """
    _check_k(k)
    wanted = _relevant_ids(relevant)
    return 1.0 if any(doc_id in wanted for doc_id in ranked[:k]) else 0.0


def recall_at_k(ranked: Sequence[str], relevant: Mapping[str, int], k: int) -> float:
    """Fraction of the relevant documents (gain > 0) found in the first ``k`` results.

    Unlike hit@k it rewards finding *all* the evidence, which matters when an answer
    needs several passages. Returns 0.0 when nothing is judged relevant, because there is
    nothing to recall (``evaluate_run`` skips such queries rather than averaging that in).
    """
    _check_k(k)
    wanted = _relevant_ids(relevant)
    if not wanted:
        return 0.0
    found = {doc_id for doc_id in ranked[:k] if doc_id in wanted}
    return len(found) / len(wanted)


def reciprocal_rank(ranked: Sequence[str], relevant: Mapping[str, int]) -> float:
    """1 / rank of the first relevant document anywhere in ``ranked``; 0.0 if none.

    Averaged over queries this is MRR: it says how far down a user must read before the
    first useful result. It deliberately uses the whole list it is given, with no cut-off,
    so truncate ``ranked`` yourself if you want MRR@k.
    """
    wanted = _relevant_ids(relevant)
    for rank, doc_id in enumerate(ranked, start=1):
        if doc_id in wanted:
            return 1.0 / rank
    return 0.0


def _dcg(gains: Sequence[float]) -> float:
    # Rank r (1-based) is discounted by log2(r + 1): rank 1 counts fully, rank 3 by half.
    return sum(gain / math.log2(rank + 1) for rank, gain in enumerate(gains, start=1))


def ndcg_at_k(ranked: Sequence[str], relevant: Mapping[str, int], k: int = 10) -> float:
    """Normalised discounted cumulative gain over the first ``k`` results.

    Gain is the judgment grade itself (linear, not 2**grade - 1) with a log2 rank
    discount, so graded collections reward putting the best documents first. The ideal
    DCG is computed from the *judgments* (all relevant grades, best first, cut at k), not
    from the retrieved documents: otherwise a system that retrieves only one weakly
    relevant document would score a perfect 1.0. Returns 0.0 when nothing is judged
    relevant.
    """
    _check_k(k)
    ideal = _dcg(sorted((g for g in relevant.values() if g > 0), reverse=True)[:k])
    if ideal <= 0:
        return 0.0
    gains = [0.0] * min(k, len(ranked))
    for rank, doc_id in _first_occurrences(ranked, k):
        gains[rank - 1] = max(relevant.get(doc_id, 0), 0)
    return _dcg(gains) / ideal


def _metric_names(k: int) -> list[str]:
    names = ["hit@1", "hit@5", f"hit@{k}", f"recall@{k}", "mrr", f"ndcg@{k}"]
    return list(dict.fromkeys(names))  # k = 1 or 5 would repeat a name


def _score_one(ranked: Sequence[str], relevant: Mapping[str, int], k: int) -> dict[str, float]:
    scores = {
        "hit@1": hit_at_k(ranked, relevant, 1),
        "hit@5": hit_at_k(ranked, relevant, 5),
        f"hit@{k}": hit_at_k(ranked, relevant, k),
        f"recall@{k}": recall_at_k(ranked, relevant, k),
        "mrr": reciprocal_rank(ranked, relevant),
        f"ndcg@{k}": ndcg_at_k(ranked, relevant, k),
    }
    return {name: scores[name] for name in _metric_names(k)}


def _mean(rows: Sequence[Mapping[str, float]], names: Sequence[str]) -> dict[str, float]:
    return {name: sum(row[name] for row in rows) / len(rows) for name in names}


@dataclass
class Report:
    """Mean scores of a run, overall and per query type, plus what to look at next.

    ``metrics`` maps names such as "hit@10", "recall@10", "mrr", "ndcg@10" to their mean
    over the ``n_questions`` evaluated queries. ``per_type`` gives the same means for each
    query type, with the type's query count under "n" (so a weak type is not hidden by a
    strong majority). ``missed`` lists, sorted, the queries with no relevant document in
    the top ``k``: the first ones to read when a score drops. ``n_skipped`` counts queries
    that could not be scored because nothing is judged relevant for them.
    """

    k: int
    metrics: dict[str, float]
    per_type: dict[str, dict[str, float]]
    missed: list[str]
    n_questions: int
    n_skipped: int = 0
    per_query: dict[str, dict[str, float]] = field(default_factory=dict, repr=False)

    def to_dict(self) -> dict[str, object]:
        """A JSON-serialisable copy (plain dicts, lists, numbers), for reports and diffs."""
        return asdict(self)


def evaluate_run(
    run: Mapping[str, Sequence[str]],
    qrels: Mapping[str, Mapping[str, int]],
    types: Mapping[str, str] | None = None,
    k: int = 10,
) -> Report:
    """Score a whole run (query id -> ranked doc ids) against judgments.

    The judgments drive what is evaluated: every query with at least one relevant
    document (gain > 0) counts, and a query the run has no entry for scores 0 and is
    listed in ``missed``; a retriever that silently drops a question must not look
    better for it. Queries with no relevant judgment (in ``qrels`` with only zero gains,
    or only in ``run``) cannot be scored and are counted in ``n_skipped`` instead.
    ``types`` maps query ids to a category for the per-type breakdown; queries without
    one fall under "all".

    Raises ValueError when no query can be scored, which almost always means the ids of
    the run and of the judgments do not match (e.g. "1" vs "q1").
    """
    _check_k(k)
    names = _metric_names(k)
    scorable = sorted(qid for qid, rel in qrels.items() if _relevant_ids(rel))
    skipped = (set(qrels) | set(run)) - set(scorable)
    if not scorable:
        raise InvalidInput(
            f"no query can be scored: none of the {len(qrels)} judged queries has a relevant "
            f"document (gain > 0); check that run and qrels use the same query ids"
        )

    per_query: dict[str, dict[str, float]] = {}
    by_type: dict[str, list[dict[str, float]]] = {}
    missed: list[str] = []
    for qid in scorable:
        scores = _score_one(run.get(qid, ()), qrels[qid], k)
        per_query[qid] = scores
        qtype = (types or {}).get(qid) or DEFAULT_TYPE
        by_type.setdefault(qtype, []).append(scores)
        if scores[f"hit@{k}"] == 0.0:
            missed.append(qid)

    rows = list(per_query.values())
    per_type = {
        qtype: {"n": len(type_rows), **_mean(type_rows, names)}
        for qtype, type_rows in sorted(by_type.items())
    }
    return Report(
        k=k,
        metrics=_mean(rows, names),
        per_type=per_type,
        missed=missed,
        n_questions=len(rows),
        n_skipped=len(skipped),
        per_query=per_query,
    )
