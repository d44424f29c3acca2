"""Vectors remembered in memory: the question's (hybrid, `--explain` and `eval --method all`
embed one question for several lists) and the sentences' of the passages an answer reads
(the same passages come back question after question, and embedding their sentences is most
of an extractive answer's cost).

A `VectorMemo` is bounded (least recently used first out), locked (the server answers in a
thread pool) and keyed on the model's identity: `model_key` (its name and revision, the
key the index stores its vectors under), never the embedder object's `id()`, which a new
object gets once the old one is freed. Two objects of one model share what was embedded;
two models never do. Nothing here is derived from an index, so no write invalidates it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np

from preuve.ingest.vectors import model_key


class VectorMemo:
    """At most `size` vectors, by (model, text)."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def vectors(self, embedder, texts: Sequence[str],
                embed: Callable[[list[str]], np.ndarray]) -> np.ndarray:
        """The vectors of `texts` (one row each), embedding with `embed` only those not
        remembered for this embedder's model."""
        model = model_key(embedder)
        with self._lock:
            found = {}
            for text in dict.fromkeys(texts):
                vector = self._items.get((model, text))
                if vector is not None:
                    self._items.move_to_end((model, text))
                found[text] = vector
        missing = [t for t, v in found.items() if v is None]
        if missing:
            made = embed(missing)
            with self._lock:
                for text, vector in zip(missing, made, strict=True):
                    found[text] = vector
                    self._put((model, text), vector)
        return np.stack([found[t] for t in texts])

    def held(self, embedder, text: str) -> np.ndarray | None:
        """The vector remembered for `text` and this embedder's model, or None."""
        with self._lock:
            return self._items.get((model_key(embedder), text))

    def keep(self, embedder, text: str, vector: np.ndarray) -> None:
        """Remember a vector made elsewhere (`retrieve.dense.embed_beside`)."""
        with self._lock:
            self._put((model_key(embedder), text), vector)

    def _put(self, key: tuple[str, str], vector: np.ndarray) -> None:
        """Store as the most recently used, the least recently used out past `size` (the
        lock held)."""
        self._items[key] = vector
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


# the last questions' embeddings (`retrieve.dense.query_vector`)
QUERIES = VectorMemo(256)
# the sentences of passages the extractive answerer scored (`answer.extractive`)
SENTENCES = VectorMemo(20_000)
