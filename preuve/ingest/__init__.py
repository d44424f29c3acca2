"""Ingest: files in, one atomic batch of changes to the index out.

Walk the paths, skip files whose fingerprint did not change, parse and chunk the others,
tokenize, and hand the store one `Changes` batch that it applies in a single transaction.
A file that fails is reported with its reason and keeps its previously indexed version.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import sys
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from preuve import text
from preuve.ingest import vectors
from preuve.ingest.base import ChunkSettings, Parsed, ParseError
from preuve.ingest.chunking import chunks_from_text
from preuve.ingest.code import module_name
from preuve.ingest.limits import DEFAULT_MAX_BYTES, DEFAULT_MAX_PAGES, Limits, check, read_regular
from preuve.ingest.metadata import KNOWN_KEYS, normalise, read_sidecar
from preuve.ingest.navigation import BODY, NAVIGATION, is_title_only, only_refers
from preuve.ingest.protocols import role_words
from preuve.ingest.repo import record as record_repos
from preuve.ingest.walk import GENERATED, MINIFIED, UNSUPPORTED, Candidate, Walk, generated
from preuve.models import SOURCE_URL, Chunk, Document, validate_label
from preuve.registry import kinds
from preuve.store import Changes, Store

# Bump when parsing or chunking changes, so a re-ingest re-processes every file.
PIPELINE_VERSION = "8"  # 6: code by syntax tree, configuration files by structure;
# 7: no window made of the previous one's overlap alone; 8: code blocks' fences are not
# embedded (`vectors.passage_text`)
# Bump a kind's version when its chunks change (how it is parsed, or what is embedded
# for its chunks, `vectors.passage_text`): a re-ingest rebuilds the files of that kind only,
# whose chunks then have the new text's hash and get its vector (the other files' chunks
# keep theirs). code: 2 a definition embedded by its summary, not its body; 3 a Python
# method searched with its class's docstring; 4 definitions under a top-level `if`/`try` are
# chunks of their own; 5 JavaScript/TypeScript idioms are definitions (a library wrapped in
# an IIFE or UMD factory walked into, `a.b = a.c = function`, `defineGetter(req, 'protocol',
# function ...)` named `req.protocol`, objects of functions as containers, a documented
# `var x = f(...)`); 6 what bench/chunk_sweep.py found over the machine's packages: Python's
# comments (the one above a definition is its) and imports in chunks, a C++ `.h` read by the
# C++ grammar, long `else if` chains walked without recursion, container headers and line
# windows cut within 3 x max_words. html: 2 an API reference's entries
# (Sphinx's <dl class="py method">) are sections of their own; 3 a table's row is one line;
# 4 a <pre> block keeps its lines, fenced as code; code 7: a definition implementing a
# standard protocol (`impl Display for`, `__toString`, `compareTo`) searched with what the
# protocol means (preuve/ingest/protocols.py); html 5: DocBook's "[D]" screenshot links and
# the Apache manual's menus, breadcrumbs, contents and language lists are furniture; html 6:
# Texinfo's navigation bars and contents, and any bar of links with no word outside them;
# markdown and text 2: chunks of whole paragraphs, underlined titles as headings; 3:
# Markdown's HTML comments blank, no passage of reStructuredText markup alone; html 7,
# markdown and text 4: a code block's fences counted as no words again; html 8: a heading
# inside a note, tip or warning box labels it and opens no section; pdf 1: a running header
# carrying its page's printed number is furniture; html 9: a menu's labels and current page
# (short items, no links) are navigation with the links around them; code 9: a signature
# written over several lines is whole in a definition's summary, its docstring after it;
# html 10: docutils' footnotes (`<aside class="footnote">`) are the page's text
# pdf 2: lines the type makes headings with nothing under them are read with what
# follows them on their page (or, at its end, with what precedes them): never dropped
# html 11: an entry's number outside its link ("4.1. <a>…</a>") leaves a list of links
# navigation (DocBook's lists of a FAQ's questions); text 5: a manual page rendered as text
# cut at its sections, an option kept with the paragraphs that describe it; text 8:
# reStructuredText's comments (".. TODO: …" and the lines under it) are no text; man 4:
# a tag that fills its indent but one column is set over its description, not beside it;
# html 13: a <pre> block longer than a chunk is cut by its lines, each piece fenced; man 5:
# a one-line conditional whose condition is plain (`.if !'po4a'hide' …`) is read
KIND_VERSIONS = {"code": "12", "html": "13", "man": "5", "markdown": "7", "pdf": "3", "text": "9"}
# Document.meta key: SHA-256 of the file's bytes as indexed (the server serves a file only
# while its bytes still have this digest)
FILE_DIGEST = "file_sha256"
EMPTY_MARKER = "empty package marker"
NO_TEXT = "no text to index"
# skip reasons too common to list one by one (the CLI counts them); links are listed
ROUTINE_SKIPS = (UNSUPPORTED, EMPTY_MARKER, GENERATED, MINIFIED)

class Skipped(Exception):
    """A file that is fine but holds nothing to index (an empty `__init__.py`, an empty
    file, a page with only a heading): reported as skipped, never as failed."""


@dataclass
class FileProblem:
    path: str
    reason: str


@dataclass
class IngestReport:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: int = 0
    chunks: int = 0  # chunks written by this ingest
    failed: list[FileProblem] = field(default_factory=list)
    skipped: list[FileProblem] = field(default_factory=list)  # unread formats, no text
    embedded: int = 0  # passages embedded (cache misses)
    # files of this ingest whose path (as cited) another folder's file has too
    cited_alike: list[FileProblem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failed

    def to_dict(self) -> dict:
        return asdict(self) | {"ok": self.ok}


def ingest(
    store: Store,
    paths: Iterable[str | os.PathLike],
    *,
    settings: ChunkSettings | None = None,
    default_access: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_pages: int = DEFAULT_MAX_PAGES,
    progress: bool = False,
    embedder=None,
    embedder_name: str | None = None,
    embedder_settings=None,
    companion: tuple | None = None,
    untracked: bool = False,
    only: Iterable[str | os.PathLike] | None = None,
) -> IngestReport:
    """Bring the index in line with `paths` (folders or files), atomically.

    In a git work tree, the files it tracks (with `untracked`, also those git does not
    ignore), each recording its repository's commit and remote (`preuve.ingest.repo`).
    `only` (files or folders, e.g. what a watcher saw change) limits the work to those:
    other files are neither read nor removed.
    With an `embedder`, chunks lacking a vector are embedded first (in `embedder_name`
    worker processes when given, made with `embedder_settings`, a `preuve.settings.Settings`);
    vectors are cached by text hash across ingests. `companion`, (embedder, registered name),
    is a second embedder whose vectors are made the same way (`index.engine.companion`).
    Files over `max_bytes`, PDFs over `max_pages` and zip bombs are refused unparsed
    (`preuve.ingest.limits`); links inside the folders are not followed (`walk`)."""
    settings = settings or ChunkSettings()
    if default_access is not None:
        default_access = validate_label(default_access, "--access")
    limits = Limits(max_bytes=max_bytes, max_pages=max_pages)
    report = IngestReport()
    started = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    # a file is known by its absolute location, whatever folder it is ingested through
    known = {_location(doc.root, doc.path): doc for doc in store.documents()}
    ids_in_use = {doc.doc_id: loc for loc, doc in known.items()}
    candidates: dict[str, Candidate] = {}
    roots: list[str] = []
    session = Walk(untracked=untracked)
    scope = None if only is None else _Scope(only)
    # outer folders first, so a file given twice keeps the path of the widest folder
    for target in sorted((Path(p) for p in paths), key=lambda p: len(p.absolute().parts)):
        if not target.exists():
            report.failed.append(FileProblem(str(target), "no such file or folder"))
            continue
        if target.is_dir():
            roots.append(str(target.absolute()))
        try:
            for candidate in session.files(target):
                if scope is None or str(candidate.path) in scope:
                    candidates.setdefault(str(candidate.path), candidate)
        except OSError as exc:
            report.failed.append(FileProblem(str(target), f"cannot read: {exc.strerror}"))
    changes = Changes(started_at=started)
    seen: set[str] = set()
    for location, candidate in _progress(list(candidates.items()), progress):
        if candidate.kind is None:
            report.skipped.append(FileProblem(candidate.relpath, candidate.reason))
            continue
        seen.add(location)
        previous = known.get(location)
        if previous is not None and previous.root != str(candidate.root):
            if _inside(str(candidate.root), previous.root):
                # seen before through a wider folder: keep that path (and citations)
                candidate.root, candidate.relpath = Path(previous.root), previous.path
            else:  # now reached through a wider folder: re-home it, same doc_id
                previous = _rehomed(previous)
        try:
            built = _build(candidate, previous, settings, default_access, limits)
            if built is not None:
                _check_id(built[0], location, ids_in_use)
        except Skipped as exc:
            report.skipped.append(FileProblem(candidate.relpath, str(exc)))
            if str(exc) in (GENERATED, MINIFIED):  # not worth indexing: out if it was in
                seen.discard(location)
            continue
        except ParseError as exc:
            report.failed.append(FileProblem(candidate.relpath, str(exc)))
            continue
        except OSError as exc:
            report.failed.append(FileProblem(candidate.relpath, f"cannot read: {exc.strerror}"))
            continue
        except Exception as exc:  # a parser bug must not abort the other files
            report.failed.append(FileProblem(candidate.relpath,
                                             f"could not parse ({type(exc).__name__}: {exc})"))
            continue
        if built is None:
            report.unchanged += 1
            continue
        document, chunks = built
        changes.upserts.append((document, chunks))
        report.chunks += len(chunks)
        (report.updated if previous else report.added).append(document.path)
    # files gone from an ingested folder are removed from the index
    for location, doc in known.items():
        if location not in seen and any(_inside(location, root) for root in roots) and (
                scope is None or location in scope):
            changes.removals.append(doc.doc_id)
            report.removed.append(doc.path)
    report.cited_alike = _cited_alike(known, changes)
    report = _commit(store, changes, report, embedder, embedder_name, progress,
                     embedder_settings, companion)
    if scope is None:  # the repositories were ingested whole at their commit
        record_repos(store, [r for r in session.repos.values() if r is not None])
    return report


def shared_paths(documents: Iterable[Document]) -> dict[str, list[str]]:
    """The paths, as citations name them, that documents under more than one folder hold
    (`a/guide.md` and `b/guide.md` ingested as two folders are both cited "guide.md"):
    each with those folders."""
    roots: dict[str, set[str]] = {}
    for doc in documents:
        roots.setdefault(doc.path, set()).add(doc.root)
    return {path: sorted(found) for path, found in roots.items() if len(found) > 1}


def _cited_alike(known: dict[str, Document], changes: Changes) -> list[FileProblem]:
    """The files this ingest adds or changes that are cited alike with a file under
    another folder (`shared_paths`), each with the other folder."""
    gone = set(changes.removals)
    written = [document for document, _ in changes.upserts]
    mine = {document.doc_id for document in written}
    shared = shared_paths([doc for doc in known.values()
                           if doc.doc_id not in gone and doc.doc_id not in mine] + written)
    return [FileProblem(document.path, f"also under {other}")
            for document in written
            for other in shared.get(document.path, []) if other != document.root]


def _commit(store: Store, changes: Changes, report: IngestReport, embedder,
            embedder_name: str | None, progress: bool, embedder_settings=None,
            companion: tuple | None = None) -> IngestReport:
    """Embed what lacks a vector (with the embedder, then its companion), then apply every
    change in one transaction."""
    changes.unchanged, changes.failed = report.unchanged, len(report.failed)
    if embedder is not None:
        report.embedded = _embed(store, changes, embedder, embedder_name, progress,
                                 embedder_settings)
        if companion is not None:
            _embed(store, changes, companion[0], companion[1], progress, embedder_settings)
    if changes.upserts or changes.removals:
        store.apply(changes)
        vectors.prune(store)  # the chunks that went leave orphan vectors: keep them bounded
    return report


def _embed(store: Store, changes: Changes, embedder, name: str | None, progress: bool,
           settings=None) -> int:
    """Vectors for the new chunks and for indexed chunks that have none (back-fill). A
    back-filled definition is embedded without its container's doc (`Chunk.context` is
    read at chunking, not stored): the next ingest that rebuilds its file embeds it whole."""
    items = [(c.text_hash, vectors.passage_text(doc.path, doc.title, c.heading, c.symbol, c.text,
                                                c.context))
             for doc, chunks in changes.upserts for c in chunks]
    items += [(h, vectors.passage_text(path, title, heading, symbol, body))
              for h, path, title, heading, symbol, body
              in store.passages_without_vectors(vectors.model_key(embedder))]
    return vectors.embed_missing(store, embedder, items, name=name, progress=progress,
                                 settings=settings)


def _location(root: str, relpath: str) -> str:
    return os.path.join(root, *relpath.split("/"))


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


class _Scope:
    """The files and folders an ingest is limited to (`only`): a location is in it when it
    is one of them or inside one that is not a file (a folder, or a path now gone)."""

    def __init__(self, paths: Iterable[str | os.PathLike]):
        self.paths = {os.path.abspath(p) for p in paths}
        self.folders = tuple(p.rstrip(os.sep) + os.sep for p in self.paths
                             if not os.path.isfile(p))

    def __contains__(self, location: str) -> bool:
        return location in self.paths or location.startswith(self.folders)


def _rehomed(previous: Document) -> Document:
    """A copy that no longer matches by fingerprint, so the file is rebuilt at its new path."""
    return Document(**{**previous.__dict__, "content_hash": ""})


def _check_id(document: Document, location: str, ids_in_use: dict[str, str]) -> None:
    """Two files may not claim the same `id:`; the second one is refused, not merged."""
    owner = ids_in_use.get(document.doc_id)
    if owner is not None and owner != location and os.path.exists(owner):
        raise ParseError(f"id {document.doc_id!r} is already used by {owner}")
    ids_in_use[document.doc_id] = location


def _build(candidate: Candidate, previous: Document | None, settings: ChunkSettings,
           default_access: str | None, limits: Limits) -> tuple[Document, list[Chunk]] | None:
    """Parse one file into a document and its chunks, or None if it has not changed."""
    data = read_regular(candidate.path, limits.max_bytes)
    if not data:
        if candidate.path.name == "__init__.py":
            raise Skipped(EMPTY_MARKER)
        raise Skipped(NO_TEXT)  # fine, nothing to index: a note, not a failure
    kind = kinds.get(candidate.kind)
    skip = not kind.binary and generated(candidate.path, data)
    if skip:
        raise Skipped(skip)
    sidecar, sidecar_bytes = read_sidecar(candidate.path)
    repo = candidate.repo
    parts = [PIPELINE_VERSION.encode(), repr(settings).encode(), str(default_access).encode(),
             sidecar_bytes, data]
    if candidate.kind in KIND_VERSIONS:
        parts.append(KIND_VERSIONS[candidate.kind].encode())
    if repo is not None:  # its remote and whether it is as committed (not its commit)
        parts.append(repo.fingerprint(candidate.repo_path).encode())
    digest = hashlib.sha256()
    for part in parts:
        digest.update(hashlib.sha256(part).digest())
    fingerprint = digest.hexdigest()
    if (previous is not None and previous.content_hash == fingerprint
            and FILE_DIGEST in previous.meta):  # indexed before digests: record it now
        return None
    check(kind, data, limits)
    parsed = kind.read(data, settings, candidate.path.suffix.lower() or candidate.path.name)
    if not parsed.chunks:  # a heading-only page, a file of blank lines
        raise Skipped(NO_TEXT)
    meta = normalise({**parsed.meta, **sidecar})
    meta[FILE_DIGEST] = hashlib.sha256(data).hexdigest()  # what viewers check before serving
    meta.pop(SOURCE_URL, None)  # a link is pinned from git only, never from a file's words
    if repo is not None:
        meta.update(repo.metadata(candidate.repo_path))
    if meta.get("access") is None and default_access:
        meta["access"] = default_access
    if previous is not None and not meta.get("id"):
        meta["id"] = previous.doc_id  # a file keeps its id across edits and moves
    return assemble(candidate.relpath, str(candidate.root), candidate.kind, parsed, meta,
                    fingerprint, len(data), fallback_title=candidate.path.stem)


def assemble(relpath: str, root: str, kind: str, parsed: Parsed, meta: dict,
             fingerprint: str, size: int, fallback_title: str = "", path_terms: bool = True,
             ) -> tuple[Document, list[Chunk]]:
    """The document record and its numbered, tokenized chunks for one parsed source.

    With `path_terms`, a chunk is also findable by its file's path (`numerotation.py`);
    records of reference collections turn it off, since their ids can leak the answer."""
    if not parsed.chunks:
        raise ParseError("no text to index")
    doc_id = meta.get("id") or hashlib.sha1(f"{root}/{relpath}".encode()).hexdigest()[:16]
    language = meta.get("language") or text.detect_language(parsed.language_sample)
    title = meta.get("title") or parsed.title or fallback_title
    document = Document(
        doc_id=doc_id, path=relpath, root=root, kind=kind,
        title=title, language=language, content_hash=fingerprint,
        access=meta.get("access"), version=meta.get("version"),
        effective_from=meta.get("effective_from"), effective_to=meta.get("effective_to"),
        size=size, pages=parsed.pages,
        meta={k: v for k, v in meta.items() if k not in KNOWN_KEYS},
    )
    if kind != "code":
        _title_pages_as_navigation(parsed.chunks, title)
    stem_language = language if language in text.LANGUAGES else ""
    # what a chunk is about but does not say itself: its file, title, section and symbol
    module = module_name(relpath)
    for ordinal, chunk in enumerate(parsed.chunks):
        if chunk.symbol == "<module>":
            chunk.symbol = module
        chunk.ordinal = ordinal
        chunk.doc_id = doc_id
        chunk.chunk_id = f"{doc_id}:{ordinal}"
        context = " ".join(filter(None, [relpath if path_terms else "", title,
                                         chunk.heading, chunk.symbol, chunk.context,
                                         role_words(chunk.heading, chunk.symbol)]))
        context_tokens = text.tokens(context, stem_language)
        chunk.tokens = context_tokens + text.tokens(chunk.text, stem_language)
        chunk.title_tokens = len(context_tokens)
        chunk.text_hash = vectors.text_hash(
            vectors.passage_text(relpath, title, chunk.heading, chunk.symbol, chunk.text,
                                 chunk.context))
    return document, parsed.chunks


def _title_pages_as_navigation(chunks: list[Chunk], title: str) -> None:
    """Passages that only repeat their titles, or only name other manual pages ("SEE ALSO
    gitignore(5)"), take the role "navigation" (retrieval leaves them out), unless nothing
    else in the document would be left."""
    marked = [c for c in chunks if c.role == BODY and (
        is_title_only(c.text, [title, c.heading or ""])
        or only_refers(c.text, [title, c.heading or ""]))]
    if len(marked) < sum(c.role == BODY for c in chunks):
        for chunk in marked:
            chunk.role = NAVIGATION


def ingest_records(store: Store, records: Iterable, *, source: str, language: str = "",
                   access: str | None = "public", settings: ChunkSettings | None = None,
                   progress: bool = False, embedder=None,
                   embedder_name: str | None = None, embedder_settings=None,
                   companion: tuple | None = None) -> IngestReport:
    """Index in-memory records (objects with `id`, `title`, `text`) as text documents.

    Used for reference collections (BEIR, PIAF, Cranfield): each record's path is its id,
    under the pseudo-root `source`; incremental like files, atomic like files."""
    settings = settings or ChunkSettings()
    if access is not None:
        access = validate_label(access)
    report = IngestReport()
    known = {doc.path: doc for doc in store.documents() if doc.root == source}
    changes = Changes(started_at=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"))
    seen: set[str] = set()
    records = list(records)
    # a record too short to tell its language takes the collection's, when it has one
    fallback = language or text.collection_language(r.text for r in records)
    for record in _progress(records, progress):
        seen.add(record.id)
        body = f"{record.title}\n\n{record.text}" if record.title else record.text
        own = language or text.detect_language(body) or fallback
        fingerprint = hashlib.sha256(
            f"{PIPELINE_VERSION}:records{settings!r}{own}{access}\0{body}".encode()).hexdigest()
        previous = known.get(record.id)
        if previous is not None and previous.content_hash == fingerprint:
            report.unchanged += 1
            continue
        parsed = Parsed(title=record.title, language_sample=body,
                        chunks=chunks_from_text(body, settings))
        try:
            document, chunks = assemble(record.id, source, "text", parsed,
                                        {"language": own, "access": access},
                                        fingerprint, len(body), path_terms=False)
        except ParseError as exc:
            report.failed.append(FileProblem(record.id, str(exc)))
            continue
        changes.upserts.append((document, chunks))
        report.chunks += len(chunks)
        (report.updated if previous else report.added).append(record.id)
    for path, doc in known.items():
        if path not in seen:
            changes.removals.append(doc.doc_id)
            report.removed.append(path)
    return _commit(store, changes, report, embedder, embedder_name, progress,
                   embedder_settings, companion)


def _progress(items: list, enabled: bool):
    if not enabled or not sys.stderr.isatty():
        return items
    from tqdm import tqdm

    return tqdm(items, desc="ingest", unit="file", file=sys.stderr, leave=False)
