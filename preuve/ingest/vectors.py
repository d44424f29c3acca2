"""Embedding chunks at ingest: only texts with no cached vector, in parallel processes.

Vectors are cached by the hash of the text embedded (title, section and chunk text), per
model revision, so a re-ingest never re-embeds an unchanged chunk. Each batch is
committed as it arrives: a killed ingest keeps the vectors it paid for.

The cache is bounded (`prune`, after each ingest that changed something): vectors no chunk
needs any more (orphans: an edited passage's old text, a removed file's) are kept, the most
recently of use first, up to as many as the index has chunks (at least KEEP_ORPHANS), so
that content coming back (a branch switched back, an edit undone, a file restored) is not
embedded again; older ones are deleted. docs/git-and-watch.md explains the choice.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

import numpy as np

from preuve.ingest.comments import definition_summary
from preuve.ingest.protocols import role_words
from preuve.models import without_fences

BATCH = 32
# orphan vectors each model keeps at least (more in an index with more chunks: `prune`)
KEEP_ORPHANS = 10_000
# an orphan used this recently is never deleted: it may be another process's ingest's
# vector, embedded but not yet applied
GRACE_SECONDS = 3600.0


def passage_text(path: str, title: str, heading: str, symbol: str | None, text: str,
                 context: str = "") -> str:
    """What is embedded for a chunk: where it sits, then what it says. A code definition
    (a chunk with a symbol) is embedded by what it is, not by its body: its file's path
    (`numerotation.py` carries meaning) and its summary (`comments.definition_summary`:
    its name as words, its doc comment or docstring, or else its container's (`context`:
    "{@inheritDoc}" says nothing, its class says what it does), its first line of code)
    and what the standard protocol it implements means (`protocols.role_words`)."""
    if symbol:
        summary = definition_summary(symbol, text, context)
        role = role_words(heading, symbol)  # `fmt` in `impl Display for Version`: as text
        return f"{path}\n{summary}" + (f"\n{role}" if role else "")
    text = without_fences(text)
    context = " — ".join(filter(None, [title, heading]))
    return f"{context}\n{text}" if context else text


def text_hash(passage: str) -> str:
    return hashlib.sha256(passage.encode("utf-8")).hexdigest()


def model_key(embedder) -> str:
    """How the index names a vector space: vectors of other keys are never mixed."""
    return f"{embedder.name}@{embedder.revision}"


_worker_embedder = None


def _init_worker(name: str, settings=None) -> None:
    global _worker_embedder
    os.environ["OMP_NUM_THREADS"] = "1"  # before onnxruntime loads in this process
    from preuve.embed import get_embedder

    _worker_embedder = get_embedder(name, settings)


def _embed_batch(texts: list[str]) -> np.ndarray:
    return _worker_embedder.embed_passages(texts)


def embed_missing(store, embedder, items: Sequence[tuple[str, str]], *, name: str | None = None,
                  workers: int | None = None, progress: bool = False, settings=None) -> int:
    """Embed (hash, text) items whose hash has no vector yet; returns how many were embedded.

    `name` is the embedder's registered name: when given and there is enough work, batches
    go to `workers` processes (one thread each, the fastest layout on small CPUs), which
    make it with `settings` (a `preuve.settings.Settings`)."""
    key = model_key(embedder)
    missing = store.missing_vectors(key, [h for h, _ in items])
    todo = list({h: t for h, t in items if h in missing}.items())
    if not todo:
        return 0
    todo.sort(key=lambda item: len(item[1]))  # similar lengths batch with less padding
    batches = [todo[i:i + BATCH] for i in range(0, len(todo), BATCH)]
    workers = workers or min(2, os.cpu_count() or 1)
    label = name or getattr(embedder, "name", "") or key
    bar = _bar(len(todo), progress, label)
    started = time.perf_counter()
    if name and workers > 1 and len(batches) > 2:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker,
                                 initargs=(name, settings)) as pool:
            futures = {pool.submit(_embed_batch, [t for _, t in b]): b for b in batches}
            for future in as_completed(futures):
                batch = futures[future]
                _store(store, key, embedder, batch, future.result(), bar)
    else:
        for batch in batches:
            _store(store, key, embedder, batch, embedder.embed_passages([t for _, t in batch]), bar)
    if bar is not None:
        bar.close()
        rate = len(todo) / max(time.perf_counter() - started, 1e-9)
        print(f"embedded {len(todo)} passages with {label} ({rate:.1f}/s)", file=sys.stderr)
    return len(todo)


def prune(store) -> int:
    """Apply the cache's bound after an ingest: a model with more orphan vectors than the
    index has chunks (or KEEP_ORPHANS if more) keeps the most recently of use, a tenth
    fewer than that bound (so that the deleting pass, which reads every vector row, runs
    once per tenth of the bound rather than at every ingest), and those used within
    GRACE_SECONDS; the others are deleted. Returns how many were deleted."""
    from preuve.models import Filters

    bound = max(store.readable_chunks(Filters()), KEEP_ORPHANS)
    return store.prune_vectors(bound, bound - bound // 10, time.time() - GRACE_SECONDS)


def _store(store, key, embedder, batch, vectors, bar) -> None:
    if vectors.shape != (len(batch), embedder.dimension):
        raise RuntimeError(f"embedder returned shape {vectors.shape} for {len(batch)} texts")
    store.put_vectors(key, [(h, v) for (h, _), v in zip(batch, vectors, strict=True)])
    if bar is not None:
        bar.update(len(batch))


def _bar(total: int, enabled: bool, label: str = ""):
    """A progress bar on a terminal, named after the model that embeds (the main embedder
    and its companion each have theirs)."""
    if not enabled or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, desc=f"embed ({label})" if label else "embed", unit="passage",
                file=sys.stderr, leave=False)
