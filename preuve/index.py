"""`Index`: the Python API, and the one door of every front end.

    from preuve import Index
    index = Index(".preuve/index.sqlite")
    index.ingest(["examples"])
    index.search("télétravail", audience="public")

The CLI, the HTTP server, the MCP server, the evaluation and the benchmarks call these
methods and never the store beneath: reads for a caller (`documents`, `document`,
`passage`, `search`, `where`, `ask`, `chat`) take the caller's audience and show nothing
else; writes (`ingest`, `forget`) go through here too. `Index` grows by nouns, each a
module of its own: `index.conversations` (preuve/conversations.py), `index.feedback`
(preuve/feedback.py), `index.versions` (preuve/versions.py), `index.calibration` (refusal
thresholds and the last evaluation report, preuve/calibration.py) and `index.engine` (the
store, settings and models, and the tools of benchmarks and operators: `load`, `meta`,
HNSW, `stats`; preuve/engine.py). The helpers at the bottom (`index_exists`,
`shown_location`, `sibling_index`, `copy_index`, `local_postgres`) are what a front end
needs to know about a location without opening it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import os
import time
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
from preuve.answer.extractive import closing_only, named_pages
from preuve.answer.pipeline import Answer, answer_from_hits
from preuve.calibration import Calibration
from preuve.conversations import Conversations
from preuve.embed import Embedder
from preuve.engine import DEFAULT_EMBEDDER, NO_EMBEDDER, Engine
from preuve.errors import InvalidInput, NoSuchFile, NotFound
from preuve.feedback import Feedback
from preuve.ingest import IngestReport, ingest, ingest_records, repo, shared_paths, vectors
from preuve.ingest.base import ChunkSettings
from preuve.models import ASK_K, PUBLIC, Document, Filters, Hit
from preuve.retrieve import bilingual
from preuve.retrieve.filters import code_filters, make_filters
from preuve.settings import Settings
from preuve.store import DEFAULT_INDEX, Changes, IndexStore, open_store, shown
from preuve.text import question_language
from preuve.versions import Versions

__all__ = ["DEFAULT_INDEX", "NO_EMBEDDER", "Index", "copy_index", "index_exists",
           "is_database", "local_postgres", "require_index", "shown_location", "sibling_index"]

EXPLAIN_DEPTH = 100  # how deep `explain` looks for a hit in the other methods


def _located(doc: Document) -> str:
    return os.path.join(doc.root, *doc.path.split("/"))


class Index:
    """An index and the models it was built with.

    The embedder is recorded in the index at the first ingest (`embedder`: a name such as
    "e5", "use-m3", or "none" for keyword search only). Later calls use the recorded one;
    asking for another is an error naming both, never silently mixed vectors
    (`index.engine`, preuve/engine.py).

    `settings` (a `preuve.settings.Settings`, built by the front end) gives the index
    location when `location` is None, the store's tuning and the embedders' cache folder;
    nothing here reads the environment."""

    def __init__(self, location: str | os.PathLike | None = None,
                 store: IndexStore | None = None,
                 embedder: str | Embedder | None = None, reranker=None,
                 settings: Settings | None = None):
        settings = settings or Settings()
        self._store = store or open_store(location, settings)
        # the store, settings and models; load, meta, HNSW, stats: preuve/engine.py
        self.engine = Engine(self._store, settings, embedder, reranker)
        # open a conversation and read its turns (`chat` answers one): preuve/conversations.py
        self.conversations = Conversations(self._store)
        # refusal thresholds and the last evaluation report: preuve/calibration.py
        self.calibration = Calibration(self)
        # feedback on answers (add, list, review, export, to_eval): preuve/feedback.py
        self.feedback = Feedback(self)
        # effective-dated versions of a document and what changed: preuve/versions.py
        self.versions = Versions(self)

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
        engine = self.engine
        settings = engine.chunking(settings)
        embedder = engine.embedder(for_ingest=True)
        name = engine.named_embedder
        return ingest(self._store, paths, settings=settings, default_access=access,
                      progress=progress, embedder=embedder,
                      embedder_name=name if embedder is not None else None,
                      embedder_settings=engine.settings, companion=engine.companion_pair(embedder),
                      untracked=untracked, only=only, **kwargs)

    def ingest_records(self, records: Iterable, *, source: str, language: str = "",
                       settings: ChunkSettings | None = None,
                       progress: bool = False) -> IngestReport:
        """Index in-memory records (`id`, `title`, `text`), e.g. a reference collection."""
        engine = self.engine
        settings = engine.chunking(settings)
        embedder = engine.embedder(for_ingest=True)
        name = engine.named_embedder
        return ingest_records(self._store, records, source=source, language=language,
                              settings=settings, progress=progress, embedder=embedder,
                              embedder_name=name if embedder is not None else None,
                              embedder_settings=engine.settings,
                              companion=engine.companion_pair(embedder))

    def search(self, query: str, *, method: str | None = None, k: int = 10,
               as_of: str | dt.date | None = "today", audience: str | None = None,
               paths: Sequence[str] = (), kinds: Sequence[str] = (),
               candidates: int | None = None, weights: dict | None = None,
               navigation: bool = False) -> list[Hit]:
        """Best k passages for `query`; filters apply inside each method. The default
        method is hybrid when the index has vectors, else bm25. Tables of contents and
        indexes (chunks of role "navigation") are left out unless `navigation`."""
        method = method or self.engine.default_method()
        needs_vectors = registry.methods.get(method).needs_vectors
        filters = make_filters(as_of, audience, paths, kinds, navigation)
        tuned = retrieve.Hybrid()
        if candidates is not None:
            tuned = dataclasses.replace(tuned, candidates=candidates)
        if weights is not None:
            tuned = dataclasses.replace(tuned, weights=weights)
        options = self.engine.options(needs_vectors=needs_vectors,
                                      params={"hybrid": tuned, "rerank": tuned})
        return retrieve.search(self._store, query, method=method, k=k, filters=filters,
                               options=options)

    def where(self, subject: str, *, k: int = 10, as_of: str | dt.date | None = "today",
              audience: str | None = None, paths: Sequence[str] = (),
              method: str | None = None, kinds: Sequence[str] = (),
              languages: Sequence[str] = ()) -> list[Hit]:
        """Code locations for `subject`, best first. The default method is hybrid when the
        index has vectors (the keyword lists and the definitions nearest to the subject,
        one query embedded), else bm25; `method="bm25"` calls no model at all. `kinds`:
        symbol kinds ("function" also matches methods, "class" structs, interfaces,
        traits...); `languages`: "go", "typescript", "yaml"... (aliases such as "ts",
        "golang" too)."""
        method = method or self.engine.default_method()
        needs_vectors = registry.methods.get(method).needs_vectors
        filters = make_filters(as_of, audience, paths)
        symbol_kinds, wanted = code_filters(kinds, languages)
        options = self.engine.options(needs_vectors=needs_vectors)
        return retrieve.where(self._store, subject, k=k, filters=filters, method=method,
                              options=options, symbol_kinds=symbol_kinds, languages=wanted)

    def compare(self, query: str, *, methods: Sequence[str] | None = None, k: int = 10,
                **filters) -> dict[str, list[Hit] | None]:
        """The top k of each method side by side (None for a method that needs vectors on
        a keyword-only index); by default every registered method that needs no
        cross-encoder. `filters`: as_of, audience, paths, kinds, navigation."""
        names = methods if methods is not None else registry.comparable_methods()
        return {name: (self.search(query, method=name, k=k, **filters)
                       if self.engine.has_vectors or not registry.methods.get(name).needs_vectors
                       else None)
                for name in names}

    def explain(self, query: str, hits: list[Hit], method: str | None = None,
                **filters) -> list[Hit]:
        """Fill each hit's `scores` with its rank and score in every other method, from a
        deep run (top 100) of each (`compare`); returns `hits`."""
        method = method or self.engine.default_method()
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
        # a passage whose text a better-ranked one already holds takes no place among the
        # k, nor does a manual page's closing boilerplate that the question does not ask for
        found = self.search(retrieval_question or question, method=method, k=2 * k,
                            as_of=as_of, audience=audience, paths=paths)
        named = named_pages(retrieval_question or question, found)  # (a follow-up's
        # retrieval question carries the subject of the turn before)
        if named:  # the manual pages the question names answer it: theirs are read first
            # ("what compression level does zip use…?" over xz's "The default is -6")
            own = [h for h in self.search(retrieval_question or question, method=method,
                                          k=2 * k, as_of=as_of, audience=audience,
                                          paths=named) if h.path in named]
            found = own or found
        hits = retrieve.distinct([h for h in found if not closing_only(h, question)], k)
        evidence = self.calibration.evidence(retrieval_question or question, hits,
                                             as_of=as_of, audience=audience, paths=paths)
        judgment = self._judgment(retrieval_question or question, hits, evidence,
                                  as_of=as_of, audience=audience, paths=paths)
        timings = {"retrieve": time.perf_counter() - started}
        embedder = None if self.engine.embedder_name == NO_EMBEDDER else self.engine.embedder()
        counter = getattr(embedder, "count_tokens", None)
        return answer_from_hits(question, hits, generator=generator, embedder=embedder,
                                thresholds=self.calibration.thresholds(), link_base=link_base,
                                link=link, count_tokens=counter, history=history,
                                on_token=on_token, timings=timings, evidence=evidence,
                                judgment=judgment)

    def _judgment(self, question: str, hits: list[Hit], evidence: tuple, *,
                  as_of=None, audience=None, paths=()) -> Judgment:
        """The default refusal judgment (no calibration needed): coverage of the question's
        words by the passages, IDF counted among the passages the caller may read, and the
        dense evidence against the bundled model's defaults."""
        filters = make_filters(as_of, audience, paths)
        measure, value = evidence
        bundled = self.engine.embedder_name == DEFAULT_EMBEDDER
        asked = question_language(question)
        translate = None
        if any(h.language and h.language != asked for h in hits[:PASSAGES]):
            translate = bilingual.word_translator(question, asked,
                                                  self.engine.settings.dict_dir,
                                                  self.engine.settings.cache)
        judgment = judge(question, hits, value if bundled and measure == "dense" else None,
                         lambda stems: len(self._store.search_bm25(sorted(stems), filters,
                                                                  DF_CAP)),
                         self._store.readable_chunks(filters),  # N: what the caller may read
                         E5_DEFAULTS if bundled else KEYWORD_DEFAULTS, translate,
                         lambda word: bilingual.is_word(word, self.engine.settings.dict_dir,
                                                        self.engine.settings.cache) is False)
        if translate is not None and not bilingual.available(self.engine.settings.dict_dir,
                                                             self.engine.settings.cache):
            judgment.numbers["translation"] = (
                "dictionaries missing: the question's words were not translated for "
                "passages in the other language (scripts/setup-system.sh runtime)")
        return judgment

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

    def chat(self, question: str, *, conversation: str | None = None,
             audience: str | None = None, owner: str | None = None, generator=None,
             **ask_options) -> tuple[str, Answer]:
        """One turn of a conversation (created when `conversation` is None); returns its id
        and the answer. A conversation keeps the audience and the owner (the server's digest
        of an API key; None: the operator) it was opened with: another audience or owner
        gets the same error as for an id that does not exist (`index.conversations`)."""
        history: list[dict] = []
        if conversation is not None:
            history = self.conversations.history(conversation, audience=audience, owner=owner)
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
        if conversation is None:  # once the first answer exists: a failed turn leaves nothing
            conversation = self.conversations.open(audience, owner)
        self.conversations.add_turn(conversation, question, standalone, answer)
        return conversation, answer

    # -- documents and passages -----------------------------------------------------------
    def status(self) -> dict:
        stats = self._store.stats()
        stats["embedder"] = self._store.get_meta("embedder_model") or self._store.get_meta(
            "embedder")
        stats["refusal_threshold"] = self.calibration.stored() or None
        documents = self._store.documents()
        stats["audiences"] = self._audiences(documents)
        # what French-English work can use on this machine
        stats["languages"] = bilingual.installed(self.engine.settings.dict_dir)
        # git work trees ingested, and whether each has moved past the indexed commit
        stats["repositories"] = repo.drift(self._store)
        # paths cited alike: the same path under two folders ingested apart
        stats["cited_alike"] = shared_paths(documents)
        return stats

    def _audiences(self, docs: list[Document]) -> dict:
        """What each audience reads: documents and passages for `public` and for every
        label the index holds (`docs`: every document), and how many documents only the
        operator reads (no label)."""
        labels = sorted({d.access for d in docs if d.access} | {PUBLIC})
        out = {}
        for label in labels:
            filters = Filters(audience=label)
            out[label] = {"documents": len(self._store.documents(filters)),
                          "passages": self._store.readable_chunks(filters)}
        out["unlabelled"] = {"documents": sum(1 for d in docs if not d.access)}
        return out

    @property
    def location(self) -> str:
        """Where the index is: a SQLite file's path, or a PostgreSQL URL."""
        return self._store.location

    def documents(self, *, audience: str | None = None, as_of: str | dt.date | None = None,
                  paths: Sequence[str] = ()) -> list[Document]:
        """The documents `audience` may read (None: the operator, every document); with
        `as_of` ("today", "none" or a date; None: any date) and `paths` (prefixes), those a
        search with the same filters would draw from."""
        if as_of is None and not paths:
            return self._store.documents(None if audience is None
                                        else Filters(audience=audience))
        return self._store.documents(make_filters("none" if as_of is None else as_of,
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
        found = self._store.chunks([chunk_id], Filters(audience=audience))
        if not found or (doc_id is not None and found[0].doc_id != doc_id):
            raise NotFound("no such passage in this document" if doc_id else
                           "no such passage")
        return found[0]

    def forget(self, targets: Iterable[str], *, exact_ids: bool = False) -> list[Document]:
        """Remove documents by path, path prefix (a folder) or doc_id; returns those removed.
        With `exact_ids`, targets are doc_ids only (nothing matched by path)."""
        docs = self._store.documents()
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
            self._store.apply(Changes(removals=list(chosen)))
            vectors.prune(self._store)  # their vectors are orphans now: keep them bounded
        return list(chosen.values())

    def close(self) -> None:
        self._store.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# ---------------------------------------------------------------- locations, without opening
def is_database(location: str | os.PathLike) -> bool:
    """Whether `location` names a database server several processes share (PostgreSQL)
    rather than a file (what its store declares: `preuve.registry.StoreSpec.server`)."""
    return registry.store_for(os.fspath(location)).server


def index_exists(location: str | os.PathLike) -> bool:
    """Whether there is an index to open (a database is checked when it is connected to)."""
    location = os.fspath(location)
    spec = registry.store_for(location)
    return spec.exists is None or spec.exists(location)


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
    main = os.fspath(main) if main else DEFAULT_INDEX
    spec = registry.store_for(main)
    if spec.beside is None:
        raise InvalidInput(f"the {spec.name} store keeps no index beside {shown(main)}")
    return spec.beside(main, name)


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
