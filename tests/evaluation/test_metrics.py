"""Retrieval metrics on small examples whose values are worked out by hand."""

from __future__ import annotations

import json
import math

import pytest

from preuve.evaluate.metrics import (
    Report,
    evaluate_run,
    hit_at_k,
    ndcg_at_k,
    recall_at_k,
    reciprocal_rank,
)


def test_hit_at_k_respects_the_cut_off():
    ranked = ["a", "b", "c"]
    assert hit_at_k(ranked, {"c": 1}, k=2) == 0.0
    assert hit_at_k(ranked, {"c": 1}, k=3) == 1.0
    assert hit_at_k(ranked, {"c": 1}, k=10) == 1.0  # k beyond the list is fine


def test_zero_grade_is_not_relevant():
    assert hit_at_k(["a", "b"], {"a": 0, "b": 1}, k=1) == 0.0
    assert reciprocal_rank(["a", "b"], {"a": 0, "b": 1}) == 0.5
    assert recall_at_k(["a"], {"a": 0, "b": 1}, k=1) == 0.0


def test_recall_at_k_counts_the_share_of_relevant_documents_found():
    relevant = {"a": 1, "c": 2, "z": 1}
    assert recall_at_k(["a", "b", "c"], relevant, k=1) == pytest.approx(1 / 3)
    assert recall_at_k(["a", "b", "c"], relevant, k=3) == pytest.approx(2 / 3)
    assert recall_at_k(["a", "a", "a"], relevant, k=3) == pytest.approx(1 / 3)  # no double count
    assert recall_at_k(["a"], {}, k=5) == 0.0


def test_reciprocal_rank_uses_the_whole_list():
    assert reciprocal_rank(["x", "y", "a"], {"a": 1}) == pytest.approx(1 / 3)
    ranked = [f"x{i}" for i in range(11)] + ["a"]
    assert reciprocal_rank(ranked, {"a": 1}) == pytest.approx(1 / 12)
    assert reciprocal_rank(["x", "y"], {"a": 1}) == 0.0
    assert reciprocal_rank([], {"a": 1}) == 0.0


def test_graded_ndcg_when_the_retrieved_order_is_not_the_ideal_one():
    relevant = {"a": 3, "b": 2, "c": 1}
    # retrieved c (gain 1), a (gain 3), x (0); ideal order is a, b, c
    dcg = 1 / math.log2(2) + 3 / math.log2(3)
    ideal = 3 / math.log2(2) + 2 / math.log2(3) + 1 / math.log2(4)
    assert ndcg_at_k(["c", "a", "x"], relevant, k=3) == pytest.approx(dcg / ideal)
    assert ndcg_at_k(["c", "a", "x"], relevant, k=3) == pytest.approx(0.60749, abs=1e-5)
    assert ndcg_at_k(["a", "b", "c"], relevant, k=3) == pytest.approx(1.0)


def test_ndcg_ideal_comes_from_the_judgments_not_from_what_was_retrieved():
    # Only b (gain 2) is retrieved; the ideal still puts a (gain 3) first, so < 1.
    relevant = {"a": 3, "b": 2}
    expected = 2 / (3 + 2 / math.log2(3))
    assert ndcg_at_k(["b"], relevant, k=10) == pytest.approx(expected)
    assert ndcg_at_k(["b"], relevant, k=10) == pytest.approx(0.46928, abs=1e-5)


def test_ndcg_cut_offs():
    relevant = {"a": 1}
    assert ndcg_at_k(["x", "y", "a"], relevant, k=2) == 0.0
    assert ndcg_at_k(["x", "y", "a"], relevant, k=3) == pytest.approx(0.5)  # 1/log2(4)
    # the ideal DCG is cut at k too: one perfect result is all k=1 allows
    assert ndcg_at_k(["a"], {"a": 1, "b": 1, "c": 1}, k=1) == pytest.approx(1.0)


def test_ndcg_never_retrieved_and_duplicates():
    assert ndcg_at_k(["x", "y"], {"a": 2}, k=10) == 0.0
    assert ndcg_at_k(["a", "a", "a"], {"a": 1}, k=3) == pytest.approx(1.0)  # not > 1
    assert ndcg_at_k(["a"], {}, k=10) == 0.0
    assert ndcg_at_k(["a"], {"a": 0}, k=10) == 0.0


@pytest.mark.parametrize("function", [hit_at_k, recall_at_k, ndcg_at_k])
def test_k_must_be_positive(function):
    with pytest.raises(ValueError, match="at least 1"):
        function(["a"], {"a": 1}, 0)


def _example() -> Report:
    run = {
        "q1": ["a", "b"],  # relevant at rank 1
        "q2": ["x", "y", "z", "w", "v", "c"],  # relevant at rank 6, outside k=5
        "q3": ["m"],  # relevant never retrieved
        "q5": ["a"],  # not judged at all: skipped
    }
    qrels = {
        "q1": {"a": 1},
        "q2": {"c": 2},
        "q3": {"n": 1},
        "q4": {"d": 0},  # judged, nothing relevant: skipped
    }
    types = {"q1": "fact", "q2": "fact", "q3": "howto"}
    return evaluate_run(run, qrels, types, k=5)


def test_evaluate_run_means_missed_and_skipped():
    report = _example()
    assert report.n_questions == 3
    assert report.n_skipped == 2
    assert report.missed == ["q2", "q3"]
    assert list(report.metrics) == ["hit@1", "hit@5", "recall@5", "mrr", "ndcg@5"]
    assert report.metrics["hit@1"] == pytest.approx(1 / 3)
    assert report.metrics["hit@5"] == pytest.approx(1 / 3)
    assert report.metrics["recall@5"] == pytest.approx(1 / 3)
    assert report.metrics["mrr"] == pytest.approx((1 + 1 / 6 + 0) / 3)
    assert report.metrics["ndcg@5"] == pytest.approx(1 / 3)
    assert report.per_query["q3"]["ndcg@5"] == 0.0


def test_evaluate_run_per_type():
    report = _example()
    assert set(report.per_type) == {"fact", "howto"}
    assert report.per_type["fact"]["n"] == 2
    assert report.per_type["fact"]["hit@5"] == pytest.approx(0.5)
    assert report.per_type["fact"]["mrr"] == pytest.approx((1 + 1 / 6) / 2)
    assert report.per_type["howto"] == {
        "n": 1,
        "hit@1": 0.0,
        "hit@5": 0.0,
        "recall@5": 0.0,
        "mrr": 0.0,
        "ndcg@5": 0.0,
    }


def test_evaluate_run_default_names_and_untyped_queries():
    report = evaluate_run({"q1": ["a"]}, {"q1": {"a": 1}}, None, k=10)
    assert list(report.metrics) == ["hit@1", "hit@5", "hit@10", "recall@10", "mrr", "ndcg@10"]
    assert report.per_type == {"all": {"n": 1, **report.metrics}}
    assert report.missed == []


def test_a_query_missing_from_the_run_counts_as_a_miss():
    report = evaluate_run({"q1": ["a"]}, {"q1": {"a": 1}, "q2": {"b": 1}}, None, k=10)
    assert report.n_questions == 2
    assert report.missed == ["q2"]
    assert report.metrics["hit@10"] == pytest.approx(0.5)


def test_evaluate_run_refuses_when_nothing_can_be_scored():
    with pytest.raises(ValueError, match="same query ids"):
        evaluate_run({"1": ["a"]}, {"q1": {"a": 0}}, None, k=10)


def test_report_to_dict_is_json_serialisable():
    data = _example().to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["n_questions"] == 3
    assert data["missed"] == ["q2", "q3"]
    assert data["k"] == 5
