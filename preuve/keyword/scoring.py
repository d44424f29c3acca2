"""BM25F scoring as small numpy functions (no store, no files:
tests/retrieval/test_keyword_maths.py).

    score(row) = Σ_t idf_C(t) · tf̃·(k1+1) / (tf̃ + k1)
    tf̃ = tf_body / (1 − b + b·len_body(row)/avg_body_label(row))
        + W_TITLE · tf_title / (1 − b + b·len_title(row)/avg_title_label(row))

`impacts` is the saturated part, tf̃·(k1+1) / (tf̃ + k1), of each posting; a query sums
idf × impact over the postings of its terms (`accumulate`, `dense_sums`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

K1, B = 1.2, 0.75
# BM25F: weight of the title field, and whether title words also count in the body field
# (chosen on the public eval sets: docs/evaluation.md, BM25F). With W_TITLE 0 and
# TITLE_IN_BODY this is exactly plain BM25 over `tokens` (FTS5's, k1 1.2, b 0.75).
W_TITLE = 1.5
TITLE_IN_BODY = False


def idf(n_chunks: int, df: int) -> float:
    """FTS5's IDF: log((N − n + 0.5) / (n + 0.5)), floored at 1e-6 for very common terms."""
    value = math.log((n_chunks - df + 0.5) / (df + 0.5)) if n_chunks else 0.0
    return value if value > 0 else 1e-6


def label_averages(chunks: Mapping, tokens: Mapping, title_tokens: Mapping, in_body: bool
                   ) -> tuple[dict, dict]:
    """(average body length, average title length) per label, from its chunk count, its
    tokens and its title field tokens."""
    body, title = {}, {}
    for x, n in chunks.items():
        body[x] = (tokens[x] - (0 if in_body else title_tokens[x])) / n if n else 0.0
        title[x] = title_tokens[x] / n if n else 0.0
    return body, title


def normaliser(lengths: np.ndarray, label_of_row: np.ndarray, averages: Sequence[float]
               ) -> np.ndarray:
    """1 − b + b·len/avg per row, avg that of the row's own label (`averages` per label
    index; float64; 1 where the average is 0)."""
    mean = np.asarray(averages, dtype=np.float64)[label_of_row]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(mean > 0, lengths / np.where(mean > 0, mean, 1.0), 1.0)
    return 1 - B + B * ratio


def impacts(body_tf: np.ndarray, title_tf: np.ndarray, body_norm: np.ndarray,
            title_norm: np.ndarray, weight: float) -> np.ndarray:
    """tf̃·(k1+1) / (tf̃ + k1) of postings (float64), from their body and title term
    frequencies and their rows' normalisers."""
    tilde = body_tf / body_norm
    if weight:
        tilde = tilde + weight * title_tf / title_norm
    return tilde * (K1 + 1) / (tilde + K1)


def accumulate(docs: np.ndarray, values: np.ndarray, spans: Sequence[tuple[float, int, int]],
               n_rows: int, buffer: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
    """(rows, scores) of the rows some span reaches: Σ idf · values[lo:hi] over the
    postings (docs[lo:hi], distinct rows: one term's) of each (idf, lo, hi) span. With a
    `buffer` (zeroed, n_rows float64), term by term into it (left zeroed); else one
    np.bincount over all postings (an array of n_rows per query: cheaper than one
    scatter-add per term up to a few hundred thousand rows)."""
    if len(spans) == 1:
        weight, lo, hi = spans[0]
        return docs[lo:hi], (weight * values[lo:hi]).astype(np.float64)
    if buffer is None:
        sums = np.bincount(np.concatenate([docs[lo:hi] for _, lo, hi in spans]),
                           np.concatenate([w * values[lo:hi] for w, lo, hi in spans]),
                           minlength=n_rows)
        rows = np.flatnonzero(sums != 0)  # (nonzero of a bool array: faster)
        return rows, sums[rows]
    for weight, lo, hi in spans:
        buffer[docs[lo:hi]] += weight * values[lo:hi]
    # (nonzero of a bool array: ~20× faster than of the float one at 1M rows)
    rows = np.flatnonzero(buffer != 0)
    scores = buffer[rows]
    buffer[rows] = 0.0
    return rows, scores


def dense_matrix(offsets: np.ndarray, docs: np.ndarray, values: np.ndarray, n_rows: int
                 ) -> np.ndarray:
    """The values as a dense terms × rows float32 matrix (for small segments)."""
    n_terms = len(offsets) - 1
    dense = np.zeros((n_terms, n_rows), dtype=np.float32)
    dense[np.repeat(np.arange(n_terms), np.diff(offsets)), docs] = values
    return dense


def dense_sums(weighted: Sequence[tuple[float, int]], dense: np.ndarray) -> np.ndarray:
    """Per row, Σ idf · value over the (idf, term id) pairs: one gather, one product."""
    pairs = np.array(weighted)
    return pairs[:, 0] @ dense[pairs[:, 1].astype(np.intp)]
