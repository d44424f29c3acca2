"""Dense retrieval: the question embedded once, cosine against the index's vectors."""

from __future__ import annotations

import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np

from preuve import memo
from preuve.errors import InvalidInput
from preuve.ingest.vectors import model_key
from preuve.models import Filters, Hit
from preuve.store import Store

_CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def query_vector(embedder, query: str) -> np.ndarray:
    """The query's embedding, remembered for the last questions (`memo.QUERIES`, keyed on
    the model): hybrid, --explain and `eval --method all` ask one question of several
    methods."""
    return memo.QUERIES.vectors(embedder, [query], embedder.embed_queries)[0]


def idle_core() -> bool:
    """Whether another core is free for a worker thread: more than one core, and the load
    average (the process asking counts for one) below the cores less a half. On a busy
    machine two threads of one search only take turns, and every hand-over of the GIL
    waits for the scheduler: measured slower than one thread
    (docs/measurements/benchmarks.md)."""
    if _CORES < 2:
        return False
    try:
        return os.getloadavg()[0] < _CORES - 0.5
    except OSError:  # no load average on this system
        return True


def embed_beside(embedder, query: str) -> Future | None:
    """The query's embedding run in a worker thread while the caller makes the other lists
    (the keyword lists, the companion's embedding): onnxruntime runs without the GIL, so
    with a second core free hybrid waits for its longest stage, not for their sum
    (docs/measurements/benchmarks.md, "Hybrid on a bilingual collection"). The model's
    inputs are made here (`query_runner`: Python work), only the model runs beside. None
    when there is nothing to gain: no idle core (`idle_core`), an embedder without
    `query_runner`, or the vector already remembered (`memo.QUERIES`)."""
    prepare = getattr(embedder, "query_runner", None)
    if prepare is None or not idle_core() or memo.QUERIES.held(embedder, query) is not None:
        return None
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            # one thread per core: concurrent searches (a server's pool) do not queue
            # behind each other's embeddings more than the cores make them
            _POOL = ThreadPoolExecutor(max_workers=_CORES, thread_name_prefix="preuve-embed")
    run = prepare(query)
    started = threading.Event()

    def embed() -> np.ndarray:
        started.set()
        vector = run()  # without the GIL
        memo.QUERIES.keep(embedder, query, vector)
        return vector

    future = _POOL.submit(embed)
    # the worker needs the GIL to start, and a thread holding it lets go only every few
    # milliseconds (`sys.getswitchinterval`): wait until the worker runs; it lets go of the
    # GIL as soon as the model runs
    started.wait()
    return future


def dense(store: Store, query: str, filters: Filters, k: int, *, embedder,
          label: str = "dense", vector: Future | None = None) -> list[Hit]:
    """Top k chunks by cosine similarity, filters applied before the cut; each hit's rank
    and score are kept under `label` in `hit.scores`. `vector`: the query's embedding
    being made elsewhere (`embed_beside`), else it is made here."""
    if embedder is None:
        raise InvalidInput("dense search needs an embedder; this index has no vectors "
                           "(ingest with --embedder e5)")
    made = vector.result() if vector is not None else query_vector(embedder, query)
    hits = store.search_dense(made, model_key(embedder), filters, k)
    for hit in hits:
        hit.scores[label] = {"rank": hit.rank, "score": round(hit.score, 4)}
    return hits
