"""BM25 in memory for both stores: an inverted index derived from the chunk rows.

FTS5's `bm25()` and PostgreSQL's sparse inner product score every row that matches a query
term: at a million chunks an OR query over a common word reads a third of the collection
(0.2-1.2 s). This index keeps, per term, the rows that hold it and how many times
(compressed sparse rows: `offsets`, `docs`, `tf`), with the rows' filter columns as numpy
arrays (the same columns, and the same `mask`, as the vector matrix of dense search). A
query is a handful of vector operations over the postings of its terms, the filters
applied before the top k is cut:

    score(row) = Σ_t idf_C(t) · tf̃·(k1+1) / (tf̃ + k1)
    tf̃ = tf_body / (1 − b + b·len_body(row)/avg_body_label(row))
        + W_TITLE · tf_title / (1 − b + b·len_title(row)/avg_title_label(row))

BM25F (Robertson & Zaragoza) over two fields of a chunk: its title field, the context
words ingest puts first in `tokens` (path, document title, heading path, symbol; the
`title_tokens` column counts them), and its body (the rest; with TITLE_IN_BODY the whole
of `tokens`, title words included). Each field's term frequency is normalised by that
field's own length against its label's average, the weighted sum saturated once with k1;
a term's document frequency counts a chunk once whichever field holds it. With W_TITLE 0
and TITLE_IN_BODY this is exactly the plain BM25 both stores' SQL paths compute (k1 1.2,
b 0.75, FTS5's IDF) over `tokens`; those paths (Settings bm25="sql": FTS5, sparse vectors)
know no fields and keep scoring plain BM25. Statistics stay per access label, as the
security model requires: the index counts, per label, its chunks, the tokens of each
field and each term's document frequency, so `idf_C` comes from the labels the caller C
may read (chunk counts and frequencies summed over them, nothing else) and each row's
length normalisations from its own label's averages. Adding, changing or removing a chunk
a caller cannot read changes none of the numbers its scores are computed from.

It is derived, never trusted: the store keys it on its state (generation and a random
token drawn by every write) and reads the winners' rows back under the caller's filters in
the same snapshot. Each ingest also records, in the same transaction, what it changed
(`log_entry`: the state it started from, the ids it deleted, the id range it inserted); so
an index made for an earlier state is brought up to date by reading only the rows written
since (`Delta`), provided the chain of entries leads from its state to the current one
without a gap. Otherwise, and once the delta grows past `REBUILD_FRACTION` of the rows, it
is rebuilt from the store's rows: from `BACKGROUND_MIN_ROWS` rows by a background thread
(`Keeper`), the store answering through its SQL BM25 until the index is ready.

From `SAVE_MIN_ROWS` rows a snapshot is saved (`Part.save`, beside the SQLite file or in
the cache folder) with what other processes would otherwise compute again, each file named
after the snapshot's own save and the state or averages it holds: the tf parts of its
postings under the average lengths of a state (`Impacts`: memory-mapped, so processes on
one index share them) and the rows inserted since it, for the last state brought forward
(`built_delta`). A process started after an ingest maps what the first one computed.
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import hashlib
import json
import logging
import os
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from preuve.models import Filters
from preuve.store.matrix import VectorMatrix
from preuve.store.sql import bm25_idf

log = logging.getLogger(__name__)

K1, B = 1.2, 0.75
# BM25F: weight of the title field, and whether title words also count in the body field
# (chosen on the public eval sets: docs/evaluation.md, BM25F)
W_TITLE = 1.5
TITLE_IN_BODY = False
FORMAT = 2
LOG_PREFIX = "bm25log."  # meta keys of the per-ingest change records
LOG_KEEP = 200  # change records kept (an index older than that is rebuilt)
REBUILD_FRACTION = 0.05  # delta rows beyond this share of the snapshot: rebuild it
REBUILD_MIN = 20_000  # ... but never for fewer delta rows than this
SAVE_MIN_ROWS = 20_000  # smaller indexes are rebuilt per process, not saved
# from this many rows a missing index is built in the background (Keeper): a build takes
# ~0.3 ms a row (6 s for 20k rows on a loaded 2-core machine, 10 min for 1M), too long
# to hold a query for; below, the first query waits for it (a few seconds at most)
BACKGROUND_MIN_ROWS = 20_000
# parts of rows inserted since the snapshot, one per state brought forward (`Keeper`): from
# COMPACT_DELTAS they are merged again; beyond MAX_DELTAS (while a background thread merges
# them) the index is not brought forward
COMPACT_DELTAS = 4
MAX_DELTAS = 32
_BATCH = 50_000  # rows tokenized at a time while building
_MASKS = 32  # filter masks remembered per index
_BLOCK = 8_000_000  # postings per block when computing their tf parts
# parts of up to this many rows sum a query's postings in one np.bincount (an array of
# this size per query; cheaper than one scatter-add per term at these sizes), larger ones
# add term by term into a per-thread accumulator
_SUM_ROWS = 262_144
# parts of up to this many terms x rows cells (a few hundred chunks) keep their impacts as
# a dense float32 matrix as well (16 MB at most): a query is one gather and one product
_DENSE_CELLS = 4_000_000

# (rowid, tokens, access, kind, effective_from, effective_to, role, path, title_tokens)
Row = tuple


@dataclass
class Part:
    """An immutable inverted index over some rows, rows in ascending rowid order."""

    columns: VectorMatrix  # filter columns (a vector matrix without vectors) and rowids
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
    # (average lengths per label and parameters, tf part of every posting): see
    # KeywordIndex._impacts_of
    impacts: tuple[tuple, Impacts] | None = field(default=None, repr=False)
    # where its arrays are saved ("<file>.<save token>", None: in memory only); files
    # derived from it (its impacts, a delta brought forward from it) are named after it
    stem: str | None = field(default=None, repr=False)

    @classmethod
    def build(cls, rows: Iterable[Row]) -> Part:
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
            column_rows.extend((r[0], b"", *r[2:8]) for r in batch)
            batch.clear()

        for row in rows:
            batch.append(row)
            if len(batch) >= _BATCH:
                flush()
        if batch:
            flush()
        n_terms = len(vocabulary)
        columns = VectorMatrix.build(column_rows, 0)
        column_rows.clear()
        # counting sort of the postings by term (each piece is sorted by term, then row)
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
        pieces.clear()
        length = (np.concatenate(lengths) if lengths else np.zeros(0, np.int64)).astype(np.int32)
        title_length = (np.concatenate(title_lengths) if title_lengths
                        else np.zeros(0, np.int64)).astype(np.int32)
        labels, label_of_row = _labels(columns)
        df = _label_df(offsets, docs, label_of_row, len(labels))
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

    # -- files ------------------------------------------------------------------------
    def save(self, path: str, key: str) -> None:
        """Write atomically: big arrays as .npy files (memory-mapped when read back) under a
        fresh name, then the small .npz that names them and the key it was made for."""
        token = f"{os.getpid()}-{time.time_ns()}"
        stem = f"{path[:-len('.npz')]}.{token}"
        c = self.columns
        info = {"format": FORMAT, "key": key, "rows": len(self), "token": token,
                "access_codes": c.access_codes, "kind_codes": c.kind_codes, "paths": c.paths,
                "labels": self.labels, "vocabulary": len(self.vocabulary)}
        tmp = f"{path}.{token}.tmp"
        try:
            for name in ("docs", "tf", "title_tf"):
                np.save(f"{stem}.{name}.npy", getattr(self, name), allow_pickle=False)
            words = "\n".join(self.vocabulary).encode("utf-8")
            arrays: dict[str, Any] = {"rowids": c.rowids, "access": c.access, "kinds": c.kinds,
                      "starts": c.starts, "ends": c.ends, "lengths": self.lengths,
                      "title_lengths": self.title_lengths,
                      "offsets": self.offsets, "label_of_row": self.label_of_row,
                      "df": self.df, "words": np.frombuffer(words, dtype=np.uint8)}
            for optional in ("path_ids", "navigation"):
                if getattr(c, optional) is not None:
                    arrays[optional] = getattr(c, optional)
            with open(tmp, "wb") as f:
                np.savez(f, info=np.array(json.dumps(info)), **arrays)
            os.replace(tmp, path)
            self.stem = stem
        except OSError as e:
            log.warning("could not save the BM25 index at %s: %s", path, e)
            for leftover in (tmp, f"{stem}.docs.npy", f"{stem}.tf.npy",
                             f"{stem}.title_tf.npy"):
                _remove(leftover)
            return
        # an earlier save and the files derived from it (processes that mapped them keep
        # their copy)
        for other in glob.glob(glob.escape(path[:-len(".npz")]) + ".*.np[yz]*"):  # (+ locks)
            if not other.startswith(stem + ".") and other != path:
                _remove(other)

    @classmethod
    def load(cls, path: str) -> tuple[Part, str] | None:
        """(the index saved at `path`, the state key it was made for), or None."""
        try:
            with np.load(path, allow_pickle=False) as data:
                info = json.loads(str(data["info"]))
                if info.get("format") != FORMAT:
                    return None
                a = {name: data[name] for name in data.files if name != "info"}
            stem = f"{path[:-len('.npz')]}.{info['token']}"
            docs = np.load(f"{stem}.docs.npy", mmap_mode="r", allow_pickle=False)
            tf = np.load(f"{stem}.tf.npy", mmap_mode="r", allow_pickle=False)
            title_tf = np.load(f"{stem}.title_tf.npy", mmap_mode="r", allow_pickle=False)
        except (OSError, ValueError, KeyError):
            return None
        words = a["words"].tobytes().decode("utf-8")
        vocabulary = {w: i for i, w in enumerate(words.split("\n"))} if words else {}
        if (len(vocabulary) != info["vocabulary"] or len(a["rowids"]) != info["rows"]
                or len(docs) != int(a["offsets"][-1]) or len(tf) != len(docs)
                or len(title_tf) != len(docs) or "title_lengths" not in a):
            return None
        columns = VectorMatrix(a["rowids"], np.zeros((info["rows"], 0), np.float32),
                               a["access"], info["access_codes"], a["kinds"],
                               info["kind_codes"], a["starts"], a["ends"], info["paths"],
                               a.get("path_ids"), navigation=a.get("navigation"),
                               from_cache=True)
        return cls(columns, a["lengths"], vocabulary, a["offsets"], docs, tf, title_tf,
                   a["title_lengths"], info["labels"], a["label_of_row"], a["df"],
                   stem=stem), info["key"]


def _labels(columns: VectorMatrix) -> tuple[list[str | None], np.ndarray]:
    """The labels of the rows (None: unlabelled) and each row's index into them."""
    labels: list[str | None] = [None, *sorted(columns.access_codes,
                                              key=columns.access_codes.__getitem__)]
    # access codes are -1 (unlabelled) and 0.. in order: shift by one
    return labels, (columns.access + 1).astype(np.int16)


def _label_df(offsets: np.ndarray, docs: np.ndarray, label_of_row: np.ndarray,
              n_labels: int) -> np.ndarray:
    n_terms = len(offsets) - 1
    df = np.zeros((n_labels, n_terms), dtype=np.int32)
    if not docs.size:
        return df
    term_of = np.repeat(np.arange(n_terms, dtype=np.int64), np.diff(offsets))
    keys = label_of_row[docs].astype(np.int64) * n_terms + term_of
    return np.bincount(keys, minlength=n_labels * n_terms).astype(np.int32).reshape(
        n_labels, n_terms)


def rows_sql(ranges: list[tuple[int, int]] | None, mark: str = "?") -> tuple[str, list]:
    """The query for the rows an index is made of (all of them, or those of (low, high]
    id ranges), in rowid order; `mark` is the driver's placeholder. The ranges are merged
    first (successive ingests give adjacent or overlapping ones), and each is its own
    SELECT: with five OR'ed ranges SQLite chose a scan of the whole table (1.2 s at 1M)
    over five rowid searches."""
    columns = ("SELECT id, tokens, access, kind, effective_from, effective_to, role, path, "
               "title_tokens FROM chunks")
    if ranges is None:
        return columns + " ORDER BY id", []
    merged = _merged(ranges)
    if not merged:
        return columns + " WHERE 0 = 1", []
    sql = " UNION ALL ".join([f"{columns} WHERE id > {mark} AND id <= {mark}"] * len(merged))
    return sql + " ORDER BY id", [x for pair in merged for x in pair]


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(low, high] ranges as the fewest disjoint ones covering the same ids, ascending."""
    out: list[tuple[int, int]] = []
    for low, high in sorted(r for r in ranges if r[1] > r[0]):
        if out and low <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], high))
        else:
            out.append((low, high))
    return out


def log_entry(parent: str, state: str, deleted: Sequence[int], low: int, high: int,
              inserted: int) -> str:
    """The change record an ingest writes with its own transaction: the state it started
    from (`parent`), the one it made, the chunk ids it deleted, and the `inserted` rows it
    wrote (all with ids within (low, high]: a PostgreSQL sequence leaves gaps, so the span
    may be much wider than the count)."""
    return json.dumps({"parent": parent, "state": state, "deleted": sorted(deleted),
                       "low": low, "high": high, "rows": inserted})


@dataclass
class Delta:
    """What changed since a snapshot: its rows that are gone, and the rows written since."""

    dead_ids: np.ndarray  # int64 rowids deleted (some may not be the snapshot's)
    ranges: list[tuple[int, int]]  # (low, high] id ranges inserted since
    inserted: int = 0  # rows inserted since (some may be deleted again)

    @classmethod
    def chain(cls, start: str, current: str, entries: dict[int, str],
              start_generation: int, generation: int) -> Delta | None:
        """The changes from state `start` (at `start_generation`) to `current`, or None
        when the records do not lead from one to the other without a gap."""
        if generation < start_generation or generation - start_generation > LOG_KEEP:
            return None
        dead: list[int] = []
        ranges: list[tuple[int, int]] = []
        inserted = 0
        state = start
        for g in range(start_generation + 1, generation + 1):
            raw = entries.get(g)
            if raw is None:
                return None
            entry = json.loads(raw)
            if entry["parent"] != state:
                return None
            state = entry["state"]
            dead.extend(entry["deleted"])
            if entry["high"] > entry["low"]:
                ranges.append((entry["low"], entry["high"]))
                # (records written before the count was: the span bounds it)
                inserted += entry.get("rows", entry["high"] - entry["low"])
        if state != current:
            return None
        return cls(np.unique(np.asarray(dead, dtype=np.int64)), ranges, inserted)

    def bound(self) -> int:
        """At most this many rows were inserted since the snapshot."""
        return self.inserted


class Impacts:
    """tf̃·(k1+1) / (tf̃ + k1) of every posting of a part (BM25F, module docstring) under
    one set of average lengths per label (`key`), computed in float64 and kept in float32
    (scores to ~1e-6). Mapped from the file saved for them when there is one (processes on
    one index then share its pages); else computed a term at a time, when a query first
    asks for that term: bringing a million-chunk index forward changes every average length,
    and computing all its impacts at once would hold the next query for seconds."""

    def __init__(self, part: Part, key: tuple, body_avg: dict, title_avg: dict):
        self.part, self.key = part, key
        self.weight, self.in_body = key[0], key[1]
        self.file = _impacts_file(part, key)
        loaded = _load_impacts(self.file, len(part.docs)) if self.file else None
        self.values = loaded if loaded is not None else np.empty(len(part.docs), np.float32)
        self.done = None if loaded is not None else np.zeros(len(part.vocabulary), bool)
        body_len = part.lengths if self.in_body else part.lengths - part.title_lengths
        self.body_norm = self._normaliser(body_len, body_avg)
        self.title_norm = self._normaliser(part.title_lengths, title_avg)

    def _normaliser(self, lengths: np.ndarray, average: dict) -> np.ndarray:
        """1 − b + b·len/avg per row, avg of the row's own label (float64; 1 when 0)."""
        part = self.part
        avg = np.array([average.get(x, 0.0) for x in part.labels], dtype=np.float64)
        mean = avg[part.label_of_row]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(mean > 0, lengths / np.where(mean > 0, mean, 1.0), 1.0)
        return 1 - B + B * ratio

    def of(self, terms: Sequence[int]) -> np.ndarray:
        """The values, those of `terms` computed (a thread computing a term another one is
        computing writes the same values)."""
        done = self.done
        if done is not None:
            offsets = self.part.offsets
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
        """Every value computed and written beside the part's files (`_impacts_file`),
        then mapped from there (their memory shared with other processes). One thread of
        one process computes them: while another does, this returns at once."""
        if not self.unsaved or self.file is None:
            return
        with _only_one(self.file) as mine:
            if not mine:
                return
            if _load_impacts(self.file, len(self.values)) is None:  # (or saved meanwhile)
                _save_impacts(self.file, self.complete())
        loaded = _load_impacts(self.file, len(self.values))
        if loaded is not None:
            self.values, self.done = loaded, None

    def _compute(self, lo: int, hi: int) -> None:
        part = self.part
        docs = part.docs[lo:hi]
        tf = part.tf[lo:hi].astype(np.float64)
        title_tf = part.title_tf[lo:hi].astype(np.float64)
        body_tf = tf if self.in_body else tf - title_tf
        tilde = body_tf / self.body_norm[docs]
        if self.weight:
            tilde += self.weight * title_tf / self.title_norm[docs]
        self.values[lo:hi] = tilde * (K1 + 1) / (tilde + K1)


@dataclass
class KeywordIndex:
    """A snapshot `Part` and parts of the rows written since (`deltas`, oldest first), for
    one store state."""

    base: Part
    base_key: str  # the state the snapshot was made for
    deltas: list[Part] = field(default_factory=list)
    # per part (base first): bool per row, deleted since the part was read; None: none were
    dead: list[np.ndarray | None] | None = None
    _masks: dict = field(default_factory=dict, repr=False)
    _buffers: threading.local = field(default_factory=threading.local, repr=False)

    def __post_init__(self) -> None:
        chunks: Counter = Counter()
        tokens: Counter = Counter()
        titles: Counter = Counter()
        for i, part in enumerate(self.parts()):
            for mine, more in zip((chunks, tokens, titles), part.label_sizes(self._dead(i)),
                                  strict=True):
                mine.update(more)
        self.chunks, self.tokens, self.title_tokens = chunks, tokens, titles
        self._impacts = [self._impacts_of(p) for p in self.parts()]
        self._dense = [self._dense_of(p, impacts)
                       for p, impacts in zip(self.parts(), self._impacts, strict=True)]
        self._readable_stats: dict = {}

    def parts(self) -> list[Part]:
        return [self.base, *self.deltas]

    def _dead(self, i: int) -> np.ndarray | None:
        return None if self.dead is None else self.dead[i]

    @property
    def delta_rows(self) -> int:
        return sum(len(p) for p in self.deltas)

    def advanced(self, delta: Delta, new: Part | None) -> KeywordIndex:
        """This index brought to a later state: `delta` names what changed since its own,
        `new` holds the current rows of its inserted ranges (a part added after the
        others). Its parts are shared, not copied."""
        return _brought_forward(self.base, self.base_key, self.deltas, self.dead, delta, new)

    def _averages(self, in_body: bool) -> tuple[dict, dict]:
        """(average body length, average title length) per label."""
        body, title = {}, {}
        for x, n in self.chunks.items():
            body[x] = (self.tokens[x] - (0 if in_body else self.title_tokens[x])) / n if n else 0.0
            title[x] = self.title_tokens[x] / n if n else 0.0
        return body, title

    def _impacts_of(self, part: Part) -> Impacts:
        """The tf parts of the part's postings under this state's average lengths. A row's
        value depends on its own label's averages only; kept on the part while those (and
        the parameters) stay the same (a later state whose ingest changed no average length
        reuses them)."""
        weight, in_body = float(W_TITLE), bool(TITLE_IN_BODY)
        body_avg, title_avg = self._averages(in_body)
        key = (weight, in_body, tuple((body_avg.get(x, 0.0), title_avg.get(x, 0.0))
                                      for x in part.labels))
        if part.impacts is not None and part.impacts[0] == key:
            return part.impacts[1]
        impacts = Impacts(part, key, body_avg, title_avg)
        part.impacts = (key, impacts)
        return impacts

    @staticmethod
    def _dense_of(part: Part, impacts: Impacts) -> np.ndarray | None:
        """For a small part (terms x rows up to _DENSE_CELLS), its impacts as a dense
        terms x rows matrix: a query is then one gather and one product (see `_score`)."""
        if len(part) * len(part.vocabulary) > _DENSE_CELLS:
            return None
        dense = np.zeros((len(part.vocabulary), len(part)), dtype=np.float32)
        terms = np.repeat(np.arange(len(part.vocabulary)), np.diff(part.offsets))
        dense[terms, part.docs] = impacts.complete()
        return dense

    def save_impacts(self) -> None:
        """Compute every tf part of the snapshot and save them beside it: processes that
        open this state map them instead of computing them."""
        self._impacts[0].save()

    @property
    def impacts_unsaved(self) -> bool:
        return self._impacts[0].unsaved

    def _stats(self, readable: tuple[str, ...] | None) -> tuple[int, list, list]:
        """(chunks, label indexes per part, df per term per part) of the labels a caller
        reads: its statistics, and nothing else's."""
        found = self._readable_stats.get(readable)
        if found is None:
            labels = [x for x in self.chunks if readable is None or x in readable]
            codes = [[j for j, x in enumerate(p.labels) if x in labels] for p in self.parts()]
            df = [p.df[c].sum(axis=0) for p, c in zip(self.parts(), codes, strict=True)]
            found = (sum(self.chunks[x] for x in labels), codes, df)
            self._readable_stats[readable] = found
        return found

    def search(self, terms: Sequence[str], filters: Filters, k: int
               ) -> list[tuple[int, float]]:
        """(rowid, score) of the top k rows the filters allow, best first, ties by rowid."""
        if k <= 0 or not terms:
            return []
        n_chunks, codes, dfs = self._stats(filters.readable_labels())
        parts = self.parts()
        # per part, (idf, term id) of the query's terms that part holds
        weighted: list[list[tuple[float, int]]] = [[] for _ in parts]
        repeats: dict[str, int] = {}  # a repeated term counts again (as in FTS5)
        for term in terms:
            repeats[term] = repeats.get(term, 0) + 1
        if len(parts) == 1 and self.dead is None:  # one part, nothing deleted since
            vocabulary, df_of, mine = parts[0].vocabulary, dfs[0], weighted[0]
            for term, times in repeats.items():
                t = vocabulary.get(term)
                if t is not None and (df := int(df_of[t])):
                    mine.append((times * bm25_idf(n_chunks, df), t))
        else:
            for term, times in repeats.items():
                term_ids = [p.vocabulary.get(term) for p in parts]
                df = self._df(term_ids, codes, dfs)
                if df:
                    idf = times * bm25_idf(n_chunks, df)
                    for mine, t in zip(weighted, term_ids, strict=True):
                        if t is not None:
                            mine.append((idf, t))
        found = [self._score(i, part, weighted[i], filters, k)
                 for i, part in enumerate(parts) if weighted[i]]
        if not found:
            return []
        ids, scores = found[0] if len(found) == 1 else map(np.concatenate, zip(*found, strict=True))
        if ids.size == 1:
            return [(int(ids[0]), float(scores[0]))]
        order = np.lexsort((ids, -scores))[:k]
        return list(zip(ids[order].tolist(), scores[order].tolist(), strict=True))

    def _df(self, ids: list[int | None], codes: list, dfs: list) -> int:
        """A term's document frequency among the caller's labels (`ids`: its id per part)."""
        df = 0
        for i, t in enumerate(ids):
            if t is None:
                continue
            df += int(dfs[i][t])
            dead = self._dead(i)
            if dead is not None:
                part = self.parts()[i]
                docs = part.docs[part.offsets[t]:part.offsets[t + 1]]
                gone = part.label_of_row[docs[dead[docs]]]
                df -= int(np.isin(gone, codes[i]).sum())
        return df

    def _score(self, i: int, part: Part, weighted: list[tuple[float, int]],
               filters: Filters, k: int) -> tuple[np.ndarray, np.ndarray]:
        offsets, dense = part.offsets, self._dense[i]
        if dense is None:
            impacts = self._impacts[i].of([t for _, t in weighted])
        else:  # a small part: one gather, one product, one partition
            pairs = np.array(weighted)  # (idf, term id) per term
            sums = pairs[:, 0] @ dense[pairs[:, 1].astype(np.intp)]
            return self._top_of_all(i, part, sums, filters, k)
        spans = [(idf, int(offsets[t]), int(offsets[t + 1])) for idf, t in weighted]
        rows: np.ndarray
        scores: np.ndarray
        if len(spans) == 1:
            idf, lo, hi = spans[0]
            rows, scores = part.docs[lo:hi], (idf * impacts[lo:hi]).astype(np.float64)
        elif len(part) <= _SUM_ROWS:  # one pass over all postings (see _SUM_ROWS)
            sums = np.bincount(
                np.concatenate([part.docs[lo:hi] for _, lo, hi in spans]),
                np.concatenate([idf * impacts[lo:hi] for idf, lo, hi in spans]),
                minlength=len(part))
            rows = np.flatnonzero(sums != 0)  # (nonzero of a bool array: faster)
            scores = sums[rows]
        else:  # term by term into an accumulator kept zeroed between queries
            buffer = self._buffer(i, len(part))
            for idf, lo, hi in spans:
                buffer[part.docs[lo:hi]] += idf * impacts[lo:hi]
            # (nonzero of a bool array: ~20× faster than of the float one at 1M rows)
            rows = np.flatnonzero(buffer != 0)
            scores = buffer[rows]
            buffer[rows] = 0.0
        keep = self._mask(i, part, filters)
        if keep is not None:
            allowed = keep[rows]
            rows, scores = rows[allowed], scores[allowed]
        if rows.size > k:  # every row scoring at least the k-th best (ties kept for the sort)
            kth = np.partition(scores, rows.size - k)[rows.size - k]
            best = scores >= kth
            rows, scores = rows[best], scores[best]
        return part.columns.rowids[rows], scores

    def _top_of_all(self, i: int, part: Part, sums: np.ndarray, filters: Filters, k: int
                    ) -> tuple[np.ndarray, np.ndarray]:
        """`_score`'s end for a score per row of the part (0: no query term): the rows the
        filters allow scoring at least the k-th best (ties kept for the sort)."""
        keep = self._mask(i, part, filters)
        if keep is not None:
            sums = np.where(keep, sums, 0.0)
        if sums.size > k:
            kth = np.partition(sums, sums.size - k)[sums.size - k]
            rows = np.flatnonzero(sums >= kth) if kth > 0 else np.flatnonzero(sums)
        else:
            rows = np.flatnonzero(sums)
        return part.columns.rowids[rows], sums[rows]

    def _buffer(self, i: int, n: int) -> np.ndarray:
        """A zeroed score accumulator per part and thread (left zeroed after each use)."""
        buffers = getattr(self._buffers, "parts", None)
        if buffers is None:
            buffers = self._buffers.parts = {}
        if i not in buffers:
            buffers[i] = np.zeros(n, dtype=np.float64)
        return buffers[i]

    def _mask(self, i: int, part: Part, filters: Filters) -> np.ndarray | None:
        key = (i, filters)
        if key in self._masks:
            return self._masks[key]
        keep = part.columns.mask(filters)
        dead = self._dead(i)
        if dead is not None:
            keep = ~dead if keep is None else keep & ~dead
        if len(self._masks) >= _MASKS:
            self._masks.clear()
        self._masks[key] = keep
        return keep


# -- files derived from a saved part ------------------------------------------------------
_IMPACTS_KEPT = 2  # impacts files kept per saved part (its averages of the latest states)


def _impacts_file(part: Part, key: tuple) -> str | None:
    """Where the impacts of a saved part under averages `key` are kept (None: not saved).
    Computing them reads every posting (~6 s at a million chunks): a process that finds
    them maps the file instead, and processes on one index share its pages."""
    if part.stem is None or len(part) < SAVE_MIN_ROWS:
        return None
    digest = hashlib.sha1(json.dumps([part.labels, key]).encode()).hexdigest()[:16]
    return f"{part.stem}.impacts-{digest}.npy"


def _load_impacts(path: str, size: int) -> np.ndarray | None:
    try:
        found = np.load(path, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError):
        return None
    return found if found.dtype == np.float32 and found.shape == (size,) else None


def _save_impacts(path: str, impacts: np.ndarray) -> None:
    """Written under a fresh name, then renamed; only the newest files are kept."""
    tmp = f"{path}.{os.getpid()}-{time.time_ns()}.tmp"
    try:
        with open(tmp, "wb") as f:
            np.save(f, impacts, allow_pickle=False)
        os.replace(tmp, path)
    except OSError as e:
        log.warning("could not save the BM25 impacts at %s: %s", path, e)
        _remove(tmp)
        return
    others = glob.glob(glob.escape(path.rsplit(".impacts-", 1)[0]) + ".impacts-*.npy")
    others.sort(key=_modified, reverse=True)
    for other in others[_IMPACTS_KEPT:]:
        if other != path:
            _remove(other)


def _modified(path: str) -> float:
    try:
        return os.path.getmtime(path)
    except OSError:
        return 0.0


_COMPUTING: set[str] = set()  # impacts files this process is computing
_COMPUTING_LOCK = threading.Lock()


@contextlib.contextmanager
def _only_one(path: str) -> Iterator[bool]:
    """Whether this caller is the only one, of all threads and processes, computing the
    file at `path` (True: it holds it until the block ends)."""
    with _COMPUTING_LOCK:
        if path in _COMPUTING:
            yield False
            return
        _COMPUTING.add(path)
    try:
        with build_lock(path, wait=False) as mine:
            yield mine
    finally:
        with _COMPUTING_LOCK:
            _COMPUTING.discard(path)


def _delta_file(base: Part) -> str | None:
    """Where the delta brought forward from a saved part is kept (one per part: the last)."""
    return None if base.stem is None else f"{base.stem}.delta.npz"


def built_delta(base: Part, key: str, rows: Iterable[Row]) -> Part:
    """The part of `rows`, the rows inserted since `base` in state `key`; saved when the
    base is, so that the next process started on this state reads it instead."""
    new = Part.build(rows)
    path = _delta_file(base)
    if path:
        new.save(path, key)
    return new


def with_delta(base: Part, base_key: str, delta: Delta, new: Part | None) -> KeywordIndex:
    """The snapshot `base` brought to a later state: `delta` names what changed, `new` holds
    the current rows of its inserted ranges."""
    return _brought_forward(base, base_key, [], None, delta, new)


def _brought_forward(base: Part, base_key: str, deltas: list[Part],
                     dead: list[np.ndarray | None] | None, delta: Delta,
                     new: Part | None) -> KeywordIndex:
    """The index of parts [base, *deltas] (their rows deleted since: `dead`) after the
    changes `delta` names, the rows it inserted in `new`."""
    parts = [base, *deltas]
    dead = list(dead) if dead is not None else [None] * len(parts)
    if delta.dead_ids.size:
        for i, part in enumerate(parts):
            gone = np.isin(part.columns.rowids, delta.dead_ids)
            if gone.any():
                held = dead[i]
                dead[i] = gone if held is None else held | gone
    # a row id reused by a new row (SQLite reuses the ids of the last rows deleted) was
    # deleted first: it is among the dead of its old part, and lives on in the new one
    deltas = list(deltas)
    if new is not None and len(new):
        deltas.append(new)
        dead.append(None)
    return KeywordIndex(base, base_key, deltas,
                        dead if any(d is not None for d in dead) else None)


class Stopped(Exception):
    """The keeper was closed while its background build ran."""


# what a background build reads in one snapshot of its own (its own connection): the state
# key, and the change records, rows of id ranges and row count of `Keeper.get`
Snapshot = tuple[str, Callable[[], dict[int, str]],
                 Callable[[list[tuple[int, int]] | None], Iterable[Row]], Callable[[], int]]


class Keeper:
    """A store's keyword index for its current state: kept in memory, brought forward by
    the change records when it can be, else loaded from the snapshot file (`path`, when the
    store has one) or rebuilt from every row, and saved there for other processes.

    After an ingest, the index in use is brought forward by the rows that ingest inserted
    only (a part added to it, `KeywordIndex.advanced`): the cost of an ingest's, whatever
    the size of the index. From COMPACT_DELTAS such parts, or a delta beyond the rebuild
    bound, they are merged again (one part of every row inserted since the snapshot, or a
    new snapshot), by a background thread when there is one.

    A build from the rows takes minutes at a million chunks. From `background_rows` rows
    on (BACKGROUND_MIN_ROWS), when the store gives an `opener` (a read snapshot on a
    connection of its own), a missing or stale index that no small delta brings forward is
    made by one background thread instead, and `get` answers None until it is done: the
    store ranks through its SQL BM25 meanwhile (exact plain BM25, not BM25F; filtered and
    with per-label statistics like the index). The thread's index is for the state its own
    snapshot read; a later `get` brings it forward by the change records like any other.
    Should the thread fail, later builds are made in the foreground."""

    def __init__(self, path: str | None,
                 opener: Callable[[], contextlib.AbstractContextManager[Snapshot]] | None = None,
                 background_rows: int | None = None):
        self.path = path
        self.opener = opener
        self.background_rows = (BACKGROUND_MIN_ROWS if background_rows is None
                                else background_rows)
        self.index: KeywordIndex | None = None
        self.key: str | None = None
        self.builds = 0  # full builds from the rows (tests, benchmarks)
        self.fallbacks = 0  # queries answered None while the background build ran
        self.build_hook: Callable[[], None] | None = None  # the thread runs it first (tests)
        self._last: tuple[Part, str] | None = None  # the snapshot in use, and its key
        # what the background thread merged while the index in use was brought forward
        # (for the thread's own state): `get` brings it forward and uses it
        self._merged: tuple[KeywordIndex, str] | None = None
        self._lock = threading.Lock()  # one refresh at a time (threads share a store)
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._failed = False  # a background build failed: build in the foreground

    @property
    def merged_waiting(self) -> bool:
        """Whether the background thread merged an index that `get` has not taken up."""
        return self._merged is not None

    @property
    def building(self) -> bool:
        """Whether a background build is under way."""
        thread = self._thread
        return thread is not None and thread.is_alive()

    def get(self, key: str, entries: Callable[[], dict[int, str]],
            rows: Callable[[list[tuple[int, int]] | None], Iterable[Row]],
            size: Callable[[], int]) -> KeywordIndex | None:
        """The index for state `key` ("<generation>x<token>"), or None while a background
        build runs (class docstring). `entries` reads the change records, `rows(ranges)`
        the rows of (low, high] id ranges (all rows for None), `size` about how many rows
        there are, all in the same snapshot as `key`."""
        with self._lock:
            return self._get(key, entries, rows, size)

    def _get(self, key: str, entries, rows, size) -> KeywordIndex | None:
        if self._merged is not None:
            (merged, merged_key), self._merged = self._merged, None
            taken = merged if merged_key == key else self._advance(
                merged, merged_key, key, entries, rows, False)
            if taken is not None:
                self._last = (merged.base, merged.base_key)
                self.index, self.key = taken, key
        if self.index is not None and self.key == key:
            return self.index
        # no token (an index no ingest has written to since tokens were drawn): kept in
        # this process only, never saved nor loaded; so are small indexes (no file, no lock)
        n_rows = size()
        path = self.path if _token(key) and n_rows >= SAVE_MIN_ROWS else None
        background = (self.opener is not None and not self._failed and not self._stop.is_set()
                      and n_rows >= self.background_rows)
        found = self._advance(self.index, self.key, key, entries, rows, background)
        if found is not None:
            self.index, self.key = found, key
            if background and not self.building and self._to_compact(found):
                self._start_apart(self._last, path is not None)
            return found
        if self.building:
            self.fallbacks += 1
            return None
        self.index = None  # free it before building another
        # in the background case, a delta no bigger than a small build is still read here
        found = self._forward(key, entries, rows, self._bases(path),
                              self.background_rows if background else None)
        if found is None and background:
            last, self._last = self._last, None  # the thread's to use, or to let go
            self._start_apart(last, path is not None)
            self.fallbacks += 1
            return None
        if found is None:
            with build_lock(path) if path else contextlib.nullcontext():
                found = self._forward(key, entries, rows, self._bases(path, disk_only=True))
                if found is None:
                    base = Part.build(rows(None))
                    self.builds += 1
                    if path:
                        base.save(path, key)
                    found = KeywordIndex(base, key)
                    found.save_impacts()
                    self._last = (base, key)
        self.index, self.key = found, key
        if self.opener is not None and found.impacts_unsaved:
            # computed a term at a time meanwhile (`Impacts`)
            threading.Thread(target=found.save_impacts, daemon=True,
                             name="preuve-keyword-impacts").start()
        return found

    def _advance(self, current: KeywordIndex | None, current_key: str | None, key: str,
                 entries, rows, background: bool) -> KeywordIndex | None:
        """`current` (the index of state `current_key`) brought forward to `key` by the
        rows inserted since (read here, in the foreground: up to `background_rows` of them
        when a background thread could read more), or None."""
        if current is None or current_key is None:
            return None
        if len(current.deltas) >= (MAX_DELTAS if background else COMPACT_DELTAS):
            return None
        delta = Delta.chain(_token(current_key), _token(key), entries(),
                            _generation(current_key), _generation(key))
        if delta is None or (background and delta.bound() > self.background_rows):
            return None
        if not delta.ranges:
            return current.advanced(delta, None)
        if current.deltas:
            return current.advanced(delta, Part.build(rows(delta.ranges)))
        # the first rows inserted since the snapshot (any inserted before are gone): saved
        # as its delta for `key` when the snapshot is saved
        return current.advanced(delta, built_delta(current.base, key, rows(delta.ranges)))

    @staticmethod
    def _to_compact(index: KeywordIndex) -> bool:
        return (len(index.deltas) >= COMPACT_DELTAS
                or index.delta_rows > max(REBUILD_MIN, REBUILD_FRACTION * len(index.base)))

    def _start_apart(self, last: tuple[Part, str] | None, saved: bool) -> None:
        self._thread = threading.Thread(target=self._build_apart, args=(last, saved),
                                        daemon=True, name="preuve-keyword-build")
        self._thread.start()

    def _build_apart(self, last: tuple[Part, str] | None, saved: bool) -> None:
        """The background thread: the index of the state its own snapshot reads, brought
        forward from `last` or the saved file, else built from the rows (and saved)."""
        try:
            assert self.opener is not None  # (started only when the store gives one)
            with self.opener() as (key, entries, rows, _):
                if self.build_hook is not None:
                    self.build_hook()
                path = self.path if saved and _token(key) else None

                def stoppable(ranges):
                    for i, row in enumerate(rows(ranges)):
                        if not i % 10_000:
                            self._check_stop()
                        yield row

                with build_lock(path) if path else contextlib.nullcontext():
                    self._check_stop()
                    bases = [*([last] if last is not None else []), *self._bases(path, True)]
                    # (every row inserted since the snapshot read again: one part, saved)
                    found = self._forward(key, entries, stoppable, bases, publish=False,
                                          saved_deltas=False)
                    built = found is None
                    if found is None:
                        base = Part.build(stoppable(None))
                        self._check_stop()
                        if path:
                            base.save(path, key)
                        found = KeywordIndex(base, key)
                    found.save_impacts()  # every tf part computed here, in the background
            with self._lock:
                self.builds += built
                if self.index is None:  # the store answered through SQL meanwhile
                    self._last = (found.base, found.base_key)
                    self.index, self.key = found, key
                else:  # the index in use was brought forward meanwhile: `get` takes it up
                    self._merged = (found, key)
        except Stopped:
            pass
        except Exception:  # the store answered through SQL meanwhile; now it builds itself
            self._failed = True
            log.warning("the background build of the keyword index failed", exc_info=True)

    def _check_stop(self) -> None:
        if self._stop.is_set():
            raise Stopped

    def close(self, wait: float = 10.0) -> None:
        """Stop a background build (the store is closing) and wait for it a while."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(wait)

    def _bases(self, path: str | None, disk_only: bool = False
               ) -> Iterator[tuple[Part, str]]:
        if self._last is not None and not disk_only:
            yield self._last
        if path:
            loaded = Part.load(path)
            if loaded is not None:
                yield loaded

    def _forward(self, key: str, entries, rows, bases, limit: int | None = None,
                 publish: bool = True, saved_deltas: bool = True) -> KeywordIndex | None:
        """The index for `key` from the first base the change records lead from (with at
        most `limit` rows inserted since to read, when given; a delta a process saved is
        read whatever its size), or None. `publish`: remember the
        base as the snapshot in use; `saved_deltas`: start from the delta a process saved
        for a base (`_from_saved_delta`) when there is one."""
        records = None
        for base, base_key in bases:
            found: KeywordIndex | None
            if base_key == key:
                found = KeywordIndex(base, key)
            else:
                records = entries() if records is None else records
                delta = Delta.chain(_token(base_key), _token(key), records,
                                    _generation(base_key), _generation(key))
                if delta is None or delta.bound() > max(REBUILD_MIN,
                                                       REBUILD_FRACTION * len(base)):
                    continue
                found = (self._from_saved_delta(base, base_key, key, records, rows, limit)
                         if saved_deltas else None)
                if found is None:
                    if limit is not None and delta.bound() > limit:
                        continue
                    new = built_delta(base, key, rows(delta.ranges)) if delta.ranges else None
                    found = with_delta(base, base_key, delta, new)
            if publish:
                self._last = (base, base_key)
            return found
        return None


    @staticmethod
    def _from_saved_delta(base: Part, base_key: str, key: str, records: dict[int, str], rows,
                          limit: int | None) -> KeywordIndex | None:
        """`base` with the delta a process saved for it (`built_delta`, for its own state),
        brought forward to `key` by the rows inserted since that state (at most `limit`
        of them when given), or None."""
        path = _delta_file(base)
        loaded = Part.load(path) if path else None
        if loaded is None:
            return None
        part, saved_key = loaded
        before = Delta.chain(_token(base_key), _token(saved_key), records,
                             _generation(base_key), _generation(saved_key))
        since = Delta.chain(_token(saved_key), _token(key), records,
                            _generation(saved_key), _generation(key))
        if before is None or since is None or (limit is not None and since.bound() > limit):
            return None
        index = with_delta(base, base_key, before, part)
        if saved_key == key:
            return index
        return index.advanced(since, Part.build(rows(since.ranges)) if since.ranges else None)


def _generation(key: str) -> int:
    return int(key.split("x", 1)[0] or 0)


def _token(key: str) -> str:
    return key.split("x", 1)[1] if "x" in key else ""


def cache_path(database: str, schema: str, cache: str | None = None) -> str | None:
    """Where the snapshot of a database index is saved: the user's cache folder (the
    `cache` setting, else ~/.cache/preuve), one file per database and schema."""
    from preuve._e5onnx import cache_dir

    folder = str(cache_dir(cache))
    digest = hashlib.sha1(f"{database}\n{schema}".encode()).hexdigest()[:16]
    try:
        os.makedirs(os.path.join(folder, "bm25"), exist_ok=True)
    except OSError:
        return None
    return os.path.join(folder, "bm25", f"{digest}.bm25.npz")


def snapshot_path(location: str) -> str | None:
    """Where the snapshot of the SQLite index at `location` is saved (None: in memory)."""
    if location == ":memory:" or location.startswith("file:"):
        return None
    return os.path.abspath(location) + ".bm25.npz"


@contextlib.contextmanager
def build_lock(path: str, wait: bool = True) -> Iterator[bool]:
    """One process builds a snapshot at a time; the others wait, then load what it saved.
    With `wait` False, whether this caller got the lock (False: another holds it)."""
    try:
        handle = open(path + ".lock", "a+b")
    except OSError:
        yield True
        return
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.remove(path)
