"""The records that travel through the pipeline: documents, chunks, filters and hits.

Plain dataclasses, no behaviour beyond small derived properties, so every stage (parsers,
store, retrievers, answer builders) speaks the same vocabulary.
"""

from __future__ import annotations

import datetime as dt
import re
import textwrap
from dataclasses import asdict, dataclass, field
from typing import Any

from preuve.errors import InvalidInput

# A fenced code block (Markdown's, and an HTML <pre> as the index keeps it): its fence, its
# lines, the same fence closing it (or the text's end)
FENCED = re.compile(r"^[ \t]*(```|~~~)[^\n]*\n.*?(?:^[ \t]*\1[ \t]*$|\Z)", re.M | re.S)
_FENCE_LINE = re.compile(r"^[ \t]*(?:```|~~~)[^\n]*(?:\n|$)", re.M)


def without_fences(text: str) -> str:
    """`text` without the lines that open or close its code blocks (what is embedded, what
    a list of sources shows: the fences say nothing of what the code means)."""
    return _FENCE_LINE.sub("", text)

# A chunk's `role`: body text, or navigation (a table of contents, an index, a list of
# links), which retrieval leaves out unless `Filters.navigation` asks for it.
BODY, NAVIGATION = "body", "navigation"

# Document.meta key of a file's page at the commit it was indexed at (`Hit.source_url`)
SOURCE_URL = "source_url"

# Access label a document gets when it has none: only the operator (audience None) reads it.
UNLABELLED = None
PUBLIC = "public"

# Access labels and audiences share one closed grammar. Words that read as "everything" are
# reserved: the operator is the absence of an audience, never a label anyone can be given.
# The longest search query and question (characters) any front end takes: the HTTP
# models, the CLI and the Python API (`Index`) read these.
QUERY_LIMIT = 2000
QUESTION_LIMIT = 4000
# Passages an answer is drawn from and shown as its sources (ask, chat; every front end):
# six, not five, because on the manuals set the passage holding the fact ranked 5th or 6th
# for 6 of 72 questions (docs/answers.md).
ASK_K = 6

LABEL_GRAMMAR = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
RESERVED_LABELS = frozenset({"all", "any", "everyone", "none", "operator", "*"})


def validate_label(value: object, what: str = "access label") -> str:
    """`value` as a label (trimmed, lower case), or ValueError saying why it is not one.

    Used for documents' `access`, audiences of API keys, MCP servers and searches."""
    label = value.strip().lower() if isinstance(value, str) else value
    if not isinstance(label, str) or not label:
        raise InvalidInput(f"{what} {value!r}: empty; a label is a word such as public or staff")
    if label in RESERVED_LABELS:
        raise InvalidInput(f"{what} {value!r} is reserved (it would read as every document); "
                           "the operator reads everything by giving no audience at all")
    if not LABEL_GRAMMAR.fullmatch(label):
        raise InvalidInput(f"{what} {value!r}: a label is 1-64 characters, lower-case letters, "
                           "digits, '-' and '_', starting with a letter or digit")
    return label


@dataclass
class Document:
    """One source file as indexed: identity, provenance and the metadata filters use."""

    doc_id: str
    path: str  # relative to the ingest root, with forward slashes
    root: str  # absolute folder the path is relative to (base for links)
    kind: str
    title: str
    language: str  # "fr", "en" or "" when unknown
    content_hash: str  # fingerprint of what was indexed (file bytes, sidecar, settings)
    access: str | None = UNLABELLED
    version: str | None = None
    effective_from: str | None = None  # YYYY-MM-DD, inclusive
    effective_to: str | None = None  # YYYY-MM-DD, inclusive
    size: int = 0
    pages: int = 0  # PDF pages, 0 for other kinds
    meta: dict[str, Any] = field(default_factory=dict)  # front matter keys we do not model


@dataclass
class Chunk:
    """A passage: the unit that is searched, cited and shown.

    Positions are 1-based and inclusive. `start_line`/`end_line` are set for code, text,
    Markdown and HTML; `page` (PDF page index, 1-based) and `page_label` (printed label)
    for PDFs. `symbol` is the qualified code name (`Class.method`) for code chunks.
    `role` is "body", or "navigation" for a table of contents, an index or a list of
    links (found by `preuve.ingest.navigation`): kept, but left out of retrieval unless
    `Filters.navigation` asks for it.
    """

    text: str
    ordinal: int = 0
    heading: str = ""  # heading path, "Congés > Télétravail"
    # searched with the chunk, neither shown nor stored: what it belongs to says of it
    # (a method's class doc summary: "Formats incoming records into a one-line string")
    context: str = ""
    page: int | None = None
    page_label: str | None = None
    start_line: int | None = None
    end_line: int | None = None
    symbol: str | None = None
    symbol_kind: str | None = None  # module, constant, class, function, method
    chunk_id: str = ""
    doc_id: str = ""
    tokens: list[str] = field(default_factory=list)  # BM25 terms, set at ingest
    # how many of the first `tokens` are the chunk's context (path, title, heading path,
    # symbol): BM25F's title field (preuve/keyword/)
    title_tokens: int = 0
    text_hash: str = ""  # sha256 of what is embedded: the key of the vector cache
    role: str = "body"  # "body" or "navigation"


@dataclass(frozen=True)
class Filters:
    """Restrictions applied inside every retrieval method, before the top k is cut.

    `audience=None` means the caller is the operator; any other value must be a valid label
    (`validate_label`, checked here so that no Filters reads more than its audience) and
    restricts to `public` plus chunks labelled exactly with that audience. Unlabelled
    documents are only visible to the operator. Navigation chunks (tables of contents,
    indexes) are left out unless `navigation` is True.
    """

    as_of: dt.date | None = None
    audience: str | None = None
    path_prefixes: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    navigation: bool = False

    def __post_init__(self) -> None:
        if self.audience is not None:
            object.__setattr__(self, "audience", validate_label(self.audience, "audience"))

    def readable_labels(self) -> tuple[str, ...] | None:
        """The boundary: access labels this audience may read; None means every chunk (the
        operator). Every retriever, lookup and listing filters through this."""
        if self.audience is None:
            return None
        if self.audience == PUBLIC:
            return (PUBLIC,)
        return (PUBLIC, self.audience)


@dataclass(slots=True)
class Hit:
    """A retrieved chunk with its rank and score, as printed by `search --json`."""

    rank: int
    score: float
    chunk_id: str
    doc_id: str
    path: str
    kind: str
    title: str
    heading: str
    page: int | None
    page_label: str | None
    start_line: int | None
    end_line: int | None
    symbol: str | None
    symbol_kind: str | None
    text: str
    language: str = ""
    access: str | None = None
    root: str = ""
    role: str = "body"
    # the file's page on its forge at the commit it was indexed at (git repositories with a
    # GitHub, GitLab, Gitea or Bitbucket remote; `preuve.forges`), else None
    source_url: str | None = None
    scores: dict[str, Any] = field(default_factory=dict)  # per-method rank/score (--explain)

    @property
    def label(self) -> str:
        """The citation label: `file.pdf p. N` for pages, `path:start-end` otherwise."""
        if self.page is not None:
            return f"{self.path} p. {self.page}"
        if self.start_line is not None:
            end = self.end_line if self.end_line is not None else self.start_line
            return f"{self.path}:{self.start_line}-{end}"
        return self.path

    @property
    def shown_label(self) -> str:
        """The label as a reader with the printed document needs it: the page index (what
        links open) and the printed page where it differs, `manual.pdf p. 33 (printed 25)`."""
        printed = self.page_label
        if self.page is not None and printed and printed.strip() != str(self.page):
            return f"{self.label} (printed {printed.strip()})"
        return self.label

    def preview(self, width: int, placeholder: str = " …") -> str:
        """The passage's text on one line, at most `width` characters, as lists of sources
        show it (a code block's fences left out)."""
        flat = " ".join(without_fences(self.text).split())
        return textwrap.shorten(flat, width, placeholder=placeholder) if width else flat

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["label"] = self.label
        d["shown_label"] = self.shown_label
        return d


def within_limit(text: str, limit: int, what: str) -> str:
    """`text` when it is not empty and at most `limit` characters; else InvalidInput saying
    so (a 120 KB question read by the CLI took 6.9 s and 914 MB before it was refused)."""
    from preuve.errors import InvalidInput

    if not text.strip():
        raise InvalidInput(f"the {what} is empty")
    if len(text) > limit:
        raise InvalidInput(f"the {what} has {len(text):,} characters; at most {limit:,} "
                           "are read")
    return text
