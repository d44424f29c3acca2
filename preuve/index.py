"""`Index`: the Python API. One object per index, the CLI verbs as methods.

    from preuve import Index
    index = Index(".preuve/index.sqlite")
    index.ingest(["examples"])
    index.search("télétravail", audience="public")
"""

from __future__ import annotations

import datetime as dt
import json
import os
import time
import uuid
from collections.abc import Iterable, Sequence

from preuve import retrieve
from preuve.answer.answerability import (
    DF_CAP,
    E5_DEFAULTS,
    KEYWORD_DEFAULTS,
    Judgment,
    judge,
)
from preuve.answer.conversation import carry_over, rewrite_with_model
from preuve.answer.pipeline import Answer, answer_from_hits, evidence_score
from preuve.embed import Embedder, get_embedder
from preuve.ingest import IngestReport, ingest, ingest_records
from preuve.ingest.base import ChunkSettings
from preuve.ingest.vectors import model_key
from preuve.models import Document, Filters, Hit
from preuve.retrieve import Options
from preuve.retrieve.filters import make_filters
from preuve.store import Changes, Store, open_store

DEFAULT_EMBEDDER = "e5"
NO_EMBEDDER = "none"


def _chunk_options(recorded: str) -> str:
    strategy, size, overlap = recorded.split("/")
    return f"--chunking {strategy} --chunk-words {size} --chunk-overlap {overlap}"


def _located(doc: Document) -> str:
    return os.path.join(doc.root, *doc.path.split("/"))


class Index:
    """An index and the models it was built with.

    The embedder is recorded in the index at the first ingest (`embedder`: a name such as
    "e5", "use-m3", or "none" for keyword search only). Later calls use the recorded one;
    asking for another is an error naming both, never silently mixed vectors."""

    def __init__(self, location: str | os.PathLike | None = None, store: Store | None = None,
                 embedder: str | Embedder | None = None, reranker=None):
        self.store = store or open_store(location)
        self._embedder_choice = embedder
        self._embedder: Embedder | None = None
        self.reranker = reranker

    # -- models ---------------------------------------------------------------------------
    @property
    def embedder_name(self) -> str:
        """The embedder this index uses: recorded, else asked for, else the default."""
        recorded = self.store.get_meta("embedder")
        asked = self._embedder_choice
        asked_name = asked if isinstance(asked, str) or asked is None else "custom"
        return recorded or asked_name or DEFAULT_EMBEDDER

    def embedder(self, for_ingest: bool = False) -> Embedder | None:
        """The embedder (loaded on first use), checked against what the index recorded."""
        recorded_name = self.store.get_meta("embedder")
        recorded_model = self.store.get_meta("embedder_model")
        asked = self._embedder_choice
        if asked is None or isinstance(asked, str):
            name = (asked or recorded_name or DEFAULT_EMBEDDER).lower()
            if recorded_name == NO_EMBEDDER and name != NO_EMBEDDER and not for_ingest:
                raise ValueError(
                    f"{self.store.location} has no vectors (built with --embedder none): "
                    f"use --method bm25, or ingest again with --embedder {name} to add them")
            if recorded_name and recorded_name != NO_EMBEDDER and name != recorded_name:
                raise ValueError(
                    f"{self.store.location} was built with embedder {recorded_name!r} "
                    f"({recorded_model}); you asked for {name!r}. Use --embedder "
                    f"{recorded_name}, or build a new index for {name!r}.")
            if name == NO_EMBEDDER:
                if for_ingest and not recorded_name:
                    self.store.set_meta("embedder", NO_EMBEDDER)
                return None
            if self._embedder is None:
                self._embedder = get_embedder(name)
        else:
            name, self._embedder = "custom", asked
        key = model_key(self._embedder)
        if recorded_model and recorded_model != key:
            raise ValueError(
                f"{self.store.location} holds vectors of {recorded_model}, but the embedder "
                f"is {key}: searching would compare vectors of different models. Re-ingest "
                f"into a new index, or use the embedder the index was built with.")
        if for_ingest and recorded_model != key:
            self.store.set_meta("embedder", name)
            self.store.set_meta("embedder_model", key)
            self.store.set_meta("embedder_dimension", str(self._embedder.dimension))
        return self._embedder

    def chunking(self, asked: ChunkSettings | None = None) -> ChunkSettings:
        """The chunking of this index: recorded at the first ingest (strategy, size and
        overlap, like the embedder); later ingests use it. Asking for another on an index
        that holds documents is an error naming both: chunks cut two ways would be ranked
        against each other."""
        recorded = self.store.get_meta("chunking")
        if asked is None:
            return ChunkSettings.parse(recorded) if recorded else ChunkSettings()
        held = bool(self.store.documents())
        if not recorded and held:  # built before chunkings were recorded: the default
            recorded = ChunkSettings().describe()
        if recorded and recorded != asked.describe() and held:
            raise ValueError(
                f"{self.store.location} was chunked as {recorded} (strategy/words/overlap); "
                f"you asked for {asked.describe()}. Ingest into a new index to compare "
                "chunkings (`preuve eval SET --chunking ...` does it for a collection), "
                f"or ingest as it was: {_chunk_options(recorded)}.")
        if recorded != asked.describe():
            self.store.set_meta("chunking", asked.describe())
        return asked

    def _options(self, **overrides) -> Options:
        needs_vectors = overrides.pop("needs_vectors", False)
        embedder = None
        if needs_vectors:
            embedder = self.embedder()
            if embedder is None:
                raise ValueError(f"{self.store.location} has no vectors (built with "
                                 "--embedder none): use --method bm25, or re-ingest with "
                                 "--embedder e5")
        return Options(embedder=embedder, reranker=self.reranker,
                       **{k: v for k, v in overrides.items() if v is not None})

    # -- verbs ----------------------------------------------------------------------------
    def ingest(self, paths: Iterable[str | os.PathLike], *, access: str | None = None,
               settings: ChunkSettings | None = None, max_bytes: int | None = None,
               max_pages: int | None = None, progress: bool = False) -> IngestReport:
        """Index new and changed files under `paths`, drop deleted ones (one transaction),
        embedding the chunks that have no vector yet. `max_bytes` and `max_pages` (PDF)
        override the default caps of `preuve.ingest.limits`."""
        kwargs = {k: v for k, v in (("max_bytes", max_bytes), ("max_pages", max_pages)) if v}
        settings = self.chunking(settings)
        embedder = self.embedder(for_ingest=True)
        name = self.embedder_name if isinstance(self._embedder_choice, str | None) else None
        return ingest(self.store, paths, settings=settings, default_access=access,
                      progress=progress, embedder=embedder,
                      embedder_name=name if embedder is not None else None, **kwargs)

    def ingest_records(self, records: Iterable, *, source: str, language: str = "",
                       settings: ChunkSettings | None = None,
                       progress: bool = False) -> IngestReport:
        """Index in-memory records (`id`, `title`, `text`), e.g. a reference collection."""
        settings = self.chunking(settings)
        embedder = self.embedder(for_ingest=True)
        name = self.embedder_name if isinstance(self._embedder_choice, str | None) else None
        return ingest_records(self.store, records, source=source, language=language,
                              settings=settings, progress=progress, embedder=embedder,
                              embedder_name=name if embedder is not None else None)

    def search(self, query: str, *, method: str | None = None, k: int = 10,
               as_of: str | dt.date | None = "today", audience: str | None = None,
               paths: Sequence[str] = (), kinds: Sequence[str] = (),
               candidates: int | None = None, weights: dict | None = None,
               navigation: bool = False) -> list[Hit]:
        """Best k passages for `query`; filters apply inside each method. The default
        method is hybrid when the index has vectors, else bm25. Tables of contents and
        indexes (chunks of role "navigation") are left out unless `navigation`."""
        method = method or self.default_method()
        if method not in retrieve.METHODS:
            raise ValueError(f"unknown method {method!r} (available: "
                             f"{', '.join(retrieve.METHODS)})")
        filters = make_filters(as_of, audience, paths, kinds, navigation)
        options = self._options(needs_vectors=method != "bm25", candidates=candidates,
                                weights=weights)
        return retrieve.search(self.store, query, method=method, k=k, filters=filters,
                               options=options)

    def default_method(self) -> str:
        return "bm25" if self.embedder_name == NO_EMBEDDER else "hybrid"

    def where(self, subject: str, *, k: int = 10, as_of: str | dt.date | None = "today",
              audience: str | None = None, paths: Sequence[str] = (),
              method: str = "bm25") -> list[Hit]:
        """Code locations for `subject`, best first. The default, bm25, calls no model at
        all; `method="hybrid"` adds the embedding model."""
        if method not in retrieve.METHODS:
            raise ValueError(f"unknown method {method!r} (available: "
                             f"{', '.join(retrieve.METHODS)})")
        filters = make_filters(as_of, audience, paths)
        options = self._options(needs_vectors=method != "bm25")
        return retrieve.where(self.store, subject, k=k, filters=filters, method=method,
                              options=options)

    # -- answers --------------------------------------------------------------------------
    def calibration(self) -> dict[str, dict]:
        """What `calibrate` stored: evidence measure ("dense", "bm25") -> its result."""
        raw = self.store.get_meta("refusal_threshold")
        data = json.loads(raw) if raw else {}
        return data if all(isinstance(v, dict) for v in data.values()) else {}

    def evidence(self, question: str, hits: list[Hit], **filters) -> tuple[str | None,
                                                                         float | None]:
        """(measure, value) of how well the index can answer `question`: with vectors, the
        best cosine among the chunks the filters allow, whatever method ranked `hits`
        (so one calibrated threshold serves every method); else the best BM25 score."""
        measure, value = evidence_score(hits)
        if measure == "dense" or self.embedder_name == NO_EMBEDDER:
            return measure, value
        best = self.search(question, method="dense", k=1, **filters)
        return ("dense", best[0].score) if best else (None, None)

    def answerability(self, question: str, hits: list[Hit], evidence: tuple, *,
                      as_of=None, audience=None, paths=()) -> Judgment:
        """The default refusal judgment (no calibration needed): coverage of the question's
        words by the passages, IDF counted among the passages the caller may read, and the
        dense evidence against the bundled model's defaults."""
        filters = make_filters(as_of, audience, paths)
        measure, value = evidence
        bundled = self.embedder_name == DEFAULT_EMBEDDER
        return judge(question, hits, value if bundled and measure == "dense" else None,
                     lambda stems: len(self.store.search_bm25(sorted(stems), filters, DF_CAP)),
                     self.store.readable_chunks(Filters()),  # N: every chunk, as before
                     E5_DEFAULTS if bundled else KEYWORD_DEFAULTS)

    def refusal_thresholds(self) -> dict[str, float]:
        """Calibrated evidence thresholds, by the measure they were calibrated on."""
        return {measure: float(r["value"]) for measure, r in self.calibration().items()}

    def ask(self, question: str, *, method: str | None = None, k: int = 5,
            as_of: str | dt.date | None = "today", audience: str | None = None,
            paths: Sequence[str] = (), generator=None, link_base: str | None = None,
            on_token=None, history: list[dict] | None = None,
            retrieval_question: str | None = None) -> Answer:
        """Answer `question` from the index: retrieve, generate (extractive when no
        `generator`), verify every citation, link. Refuses rather than show a citation
        that does not hold."""
        started = time.perf_counter()
        hits = self.search(retrieval_question or question, method=method, k=k, as_of=as_of,
                           audience=audience, paths=paths)
        evidence = self.evidence(retrieval_question or question, hits, as_of=as_of,
                                 audience=audience, paths=paths)
        judgment = self.answerability(retrieval_question or question, hits, evidence,
                                      as_of=as_of, audience=audience, paths=paths)
        timings = {"retrieve": time.perf_counter() - started}
        embedder = None if self.embedder_name == NO_EMBEDDER else self.embedder()
        counter = getattr(embedder, "count_tokens", None)
        return answer_from_hits(question, hits, generator=generator, embedder=embedder,
                                thresholds=self.refusal_thresholds(), link_base=link_base,
                                count_tokens=counter, history=history, on_token=on_token,
                                timings=timings, evidence=evidence, judgment=judgment)

    def chat(self, question: str, *, conversation: str | None = None,
             audience: str | None = None, owner: str | None = None, generator=None,
             **ask_options) -> tuple[str, Answer]:
        """One turn of a conversation (created when `conversation` is None); returns its id
        and the answer. A conversation keeps the audience and the owner (the server's digest
        of an API key; None: the operator) it was opened with: another audience or owner
        gets the same error as for an id that does not exist."""
        new = conversation is None
        if new:
            conversation = uuid.uuid4().hex[:12]
            history: list[dict] = []
        else:
            history = self.history(conversation, audience=audience, owner=owner)
        previous = next((m.get("standalone") or m["content"] for m in reversed(history)
                         if m["role"] == "user"), "")
        rewrite_usage = None
        if previous and generator is not None:
            standalone, rewrite_usage = rewrite_with_model(generator, question, history)
        else:
            standalone = carry_over(question, previous)
        chat_history = [{"role": m["role"], "content": m["content"]} for m in history[-6:]]
        answer = self.ask(question, audience=audience, generator=generator,
                          history=chat_history, retrieval_question=standalone, **ask_options)
        answer.standalone_question = standalone
        if rewrite_usage:
            answer.usage["calls"].insert(0, {"stage": "rewrite", **rewrite_usage})
        if new:  # only once the first answer exists: a failed turn leaves nothing behind
            self.store.create_conversation(conversation, audience, owner)
        self.store.add_message(conversation, "user", question, standalone)
        self.store.add_message(conversation, "assistant", answer.answer,
                               data={"refused": answer.refused, "reason": answer.reason,
                                     "citations": answer.citations})
        return conversation, answer

    def history(self, conversation: str, audience: str | None = None,
                owner: str | None = None) -> list[dict]:
        """A conversation's turns, for the audience and owner that opened it only."""
        exists, opened_for = self.store.conversation_audience(conversation)
        if (not exists or opened_for != audience
                or self.store.conversation_owner(conversation) != owner):
            raise KeyError(f"no conversation {conversation!r}")
        return self.store.messages(conversation)

    def status(self) -> dict:
        stats = self.store.stats()
        stats["embedder"] = self.store.get_meta("embedder_model") or self.store.get_meta(
            "embedder")
        stats["refusal_threshold"] = self.calibration() or None
        return stats

    def documents(self) -> list[Document]:
        return self.store.documents()

    def forget(self, targets: Iterable[str]) -> list[Document]:
        """Remove documents by path, path prefix (a folder) or doc_id; returns those removed."""
        docs = self.store.documents()
        chosen: dict[str, Document] = {}
        for target in targets:
            on_disk = os.path.abspath(target)
            target = target.removeprefix("./").rstrip("/")
            matched = [d for d in docs if target in (d.doc_id, d.path)
                       or d.path.startswith(target + "/")
                       or _located(d) == on_disk or _located(d).startswith(on_disk + os.sep)]
            if not matched:
                raise KeyError(f"{target}: no such document in the index")
            chosen.update((d.doc_id, d) for d in matched)
        if chosen:
            self.store.apply(Changes(removals=list(chosen)))
        return list(chosen.values())

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
