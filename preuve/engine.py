"""`index.engine`: what an index runs on, for benchmarks, operators and the server's pool.

    index.engine.embedder()            # the embedding model, checked against the index
    index.engine.load(batches, ...)    # a benchmark's prepared chunks, no embedder called
    index.engine.stats()               # what the in-memory keyword and dense engines hold
    index.engine.build_hnsw()          # PostgreSQL's HNSW index, now

The store and the settings the index was opened with, the models it was built with (the
embedder recorded at the first ingest, the companion, the chunking), and the tools a
benchmark or an operator uses (`load`, tools' own `meta` keys, HNSW, `stats`, `rankings`).
Front ends call the verbs of `preuve.Index`; what they need of the models (the default
method, whether the index has vectors, a model loaded once and lent to a pool's other
Index objects) is here too. The benchmarks choose engines and knobs through `Settings`
(`bm25`, `ann_threshold`, `hnsw_threshold`, `hnsw_ef_search`).
"""

from __future__ import annotations

import datetime as dt
import os
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from preuve import paths, retrieve
from preuve.embed import Embedder, get_embedder
from preuve.errors import Conflict, InvalidInput
from preuve.ingest.base import ChunkSettings
from preuve.ingest.vectors import model_key
from preuve.models import Document, Filters, Hit
from preuve.retrieve import Options
from preuve.retrieve.filters import make_filters
from preuve.settings import Settings
from preuve.store import Changes, DenseMatrixHolder, HnswStore, IndexStore, KeywordHolder

DEFAULT_EMBEDDER = "e5"
NO_EMBEDDER = "none"
# meta keys preuve sets itself (ingest, calibrate, eval --report): not a tool's to set
OWN_KEYS = ("embedder", "chunking", "refusal_threshold", "eval_report")


def _chunk_options(recorded: str) -> str:
    strategy, size, overlap = recorded.split("/")
    return f"--chunking {strategy} --chunk-words {size} --chunk-overlap {overlap}"


class Engine:
    """The store, settings and models of one `Index` (see the module's docstring).

    The embedder is recorded in the index at the first ingest (a name such as "e5",
    "use-m3", or "none" for keyword search only). Later calls use the recorded one; asking
    for another is an error naming both, never silently mixed vectors."""

    def __init__(self, store: IndexStore, settings: Settings,
                 embedder: str | Embedder | None = None, reranker=None):
        self.store = store
        self.settings = settings
        self.reranker = reranker
        self._embedder_choice = embedder
        self._embedder: Embedder | None = None
        self._companion: Embedder | None = None

    # -- models ---------------------------------------------------------------------------
    @property
    def embedder_name(self) -> str:
        """The embedder this index uses: recorded, else asked for, else the default."""
        recorded = self.store.get_meta("embedder")
        asked = self._embedder_choice
        asked_name = asked if isinstance(asked, str) or asked is None else "custom"
        return recorded or asked_name or DEFAULT_EMBEDDER

    @property
    def named_embedder(self) -> str | None:
        """The name an ingest records (None for an embedder given as an object)."""
        return self.embedder_name if isinstance(self._embedder_choice, str | None) else None

    def embedder(self, for_ingest: bool = False) -> Embedder | None:
        """The embedder (loaded on first use), checked against what the index recorded."""
        recorded_name = self.store.get_meta("embedder")
        recorded_model = self.store.get_meta("embedder_model")
        asked = self._embedder_choice
        if asked is None or isinstance(asked, str):
            name = (asked or recorded_name or DEFAULT_EMBEDDER).lower()
            if recorded_name == NO_EMBEDDER and name != NO_EMBEDDER and not for_ingest:
                raise InvalidInput(
                    f"{self.store.location} has no vectors (built with --embedder none): "
                    f"use --method bm25, or ingest again with --embedder {name} to add them")
            if recorded_name and recorded_name != NO_EMBEDDER and name != recorded_name:
                raise Conflict(
                    f"{self.store.location} was built with embedder {recorded_name!r} "
                    f"({recorded_model}); you asked for {name!r}. Use --embedder "
                    f"{recorded_name}, or build a new index for {name!r}.")
            if name == NO_EMBEDDER:
                if for_ingest and not recorded_name:
                    self.store.set_meta("embedder", NO_EMBEDDER)
                return None
            if self._embedder is None:
                self._embedder = get_embedder(name, self.settings)
        else:
            name, self._embedder = "custom", asked
        key = model_key(self._embedder)
        if recorded_model and recorded_model != key:
            raise Conflict(
                f"{self.store.location} holds vectors of {recorded_model}, but the embedder "
                f"is {key}: searching would compare vectors of different models. Re-ingest "
                f"into a new index, or use the embedder the index was built with.")
        if for_ingest and recorded_model != key:
            self.store.set_meta("embedder", name)
            self.store.set_meta("embedder_model", key)
            self.store.set_meta("embedder_dimension", str(self._embedder.dimension))
        return self._embedder

    @property
    def has_vectors(self) -> bool:
        """Whether dense search is possible (the index was not built keyword-only)."""
        return self.embedder_name != NO_EMBEDDER

    @property
    def embedder_loaded(self) -> bool:
        return self._embedder is not None

    def lend_embedder(self, embedder: Embedder) -> None:
        """Use an embedder another Index of the same location already loaded (a server's
        pool loads the model once). `embedder()` still checks it against the index."""
        self._embedder = embedder

    # -- what several servers on one database share (the server's pool, guard, uploads) ----
    @property
    def shared_files(self):
        """Where uploads' bytes are kept for every server on the index (`put`, `get`,
        `exclusive`, `sweep`; PostgreSQL), or None: each server's folder holds them."""
        return self.store.files

    @property
    def shared_rates(self):
        """Rate-limit buckets every server on the index spends from (`take`; PostgreSQL),
        or None: each process keeps its own."""
        return self.store.rates

    def default_method(self) -> str:
        """The method a search runs when none is asked: hybrid, bm25 on a keyword-only
        index."""
        return "bm25" if self.embedder_name == NO_EMBEDDER else "hybrid"

    def companion(self) -> Embedder | None:
        """The second embedder (the `companion` setting, `use-m3` by default) whose
        nearest passages hybrid fuses as a list of their own: a multilingual model that
        finds passages across French and English better than e5 (docs/evaluation.md,
        "Companion list"). None for a keyword-only index, an index whose embedder was
        given as an object, or when the setting is `none`. Its vectors are stored beside
        the main ones, keyed by model like them; an index that has none of them yet (built
        before, or the setting changed) searches without this list until an ingest fills
        them in."""
        if not self._has_companion():
            return None
        if self._companion is None:
            self._companion = get_embedder(self._companion_name, self.settings)
        return self._companion

    def _has_companion(self) -> bool:
        """Whether `companion()` gives one (without loading it)."""
        name = self._companion_name
        if name == NO_EMBEDDER or not isinstance(self._embedder_choice, str | None):
            return False
        return self.embedder_name not in (NO_EMBEDDER, name)

    @property
    def _companion_name(self) -> str:
        return (self.settings.companion or NO_EMBEDDER).lower()

    def companion_pair(self, embedder: Embedder | None) -> tuple | None:
        """(companion, its registered name) for an ingest that embeds, else None."""
        companion = self.companion() if embedder is not None else None
        return None if companion is None else (companion, self._companion_name)

    def chunking(self, asked: ChunkSettings | None = None) -> ChunkSettings:
        """The chunking of this index: recorded at the first ingest (strategy, size and
        overlap, like the embedder); later ingests use it. Asking for another on an index
        that holds documents is an error naming both: chunks cut two ways would be ranked
        against each other."""
        recorded = self.store.get_meta("chunking")
        if asked is None:
            return ChunkSettings.parse(recorded) if recorded else ChunkSettings()
        held = self.store.readable_chunks(Filters(navigation=True)) > 0  # counts, no scan
        if not recorded and held:  # built before chunkings were recorded: the default
            recorded = ChunkSettings().describe()
        if recorded and recorded != asked.describe() and held:
            raise Conflict(
                f"{self.store.location} was chunked as {recorded} (strategy/words/overlap); "
                f"you asked for {asked.describe()}. Ingest into a new index to compare "
                "chunkings (`preuve eval SET --chunking ...` does it for a collection), "
                f"or ingest as it was: {_chunk_options(recorded)}.")
        if recorded != asked.describe():
            self.store.set_meta("chunking", asked.describe())
        return asked

    def options(self, *, needs_vectors: bool = False,
                params: dict[str, Any] | None = None) -> Options:
        """The retrieval options of a search: the models (the embedder when
        `needs_vectors`, the companion loaded on first use, the reranker), dictionaries and
        cache folders, and the caller's parameters per method (`params`, e.g.
        {"hybrid": retrieve.Hybrid(candidates=50)}; absent: each method's defaults)."""
        embedder = None
        if needs_vectors:
            embedder = self.embedder()
            if embedder is None:
                raise InvalidInput(f"{self.store.location} has no vectors (built with "
                                   "--embedder none): use --method bm25, or re-ingest with "
                                   "--embedder e5")
        return Options(embedder=embedder, reranker=self.reranker,
                       companion=_OnFirstUse(self.companion) if embedder is not None
                       and self._has_companion() else None,
                       dict_dir=self.settings.dict_dir, cache=self.settings.cache,
                       params=dict(params or {}))

    def rankings(self, query: str, *, k: int = 10, as_of: str | dt.date | None = "today",
                 audience: str | None = None, paths: Sequence[str] = ()) -> dict[str, list[Hit]]:
        """The lists a hybrid search fuses, each `k` deep: "bm25", "dense", "translated"
        (bm25 over the question translated word by word, hits in the other language only;
        [] without dictionaries) and "companion" (the second embedder's, [] without one).
        bench/fusion.py replays fusions over them."""
        filters = make_filters(as_of, audience, paths)
        options = self.options(needs_vectors=True)
        return {method: retrieve.search(self.store, query, method=method, k=k,
                                        filters=filters, options=options)
                for method in ("bm25", "dense")} | {
            "translated": retrieve.translated(self.store, query, filters, k, options),
            "companion": retrieve.companion(self.store, query, filters, k, options)}

    # -- bulk loading, tools' keys, engines (benchmarks, operators) ------------------------
    @property
    def schema_version(self) -> int:
        """The number of the last migration applied (a cheap liveness check)."""
        return self.store.schema_version

    def load(self, batches: Iterable[list[tuple[Document, list]]], *,
             vectors: Callable[[list], list] | None = None, model: str | None = None,
             progress: Callable[[dict[str, float]], None] | None = None) -> dict[str, float]:
        """Write prepared documents and their chunks (tokens and text hashes already set,
        e.g. a synthetic benchmark's), one transaction per batch as an ingest writes, with
        the derived indexes (PostgreSQL's HNSW) built once at the end.

        `vectors(batch)` gives the batch's (text_hash, vector) pairs, stored under `model`
        (a `preuve.ingest.vectors.model_key`) before the batch is written, as an ingest
        does (PostgreSQL writes each chunk row once, with its vector). No embedder is called
        and nothing is recorded about one. `progress` is called after each batch with that
        batch's seconds. Returns the seconds spent writing: {"vectors": ..., "apply": ...}."""
        if vectors is not None and not model:
            raise InvalidInput("load: vectors need the model key they belong to")
        model = model or ""  # (no vectors: no model needed)
        spent = {"vectors": 0.0, "apply": 0.0}
        with self.store.deferred_index():
            for batch in batches:
                step = {"vectors": 0.0, "apply": 0.0}
                if vectors is not None:
                    started = time.perf_counter()
                    self.store.put_vectors(model, vectors(batch))
                    step["vectors"] = time.perf_counter() - started
                started = time.perf_counter()
                self.store.apply(Changes(upserts=list(batch)))
                step["apply"] = time.perf_counter() - started
                for key, seconds in step.items():
                    spent[key] += seconds
                if progress is not None:
                    progress(step)
        return spent

    def prune_vectors(self) -> int:
        """Apply the vector cache's bound now, as each ingest and `forget` do after their
        changes (`preuve.ingest.vectors.prune`): how many orphan vectors were deleted."""
        from preuve.ingest import vectors

        return vectors.prune(self.store)

    def meta(self, key: str) -> str | None:
        """A value recorded in the index under `key` (tools' own keys, e.g. a benchmark's
        cache parameters; preuve's own keys are read through the methods above)."""
        return self.store.get_meta(key)

    def set_meta(self, key: str, value: str) -> None:
        """Record `value` under `key` in the index (tools' own keys only)."""
        if key.startswith(OWN_KEYS):
            raise InvalidInput(f"{key}: preuve's own key, set by ingest and calibrate")
        self.store.set_meta(key, value)

    @property
    def hnsw_ready(self) -> bool:
        """Whether dense search runs through an HNSW index (PostgreSQL; False on SQLite)."""
        return isinstance(self.store, HnswStore) and self.store.hnsw_ready()

    def build_hnsw(self) -> bool:
        """Build the HNSW index now, whatever the `hnsw_threshold` (PostgreSQL; a no-op
        returning False on SQLite or when one is ready)."""
        return isinstance(self.store, HnswStore) and bool(self.store.build_hnsw())

    def drop_hnsw(self) -> None:
        """Drop the HNSW index: dense search is exact until it is built again (PostgreSQL;
        a no-op on SQLite)."""
        if isinstance(self.store, HnswStore):
            self.store.drop_hnsw()

    def stats(self) -> dict:
        """What the in-memory engines hold, for benchmarks.

        `keyword`: the keyword engine's reader (preuve.keyword, one per index and
        process): `builds` (full builds from the rows in this process), `loads` (bases
        mapped from the saved files), `rows` and `postings` of the base (None until a BM25
        query or an ingest has made a searcher), `files` (what a later process maps
        instead of building), `building` (a background build is under way: BM25 is
        answered by the store's SQL meanwhile, each hit saying so), `fallbacks` (queries
        answered so), `parts` (the base and the segments of rows inserted since; 0 before
        it is loaded) and `users` (the stores of this process sharing the reader). `dense`
        (SQLite, once a dense query has loaded the vectors; else None): `vectors`,
        `from_cache` (mapped from the files saved beside the index), `files`, and `ann`
        (None below the `ann_threshold`): `nlist`, `nprobe`, `calibrated_recall`,
        `build_seconds`, `loaded` (from the cache), and the queries it `answered` itself
        or `fell_back` to the exact scan."""
        keyword: dict[str, Any] = {"builds": 0, "loads": 0, "rows": None, "postings": None,
                                   "files": [], "building": False, "fallbacks": 0, "parts": 0,
                                   "users": 0}
        if isinstance(self.store, KeywordHolder):
            keyword = self.store.keywords.stats()
        matrix = (self.store.vector_matrix if isinstance(self.store, DenseMatrixHolder)
                  else None)  # SQLite only
        dense = None
        if matrix is not None:
            ann = matrix.ann
            location = os.path.abspath(self.store.location)
            dense = {"vectors": len(matrix), "from_cache": matrix.from_cache,
                     "files": paths.ann_files(location),
                     "ann": None if ann is None else {
                         "nlist": ann.nlist, "nprobe": ann.nprobe,
                         "calibrated_recall": ann.calibrated_recall,
                         "build_seconds": ann.build_seconds, "loaded": ann.loaded,
                         "answered": matrix.ann_answered, "fell_back": matrix.ann_fell_back}}
        return {"keyword": keyword, "dense": dense}


class _OnFirstUse:
    """An embedder loaded when it is first used: the companion, whose list hybrid asks for
    only where the caller's documents are not all in the question's language, so that a
    question over a one-language collection never loads a second model."""

    def __init__(self, load: Callable[[], Embedder | None]):
        self._load = load
        self._loaded: Embedder | None = None

    def __getattr__(self, name: str):
        if self._loaded is None:
            self._loaded = self._load()
        return getattr(self._loaded, name)
