"""A searcher: the segments of one store state, and BM25F search over them.

The base segment and the segments of the rows written since (`recent`, oldest first), with
the rows of each deleted since it was read (`dead`). Statistics stay per access label: the
searcher counts, per label, its chunks, the tokens of each field and each term's document
frequency, so `idf_C` comes from the labels the caller C may read (chunk counts and
frequencies summed over them, nothing else) and each row's length normalisations from its
own label's averages. Adding, changing or removing a chunk a caller cannot read changes
none of the numbers its scores are computed from.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from preuve.keyword import files, scoring, selection
from preuve.keyword.changes import ChangeSet
from preuve.keyword.segment import Segment
from preuve.models import Filters

_MASKS = 32  # filter masks remembered per searcher
_MISSING = object()
_BLOCK = 8_000_000  # postings per block when computing all impacts of a segment
# segments of up to this many rows sum a query's postings in one np.bincount, larger ones
# add term by term into a per-thread accumulator (`scoring.accumulate`)
_SUM_ROWS = 262_144
# segments of up to this many terms x rows cells (a few hundred chunks) keep their impacts
# as a dense float32 matrix as well (16 MB at most): a query is one gather and one product
_DENSE_CELLS = 4_000_000


class Impacts:
    """The saturated tf (`scoring.impacts`) of every posting of a segment under one set
    of average lengths per label (`key`), computed in float64 and kept in float32 (scores
    to ~1e-6). Mapped from the file saved for them when there is one (processes on one
    index then share its pages); else computed a term at a time, when a query first asks
    for that term: reloading a million-chunk index changes every average length, and
    computing all its impacts at once would hold the next query for seconds."""

    def __init__(self, segment: Segment, key: tuple, body_avg: dict, title_avg: dict):
        self.segment, self.key = segment, key
        self.weight, self.in_body = key[0], key[1]
        self.file = files.impacts_file(segment, key)
        loaded = files.load_impacts(self.file, len(segment.docs)) if self.file else None
        self.values = loaded if loaded is not None else np.empty(len(segment.docs), np.float32)
        self.done = None if loaded is not None else np.zeros(len(segment.vocabulary), bool)
        body_len = segment.lengths if self.in_body else segment.lengths - segment.title_lengths
        labels, of_row = segment.labels, segment.label_of_row
        self.body_norm = scoring.normaliser(body_len, of_row,
                                            [body_avg.get(x, 0.0) for x in labels])
        self.title_norm = scoring.normaliser(segment.title_lengths, of_row,
                                             [title_avg.get(x, 0.0) for x in labels])

    def of(self, terms: Sequence[int]) -> np.ndarray:
        """The values, those of `terms` computed (a thread computing a term another one is
        computing writes the same values)."""
        done = self.done
        if done is not None:
            offsets = self.segment.offsets
            for t in terms:
                if not done[t]:
                    self._compute(int(offsets[t]), int(offsets[t + 1]))
                    done[t] = True
        return self.values

    def complete(self) -> np.ndarray:
        """The values, every one computed."""
        if self.done is not None and not self.done.all():
            for start in range(0, len(self.values), _BLOCK):
                self._compute(start, min(start + _BLOCK, len(self.values)))
            self.done[:] = True
        return self.values

    @property
    def unsaved(self) -> bool:
        """Whether they would be saved (`save`) and are not yet."""
        return bool(self.file) and self.done is not None

    def save(self) -> None:
        """Every value computed and written beside the segment's files, then mapped from
        there (their memory shared with other processes). One thread of one process
        computes them: while another does, this returns at once."""
        if not self.unsaved or self.file is None:
            return
        with files.only_one(self.file) as mine:
            if not mine:
                return
            if files.load_impacts(self.file, len(self.values)) is None:  # (or saved meanwhile)
                files.save_impacts(self.file, self.complete())
        loaded = files.load_impacts(self.file, len(self.values))
        if loaded is not None:
            self.values, self.done = loaded, None

    def _compute(self, lo: int, hi: int) -> None:
        segment = self.segment
        docs = segment.docs[lo:hi]
        tf = segment.tf[lo:hi].astype(np.float64)
        title_tf = segment.title_tf[lo:hi].astype(np.float64)
        self.values[lo:hi] = scoring.impacts(
            tf if self.in_body else tf - title_tf, title_tf, self.body_norm[docs],
            self.title_norm[docs], self.weight)


@dataclass
class Searcher:
    """The base segment and the segments of the rows written since (`recent`, oldest
    first), for one store state (`base_key`: the state the base was made for)."""

    base: Segment
    base_key: str
    recent: list[Segment] = field(default_factory=list)
    recent_keys: list[str] = field(default_factory=list)  # the state each one brought
    # per segment (base first): bool per row, deleted since it was read; None: none were
    dead: list[np.ndarray | None] | None = None
    _masks: dict = field(default_factory=dict, repr=False)
    _buffers: threading.local = field(default_factory=threading.local, repr=False)

    def __post_init__(self) -> None:
        chunks: Counter = Counter()
        tokens: Counter = Counter()
        titles: Counter = Counter()
        for i, segment in enumerate(self.segments()):
            for mine, more in zip((chunks, tokens, titles),
                                  segment.label_sizes(self._dead(i)), strict=True):
                mine.update(more)
        self.chunks, self.tokens, self.title_tokens = chunks, tokens, titles
        self._impacts = [self._impacts_of(s) for s in self.segments()]
        self._dense = [self._dense_of(s, impacts)
                       for s, impacts in zip(self.segments(), self._impacts, strict=True)]
        self._readable_stats: dict = {}

    def segments(self) -> list[Segment]:
        return [self.base, *self.recent]

    def _dead(self, i: int) -> np.ndarray | None:
        return None if self.dead is None else self.dead[i]

    @property
    def recent_rows(self) -> int:
        return sum(len(s) for s in self.recent)

    def with_changes(self, changes: ChangeSet, new: Segment | None, key: str) -> Searcher:
        """The searcher of a later state (`key`): `changes` names what changed since this
        one's, `new` holds the current rows of its inserted ranges (a segment added after
        the others). The segments are shared, not copied."""
        segments = self.segments()
        dead: list[np.ndarray | None] = (list(self.dead) if self.dead is not None
                                         else [None] * len(segments))
        if changes.dead_ids.size:
            for i, segment in enumerate(segments):
                gone = np.isin(segment.columns.rowids, changes.dead_ids)
                if gone.any():
                    held = dead[i]
                    dead[i] = gone if held is None else held | gone
        # a row id reused by a new row (SQLite reuses the ids of the last rows deleted) was
        # deleted first: it is among the dead of its old segment, and lives on in the new one
        recent, keys = list(self.recent), list(self.recent_keys)
        if new is not None and len(new):
            recent.append(new)
            keys.append(key)
            dead.append(None)
        return Searcher(self.base, self.base_key, recent, keys,
                        dead if any(d is not None for d in dead) else None)

    def _impacts_of(self, segment: Segment) -> Impacts:
        """The impacts of the segment's postings under this state's average lengths. A
        row's value depends on its own label's averages only; kept on the segment while
        those (and the parameters) stay the same (a later state whose ingest changed no
        average length reuses them)."""
        weight, in_body = float(scoring.W_TITLE), bool(scoring.TITLE_IN_BODY)
        body_avg, title_avg = scoring.label_averages(self.chunks, self.tokens,
                                                     self.title_tokens, in_body)
        key = (weight, in_body, tuple((body_avg.get(x, 0.0), title_avg.get(x, 0.0))
                                      for x in segment.labels))
        if segment.impacts is not None and segment.impacts[0] == key:
            return segment.impacts[1]
        impacts = Impacts(segment, key, body_avg, title_avg)
        segment.impacts = (key, impacts)
        return impacts

    @staticmethod
    def _dense_of(segment: Segment, impacts: Impacts) -> np.ndarray | None:
        if len(segment) * len(segment.vocabulary) > _DENSE_CELLS:
            return None
        return scoring.dense_matrix(segment.offsets, segment.docs, impacts.complete(),
                                    len(segment))

    def save_impacts(self) -> None:
        """Compute every impact of the base and save them beside it: processes that open
        this state map them instead of computing them."""
        self._impacts[0].save()

    @property
    def impacts_unsaved(self) -> bool:
        return self._impacts[0].unsaved

    def _stats(self, readable: tuple[str, ...] | None) -> tuple[int, list, list]:
        """(chunks, label indexes per segment, df per term per segment) of the labels a
        caller reads: its statistics, and nothing else's."""
        found = self._readable_stats.get(readable)
        if found is None:
            labels = [x for x in self.chunks if readable is None or x in readable]
            codes = [[j for j, x in enumerate(s.labels) if x in labels]
                     for s in self.segments()]
            df = [s.df[c].sum(axis=0) for s, c in zip(self.segments(), codes, strict=True)]
            found = (sum(self.chunks[x] for x in labels), codes, df)
            self._readable_stats[readable] = found
        return found

    def search(self, terms: Sequence[str], filters: Filters, k: int
               ) -> list[tuple[int, float]]:
        """(rowid, score) of the top k rows the filters allow, best first, ties by rowid."""
        if k <= 0 or not terms:
            return []
        n_chunks, codes, dfs = self._stats(filters.readable_labels())
        segments = self.segments()
        # per segment, (idf, term id) of the query's terms that segment holds
        weighted: list[list[tuple[float, int]]] = [[] for _ in segments]
        repeats: dict[str, int] = {}  # a repeated term counts again (as in FTS5)
        for term in terms:
            repeats[term] = repeats.get(term, 0) + 1
        if len(segments) == 1 and self.dead is None:  # one segment, nothing deleted since
            vocabulary, df_of, mine = segments[0].vocabulary, dfs[0], weighted[0]
            for term, times in repeats.items():
                t = vocabulary.get(term)
                if t is not None and (df := int(df_of[t])):
                    mine.append((times * scoring.idf(n_chunks, df), t))
        else:
            for term, times in repeats.items():
                term_ids = [s.vocabulary.get(term) for s in segments]
                df = self._df(term_ids, codes, dfs)
                if df:
                    idf = times * scoring.idf(n_chunks, df)
                    for mine, t in zip(weighted, term_ids, strict=True):
                        if t is not None:
                            mine.append((idf, t))
        found = [self._score(i, segment, weighted[i], filters, k)
                 for i, segment in enumerate(segments) if weighted[i]]
        if not found:
            return []
        ids, scores = (found[0] if len(found) == 1
                       else map(np.concatenate, zip(*found, strict=True)))
        return selection.ranked(ids, scores, k)

    def _df(self, ids: list[int | None], codes: list, dfs: list) -> int:
        """A term's document frequency among the caller's labels (`ids`: its id per
        segment)."""
        df = 0
        for i, t in enumerate(ids):
            if t is None:
                continue
            df += int(dfs[i][t])
            dead = self._dead(i)
            if dead is not None:
                segment = self.segments()[i]
                docs = segment.docs[segment.offsets[t]:segment.offsets[t + 1]]
                gone = segment.label_of_row[docs[dead[docs]]]
                df -= int(np.isin(gone, codes[i]).sum())
        return df

    def _score(self, i: int, segment: Segment, weighted: list[tuple[float, int]],
               filters: Filters, k: int) -> tuple[np.ndarray, np.ndarray]:
        keep = self._mask(i, segment, filters)
        dense = self._dense[i]
        if dense is not None:  # a small segment: one gather, one product, one partition
            sums = scoring.dense_sums(weighted, dense)
            rows = selection.at_least_kth_of_all(sums, keep, k)
            return segment.columns.rowids[rows], sums[rows]
        values = self._impacts[i].of([t for _, t in weighted])
        offsets = segment.offsets
        spans = [(idf, int(offsets[t]), int(offsets[t + 1])) for idf, t in weighted]
        buffer = self._buffer(i, len(segment)) if len(segment) > _SUM_ROWS else None
        rows, scores = scoring.accumulate(segment.docs, values, spans, len(segment), buffer)
        rows, scores = selection.at_least_kth(rows, scores, keep, k)
        return segment.columns.rowids[rows], scores

    def _buffer(self, i: int, n: int) -> np.ndarray:
        """A zeroed score accumulator per segment and thread (left zeroed after each use)."""
        buffers = getattr(self._buffers, "segments", None)
        if buffers is None:
            buffers = self._buffers.segments = {}
        if i not in buffers:
            buffers[i] = np.zeros(n, dtype=np.float64)
        return buffers[i]

    def _mask(self, i: int, segment: Segment, filters: Filters) -> np.ndarray | None:
        key = (i, filters)
        found = self._masks.get(key, _MISSING)  # (one lookup: threads share the searcher)
        if found is not _MISSING:
            return found
        keep = segment.columns.mask(filters)
        dead = self._dead(i)
        if dead is not None:
            keep = ~dead if keep is None else keep & ~dead
        if len(self._masks) >= _MASKS:
            self._masks.clear()
        self._masks[key] = keep
        return keep
