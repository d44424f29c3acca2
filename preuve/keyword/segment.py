"""A segment: an immutable inverted index over some rows, and its build.

Per term, the rows that hold it and how many times, in compressed sparse rows (`offsets`,
`docs`, `tf`), with how many of those occurrences are in the row's title field
(`title_tf`), the rows' field lengths, their filter columns (`preuve.columns`) and, per
access label, each term's document frequency: the statistics a caller's scores are
computed from are those of the labels it may read, and nothing else's.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from preuve.columns import FilterColumns

_BATCH = 50_000  # rows tokenized at a time while building

# (rowid, tokens, access, kind, effective_from, effective_to, role, path, title_tokens)
Row = tuple


@dataclass
class Segment:
    """An immutable inverted index over some rows, rows in ascending rowid order."""

    columns: FilterColumns  # filter columns and rowids
    lengths: np.ndarray  # int32 tokens per row
    vocabulary: dict[str, int]
    offsets: np.ndarray  # int64 (terms + 1): postings of term t are [offsets[t], offsets[t+1])
    docs: np.ndarray  # int32 row position per posting
    tf: np.ndarray  # uint16/int32 occurrences per posting
    title_tf: np.ndarray  # same type: of them, occurrences in the row's title field
    title_lengths: np.ndarray  # int32 title field tokens per row (within `lengths`)
    labels: list[str | None]  # label of each label index
    label_of_row: np.ndarray  # int16 label index per row
    df: np.ndarray  # int32 (labels, terms): document frequency per label
    # (average lengths per label and parameters, the saturated tf of every posting): see
    # Searcher._impacts_of; the impacts depend on the state, the segment does not
    impacts: tuple[tuple, Any] | None = field(default=None, repr=False)
    # where its arrays are saved ("<file>.<save token>", None: in memory only); files
    # derived from it (its impacts, a segment of the rows written since) are named after it
    stem: str | None = field(default=None, repr=False)
    # a saved segment of rows written since a base: the state it was read from (the base's,
    # or the recent segment's before it), as the file says
    since: str | None = field(default=None, repr=False)

    @classmethod
    def build(cls, rows: Iterable[Row]) -> Segment:
        """From rows in ascending rowid order."""
        vocabulary: defaultdict[str, int] = defaultdict()
        vocabulary.default_factory = vocabulary.__len__
        lookup = vocabulary.__getitem__
        column_rows: list = []
        lengths, title_lengths, pieces = [], [], []
        batch: list[Row] = []

        def flush() -> None:
            first = len(column_rows)
            split = [r[1].split() for r in batch]
            counts = np.fromiter(map(len, split), np.int64, len(split))
            titled = np.minimum(np.fromiter((r[8] or 0 for r in batch), np.int64, len(batch)),
                                counts)
            total = int(counts.sum())
            terms = np.fromiter(map(lookup, (t for s in split for t in s)), np.int64, total)
            local = np.repeat(np.arange(len(batch), dtype=np.int64), counts)
            # position of each token within its row: the first `titled` are the title field
            position = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
            in_title = position < np.repeat(titled, counts)
            keys, inverse, tf = np.unique(terms * len(batch) + local, return_inverse=True,
                                          return_counts=True)
            title_tf = np.bincount(inverse.ravel(), weights=in_title, minlength=keys.size)
            pieces.append(((keys // len(batch)).astype(np.int32),
                           (keys % len(batch) + first).astype(np.int32), tf.astype(np.int32),
                           title_tf.astype(np.int32)))
            lengths.append(counts)
            title_lengths.append(titled)
            column_rows.extend((r[0], *r[2:8]) for r in batch)
            batch.clear()

        for row in rows:
            batch.append(row)
            if len(batch) >= _BATCH:
                flush()
        if batch:
            flush()
        n_terms = len(vocabulary)
        columns = FilterColumns.build(column_rows)
        column_rows.clear()
        offsets, docs, tf_all, title_tf_all = _postings(pieces, n_terms)
        pieces.clear()
        length = (np.concatenate(lengths) if lengths else np.zeros(0, np.int64)).astype(np.int32)
        title_length = (np.concatenate(title_lengths) if title_lengths
                        else np.zeros(0, np.int64)).astype(np.int32)
        labels, label_of_row = labels_of(columns)
        df = label_df(offsets, docs, label_of_row, len(labels))
        return cls(columns, length, dict(vocabulary), offsets, docs, tf_all, title_tf_all,
                   title_length, labels, label_of_row, df)

    def __len__(self) -> int:
        return len(self.lengths)

    def label_sizes(self, dead: np.ndarray | None) -> tuple[Counter, Counter, Counter]:
        """(chunks, tokens, title field tokens) per label of the live rows."""
        live = slice(None) if dead is None else ~dead
        codes = self.label_of_row[live]
        n = len(self.labels)
        chunks = np.bincount(codes, minlength=n)
        tokens = np.bincount(codes, weights=self.lengths[live], minlength=n)
        titles = np.bincount(codes, weights=self.title_lengths[live], minlength=n)
        chunks_of, tokens_of, titles_of = (
            Counter({x: int(v) for x, v in zip(self.labels, counts, strict=True)})
            for counts in (chunks, tokens, titles))
        return chunks_of, tokens_of, titles_of


def _postings(pieces: list, n_terms: int
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(offsets, docs, tf, title_tf) from per-batch pieces (each sorted by term, then row):
    a counting sort of the postings by term."""
    per_term = np.zeros(n_terms, dtype=np.int64)
    for terms, _, _, _ in pieces:
        per_term += np.bincount(terms, minlength=n_terms)
    offsets = np.concatenate([[0], np.cumsum(per_term)]).astype(np.int64)
    total = int(offsets[-1])
    docs = np.empty(total, dtype=np.int32)
    max_tf = max((int(tf.max()) for _, _, tf, _ in pieces if tf.size), default=0)
    tf_all = np.empty(total, dtype=np.uint16 if max_tf < 65_536 else np.int32)
    title_tf_all = np.empty(total, dtype=tf_all.dtype)
    cursor = offsets[:-1].copy()
    for terms, rowpos, tf, title_tf in pieces:
        if not terms.size:
            continue
        starts = np.flatnonzero(np.concatenate([[True], terms[1:] != terms[:-1]]))
        run = np.diff(np.concatenate([starts, [terms.size]]))
        within = np.arange(terms.size) - np.repeat(starts, run)
        at = cursor[terms] + within
        docs[at] = rowpos
        tf_all[at] = tf
        title_tf_all[at] = title_tf
        cursor[terms[starts]] += run
    return offsets, docs, tf_all, title_tf_all


def labels_of(columns: FilterColumns) -> tuple[list[str | None], np.ndarray]:
    """The labels of the rows (None: unlabelled) and each row's index into them."""
    labels: list[str | None] = [None, *sorted(columns.access_codes,
                                              key=columns.access_codes.__getitem__)]
    # access codes are -1 (unlabelled) and 0.. in order: shift by one
    return labels, (columns.access + 1).astype(np.int16)


def label_df(offsets: np.ndarray, docs: np.ndarray, label_of_row: np.ndarray,
             n_labels: int) -> np.ndarray:
    """Document frequency per (label, term)."""
    n_terms = len(offsets) - 1
    df = np.zeros((n_labels, n_terms), dtype=np.int32)
    if not docs.size:
        return df
    term_of = np.repeat(np.arange(n_terms, dtype=np.int64), np.diff(offsets))
    keys = label_of_row[docs].astype(np.int64) * n_terms + term_of
    return np.bincount(keys, minlength=n_labels * n_terms).astype(np.int32).reshape(
        n_labels, n_terms)
