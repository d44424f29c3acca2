"""Evaluation: public test collections and the retrieval metrics used to score runs on them."""

from preuve.evaluate.datasets import (
    EvalSet,
    Query,
    Record,
    cranfield_gain,
    load,
    load_beir,
    load_cranfield,
    load_squad,
)
from preuve.evaluate.metrics import (
    Report,
    evaluate_run,
    hit_at_k,
    ndcg_at_k,
    recall_at_k,
    reciprocal_rank,
)

__all__ = [
    "EvalSet",
    "Query",
    "Record",
    "Report",
    "cranfield_gain",
    "evaluate_run",
    "hit_at_k",
    "load",
    "load_beir",
    "load_cranfield",
    "load_squad",
    "ndcg_at_k",
    "recall_at_k",
    "reciprocal_rank",
]
