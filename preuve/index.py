"""`Index`: the Python API, and the one door of every front end.

    from preuve import Index
    index = Index(".preuve/index.sqlite")
    index.ingest(["examples"])
    index.search("télétravail", audience="public")

The CLI, the HTTP server, the MCP server, the evaluation and the benchmarks call these
methods and never the store beneath: reads for a caller (`documents`, `document`,
`passage`, `search`, `ask`, `history`) take the caller's audience and show nothing else;
writes (`ingest`, `forget`, `save_calibration`, conversations) go through here too;
feedback on answers is the noun `index.feedback` (preuve/feedback.py), under the same
audience boundary. The
helpers at the bottom (`index_exists`, `shown_location`, `sibling_index`, `copy_index`,
`local_postgres`) are what a front end needs to know about a location without opening it.
The benchmarks load prepared chunks with `load` and choose engines and knobs through
`Settings` (`bm25`, `ann_threshold`, `hnsw_threshold`, `hnsw_ef_search`).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import glob
import json
import os
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence

from preuve import registry, retrieve
from preuve.answer.answerability import (
    DF_CAP,
    E5_DEFAULTS,
    KEYWORD_DEFAULTS,
    PASSAGES,
    Judgment,
    judge,
)
from preuve.answer.changes import change_answer, first_version_answer, what_changed
from preuve.answer.conversation import carry_over, rewrite_with_model
from preuve.answer.pipeline import Answer, answer_from_hits, evidence_score
from preuve.embed import Embedder, get_embedder
from preuve.errors import Conflict, InvalidInput, NoSuchFile, NotFound
from preuve.feedback import Feedback
from preuve.ingest import IngestReport, ingest, ingest_records, repo
from preuve.ingest.base import ChunkSettings
from preuve.ingest.vectors import model_key
from preuve.models import ASK_K, PUBLIC, Document, Filters, Hit
from preuve.retrieve import Options, bilingual
from preuve.retrieve.filters import code_filters, make_filters
from preuve.settings import Settings
from preuve.store import DEFAULT_INDEX, Changes, Store, is_postgres, open_store, shown
from preuve.text import question_language
from preuve.versions import Versions

__all__ = ["DEFAULT_INDEX", "NO_EMBEDDER", "Index", "copy_index", "index_exists",
           "is_database", "local_postgres", "require_index", "shown_location", "sibling_index"]

DEFAULT_EMBEDDER = "e5"
NO_EMBEDDER = "none"
EXPLAIN_DEPTH = 100  # how deep `explain` looks for a hit in the other methods
EVAL_REPORT = "eval_report"  # meta key of the last evaluation report's HTML


def _chunk_options(recorded: str) -> str:
    strategy, size, overlap = recorded.split("/")
    return f"--chunking {strategy} --chunk-words {size} --chunk-overlap {overlap}"


def _located(doc: Document) -> str:
    return os.path.join(doc.root, *doc.path.split("/"))


class Index:
    """An index and the models it was built with.

    The embedder is recorded in the index at the first ingest (`embedder`: a name such as
    "e5", "use-m3", or "none" for keyword search only). Later calls use the recorded one;
    asking for another is an error naming both, never silently mixed vectors.

    `settings` (a `preuve.settings.Settings`, built by the front end) gives the index
    location when `location` is None, the store's tuning and the embedders' cache folder;
    nothing here reads the environment."""

    def __init__(self, location: str | os.PathLike | None = None, store: Store | None = None,
                 embedder: str | Embedder | None = None, reranker=None,
                 settings: Settings | None = None):
        self.settings = settings or Settings()
        self.store = store or open_store(location, self.settings)
        self._embedder_choice = embedder
        self._embedder: Embedder | None = None
        self._companion: Embedder | None = None
        self.reranker = reranker
        # feedback on answers (add, list, review, export, to_eval): preuve/feedback.py
        self.feedback = Feedback(self)
        # effective-dated versions of a document and what changed: preuve/versions.py
        self.versions = Versions(self)

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
        name = self._companion_name
        if self._companion is None:
            self._companion = get_embedder(name, self.settings)
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

    def _companion_pair(self, embedder: Embedder | None) -> tuple | None:
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

    def _options(self, **overrides) -> Options:
        needs_vectors = overrides.pop("needs_vectors", False)
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
                       **{k: v for k, v in overrides.items() if v is not None})

    # -- verbs ----------------------------------------------------------------------------
    def ingest(self, paths: Iterable[str | os.PathLike], *, access: str | None = None,
               settings: ChunkSettings | None = None, max_bytes: int | None = None,
               max_pages: int | None = None, progress: bool = False,
               untracked: bool = False, only: Iterable[str | os.PathLike] | None = None,
               ) -> IngestReport:
        """Index new and changed files under `paths`, drop deleted ones (one transaction),
        embedding the chunks that have no vector yet. `max_bytes` and `max_pages` (PDF)
        override the default caps of `preuve.ingest.limits`. In a git work tree, the files
        it tracks (`untracked`: also those git does not ignore). `only` limits the work to
        these files and folders under `paths` (what a watcher saw change)."""
        kwargs = {k: v for k, v in (("max_bytes", max_bytes), ("max_pages", max_pages)) if v}
        settings = self.chunking(settings)
        embedder = self.embedder(for_ingest=True)
        name = self.embedder_name if isinstance(self._embedder_choice, str | None) else None
        return ingest(self.store, paths, settings=settings, default_access=access,
                      progress=progress, embedder=embedder,
                      embedder_name=name if embedder is not None else None,
                      embedder_settings=self.settings, companion=self._companion_pair(embedder),
                      untracked=untracked, only=only, **kwargs)

    def ingest_records(self, records: Iterable, *, source: str, language: str = "",
                       settings: ChunkSettings | None = None,
                       progress: bool = False) -> IngestReport:
        """Index in-memory records (`id`, `title`, `text`), e.g. a reference collection."""
        settings = self.chunking(settings)
        embedder = self.embedder(for_ingest=True)
        name = self.embedder_name if isinstance(self._embedder_choice, str | None) else None
        return ingest_records(self.store, records, source=source, language=language,
                              settings=settings, progress=progress, embedder=embedder,
                              embedder_name=name if embedder is not None else None,
                              embedder_settings=self.settings,
                              companion=self._companion_pair(embedder))

    def search(self, query: str, *, method: str | None = None, k: int = 10,
               as_of: str | dt.date | None = "today", audience: str | None = None,
               paths: Sequence[str] = (), kinds: Sequence[str] = (),
               candidates: int | None = None, weights: dict | None = None,
               navigation: bool = False) -> list[Hit]:
        """Best k passages for `query`; filters apply inside each method. The default
        method is hybrid when the index has vectors, else bm25. Tables of contents and
        indexes (chunks of role "navigation") are left out unless `navigation`."""
        method = method or self.default_method()
        needs_vectors = registry.methods.get(method).needs_vectors
        filters = make_filters(as_of, audience, paths, kinds, navigation)
        options = self._options(needs_vectors=needs_vectors, candidates=candidates,
                                weights=weights)
        return retrieve.search(self.store, query, method=method, k=k, filters=filters,
                               options=options)

    def rankings(self, query: str, *, k: int = 10, as_of: str | dt.date | None = "today",
                 audience: str | None = None, paths: Sequence[str] = ()) -> dict[str, list[Hit]]:
        """The lists a hybrid search fuses, each `k` deep: "bm25", "dense", "translated"
        (bm25 over the question translated word by word, hits in the other language only;
        [] without dictionaries) and "companion" (the second embedder's, [] without one).
        bench/fusion.py replays fusions over them."""
        filters = make_filters(as_of, audience, paths)
        options = self._options(needs_vectors=True)
        return {method: retrieve.search(self.store, query, method=method, k=k,
                                        filters=filters, options=options)
                for method in ("bm25", "dense")} | {
            "translated": retrieve.translated(self.store, query, filters, k, options),
            "companion": retrieve.companion(self.store, query, filters, k, options)}

    def default_method(self) -> str:
        return "bm25" if self.embedder_name == NO_EMBEDDER else "hybrid"

    def where(self, subject: str, *, k: int = 10, as_of: str | dt.date | None = "today",
              audience: str | None = None, paths: Sequence[str] = (),
              method: str = "bm25", kinds: Sequence[str] = (),
              languages: Sequence[str] = ()) -> list[Hit]:
        """Code locations for `subject`, best first. The default, bm25, calls no model at
        all; `method="hybrid"` adds the embedding model. `kinds`: symbol kinds
        ("function" also matches methods, "class" structs, interfaces, traits...);
        `languages`: "go", "typescript", "yaml"... (aliases such as "ts", "golang" too)."""
        needs_vectors = registry.methods.get(method).needs_vectors
        filters = make_filters(as_of, audience, paths)
        symbol_kinds, wanted = code_filters(kinds, languages)
        options = self._options(needs_vectors=needs_vectors)
        return retrieve.where(self.store, subject, k=k, filters=filters, method=method,
                              options=options, symbol_kinds=symbol_kinds, languages=wanted)

    def compare(self, query: str, *, methods: Sequence[str] | None = None, k: int = 10,
                **filters) -> dict[str, list[Hit] | None]:
        """The top k of each method side by side (None for a method that needs vectors on
        a keyword-only index); by default every registered method that needs no
        cross-encoder. `filters`: as_of, audience, paths, kinds, navigation."""
        names = methods if methods is not None else registry.comparable_methods()
        return {name: (self.search(query, method=name, k=k, **filters)
                       if self.has_vectors or not registry.methods.get(name).needs_vectors
                       else None)
                for name in names}

    def explain(self, query: str, hits: list[Hit], method: str | None = None,
                **filters) -> list[Hit]:
        """Fill each hit's `scores` with its rank and score in every other method, from a
        deep run (top 100) of each (`compare`); returns `hits`."""
        method = method or self.default_method()
        others = [m for m in ("bm25", "dense") if m != method]
        for other, ranked in self.compare(query, methods=others, k=EXPLAIN_DEPTH,
                                          **filters).items():
            if ranked is None:
                continue
            positions = {h.chunk_id: h for h in ranked}
            for hit in hits:
                found = positions.get(hit.chunk_id)
                hit.scores.setdefault(other, {"rank": found.rank, "score": round(found.score, 4)}
                                      if found else {"rank": None, "score": None})
        return hits

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

    def _judgment(self, question: str, hits: list[Hit], evidence: tuple, *,
                  as_of=None, audience=None, paths=()) -> Judgment:
        """The default refusal judgment (no calibration needed): coverage of the question's
        words by the passages, IDF counted among the passages the caller may read, and the
        dense evidence against the bundled model's defaults."""
        filters = make_filters(as_of, audience, paths)
        measure, value = evidence
        bundled = self.embedder_name == DEFAULT_EMBEDDER
        asked = question_language(question)
        translate = None
        if any(h.language and h.language != asked for h in hits[:PASSAGES]):
            def translate(word: str) -> str:
                return bilingual.translate(word, asked, self.settings.dict_dir,
                                           self.settings.cache)
        judgment = judge(question, hits, value if bundled and measure == "dense" else None,
                         lambda stems: len(self.store.search_bm25(sorted(stems), filters,
                                                                  DF_CAP)),
                         self.store.readable_chunks(filters),  # N: what the caller may read
                         E5_DEFAULTS if bundled else KEYWORD_DEFAULTS, translate,
                         lambda word: bilingual.is_word(word, self.settings.dict_dir,
                                                        self.settings.cache) is False)
        if translate is not None and not bilingual.available(self.settings.dict_dir,
                                                             self.settings.cache):
            judgment.numbers["translation"] = (
                "dictionaries missing: the question's words were not translated for "
                "passages in the other language (scripts/setup-system.sh runtime)")
        return judgment

    def save_calibration(self, result: dict) -> None:
        """Store what `calibrate` chose (`result["measure"]` names the evidence measure),
        beside the other measures' results."""
        stored = self.calibration()
        stored[result["measure"]] = result
        self.store.set_meta("refusal_threshold", json.dumps(stored))

    def refusal_thresholds(self) -> dict[str, float]:
        """Calibrated evidence thresholds, by the measure they were calibrated on."""
        return {measure: float(r["value"]) for measure, r in self.calibration().items()}

    def ask(self, question: str, *, method: str | None = None, k: int = ASK_K,
            as_of: str | dt.date | None = "today", audience: str | None = None,
            paths: Sequence[str] = (), generator=None, link_base: str | None = None,
            link: Callable | None = None, on_token=None, history: list[dict] | None = None,
            retrieval_question: str | None = None) -> Answer:
        """Answer `question` from the index: retrieve, generate (extractive when no
        `generator`), verify every citation, link. Refuses rather than show a citation
        that does not hold.

        Links are built once, by `link(verified_citation) -> url` when given (the HTTP
        server's viewer, the MCP server's relative paths), else under `link_base` (a
        repository URL; None: the local folder as a file:// URL)."""
        changed = self._what_changed(retrieval_question or question, question, as_of=as_of,
                                     audience=audience, paths=paths, link=link,
                                     link_base=link_base, on_token=on_token)
        if changed is not None:  # "what changed in ...?": answered from the versions
            return changed
        started = time.perf_counter()
        hits = self.search(retrieval_question or question, method=method, k=k, as_of=as_of,
                           audience=audience, paths=paths)
        evidence = self.evidence(retrieval_question or question, hits, as_of=as_of,
                                 audience=audience, paths=paths)
        judgment = self._judgment(retrieval_question or question, hits, evidence,
                                  as_of=as_of, audience=audience, paths=paths)
        timings = {"retrieve": time.perf_counter() - started}
        embedder = None if self.embedder_name == NO_EMBEDDER else self.embedder()
        counter = getattr(embedder, "count_tokens", None)
        return answer_from_hits(question, hits, generator=generator, embedder=embedder,
                                thresholds=self.refusal_thresholds(), link_base=link_base,
                                link=link, count_tokens=counter, history=history,
                                on_token=on_token, timings=timings, evidence=evidence,
                                judgment=judgment)

    def _what_changed(self, asked: str, question: str, *, as_of, audience, paths, link,
                      link_base, on_token) -> Answer | None:
        """The answer to a question about what changed between versions of a document
        (preuve/answer/changes.py), under the caller's audience and as-of date; None when
        `asked` is not such a question or no document with versions matches it."""
        change = what_changed(asked)
        if change is None:
            return None
        as_of = "today" if as_of is None else as_of  # as `search` reads None
        versions = self.versions.changed_document(change.subject, audience=audience,
                                                  as_of=as_of, paths=paths)
        if versions is None:
            return None
        if len(versions) < 2:  # not a versioned document: the usual answerer (and judgment)
            return None
        first = self.versions.first_in_force(versions, as_of, audience=audience)
        if first is not None and change.since is None:  # nothing before it
            return first_version_answer(question, *first, link=link, link_base=link_base)
        try:
            diff = self.versions.diff(versions[-1].doc_id, since=change.since, until=as_of,
                                      audience=audience)
        except (InvalidInput, NotFound):  # e.g. the date named is before the first version
            return None
        return change_answer(question, diff, link=link, link_base=link_base,
                             on_token=on_token)

    # -- conversations --------------------------------------------------------------------
    def open_conversation(self, audience: str | None = None, owner: str | None = None) -> str:
        """A new, empty conversation bound to `audience` and `owner`; returns its id."""
        conversation = uuid.uuid4().hex[:12]
        self.store.conversations.create(conversation, audience, owner)
        return conversation

    def chat(self, question: str, *, conversation: str | None = None,
             audience: str | None = None, owner: str | None = None, generator=None,
             **ask_options) -> tuple[str, Answer]:
        """One turn of a conversation (created when `conversation` is None); returns its id
        and the answer. A conversation keeps the audience and the owner (the server's digest
        of an API key; None: the operator) it was opened with: another audience or owner
        gets the same error as for an id that does not exist."""
        new = conversation is None
        if new:
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
            conversation = self.open_conversation(audience, owner)
        self.store.conversations.add(conversation, "user", question, standalone)
        self.store.conversations.add(conversation, "assistant", answer.answer,
                                     data={"refused": answer.refused, "reason": answer.reason,
                                           "citations": answer.citations})
        return conversation, answer

    def history(self, conversation: str, audience: str | None = None,
                owner: str | None = None) -> list[dict]:
        """A conversation's turns, for the audience and owner that opened it only; anyone
        else gets NotFound, as for an id that does not exist."""
        exists, opened_for = self.store.conversations.audience(conversation)
        if (not exists or opened_for != audience
                or self.store.conversations.owner(conversation) != owner):
            raise NotFound(f"no conversation {conversation!r}")
        return self.store.conversations.messages(conversation)

    # -- documents and passages -----------------------------------------------------------
    def status(self) -> dict:
        stats = self.store.stats()
        stats["embedder"] = self.store.get_meta("embedder_model") or self.store.get_meta(
            "embedder")
        stats["refusal_threshold"] = self.calibration() or None
        stats["audiences"] = self._audiences()
        # what French-English work can use on this machine
        stats["languages"] = bilingual.installed(self.settings.dict_dir)
        # git work trees ingested, and whether each has moved past the indexed commit
        stats["repositories"] = repo.drift(self.store)
        return stats

    def _audiences(self) -> dict:
        """What each audience reads: documents and passages for `public` and for every
        label the index holds, and how many documents only the operator reads (no label)."""
        docs = self.documents()
        labels = sorted({d.access for d in docs if d.access} | {PUBLIC})
        out = {}
        for label in labels:
            filters = Filters(audience=label)
            out[label] = {"documents": len(self.store.documents(filters)),
                          "passages": self.store.readable_chunks(filters)}
        out["unlabelled"] = {"documents": sum(1 for d in docs if not d.access)}
        return out

    @property
    def schema_version(self) -> int:
        """The number of the last migration applied (a cheap liveness check)."""
        return self.store.schema_version

    @property
    def location(self) -> str:
        return self.store.location

    def documents(self, *, audience: str | None = None, as_of: str | dt.date | None = None,
                  paths: Sequence[str] = ()) -> list[Document]:
        """The documents `audience` may read (None: the operator, every document); with
        `as_of` ("today", "none" or a date; None: any date) and `paths` (prefixes), those a
        search with the same filters would draw from."""
        if as_of is None and not paths:
            return self.store.documents(None if audience is None
                                        else Filters(audience=audience))
        return self.store.documents(make_filters("none" if as_of is None else as_of,
                                                 audience, paths))

    def document(self, doc_id: str, *, audience: str | None = None) -> Document:
        """One document `audience` may read; NotFound for one it may not, as for none."""
        for doc in self.documents(audience=audience):
            if doc.doc_id == doc_id:
                return doc
        raise NotFound("no such document")

    def passage(self, chunk_id: str, *, audience: str | None = None,
                doc_id: str | None = None) -> Hit:
        """One passage `audience` may read (and of the document `doc_id`, when given)."""
        found = self.store.chunks([chunk_id], Filters(audience=audience))
        if not found or (doc_id is not None and found[0].doc_id != doc_id):
            raise NotFound("no such passage in this document" if doc_id else
                           "no such passage")
        return found[0]

    def forget(self, targets: Iterable[str], *, exact_ids: bool = False) -> list[Document]:
        """Remove documents by path, path prefix (a folder) or doc_id; returns those removed.
        With `exact_ids`, targets are doc_ids only (nothing matched by path)."""
        docs = self.store.documents()
        chosen: dict[str, Document] = {}
        for target in targets:
            if exact_ids:
                matched = [d for d in docs if d.doc_id == target]
            else:
                on_disk = os.path.abspath(target)
                target = target.removeprefix("./").rstrip("/")
                matched = [d for d in docs if target in (d.doc_id, d.path)
                           or d.path.startswith(target + "/") or _located(d) == on_disk
                           or _located(d).startswith(on_disk + os.sep)]
            if not matched:
                raise NotFound(f"{target}: no such document in the index")
            chosen.update((d.doc_id, d) for d in matched)
        if chosen:
            self.store.apply(Changes(removals=list(chosen)))
        return list(chosen.values())

    # -- bulk loading and tuning (benchmarks, tools) ---------------------------------------
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

    def keep_report(self, html: str) -> None:
        """Keep the last evaluation report (`preuve eval --report`) in the index, where
        every server on it shows it to admin keys (`/eval`)."""
        self.store.set_meta(EVAL_REPORT, html)

    def kept_report(self) -> str | None:
        """The last evaluation report kept by `keep_report`, or None."""
        return self.store.get_meta(EVAL_REPORT)

    def meta(self, key: str) -> str | None:
        """A value recorded in the index under `key` (tools' own keys, e.g. a benchmark's
        cache parameters; preuve's own keys are read through the methods above)."""
        return self.store.get_meta(key)

    def set_meta(self, key: str, value: str) -> None:
        """Record `value` under `key` in the index (tools' own keys only)."""
        if key.startswith(("embedder", "chunking", "refusal_threshold", EVAL_REPORT)):
            raise InvalidInput(f"{key}: preuve's own key, set by ingest and calibrate")
        self.store.set_meta(key, value)

    @property
    def hnsw_ready(self) -> bool:
        """Whether dense search runs through an HNSW index (PostgreSQL; False on SQLite)."""
        ready = getattr(self.store, "hnsw_ready", None)
        return bool(ready and ready())

    def build_hnsw(self) -> bool:
        """Build the HNSW index now, whatever the `hnsw_threshold` (PostgreSQL; a no-op
        returning False on SQLite or when one is ready)."""
        build = getattr(self.store, "build_hnsw", None)
        return bool(build and build())

    def drop_hnsw(self) -> None:
        """Drop the HNSW index: dense search is exact until it is built again (PostgreSQL;
        a no-op on SQLite)."""
        drop = getattr(self.store, "drop_hnsw", None)
        if drop:
            drop()

    def engine_stats(self) -> dict:
        """What the in-memory engines hold, for benchmarks.

        `keyword`: the keyword index's `builds` (full builds from the rows in this
        process), `rows` and `postings` (None until a BM25 query has loaded it), `files`
        (its snapshot, which a later process loads instead of building), `building` (a
        background build is under way: BM25 is answered by the store's SQL meanwhile),
        `fallbacks` (queries answered so) and `parts` (the snapshot and the parts of rows
        inserted since, one per ingest brought forward; 0 before it is loaded). `dense`
        (SQLite,
        once a dense query has loaded the vectors; else None): `vectors`, `from_cache`
        (mapped from the files saved beside the index), `files`, and `ann` (None below the
        `ann_threshold`): `nlist`, `nprobe`, `calibrated_recall`, `build_seconds`,
        `loaded` (from the cache), and the queries it `answered` itself or `fell_back` to
        the exact scan."""
        keeper = getattr(self.store, "keywords", None)
        keyword = {"builds": 0, "rows": None, "postings": None, "files": [],
                   "building": False, "fallbacks": 0, "parts": 0}
        if keeper is not None:
            kept = keeper.index
            index = getattr(kept, "base", None)
            stem = keeper.path.removesuffix(".npz") if keeper.path else None
            keyword = {"builds": keeper.builds,
                       "rows": None if index is None else len(index),
                       "postings": None if index is None else int(index.offsets[-1]),
                       "files": sorted(glob.glob(glob.escape(stem) + "*")) if stem else [],
                       "building": keeper.building, "fallbacks": keeper.fallbacks,
                       "parts": 0 if kept is None else len(kept.parts())}
        matrix = getattr(self.store, "vector_matrix", None)  # SQLite only
        dense = None
        if matrix is not None:
            ann = matrix.ann
            dense = {"vectors": len(matrix), "from_cache": matrix.from_cache,
                     "files": sorted(glob.glob(glob.escape(os.path.abspath(self.location))
                                               + ".ann-*")),
                     "ann": None if ann is None else {
                         "nlist": ann.nlist, "nprobe": ann.nprobe,
                         "calibrated_recall": ann.calibrated_recall,
                         "build_seconds": ann.build_seconds, "loaded": ann.loaded,
                         "answered": matrix.ann_answered, "fell_back": matrix.ann_fell_back}}
        return {"keyword": keyword, "dense": dense}

    # -- models shared between Index objects ----------------------------------------------
    @property
    def has_vectors(self) -> bool:
        """Whether dense search is possible (the index was not built keyword-only)."""
        return self.embedder_name != NO_EMBEDDER

    @property
    def embedder_loaded(self) -> bool:
        return self._embedder is not None

    # -- what several servers on one database share -----------------------------------------
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

    def lend_embedder(self, embedder: Embedder) -> None:
        """Use an embedder another Index of the same location already loaded (a server's
        pool loads the model once). `embedder()` still checks it against the index."""
        self._embedder = embedder

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# ---------------------------------------------------------------- locations, without opening
def is_database(location: str | os.PathLike) -> bool:
    """Whether `location` names a database server (PostgreSQL) rather than a file."""
    return is_postgres(os.fspath(location))


def index_exists(location: str | os.PathLike) -> bool:
    """Whether there is an index to open (a database is checked when it is connected to)."""
    location = os.fspath(location)
    return is_postgres(location) or os.path.exists(location)


def require_index(location: str | os.PathLike) -> str:
    """`location`, when an index is there; else NoSuchFile saying how to build one."""
    location = os.fspath(location)
    if not index_exists(location):
        raise NoSuchFile(f"no index at {location}: build one with `preuve ingest PATH "
                         f"--index {location}`")
    return location


def shown_location(location: str | os.PathLike) -> str:
    """`location` as messages and logs may show it: a database URL loses its password."""
    return shown(os.fspath(location))


def sibling_index(main: str | os.PathLike | None, name: str) -> str:
    """An index of its own beside `main`: `<main's folder>/eval/<name>.sqlite`, or, beside
    a PostgreSQL index, the schema `name` (lower case, `-` as `_`) of the same database."""
    main = os.fspath(main) if main else None
    if main and is_postgres(main):
        from preuve.store.postgres import with_schema

        return with_schema(main, name.replace("-", "_").lower())
    folder = os.path.dirname(os.path.abspath(main or os.path.join(".preuve", "x")))
    return os.path.join(folder, "eval", f"{name}.sqlite")


@contextlib.contextmanager
def local_postgres(folder: str | os.PathLike, durable: bool = True,
                   port: int | None = None) -> Iterator[str]:
    """A throwaway local PostgreSQL + pgvector server in `folder` (benchmarks, trying
    preuve; needs `preuve[postgres-server]`), on `port` (None: a free one): a server left
    running there is stopped first, the block gets the database URL, and the server stops
    when it ends. `durable=False` turns fsync off."""
    from preuve.store import pgserver

    pgserver.stop(folder)
    url = pgserver.start(folder, port=port, durable=durable)
    try:
        yield url
    finally:
        pgserver.stop(folder)


def copy_index(source: str, target: str, progress=None):
    """Copy a whole index to another store (`preuve migrate`); returns the copy's report."""
    from preuve.store.copy import copy_index as copy

    return copy(source, target, progress=progress)


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
