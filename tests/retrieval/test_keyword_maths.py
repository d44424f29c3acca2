"""The keyword engine's maths without a store (preuve/keyword/scoring.py, selection.py,
segment.py, searcher.py): segments built from plain rows, scores checked against
rank_bm25 (plain BM25) and against BM25F written out term by term, per access label."""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from preuve.keyword import scoring, selection
from preuve.keyword.changes import ChangeSet
from preuve.keyword.scoring import K1, B
from preuve.keyword.searcher import Searcher
from preuve.keyword.segment import Segment
from preuve.models import Filters

WORDS = [f"w{i}" for i in range(40)]


def make_rows(n: int, seed: int, labels=("public",), first_id: int = 1) -> list[tuple]:
    """(rowid, tokens, access, kind, from, to, role, path, title_tokens) rows: a title
    field of 1-3 words, then a body of 3-30 words drawn with a skew (common and rare
    words)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        title = [rng.choice(WORDS[:10]) for _ in range(rng.randint(1, 3))]
        body = [WORDS[min(int(rng.expovariate(0.12)), len(WORDS) - 1)]
                for _ in range(rng.randint(3, 30))]
        out.append((first_id + i, " ".join(title + body), labels[i % len(labels)], "text",
                    None, None, "body", f"doc{i % 7}.md", len(title)))
    return out


def bm25f(rows: list[tuple], terms: list[str], readable: set | None) -> dict[int, float]:
    """BM25F as the engine's docstring writes it: IDF from the rows the caller reads,
    each field's length against its own label's average."""
    w, in_body = scoring.W_TITLE, scoring.TITLE_IN_BODY
    fields = {}
    for r in rows:
        tokens = r[1].split()
        fields[r[0]] = (tokens[:r[8]], tokens if in_body else tokens[r[8]:])
    per_label: dict = {}
    for r in rows:
        n, body, title = per_label.get(r[2], (0, 0, 0))
        per_label[r[2]] = (n + 1, body + len(fields[r[0]][1]), title + len(fields[r[0]][0]))
    mine = [r for r in rows if readable is None or r[2] in readable]
    df = Counter(t for r in mine for t in set(r[1].split()))
    out = {}
    for r in mine:
        title, body = fields[r[0]]
        n, body_total, title_total = per_label[r[2]]
        body_norm = 1 - B + B * len(body) / (body_total / n) if body_total else 1.0
        title_norm = 1 - B + B * len(title) / (title_total / n) if title_total else 1.0
        score = 0.0
        for term, times in Counter(terms).items():
            tilde = body.count(term) / body_norm + w * title.count(term) / title_norm
            if tilde:
                idf = math.log((len(mine) - df[term] + 0.5) / (df[term] + 0.5))
                score += times * (idf if idf > 0 else 1e-6) * tilde * (K1 + 1) / (tilde + K1)
        if score:
            out[r[0]] = score
    return out


def top(scores: dict[int, float], k: int) -> list[int]:
    return [rowid for rowid, _ in sorted(scores.items(), key=lambda x: (-x[1], x[0]))[:k]]


def test_plain_bm25_is_rank_bm25s(monkeypatch):
    """With no title weight and title words in the body, the engine is plain BM25: the
    scores of rank_bm25's BM25Okapi (k1 1.2, b 0.75) over the same tokens."""
    monkeypatch.setattr(scoring, "W_TITLE", 0.0)
    monkeypatch.setattr(scoring, "TITLE_IN_BODY", True)
    rows = make_rows(300, seed=1)
    searcher = Searcher(Segment.build(rows), "1xa")
    okapi = BM25Okapi([r[1].split() for r in rows], k1=K1, b=B)
    df = Counter(t for r in rows for t in set(r[1].split()))
    for terms in (["w18"], ["w12", "w20"], ["w14", "w14", "w25"], ["w30", "w16", "w39"]):
        assert all(df[t] < len(rows) / 2 for t in terms)  # (rank_bm25 floors the others)
        want = okapi.get_scores(terms)
        got = dict(searcher.search(terms, Filters(), len(rows)))
        for i, row in enumerate(rows):
            if want[i] > 0:  # (every term here is in fewer than half the rows)
                assert got[row[0]] == pytest.approx(want[i], rel=1e-5), (terms, row[0])
            else:
                assert row[0] not in got


@pytest.mark.parametrize("readable", [None, ("public",), ("public", "staff")])
def test_bm25f_from_the_labels_the_caller_reads(readable):
    rows = make_rows(240, seed=2, labels=("public", "staff", "hr"))
    searcher = Searcher(Segment.build(rows), "1xa")
    audience = {None: None, ("public",): "public", ("public", "staff"): "staff"}[readable]
    for terms in (["w0"], ["w4", "w9", "w22"], ["w2", "w2"], ["w35", "w5"]):
        want = bm25f(rows, terms, None if readable is None else set(readable))
        got = dict(searcher.search(terms, Filters(audience=audience), 1000))
        assert set(got) == set(want)
        for rowid, score in want.items():
            assert got[rowid] == pytest.approx(score, rel=1e-5)


def test_segments_and_changes_score_as_one_segment_of_the_rows_that_remain():
    """A base, rows deleted since and a segment of rows inserted since: the scores of one
    segment built from the rows that remain (statistics summed over segments, the dead
    rows' taken out), whatever the caller reads."""
    base_rows = make_rows(200, seed=3, labels=("public", "staff"))
    new_rows = make_rows(60, seed=4, labels=("staff", "public"), first_id=1000)
    deleted = [r[0] for r in base_rows[::9]]
    changes = ChangeSet(np.asarray(deleted, dtype=np.int64), [(999, 1060)], len(new_rows))
    reloaded = Searcher(Segment.build(base_rows), "1xa").with_changes(
        changes, Segment.build(new_rows), "2xb")
    remaining = [r for r in base_rows if r[0] not in deleted] + new_rows
    whole = Searcher(Segment.build(remaining), "2xb")
    assert len(reloaded.segments()) == 2 and reloaded.dead is not None
    for audience in (None, "public", "staff"):
        for terms in (["w1"], ["w6", "w11"], ["w0", "w18", "w18"]):
            got = reloaded.search(terms, Filters(audience=audience), 25)
            want = whole.search(terms, Filters(audience=audience), 25)
            assert [r for r, _ in got] == [r for r, _ in want]
            assert [s for _, s in got] == pytest.approx([s for _, s in want], rel=1e-6)


def test_other_labels_change_none_of_a_callers_scores():
    """Rows of a label the caller may not read (added, or all gone) move no score of its."""
    public = make_rows(150, seed=5)
    staff = make_rows(150, seed=6, labels=("staff",), first_id=5000)
    alone = Searcher(Segment.build(public), "1xa")
    mixed = Searcher(Segment.build(public + staff), "1xb")
    for terms in (["w2"], ["w8", "w13"]):
        assert (mixed.search(terms, Filters(audience="public"), 40)
                == alone.search(terms, Filters(audience="public"), 40))


def test_accumulation_paths_agree_and_leave_the_buffer_zeroed():
    rng = np.random.default_rng(7)
    n_rows = 500  # three terms' postings: distinct rows within each, as in a segment
    docs = np.concatenate([rng.permutation(n_rows)[:size] for size in (300, 450, 200)])
    docs = docs.astype(np.int32)
    values = rng.random(docs.size).astype(np.float32)
    spans = [(1.5, 0, 300), (0.25, 300, 750), (2.0, 750, 950)]
    rows_a, scores_a = scoring.accumulate(docs, values, spans, n_rows)
    buffer = np.zeros(n_rows)
    rows_b, scores_b = scoring.accumulate(docs, values, spans, n_rows, buffer)
    assert not buffer.any()
    want = np.zeros(n_rows)
    for weight, lo, hi in spans:
        np.add.at(want, docs[lo:hi], weight * values[lo:hi].astype(np.float64))
    for rows, scores in ((rows_a, scores_a), (rows_b, scores_b)):
        assert rows.tolist() == np.flatnonzero(want).tolist()
        assert scores == pytest.approx(want[rows])
    rows_c, scores_c = scoring.accumulate(docs, values, spans[:1], n_rows)
    assert rows_c.tolist() == docs[:300].tolist()
    assert scores_c == pytest.approx(1.5 * values[:300].astype(np.float64))


def test_selection_keeps_the_allowed_best_and_their_ties():
    rows = np.arange(10)
    scores = np.array([5.0, 1, 3, 3, 9, 3, 0.5, 7, 2, 3])
    keep = np.ones(10, dtype=bool)
    keep[4] = False  # the best row is not the caller's
    kept_rows, kept_scores = selection.at_least_kth(rows, scores, keep, 3)
    assert sorted(kept_rows.tolist()) == [0, 2, 3, 5, 7, 9]  # 7, 5, then every 3 (ties)
    assert 4 not in selection.at_least_kth_of_all(scores, keep, 3).tolist()
    assert selection.at_least_kth_of_all(np.array([0.0, 2, 0, 1]), None, 3).tolist() == [1, 3]
    ranked = selection.ranked(kept_rows, kept_scores, 4)
    assert ranked == [(7, 7.0), (0, 5.0), (2, 3.0), (3, 3.0)]  # ties by id
